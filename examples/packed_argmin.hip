//===- packed_argmin.hip - argmin through a 64-bit packed key and atomicMin ===//
//
// Imitates: the "pack (orderable float bits << 32) | index into one 64-bit
//   word and atomicMin it" trick of nearest-neighbour, ray-query and
//   clustering code. Two kernels:
//     packed_argmin_atomic: every thread folds its grid-strided elements
//       and does its own atomicMin (no cross-lane operation);
//     packed_argmin_wave:   the same, but the wave first min-reduces the
//       64-bit keys with an xor butterfly and lane 0 does one atomicMin.
//   Written for Crosslane's corpus; not copied from any project.
//
// Kernels: packed_argmin_atomic(const float *x, int n,
//                               unsigned long long *result)
//          packed_argmin_wave(const float *x, int n, unsigned long long *result)
//   Launch: grid = (G), block = (B), any G; B a multiple of warpSize for
//   the wave kernel. result[0] must hold 0xFFFFFFFFFFFFFFFF before the
//   launch (it is read and written).
//
// Semantics (exact): bits b = the float's bit pattern; the order key is
//   key(b) = b ^ 0xFFFFFFFF if the sign bit is set, else b | 0x80000000,
//   which orders floats totally: -NaN(large payload first) < ... < -inf <
//   ... < -0.0 < +0.0 < ... < +inf < +NaN. result = min over i in [0, n)
//   of (key(x[i]) << 32) | i (i as unsigned 32-bit), min'ed with the
//   initial value. So: the smallest key, the smallest index among equal
//   keys; -0.0 is strictly below +0.0; a NaN with the sign bit set beats
//   everything, a positive NaN loses to everything. n <= 0 leaves result
//   unchanged. Independent of G, B and the wave size.
//
// GFX10+ in wave64 (gfx1100 -mwavefrontsize64): ROCm 5.2's __shfl* use
//   ds_bpermute, which there only reads within the lane's own 32-lane half:
//   packed_argmin_wave only publishes lanes 0..31's minimum per wave
//   (packed_argmin_atomic has no cross-lane step and is unaffected).
//   The kernel then does not compute the result above (nor on hardware); the
//   wave executor models this and the reference reproduces it with
//   --bpermute=halves. A recogniser must evaluate the lane map per chip.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

__device__ inline unsigned int order_key(float f) {
  const unsigned int b = __float_as_uint(f);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

__device__ inline unsigned long long pack(float f, int i) {
  return ((unsigned long long)order_key(f) << 32) | (unsigned int)i;
}

__device__ inline unsigned long long thread_fold(const float *x, int n) {
  unsigned long long best = ~0ull;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    const unsigned long long p = pack(x[i], i);
    best = p < best ? p : best;
  }
  return best;
}

extern "C" __global__ void packed_argmin_atomic(const float *x, int n,
                                                unsigned long long *result) {
  const unsigned long long best = thread_fold(x, n);
  if (best != ~0ull)
    atomicMin(result, best);
}

extern "C" __global__ void packed_argmin_wave(const float *x, int n,
                                              unsigned long long *result) {
  unsigned long long best = thread_fold(x, n);
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
    const unsigned long long other = __shfl_xor(best, offset);
    best = other < best ? other : best;
  }
  if (__lane_id() == 0 && best != ~0ull)
    atomicMin(result, best);
}
