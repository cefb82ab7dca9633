// Butterflies in partial waves. A ds_bpermute (HIP's __shfl*) from an
// inactive lane reads 0, which the original code combines like any other
// value; Crosslane's operations reduce over the active lanes only. Every
// rewrite is therefore guarded by "every lane of the chain's lane group is
// active" (unless the kernel provably runs full waves there), and a partial
// group runs the original code.
// Before that guard the same runs gave, on gfx942: xor argmax with block 32
// 32 mismatching cases of 78 (the (0, 0) pairs of the inactive lanes beat
// negative values), block 17 67; fmaxf butterfly block 32 128 mismatching
// elements, block 17 134.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: recognised argmax f32/i32, ties: smallest index{{.*}} over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time (every lane of the 64-lane group is active
// REMARK-DAG: recognised fmax f32, -0 < +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_fmax_f32, guarded at run time (every lane of the 64-lane group is active; otherwise the original code runs)
// REMARK-DAG: recognised argmax f32/i32{{.*}} over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time (every lane of the 64-lane group is active
// REMARK-DAG: recognised smax i32 over 32 lanes (xor butterfly, 5 stages on gfx942 wave64): replaced by __crosslane_reduce_smax_i32, guarded at run time (every lane of the 32-lane group is active; otherwise the original code runs)
// REMARK-DAG: recognised smax i32 over 16 lanes (xor butterfly, 4 stages on gfx942 wave64): replaced by __crosslane_reduce_smax_i32, guarded at run time (every lane of the 16-lane group is active; otherwise the original code runs)
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=xor_argmax --mcpu=gfx942 --grid=2 --block=N --sizes=1,17,32,63,64,96 --seed=5 --print=none --arg=buf:f32:192:input --arg=buf:i32:192:zero --inputs=all --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=value_max --mcpu=gfx942 --block=N --sizes=1,17,32,64,100 --seed=5 --print=none --arg=buf:f32:128:input --arg=buf:f32:128:zero --inputs=all --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=down_argmax --mcpu=gfx942 --block=N --sizes=1,17,32,64,100 --seed=5 --print=none --arg=buf:f32:128:input --arg=buf:i32:2:zero --inputs=all --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=group_max --mcpu=gfx942 --block=N --sizes=1,16,17,32,48,64,80,96,128 --seed=5 --print=none --arg=buf:i32:128:input --arg=buf:i32:128:zero --arg=i32:32 --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=group_max16 --mcpu=gfx942 --block=N --sizes=1,16,17,40,64,100,128 --seed=5 --print=none --arg=buf:i32:128:input --arg=buf:i32:128:zero --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
// The guard itself: with the fallback sent to a trap (measurement-only
// -crosslane-fallback-trap), full groups stay on the fast path and a
// partial one leaves it.
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=group_max --mcpu=gfx942 --block=N --sizes=32,64,96,128 --seed=5 --print=none --arg=buf:i32:128:input --arg=buf:i32:128:zero --arg=i32:32 --inputs=random | FileCheck %s --check-prefix=DIFF
// RUN: not %crosslane-run %t/w64.trap.ll --kernel=group_max --mcpu=gfx942 --block=40 --print=none --arg=buf:i32:128:random --arg=buf:i32:128:zero --arg=i32:32 2>&1 | FileCheck %s --check-prefix=TRAP
// RUN: not %crosslane-run %t/w64.trap.ll --kernel=value_max --mcpu=gfx942 --block=63 --print=none --arg=buf:f32:128:random --arg=buf:f32:128:zero 2>&1 | FileCheck %s --check-prefix=TRAP
// TRAP: error: the kernel trapped (llvm.trap)
//
// Wave32.
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=xor_argmax --mcpu=gfx1100 --grid=2 --block=N --sizes=1,17,32,48 --seed=6 --print=none --arg=buf:f32:192:input --arg=buf:i32:192:zero --inputs=all --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=group_max16 --mcpu=gfx1100 --block=N --sizes=1,16,17,40,64 --seed=6 --print=none --arg=buf:i32:128:input --arg=buf:i32:128:zero --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

// Every lane stores its own result (lanes whose partners are inactive too).
extern "C" __global__ void xor_argmax(const float *X, int *Out) {
  unsigned T = blockIdx.x * blockDim.x + threadIdx.x;
  float V = X[T];
  int I = T;
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float OV = __shfl_xor(V, Off);
    int OI = __shfl_xor(I, Off);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  Out[T] = I;
}

extern "C" __global__ void value_max(const float *X, float *Out) {
  float V = X[threadIdx.x];
  for (int Off = warpSize / 2; Off > 0; Off >>= 1)
    V = fmaxf(V, __shfl_xor(V, Off));
  Out[threadIdx.x] = V;
}

// Read only in lane 0 of the wave.
extern "C" __global__ void down_argmax(const float *X, int *Out) {
  float V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int Off = 1; Off < warpSize; Off <<= 1) {
    float OV = __shfl_down(V, Off);
    int OI = __shfl_down(I, Off);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0)
    Out[0] = I;
}

// 32-lane warps on wave64 (code written for 32-lane warps).
extern "C" __global__ void group_max(const int *X, int *Out, int Width) {
  int V = X[threadIdx.x];
#pragma unroll
  for (int Off = 16; Off > 0; Off >>= 1)
    V = max(V, __shfl_xor(V, Off, 32));
  Out[threadIdx.x] = V;
}

// 16-lane groups (several rows per wave, as top-k gating kernels do).
extern "C" __global__ void group_max16(const int *X, int *Out) {
  int V = X[threadIdx.x];
#pragma unroll
  for (int Off = 8; Off > 0; Off >>= 1)
    V = max(V, __shfl_xor(V, Off, 16));
  Out[threadIdx.x] = V;
}
