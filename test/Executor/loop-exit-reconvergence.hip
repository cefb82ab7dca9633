// Lanes that leave a loop early wait at its exit until the whole wave has
// left it: a ballot, a shuffle or a barrier after the loop sees every lane.
// Plain reverse post order puts the exit of `header: br %c, %body, %exit`
// (every -O0 loop; rotated loops at -O2 are not affected) before the body,
// and the exited lanes then ran the code after the loop alone: a ballot of
// 6 lanes instead of 64, and a false barrier deadlock.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O0 -S -emit-llvm %s -o %t/o0.ll
// RUN: %crosslane-run %t/o0.ll --kernel=loop_then_ballot --block=64 --arg=buf:i32:70:iota --arg=buf:i32:64:zero --arg=i32:70 --print=1 | FileCheck %s --check-prefix=BALLOT
// RUN: %crosslane-run %t/o0.ll --kernel=loop_then_barrier --block=64 --arg=buf:i32:70:iota --arg=buf:i32:64:zero --arg=i32:70 --print=1 | FileCheck %s --check-prefix=BARRIER
// RUN: %crosslane-run %t/o0.ll --kernel=nested_then_shfl --block=64 --arg=buf:i32:64:iota --arg=buf:i32:64:zero --print=1 | FileCheck %s --check-prefix=SHFL
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only -nogpulib -O0 -S -emit-llvm %s -o %t/w32.ll
// RUN: %crosslane-run %t/w32.ll --kernel=loop_then_ballot --block=32 --arg=buf:i32:40:iota --arg=buf:i32:32:zero --arg=i32:40 --print=1 | FileCheck %s --check-prefix=BALLOT32
// Lane i sums x[i] and, for i < 6, x[i + 64]; all 64 lanes vote.
// BALLOT: arg1[0] = 64064
// BALLOT: arg1[5] = 64074
// BALLOT: arg1[6] = 64006
// BALLOT: arg1[63] = 64063
// BARRIER: arg1[0] = 64
// BARRIER: arg1[6] = 6
// Lane i runs i % 5 outer iterations (with an inner loop and a `break`);
// the xor butterfly then adds every lane's count: 64 lanes, sum of i % 5
// over 0..63 = 126.
// SHFL: arg1[0] = 126
// SHFL: arg1[63] = 126
// BALLOT32: arg1[0] = 32032
// BALLOT32: arg1[8] = 32008
#include <hip/hip_runtime.h>

extern "C" __global__ void loop_then_ballot(const int *X, int *O, int N) {
  int S = 0;
  for (int I = threadIdx.x; I < N; I += blockDim.x)
    S += X[I];
  unsigned long long M = __ballot(1);
  O[threadIdx.x] = S + 1000 * __popcll(M);
}

extern "C" __global__ void loop_then_barrier(const int *X, int *O, int N) {
  int S = 0;
  for (int I = threadIdx.x; I < N; I += blockDim.x)
    S += X[I];
  __syncthreads();
  O[threadIdx.x] = S;
}

extern "C" __global__ void nested_then_shfl(const int *X, int *O) {
  int Count = 0;
  int Limit = X[threadIdx.x] % 5;
  for (int I = 0; I < 100; ++I) {
    if (I >= Limit)
      break;
    for (int J = 0; J < I; ++J)
      Count += 0 * J;
    ++Count;
  }
  for (int Off = 32; Off > 0; Off >>= 1)
    Count += __shfl_xor(Count, Off);
  O[threadIdx.x] = Count;
}
