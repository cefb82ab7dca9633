// A butterfly whose combine sits in a noinline function: the recogniser
// cannot see it and refuses, naming the function (it used to say that what
// the lanes read "is not combined with their own values", which sent the
// reader looking for a bug in the kernel). The module is unchanged and
// still computes the same.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/in.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks-missed=crosslane-recognize-arg -S %t/in.ll -o %t/out.ll 2>&1 | FileCheck %s
// CHECK: remark: {{.*}}noinline-combine.hip:[[#@LINE+16]]:16: cross-lane butterfly not replaced (NotAReduction): what the lanes read is passed to 'comb(float&, int&, float, int)', which is not inlined: the combine must be visible here (drop noinline, or use __forceinline__)
// RUN: %crosslane-run %t/in.ll --diff=%t/out.ll --mcpu=gfx942 --block=N --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=i32:N --sizes=64,40 --inputs=random,ties --print=none | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

__device__ __attribute__((noinline)) void comb(float &V, int &I, float OV,
                                               int OI) {
  if (OV < V || (OV == V && OI < I)) {
    V = OV;
    I = OI;
  }
}
extern "C" __global__ void noinline_combine(const float *X, int *Out, int N) {
  float V = (int)threadIdx.x < N ? X[threadIdx.x] : INFINITY;
  int I = threadIdx.x;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    comb(V, I, OV, OI);
  }
  if (threadIdx.x == 0)
    Out[0] = I;
}
