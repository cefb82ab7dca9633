// Input of errors.test: a cluster size that is not a constant.
#include <hip/hip_runtime.h>
extern "C" __device__ float __crosslane_reduce_add_f32(float, int, int);

extern "C" __global__ void k(float *P, int C) {
  float V = P[threadIdx.x];
  P[threadIdx.x] = __crosslane_reduce_add_f32(V, C, 1);
}
