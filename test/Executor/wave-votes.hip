// __any / __all as HIP headers reach them: with device libraries through
// ockl's __ockl_wfany_i32 / __ockl_wfall_i32, whose bodies wrap the ballot
// in a comment-only inline asm ("; ockl ballot hoisting hack", output tied
// to the input: runs nothing); without them, as the bodiless ockl calls.
// Lanes 0..39 vote (lanes 40..63 are inactive): any(v > 30) holds, all(v <
// 39) does not (lane 39), all(v < 40) does; lane L stores the three votes
// as bits.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O3 -S -emit-llvm %s -o %t/lib.ll
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O3 -nogpulib -S -emit-llvm %s -o %t/nolib.ll
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O0 -S -emit-llvm %s -o %t/o0.ll
// RUN: grep -c 'asm sideeffect "; ockl ballot hoisting hack' %t/lib.ll | FileCheck %s --check-prefix=ASM
// ASM: {{[1-9]}}
// RUN: %crosslane-run %t/lib.ll --kernel=votes --mcpu=gfx942 --block=64 --arg=buf:i32:64:iota --arg=buf:i32:64:const=-1 --print=1 | FileCheck %s
// RUN: %crosslane-run %t/nolib.ll --kernel=votes --mcpu=gfx942 --block=64 --arg=buf:i32:64:iota --arg=buf:i32:64:const=-1 --print=1 | FileCheck %s
// RUN: %crosslane-run %t/o0.ll --kernel=votes --mcpu=gfx942 --block=64 --arg=buf:i32:64:iota --arg=buf:i32:64:const=-1 --print=1 | FileCheck %s
// CHECK: arg1[0] = 5
// CHECK: arg1[39] = 5
// CHECK-NEXT: arg1[40] = -1
// Inline assembly that is not only comments stays an error.
// RUN: not %crosslane-run %S/Inputs/real-asm.ll --kernel=real_asm --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=REAL
// REAL: error: inline assembly is not modelled (only text that is all comments is)
#include <hip/hip_runtime.h>

extern "C" __global__ void votes(const int *In, int *Out) {
  int V = In[threadIdx.x];
  if (threadIdx.x < 40)
    Out[threadIdx.x] = __any(V > 30) | (__all(V < 39) << 1) | (__all(V < 40) << 2);
}
