// Device side of a two-file program (multi_main.hip launches these).
#include <hip/hip_runtime.h>

__global__ void scaleBy(float *X, float S, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= S;
}

__global__ void addOne(float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] += 1;
}
