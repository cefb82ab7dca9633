// f64 values (exchanged as two words, the double carried beside them) and
// results written only by thread 0 (clang sinks the last combine's selects
// into `if (threadIdx.x == 0)`; they are moved back above the branch so the
// guarded region ends before it). BLAS idamax on |x| with index 0 = no
// element, a double nearest-neighbour argmin (NaN never taken), and the
// f32 isamax with the same thread-0 store.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: recognised argmax f64/i32, ties: smallest index, NaN wins, -0 == +0, index 0 = no element over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f64_i32, guarded at run time
// REMARK-DAG: recognised argmin f64/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmin_f64_i32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active, no value is NaN; otherwise the original code runs)
// REMARK-DAG: recognised argmax f32/i32, ties: smallest index, NaN wins, -0 == +0, index 0 = no element over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time
// REMARK-NOT: not replaced
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=idamax_wave --mcpu=gfx942 --block=64 --sizes=1,5,64,200 --seed=3 --print=none --arg=buf:f64:N:input --arg=i32:N --arg=buf:i32:1:zero --arg=buf:f64:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=isamax_wave --mcpu=gfx942 --block=64 --sizes=1,5,64,200 --seed=3 --print=none --arg=buf:f32:N:input --arg=i32:N --arg=buf:i32:1:zero --arg=buf:f32:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=dargmin_wave --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f64:64:input --arg=buf:i32:64:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=idamax_wave --mcpu=gfx1100 --block=32 --sizes=1,32,100 --seed=4 --print=none --arg=buf:f64:N:input --arg=i32:N --arg=buf:i32:1:zero --arg=buf:f64:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=dargmin_wave --mcpu=gfx1100 --block=32 --sizes=32 --seed=4 --print=none --arg=buf:f64:32:input --arg=buf:i32:32:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>
#include <cmath>

namespace {

template <typename T> struct Pair {
  T V;
  int I;
};

// BLAS i?amax order on |x|: index 0 = none, NaN first, larger, smaller index.
template <typename T> __device__ inline bool amaxBetter(Pair<T> A, Pair<T> B) {
  if (B.I == 0)
    return false;
  if (A.I == 0)
    return true;
  bool AN = A.V != A.V, BN = B.V != B.V;
  if (AN || BN)
    return BN && (!AN || B.I < A.I);
  return B.V > A.V || (B.V == A.V && B.I < A.I);
}

template <typename T>
__device__ inline void amaxWave(const T *X, int N, int *Out, T *OutV) {
  Pair<T> P = {T(-1), 0};
  for (int K = threadIdx.x; K < N; K += blockDim.x) {
    Pair<T> E = {std::fabs(X[K]), K + 1};
    if (amaxBetter(P, E))
      P = E;
  }
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    Pair<T> O = {__shfl_xor(P.V, Off), __shfl_xor(P.I, Off)};
    if (amaxBetter(P, O))
      P = O;
  }
  if (threadIdx.x == 0) {
    Out[0] = P.I;
    OutV[0] = P.V;
  }
}

} // namespace

extern "C" __global__ void idamax_wave(const double *X, int N, int *Out,
                                       double *OutV) {
  amaxWave(X, N, Out, OutV);
}

extern "C" __global__ void isamax_wave(const float *X, int N, int *Out,
                                       float *OutV) {
  amaxWave(X, N, Out, OutV);
}

// Nearest: smaller distance, then smaller index; a NaN is never taken.
extern "C" __global__ void dargmin_wave(const double *D, int *Out) {
  double V = D[threadIdx.x];
  int I = threadIdx.x;
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    double OV = __shfl_xor(V, Off);
    int OI = __shfl_xor(I, Off);
    if (OV < V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
}
