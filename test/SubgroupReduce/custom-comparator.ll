; A user comparator is inlined at every butterfly step (no call remains),
; carrying (value, index, valid) with the tie rule; an unoptimised (-O0
; style, allocas) comparator is accepted and its allocas promoted.
; RUN: opt %loadcrosslane -passes=crosslane-expand-subgroup -S %s | FileCheck %s --check-prefix=IR
; RUN: opt %loadcrosslane -passes=crosslane-expand-subgroup %s | llc -O3 -mtriple=amdgcn-amd-amdhsa | FileCheck %s --check-prefix=ISA
; IR-LABEL: define {{.*}} @k(
; IR-NOT: call i1 @closer
; IR: call i32 @llvm.amdgcn.set.inactive.i32(i32 1, i32 0)
; IR: call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %{{.*}}, i32 177,
; IR: call float @llvm.fabs.f32(
; IR: icmp slt i32
; IR: call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %{{.*}}, i32 78,
; IR-NOT: call i1 @closer
; IR-NOT: alloca
; IR: ret void
; ISA-LABEL: k:
; ISA: v_mov_b32_dpp {{.*}} quad_perm:[1,0,3,2]
; ISA: v_mov_b32_dpp {{.*}} row_half_mirror
; ISA-NOT: s_swappc
; ISA-NOT: scratch_
target triple = "amdgcn-amd-amdhsa"
declare {float, i32} @__crosslane_argcmp_f32_i32(float, i32, ptr, i32, i32)
define internal i1 @closer(float %a, float %b) {
  %pa = alloca float, addrspace(5)
  %pb = alloca float, addrspace(5)
  store float %a, ptr addrspace(5) %pa
  store float %b, ptr addrspace(5) %pb
  %x = load float, ptr addrspace(5) %pa
  %y = load float, ptr addrspace(5) %pb
  %fx = call float @llvm.fabs.f32(float %x)
  %fy = call float @llvm.fabs.f32(float %y)
  %c = fcmp olt float %fx, %fy
  ret i1 %c
}
define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr float, ptr addrspace(1) %p, i32 %id
  %v = load float, ptr addrspace(1) %g
  %r = call {float, i32} @__crosslane_argcmp_f32_i32(float %v, i32 %id, ptr @closer, i32 8, i32 1)
  %rv = extractvalue {float, i32} %r, 0
  %ri = extractvalue {float, i32} %r, 1
  store float %rv, ptr addrspace(1) %g
  %gi = getelementptr i32, ptr addrspace(1) %q, i32 %id
  store i32 %ri, ptr addrspace(1) %gi
  ret void
}
attributes #0 = { "target-cpu"="gfx942" }
