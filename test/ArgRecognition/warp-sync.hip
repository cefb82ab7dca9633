// Code ported from CUDA calls the warp-synchronous spellings
// (__shfl_xor_sync, __ballot_sync, __activemask, __syncwarp, ...), which
// ROCm 5.2 lacks; crosslane-hipcc's compat header provides them. A
// llama.cpp-style argmax (serial scan, then an xor butterfly without an
// index tie-break, then __syncwarp) is recognised across the sync calls:
// clang sinks the last index select below the fences, and the recogniser
// moves it back above them (it is speculatable). The kernel's other
// shuffles read the result; they are not steps. Executed: the votes and
// shuffles against values worked out by hand (iota input, partial waves),
// and the rewrite against the original.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// Host and device compilation both parse the functions.
// RUN: %hipcc --offload-arch=gfx942 -O2 -c %s -o %t/w.o
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: {{.*}}recognised argmax f32/i32, ties: by lane order, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time
// REMARK-COUNT-3: not replaced (NotAReduction): what the lanes read is not combined with their own values
// REMARK-NOT: remark
// RUN: %crosslane-run %t/w64.ll --kernel=argmax_sync --mcpu=gfx942 --block=64 --arg=buf:f32:64:iota --arg=buf:i32:4:zero --arg=buf:f32:3:zero --arg=buf:i64:2:zero --arg=i32:50 | FileCheck %s --check-prefix=W64
// W64: arg1[0] = 49
// W64-NEXT: arg1[1] = 1
// W64-NEXT: arg1[2] = 1
// W64-NEXT: arg1[3] = 15
// W64-NEXT: arg2[0] = 49
// W64-NEXT: arg2[1] = 49
// W64-NEXT: arg2[2] = 1
// W64-NEXT: arg3[0] = 562949953421312
// W64-NEXT: arg3[1] = -1
// A partial wave (50 lanes): the votes see the active lanes only.
// RUN: %crosslane-run %t/w64.ll --kernel=votes --mcpu=gfx942 --block=50 --arg=buf:f32:50:iota --arg=buf:i64:4:zero | FileCheck %s --check-prefix=VOTES
// VOTES: arg1[0] = 1125899906842623
// VOTES-NEXT: arg1[1] = 1125899906842622
// VOTES-NEXT: arg1[2] = 1
// VOTES-NEXT: arg1[3] = 0
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_sync --mcpu=gfx942 --block=64 --sizes=64,50,1 --seed=2 --print=none --arg=buf:f32:64:input --arg=buf:i32:4:zero --arg=buf:f32:3:zero --arg=buf:i64:2:zero --arg=i32:N --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --kernel=argmax_sync --mcpu=gfx1100 --block=32 --arg=buf:f32:32:iota --arg=buf:i32:4:zero --arg=buf:f32:3:zero --arg=buf:i64:2:zero --arg=i32:20 | FileCheck %s --check-prefix=W32
// W32: arg1[0] = 19
// W32: arg3[0] = 524288
// W32-NEXT: arg3[1] = 4294967295
// RUN: %crosslane-run %t/w32.ll --kernel=votes --mcpu=gfx1100 --block=20 --arg=buf:f32:20:iota --arg=buf:i64:4:zero | FileCheck %s --check-prefix=VOTES32
// VOTES32: arg1[0] = 1048575
// VOTES32-NEXT: arg1[1] = 1048574
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmax_sync --mcpu=gfx1100 --block=32 --sizes=32,20,1 --seed=2 --print=none --arg=buf:f32:32:input --arg=buf:i32:4:zero --arg=buf:f32:3:zero --arg=buf:i64:2:zero --arg=i32:N --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <cfloat>
#include <hip/hip_runtime.h>

extern "C" __global__ void argmax_sync(const float *X, int *Dst, float *DV,
                                       unsigned long long *Votes, int NCols) {
  float MaxVal = -FLT_MAX;
  int ArgMax = -1;
  for (int Col = threadIdx.x; Col < NCols; Col += blockDim.x) {
    float Val = X[Col];
    if (Val > MaxVal) {
      MaxVal = Val;
      ArgMax = Col;
    }
  }
  for (int Offset = warpSize / 2; Offset > 0; Offset >>= 1) {
    float Val = __shfl_xor_sync(~0ull, MaxVal, Offset, warpSize);
    int Col = __shfl_xor_sync(~0ull, ArgMax, Offset, warpSize);
    if (Val > MaxVal) {
      MaxVal = Val;
      ArgMax = Col;
    }
  }
  __syncwarp();
  unsigned long long Act = __activemask();
  unsigned long long B = __ballot_sync(Act, X[threadIdx.x] == MaxVal);
  int Any = __any_sync(Act, X[threadIdx.x] > 0.f);
  int All = __all_sync(Act, X[threadIdx.x] > -1.f);
  float Up = __shfl_up_sync(Act, MaxVal, 1);
  float Down = __shfl_down_sync(Act, (float)threadIdx.x, 1);
  int Bc = __shfl_sync(Act, (int)threadIdx.x * 3, 5);
  if (threadIdx.x == 0) {
    Dst[0] = ArgMax;
    Dst[1] = Any;
    Dst[2] = All;
    Dst[3] = Bc;
    DV[0] = MaxVal;
    DV[1] = Up;
    DV[2] = Down;
    Votes[0] = B;
    Votes[1] = Act;
  }
}

// Votes in a partial wave: the active mask, a ballot, any and all.
extern "C" __global__ void votes(const float *X, unsigned long long *Out) {
  unsigned long long Act = __activemask();
  float V = X[threadIdx.x];
  unsigned long long B = __ballot_sync(Act, V > 0.f);
  int Any = __any_sync(Act, V > 40.f);
  int All = __all_sync(Act, V > 0.f);
  if (threadIdx.x == 0) {
    Out[0] = Act;
    Out[1] = B;
    Out[2] = Any;
    Out[3] = All;
  }
}
