// A value-only min/max that lets a NaN through by selection,
// `(o < v || o != o) ? o : v`, keeps the NaN's bits: with one -NaN
// (0xFFC00000) in the wave the original returns exactly it. Crosslane's
// fminimum/fmaximum return the canonical NaN, so the guard sends a wave
// whose NaN lanes do not hold the result's bits to the original code. The
// executor compares bit for bit (no --nan-equal), on gfx942 and on gfx1100
// (wave32), with a -NaN in each lane in turn (nan-each) and all NaN.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: for c in gfx942 gfx1100; do \
// RUN:   %hipcc --offload-arch=$c --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/$c.ll || exit 1; \
// RUN:   opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/$c.ll -o %t/$c.x.ll 2>&1 || exit 1; \
// RUN:   for k in sticky_min sticky_max; do \
// RUN:     %crosslane-run %t/$c.ll --diff=%t/$c.x.ll --kernel=$k --mcpu=$c --grid=1 --block=64 --sizes=1,5,64 --seed=3 --print=none \
// RUN:       --arg=buf:f32:64:input --arg=buf:f32:64:zero --arg=i32:N --inputs=random,nan-each,all-nan,pm-zero,pm-inf || exit 1; \
// RUN:   done; done 2>&1 | FileCheck %s
// CHECK: remark: {{.*}}recognised fminimum f32{{.*}}guarded at run time
// CHECK: remark: {{.*}}recognised fmaximum f32{{.*}}guarded at run time
// CHECK-COUNT-2: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// CHECK: remark: {{.*}}recognised fminimum f32
// CHECK: remark: {{.*}}recognised fmaximum f32
// CHECK-COUNT-2: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

extern "C" __global__ void sticky_min(const float *in, float *out, int n) {
  int t = threadIdx.x;
  float v = t < n ? in[t] : INFINITY;
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    float o = __shfl_xor(v, off);
    v = (o < v || o != o) ? o : v;
  }
  out[t] = v;
}

extern "C" __global__ void sticky_max(const float *in, float *out, int n) {
  int t = threadIdx.x;
  float v = t < n ? in[t] : -INFINITY;
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    float o = __shfl_xor(v, off);
    v = (o > v || o != o) ? o : v;
  }
  out[t] = v;
}
