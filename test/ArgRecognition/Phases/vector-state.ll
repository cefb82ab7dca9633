; crosslane-recognize-arg-phase<vector-state>: the SLP vectorizer packed an
; iamax's {float, int} state into a vector that each exchange takes words
; of with extractelement; the phase rebuilds every element as scalars
; (from ../split-tie-update.hip).
; REQUIRES: executor
; RUN: opt %loadcrosslane -passes='crosslane-recognize-arg-phase<vector-state>,verify' -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; CHECK-LABEL: define {{.*}} @iamax32(
; CHECK-NOT: extractelement
; CHECK: ret void
; The phase computes what the input computes (the executor, every input class):
; RUN: %crosslane-run %s --diff=%t.ll --kernel=iamax32 --mcpu=gfx942 --grid=2 --block=256 --sizes=1,7,100,512 --arg=i32:N --arg=buf:f32:512:input --arg=buf:i32:4:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
; DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
; Alone, the full pass undoes a phase no rewrite used; this pass keeps it.

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.IndexValue = type { i32, float }

@_ZZ5iamaxIiEviPKfP10IndexValueIT_EE7Partial = external hidden local_unnamed_addr addrspace(3) global [4 x %struct.IndexValue], align 16

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define protected amdgpu_kernel void @iamax32(i32 noundef %0, ptr addrspace(1) noundef readonly captures(none) %1, ptr addrspace(1) noundef writeonly captures(none) %2) local_unnamed_addr #0 {
  %4 = tail call i64 @__ockl_get_group_id(i32 noundef 0) #6
  %5 = trunc i64 %4 to i32
  %6 = shl i32 %5, 8
  %7 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #6
  %8 = trunc i64 %7 to i32
  %9 = add i32 %6, %8
  %10 = icmp slt i32 %9, %0
  br i1 %10, label %11, label %18

11:                                               ; preds = %3
  %12 = add nsw i32 %9, 1
  %13 = sext i32 %9 to i64
  %14 = getelementptr inbounds float, ptr addrspace(1) %1, i64 %13
  %15 = load float, ptr addrspace(1) %14, align 4, !tbaa !9
  %16 = tail call contract noundef float @llvm.fabs.f32(float %15)
  %17 = bitcast float %16 to i32
  br label %18

18:                                               ; preds = %11, %3
  %19 = phi i32 [ %12, %11 ], [ -1, %3 ]
  %20 = phi i32 [ %17, %11 ], [ 0, %3 ]
  %21 = bitcast i32 %20 to float
  %22 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %23 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %22)
  %24 = and i32 %23, 63
  %25 = xor i32 %24, 63
  %26 = and i32 %25, 32
  %27 = add i32 %26, %23
  %28 = shl i32 %27, 2
  %29 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %28, i32 %19)
  %30 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %28, i32 %20)
  %31 = icmp eq i32 %29, -1
  br i1 %31, label %42, label %32

32:                                               ; preds = %18
  %33 = bitcast i32 %30 to float
  %34 = icmp eq i32 %19, -1
  %35 = fcmp contract olt float %21, %33
  %36 = or i1 %34, %35
  %37 = fcmp contract oeq float %21, %33
  %38 = tail call i32 @llvm.smin.i32(i32 %29, i32 %19)
  %39 = select i1 %37, i32 %38, i32 %19
  %40 = select i1 %36, i32 %29, i32 %39
  %41 = select i1 %36, float %33, float %21
  br label %42

42:                                               ; preds = %32, %18
  %43 = phi i32 [ %19, %18 ], [ %40, %32 ]
  %44 = phi float [ %21, %18 ], [ %41, %32 ]
  %45 = icmp samesign ult i32 %25, 16
  %46 = select i1 %45, i32 0, i32 16
  %47 = add i32 %46, %23
  %48 = shl i32 %47, 2
  %49 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %48, i32 %43)
  %50 = bitcast float %44 to i32
  %51 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %48, i32 %50)
  %52 = icmp eq i32 %49, -1
  %53 = insertelement <2 x i32> poison, i32 %50, i64 0
  %54 = insertelement <2 x i32> %53, i32 %43, i64 1
  br i1 %52, label %67, label %55

55:                                               ; preds = %42
  %56 = bitcast i32 %51 to float
  %57 = icmp eq i32 %43, -1
  %58 = fcmp contract olt float %44, %56
  %59 = select i1 %57, i1 true, i1 %58
  %60 = insertelement <2 x i32> poison, i32 %51, i64 0
  %61 = insertelement <2 x i32> %60, i32 %49, i64 1
  br i1 %59, label %67, label %62

62:                                               ; preds = %55
  %63 = fcmp contract oeq float %44, %56
  %64 = tail call i32 @llvm.smin.i32(i32 %49, i32 %43)
  %65 = select i1 %63, i32 %64, i32 %43
  %66 = insertelement <2 x i32> %54, i32 %65, i64 1
  br label %67

67:                                               ; preds = %62, %55, %42
  %68 = phi float [ %44, %42 ], [ %44, %62 ], [ %56, %55 ]
  %69 = phi <2 x i32> [ %54, %42 ], [ %66, %62 ], [ %61, %55 ]
  %70 = icmp samesign ult i32 %25, 8
  %71 = select i1 %70, i32 0, i32 8
  %72 = add i32 %71, %23
  %73 = shl i32 %72, 2
  %74 = extractelement <2 x i32> %69, i64 1
  %75 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %73, i32 %74)
  %76 = extractelement <2 x i32> %69, i64 0
  %77 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %73, i32 %76)
  %78 = icmp eq i32 %75, -1
  br i1 %78, label %91, label %79

79:                                               ; preds = %67
  %80 = bitcast i32 %77 to float
  %81 = icmp eq i32 %74, -1
  %82 = fcmp contract olt float %68, %80
  %83 = select i1 %81, i1 true, i1 %82
  %84 = insertelement <2 x i32> poison, i32 %77, i64 0
  %85 = insertelement <2 x i32> %84, i32 %75, i64 1
  br i1 %83, label %91, label %86

86:                                               ; preds = %79
  %87 = fcmp contract oeq float %68, %80
  %88 = tail call i32 @llvm.smin.i32(i32 %75, i32 %74)
  %89 = select i1 %87, i32 %88, i32 %74
  %90 = insertelement <2 x i32> %69, i32 %89, i64 1
  br label %91

91:                                               ; preds = %86, %79, %67
  %92 = phi float [ %68, %67 ], [ %68, %86 ], [ %80, %79 ]
  %93 = phi <2 x i32> [ %69, %67 ], [ %90, %86 ], [ %85, %79 ]
  %94 = icmp samesign ult i32 %25, 4
  %95 = select i1 %94, i32 0, i32 4
  %96 = add i32 %95, %23
  %97 = shl i32 %96, 2
  %98 = extractelement <2 x i32> %93, i64 1
  %99 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %97, i32 %98)
  %100 = extractelement <2 x i32> %93, i64 0
  %101 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %97, i32 %100)
  %102 = icmp eq i32 %99, -1
  br i1 %102, label %115, label %103

103:                                              ; preds = %91
  %104 = bitcast i32 %101 to float
  %105 = icmp eq i32 %98, -1
  %106 = fcmp contract olt float %92, %104
  %107 = select i1 %105, i1 true, i1 %106
  %108 = insertelement <2 x i32> poison, i32 %101, i64 0
  %109 = insertelement <2 x i32> %108, i32 %99, i64 1
  br i1 %107, label %115, label %110

110:                                              ; preds = %103
  %111 = fcmp contract oeq float %92, %104
  %112 = tail call i32 @llvm.smin.i32(i32 %99, i32 %98)
  %113 = select i1 %111, i32 %112, i32 %98
  %114 = insertelement <2 x i32> %93, i32 %113, i64 1
  br label %115

115:                                              ; preds = %110, %103, %91
  %116 = phi float [ %92, %91 ], [ %92, %110 ], [ %104, %103 ]
  %117 = phi <2 x i32> [ %93, %91 ], [ %114, %110 ], [ %109, %103 ]
  %118 = icmp samesign ult i32 %25, 2
  %119 = select i1 %118, i32 0, i32 2
  %120 = add i32 %119, %23
  %121 = shl i32 %120, 2
  %122 = extractelement <2 x i32> %117, i64 1
  %123 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %121, i32 %122)
  %124 = extractelement <2 x i32> %117, i64 0
  %125 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %121, i32 %124)
  %126 = icmp eq i32 %123, -1
  br i1 %126, label %139, label %127

127:                                              ; preds = %115
  %128 = bitcast i32 %125 to float
  %129 = icmp eq i32 %122, -1
  %130 = fcmp contract olt float %116, %128
  %131 = select i1 %129, i1 true, i1 %130
  %132 = insertelement <2 x i32> poison, i32 %125, i64 0
  %133 = insertelement <2 x i32> %132, i32 %123, i64 1
  br i1 %131, label %139, label %134

134:                                              ; preds = %127
  %135 = fcmp contract oeq float %116, %128
  %136 = tail call i32 @llvm.smin.i32(i32 %123, i32 %122)
  %137 = select i1 %135, i32 %136, i32 %122
  %138 = insertelement <2 x i32> %117, i32 %137, i64 1
  br label %139

139:                                              ; preds = %134, %127, %115
  %140 = phi float [ %116, %115 ], [ %116, %134 ], [ %128, %127 ]
  %141 = phi <2 x i32> [ %117, %115 ], [ %138, %134 ], [ %133, %127 ]
  %142 = icmp ne i32 %24, 63
  %143 = zext i1 %142 to i32
  %144 = add i32 %23, %143
  %145 = shl i32 %144, 2
  %146 = extractelement <2 x i32> %141, i64 1
  %147 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %145, i32 %146)
  %148 = extractelement <2 x i32> %141, i64 0
  %149 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %145, i32 %148)
  %150 = icmp eq i32 %147, -1
  br i1 %150, label %163, label %151

151:                                              ; preds = %139
  %152 = bitcast i32 %149 to float
  %153 = icmp eq i32 %146, -1
  %154 = fcmp contract olt float %140, %152
  %155 = select i1 %153, i1 true, i1 %154
  %156 = fcmp contract oeq float %140, %152
  %157 = tail call i32 @llvm.smin.i32(i32 %147, i32 %146)
  %158 = select i1 %156, i32 %157, i32 %146
  %159 = select i1 %155, i32 %149, i32 %148
  %160 = select i1 %155, i32 %147, i32 %158
  %161 = insertelement <2 x i32> poison, i32 %159, i64 0
  %162 = insertelement <2 x i32> %161, i32 %160, i64 1
  br label %163

163:                                              ; preds = %151, %139
  %164 = phi <2 x i32> [ %141, %139 ], [ %162, %151 ]
  %165 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #6
  %166 = and i64 %165, 63
  %167 = icmp eq i64 %166, 0
  br i1 %167, label %168, label %174

168:                                              ; preds = %163
  %169 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #6
  %170 = trunc i64 %169 to i32
  %171 = lshr i32 %170, 6
  %172 = getelementptr inbounds nuw %struct.IndexValue, ptr addrspace(3) @_ZZ5iamaxIiEviPKfP10IndexValueIT_EE7Partial, i32 %171
  %173 = shufflevector <2 x i32> %164, <2 x i32> poison, <2 x i32> <i32 1, i32 0>
  store <2 x i32> %173, ptr addrspace(3) %172, align 8, !tbaa !11
  br label %174

174:                                              ; preds = %168, %163
  fence syncscope("workgroup") release
  tail call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %175 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #6
  %176 = and i64 %175, 4294967292
  %177 = icmp eq i64 %176, 0
  br i1 %177, label %178, label %185

178:                                              ; preds = %174
  %179 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #6
  %180 = trunc i64 %179 to i32
  %181 = getelementptr inbounds %struct.IndexValue, ptr addrspace(3) @_ZZ5iamaxIiEviPKfP10IndexValueIT_EE7Partial, i32 %180
  %182 = load i32, ptr addrspace(3) %181, align 8, !tbaa !5
  %183 = getelementptr inbounds nuw i8, ptr addrspace(3) %181, i32 4
  %184 = load float, ptr addrspace(3) %183, align 4, !tbaa !9
  br label %185

185:                                              ; preds = %178, %174
  %186 = phi i32 [ %182, %178 ], [ -1, %174 ]
  %187 = phi float [ %184, %178 ], [ 0.000000e+00, %174 ]
  %188 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #6
  %189 = and i64 %188, 4294967232
  %190 = icmp eq i64 %189, 0
  br i1 %190, label %191, label %292

191:                                              ; preds = %185
  %192 = bitcast float %187 to i32
  %193 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %28, i32 %186)
  %194 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %28, i32 %192)
  %195 = icmp eq i32 %193, -1
  br i1 %195, label %207, label %196

196:                                              ; preds = %191
  %197 = bitcast i32 %194 to float
  %198 = icmp eq i32 %186, -1
  %199 = fcmp contract olt float %187, %197
  %200 = select i1 %198, i1 true, i1 %199
  %201 = fcmp contract oeq float %187, %197
  %202 = tail call i32 @llvm.smin.i32(i32 %193, i32 %186)
  %203 = select i1 %201, i32 %202, i32 %186
  %204 = select i1 %200, i32 %193, i32 %203
  %205 = select i1 %200, float %197, float %187
  %206 = bitcast float %205 to i32
  br label %207

207:                                              ; preds = %196, %191
  %208 = phi i32 [ %206, %196 ], [ %192, %191 ]
  %209 = phi i32 [ %204, %196 ], [ %186, %191 ]
  %210 = phi float [ %205, %196 ], [ %187, %191 ]
  %211 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %48, i32 %209)
  %212 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %48, i32 %208)
  %213 = icmp eq i32 %211, -1
  br i1 %213, label %223, label %214

214:                                              ; preds = %207
  %215 = bitcast i32 %212 to float
  %216 = icmp eq i32 %209, -1
  %217 = fcmp contract olt float %210, %215
  %218 = select i1 %216, i1 true, i1 %217
  br i1 %218, label %223, label %219

219:                                              ; preds = %214
  %220 = fcmp contract oeq float %210, %215
  %221 = tail call i32 @llvm.smin.i32(i32 %211, i32 %209)
  %222 = select i1 %220, i32 %221, i32 %209
  br label %223

223:                                              ; preds = %219, %214, %207
  %224 = phi i32 [ %208, %207 ], [ %208, %219 ], [ %212, %214 ]
  %225 = phi i32 [ %209, %207 ], [ %222, %219 ], [ %211, %214 ]
  %226 = phi float [ %210, %207 ], [ %210, %219 ], [ %215, %214 ]
  %227 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %73, i32 %225)
  %228 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %73, i32 %224)
  %229 = icmp eq i32 %227, -1
  br i1 %229, label %239, label %230

230:                                              ; preds = %223
  %231 = bitcast i32 %228 to float
  %232 = icmp eq i32 %225, -1
  %233 = fcmp contract olt float %226, %231
  %234 = select i1 %232, i1 true, i1 %233
  br i1 %234, label %239, label %235

235:                                              ; preds = %230
  %236 = fcmp contract oeq float %226, %231
  %237 = tail call i32 @llvm.smin.i32(i32 %227, i32 %225)
  %238 = select i1 %236, i32 %237, i32 %225
  br label %239

239:                                              ; preds = %235, %230, %223
  %240 = phi i32 [ %224, %223 ], [ %224, %235 ], [ %228, %230 ]
  %241 = phi i32 [ %225, %223 ], [ %238, %235 ], [ %227, %230 ]
  %242 = phi float [ %226, %223 ], [ %226, %235 ], [ %231, %230 ]
  %243 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %97, i32 %241)
  %244 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %97, i32 %240)
  %245 = icmp eq i32 %243, -1
  br i1 %245, label %255, label %246

246:                                              ; preds = %239
  %247 = bitcast i32 %244 to float
  %248 = icmp eq i32 %241, -1
  %249 = fcmp contract olt float %242, %247
  %250 = select i1 %248, i1 true, i1 %249
  br i1 %250, label %255, label %251

251:                                              ; preds = %246
  %252 = fcmp contract oeq float %242, %247
  %253 = tail call i32 @llvm.smin.i32(i32 %243, i32 %241)
  %254 = select i1 %252, i32 %253, i32 %241
  br label %255

255:                                              ; preds = %251, %246, %239
  %256 = phi i32 [ %240, %239 ], [ %240, %251 ], [ %244, %246 ]
  %257 = phi i32 [ %241, %239 ], [ %254, %251 ], [ %243, %246 ]
  %258 = phi float [ %242, %239 ], [ %242, %251 ], [ %247, %246 ]
  %259 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %121, i32 %257)
  %260 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %121, i32 %256)
  %261 = icmp eq i32 %259, -1
  br i1 %261, label %271, label %262

262:                                              ; preds = %255
  %263 = bitcast i32 %260 to float
  %264 = icmp eq i32 %257, -1
  %265 = fcmp contract olt float %258, %263
  %266 = select i1 %264, i1 true, i1 %265
  br i1 %266, label %271, label %267

267:                                              ; preds = %262
  %268 = fcmp contract oeq float %258, %263
  %269 = tail call i32 @llvm.smin.i32(i32 %259, i32 %257)
  %270 = select i1 %268, i32 %269, i32 %257
  br label %271

271:                                              ; preds = %267, %262, %255
  %272 = phi i32 [ %256, %255 ], [ %256, %267 ], [ %260, %262 ]
  %273 = phi i32 [ %257, %255 ], [ %270, %267 ], [ %259, %262 ]
  %274 = phi float [ %258, %255 ], [ %258, %267 ], [ %263, %262 ]
  %275 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %145, i32 %273)
  %276 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %145, i32 %272)
  %277 = icmp eq i32 %275, -1
  br i1 %277, label %288, label %278

278:                                              ; preds = %271
  %279 = bitcast i32 %276 to float
  %280 = icmp eq i32 %273, -1
  %281 = fcmp contract olt float %274, %279
  %282 = select i1 %280, i1 true, i1 %281
  %283 = fcmp contract oeq float %274, %279
  %284 = tail call i32 @llvm.smin.i32(i32 %275, i32 %273)
  %285 = select i1 %283, i32 %284, i32 %273
  %286 = select i1 %282, i32 %276, i32 %272
  %287 = select i1 %282, i32 %275, i32 %285
  br label %288

288:                                              ; preds = %278, %271
  %289 = phi i32 [ %272, %271 ], [ %286, %278 ]
  %290 = phi i32 [ %273, %271 ], [ %287, %278 ]
  %291 = bitcast i32 %289 to float
  br label %292

292:                                              ; preds = %288, %185
  %293 = phi i32 [ %290, %288 ], [ %186, %185 ]
  %294 = phi float [ %291, %288 ], [ %187, %185 ]
  %295 = tail call i64 @__ockl_get_local_id(i32 noundef 0) #6
  %296 = and i64 %295, 4294967295
  %297 = icmp eq i64 %296, 0
  br i1 %297, label %298, label %303

298:                                              ; preds = %292
  %299 = tail call i64 @__ockl_get_group_id(i32 noundef 0) #6
  %300 = and i64 %299, 4294967295
  %301 = getelementptr inbounds nuw %struct.IndexValue, ptr addrspace(1) %2, i64 %300
  store i32 %293, ptr addrspace(1) %301, align 4, !tbaa !12
  %302 = getelementptr inbounds nuw i8, ptr addrspace(1) %301, i64 4
  store float %294, ptr addrspace(1) %302, align 4, !tbaa !14
  br label %303

303:                                              ; preds = %298, %292
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_group_id(i32 noundef) local_unnamed_addr #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fabs.f32(float) #2

; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #4

; Function Attrs: convergent nocallback nofree nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #5

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare hidden i64 @__ockl_get_local_id(i32 noundef) local_unnamed_addr #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #2

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "amdgpu-flat-work-group-size"="1,256" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress nofree nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx942" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-ds-pk-add-16-insts,+atomic-fadd-rtn-insts,+atomic-flat-pk-add-16-insts,+atomic-fmin-fmax-global-f64,+atomic-global-pk-add-bf16-inst,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+fp8-conversion-insts,+fp8-insts,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+gfx940-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64,+xf32-insts" "uniform-work-group-size"="false" }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #4 = { nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #5 = { convergent nocallback nofree nounwind willreturn }
attributes #6 = { convergent nounwind willreturn memory(none) }

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
!11 = !{!7, !7, i64 0}
!12 = !{!13, !6, i64 0}
!13 = !{!"_ZTS10IndexValueIiE", !6, i64 0, !10, i64 4}
!14 = !{!13, !10, i64 4}
