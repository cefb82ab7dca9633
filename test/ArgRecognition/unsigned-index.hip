// Indices ordered as unsigned numbers: an unsigned index from memory
// (`OI < I` on unsigned), and a `long long` / `unsigned long long` index
// set from threadIdx.x, which clang exchanges as one word, zero-extends
// and compares unsigned (`icmp ult i32`, `icmp samesign ugt i64`). The
// i64 state is carried beside its word; the chain's i64 result is the
// operation's index zero-extended. The operation orders indices as signed
// numbers, so the rewrite flips the sign bit around it.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: recognised argmax f32/i32, ties: smallest index (unsigned), NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32
// REMARK-DAG: recognised argmin f32/i32, ties: smallest index (unsigned), NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmin_f32_i32
// REMARK-DAG: recognised argmax f64/i32, ties: smallest index (unsigned), NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f64_i32
// REMARK-NOT: not replaced
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=unsigned_argmax --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:f32:64:zero --arg=buf:i32:64:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=widened_argmin --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:i64:64:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=widened_argmax_f64 --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f64:64:input --arg=buf:i64:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=unsigned_argmax --mcpu=gfx1100 --block=32 --sizes=32 --seed=4 --print=none --arg=buf:f32:32:input --arg=buf:i32:32:random --arg=buf:f32:32:zero --arg=buf:i32:32:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=widened_argmax_f64 --mcpu=gfx1100 --block=32 --sizes=32 --seed=4 --print=none --arg=buf:f64:32:input --arg=buf:i64:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

// Larger value, then the smaller unsigned index; every lane stores.
extern "C" __global__ void unsigned_argmax(const float *X, const unsigned *Idx,
                                           float *OutV, unsigned *OutI) {
  float V = X[threadIdx.x];
  unsigned I = Idx[threadIdx.x];
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float OV = __shfl_xor(V, Off);
    unsigned OI = __shfl_xor(I, Off);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  OutV[threadIdx.x] = V;
  OutI[threadIdx.x] = I;
}

extern "C" __global__ void widened_argmin(const float *D, long long *Out) {
  float V = D[threadIdx.x];
  long long I = threadIdx.x;
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float OV = __shfl_xor(V, Off);
    long long OI = __shfl_xor(I, Off);
    if (OV < V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
}

extern "C" __global__ void widened_argmax_f64(const double *D,
                                              unsigned long long *Out) {
  double V = D[threadIdx.x];
  unsigned long long I = threadIdx.x;
#pragma unroll
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    double OV = __shfl_xor(V, Off);
    unsigned long long OI = __shfl_xor(I, Off);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0)
    Out[0] = I;
}
