; A guard entry whose NaN ballot later optimisation removed (with the
; result select: the reduction's NaN result was unused, e.g. converted to an
; integer after a second, link-time optimisation). crosslane-relax-nan-guard
; finds guards through their ballots, so it leaves this one as it is and
; says nothing: there is no result select, so nothing to relax.
target triple = "amdgcn-amd-amdhsa"

define i32 @ballot_gone(float %v) #0 {
  %ord = fcmp ord float %v, %v
  %w = select i1 %ord, float %v, float 0xFFF0000000000000, !crosslane.nan.guard !0
  %x = call float @llvm.amdgcn.set.inactive.f32(float %w, float 0xFFF0000000000000)
  %xi = bitcast float %x to i32
  %mi = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %xi, i32 273, i32 15, i32 15, i1 true)
  %m = bitcast i32 %mi to float
  %s = call nnan float @llvm.maxnum.f32(float %x, float %m)
  %r = call float @llvm.amdgcn.strict.wwm.f32(float %s)
  %i = fptosi float %r to i32
  ret i32 %i
}

declare float @llvm.amdgcn.set.inactive.f32(float, float)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.amdgcn.strict.wwm.f32(float)

attributes #0 = { "target-cpu"="gfx942" }

!0 = !{!"entry"}
