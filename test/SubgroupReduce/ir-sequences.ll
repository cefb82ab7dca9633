; The IR each chip gets (DPP controls as dpp_ctrl integers: 0x111.. =
; 273.. row_shr, 0x142 = 322 row_bcast:15, 0x143 = 323 row_bcast:31,
; 0xB1 = 177, 0x4E = 78 quad_perm, 0x141 = 321 row_half_mirror, 0x140 = 320
; row_mirror, 0x164/0x168 = 356/360 row_xmask), active-lane safety, and the
; remarks naming op, type, chip and sequence.
; RUN: sed -e 's/CHIP/gfx942/' -e 's/WAVE/64/' %s | opt %loadcrosslane -passes=crosslane-expand-subgroup -pass-remarks=crosslane-expand-subgroup -pass-remarks-missed=crosslane-expand-subgroup -S 2>%t.942.rem | FileCheck %s --check-prefix=GFX942
; RUN: FileCheck %s --check-prefix=REM942 < %t.942.rem
; RUN: sed -e 's/CHIP/gfx950/' -e 's/WAVE/64/' %s | opt %loadcrosslane -passes=crosslane-expand-subgroup -S | FileCheck %s --check-prefix=GFX950
; RUN: sed -e 's/CHIP/gfx1100/' -e 's/WAVE/32/' %s | opt %loadcrosslane -passes=crosslane-expand-subgroup -S | FileCheck %s --check-prefix=GFX1100
; RUN: sed -e 's/CHIP/gfx1030" "target-features"="+wavefrontsize64/' -e 's/WAVE/64/' %s | opt %loadcrosslane -passes=crosslane-expand-subgroup -S | FileCheck %s --check-prefix=GFX1030W64
; RUN: sed -e 's/CHIP/gfx942/' -e 's/WAVE/64/' %s | opt %loadcrosslane -passes='crosslane-expand-subgroup<no-wwm>' -S | FileCheck %s --check-prefix=NOWWM

target triple = "amdgcn-amd-amdhsa"

declare float @__crosslane_reduce_fmax_f32(float, i32, i32)
declare i32 @__crosslane_reduce_umax_i32(i32, i32, i32)
declare i32 @__crosslane_reduce_add_i32(i32, i32, i32)
declare i64 @__crosslane_reduce_smin_i64(i64, i32, i32)

; GFX942-LABEL: define float @wave_fmax(
; GFX942: %[[ORD:.*]] = fcmp ord float %v, %v
; GFX942: call i64 @llvm.amdgcn.ballot.i64(i1 %[[ORD]])
; GFX942: select i1 %[[ORD]], float %v, float 0xFFF0000000000000
; GFX942: call float @llvm.amdgcn.set.inactive.f32(float %{{.*}}, float 0xFFF0000000000000)
; GFX942: call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %{{.*}}, i32 273, i32 15, i32 15, i1 true)
; GFX942: call nnan float @llvm.maxnum.f32(
; GFX942: i32 274, i32 15, i32 15, i1 true)
; GFX942: i32 276, i32 15, i32 15, i1 true)
; GFX942: i32 280, i32 15, i32 15, i1 true)
; GFX942: i32 322, i32 15, i32 15, i1 true)
; GFX942: i32 323, i32 15, i32 15, i1 true)
; GFX942: call float @llvm.amdgcn.readlane.f32(float %{{.*}}, i32 63)
; GFX942: call float @llvm.amdgcn.strict.wwm.f32(
; GFX942: select i1 %{{.*}}, i32 2143289344, i32
; GFX942-NOT: call float @__crosslane
; GFX942-LABEL: define i32 @cluster32_umax(
; GFX942: i32 177, i32 15, i32 15, i1 true)
; GFX942: i32 78, i32 15, i32 15, i1 true)
; GFX942: i32 321, i32 15, i32 15, i1 true)
; GFX942: i32 320, i32 15, i32 15, i1 true)
; GFX942: call i32 @llvm.amdgcn.ds.swizzle(i32 %{{.*}}, i32 16415)
; GFX942-LABEL: define i32 @strided_add(
; GFX942: i32 78, i32 15, i32 15, i1 true)
; GFX942: %[[T:.*]] = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %{{.*}}, i32 260, i32 15, i32 5, i1 false)
; GFX942: call i32 @llvm.amdgcn.update.dpp.i32(i32 %[[T]], i32 %{{.*}}, i32 276, i32 15, i32 10, i1 false)
; GFX942-LABEL: define i64 @wave_smin_i64(
; GFX942: call i64 @llvm.amdgcn.set.inactive.i64(i64 %v, i64 9223372036854775807)
; GFX942: extractelement <2 x i32>
; GFX942: i32 177, i32 15, i32 15, i1 true)
; GFX942: i32 177, i32 15, i32 15, i1 true)
; GFX942: call i64 @llvm.smin.i64(

; REM942: remark: <unknown>:0:0: expanded reduce fmax f32 cluster 64 stride 1 for gfx942 wave64: set.inactive, row_shr:1, row_shr:2, row_shr:4, row_shr:8, row_bcast:15, row_bcast:31, readlane 63, strict.wwm
; REM942: remark: <unknown>:0:0: expanded reduce umax i32 cluster 32 stride 1 for gfx942 wave64: set.inactive, quad_perm:[1,0,3,2], quad_perm:[2,3,0,1], row_half_mirror, row_mirror, ds_swizzle(xor 16), strict.wwm
; REM942: remark: <unknown>:0:0: reduce umax i32 cluster 32 stride 1: DPP cannot serve every step of this cluster on gfx942 (lane xor across rows or halves); used ds_swizzle/ds_bpermute/readlane for those steps
; REM942: remark: <unknown>:0:0: expanded reduce add i32 cluster 4 stride 2 for gfx942 wave64: set.inactive, quad_perm:[2,3,0,1], row_shl:4+row_shr:4, strict.wwm

; GFX950-LABEL: define i32 @cluster32_umax(
; GFX950: i32 320, i32 15, i32 15, i1 true)
; GFX950: %[[S:.*]] = call { i32, i32 } @llvm.amdgcn.permlane16.swap(i32 %[[X:.*]], i32 %[[X]], i1 false, i1 false)
; GFX950-NOT: ds.swizzle

; GFX1100-LABEL: define float @wave_fmax(
; GFX1100: i32 177, i32 15, i32 15, i1 true)
; GFX1100: i32 78, i32 15, i32 15, i1 true)
; GFX1100: i32 356, i32 15, i32 15, i1 true)
; GFX1100: i32 360, i32 15, i32 15, i1 true)
; GFX1100: call i32 @llvm.amdgcn.permlanex16.i32(i32 poison, i32 %{{.*}}, i32 0, i32 0, i1 false, i1 false)
; GFX1100-NOT: permlane64
; GFX1100-LABEL: define i32 @strided_add(
; GFX1100: i32 78, i32 15, i32 15, i1 true)
; GFX1100: i32 356, i32 15, i32 15, i1 true)

; GFX1030W64-LABEL: define float @wave_fmax(
; GFX1030W64: call i32 @llvm.amdgcn.permlanex16.i32(
; GFX1030W64: call i32 @llvm.amdgcn.readlane.i32(i32 %{{.*}}, i32 0)
; GFX1030W64: call i32 @llvm.amdgcn.readlane.i32(i32 %{{.*}}, i32 32)

; NOWWM-LABEL: define float @wave_fmax(
; NOWWM-NOT: set.inactive
; NOWWM-NOT: strict.wwm
; NOWWM: ret float

define float @wave_fmax(float %v) #0 {
  %r = call float @__crosslane_reduce_fmax_f32(float %v, i32 WAVE, i32 1)
  ret float %r
}
define i32 @cluster32_umax(i32 %v) #0 {
  %r = call i32 @__crosslane_reduce_umax_i32(i32 %v, i32 32, i32 1)
  ret i32 %r
}
define i32 @strided_add(i32 %v) #0 {
  %r = call i32 @__crosslane_reduce_add_i32(i32 %v, i32 4, i32 2)
  ret i32 %r
}
define i64 @wave_smin_i64(i64 %v) #0 {
  %r = call i64 @__crosslane_reduce_smin_i64(i64 %v, i32 32, i32 1)
  ret i64 %r
}
attributes #0 = { "target-cpu"="CHIP" }
