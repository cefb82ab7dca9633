//===- wave_argmax_lane.hip - one candidate per lane, straight to the wave ===//
//
// Imitates: the last step of two-pass argmax / top-1 sampling kernels, where
//   each lane of one wave holds one candidate (a per-block partial result,
//   or one logit of a short row) and an xor butterfly on (value, index)
//   pairs with an index tie-break picks the winner; and a tile variant that
//   reports the *column* of the maximum of a 2 x (W/2) tile, so two lanes
//   carry the same index. Written for Crosslane's corpus; not copied from
//   any project.
//
// Unlike a strided scan seeded with -inf (greedy_argmax), nothing here keeps
// NaN out of the butterfly, and in the tile kernel equal indices can carry
// different bits (-0 and +0 in one column). The butterfly's answer then
// depends on the lane order, and crosslane-recognize-arg may only use its
// argmax behind a run-time guard (docs/ArgRecognition.md).
//
// Kernels (one wave per row: grid = nrows, block = warpSize):
//   wave_argmax_lane(const float *x, float *out_val, int *out_idx, int n)
//     Lane L < n holds (x[row*n + L], L), other lanes (-inf, -1); n <= W.
//   tile_argmax_col(const float *x, float *out_val, int *out_col)
//     Lane L holds (x[row*W + L], L % (W/2)).
//   Both write lane 0's pair after the butterfly.
//
// Semantics (exact): the pair lane 0 holds after the butterfly, where each
//   step takes the partner's pair iff its value is greater, or equal with a
//   smaller index (fcmp: NaN compares false, -0 == +0). Without NaN and
//   with one value's bits per index this is the first index of the maximum;
//   otherwise it depends on the lanes (the reference simulates them).
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

__device__ inline void take_if_better(float &v, int &i, float w, int wi) {
  if (w > v || (w == v && wi < i)) {
    v = w;
    i = wi;
  }
}

__device__ inline void wave_butterfly(float &v, int &i) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
    const float w = __shfl_xor(v, offset);
    const int wi = __shfl_xor(i, offset);
    take_if_better(v, i, w, wi);
  }
}

extern "C" __global__ void wave_argmax_lane(const float *x, float *out_val,
                                            int *out_idx, int n) {
  const int row = blockIdx.x, lane = threadIdx.x;
  float v = -INFINITY;
  int i = -1;
  if (lane < n) {
    v = x[(size_t)row * n + lane];
    i = lane;
  }
  wave_butterfly(v, i);
  if (lane == 0) {
    out_val[row] = v;
    out_idx[row] = i;
  }
}

extern "C" __global__ void tile_argmax_col(const float *x, float *out_val,
                                           int *out_col) {
  const int lane = threadIdx.x, half = warpSize / 2;
  float v = x[(size_t)blockIdx.x * warpSize + lane];
  int c = lane % half;
  wave_butterfly(v, c);
  if (lane == 0) {
    out_val[blockIdx.x] = v;
    out_col[blockIdx.x] = c;
  }
}
