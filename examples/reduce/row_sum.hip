//===- row_sum.hip - a hand-written row sum, as HIP code usually has it ---===//
//
// The reference point for crosslane-reduce's generated row sums (bench and
// docs/LoweringConfigs.md): one block per row, a strided loop per thread, a
// __shfl_down ladder per wave, the waves' partial sums through shared
// memory, a second ladder in wave 0. Written for Crosslane; the shape is the
// one of countless CUDA/HIP tutorials and libraries.
//
//   row_sum(const float *in, float *out, int n)
//   Launch: grid = (rows), block = (B), B a multiple of warpSize, <= 1024.
//   out[r] = sum of in[r*n .. r*n+n-1] (any summation order).
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

extern "C" __global__ void row_sum(const float *in, float *out, int n) {
  __shared__ float partial[32];
  const float *x = in + (size_t)blockIdx.x * n;
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += x[i];
  for (int off = warpSize / 2; off > 0; off /= 2)
    s += __shfl_down(s, off);
  int lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  if (lane == 0)
    partial[wave] = s;
  __syncthreads();
  if (wave == 0) {
    int waves = blockDim.x / warpSize;
    s = lane < waves ? partial[lane] : 0.0f;
    for (int off = warpSize / 2; off > 0; off /= 2)
      s += __shfl_down(s, off);
    if (lane == 0)
      out[blockIdx.x] = s;
  }
}
