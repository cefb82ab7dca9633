// An atomic on __shared__ memory is a compile-time error at the user's call:
// Vortex's simulator has no atomics on local memory (a release build drops
// the request and the warp waits forever).
// REQUIRES: vortex
// RUN: not %hipcc --target=vortex --vortex-config=w16t16a -O2 -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %hipcc --target=vortex --vortex-config=w16t16a -O0 -c %s -o %t.o 2>&1 | FileCheck %s
#include <hip/hip_runtime.h>

__global__ void count(unsigned *Out) {
  __shared__ unsigned C;
  if (threadIdx.x == 0)
    C = 0;
  __syncthreads();
  // CHECK: shared-atomics.hip:[[@LINE+1]]:3: error: atomic operation on __shared__ memory
  atomicAdd(&C, 1u);
  __syncthreads();
  if (threadIdx.x == 0)
    Out[0] = C;
}
