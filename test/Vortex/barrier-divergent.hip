// A barrier that only some lanes reach is diagnosed at the user's line: on
// Vortex each lane group arrives separately and the block desynchronizes.
// REQUIRES: vortex
// RUN: %hipcc --target=vortex -O2 -c %s -o %t.o 2>&1 | FileCheck %s
#include <hip/hip_runtime.h>

__global__ void halfSync(int *P) {
  if (threadIdx.x < 2) {
    P[threadIdx.x] = 1;
    // CHECK: barrier-divergent.hip:[[@LINE+1]]:5: warning: barrier in divergent control flow
    __syncthreads();
  }
}
