; crosslane-recognize-arg-phase<struct-copies>: a thrust-style combine taking
; {float, int64} pairs by const& copies the chosen pair with
; memcpy(select(c, &a, &b), 16); the phase splits each copy into per-field
; loads, selects and stores, and SROA then promotes the two stack slots, so
; the butterfly's state is in registers (from ../struct-copies.hip).
; REQUIRES: executor
; RUN: opt %loadcrosslane -passes='crosslane-recognize-arg-phase<struct-copies>,verify' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; CHECK-LABEL: define {{.*}} @cref_f32_i64(
; CHECK-NOT: alloca
; CHECK-NOT: call void @llvm.memcpy
; CHECK: ret void
; The phase computes what the input computes (the executor, every input class):
; RUN: %crosslane-run %s --diff=%t.ll --kernel=cref_f32_i64 --mcpu=gfx942 --block=N --sizes=64,20,1 --print=none --arg=buf:f32:N:input --arg=buf:i64:1:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
; DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
; Alone, the full pass undoes a phase no rewrite used; this pass keeps it.

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.Pair = type { float, i64 }

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p5(ptr addrspace(5) captures(none)) #0

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p5(ptr addrspace(5) captures(none)) #0

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define protected amdgpu_kernel void @cref_f32_i64(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1) local_unnamed_addr #1 {
  %3 = alloca %struct.Pair, align 8, addrspace(5)
  %4 = alloca %struct.Pair, align 8, addrspace(5)
  call void @llvm.lifetime.start.p5(ptr addrspace(5) %3) #6
  %5 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #7
  %6 = and i64 %5, 4294967295
  %7 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %6
  %8 = load float, ptr addrspace(1) %7, align 4, !tbaa !9
  store float %8, ptr addrspace(5) %3, align 8, !tbaa !11
  %9 = getelementptr inbounds nuw i8, ptr addrspace(5) %3, i32 8
  store i64 %6, ptr addrspace(5) %9, align 8, !tbaa !14
  %10 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %11 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %10)
  %12 = and i32 %11, -64
  %13 = add nsw i32 %12, 64
  %14 = getelementptr inbounds nuw i8, ptr addrspace(5) %4, i32 8
  call void @llvm.lifetime.start.p5(ptr addrspace(5) %4) #6
  %15 = bitcast float %8 to i32
  %16 = xor i32 %11, 32
  %17 = icmp slt i32 %16, %13
  %18 = select i1 %17, i32 %16, i32 %11
  %19 = shl i32 %18, 2
  %20 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %19, i32 %15)
  %21 = bitcast i32 %20 to float
  store i32 %20, ptr addrspace(5) %4, align 8, !tbaa !11
  %22 = trunc i64 %5 to i32
  %23 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %19, i32 %22)
  %24 = zext i32 %23 to i64
  store i64 %24, ptr addrspace(5) %14, align 8, !tbaa !14
  %25 = fcmp contract olt float %8, %21
  %26 = fcmp contract oeq float %8, %21
  %27 = icmp samesign ugt i64 %6, %24
  %28 = select i1 %26, i1 %27, i1 false
  %29 = select i1 %25, i1 true, i1 %28
  %30 = select i1 %29, ptr addrspace(5) %4, ptr addrspace(5) %3
  call void @llvm.memcpy.p5.p5.i64(ptr addrspace(5) noundef align 8 dereferenceable(16) %3, ptr addrspace(5) noundef align 8 dereferenceable(16) %30, i64 16, i1 false), !tbaa.struct !15
  call void @llvm.lifetime.end.p5(ptr addrspace(5) %4) #6
  call void @llvm.lifetime.start.p5(ptr addrspace(5) %4) #6
  %31 = load float, ptr addrspace(5) %3, align 8, !tbaa !11
  %32 = bitcast float %31 to i32
  %33 = xor i32 %11, 16
  %34 = icmp slt i32 %33, %13
  %35 = select i1 %34, i32 %33, i32 %11
  %36 = shl i32 %35, 2
  %37 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %36, i32 %32)
  %38 = bitcast i32 %37 to float
  store i32 %37, ptr addrspace(5) %4, align 8, !tbaa !11
  %39 = load i64, ptr addrspace(5) %9, align 8, !tbaa !14
  %40 = trunc i64 %39 to i32
  %41 = lshr i64 %39, 32
  %42 = trunc nuw i64 %41 to i32
  %43 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %36, i32 %40)
  %44 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %36, i32 %42)
  %45 = sext i32 %44 to i64
  %46 = shl nsw i64 %45, 32
  %47 = zext i32 %43 to i64
  %48 = or disjoint i64 %46, %47
  store i64 %48, ptr addrspace(5) %14, align 8, !tbaa !14
  %49 = fcmp contract olt float %31, %38
  %50 = fcmp contract oeq float %31, %38
  %51 = icmp slt i64 %48, %39
  %52 = select i1 %50, i1 %51, i1 false
  %53 = select i1 %49, i1 true, i1 %52
  %54 = select i1 %53, ptr addrspace(5) %4, ptr addrspace(5) %3
  call void @llvm.memcpy.p5.p5.i64(ptr addrspace(5) noundef align 8 dereferenceable(16) %3, ptr addrspace(5) noundef align 8 dereferenceable(16) %54, i64 16, i1 false), !tbaa.struct !15
  call void @llvm.lifetime.end.p5(ptr addrspace(5) %4) #6
  call void @llvm.lifetime.start.p5(ptr addrspace(5) %4) #6
  %55 = load float, ptr addrspace(5) %3, align 8, !tbaa !11
  %56 = bitcast float %55 to i32
  %57 = xor i32 %11, 8
  %58 = icmp slt i32 %57, %13
  %59 = select i1 %58, i32 %57, i32 %11
  %60 = shl i32 %59, 2
  %61 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %60, i32 %56)
  %62 = bitcast i32 %61 to float
  store i32 %61, ptr addrspace(5) %4, align 8, !tbaa !11
  %63 = load i64, ptr addrspace(5) %9, align 8, !tbaa !14
  %64 = trunc i64 %63 to i32
  %65 = lshr i64 %63, 32
  %66 = trunc nuw i64 %65 to i32
  %67 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %60, i32 %64)
  %68 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %60, i32 %66)
  %69 = sext i32 %68 to i64
  %70 = shl nsw i64 %69, 32
  %71 = zext i32 %67 to i64
  %72 = or disjoint i64 %70, %71
  store i64 %72, ptr addrspace(5) %14, align 8, !tbaa !14
  %73 = fcmp contract olt float %55, %62
  %74 = fcmp contract oeq float %55, %62
  %75 = icmp slt i64 %72, %63
  %76 = select i1 %74, i1 %75, i1 false
  %77 = select i1 %73, i1 true, i1 %76
  %78 = select i1 %77, ptr addrspace(5) %4, ptr addrspace(5) %3
  call void @llvm.memcpy.p5.p5.i64(ptr addrspace(5) noundef align 8 dereferenceable(16) %3, ptr addrspace(5) noundef align 8 dereferenceable(16) %78, i64 16, i1 false), !tbaa.struct !15
  call void @llvm.lifetime.end.p5(ptr addrspace(5) %4) #6
  call void @llvm.lifetime.start.p5(ptr addrspace(5) %4) #6
  %79 = load float, ptr addrspace(5) %3, align 8, !tbaa !11
  %80 = bitcast float %79 to i32
  %81 = xor i32 %11, 4
  %82 = icmp slt i32 %81, %13
  %83 = select i1 %82, i32 %81, i32 %11
  %84 = shl i32 %83, 2
  %85 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %84, i32 %80)
  %86 = bitcast i32 %85 to float
  store i32 %85, ptr addrspace(5) %4, align 8, !tbaa !11
  %87 = load i64, ptr addrspace(5) %9, align 8, !tbaa !14
  %88 = trunc i64 %87 to i32
  %89 = lshr i64 %87, 32
  %90 = trunc nuw i64 %89 to i32
  %91 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %84, i32 %88)
  %92 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %84, i32 %90)
  %93 = sext i32 %92 to i64
  %94 = shl nsw i64 %93, 32
  %95 = zext i32 %91 to i64
  %96 = or disjoint i64 %94, %95
  store i64 %96, ptr addrspace(5) %14, align 8, !tbaa !14
  %97 = fcmp contract olt float %79, %86
  %98 = fcmp contract oeq float %79, %86
  %99 = icmp slt i64 %96, %87
  %100 = select i1 %98, i1 %99, i1 false
  %101 = select i1 %97, i1 true, i1 %100
  %102 = select i1 %101, ptr addrspace(5) %4, ptr addrspace(5) %3
  call void @llvm.memcpy.p5.p5.i64(ptr addrspace(5) noundef align 8 dereferenceable(16) %3, ptr addrspace(5) noundef align 8 dereferenceable(16) %102, i64 16, i1 false), !tbaa.struct !15
  call void @llvm.lifetime.end.p5(ptr addrspace(5) %4) #6
  call void @llvm.lifetime.start.p5(ptr addrspace(5) %4) #6
  %103 = load float, ptr addrspace(5) %3, align 8, !tbaa !11
  %104 = bitcast float %103 to i32
  %105 = xor i32 %11, 2
  %106 = icmp slt i32 %105, %13
  %107 = select i1 %106, i32 %105, i32 %11
  %108 = shl i32 %107, 2
  %109 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %108, i32 %104)
  %110 = bitcast i32 %109 to float
  store i32 %109, ptr addrspace(5) %4, align 8, !tbaa !11
  %111 = load i64, ptr addrspace(5) %9, align 8, !tbaa !14
  %112 = trunc i64 %111 to i32
  %113 = lshr i64 %111, 32
  %114 = trunc nuw i64 %113 to i32
  %115 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %108, i32 %112)
  %116 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %108, i32 %114)
  %117 = sext i32 %116 to i64
  %118 = shl nsw i64 %117, 32
  %119 = zext i32 %115 to i64
  %120 = or disjoint i64 %118, %119
  store i64 %120, ptr addrspace(5) %14, align 8, !tbaa !14
  %121 = fcmp contract olt float %103, %110
  %122 = fcmp contract oeq float %103, %110
  %123 = icmp slt i64 %120, %111
  %124 = select i1 %122, i1 %123, i1 false
  %125 = select i1 %121, i1 true, i1 %124
  %126 = select i1 %125, ptr addrspace(5) %4, ptr addrspace(5) %3
  call void @llvm.memcpy.p5.p5.i64(ptr addrspace(5) noundef align 8 dereferenceable(16) %3, ptr addrspace(5) noundef align 8 dereferenceable(16) %126, i64 16, i1 false), !tbaa.struct !15
  call void @llvm.lifetime.end.p5(ptr addrspace(5) %4) #6
  call void @llvm.lifetime.start.p5(ptr addrspace(5) %4) #6
  %127 = load float, ptr addrspace(5) %3, align 8, !tbaa !11
  %128 = bitcast float %127 to i32
  %129 = xor i32 %11, 1
  %130 = icmp slt i32 %129, %13
  %131 = select i1 %130, i32 %129, i32 %11
  %132 = shl i32 %131, 2
  %133 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %132, i32 %128)
  %134 = bitcast i32 %133 to float
  store i32 %133, ptr addrspace(5) %4, align 8, !tbaa !11
  %135 = load i64, ptr addrspace(5) %9, align 8, !tbaa !14
  %136 = trunc i64 %135 to i32
  %137 = lshr i64 %135, 32
  %138 = trunc nuw i64 %137 to i32
  %139 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %132, i32 %136)
  %140 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %132, i32 %138)
  %141 = sext i32 %140 to i64
  %142 = shl nsw i64 %141, 32
  %143 = zext i32 %139 to i64
  %144 = or disjoint i64 %142, %143
  store i64 %144, ptr addrspace(5) %14, align 8, !tbaa !14
  %145 = fcmp contract olt float %127, %134
  %146 = fcmp contract oeq float %127, %134
  %147 = icmp slt i64 %144, %135
  %148 = select i1 %146, i1 %147, i1 false
  %149 = select i1 %145, i1 true, i1 %148
  %150 = select i1 %149, ptr addrspace(5) %4, ptr addrspace(5) %3
  call void @llvm.memcpy.p5.p5.i64(ptr addrspace(5) noundef align 8 dereferenceable(16) %3, ptr addrspace(5) noundef align 8 dereferenceable(16) %150, i64 16, i1 false), !tbaa.struct !15
  call void @llvm.lifetime.end.p5(ptr addrspace(5) %4) #6
  %151 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #7
  %152 = and i64 %151, 4294967295
  %153 = icmp eq i64 %152, 0
  br i1 %153, label %154, label %156

154:                                              ; preds = %2
  %155 = load i64, ptr addrspace(5) %9, align 8, !tbaa !14
  store i64 %155, ptr addrspace(1) %1, align 8, !tbaa !16
  br label %156

156:                                              ; preds = %154, %2
  call void @llvm.lifetime.end.p5(ptr addrspace(5) %3) #6
  ret void
}

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #3

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_id(i32 noundef) local_unnamed_addr #4

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p5.p5.i64(ptr addrspace(5) noalias writeonly captures(none), ptr addrspace(5) noalias readonly captures(none), i64, i1 immarg) #5

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #1 = { convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "amdgpu-flat-work-group-size"="1,1024" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="true" }
attributes #2 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #4 = { convergent mustprogress nofree nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="false" }
attributes #5 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #6 = { nounwind }
attributes #7 = { convergent nounwind willreturn memory(none) }

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
!11 = !{!12, !10, i64 0}
!12 = !{!"_ZTS4Pair", !10, i64 0, !13, i64 8}
!13 = !{!"long long", !7, i64 0}
!14 = !{!12, !13, i64 8}
!15 = !{i64 0, i64 4, !9, i64 8, i64 8, !16}
!16 = !{!13, !13, i64 0}
