//===- blas_iamax.hip - BLAS isamax: index of max |x|, 1-based, two kernels =//
//
// Imitates: rocBLAS/hipBLAS-style iamax: a first kernel in which every
//   workgroup reduces a grid-strided part of x (with increment incx) to one
//   (|x|, index) candidate per workgroup, and a second one-workgroup kernel
//   that reduces the candidates to the BLAS result. Wave level: xor
//   butterfly with index tie-break; workgroup level: shared memory.
//   Written for Crosslane's corpus; not copied from any project.
//
// Kernels:
//   iamax_stage1(int n, const float *x, int incx,
//                float *part_val, int *part_idx)
//     Launch: grid = (G), block = (B), B a multiple of warpSize, B <= 1024.
//     Writes part_val[g], part_idx[g] for g in [0, G).
//   iamax_stage2(int n, int incx, int nparts, const float *part_val,
//                const int *part_idx, int *result)
//     Launch: grid = (1), block = (B2), B2 a multiple of warpSize, <= 1024,
//     nparts = G of stage 1. Writes result[0].
//
// Semantics (exact), for element k (0-based) the key is |x[k*incx]|
// (fabsf: clears the sign bit, so |-0| = +0 and |NaN| is NaN):
//   result = 0 if n <= 0 or incx <= 0 (BLAS quick return);
//          else 1 + the smallest k whose key is NaN, if any key is NaN;
//          else 1 + the smallest k with key == max key.
//   Index: 1-based, int32 (BLAS convention). "NaN is the largest" makes the
//   combine a total order, so neither G, B nor the wave size matter.
//   Partials: a workgroup that owns no element writes (-1.0f, 0).
//
// GFX10+ in wave64 (gfx1100 -mwavefrontsize64): ROCm 5.2's __shfl* use
//   ds_bpermute, which there only reads within the lane's own 32-lane half:
//   the wave butterflies only cover lanes 0..31, in both stages.
//   The kernel then does not compute the result above (nor on hardware); the
//   wave executor models this and the reference reproduces it with
//   --bpermute=halves. A recogniser must evaluate the lane map per chip.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

namespace {

struct IndexValue {
  float value; // |x|, or -1 for "no element"
  int index;   // 1-based, 0 for "no element"
};

// Should b replace a? NaN is larger than everything, then larger value,
// then the smaller index. Empty candidates (index 0) never replace.
__device__ inline bool iamax_better(IndexValue a, IndexValue b) {
  if (b.index == 0)
    return false;
  if (a.index == 0)
    return true;
  const bool a_nan = a.value != a.value, b_nan = b.value != b.value;
  if (a_nan || b_nan)
    return b_nan && (!a_nan || b.index < a.index);
  return b.value > a.value || (b.value == a.value && b.index < a.index);
}

__device__ inline void wave_reduce(IndexValue &iv) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
    IndexValue o;
    o.value = __shfl_xor(iv.value, offset);
    o.index = __shfl_xor(iv.index, offset);
    if (iamax_better(iv, o))
      iv = o;
  }
}

// Workgroup reduction; the result is valid in thread 0.
__device__ inline IndexValue block_reduce(IndexValue iv) {
  __shared__ float s_val[1024 / 32];
  __shared__ int s_idx[1024 / 32];
  wave_reduce(iv);
  const int lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const int nwaves = blockDim.x / warpSize;
  if (lane == 0) {
    s_val[wave] = iv.value;
    s_idx[wave] = iv.index;
  }
  __syncthreads();
  if (wave == 0) {
    iv.value = lane < nwaves ? s_val[lane] : -1.0f;
    iv.index = lane < nwaves ? s_idx[lane] : 0;
    wave_reduce(iv);
  }
  return iv;
}

} // namespace

extern "C" __global__ void __launch_bounds__(1024)
    iamax_stage1(int n, const float *x, int incx, float *part_val,
                 int *part_idx) {
  IndexValue iv = {-1.0f, 0};
  if (incx > 0) {
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n;
         k += gridDim.x * blockDim.x) {
      IndexValue e = {__builtin_fabsf(x[(size_t)k * incx]), k + 1};
      if (iamax_better(iv, e))
        iv = e;
    }
  }
  iv = block_reduce(iv);
  if (threadIdx.x == 0) {
    part_val[blockIdx.x] = iv.value;
    part_idx[blockIdx.x] = iv.index;
  }
}

extern "C" __global__ void __launch_bounds__(1024)
    iamax_stage2(int n, int incx, int nparts, const float *part_val,
                 const int *part_idx, int *result) {
  IndexValue iv = {-1.0f, 0};
  for (int p = threadIdx.x; p < nparts; p += blockDim.x) {
    IndexValue e = {part_val[p], part_idx[p]};
    if (iamax_better(iv, e))
      iv = e;
  }
  iv = block_reduce(iv);
  if (threadIdx.x == 0)
    result[0] = (n <= 0 || incx <= 0) ? 0 : iv.index;
}
