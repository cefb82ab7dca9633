; Controls and cross-lane instructions a chip does not have are errors that
; name them (research §2).
; REQUIRES: executor
; RUN: not %crosslane-run %s --kernel=bcast --mcpu=gfx1100 --block=32 --arg=buf:i32:32:zero 2>&1 | FileCheck %s --check-prefix=BCAST
; RUN: not %crosslane-run %s --kernel=wave_shr --mcpu=gfx1030 --block=32 --arg=buf:i32:32:zero 2>&1 | FileCheck %s --check-prefix=WAVESHR
; RUN: not %crosslane-run %s --kernel=xmask --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=XMASK
; RUN: not %crosslane-run %s --kernel=share --mcpu=gfx900 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=SHARE
; RUN: %crosslane-run %s --kernel=share --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero --print=none
; RUN: not %crosslane-run %s --kernel=p64 --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=P64
; RUN: not %crosslane-run %s --kernel=p64 --mcpu=gfx1030 --mattr=+wavefrontsize64 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=P64B
; RUN: not %crosslane-run %s --kernel=x16 --mcpu=gfx90a --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=X16
; RUN: not %crosslane-run %s --kernel=dpp8 --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=DPP8
; RUN: not %crosslane-run %s --kernel=swap --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=SWAP
; RUN: not %crosslane-run %s --kernel=bad --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=BAD

; BCAST: crosslane-run: error: row_bcast:15/31 are only available on GFX8/9 (dpp_ctrl 0x142) on gfx1100 at bcast:entry:2
; WAVESHR: error: wave_shl/wave_rol/wave_shr/wave_ror are only available on GFX8/9 (dpp_ctrl 0x138) on gfx1030
; XMASK: error: row_xmask is only available on GFX10+ (dpp_ctrl 0x161) on gfx942
; SHARE: error: row_share/row_newbcast are not available (dpp_ctrl 0x153) on gfx900
; P64: error: permlane64 is only available on GFX11+ (not gfx942) at p64:entry:2
; P64B: error: permlane64 is only available on GFX11+ (not gfx1030)
; X16: error: permlanex16 is only available on GFX10+ (not gfx90a)
; DPP8: error: DPP8 is only available on GFX10+ (not gfx942)
; SWAP: error: permlane32.swap is not available on gfx942
; BAD: error: invalid dpp_ctrl (dpp_ctrl 0x110) on gfx942

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp8.i32(i32, i32)
declare i32 @llvm.amdgcn.permlanex16.i32(i32, i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.permlane64.i32(i32)
declare { i32, i32 } @llvm.amdgcn.permlane32.swap(i32, i32, i1, i1)

define amdgpu_kernel void @bcast(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %l, i32 322, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @wave_shr(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %l, i32 312, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @xmask(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %l, i32 353, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @share(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %l, i32 339, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @p64(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.permlane64.i32(i32 %l)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @x16(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.permlanex16.i32(i32 %l, i32 %l, i32 0, i32 0, i1 false, i1 false)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @dpp8(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.mov.dpp8.i32(i32 %l, i32 0)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @swap(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %s = call { i32, i32 } @llvm.amdgcn.permlane32.swap(i32 %l, i32 %l, i1 false, i1 false)
  %r = extractvalue { i32, i32 } %s, 0
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
define amdgpu_kernel void @bad(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %l, i32 272, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
