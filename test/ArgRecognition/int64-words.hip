// int64 state whose words InstCombine no longer cuts from one i64 at
// -O2/-O3, each refused before as "the lanes exchange more than a value
// and an index" (UnsupportedState):
// - an `int` sign-extended to an int64 index (Eigen's Tuple<Index, T> with
//   a loaded index): the low word is exchanged as the `int` itself and the
//   high word as `ashr int, 31`;
// - an int64 index with a row offset in its high word, `((Index)row << 32)
//   + t`, exchanged as two 32-bit shuffles: the low word is `t`'s;
// - an int64 value and index (PaddlePaddle's KeyValuePair<int64, int64>)
//   joined back as `(sext hi << 32) | zext lo`, the same bits as zext;
// - a global int64 index (`blockIdx.x * (long long)blockDim.x + t`, a
//   TensorFlow-style double argmax) exchanged as its low word alone, which
//   the code cuts with `trunc nuw` (its high word is zero, else poison):
//   refused NotAStage before.
// Each computes what the original computes on every input class in full
// and partial groups, and stays on the fast path on NaN-free inputs.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: recognised argmin f32/i64, ties: smallest index, NaN ignored, -0 == +0 over 32 lanes (shfl_down ladder, 5 stages on gfx942 wave64)
// REMARK-DAG: recognised argmin f32/i64, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// REMARK-DAG: recognised argmax i64/i64, ties: smallest index over 32 lanes (xor butterfly, 5 stages on gfx942 wave64)
// REMARK-DAG: recognised argmax f64/i32, ties: smallest index (unsigned), NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// REMARK-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=gathered_index --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:random --arg=buf:i64:2:zero --arg=buf:f32:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=gathered_index --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:i64:2:zero --arg=buf:f32:2:zero --inputs=random,ties,all-equal,pm-zero,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=row_offset --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:f32:N:input --arg=buf:i32:1:random --arg=buf:i64:1:zero --arg=buf:f32:1:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=row_offset --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:1:random --arg=buf:i64:1:zero --arg=buf:f32:1:zero --inputs=random,ties,all-equal,pm-zero,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=key_value_i64 --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:i32:N*2:input --arg=buf:i64:N:zero --arg=buf:i64:N:zero --inputs=random,ties,all-equal,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=key_value_i64 --mcpu=gfx942 --block=64 --print=none --arg=buf:i32:128:input --arg=buf:i64:64:zero --arg=buf:i64:64:zero --inputs=random,ties,all-equal,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-4: recognised
// W32-NOT: not replaced
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=gathered_index --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:random --arg=buf:i64:2:zero --arg=buf:f32:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=row_offset --mcpu=gfx1100 --block=N --sizes=32,20 --print=none --arg=buf:f32:N:input --arg=buf:i32:1:random --arg=buf:i64:1:zero --arg=buf:f32:1:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=key_value_i64 --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:i32:N*2:input --arg=buf:i64:N:zero --arg=buf:i64:N:zero --inputs=random,ties,all-equal,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=global_index --mcpu=gfx942 --block=N --grid=2 --sizes=64,40 --print=none --arg=buf:f64:128:input --arg=buf:i64:4:zero --arg=buf:f64:4:zero --arg=i32:100 --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=global_index --mcpu=gfx942 --block=64 --grid=2 --print=none --arg=buf:f64:128:input --arg=buf:i64:4:zero --arg=buf:f64:4:zero --arg=i32:128 --inputs=random,ties,pm-zero,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=global_index --mcpu=gfx1100 --block=N --grid=2 --sizes=32,20 --print=none --arg=buf:f64:128:input --arg=buf:i64:4:zero --arg=buf:f64:4:zero --arg=i32:50 --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

typedef long long Index;
template <typename U, typename V> struct Tuple {
  U First;
  V Second;
};
typedef Tuple<Index, float> IndexValue;

// Eigen's ArgMinTupleReducer::reduce.
__device__ void reduceArgMin(const IndexValue T, IndexValue *Accum) {
  if (T.Second < Accum->Second ||
      (T.Second == Accum->Second && T.First < Accum->First))
    *Accum = T;
}

// Indices loaded per lane (a gather), 32-lane groups read in their lane 0.
extern "C" __global__ void gathered_index(const float *X, const int *Ids,
                                          Index *Idx, float *Val) {
  int T = threadIdx.x;
  IndexValue Accum = {(Index)Ids[T], X[T]};
  for (int Off = 16; Off > 0; Off /= 2) {
    IndexValue O = {__shfl_down(Accum.First, Off, 32),
                    __shfl_down(Accum.Second, Off, 32)};
    reduceArgMin(O, &Accum);
  }
  if ((T & 31) == 0) {
    Idx[T / 32] = Accum.First;
    Val[T / 32] = Accum.Second;
  }
}

// The index moved as two 32-bit shuffles, with a row number in its high
// word; one wave, read in lane 0.
__device__ IndexValue shflDown2x32(const IndexValue &A, int Off) {
  int Lo = (int)(A.First & 0xffffffff), Hi = (int)(A.First >> 32);
  Lo = __shfl_down(Lo, Off);
  Hi = __shfl_down(Hi, Off);
  return {((Index)Hi << 32) | (unsigned)Lo, __shfl_down(A.Second, Off)};
}
extern "C" __global__ void row_offset(const float *X, const int *Row,
                                      Index *Idx, float *Val) {
  int T = threadIdx.x;
  IndexValue Accum = {((Index)Row[0] << 32) + T, X[T]};
  for (int Off = warpSize / 2; Off > 0; Off /= 2)
    reduceArgMin(shflDown2x32(Accum, Off), &Accum);
  if (T == 0) {
    Idx[0] = Accum.First;
    Val[0] = Accum.Second;
  }
}

// KeyValuePair<int64, int64>: the largest 64-bit value, the smallest index
// on ties; 32-lane groups, every lane writes.
extern "C" __global__ void key_value_i64(const int *Words, Index *Idx,
                                         Index *Val) {
  int T = threadIdx.x;
  Index V = ((Index)Words[2 * T] << 32) | (unsigned)Words[2 * T + 1];
  Index K = T;
  for (int Off = 16; Off > 0; Off >>= 1) {
    Index OK = __shfl_xor(K, Off, 32);
    Index OV = __shfl_xor(V, Off, 32);
    if (OV > V || (OV == V && OK < K)) {
      V = OV;
      K = OK;
    }
  }
  Idx[T] = K;
  Val[T] = V;
}

// A grid-wide int64 index; lanes past N hold (lowest, 0).
extern "C" __global__ void global_index(const double *X, Index *Idx,
                                        double *Val, int N) {
  Index G = blockIdx.x * (Index)blockDim.x + threadIdx.x;
  double V = -1.7976931348623157e308;
  Index I = 0;
  if (G < N) {
    V = X[G];
    I = G;
  }
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    double O = __shfl_xor(V, M);
    Index OI = __shfl_xor(I, M);
    if (O > V || (O == V && OI < I)) {
      V = O;
      I = OI;
    }
  }
  if (threadIdx.x % warpSize == 0) {
    Idx[G / warpSize] = I;
    Val[G / warpSize] = V;
  }
}
