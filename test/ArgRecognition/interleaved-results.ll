; A rocPRIM-style DPP (value, key) argmax over 16-lane rows whose results
; are interleaved with their reads, as clang -O1 leaves rocPRIM's
; warp_reduce: the key's result, its broadcast `__shfl(key, 15, 16)`, and
; only then the value's result. The broadcast lies inside the chain's code;
; it used to be "hoisted" above it together with the whole chain it reads
; (the results and the DPP exchanges), the function failed to verify and
; the rewrite was rolled back with "internal error" (found with rocPRIM
; 5.3.3's warp_reduce/block_reduce at -O1). Such a read now moves below the
; results; the chain is replaced, the function verifies, and it computes
; what the original does.
; REQUIRES: executor
; RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup' -verify-each -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %s -o %t.ll 2>&1 | FileCheck %s
; CHECK: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 16 lanes (lane maps, 4 stages on gfx942 wave64)
; CHECK-NOT: internal error
; RUN: %crosslane-run %s --diff=%t.ll --mcpu=gfx942 --block=N --sizes=1,15,16,17,64,100,256 --arg=buf:f32:256:input --arg=buf:i32:16:zero --arg=buf:f32:16:zero --arg=i32:N --inputs=all --print=none | FileCheck %s --check-prefix=DIFF
; DIFF: 0 mismatches
;
; Source (test/ArgRecognition/interleaved-results.ll is its -O2 IR with the
; value's final select moved after the key's broadcast):
;   struct KV { int Key; float Value; };
;   KV argMax(KV A, KV B) {
;     return (B.Value > A.Value || (B.Value == A.Value && B.Key < A.Key)) ? B : A;
;   }
;   template <int Ctrl> KV move(KV X);  // update_dpp(X, X, Ctrl, 0xf, 0xf, false) per word
;   R = argMax(R, move<0xb1>(R)); ... move<0x4e>, move<0x114>, move<0x118>
;   Key = __shfl(R.Key, 15, 16); Val = __shfl(R.Value, 15, 16);

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@__hip_cuid_ebfe75a4b9d2a572 = addrspace(1) global i8 0
@llvm.compiler.used = appending addrspace(1) global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @__hip_cuid_ebfe75a4b9d2a572 to ptr)], section "llvm.metadata"

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define protected amdgpu_kernel void @rows16(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1, ptr addrspace(1) noundef writeonly captures(none) %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #4
  %6 = trunc i64 %5 to i32
  %7 = and i32 %6, 15
  %8 = icmp ugt i32 %3, %6
  br i1 %8, label %9, label %13

9:                                                ; preds = %4
  %10 = and i64 %5, 4294967295
  %11 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %10
  %12 = load i32, ptr addrspace(1) %11, align 4, !tbaa !9
  br label %13

13:                                               ; preds = %9, %4
  %14 = phi i32 [ %12, %9 ], [ -8388608, %4 ]
  %15 = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 %7, i32 %7, i32 177, i32 15, i32 15, i1 false)
  %16 = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 %14, i32 %14, i32 177, i32 15, i32 15, i1 false)
  %17 = bitcast i32 %14 to float
  %18 = bitcast i32 %16 to float
  %19 = fcmp contract olt float %17, %18
  %20 = fcmp contract oeq float %17, %18
  %21 = icmp slt i32 %15, %7
  %22 = select i1 %20, i1 %21, i1 false
  %23 = select i1 %19, i1 true, i1 %22
  %24 = select i1 %23, i32 %15, i32 %7
  %25 = select i1 %23, i32 %16, i32 %14
  %26 = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 %24, i32 %24, i32 78, i32 15, i32 15, i1 false)
  %27 = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 %25, i32 %25, i32 78, i32 15, i32 15, i1 false)
  %28 = bitcast i32 %25 to float
  %29 = bitcast i32 %27 to float
  %30 = fcmp contract olt float %28, %29
  %31 = fcmp contract oeq float %28, %29
  %32 = icmp slt i32 %26, %24
  %33 = select i1 %31, i1 %32, i1 false
  %34 = select i1 %30, i1 true, i1 %33
  %35 = select i1 %34, i32 %26, i32 %24
  %36 = select i1 %34, i32 %27, i32 %25
  %37 = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 %35, i32 %35, i32 276, i32 15, i32 15, i1 false)
  %38 = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 %36, i32 %36, i32 276, i32 15, i32 15, i1 false)
  %39 = bitcast i32 %36 to float
  %40 = bitcast i32 %38 to float
  %41 = fcmp contract olt float %39, %40
  %42 = fcmp contract oeq float %39, %40
  %43 = icmp slt i32 %37, %35
  %44 = select i1 %42, i1 %43, i1 false
  %45 = select i1 %41, i1 true, i1 %44
  %46 = select i1 %45, i32 %37, i32 %35
  %47 = select i1 %45, i32 %38, i32 %36
  %48 = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 %46, i32 %46, i32 280, i32 15, i32 15, i1 false)
  %49 = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 %47, i32 %47, i32 280, i32 15, i32 15, i1 false)
  %50 = bitcast i32 %47 to float
  %51 = bitcast i32 %49 to float
  %52 = fcmp contract olt float %50, %51
  %53 = fcmp contract oeq float %50, %51
  %54 = icmp slt i32 %48, %46
  %55 = select i1 %53, i1 %54, i1 false
  %56 = select i1 %52, i1 true, i1 %55
  %57 = select i1 %56, i32 %48, i32 %46
  %58 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %59 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %58)
  %60 = shl i32 %59, 2
  %61 = or i32 %60, 60
  %62 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %61, i32 %57)
  %valres = select i1 %56, i32 %49, i32 %47
  %63 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %61, i32 %valres)
  %64 = icmp eq i32 %7, 0
  br i1 %64, label %65, label %70

65:                                               ; preds = %13
  %66 = lshr exact i64 %5, 4
  %67 = and i64 %66, 268435455
  %68 = getelementptr inbounds nuw float, ptr addrspace(1) %2, i64 %67
  %69 = getelementptr inbounds nuw i32, ptr addrspace(1) %1, i64 %67
  store i32 %62, ptr addrspace(1) %69, align 4, !tbaa !5
  store i32 %63, ptr addrspace(1) %68, align 4, !tbaa !9
  br label %70

70:                                               ; preds = %65, %13
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

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32 immarg, i32 immarg, i32 immarg, i1 immarg) #1

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "amdgpu-flat-work-group-size"="1,1024" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+dpp,+wavefrontsize64" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+dpp,+wavefrontsize64" "uniform-work-group-size"="false" }
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
