// Value-only float butterflies: fmaxf/fminf (llvm.maxnum/minnum, NaN
// ignored, exact) are replaced by __crosslane_reduce_fmax/fmin; a select on
// `o > v` keeps a NaN in the lane's own state and the lane's own zero on
// -0/+0, so it is replaced behind a run-time guard (no NaN, one zero sign).
// Each rewrite runs against the original in the wave executor.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/a.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/a.ll -o %t/a.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: {{.*}}recognised fmax f32, -0 < +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_fmax_f32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active; otherwise the original code runs){{$}}
// REMARK: remark: {{.*}}recognised fmax f32, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_fmax_f32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active, no value is NaN, lanes holding the result's value hold its bits; otherwise the original code runs)
// REMARK: remark: {{.*}}recognised fmin f32, -0 < +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_fmin_f32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active; otherwise the original code runs){{$}}
// REMARK-NOT: remark
// RUN: for k in wave_fmax wave_selmax lane0_fmin; do %crosslane-run %t/a.ll --diff=%t/a.x.ll --kernel=$k --mcpu=gfx942 --grid=1 --block=64 --seed=1 --print=none --nan-equal --arg=buf:f32:64:input --arg=buf:f32:64:zero --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max; done | FileCheck %s --check-prefix=DIFF
// DIFF-COUNT-3: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

extern "C" __global__ void wave_fmax(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v = fmaxf(v, __shfl_xor(v, o));
  out[threadIdx.x] = v;
}

extern "C" __global__ void wave_selmax(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) {
    float p = __shfl_xor(v, o);
    v = p > v ? p : v;
  }
  out[threadIdx.x] = v;
}

extern "C" __global__ void lane0_fmin(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v = fminf(v, __shfl_down(v, o));
  if (__lane_id() == 0)
    out[0] = v;
}
