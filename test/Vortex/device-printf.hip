// printf in device code prints through Vortex's console (vx_vprintf); simx
// prefixes each line with the hart. Lanes print one at a time.
// REQUIRES: vortex
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %hipcc --target=vortex -O2 %s -o prog
// RUN: timeout 300 ./prog | FileCheck %s
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void hello(int N) {
  if (threadIdx.x < 2)
    printf("hello from thread %d block %d of %d: %f\n", threadIdx.x,
           blockIdx.x, N, 0.5f * threadIdx.x);
}

int main() {
  hello<<<2, 4>>>(7);
  hipDeviceSynchronize();
  printf("host: done\n");
}
// CHECK-DAG: #0: hello from thread 0 block 0 of 7: 0.000000
// CHECK-DAG: #1: hello from thread 1 block 0 of 7: 0.500000
// CHECK-DAG: #{{[0-9]+}}: hello from thread 0 block 1 of 7: 0.000000
// CHECK-DAG: #{{[0-9]+}}: hello from thread 1 block 1 of 7: 0.500000
// CHECK: host: done
