#include <hip/hip_runtime.h>
#include <crosslane/hip/crosslane.h>

__device__ bool closer(float A, float B) { return fabsf(A) < fabsf(B); }

__global__ void wave_max(const float *In, float *Out) {
  float M = crosslane::reduce_max(In[threadIdx.x]);
  Out[threadIdx.x] = M;
}

__global__ void row_sum(const int *In, int *Out) {
  Out[threadIdx.x] = crosslane::reduce_add<16>(In[threadIdx.x]);
}

__global__ void arg_max(const float *In, float *Out, int *Idx) {
  auto A = crosslane::argmax(In[threadIdx.x], (int)threadIdx.x);
  Out[threadIdx.x] = A.value;
  Idx[threadIdx.x] = A.index;
}

__global__ void arg_closest(const float *In, float *Out, long long *Idx) {
  auto A = crosslane::argcmp<closer, 8>(In[threadIdx.x],
                                        (long long)threadIdx.x * 3);
  Out[threadIdx.x] = A.value;
  Idx[threadIdx.x] = A.index;
}

__global__ void half_min(const _Float16 *In, _Float16 *Out) {
  Out[threadIdx.x] = crosslane::reduce_min<4, 2>(In[threadIdx.x]);
}
