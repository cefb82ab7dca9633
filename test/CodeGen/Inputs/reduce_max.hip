// crosslane::reduce_max of a float: the NaN guard the expansion emits is
// removed by crosslane-relax-nan-guard in the code generator.
#include <crosslane.h>
#include <hip/hip_runtime.h>
extern "C" __global__ void waveMax(const float *In, float *Out) {
  float V = In[threadIdx.x];
  Out[threadIdx.x] = crosslane::reduce_max(V);
}
