//===- butterfly_notiebreak.hip - wave argmax WITHOUT an index tie-break --===//
//
// Imitates: the many hand-written wave argmax reductions (quick ports of
//   CUDA samples, custom sampling kernels) whose combine is only
//   "if (other > mine) take other": no index tie-break. Among equal values
//   the result is decided by the lane order of the butterfly, so it is NOT
//   the first index in general. A recognizer must refuse these, or replace
//   them with code that reproduces the same lane order exactly.
//   Written for Crosslane's corpus; not copied from any project.
//
// Kernels:
//   argmax_notiebreak_xor(const float *in, float *out_val, int *out_idx, int n)
//     xor butterfly, offsets warpSize/2, ..., 1 (decreasing).
//   argmax_notiebreak_down(const float *in, float *out_val, int *out_idx, int n)
//     __shfl_down ladder, offsets warpSize/2, ..., 1 (decreasing); a lane
//     whose source is past the wave gets its own value back.
//   Launch: grid = (nrows), block = (warpSize) -- one wave per row.
//   Row r is in[r*n .. r*n+n-1]; lane 0 writes out_val[r], out_idx[r].
//
// Semantics (exact, wave-size dependent; reference needs --wave):
//   Lane L (W = wave size) scans x[L], x[L+W], ... with a strict '>' from
//   (-inf, -1): its (v_L, i_L) is its first maximum among non-NaN values
//   > -inf, or (-inf, -1). Then, for each offset o in W/2, ..., 1, every
//   lane L takes (v, i) of lane src(L, o) iff v_src > v_L, with
//   src = L ^ o (xor) or L + o if L + o < W else L (down). Lane 0's final
//   (v, i) is written (v bit-exact). Both reduce to: lane 0 keeps the max
//   value; among lanes that tie, the winner is decided by the butterfly
//   (for xor: lower half beats upper half at every level *from lane 0's
//   side only*, e.g. with W = 64 and ties at lanes 32 and 16 lane 32 wins).
//   No element > -inf: (-inf, -1).
//
// GFX10+ in wave64 (gfx1100 -mwavefrontsize64): ROCm 5.2's __shfl* use
//   ds_bpermute, which there only reads within the lane's own 32-lane half:
//   the offset-32 step is a no-op (both kernels): lane 0 only sees lanes 0..31.
//   The kernel then does not compute the result above (nor on hardware); the
//   wave executor models this and the reference reproduces it with
//   --bpermute=halves. A recogniser must evaluate the lane map per chip.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

__device__ inline void lane_scan(const float *x, int n, float &v, int &idx) {
  v = -INFINITY;
  idx = -1;
  for (int i = __lane_id(); i < n; i += warpSize) {
    if (x[i] > v) {
      v = x[i];
      idx = i;
    }
  }
}

extern "C" __global__ void __launch_bounds__(64)
    argmax_notiebreak_xor(const float *in, float *out_val, int *out_idx, int n) {
  float v;
  int idx;
  lane_scan(in + (size_t)blockIdx.x * n, n, v, idx);
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    const float ov = __shfl_xor(v, offset);
    const int oi = __shfl_xor(idx, offset);
    if (ov > v) {
      v = ov;
      idx = oi;
    }
  }
  if (__lane_id() == 0) {
    out_val[blockIdx.x] = v;
    out_idx[blockIdx.x] = idx;
  }
}

extern "C" __global__ void __launch_bounds__(64)
    argmax_notiebreak_down(const float *in, float *out_val, int *out_idx,
                           int n) {
  float v;
  int idx;
  lane_scan(in + (size_t)blockIdx.x * n, n, v, idx);
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    const float ov = __shfl_down(v, offset);
    const int oi = __shfl_down(idx, offset);
    if (ov > v) {
      v = ov;
      idx = oi;
    }
  }
  if (__lane_id() == 0) {
    out_val[blockIdx.x] = v;
    out_idx[blockIdx.x] = idx;
  }
}
