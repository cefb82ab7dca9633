// A PyTorch-style combine written with early returns (NaN first, then the
// larger value, then the smaller index), in a shfl_down ladder over
// (float, int64) pairs. Its value and index are tied through branches, not
// through data: splitting the stage's words by data flow alone once made a
// bogus "smin i64" chain out of the index words and broke the IR
// ("Instruction does not dominate all uses"). Stages whose combine has
// branches stay whole; the module must verify and compute the same. The
// last stage's if-converted selects (run only when the branches reach
// them) are not its results; the phi after them is (it was refused as
// NotASelection, the selects' speculated values read as results).
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-NOT: smin i64
// REMARK: recognised argmax f32/i64, ties: smallest index, NaN wins, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// REMARK-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=branchy_argmax --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:128:input --arg=buf:i64:1:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=branchy_argmax --mcpu=gfx942 --block=64 --sizes=1,7,64,100 --print=none --arg=buf:f32:128:input --arg=buf:i64:1:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only -O3 -S -emit-llvm %s -o %t/w32.ll
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <cstdint>

struct Pair {
  float V;
  int64_t I;
};

__device__ Pair combine(Pair A, Pair B) {
  bool AN = A.V != A.V, BN = B.V != B.V;
  if (AN || BN) {
    if (AN && BN)
      return A.I < B.I ? A : B;
    return AN ? A : B;
  }
  if (A.V > B.V)
    return A;
  if (A.V == B.V)
    return A.I < B.I ? A : B;
  return B;
}

extern "C" __global__ void branchy_argmax(const float *X, int64_t *Out,
                                          int N) {
  Pair P = {threadIdx.x < N ? X[threadIdx.x] : -INFINITY,
            threadIdx.x < N ? (int64_t)threadIdx.x : INT64_MAX};
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    Pair O;
    O.V = __shfl_down(P.V, Off);
    O.I = __shfl_down(P.I, Off);
    P = combine(P, O);
  }
  if (threadIdx.x == 0)
    Out[0] = P.I;
}
