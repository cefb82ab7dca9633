// Two Crosslane operations: one every lane reaches, one inside a
// lane-dependent branch (test/Vortex/full-warps.test).
#include <crosslane.h>
__global__ void sums(const unsigned *In, unsigned *Out, unsigned N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned V = In[T];
  unsigned All = crosslane::reduce_add(V);
  unsigned Some = 0;
  if (V > N)
    Some = crosslane::reduce_max(V);
  Out[T] = All + Some;
}
