//===- greedy_argmax.hip - greedy decoding: argmax over a large vocabulary ===//
//
// Imitates: the greedy-sampling argmax of LLM inference engines (llama.cpp's
//   ggml argmax kernel style): one workgroup per row of logits, each thread
//   scans a strided slice of the vocabulary serially, then
//   xor butterfly (with index tie-break) -> shared memory -> xor butterfly.
//   Written for Crosslane's corpus; not copied from any project.
//
// Kernel: greedy_argmax(const float *logits, int *out, int ncols)
//   Launch: grid = (nrows), block = (B), B a multiple of warpSize, B <= 1024.
//   Row r is logits[r*ncols .. r*ncols+ncols-1]; out[r] receives its argmax.
//
// Semantics (exact):
//   out[r] = the smallest i in [0, ncols) with x[i] == M, where
//            M = max{ x[i] : x[i] is not NaN }, provided M > -inf;
//          = -1 if no element is > -inf (ncols == 0, all -inf, all NaN, or
//            only -inf and NaN).
//   NaN elements never win (every comparison with NaN is false).
//   -0.0 and +0.0 compare equal: the first of them wins if 0 is the max.
//   Index: 0-based, int32.
//   The result does not depend on B or on the wave size: the combine is the
//   total order "larger value, then smaller index" on non-NaN values.
//
// GFX10+ in wave64 (gfx1100 -mwavefrontsize64): ROCm 5.2's __shfl* use
//   ds_bpermute, which there only reads within the lane's own 32-lane half:
//   the halves never meet in the first butterfly, so the result is the best
//   among the elements of threads whose lane (tid % 64) is < 32 (the second
//   butterfly has <= 16 candidates, all in the low half).
//   The kernel then does not compute the result above (nor on hardware); the
//   wave executor models this and the reference reproduces it with
//   --bpermute=halves. A recogniser must evaluate the lane map per chip.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

// Keep (maxval, argmax) or take (val, col): larger value wins, smaller index
// breaks ties. Lanes that saw nothing carry (-inf, -1), which every real
// candidate beats (a real candidate is > -inf).
__device__ inline void greedy_take(float &maxval, int &argmax, float val,
                                   int col) {
  if (val > maxval || (val == maxval && col < argmax)) {
    maxval = val;
    argmax = col;
  }
}

__device__ inline void greedy_warp_reduce(float &maxval, int &argmax) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
    const float val = __shfl_xor(maxval, offset);
    const int col = __shfl_xor(argmax, offset);
    greedy_take(maxval, argmax, val, col);
  }
}

extern "C" __global__ void __launch_bounds__(1024)
    greedy_argmax(const float *logits, int *out, int ncols) {
  const int row = blockIdx.x;
  const float *x = logits + (size_t)row * ncols;

  // 1. Serial scan of a strided slice (strict '>': first index per thread).
  float maxval = -INFINITY;
  int argmax = -1;
  for (int col = threadIdx.x; col < ncols; col += blockDim.x) {
    const float val = x[col];
    if (val > maxval) {
      maxval = val;
      argmax = col;
    }
  }

  // 2. Butterfly within each wave.
  greedy_warp_reduce(maxval, argmax);

  // 3. One candidate per wave through shared memory.
  __shared__ float s_maxval[1024 / 32];
  __shared__ int s_argmax[1024 / 32];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int nwarps = blockDim.x / warpSize;
  if (nwarps > 1) {
    if (lane == 0) {
      s_maxval[warp] = maxval;
      s_argmax[warp] = argmax;
    }
    __syncthreads();
    if (warp == 0) {
      maxval = lane < nwarps ? s_maxval[lane] : -INFINITY;
      argmax = lane < nwarps ? s_argmax[lane] : -1;
      // 4. Butterfly over the per-wave candidates.
      greedy_warp_reduce(maxval, argmax);
    }
  }
  if (threadIdx.x == 0)
    out[row] = argmax;
}
