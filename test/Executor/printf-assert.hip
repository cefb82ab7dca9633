// printf and assert in kernels. Without device libraries (-nogpulib) the
// executor formats ockl's printf calls (__ockl_printf_* as clang lowers
// printf, __ockl_fprintf_stderr_* as ROCm's assert message) on the host, and
// a failed assert prints its message, then stops at the trap. With device
// libraries the hostcall buffer is not modelled (an access names it), but
// an assert that never fires does not stop the kernel: what the executor
// cannot run is an error only when it runs.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S -emit-llvm %s -o %t/a.ll
// RUN: %crosslane-run %t/a.ll --kernel=say --block=4 --arg=buf:f32:4:zero --arg=i32:9 --print=none | FileCheck %s --check-prefix=PRINTF
// PRINTF: lane 0: n=9 x=0.000 s=str u=7 ll=-5 c=A hex=ff
// PRINTF: lane 1: n=9 x=1.500 s=str u=7 ll=-5 c=A hex=ff
// RUN: %crosslane-run %t/a.ll --kernel=check --block=4 --arg=buf:i32:4:zero --arg=i32:100 --print=0 | FileCheck %s --check-prefix=HOLDS
// HOLDS: arg0[3] = 6
// RUN: not %crosslane-run %t/a.ll --kernel=check --block=4 --arg=buf:i32:4:zero --arg=i32:2 --print=none 2>&1 | FileCheck %s --check-prefix=FIRES
// FIRES: printf-assert.hip:{{[0-9]+}}: void check(int *, int): Device-side assertion `threadIdx.x < N' failed.
// FIRES: error: the kernel trapped (llvm.trap) in lane 2
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm %s -o %t/d.ll
// RUN: %crosslane-run %t/d.ll --kernel=check --block=4 --arg=buf:i32:4:zero --arg=i32:100 --print=0 | FileCheck %s --check-prefix=HOLDS
// RUN: not %crosslane-run %t/d.ll --kernel=check --block=4 --arg=buf:i32:4:zero --arg=i32:2 --print=none 2>&1 | FileCheck %s --check-prefix=DEVLIB
// DEVLIB: error: out-of-bounds load of 8 bytes at offset {{[0-9]+}} of 'hostcall buffer (printf and other hostcalls through the device libraries are not modelled; printf runs with -nogpulib)'
#include <hip/hip_runtime.h>
#include <cassert>
#include <cstdio>

extern "C" __global__ void say(float *O, int N) {
  if (threadIdx.x < 2)
    printf("lane %d: n=%d x=%.3f s=%s u=%u ll=%lld c=%c hex=%x\n",
           (int)threadIdx.x, N, 1.5f * threadIdx.x, "str", 7u, -5ll, 'A',
           255);
  O[threadIdx.x] = 1;
}

extern "C" __global__ void check(int *O, int N) {
  assert(threadIdx.x < N);
  O[threadIdx.x] = threadIdx.x * 2;
}
