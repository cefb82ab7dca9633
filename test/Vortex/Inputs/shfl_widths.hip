// Shuffles written for 32-lane warps: constant xor masks and widths that
// reach past narrower Vortex warps (warp-width-diagnostics.test).
#include <hip/hip_runtime.h>
__global__ void k(int *p) {
  int v = p[threadIdx.x];
  v += __shfl_xor(v, 16);
  v += __shfl_xor(v, 1);
  v += __shfl_down(v, 1, 32);
  v += __shfl_xor_sync(0xffffffff, v, 8);
  for (int m = warpSize / 2; m > 0; m /= 2) v += __shfl_xor(v, m);
  p[threadIdx.x] = v;
}
int main() { return 0; }
