; llvm.amdgcn.wave.reduce.* (clang's __builtin_amdgcn_wave_reduce_*), which
; LLVM 22 lowers to a serial readlane loop whatever the strategy operand,
; becomes the DPP sequence; sub/fsub reduce the negated values.
; RUN: opt %loadcrosslane -passes=crosslane-expand-subgroup -S %s | FileCheck %s --check-prefix=IR
; RUN: opt %loadcrosslane -passes=crosslane-expand-subgroup %s | llc -O3 -mtriple=amdgcn-amd-amdhsa | FileCheck %s --check-prefix=ISA
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa %s -o - | FileCheck %s --check-prefix=LLVM
; IR-LABEL: @umax(
; IR-NOT: wave.reduce
; IR: call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %{{.*}}, i32 273,
; IR-LABEL: @fmax(
; IR: call nnan float @llvm.maxnum.f32(
; IR-LABEL: @sub(
; IR: %[[N:.*]] = sub i32 0, %v
; IR: call i32 @llvm.amdgcn.set.inactive.i32(i32 %[[N]], i32 0)
; IR-LABEL: @fsub(
; IR: fneg float %v
; ISA-LABEL: umax:
; ISA: v_max_u32_dpp {{.*}} row_bcast:31
; ISA-NOT: s_cbranch
; ISA-LABEL: fmax:
; ISA: v_max_f32_dpp {{.*}} row_bcast:31
; ISA-NOT: s_cbranch
; ISA-LABEL: sub:
; LLVM-LABEL: umax:
; LLVM: s_ff1_i32_b64
; LLVM: s_cbranch_scc1
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @umax(ptr addrspace(1) %p) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %id
  %v = load i32, ptr addrspace(1) %g
  %r = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %v, i32 2)
  store i32 %r, ptr addrspace(1) %g
  ret void
}
define amdgpu_kernel void @fmax(ptr addrspace(1) %p) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr float, ptr addrspace(1) %p, i32 %id
  %v = load float, ptr addrspace(1) %g
  %r = call float @llvm.amdgcn.wave.reduce.fmax.f32(float %v, i32 0)
  store float %r, ptr addrspace(1) %g
  ret void
}
define amdgpu_kernel void @sub(ptr addrspace(1) %p) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %id
  %v = load i32, ptr addrspace(1) %g
  %r = call i32 @llvm.amdgcn.wave.reduce.sub.i32(i32 %v, i32 0)
  store i32 %r, ptr addrspace(1) %g
  ret void
}
define amdgpu_kernel void @fsub(ptr addrspace(1) %p) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr float, ptr addrspace(1) %p, i32 %id
  %v = load float, ptr addrspace(1) %g
  %r = call float @llvm.amdgcn.wave.reduce.fsub.f32(float %v, i32 0)
  store float %r, ptr addrspace(1) %g
  ret void
}
attributes #0 = { "target-cpu"="gfx942" }
