; Bytes nobody wrote are poison when loaded. Storing them into a lane's
; private memory is what clang does when it copies a struct with padding
; through stack slots (`p = combine(p, o)` for a {int, long long} pair on
; RV32): the bytes stay uninitialised there and nothing is reported. Storing
; poison to global memory is still an error (almost always a bug), and so
; is reading such private bytes back into an output.
; RUN: %crosslane-run %s --kernel=copy_padding --mcpu=gfx942 --block=64 --arg=buf:i32:64:iota --print=all | FileCheck %s --check-prefix=COPY
; COPY: arg0[0] = 0
; COPY-NEXT: arg0[1] = 1
; COPY: arg0[63] = 63
; RUN: not %crosslane-run %s --kernel=poison_to_global --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=GLOBAL
; GLOBAL: crosslane-run: error: poison stored (lane 0) at poison_to_global:entry:3
; RUN: not %crosslane-run %s --kernel=padding_to_global --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=BACK
; BACK: crosslane-run: error: poison stored (lane 0) at padding_to_global:entry:6

target triple = "amdgcn-amd-amdhsa"

%pair = type { i32, i64 }

define amdgpu_kernel void @copy_padding(ptr addrspace(1) %out) {
entry:
  %a = alloca %pair, align 8, addrspace(5)
  %b = alloca %pair, align 8, addrspace(5)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  store i32 %tid, ptr addrspace(5) %a, align 8
  %a.pad = getelementptr inbounds i8, ptr addrspace(5) %a, i32 4
  %pad = load i32, ptr addrspace(5) %a.pad, align 4
  %b.pad = getelementptr inbounds i8, ptr addrspace(5) %b, i32 4
  store i32 %pad, ptr addrspace(5) %b.pad, align 4
  %v = load i32, ptr addrspace(5) %a, align 8
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @poison_to_global(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %tid
  store i32 poison, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @padding_to_global(ptr addrspace(1) %out) {
entry:
  %a = alloca %pair, align 8, addrspace(5)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a.pad = getelementptr inbounds i8, ptr addrspace(5) %a, i32 4
  %pad = load i32, ptr addrspace(5) %a.pad, align 4
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %tid
  store i32 %pad, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
