// A {float, int} state chosen as a whole, `Acc = better(O, Acc) ? O : Acc`:
// clang selects the struct as one i64, `(index << 32) | value bits`, for
// both lanes. The partner's two words joined into an i64 were read as a
// packed 64-bit key (the combine is then no total order on that key:
// NotATotalOrder); a join the combine only selects, never compares, is a
// struct of two words. The lane's own i64 is `(X << 32) | bits` with X the
// i64 work-item id whose low word is the index word (NotAStage before:
// "the combine reads %33, which is neither the lane's state nor its
// partner's"). Storing the whole struct reads the result as that i64.
// -crosslane-fallback-trap turns every fallback into a trap: the fast path
// runs for NaN-free inputs in whole waves.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9-DAG: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32
// G9-DAG: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32
// G9-DAG: recognised argmin f32/i32, ties: smallest index (unsigned), NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmin_f32_i32
// G9-DAG: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 32 lanes (shfl_down ladder, 5 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32
// G9-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=select_tid --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:zero --inputs=random,ties,all-equal,pm-zero,pm-inf,denorm,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=select_store --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:i64:64:zero --inputs=random,ties,all-equal,pm-zero,pm-inf,denorm,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=select_min_unsigned --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:i32:64:zero --inputs=random,ties,all-equal,pm-zero,pm-inf,denorm,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=select_down32 --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:iota --arg=buf:f32:2:zero --arg=buf:i32:2:zero --inputs=random,ties,all-equal,pm-zero --cases=4 | FileCheck %s --check-prefix=DIFF
// NaN (the guard sends the wave to the original) and partial waves:
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=select_tid --mcpu=gfx942 --block=N --sizes=5,40,64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=select_min_unsigned --mcpu=gfx942 --block=N --sizes=5,40,64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:i32:64:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=select_store --mcpu=gfx942 --block=N --sizes=5,64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:i64:64:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11-COUNT-4: recognised
// G11-NOT: not replaced
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=select_tid --mcpu=gfx1100 --block=N --sizes=7,32 --print=none --arg=buf:f32:32:input --arg=buf:i32:32:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=select_min_unsigned --mcpu=gfx1100 --block=N --sizes=7,32 --print=none --arg=buf:f32:32:input --arg=buf:i32:32:random --arg=buf:i32:32:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=select_store --mcpu=gfx1100 --block=32 --print=none --arg=buf:f32:32:input --arg=buf:i32:32:random --arg=buf:i64:32:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

struct Best {
  float V;
  int I;
};

struct BestU {
  float V;
  unsigned I;
};

__device__ inline bool better(Best A, Best B) {
  return A.V > B.V || (A.V == B.V && A.I < B.I);
}

// The index is the thread id; each lane stores its result's index.
extern "C" __global__ void select_tid(const float *In, int *Out) {
  Best Acc = {In[threadIdx.x], (int)threadIdx.x};
  for (int M = 1; M < warpSize; M <<= 1) {
    Best O = {__shfl_xor(Acc.V, M), __shfl_xor(Acc.I, M)};
    Acc = better(O, Acc) ? O : Acc;
  }
  Out[threadIdx.x] = Acc.I;
}

// Indices from memory; each lane stores the whole struct.
extern "C" __global__ void select_store(const float *In, const int *Ix,
                                        Best *Out) {
  Best Acc = {In[threadIdx.x], Ix[threadIdx.x]};
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    Best O = {__shfl_xor(Acc.V, M), __shfl_xor(Acc.I, M)};
    Acc = better(O, Acc) ? O : Acc;
  }
  Out[threadIdx.x] = Acc;
}

// argmin, unsigned indices from memory.
extern "C" __global__ void select_min_unsigned(const float *In,
                                               const unsigned *Ix,
                                               unsigned *Out) {
  BestU Acc = {In[threadIdx.x], Ix[threadIdx.x]};
  for (int M = 1; M < warpSize; M <<= 1) {
    BestU O = {__shfl_xor(Acc.V, M), __shfl_xor(Acc.I, M)};
    Acc = (O.V < Acc.V || (O.V == Acc.V && O.I < Acc.I)) ? O : Acc;
  }
  Out[threadIdx.x] = Acc.I;
}

// A 32-lane __shfl_down ladder per half wave; lane 0 of each half stores.
extern "C" __global__ void select_down32(const float *In, const int *Ix,
                                         float *OutV, int *OutI) {
  Best Acc = {In[threadIdx.x], Ix[threadIdx.x]};
  for (int Off = 16; Off > 0; Off >>= 1) {
    Best O = {__shfl_down(Acc.V, Off, 32), __shfl_down(Acc.I, Off, 32)};
    Acc = better(O, Acc) ? O : Acc;
  }
  if (threadIdx.x % 32 == 0) {
    OutV[threadIdx.x / 32] = Acc.V;
    OutI[threadIdx.x / 32] = Acc.I;
  }
}
