//===- ballot_argmax.hip - "max, then ballot" single-wave argmax ----------===//
//
// Imitates: the AMDGPU argmax micro-kernel idiom of IREE's ukernels: one
//   wave per reduction, each lane scans a strided slice serially (strict
//   '>', so its first maximum), the wave maximum is found by a value-only
//   butterfly, then __ballot(laneMax == wgMax) selects the lanes that hold
//   it. Two ways to pick among the tied lanes:
//     ballot_argmax_firstlane: the lowest tied lane writes its own index;
//     ballot_argmax_minidx:    the tied lanes min-reduce their indices.
//   Written for Crosslane's corpus; not copied from any project.
//
// Kernels:
//   ballot_argmax_firstlane(const float *in, long long *out, int n)
//   ballot_argmax_minidx(const float *in, long long *out, int n)
//   Launch: grid = (nrows), block = (warpSize) -- exactly one wave per row.
//   Row r is in[r*n .. r*n+n-1]; out[r] receives the result (int64).
//
// Semantics (exact). Lane L (W = wave size) scans x[L], x[L+W], ...; its
// laneMax is the largest non-NaN value > -inf it sees (else -inf) and
// laneIdx the first index holding it (else 0). NaN never wins. The wave max
// M = max over lanes (a maxnum butterfly; -0.0 == +0.0 for the ballot).
//   minidx:    out = min{ laneIdx : laneMax == M }
//              = the first index of the max of the non-NaN values; 0 if no
//              element is > -inf. Independent of the wave size.
//   firstlane: out = laneIdx of the LOWEST lane L with laneMax == M.
//              This is NOT the first index in general: with W = 32 and the
//              max at 2 and 33, lane 1 (holding 33) is the lowest tied lane
//              and 33 is returned. The result depends on W (--wave in the
//              reference). 0 if no element is > -inf.
//
// GFX10+ in wave64 (gfx1100 -mwavefrontsize64): ROCm 5.2's __shfl* use
//   ds_bpermute, which there only reads within the lane's own 32-lane half:
//   each half computes its own wave max; the ballot then mixes both halves
//   (firstlane: the lowest tied lane of the LOW half wins; minidx: the
//   min-butterfly stays within halves too).
//   The kernel then does not compute the result above (nor on hardware); the
//   wave executor models this and the reference reproduces it with
//   --bpermute=halves. A recogniser must evaluate the lane map per chip.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

namespace {

struct LaneScan {
  float laneMax;
  long long laneIdx;
};

__device__ inline LaneScan lane_scan(const float *x, int n) {
  const int lane = __lane_id();
  LaneScan s = {-INFINITY, 0};
  for (int i = lane; i < n; i += warpSize) {
    const float v = x[i];
    if (v > s.laneMax) {
      s.laneMax = v;
      s.laneIdx = i;
    }
  }
  return s;
}

__device__ inline float wave_max(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v = __builtin_fmaxf(v, __shfl_xor(v, offset));
  return v;
}

} // namespace

extern "C" __global__ void __launch_bounds__(64)
    ballot_argmax_firstlane(const float *in, long long *out, int n) {
  const float *x = in + (size_t)blockIdx.x * n;
  const LaneScan s = lane_scan(x, n);
  const float wgMax = wave_max(s.laneMax);
  const unsigned long long tied = __ballot(s.laneMax == wgMax);
  // The lowest lane holding the max writes its own first index.
  const int first = __ffsll((long long)tied) - 1;
  if (__lane_id() == first)
    out[blockIdx.x] = s.laneIdx;
}

extern "C" __global__ void __launch_bounds__(64)
    ballot_argmax_minidx(const float *in, long long *out, int n) {
  const float *x = in + (size_t)blockIdx.x * n;
  const LaneScan s = lane_scan(x, n);
  const float wgMax = wave_max(s.laneMax);
  const unsigned long long tied = __ballot(s.laneMax == wgMax);
  long long idx = s.laneIdx;
  if (__popcll(tied) > 1) {
    // Several lanes hold the max: the smallest index among them.
    if (s.laneMax != wgMax)
      idx = __LONG_LONG_MAX__;
    for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
      const long long other = __shfl_xor(idx, offset);
      idx = other < idx ? other : idx;
    }
  } else {
    idx = __shfl(idx, __ffsll((long long)tied) - 1);
  }
  if (__lane_id() == 0)
    out[blockIdx.x] = idx;
}
