; crosslane-recognize-arg-phase<lane-atomics>: every lane's atomicMin/Max/
; And/Or/Xor/Add to one uniform address with an unused result becomes a
; Crosslane reduction over the wave and one atomic from the first active
; lane (from ../lane-atomics.hip). The reductions are calls the subgroup
; expansion lowers; the executor runs them by their reference semantics.
; REQUIRES: executor
; RUN: opt %loadcrosslane -passes='crosslane-recognize-arg-phase<lane-atomics>,verify' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; CHECK-LABEL: define {{.*}} @atomics_i32(
; CHECK-COUNT-8: call {{.*}}@__crosslane_reduce_
; The phase computes what the input computes (the executor, every input class):
; RUN: %crosslane-run %s --diff=%t.ll --kernel=atomics_i32 --mcpu=gfx942 --grid=3 --block=64 --sizes=1,5,64,100,192 --seed=7 --print=none --arg=buf:i32:192:input --arg=buf:i32:8:const=0 --arg=i32:N --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
; DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
; Alone, the full pass undoes a phase no rewrite used; this pass keeps it.

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define protected amdgpu_kernel void @atomics_i32(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call i64 @__ockl_get_group_id(i32 noundef 0) #2
  %5 = trunc i64 %4 to i32
  %6 = tail call i64 @__ockl_get_local_size(i32 noundef 0) #2
  %7 = trunc i64 %6 to i32
  %8 = mul i32 %7, %5
  %9 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #2
  %10 = trunc i64 %9 to i32
  %11 = add i32 %8, %10
  %12 = icmp slt i32 %11, %2
  br i1 %12, label %13, label %32

13:                                               ; preds = %3
  %14 = sext i32 %11 to i64
  %15 = getelementptr inbounds i32, ptr addrspace(1) %0, i64 %14
  %16 = load i32, ptr addrspace(1) %15, align 4, !tbaa !5
  %17 = atomicrmw add ptr addrspace(1) %1, i32 %16 syncscope("agent") monotonic, align 4, !noalias.addrspace !9, !amdgpu.no.fine.grained.memory !10, !amdgpu.no.remote.memory !10
  %18 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 4
  %19 = atomicrmw min ptr addrspace(1) %18, i32 %16 syncscope("agent") monotonic, align 4, !noalias.addrspace !9, !amdgpu.no.fine.grained.memory !10, !amdgpu.no.remote.memory !10
  %20 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  %21 = atomicrmw max ptr addrspace(1) %20, i32 %16 syncscope("agent") monotonic, align 4, !noalias.addrspace !9, !amdgpu.no.fine.grained.memory !10, !amdgpu.no.remote.memory !10
  %22 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 12
  %23 = atomicrmw and ptr addrspace(1) %22, i32 %16 syncscope("agent") monotonic, align 4, !noalias.addrspace !9, !amdgpu.no.fine.grained.memory !10, !amdgpu.no.remote.memory !10
  %24 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 16
  %25 = atomicrmw or ptr addrspace(1) %24, i32 %16 syncscope("agent") monotonic, align 4, !noalias.addrspace !9, !amdgpu.no.fine.grained.memory !10, !amdgpu.no.remote.memory !10
  %26 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 20
  %27 = atomicrmw xor ptr addrspace(1) %26, i32 %16 syncscope("agent") monotonic, align 4, !noalias.addrspace !9, !amdgpu.no.fine.grained.memory !10, !amdgpu.no.remote.memory !10
  %28 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 24
  %29 = atomicrmw umin ptr addrspace(1) %28, i32 %16 syncscope("agent") monotonic, align 4, !noalias.addrspace !9, !amdgpu.no.fine.grained.memory !10, !amdgpu.no.remote.memory !10
  %30 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 28
  %31 = atomicrmw umax ptr addrspace(1) %30, i32 %16 syncscope("agent") monotonic, align 4, !noalias.addrspace !9, !amdgpu.no.fine.grained.memory !10, !amdgpu.no.remote.memory !10
  br label %32

32:                                               ; preds = %13, %3
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_group_id(i32 noundef) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_size(i32 noundef) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_id(i32 noundef) local_unnamed_addr #1

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "amdgpu-flat-work-group-size"="1,1024" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress nofree nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="false" }
attributes #2 = { convergent nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 600}
!1 = !{i32 1, !"amdgpu_printf_kind", !"hostcall"}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 8, !"PIC Level", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
!9 = !{i32 5, i32 6}
!10 = !{}
