#include <hip/hip_runtime.h>
extern "C" __global__ void scale(int *p, int k) {
  p[blockIdx.x * blockDim.x + threadIdx.x] *= k;
}
