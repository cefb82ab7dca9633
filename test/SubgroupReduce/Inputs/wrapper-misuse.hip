#include <hip/hip_runtime.h>
#include <crosslane/hip/crosslane.h>
__device__ int Calls;
__device__ bool countingLess(float A, float B) { return ++Calls, A < B; }
extern "C" __global__ void k(const float *In, float *Out, int *OutIdx) {
  float V = In[threadIdx.x];
#ifdef BAD_TEMPLATE_ARGS
  Out[0] = crosslane::reduce_max<48>(V);
  Out[1] = crosslane::reduce_max<16, 8>(V);
  Out[2] = crosslane::argmax<64, 1, 4>(V, (int)threadIdx.x).value;
#else
  auto R = crosslane::argcmp<countingLess>(V, (int)threadIdx.x);
  Out[threadIdx.x] = R.value;
  OutIdx[threadIdx.x] = R.index;
#endif
}
