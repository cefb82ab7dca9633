// Code written for 32-lane warps running on wave64: a "warp" is half a wave
// (lane = threadIdx.x % 32, warp = threadIdx.x / 32), both butterflies use
// __shfl_xor(v, off, 32) and break no ties (`if (v > best)`), as ports of
// CUDA row-argmax kernels do. Each half is a 32-lane cluster; the results
// are read in lane 0 of each half (stored per warp) and lane 0 of the
// block. Recognised as 32-lane argmax with lane-order ties, so replaced
// behind the run-time guard; executed against the original for 1 to 1024
// threads per block (1 to 32 warps), wave64 and wave32.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-COUNT-2: recognised argmax f32/i32, ties: by lane order, NaN ignored, -0 == +0 over 32 lanes (xor butterfly, 5 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time
// REMARK-NOT: remark
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=row_argmax --mcpu=gfx942 --grid=2 --block=64 --sizes=1,7,100,600 --seed=3 --print=none --arg=buf:f32:N*2:input --arg=buf:i32:2:zero --arg=i64:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=row_argmax --mcpu=gfx942 --grid=2 --block=1024 --sizes=5,2000 --seed=4 --print=none --arg=buf:f32:N*2:input --arg=buf:i32:2:zero --arg=i64:N --inputs=random,ties,nan-each,pm-zero | FileCheck %s --check-prefix=DIFF
// The tie guard itself: with the fallback sent to a trap (measurement-only
// -crosslane-fallback-trap), distinct values run the fast path with the same
// results, and a tie for the maximum must leave it (the run traps).
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=row_argmax --mcpu=gfx942 --grid=2 --block=64 --sizes=1,7,100,600 --seed=3 --print=none --arg=buf:f32:N*2:input --arg=buf:i32:2:zero --arg=i64:N --inputs=random | FileCheck %s --check-prefix=DIFF
// RUN: not %crosslane-run %t/w64.trap.ll --kernel=row_argmax --mcpu=gfx942 --grid=2 --block=64 --print=none --arg=buf:f32:200:const=1.5 --arg=buf:i32:2:zero --arg=i64:100 2>&1 | FileCheck %s --check-prefix=TRAP
// TRAP: error: the kernel trapped (llvm.trap)
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=row_argmax --mcpu=gfx1100 --grid=2 --block=128 --sizes=1,7,100,600 --seed=3 --print=none --arg=buf:f32:N*2:input --arg=buf:i32:2:zero --arg=i64:N --inputs=all | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>
#include <cfloat>

constexpr int Warp = 32;

__device__ inline void warpArgmax(float &Best, int &Arg) {
#pragma unroll
  for (int Off = Warp / 2; Off > 0; Off >>= 1) {
    float V = __shfl_xor(Best, Off, Warp);
    int I = __shfl_xor(Arg, Off, Warp);
    if (V > Best) {
      Best = V;
      Arg = I;
    }
  }
}

// One row per block; -1 when no element is above -FLT_MAX.
extern "C" __global__ void row_argmax(const float *X, int *Out, long long N) {
  const float *Row = X + blockIdx.x * N;
  float Best = -FLT_MAX;
  int Arg = -1;
  for (int C = threadIdx.x; C < N; C += blockDim.x)
    if (Row[C] > Best) {
      Best = Row[C];
      Arg = C;
    }
  warpArgmax(Best, Arg);
  int Lane = threadIdx.x % Warp, WarpId = threadIdx.x / Warp;
  int NWarps = blockDim.x / Warp;
  if (NWarps > 1) {
    __shared__ float SBest[1024 / Warp];
    __shared__ int SArg[1024 / Warp];
    if (Lane == 0) {
      SBest[WarpId] = Best;
      SArg[WarpId] = Arg;
    }
    __syncthreads();
    if (WarpId == 0) {
      Best = Lane < NWarps ? SBest[Lane] : -FLT_MAX;
      Arg = Lane < NWarps ? SArg[Lane] : -1;
      warpArgmax(Best, Arg);
    }
  }
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Arg;
}
