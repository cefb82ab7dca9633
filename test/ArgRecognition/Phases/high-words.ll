; crosslane-recognize-arg-phase<high-words>: an int64 index made from an
; unsigned int: InstCombine folded the first stages' high-word exchange to
; 0 (zext of the low word's exchange); the phase puts that exchange back,
; so every stage exchanges both words (from ../folded-high-word.hip).
; REQUIRES: executor
; RUN: opt %loadcrosslane -passes='crosslane-recognize-arg-phase<high-words>,verify' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; CHECK-LABEL: define {{.*}} @ladder_unsigned(
; CHECK: lshr i64 {{%.*}}, 32
; CHECK: %crosslane.hi.read = {{.*}}call {{.*}}@llvm.amdgcn.ds.bpermute(
; The phase computes what the input computes (the executor, every input class):
; RUN: %crosslane-run %s --diff=%t.ll --kernel=ladder_unsigned --mcpu=gfx942 --block=64 --grid=2 --sizes=1,5,64,100,300 --print=none --arg=buf:f32:N*2:input --arg=buf:i64:2:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
; DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
; Alone, the full pass undoes a phase no rewrite used; this pass keeps it.

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: convergent mustprogress nofree norecurse nounwind memory(argmem: readwrite)
define protected amdgpu_kernel void @ladder_unsigned(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call i64 @__ockl_get_group_id(i32 noundef 0) #4
  %5 = and i64 %4, 4294967295
  %6 = zext i32 %2 to i64
  %7 = mul nuw i64 %5, %6
  %8 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %7
  %9 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #4
  %10 = trunc i64 %9 to i32
  %11 = icmp ugt i32 %2, %10
  br i1 %11, label %31, label %12

12:                                               ; preds = %47, %3
  %13 = phi float [ 0xFFF0000000000000, %3 ], [ %49, %47 ]
  %14 = phi i64 [ 0, %3 ], [ %50, %47 ]
  %15 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %16 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %15)
  %17 = and i32 %16, 63
  %18 = xor i32 %17, 63
  %19 = bitcast float %13 to i32
  %20 = icmp ne i32 %17, 63
  %21 = zext i1 %20 to i32
  %22 = add i32 %16, %21
  %23 = shl i32 %22, 2
  %24 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %23, i32 %19)
  %25 = bitcast i32 %24 to float
  %26 = trunc nuw i64 %14 to i32
  %27 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %23, i32 %26)
  %28 = zext i32 %27 to i64
  %29 = fcmp contract uno float %13, 0.000000e+00
  %30 = icmp slt i64 %14, %28
  br i1 %29, label %55, label %58

31:                                               ; preds = %47, %3
  %32 = phi i64 [ %50, %47 ], [ 0, %3 ]
  %33 = phi float [ %49, %47 ], [ 0xFFF0000000000000, %3 ]
  %34 = phi i32 [ %53, %47 ], [ %10, %3 ]
  %35 = zext i32 %34 to i64
  %36 = getelementptr inbounds nuw float, ptr addrspace(1) %8, i64 %35
  %37 = load float, ptr addrspace(1) %36, align 4, !tbaa !9
  %38 = fcmp contract uno float %33, 0.000000e+00
  %39 = icmp samesign ult i64 %32, %35
  br i1 %38, label %40, label %43

40:                                               ; preds = %31
  %41 = fcmp contract ord float %37, 0.000000e+00
  %42 = or i1 %39, %41
  br label %47

43:                                               ; preds = %31
  %44 = fcmp contract oeq float %33, %37
  %45 = fcmp contract ogt float %33, %37
  %46 = select i1 %44, i1 %39, i1 %45
  br label %47

47:                                               ; preds = %43, %40
  %48 = phi i1 [ %42, %40 ], [ %46, %43 ]
  %49 = select i1 %48, float %33, float %37
  %50 = select i1 %48, i64 %32, i64 %35
  %51 = tail call i64 @__ockl_get_local_size(i32 noundef 0) #4
  %52 = trunc i64 %51 to i32
  %53 = add i32 %34, %52
  %54 = icmp ult i32 %53, %2
  br i1 %54, label %31, label %12, !llvm.loop !11

55:                                               ; preds = %12
  %56 = fcmp contract ord float %25, 0.000000e+00
  %57 = or i1 %56, %30
  br label %62

58:                                               ; preds = %12
  %59 = fcmp contract oeq float %13, %25
  %60 = fcmp contract ogt float %13, %25
  %61 = select i1 %59, i1 %30, i1 %60
  br label %62

62:                                               ; preds = %58, %55
  %63 = phi i1 [ %57, %55 ], [ %61, %58 ]
  %64 = select i1 %63, float %13, float %25
  %65 = select i1 %63, i64 %14, i64 %28
  %66 = bitcast float %64 to i32
  %67 = icmp samesign ult i32 %18, 2
  %68 = select i1 %67, i32 0, i32 2
  %69 = add i32 %68, %16
  %70 = shl i32 %69, 2
  %71 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %70, i32 %66)
  %72 = bitcast i32 %71 to float
  %73 = trunc i64 %65 to i32
  %74 = lshr i64 %65, 32
  %75 = trunc nuw i64 %74 to i32
  %76 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %70, i32 %73)
  %77 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %70, i32 %75)
  %78 = sext i32 %77 to i64
  %79 = shl nsw i64 %78, 32
  %80 = zext i32 %76 to i64
  %81 = or disjoint i64 %79, %80
  %82 = fcmp contract uno float %64, 0.000000e+00
  %83 = icmp slt i64 %65, %81
  br i1 %82, label %88, label %84

84:                                               ; preds = %62
  %85 = fcmp contract oeq float %64, %72
  %86 = fcmp contract ogt float %64, %72
  %87 = select i1 %85, i1 %83, i1 %86
  br label %91

88:                                               ; preds = %62
  %89 = fcmp contract ord float %72, 0.000000e+00
  %90 = or i1 %89, %83
  br label %91

91:                                               ; preds = %88, %84
  %92 = phi i1 [ %90, %88 ], [ %87, %84 ]
  %93 = select i1 %92, float %64, float %72
  %94 = select i1 %92, i64 %65, i64 %81
  %95 = bitcast float %93 to i32
  %96 = icmp samesign ult i32 %18, 4
  %97 = select i1 %96, i32 0, i32 4
  %98 = add i32 %97, %16
  %99 = shl i32 %98, 2
  %100 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %99, i32 %95)
  %101 = bitcast i32 %100 to float
  %102 = trunc i64 %94 to i32
  %103 = lshr i64 %94, 32
  %104 = trunc nuw i64 %103 to i32
  %105 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %99, i32 %102)
  %106 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %99, i32 %104)
  %107 = sext i32 %106 to i64
  %108 = shl nsw i64 %107, 32
  %109 = zext i32 %105 to i64
  %110 = or disjoint i64 %108, %109
  %111 = fcmp contract uno float %93, 0.000000e+00
  %112 = icmp slt i64 %94, %110
  br i1 %111, label %117, label %113

113:                                              ; preds = %91
  %114 = fcmp contract oeq float %93, %101
  %115 = fcmp contract ogt float %93, %101
  %116 = select i1 %114, i1 %112, i1 %115
  br label %120

117:                                              ; preds = %91
  %118 = fcmp contract ord float %101, 0.000000e+00
  %119 = or i1 %118, %112
  br label %120

120:                                              ; preds = %117, %113
  %121 = phi i1 [ %119, %117 ], [ %116, %113 ]
  %122 = select i1 %121, float %93, float %101
  %123 = select i1 %121, i64 %94, i64 %110
  %124 = bitcast float %122 to i32
  %125 = icmp samesign ult i32 %18, 8
  %126 = select i1 %125, i32 0, i32 8
  %127 = add i32 %126, %16
  %128 = shl i32 %127, 2
  %129 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %128, i32 %124)
  %130 = bitcast i32 %129 to float
  %131 = trunc i64 %123 to i32
  %132 = lshr i64 %123, 32
  %133 = trunc nuw i64 %132 to i32
  %134 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %128, i32 %131)
  %135 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %128, i32 %133)
  %136 = sext i32 %135 to i64
  %137 = shl nsw i64 %136, 32
  %138 = zext i32 %134 to i64
  %139 = or disjoint i64 %137, %138
  %140 = fcmp contract uno float %122, 0.000000e+00
  %141 = icmp slt i64 %123, %139
  br i1 %140, label %146, label %142

142:                                              ; preds = %120
  %143 = fcmp contract oeq float %122, %130
  %144 = fcmp contract ogt float %122, %130
  %145 = select i1 %143, i1 %141, i1 %144
  br label %149

146:                                              ; preds = %120
  %147 = fcmp contract ord float %130, 0.000000e+00
  %148 = or i1 %147, %141
  br label %149

149:                                              ; preds = %146, %142
  %150 = phi i1 [ %148, %146 ], [ %145, %142 ]
  %151 = select i1 %150, float %122, float %130
  %152 = select i1 %150, i64 %123, i64 %139
  %153 = bitcast float %151 to i32
  %154 = icmp samesign ult i32 %18, 16
  %155 = select i1 %154, i32 0, i32 16
  %156 = add i32 %155, %16
  %157 = shl i32 %156, 2
  %158 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %157, i32 %153)
  %159 = bitcast i32 %158 to float
  %160 = trunc i64 %152 to i32
  %161 = lshr i64 %152, 32
  %162 = trunc nuw i64 %161 to i32
  %163 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %157, i32 %160)
  %164 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %157, i32 %162)
  %165 = sext i32 %164 to i64
  %166 = shl nsw i64 %165, 32
  %167 = zext i32 %163 to i64
  %168 = or disjoint i64 %166, %167
  %169 = fcmp contract uno float %151, 0.000000e+00
  %170 = icmp slt i64 %152, %168
  br i1 %169, label %175, label %171

171:                                              ; preds = %149
  %172 = fcmp contract oeq float %151, %159
  %173 = fcmp contract ogt float %151, %159
  %174 = select i1 %172, i1 %170, i1 %173
  br label %178

175:                                              ; preds = %149
  %176 = fcmp contract ord float %159, 0.000000e+00
  %177 = or i1 %176, %170
  br label %178

178:                                              ; preds = %175, %171
  %179 = phi i1 [ %177, %175 ], [ %174, %171 ]
  %180 = select i1 %179, float %151, float %159
  %181 = select i1 %179, i64 %152, i64 %168
  %182 = bitcast float %180 to i32
  %183 = and i32 %18, 32
  %184 = add i32 %183, %16
  %185 = shl i32 %184, 2
  %186 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %185, i32 %182)
  %187 = bitcast i32 %186 to float
  %188 = trunc i64 %181 to i32
  %189 = lshr i64 %181, 32
  %190 = trunc nuw i64 %189 to i32
  %191 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %185, i32 %188)
  %192 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %185, i32 %190)
  %193 = sext i32 %192 to i64
  %194 = shl nsw i64 %193, 32
  %195 = zext i32 %191 to i64
  %196 = or disjoint i64 %194, %195
  %197 = fcmp contract uno float %180, 0.000000e+00
  %198 = icmp slt i64 %181, %196
  br i1 %197, label %203, label %199

199:                                              ; preds = %178
  %200 = fcmp contract oeq float %180, %187
  %201 = fcmp contract ogt float %180, %187
  %202 = select i1 %200, i1 %198, i1 %201
  br label %206

203:                                              ; preds = %178
  %204 = fcmp contract ord float %187, 0.000000e+00
  %205 = or i1 %204, %198
  br label %206

206:                                              ; preds = %203, %199
  %207 = phi i1 [ %205, %203 ], [ %202, %199 ]
  %208 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #4
  %209 = and i64 %208, 4294967295
  %210 = icmp eq i64 %209, 0
  br i1 %210, label %211, label %216

211:                                              ; preds = %206
  %212 = select i1 %207, i64 %181, i64 %196
  %213 = tail call i64 @__ockl_get_group_id(i32 noundef 0) #4
  %214 = and i64 %213, 4294967295
  %215 = getelementptr inbounds nuw i64, ptr addrspace(1) %1, i64 %214
  store i64 %212, ptr addrspace(1) %215, align 8, !tbaa !13
  br label %216

216:                                              ; preds = %211, %206
  ret void
}

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_group_id(i32 noundef) local_unnamed_addr #3

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_id(i32 noundef) local_unnamed_addr #3

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_size(i32 noundef) local_unnamed_addr #3

attributes #0 = { convergent mustprogress nofree norecurse nounwind memory(argmem: readwrite) "amdgpu-flat-work-group-size"="1,1024" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="true" }
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
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !7, i64 0}
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!14, !14, i64 0}
!14 = !{!"long long", !7, i64 0}
