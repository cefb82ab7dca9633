// Sentinel encodings: an index value that means "no element" (BLAS iamax's
// 0 with 1-based indices, a nearest-neighbour search's -1). The combine
// `if (b.i == NONE) return false; if (a.i == NONE) return true; ...` is a
// total order once a NONE pair loses to every element; two NONE pairs tie
// (their values may differ), so a group of lanes holding only NONE pairs
// is decided by lane order. The rewrite maps NONE to (worst value, largest
// index) before the operation and takes its result only when that result
// is an element; else (and for an element tied with the encoding) the
// original code runs.
// Executed: original against rewrite on pairs from memory with NONE in
// every third lane, in all lanes, in all but one, and with duplicate and
// INT32_MAX indices; values random and adversarial (NaN in each position,
// ties, +-0, +-inf).
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: {{.*}}recognised argmax f32/i32, ties: smallest index, NaN wins, -0 == +0, index 0 = no element over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active, {{.*}}no element has index 2147483647; otherwise the original code runs)
// REMARK-DAG: remark: {{.*}}recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes {{.*}}guarded at run time (every lane of the {{[0-9]+}}-lane group is active, {{.*}}no element has index 2147483647; otherwise the original code runs)
// REMARK-DAG: remark: {{.*}}recognised argmin i32/i32, ties: smallest index, index -1 = no element over 64 lanes {{.*}}guarded at run time (every lane of the {{[0-9]+}}-lane group is active, {{.*}}no element has index 2147483647; otherwise the original code runs)
// REMARK-DAG: remark: {{.*}}cross-lane butterfly not replaced (NotATotalOrder)
// RUN: FileCheck %s --check-prefix=IR < %t/w64.x.ll
// IR-LABEL: define {{.*}} @none0_argmax(
// IR: %crosslane.none.value = select i1 %{{.*}}, float 0xFFF0000000000000, float %
// IR: %crosslane.none.index = select i1 %{{.*}}, i32 2147483647, i32 %
// IR-LABEL: define {{.*}} @half_sentinel(
// IR-NOT: __crosslane
// IR: ret void
//
// RUN: %python %S/Inputs/index-file.py mixed 0 64 %t/mixed0.bin
// RUN: %python %S/Inputs/index-file.py all 0 64 %t/all0.bin
// RUN: %python %S/Inputs/index-file.py one 0 64 %t/one0.bin
// RUN: %python %S/Inputs/index-file.py dup 0 64 %t/dup0.bin
// RUN: %python %S/Inputs/index-file.py mixed -1 64 %t/mixedm1.bin
// RUN: %python %S/Inputs/index-file.py all -1 64 %t/allm1.bin
// RUN: %python %S/Inputs/index-file.py dup -1 64 %t/dupm1.bin
// RUN: for f in mixed0 all0 one0 dup0; do %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=none0_argmax --mcpu=gfx942 --block=64 --sizes=64 --seed=5 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:file=%t/$f.bin --arg=buf:f32:64:zero --arg=buf:i32:64:zero --inputs=all; done | FileCheck %s --check-prefix=DIFF4
// RUN: for f in mixedm1 allm1 dupm1; do %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=nearest_none --mcpu=gfx942 --block=64 --sizes=64 --seed=5 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:file=%t/$f.bin --arg=buf:f32:64:zero --arg=buf:i32:64:zero --inputs=all; done | FileCheck %s --check-prefix=DIFF3
// RUN: for f in mixedm1 allm1 dupm1; do %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=int_none --mcpu=gfx942 --block=64 --sizes=64 --seed=5 --print=none --arg=buf:i32:64:input --arg=buf:i32:64:file=%t/$f.bin --arg=buf:i32:64:zero --arg=buf:i32:64:zero --inputs=random,all-equal,ties --cases=10; done | FileCheck %s --check-prefix=DIFF3
//
// Wave32.
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: for f in mixed0 all0 one0 dup0; do %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=none0_argmax --mcpu=gfx1100 --block=32 --sizes=32 --seed=6 --print=none --arg=buf:f32:32:input --arg=buf:i32:32:file=%t/$f.bin --arg=buf:f32:32:zero --arg=buf:i32:32:zero --inputs=all; done | FileCheck %s --check-prefix=DIFF4
// RUN: for f in mixedm1 allm1 dupm1; do %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=int_none --mcpu=gfx1100 --block=32 --sizes=32 --seed=6 --print=none --arg=buf:i32:32:input --arg=buf:i32:32:file=%t/$f.bin --arg=buf:i32:32:zero --arg=buf:i32:32:zero --inputs=random,all-equal,ties --cases=10; done | FileCheck %s --check-prefix=DIFF3
// DIFF4-COUNT-4: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// DIFF3-COUNT-3: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

namespace {

struct Pair {
  float V;
  int I;
};

// BLAS iamax's order: index 0 is no element; NaN first, then larger, then
// the smaller index.
__device__ inline bool betterNone0(Pair A, Pair B) {
  if (B.I == 0)
    return false;
  if (A.I == 0)
    return true;
  bool AN = A.V != A.V, BN = B.V != B.V;
  if (AN || BN)
    return BN && (!AN || B.I < A.I);
  return B.V > A.V || (B.V == A.V && B.I < A.I);
}

// Nearest first, index -1 is no candidate; a NaN distance never wins.
__device__ inline bool closerNone(Pair A, Pair B) {
  if (B.I == -1)
    return false;
  if (A.I == -1)
    return true;
  if (B.V != B.V)
    return false;
  if (A.V != A.V)
    return true;
  return B.V < A.V || (B.V == A.V && B.I < A.I);
}

// Only the partner's sentinel is tested: a lane holding "no element" with a
// larger value keeps it, so NONE does not lose to everything.
__device__ inline bool halfNone(Pair A, Pair B) {
  if (B.I == 0)
    return false;
  return B.V > A.V || (B.V == A.V && B.I < A.I);
}

} // namespace

extern "C" __global__ void none0_argmax(const float *V, const int *I,
                                        float *OV, int *OI) {
  Pair P = {V[threadIdx.x], I[threadIdx.x]};
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    Pair O = {__shfl_xor(P.V, Off), __shfl_xor(P.I, Off)};
    if (betterNone0(P, O))
      P = O;
  }
  OV[threadIdx.x] = P.V;
  OI[threadIdx.x] = P.I;
}

extern "C" __global__ void nearest_none(const float *V, const int *I,
                                        float *OV, int *OI) {
  Pair P = {V[threadIdx.x], I[threadIdx.x]};
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    Pair O = {__shfl_xor(P.V, Off), __shfl_xor(P.I, Off)};
    if (closerNone(P, O))
      P = O;
  }
  OV[threadIdx.x] = P.V;
  OI[threadIdx.x] = P.I;
}

// Integer distances, index -1 for no candidate.
extern "C" __global__ void int_none(const int *D, const int *I, int *OD,
                                    int *OI) {
  int Dist = D[threadIdx.x], Idx = I[threadIdx.x];
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    int OD2 = __shfl_xor(Dist, Off), OI2 = __shfl_xor(Idx, Off);
    bool Take = OI2 != -1 &&
                (Idx == -1 || OD2 < Dist || (OD2 == Dist && OI2 < Idx));
    if (Take) {
      Dist = OD2;
      Idx = OI2;
    }
  }
  OD[threadIdx.x] = Dist;
  OI[threadIdx.x] = Idx;
}

extern "C" __global__ void half_sentinel(const float *V, const int *I,
                                         float *OV, int *OI) {
  Pair P = {V[threadIdx.x], I[threadIdx.x]};
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    Pair O = {__shfl_xor(P.V, Off), __shfl_xor(P.I, Off)};
    if (halfNone(P, O))
      P = O;
  }
  OV[threadIdx.x] = P.V;
  OI[threadIdx.x] = P.I;
}
