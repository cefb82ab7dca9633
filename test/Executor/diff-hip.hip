// Differential harness on clang output: the same HIP wave-max kernel at -O0
// and -O2 (and -O2 with device libraries) must produce bit-identical
// outputs for every input generator, lengths that are not a multiple of the
// wave (partial waves, divergent tails) and NaN at each position.
// REQUIRES: executor, hip-headers
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O0 -S -emit-llvm --no-crosslane %s -o %t.o0.ll
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S -emit-llvm --no-crosslane %s -o %t.o2.ll
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm --no-crosslane %s -o %t.dl.ll
// RUN: %crosslane-run %t.o0.ll --diff=%t.o2.ll --grid=2 --block=64 --sizes=1,31,64,100 --arg=buf:f32:N:zero --arg=buf:f32:N:input --arg=i32:N --cases=2 | FileCheck %s
// RUN: %crosslane-run %t.o2.ll --diff=%t.dl.ll --grid=2 --block=64 --sizes=1,31,64,100 --arg=buf:f32:N:zero --arg=buf:f32:N:input --arg=i32:N --cases=2 | FileCheck %s
// 4 sizes x (2 x 6 random-valued generators + all-nan + neg-max) + nan-each
// at 1 + 31 + 64 + 64 positions.
// CHECK: diff: 216 cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <cfloat>

__global__ void wavemax(float *out, const float *in, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = g < n ? in[g] : -FLT_MAX;
  for (int m = 1; m < warpSize; m <<= 1)
    v = fmaxf(v, __shfl_xor(v, m));
  if (g < n)
    out[g] = v;
}
