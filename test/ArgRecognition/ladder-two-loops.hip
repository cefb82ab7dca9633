// Two ladder loops in a row at -O1 (a warp reduce, then a reduce of the
// partials, as block reductions do). With warpSize known, both versions'
// guards are the constant `true`; dropping the first version (float sums
// are not reorderable, so its copy is not rewritten) once removed the
// unreachable blocks at once, which folded the second version's constant
// guard branch and left a dangling pointer (a segfault in clang at -O1/-Os).
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O1 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: recognised smax i32 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=two_sums --mcpu=gfx942 --block=N --sizes=1,33,64 --print=none --arg=buf:f32:64:input --arg=buf:f32:1:zero --inputs=random,all-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=sum_then_max --mcpu=gfx942 --block=N --sizes=1,33,64 --print=none --arg=buf:i32:64:input --arg=buf:i32:2:zero --inputs=random,all-equal,ties | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 -O1 -c %s -o %t/w32.o
// RUN: %hipcc --offload-arch=gfx942 -Os -c %s -o %t/w64s.o
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

extern "C" __global__ void two_sums(const float *X, float *Out) {
  float V = X[threadIdx.x];
  for (int Off = warpSize / 2; Off > 0; Off >>= 1)
    V += __shfl_down(V, Off);
  for (int Off = warpSize / 2; Off > 0; Off >>= 1)
    V += __shfl_down(V, Off);
  if (threadIdx.x == 0)
    Out[0] = V;
}

// An integer sum (unsigned: random inputs overflow), then a max ladder.
extern "C" __global__ void sum_then_max(const int *X, int *Out) {
  unsigned V = X[threadIdx.x];
  int M = V;
  for (int Off = warpSize / 2; Off > 0; Off >>= 1)
    V += __shfl_down(V, Off);
  for (int Off = warpSize / 2; Off > 0; Off >>= 1)
    M = max(M, __shfl_down(M, Off));
  if (threadIdx.x == 0) {
    Out[0] = V;
    Out[1] = M;
  }
}
