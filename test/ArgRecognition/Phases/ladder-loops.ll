; crosslane-recognize-arg-phase<ladder-loops>: PyTorch's block_x_reduce ladder
; (for (offset = 1; offset < dim_x; offset <<= 1)) has a run-time trip
; count; the phase gives the loop unrolled copies, one per power-of-two
; span of lanes, each entered behind a wave-uniform guard, and keeps the
; loop for other counts (from ../ladder-loop.hip).
; REQUIRES: executor
; RUN: opt %loadcrosslane -passes='crosslane-recognize-arg-phase<ladder-loops>,verify' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; CHECK-LABEL: define {{.*}} @block_argmax(
; The loop's 3 exchanges, and 18 in its unrolled copies:
; CHECK-COUNT-21: call {{.*}}@llvm.amdgcn.ds.bpermute(
; The phase computes what the input computes (the executor, every input class):
; RUN: %crosslane-run %s --diff=%t.ll --kernel=block_argmax --mcpu=gfx942 --grid=3 --block=N --sizes=1,8,16,32,64,128 --seed=3 --print=none --arg=buf:f32:600:input --arg=buf:i64:3:zero --arg=i32:200 --inputs=random,all-equal,ties,all-nan,pm-zero,pm-inf,neg-max --nan-equal | FileCheck %s --check-prefix=DIFF
; DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
; Alone, the full pass undoes a phase no rewrite used; this pass keeps it.

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@_ZZ12block_argmaxE2SV = external hidden unnamed_addr addrspace(3) global [1024 x float], align 16
@_ZZ12block_argmaxE2SI = external hidden unnamed_addr addrspace(3) global [1024 x i64], align 16

; Function Attrs: convergent mustprogress nofree norecurse nounwind
define protected amdgpu_kernel void @block_argmax(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call i64 @__ockl_get_group_id(i32 noundef 0) #5
  %5 = and i64 %4, 4294967295
  %6 = sext i32 %2 to i64
  %7 = mul nsw i64 %5, %6
  %8 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %7
  %9 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #5
  %10 = trunc i64 %9 to i32
  %11 = icmp sgt i32 %2, %10
  br i1 %11, label %20, label %12

12:                                               ; preds = %38, %3
  %13 = phi float [ 0xFFF0000000000000, %3 ], [ %40, %38 ]
  %14 = phi i64 [ 0, %3 ], [ %41, %38 ]
  %15 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #5
  %16 = trunc i64 %15 to i32
  %17 = tail call i64 @__ockl_get_local_size(i32 noundef 0) #5
  %18 = trunc i64 %17 to i32
  %19 = icmp sgt i32 %18, 64
  br i1 %19, label %46, label %81

20:                                               ; preds = %38, %3
  %21 = phi i64 [ %41, %38 ], [ 0, %3 ]
  %22 = phi float [ %40, %38 ], [ 0xFFF0000000000000, %3 ]
  %23 = phi i32 [ %44, %38 ], [ %10, %3 ]
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds float, ptr addrspace(1) %8, i64 %24
  %26 = load float, ptr addrspace(1) %25, align 4, !tbaa !9
  %27 = fcmp contract uno float %22, 0.000000e+00
  br i1 %27, label %28, label %32

28:                                               ; preds = %20
  %29 = fcmp contract ord float %26, 0.000000e+00
  %30 = icmp slt i64 %21, %24
  %31 = select i1 %29, i1 true, i1 %30
  br label %38

32:                                               ; preds = %20
  %33 = fcmp contract oeq float %22, %26
  br i1 %33, label %34, label %36

34:                                               ; preds = %32
  %35 = icmp slt i64 %21, %24
  br label %38

36:                                               ; preds = %32
  %37 = fcmp contract ogt float %22, %26
  br label %38

38:                                               ; preds = %36, %34, %28
  %39 = phi i1 [ %31, %28 ], [ %35, %34 ], [ %37, %36 ]
  %40 = select i1 %39, float %22, float %26
  %41 = select i1 %39, i64 %21, i64 %24
  %42 = tail call i64 @__ockl_get_local_size(i32 noundef 0) #5
  %43 = trunc i64 %42 to i32
  %44 = add i32 %23, %43
  %45 = icmp slt i32 %44, %2
  br i1 %45, label %20, label %12, !llvm.loop !11

46:                                               ; preds = %12
  %47 = getelementptr inbounds float, ptr addrspace(3) @_ZZ12block_argmaxE2SV, i32 %16
  store float %13, ptr addrspace(3) %47, align 4, !tbaa !9
  %48 = getelementptr inbounds i64, ptr addrspace(3) @_ZZ12block_argmaxE2SI, i32 %16
  store i64 %14, ptr addrspace(3) %48, align 8, !tbaa !13
  %49 = icmp samesign ugt i32 %18, 127
  br i1 %49, label %50, label %81

50:                                               ; preds = %77, %46
  %51 = phi i32 [ %54, %77 ], [ %18, %46 ]
  %52 = phi i64 [ %79, %77 ], [ %14, %46 ]
  %53 = phi float [ %78, %77 ], [ %13, %46 ]
  %54 = lshr i32 %51, 1
  fence syncscope("workgroup") release
  tail call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %55 = icmp sgt i32 %54, %16
  br i1 %55, label %56, label %77

56:                                               ; preds = %50
  %57 = add nsw i32 %54, %16
  %58 = getelementptr inbounds float, ptr addrspace(3) @_ZZ12block_argmaxE2SV, i32 %57
  %59 = load float, ptr addrspace(3) %58, align 4, !tbaa !9
  %60 = getelementptr inbounds i64, ptr addrspace(3) @_ZZ12block_argmaxE2SI, i32 %57
  %61 = load i64, ptr addrspace(3) %60, align 8, !tbaa !13
  %62 = fcmp contract uno float %53, 0.000000e+00
  br i1 %62, label %63, label %67

63:                                               ; preds = %56
  %64 = fcmp contract ord float %59, 0.000000e+00
  %65 = icmp slt i64 %52, %61
  %66 = select i1 %64, i1 true, i1 %65
  br label %73

67:                                               ; preds = %56
  %68 = fcmp contract oeq float %53, %59
  br i1 %68, label %69, label %71

69:                                               ; preds = %67
  %70 = icmp slt i64 %52, %61
  br label %73

71:                                               ; preds = %67
  %72 = fcmp contract ogt float %53, %59
  br label %73

73:                                               ; preds = %71, %69, %63
  %74 = phi i1 [ %66, %63 ], [ %70, %69 ], [ %72, %71 ]
  %75 = select i1 %74, float %53, float %59
  %76 = select i1 %74, i64 %52, i64 %61
  store float %75, ptr addrspace(3) %47, align 4, !tbaa !9
  store i64 %76, ptr addrspace(3) %48, align 8, !tbaa !13
  br label %77

77:                                               ; preds = %73, %50
  %78 = phi float [ %75, %73 ], [ %53, %50 ]
  %79 = phi i64 [ %76, %73 ], [ %52, %50 ]
  %80 = icmp ugt i32 %51, 255
  br i1 %80, label %50, label %81, !llvm.loop !15

81:                                               ; preds = %77, %46, %12
  %82 = phi i32 [ %18, %12 ], [ 64, %46 ], [ 64, %77 ]
  %83 = phi float [ %13, %12 ], [ %13, %46 ], [ %78, %77 ]
  %84 = phi i64 [ %14, %12 ], [ %14, %46 ], [ %79, %77 ]
  %85 = icmp slt i32 %16, 64
  %86 = icmp sgt i32 %82, 1
  %87 = and i1 %85, %86
  br i1 %87, label %88, label %130

88:                                               ; preds = %81
  %89 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %90 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %89)
  %91 = and i32 %90, 63
  br label %92

92:                                               ; preds = %124, %88
  %93 = phi i64 [ %84, %88 ], [ %127, %124 ]
  %94 = phi float [ %83, %88 ], [ %126, %124 ]
  %95 = phi i32 [ 1, %88 ], [ %128, %124 ]
  %96 = bitcast float %94 to i32
  %97 = add i32 %91, %95
  %98 = icmp sgt i32 %97, 63
  %99 = select i1 %98, i32 0, i32 %95
  %100 = add i32 %99, %90
  %101 = shl i32 %100, 2
  %102 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %101, i32 %96)
  %103 = bitcast i32 %102 to float
  %104 = trunc i64 %93 to i32
  %105 = lshr i64 %93, 32
  %106 = trunc nuw i64 %105 to i32
  %107 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %101, i32 %104)
  %108 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %101, i32 %106)
  %109 = sext i32 %108 to i64
  %110 = shl nsw i64 %109, 32
  %111 = zext i32 %107 to i64
  %112 = or disjoint i64 %110, %111
  %113 = fcmp contract uno float %94, 0.000000e+00
  br i1 %113, label %114, label %118

114:                                              ; preds = %92
  %115 = fcmp contract ord float %103, 0.000000e+00
  %116 = icmp slt i64 %93, %112
  %117 = select i1 %115, i1 true, i1 %116
  br label %124

118:                                              ; preds = %92
  %119 = fcmp contract oeq float %94, %103
  br i1 %119, label %120, label %122

120:                                              ; preds = %118
  %121 = icmp slt i64 %93, %112
  br label %124

122:                                              ; preds = %118
  %123 = fcmp contract ogt float %94, %103
  br label %124

124:                                              ; preds = %122, %120, %114
  %125 = phi i1 [ %117, %114 ], [ %121, %120 ], [ %123, %122 ]
  %126 = select i1 %125, float %94, float %103
  %127 = select i1 %125, i64 %93, i64 %112
  %128 = shl i32 %95, 1
  %129 = icmp slt i32 %128, %82
  br i1 %129, label %92, label %130, !llvm.loop !16

130:                                              ; preds = %124, %81
  %131 = phi i64 [ %84, %81 ], [ %127, %124 ]
  %132 = icmp eq i32 %16, 0
  br i1 %132, label %133, label %137

133:                                              ; preds = %130
  %134 = tail call i64 @__ockl_get_group_id(i32 noundef 0) #5
  %135 = and i64 %134, 4294967295
  %136 = getelementptr inbounds nuw i64, ptr addrspace(1) %1, i64 %135
  store i64 %131, ptr addrspace(1) %136, align 8, !tbaa !13
  br label %137

137:                                              ; preds = %133, %130
  ret void
}

; Function Attrs: convergent nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #1

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #3

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_group_id(i32 noundef) local_unnamed_addr #4

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_id(i32 noundef) local_unnamed_addr #4

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_size(i32 noundef) local_unnamed_addr #4

attributes #0 = { convergent mustprogress nofree norecurse nounwind "amdgpu-flat-work-group-size"="1,1024" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nofree nounwind willreturn }
attributes #2 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #4 = { convergent mustprogress nofree nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="false" }
attributes #5 = { convergent nounwind willreturn memory(none) }

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
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !7, i64 0}
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long long", !7, i64 0}
!15 = distinct !{!15, !12}
!16 = distinct !{!16, !12}
