// Waves of a workgroup run concurrently on hardware, so one may spin on a
// flag another wave sets, with or without s_sleep. The executor runs each
// wave to its next barrier but makes it give way after a time slice (4096
// blocks) and at s_sleep; without that, wave 0 spun until the budget ran out.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S -emit-llvm %s -o %t/a.ll
// RUN: %crosslane-run %t/a.ll --kernel=spin_sleep --block=128 --arg=buf:i32:128:zero --print=0 | FileCheck %s
// RUN: %crosslane-run %t/a.ll --kernel=spin_busy --block=192 --arg=buf:i32:192:zero --print=0 | FileCheck %s
// Wave 0's lane 0 waited for the flag (1), then a barrier reunites them.
// CHECK: arg0[0] = 1
// CHECK: arg0[64] = 1
#include <hip/hip_runtime.h>

extern "C" __global__ void spin_sleep(int *O) {
  __shared__ int Flag;
  if (threadIdx.x == 0)
    Flag = 0;
  __syncthreads();
  if (threadIdx.x == 0)
    while (__hip_atomic_load(&Flag, __ATOMIC_ACQUIRE,
                             __HIP_MEMORY_SCOPE_WORKGROUP) == 0)
      __builtin_amdgcn_s_sleep(1);
  if (threadIdx.x == blockDim.x - 1)
    __hip_atomic_store(&Flag, 1, __ATOMIC_RELEASE,
                       __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  O[threadIdx.x] = Flag;
}

// The last wave sets the flag; wave 0 busy-waits without s_sleep.
extern "C" __global__ void spin_busy(int *O) {
  __shared__ int Flag;
  if (threadIdx.x == 0)
    Flag = 0;
  __syncthreads();
  if (threadIdx.x == 0)
    while (__hip_atomic_load(&Flag, __ATOMIC_ACQUIRE,
                             __HIP_MEMORY_SCOPE_WORKGROUP) == 0)
      ;
  if (threadIdx.x == blockDim.x - 1)
    __hip_atomic_store(&Flag, 1, __ATOMIC_RELEASE,
                       __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  O[threadIdx.x] = Flag;
}
