; crosslane-recognize-arg-phase<half-exchanges>: a __half state exchanged as
; __half2float(v) and converted back; the phase makes each exchange move
; the half's own bits, zero-extended (from ../half-as-float.hip).
; REQUIRES: executor
; RUN: opt %loadcrosslane -passes='crosslane-recognize-arg-phase<half-exchanges>,verify' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; CHECK-LABEL: define {{.*}} @argmax_float_exchange(
; CHECK: [[BITS:%.*]] = bitcast half {{%.*}} to i16
; CHECK: [[WORD:%.*]] = zext i16 [[BITS]] to i32
; CHECK: call {{.*}}@llvm.amdgcn.ds.bpermute(i32 {{%.*}}, i32 [[WORD]])
; The phase computes what the input computes (the executor, every input class):
; RUN: %crosslane-run %s --diff=%t.ll --kernel=argmax_float_exchange --mcpu=gfx942 --block=N --sizes=64,40,96 --print=none --arg=buf:f16:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
; DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
; Alone, the full pass undoes a phase no rewrite used; this pass keeps it.

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.__half = type { %union.anon }
%union.anon = type { half }

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define protected amdgpu_kernel void @argmax_float_exchange(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1, ptr addrspace(1) noundef writeonly captures(none) %2) local_unnamed_addr #0 {
  %4 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #4
  %5 = trunc i64 %4 to i32
  %6 = and i64 %4, 4294967295
  %7 = getelementptr inbounds nuw %struct.__half, ptr addrspace(1) %0, i64 %6
  %8 = load half, ptr addrspace(1) %7, align 2, !tbaa !9
  %9 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %10 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %9)
  %11 = and i32 %10, -32
  %12 = add nsw i32 %11, 32
  %13 = fpext contract half %8 to float
  %14 = bitcast float %13 to i32
  %15 = xor i32 %10, 16
  %16 = icmp slt i32 %15, %12
  %17 = select i1 %16, i32 %15, i32 %10
  %18 = shl i32 %17, 2
  %19 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %18, i32 %14)
  %20 = bitcast i32 %19 to float
  %21 = fptrunc contract float %20 to half
  %22 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %18, i32 %5)
  %23 = fcmp contract olt half %8, %21
  br i1 %23, label %28, label %24

24:                                               ; preds = %3
  %25 = fcmp contract oeq half %8, %21
  %26 = icmp slt i32 %22, %5
  %27 = and i1 %25, %26
  br i1 %27, label %28, label %31

28:                                               ; preds = %24, %3
  %29 = fpext contract half %21 to float
  %30 = bitcast float %29 to i32
  br label %31

31:                                               ; preds = %28, %24
  %32 = phi i32 [ %30, %28 ], [ %14, %24 ]
  %33 = phi float [ %29, %28 ], [ %13, %24 ]
  %34 = phi half [ %21, %28 ], [ %8, %24 ]
  %35 = phi i32 [ %22, %28 ], [ %5, %24 ]
  %36 = xor i32 %10, 8
  %37 = icmp slt i32 %36, %12
  %38 = select i1 %37, i32 %36, i32 %10
  %39 = shl i32 %38, 2
  %40 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %39, i32 %32)
  %41 = bitcast i32 %40 to float
  %42 = fptrunc contract float %41 to half
  %43 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %39, i32 %35)
  %44 = fcmp contract olt half %34, %42
  br i1 %44, label %49, label %45

45:                                               ; preds = %31
  %46 = fcmp contract oeq half %34, %42
  %47 = icmp slt i32 %43, %35
  %48 = and i1 %46, %47
  br i1 %48, label %49, label %52

49:                                               ; preds = %45, %31
  %50 = fpext contract half %42 to float
  %51 = bitcast float %50 to i32
  br label %52

52:                                               ; preds = %49, %45
  %53 = phi i32 [ %51, %49 ], [ %32, %45 ]
  %54 = phi float [ %50, %49 ], [ %33, %45 ]
  %55 = phi half [ %42, %49 ], [ %34, %45 ]
  %56 = phi i32 [ %43, %49 ], [ %35, %45 ]
  %57 = xor i32 %10, 4
  %58 = icmp slt i32 %57, %12
  %59 = select i1 %58, i32 %57, i32 %10
  %60 = shl i32 %59, 2
  %61 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %60, i32 %53)
  %62 = bitcast i32 %61 to float
  %63 = fptrunc contract float %62 to half
  %64 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %60, i32 %56)
  %65 = fcmp contract olt half %55, %63
  br i1 %65, label %70, label %66

66:                                               ; preds = %52
  %67 = fcmp contract oeq half %55, %63
  %68 = icmp slt i32 %64, %56
  %69 = and i1 %67, %68
  br i1 %69, label %70, label %73

70:                                               ; preds = %66, %52
  %71 = fpext contract half %63 to float
  %72 = bitcast float %71 to i32
  br label %73

73:                                               ; preds = %70, %66
  %74 = phi i32 [ %72, %70 ], [ %53, %66 ]
  %75 = phi float [ %71, %70 ], [ %54, %66 ]
  %76 = phi half [ %63, %70 ], [ %55, %66 ]
  %77 = phi i32 [ %64, %70 ], [ %56, %66 ]
  %78 = xor i32 %10, 2
  %79 = icmp slt i32 %78, %12
  %80 = select i1 %79, i32 %78, i32 %10
  %81 = shl i32 %80, 2
  %82 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %81, i32 %74)
  %83 = bitcast i32 %82 to float
  %84 = fptrunc contract float %83 to half
  %85 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %81, i32 %77)
  %86 = fcmp contract olt half %76, %84
  br i1 %86, label %91, label %87

87:                                               ; preds = %73
  %88 = fcmp contract oeq half %76, %84
  %89 = icmp slt i32 %85, %77
  %90 = and i1 %88, %89
  br i1 %90, label %91, label %94

91:                                               ; preds = %87, %73
  %92 = fpext contract half %84 to float
  %93 = bitcast float %92 to i32
  br label %94

94:                                               ; preds = %91, %87
  %95 = phi i32 [ %93, %91 ], [ %74, %87 ]
  %96 = phi float [ %92, %91 ], [ %75, %87 ]
  %97 = phi half [ %84, %91 ], [ %76, %87 ]
  %98 = phi i32 [ %85, %91 ], [ %77, %87 ]
  %99 = xor i32 %10, 1
  %100 = icmp slt i32 %99, %12
  %101 = select i1 %100, i32 %99, i32 %10
  %102 = shl i32 %101, 2
  %103 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %102, i32 %95)
  %104 = bitcast i32 %103 to float
  %105 = fptrunc contract float %104 to half
  %106 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %102, i32 %98)
  %107 = fcmp contract olt half %97, %105
  br i1 %107, label %112, label %108

108:                                              ; preds = %94
  %109 = fcmp contract oeq half %97, %105
  %110 = icmp slt i32 %106, %98
  %111 = and i1 %109, %110
  br i1 %111, label %112, label %114

112:                                              ; preds = %108, %94
  %113 = fpext contract half %105 to float
  br label %114

114:                                              ; preds = %112, %108
  %115 = phi float [ %113, %112 ], [ %96, %108 ]
  %116 = phi i32 [ %106, %112 ], [ %98, %108 ]
  %117 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #4
  %118 = and i64 %117, 4294967295
  %119 = getelementptr inbounds nuw i32, ptr addrspace(1) %1, i64 %118
  store i32 %116, ptr addrspace(1) %119, align 4, !tbaa !5
  %120 = getelementptr inbounds nuw float, ptr addrspace(1) %2, i64 %118
  store float %115, ptr addrspace(1) %120, align 4, !tbaa !10
  ret void
}

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_id(i32 noundef) local_unnamed_addr #3

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "amdgpu-flat-work-group-size"="1,1024" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="false" }
attributes #4 = { convergent nounwind willreturn memory(none) }

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
!9 = !{!7, !7, i64 0}
!10 = !{!11, !11, i64 0}
!11 = !{!"float", !7, i64 0}
