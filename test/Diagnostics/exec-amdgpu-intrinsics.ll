; AMDGPU intrinsics and ockl helpers the executor refuses: poison where an
; operand must be defined, a lane index outside the wave, a control or an
; instruction the chip does not have, what is not modelled. One
; "crosslane-run: error:" line naming the operand and the instruction.
; REQUIRES: executor
; RUN: not %crosslane-run %s --kernel=readlane_poison --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=RLPOISON
; RLPOISON: crosslane-run: error: readlane lane index is poison in lane 0 at readlane_poison:entry:1
; RUN: not %crosslane-run %s --kernel=writelane_index --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=WLINDEX
; WLINDEX: crosslane-run: error: writelane lane index 100 >= wave size at writelane_index:entry:1
; gfx600 (Southern Islands) has no DPP at all:
; RUN: not %crosslane-run %s --kernel=dpp --mcpu=gfx600 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=NODPP
; NODPP: crosslane-run: error: DPP is not available on gfx600 at dpp:entry:1
; Offset 0x8100: quad-permute mode with reserved bits set.
; RUN: not %crosslane-run %s --kernel=swizzle --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=SWIZZLE
; SWIZZLE: crosslane-run: error: ds.swizzle offset 0x8100 has reserved bits set or a mode gfx942 does not have at swizzle:entry:1
; permlane16.swap is GFX950's:
; RUN: not %crosslane-run %s --kernel=permlane16_swap --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=SWAP16
; SWAP16: crosslane-run: error: permlane16.swap is not available on gfx942 at permlane16_swap:entry:1
; RUN: not %crosslane-run %s --kernel=bpermute_poison --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=BPERM
; BPERM: crosslane-run: error: ds_(b)permute address is poison in lane 0 at bpermute_poison:entry:1
; RUN: not %crosslane-run %s --kernel=groupstaticsize --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=GSS
; GSS: crosslane-run: error: llvm.amdgcn.groupstaticsize is not modelled at groupstaticsize:entry:1
; RUN: not %crosslane-run %s --kernel=read_m0 --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=REG
; REG: crosslane-run: error: llvm.read_register of 'm0' is not modelled at read_m0:entry:1
; RUN: not %crosslane-run %s --kernel=wfany_poison --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=WFANY
; WFANY: crosslane-run: error: __ockl_wfany_i32 operand is poison at wfany_poison:entry:1
; RUN: not %crosslane-run %s --kernel=local_id_poison --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=DIM
; DIM: crosslane-run: error: __ockl_get_local_id dimension is poison at local_id_poison:entry:1

target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.writelane.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare { i32, i32 } @llvm.amdgcn.permlane16.swap(i32, i32, i1 immarg, i1 immarg)
declare i32 @llvm.amdgcn.groupstaticsize()
declare i32 @llvm.read_register.i32(metadata)
declare i32 @__ockl_wfany_i32(i32)
declare i64 @__ockl_get_local_id(i32)

define amdgpu_kernel void @readlane_poison(ptr addrspace(1) %out) {
entry:
  %v = call i32 @llvm.amdgcn.readlane.i32(i32 1, i32 poison)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @writelane_index(ptr addrspace(1) %out) {
entry:
  %v = call i32 @llvm.amdgcn.writelane.i32(i32 1, i32 100, i32 0)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

; row_shr:1
define amdgpu_kernel void @dpp(ptr addrspace(1) %out) {
entry:
  %v = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 1, i32 273, i32 15, i32 15, i1 false)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @swizzle(ptr addrspace(1) %out) {
entry:
  %v = call i32 @llvm.amdgcn.ds.swizzle(i32 1, i32 33024)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @permlane16_swap(ptr addrspace(1) %out) {
entry:
  %s = call { i32, i32 } @llvm.amdgcn.permlane16.swap(i32 1, i32 2, i1 false, i1 false)
  %v = extractvalue { i32, i32 } %s, 0
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @bpermute_poison(ptr addrspace(1) %out) {
entry:
  %v = call i32 @llvm.amdgcn.ds.bpermute(i32 poison, i32 1)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @groupstaticsize(ptr addrspace(1) %out) {
entry:
  %v = call i32 @llvm.amdgcn.groupstaticsize()
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @read_m0(ptr addrspace(1) %out) {
entry:
  %v = call i32 @llvm.read_register.i32(metadata !0)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @wfany_poison(ptr addrspace(1) %out) {
entry:
  %v = call i32 @__ockl_wfany_i32(i32 poison)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @local_id_poison(ptr addrspace(1) %out) {
entry:
  %v = call i64 @__ockl_get_local_id(i32 poison)
  store i64 %v, ptr addrspace(1) %out
  ret void
}

!0 = !{!"m0"}
