; Lane moves of canonical values, then maxnum (llvm-patches/0002).

define float @maxnum_update_dpp(float %a) {
  %x = call float @llvm.canonicalize.f32(float %a)
  %m = call float @llvm.amdgcn.update.dpp.f32(float 0x7FF8000000000000, float %x, i32 273, i32 15, i32 15, i1 false)
  %r = call float @llvm.maxnum.f32(float %x, float %m)
  ret float %r
}

define float @maxnum_readlane(float %a) {
  %x = call float @llvm.canonicalize.f32(float %a)
  %m = call float @llvm.amdgcn.readlane.f32(float %x, i32 5)
  %r = call float @llvm.maxnum.f32(float %x, float %m)
  ret float %r
}

; An old value that may be a signalling NaN keeps the canonicalize.
define float @maxnum_update_dpp_unknown_old(float %a, float %old) {
  %x = call float @llvm.canonicalize.f32(float %a)
  %m = call float @llvm.amdgcn.update.dpp.f32(float %old, float %x, i32 273, i32 15, i32 15, i1 false)
  %r = call float @llvm.maxnum.f32(float %x, float %m)
  ret float %r
}
