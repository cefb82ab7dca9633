// rocBLAS-style iamax: `if (y.i != -1) { if (x.i == -1 || y.v > x.v) x = y;
// else if (y.i < x.i && x.v == y.v) x.i = y.i; }` over a shfl_down ladder,
// per wave, then through LDS, then a last ladder. Three things it needs:
//  * on -0 and +0 (equal to fcmp) the state takes its index from the other
//    lane and keeps its own value: the value and the index come from
//    different lanes (was NotASelection). Those pairs are left out of the
//    proof, only for -0 == +0 semantics, behind a guard that every lane
//    holding the winning value holds its bits;
//  * clang if-converts the last stage into selects that it only runs when
//    the partner is an element; their speculated values are not results
//    (a phi merging them with the lane's own state is);
//  * with an int index, the SLP vectorizer carries the state as <2 x i32>
//    on gfx942 (extractelement words; was NotAnXorButterfly x5 + NoResult).
// "no element" pairs are encoded as NaN for the operation; the guard's NaN
// check reads the lane's value before that (it sent every wave with an
// empty lane to the original code).
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: FileCheck %s --check-prefix=SLP < %t/g9.ll
// SLP: insertelement <2 x i32>
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9-COUNT-2: recognised argmax f32/i64, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i64, guarded at run time (every lane of the 64-lane group is active, no value is NaN, lanes holding the winning value hold its bits,
// G9-COUNT-3: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// G9-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// Against the original, every generator, partial blocks (empty lanes):
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=iamax64 --mcpu=gfx942 --grid=2 --block=256 --sizes=1,7,100,300,512 --arg=i32:N --arg=buf:f32:512:input --arg=buf:i64:4:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=iamax32 --mcpu=gfx942 --grid=2 --block=256 --sizes=1,7,100,300,512 --arg=i32:N --arg=buf:f32:512:input --arg=buf:i32:4:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=signed_values --mcpu=gfx942 --block=N --sizes=5,64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:f32:1:zero --arg=buf:i32:1:zero --inputs=all --cases=8 | FileCheck %s --check-prefix=DIFF
// The fast path, with empty lanes in the last ladder (4 partials in 64):
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=iamax64 --mcpu=gfx942 --grid=2 --block=256 --sizes=512 --arg=i32:N --arg=buf:f32:512:input --arg=buf:i64:4:zero --print=none --inputs=random,ties,all-equal,pm-zero,pm-inf,denorm,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=iamax32 --mcpu=gfx942 --grid=2 --block=256 --sizes=512 --arg=i32:N --arg=buf:f32:512:input --arg=buf:i32:4:zero --print=none --inputs=random,ties,all-equal,pm-zero,pm-inf,denorm,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=signed_values --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:f32:1:zero --arg=buf:i32:1:zero --inputs=random,ties,all-equal,neg-max --cases=8 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm -DWF=32 %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11-COUNT-5: recognised argmax f32/i{{32|64}}, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32)
// G11-NOT: not replaced
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=iamax32 --mcpu=gfx1100 --grid=2 --block=256 --sizes=1,100,512 --arg=i32:N --arg=buf:f32:512:input --arg=buf:i32:4:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=signed_values --mcpu=gfx1100 --block=N --sizes=5,32 --print=none --arg=buf:f32:32:input --arg=buf:i32:32:random --arg=buf:f32:1:zero --arg=buf:i32:1:zero --inputs=all --cases=8 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

#ifndef WF
#define WF 64
#endif

template <typename I> struct IndexValue {
  I Index;
  float Value;
};

// x.index == -1 is "no element"; on equal values only the index moves.
template <typename I>
__device__ void combine(IndexValue<I> &X, const IndexValue<I> &Y) {
  if (Y.Index != -1) {
    if (X.Index == -1 || Y.Value > X.Value)
      X = Y;
    else if (Y.Index < X.Index && X.Value == Y.Value)
      X.Index = Y.Index;
  }
}

template <typename I> __device__ IndexValue<I> waveReduce(IndexValue<I> X) {
  for (int Off = WF / 2; Off > 0; Off >>= 1) {
    IndexValue<I> Y;
    Y.Index = __shfl_down(X.Index, Off);
    Y.Value = __shfl_down(X.Value, Off);
    combine(X, Y);
  }
  return X;
}

// Block of 256: per-wave ladders, partials through LDS, a last ladder.
template <typename I>
__device__ void iamax(int N, const float *X, IndexValue<I> *Out) {
  __shared__ IndexValue<I> Partial[256 / WF];
  int Tid = blockIdx.x * 256 + threadIdx.x;
  IndexValue<I> S{-1, 0.f};
  if (Tid < N) {
    S.Index = Tid + 1;
    S.Value = fabsf(X[Tid]);
  }
  S = waveReduce(S);
  if (threadIdx.x % WF == 0)
    Partial[threadIdx.x / WF] = S;
  __syncthreads();
  if (threadIdx.x < 256 / WF)
    S = Partial[threadIdx.x];
  else
    S = IndexValue<I>{-1, 0.f};
  if (threadIdx.x / WF == 0)
    S = waveReduce(S);
  if (threadIdx.x == 0) {
    Out[blockIdx.x].Index = S.Index;
    Out[blockIdx.x].Value = S.Value;
  }
}

extern "C" __global__ void __launch_bounds__(256)
iamax64(int N, const float *X, IndexValue<long long> *Out) {
  iamax(N, X, Out);
}
extern "C" __global__ void __launch_bounds__(256)
iamax32(int N, const float *X, IndexValue<int> *Out) {
  iamax(N, X, Out);
}

// Signed values, one wave: -0 and +0 meet and the value and the index of a
// state then come from different lanes.
extern "C" __global__ void signed_values(const float *X, const int *Ix,
                                         float *OutV, int *OutI) {
  IndexValue<int> S{Ix[threadIdx.x], X[threadIdx.x]};
  S = waveReduce(S);
  if (threadIdx.x == 0) {
    OutV[0] = S.Value;
    OutI[0] = S.Index;
  }
}
