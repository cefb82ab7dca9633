//===- wave_ops.hip - Crosslane's subgroup operations called from HIP ------===//
//
// The demo kernel for crosslane.h: a whole-wave max, a clustered add and a
// first-index argmax, each written once and expanded by the plugin into the
// DPP / permlane / ballot sequence of the chip it is compiled for.
//
// Kernel: wave_ops(const float *x, float *wmax, int *csum, float *amax,
//                  int *aidx, int n)
//   Launch: grid = (ceil(n / B)), block = (B). Lanes past n do not take part
//   (a partial last wave, reduced over its active lanes only).
//   wmax[i] = max of x over i's wave (NaN ignored, -0 < +0)
//   csum[i] = sum over i's cluster of 8 lanes of (i % 7)
//   amax[i], aidx[i] = the wave's max and its smallest index (NaN ignored)
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>
#include <crosslane/hip/crosslane.h>

extern "C" __global__ void wave_ops(const float *x, float *wmax, int *csum,
                                    float *amax, int *aidx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  wmax[i] = crosslane::reduce_max(v);
  csum[i] = crosslane::reduce_add<8>(i % 7);
  auto a = crosslane::argmax(v, i);
  amax[i] = a.value;
  aidx[i] = a.index;
}
