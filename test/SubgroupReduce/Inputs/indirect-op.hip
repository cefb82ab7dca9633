// Input of errors.test: an operation called through a function pointer.
#include <hip/hip_runtime.h>
extern "C" __device__ float __crosslane_reduce_add_f32(float, int, int);
extern "C" __device__ float __crosslane_reduce_mul_f32(float, int, int);

extern "C" __global__ void k(float *P, int Sel) {
  float (*F)(float, int, int) =
      Sel ? __crosslane_reduce_add_f32 : __crosslane_reduce_mul_f32;
  P[threadIdx.x] = F(P[threadIdx.x], 64, 1);
}
