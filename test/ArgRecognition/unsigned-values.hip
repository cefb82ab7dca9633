// Integer scores ordered as unsigned numbers (u8 logits, u32 counts): the
// combine compares them unsigned, so the candidates include unsigned value
// orders; the rewrite flips the value's sign bit around the signed
// operation (and back). They were refused as NotATotalOrder.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// The u8 scores are proven non-negative (zero-extended), where the signed
// and the unsigned orders agree, so the signed one is kept; the index
// starts at 0xffffffff and is compared unsigned.
// REMARK-DAG: recognised argmax i32/i32, ties: smallest index (unsigned) over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// REMARK-DAG: recognised argmin i32 (unsigned)/i32, ties: smallest index (unsigned) over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_u8 --mcpu=gfx942 --block=N --sizes=1,33,64,128 --print=none --arg=buf:i8:512:input --arg=buf:i32:4:zero --arg=i32:500 --inputs=random,all-equal,ties | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmin_u32 --mcpu=gfx942 --block=N --sizes=1,33,64 --print=none --arg=buf:i32:64:input --arg=buf:i32:1:zero --arg=buf:i32:1:zero --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmin_u32 --mcpu=gfx1100 --block=N --sizes=1,17,32 --print=none --arg=buf:i32:64:input --arg=buf:i32:1:zero --arg=buf:i32:1:zero --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <cstdint>

// A strided scan over u8 scores, then a shfl_down ladder read in lane 0.
extern "C" __global__ void argmax_u8(const uint8_t *S, unsigned *Out,
                                     unsigned N) {
  unsigned Best = 0, BestIdx = 0xffffffffu;
  for (unsigned J = threadIdx.x; J < N; J += blockDim.x) {
    unsigned V = S[J];
    if (V > Best || (V == Best && J < BestIdx)) {
      Best = V;
      BestIdx = J;
    }
  }
  for (int Off = 1; Off < warpSize; Off <<= 1) {
    unsigned OV = __shfl_down(Best, Off), OI = __shfl_down(BestIdx, Off);
    if (OV > Best || (OV == Best && OI < BestIdx)) {
      Best = OV;
      BestIdx = OI;
    }
  }
  if (__lane_id() == 0) {
    Out[2 * (threadIdx.x / warpSize)] = BestIdx;
    Out[2 * (threadIdx.x / warpSize) + 1] = Best;
  }
}

// Unsigned values and unsigned indices. (Stored side by side, the two
// results let the SLP vectorizer pack the state into <2 x i32> on gfx9,
// which the recogniser does not follow yet: refused as NoResult.)
extern "C" __global__ void argmin_u32(const unsigned *X, unsigned *Out,
                                      unsigned *OutV) {
  unsigned V = X[threadIdx.x], I = threadIdx.x;
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    unsigned OV = __shfl_xor(V, Off), OI = __shfl_xor(I, Off);
    if (OV < V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0) {
    Out[0] = I;
    OutV[0] = V;
  }
}
