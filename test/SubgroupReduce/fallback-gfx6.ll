; Chips without DPP (gfx6/gfx7) get the portable ds_swizzle + readlane
; sequence and a missed-optimisation remark; so do steps DPP cannot serve on
; DPP chips (lane xor 16/32 with a stride on gfx9, xor 32 on gfx10 wave64).
; RUN: sed -e 's/CHIP/gfx700/' %s | opt %loadcrosslane -passes=crosslane-expand-subgroup -pass-remarks-missed=crosslane-expand-subgroup -S 2>%t.rem | llc -O3 -mtriple=amdgcn-amd-amdhsa | FileCheck %s --check-prefix=GFX7
; RUN: FileCheck %s --check-prefix=REM7 < %t.rem
; RUN: sed -e 's/CHIP/gfx600/' %s | opt %loadcrosslane -passes=crosslane-expand-subgroup -S | llc -O3 -mtriple=amdgcn-amd-amdhsa | FileCheck %s --check-prefix=GFX7
; RUN: sed -e 's/CHIP/gfx900/' %s | opt %loadcrosslane -passes=crosslane-expand-subgroup -pass-remarks-missed=crosslane-expand-subgroup -disable-output 2>&1 | FileCheck %s --check-prefix=REM9
; RUN: sed -e 's/CHIP/gfx1030" "target-features"="+wavefrontsize64/' %s | opt %loadcrosslane -passes=crosslane-expand-subgroup -pass-remarks-missed=crosslane-expand-subgroup -S 2>%t.rem10 | llc -O3 -mtriple=amdgcn-amd-amdhsa | FileCheck %s --check-prefix=GFX10
; RUN: FileCheck %s --check-prefix=REM10 < %t.rem10
; GFX7-LABEL: wave_add:
; GFX7: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,1)
; GFX7: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,16)
; GFX7: v_readlane_b32 {{.*}}, 0
; GFX7: v_readlane_b32 {{.*}}, 32
; GFX7-NOT: _dpp
; GFX7-LABEL: strided:
; GFX7: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,16)
; GFX7: v_readlane_b32 {{.*}}, 33
; REM7: remark: <unknown>:0:0: reduce add i32 cluster 64 stride 1: gfx700 has no DPP; used the portable ds_swizzle/readlane sequence
; REM9-NOT: wave_add
; REM9: reduce add i32 cluster 2 stride 32: DPP cannot serve every step of this cluster on gfx900
; GFX10-LABEL: strided:
; GFX10: v_readlane_b32 {{.*}}, 33
; REM10: reduce add i32 cluster 2 stride 32: DPP cannot serve every step of this cluster on gfx1030
target triple = "amdgcn-amd-amdhsa"
declare i32 @__crosslane_reduce_add_i32(i32, i32, i32)
define amdgpu_kernel void @wave_add(ptr addrspace(1) %p) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %id
  %v = load i32, ptr addrspace(1) %g
  %r = call i32 @__crosslane_reduce_add_i32(i32 %v, i32 64, i32 1)
  store i32 %r, ptr addrspace(1) %g
  ret void
}
define amdgpu_kernel void @strided(ptr addrspace(1) %p) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %id
  %v = load i32, ptr addrspace(1) %g
  %a = call i32 @__crosslane_reduce_add_i32(i32 %v, i32 4, i32 16)
  %b = call i32 @__crosslane_reduce_add_i32(i32 %a, i32 2, i32 32)
  store i32 %b, ptr addrspace(1) %g
  ret void
}
attributes #0 = { "target-cpu"="CHIP" }
