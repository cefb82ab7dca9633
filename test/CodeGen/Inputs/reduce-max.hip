#include <hip/hip_runtime.h>
#include <crosslane/hip/crosslane.h>

__global__ void wave_max(float *P) {
  float V = P[threadIdx.x];
  P[threadIdx.x] = crosslane::reduce_max(V);
}
