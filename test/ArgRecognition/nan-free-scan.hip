// A per-lane scan `if (x > best)` from best = -inf never lets a NaN through
// (an ordered compare is false on NaN), so the butterfly after it needs no
// run-time NaN check; `if (!(x <= best))` takes NaN, so it keeps the check.
// Both run against the original in the executor with NaN in the input.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/a.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/a.ll -o %t/a.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: {{.*}}recognised argmax f32/i32, {{.*}} guarded at run time (every lane of the {{[0-9]+}}-lane group is active, lanes holding the winning index hold its value's bits; otherwise the original code runs)
// REMARK: remark: {{.*}}recognised argmax f32/i32, {{.*}} guarded at run time (every lane of the {{[0-9]+}}-lane group is active, no value is NaN, lanes holding the winning index hold its value's bits; otherwise the original code runs)
// REMARK-NOT: remark
// RUN: for k in scan_gt scan_nle; do %crosslane-run %t/a.ll --diff=%t/a.x.ll --kernel=$k --mcpu=gfx942 --grid=1 --block=64 --seed=1 --print=none --nan-equal --arg=buf:f32:256:input --arg=buf:f32:64:zero --arg=buf:i32:64:zero --arg=i32:256 --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max; done | FileCheck %s --check-prefix=DIFF
// DIFF-COUNT-2: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

__device__ inline void butterfly(float &v, int &i) {
  for (int o = warpSize / 2; o > 0; o /= 2) {
    float pv = __shfl_xor(v, o);
    int pi = __shfl_xor(i, o);
    if (pv > v || (pv == v && pi < i)) {
      v = pv;
      i = pi;
    }
  }
}

extern "C" __global__ void scan_gt(const float *in, float *ov, int *oi,
                                   int n) {
  float best = -INFINITY;
  int idx = -1;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    if (in[j] > best) {
      best = in[j];
      idx = j;
    }
  butterfly(best, idx);
  ov[threadIdx.x] = best;
  oi[threadIdx.x] = idx;
}

extern "C" __global__ void scan_nle(const float *in, float *ov, int *oi,
                                    int n) {
  float best = -INFINITY;
  int idx = -1;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    if (!(in[j] <= best)) {
      best = in[j];
      idx = j;
    }
  butterfly(best, idx);
  ov[threadIdx.x] = best;
  oi[threadIdx.x] = idx;
}
