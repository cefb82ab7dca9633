#include <hip/hip_runtime.h>

__global__ void scale(float *out, const float *in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * s + (float)warpSize;
}
