// A custom-comparator arg-compare at -O0 inside a divergent branch: clang
// keeps the comparator's parameters in private allocas reached through
// flat `addrspacecast` pointers. They were not promoted after inlining, so
// the comparator's loads ran in whole-wave mode and read what inactive
// lanes never stored (poison in the result). Loads and stores through the
// casts now use the allocas, which are promoted. Run for even lanes (and
// for lanes below 40 of a 100-lane block) against the values the
// operation must return.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O0 -S -emit-llvm %s -o %t/w64.ll
// RUN: grep -c 'alloca' %t/w64.ll | FileCheck %s --check-prefix=ALLOCAS
// ALLOCAS: {{[1-9]}}
// RUN: %crosslane-run %t/w64.ll --kernel=even --mcpu=gfx942 --block=64 --arg=buf:f32:64:iota --arg=buf:i32:64:const=-1 --print=1 | FileCheck %s --check-prefix=EVEN
// EVEN: arg1[0] = 62
// EVEN-NEXT: arg1[1] = -1
// EVEN: arg1[62] = 62
// RUN: %crosslane-run %t/w64.ll --kernel=below40 --mcpu=gfx942 --block=100 --arg=buf:f32:100:iota --arg=buf:i32:100:const=-1 --print=1 | FileCheck %s --check-prefix=B40
// B40: arg1[0] = 39
// B40: arg1[39] = 39
// B40-NEXT: arg1[40] = -1
// RUN: %hipcc --offload-arch=gfx1201 --cuda-device-only -nogpulib -O0 -S -emit-llvm %s -o %t/w32.ll
// RUN: %crosslane-run %t/w32.ll --kernel=even --mcpu=gfx1201 --block=64 --arg=buf:f32:64:iota --arg=buf:i32:64:const=-1 --print=1 | FileCheck %s --check-prefix=W32
// Two waves of 32: each reduces its own even lanes.
// W32: arg1[0] = 30
// W32: arg1[32] = 62
// Divergent lane subsets from a mask buffer (the harness's `lanes`
// generator: random halves, all, none, one lane, alternate lanes, prefixes,
// new per case), -O0 against -O3 on every value input class:
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O3 -S -emit-llvm %s -o %t/w64o3.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64o3.ll --kernel=masked --mcpu=gfx942 --block=N --sizes=64,100 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:const=-1 --arg=buf:f32:N:const=-1 --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <crosslane/hip/crosslane.h>

__device__ bool greater(float A, float B) { return A > B; }

extern "C" __global__ void even(const float *In, int *Out) {
  int T = threadIdx.x;
  if (T % 2 == 0) {
    auto R = crosslane::argcmp<greater>(In[T], T);
    Out[T] = R.index;
  }
}

extern "C" __global__ void below40(const float *In, int *Out) {
  int T = threadIdx.x;
  if (T < 40) {
    auto R = crosslane::argcmp<greater>(In[T], T);
    Out[T] = R.index;
  }
}

extern "C" __global__ void masked(const float *In, const int *Mask, int *Out,
                                  float *Val) {
  int T = threadIdx.x;
  if (Mask[T]) {
    auto R = crosslane::argcmp<greater>(In[T], T);
    Out[T] = R.index;
    Val[T] = R.value;
  }
}
