; An argmax butterfly under convergence control (clang's -fconvergence-control
; form: an entry token, and a convergencectrl bundle on every convergent
; call), for test/ArgRecognition/convergence-tokens.test.
; ModuleID = 'one.hip'
source_filename = "one.hip"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@__hip_cuid_1766d68c28a358f9 = addrspace(1) global i8 0
@llvm.compiler.used = appending addrspace(1) global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @__hip_cuid_1766d68c28a358f9 to ptr)], section "llvm.metadata"

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define protected amdgpu_kernel void @argmax1(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %cltok = call token @llvm.experimental.convergence.entry()
  %3 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #4 [ "convergencectrl"(token %cltok) ]
  %4 = trunc i64 %3 to i32
  %5 = shl i64 %3, 32
  %6 = ashr exact i64 %5, 32
  %7 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %6
  %8 = load float, ptr addrspace(1) %7, align 4, !tbaa !9
  %9 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %10 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %9)
  %11 = and i32 %10, -64
  %12 = add nsw i32 %11, 64
  %13 = bitcast float %8 to i32
  %14 = xor i32 %10, 32
  %15 = icmp slt i32 %14, %12
  %16 = select i1 %15, i32 %14, i32 %10
  %17 = shl i32 %16, 2
  %18 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %17, i32 %13) [ "convergencectrl"(token %cltok) ]
  %19 = bitcast i32 %18 to float
  %20 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %17, i32 %4) [ "convergencectrl"(token %cltok) ]
  %21 = fcmp contract olt float %8, %19
  br i1 %21, label %26, label %22

22:                                               ; preds = %2
  %23 = fcmp contract oeq float %8, %19
  %24 = icmp slt i32 %20, %4
  %25 = and i1 %23, %24
  br i1 %25, label %26, label %27

26:                                               ; preds = %22, %2
  br label %27

27:                                               ; preds = %26, %22
  %28 = phi i32 [ %18, %26 ], [ %13, %22 ]
  %29 = phi i32 [ %20, %26 ], [ %4, %22 ]
  %30 = phi float [ %19, %26 ], [ %8, %22 ]
  %31 = xor i32 %10, 16
  %32 = icmp slt i32 %31, %12
  %33 = select i1 %32, i32 %31, i32 %10
  %34 = shl i32 %33, 2
  %35 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %34, i32 %28) [ "convergencectrl"(token %cltok) ]
  %36 = bitcast i32 %35 to float
  %37 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %34, i32 %29) [ "convergencectrl"(token %cltok) ]
  %38 = fcmp contract olt float %30, %36
  br i1 %38, label %43, label %39

39:                                               ; preds = %27
  %40 = fcmp contract oeq float %30, %36
  %41 = icmp slt i32 %37, %29
  %42 = and i1 %40, %41
  br i1 %42, label %43, label %44

43:                                               ; preds = %39, %27
  br label %44

44:                                               ; preds = %43, %39
  %45 = phi i32 [ %35, %43 ], [ %28, %39 ]
  %46 = phi i32 [ %37, %43 ], [ %29, %39 ]
  %47 = phi float [ %36, %43 ], [ %30, %39 ]
  %48 = xor i32 %10, 8
  %49 = icmp slt i32 %48, %12
  %50 = select i1 %49, i32 %48, i32 %10
  %51 = shl i32 %50, 2
  %52 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %51, i32 %45) [ "convergencectrl"(token %cltok) ]
  %53 = bitcast i32 %52 to float
  %54 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %51, i32 %46) [ "convergencectrl"(token %cltok) ]
  %55 = fcmp contract olt float %47, %53
  br i1 %55, label %60, label %56

56:                                               ; preds = %44
  %57 = fcmp contract oeq float %47, %53
  %58 = icmp slt i32 %54, %46
  %59 = and i1 %57, %58
  br i1 %59, label %60, label %61

60:                                               ; preds = %56, %44
  br label %61

61:                                               ; preds = %60, %56
  %62 = phi i32 [ %52, %60 ], [ %45, %56 ]
  %63 = phi i32 [ %54, %60 ], [ %46, %56 ]
  %64 = phi float [ %53, %60 ], [ %47, %56 ]
  %65 = xor i32 %10, 4
  %66 = icmp slt i32 %65, %12
  %67 = select i1 %66, i32 %65, i32 %10
  %68 = shl i32 %67, 2
  %69 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %68, i32 %62) [ "convergencectrl"(token %cltok) ]
  %70 = bitcast i32 %69 to float
  %71 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %68, i32 %63) [ "convergencectrl"(token %cltok) ]
  %72 = fcmp contract olt float %64, %70
  br i1 %72, label %77, label %73

73:                                               ; preds = %61
  %74 = fcmp contract oeq float %64, %70
  %75 = icmp slt i32 %71, %63
  %76 = and i1 %74, %75
  br i1 %76, label %77, label %78

77:                                               ; preds = %73, %61
  br label %78

78:                                               ; preds = %77, %73
  %79 = phi i32 [ %69, %77 ], [ %62, %73 ]
  %80 = phi i32 [ %71, %77 ], [ %63, %73 ]
  %81 = phi float [ %70, %77 ], [ %64, %73 ]
  %82 = xor i32 %10, 2
  %83 = icmp slt i32 %82, %12
  %84 = select i1 %83, i32 %82, i32 %10
  %85 = shl i32 %84, 2
  %86 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %85, i32 %79) [ "convergencectrl"(token %cltok) ]
  %87 = bitcast i32 %86 to float
  %88 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %85, i32 %80) [ "convergencectrl"(token %cltok) ]
  %89 = fcmp contract olt float %81, %87
  br i1 %89, label %94, label %90

90:                                               ; preds = %78
  %91 = fcmp contract oeq float %81, %87
  %92 = icmp slt i32 %88, %80
  %93 = and i1 %91, %92
  br i1 %93, label %94, label %95

94:                                               ; preds = %90, %78
  br label %95

95:                                               ; preds = %94, %90
  %96 = phi i32 [ %86, %94 ], [ %79, %90 ]
  %97 = phi i32 [ %88, %94 ], [ %80, %90 ]
  %98 = phi float [ %87, %94 ], [ %81, %90 ]
  %99 = xor i32 %10, 1
  %100 = icmp slt i32 %99, %12
  %101 = select i1 %100, i32 %99, i32 %10
  %102 = shl i32 %101, 2
  %103 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %102, i32 %96) [ "convergencectrl"(token %cltok) ]
  %104 = bitcast i32 %103 to float
  %105 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %102, i32 %97) [ "convergencectrl"(token %cltok) ]
  %106 = fcmp contract olt float %98, %104
  br i1 %106, label %111, label %107

107:                                              ; preds = %95
  %108 = fcmp contract oeq float %98, %104
  %109 = icmp slt i32 %105, %97
  %110 = and i1 %108, %109
  br i1 %110, label %111, label %112

111:                                              ; preds = %107, %95
  br label %112

112:                                              ; preds = %111, %107
  %113 = phi i32 [ %105, %111 ], [ %97, %107 ]
  %114 = getelementptr inbounds i32, ptr addrspace(1) %1, i64 %6
  store i32 %113, ptr addrspace(1) %114, align 4, !tbaa !5
  ret void
}

; Function Attrs: convergent mustprogress nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_id(i32 noundef) local_unnamed_addr #3

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "amdgpu-flat-work-group-size"="1,1024" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress nocallback nofree nounwind willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
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
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !7, i64 0}

declare token @llvm.experimental.convergence.entry()