//===- moe_topk_gating.hip - MoE router: top-k experts per token ----------===//
//
// Imitates: the fused top-k gating kernels of MoE inference engines (vLLM's
//   topk_softmax style, without the softmax): a sub-wave group of TPR lanes
//   owns one token (row); each lane holds VPT = E/TPR consecutive experts in
//   registers; k rounds of "local argmax over my experts, then an xor
//   butterfly with index tie-break over the TPR lanes of the group (width
//   TPR), then the owner drops the winner". Several rows per wave.
//   Written for Crosslane's corpus; not copied from any project.
//
// Kernels (E experts, TPR lanes per row, k rounds):
//   moe_topk_e8_k2 (E = 8,  TPR = 4,  VPT = 2, k = 2)
//   moe_topk_e64_k4(E = 64, TPR = 16, VPT = 4, k = 4)
//   moe_topk_e16_k16(E = 16, TPR = 8, VPT = 2, k = 16: selects all 16)
//   all as (const float *logits, float *topk_val, int *topk_idx, int nrows)
//   logits: nrows x E row-major; topk_val/topk_idx: nrows x k.
//   Launch: grid = (G), block = (B), B a multiple of warpSize; row of lane
//   group g of the grid is g = (blockIdx.x*B + threadIdx.x) / TPR, rows
//   >= nrows are idle; need G*B/TPR >= nrows.
//
// Semantics (exact): round j picks, among the experts not yet chosen whose
//   logit is > -inf and not NaN, the largest logit, the smallest expert
//   index among equal logits (-0.0 == +0.0); it writes topk_idx[row*k+j] =
//   that expert and topk_val[row*k+j] = its logit (bit-exact). When no such
//   expert is left: topk_idx = -1, topk_val = -inf. So: the k largest
//   "real" logits in decreasing order, ties by expert index. Index: 0-based
//   int32. Independent of the wave size.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

template <int E, int TPR, int K>
__device__ inline void moe_topk(const float *logits, float *topk_val,
                                int *topk_idx, int nrows) {
  constexpr int VPT = E / TPR;
  static_assert(E % TPR == 0, "experts must split evenly over the group");
  const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = gtid / TPR;
  const int sub = gtid % TPR; // my position inside the row's group
  if (row >= nrows)
    return; // whole groups leave together (TPR divides warpSize)

  // My VPT consecutive experts.
  float vals[VPT];
  const int first = sub * VPT;
#pragma unroll
  for (int v = 0; v < VPT; ++v)
    vals[v] = logits[(size_t)row * E + first + v];

  for (int j = 0; j < K; ++j) {
    // Local argmax over my experts; strict '>' from -inf: NaN and -inf
    // (including dropped experts) never win. E means "none".
    float best = -INFINITY;
    int expert = E;
#pragma unroll
    for (int v = 0; v < VPT; ++v) {
      if (vals[v] > best) {
        best = vals[v];
        expert = first + v;
      }
    }
    // Butterfly over the TPR lanes of this row (decreasing offsets).
#pragma unroll
    for (int mask = TPR / 2; mask > 0; mask >>= 1) {
      const float ov = __shfl_xor(best, mask, TPR);
      const int oe = __shfl_xor(expert, mask, TPR);
      if (ov > best || (ov == best && oe < expert)) {
        best = ov;
        expert = oe;
      }
    }
    if (sub == 0) {
      topk_val[(size_t)row * K + j] = expert < E ? best : -INFINITY;
      topk_idx[(size_t)row * K + j] = expert < E ? expert : -1;
    }
    // The owner drops the winner for the next rounds.
    if (expert >= first && expert < first + VPT) {
#pragma unroll
      for (int v = 0; v < VPT; ++v)
        if (first + v == expert)
          vals[v] = -INFINITY;
    }
  }
}

extern "C" __global__ void moe_topk_e8_k2(const float *logits, float *topk_val,
                                          int *topk_idx, int nrows) {
  moe_topk<8, 4, 2>(logits, topk_val, topk_idx, nrows);
}

extern "C" __global__ void moe_topk_e64_k4(const float *logits,
                                           float *topk_val, int *topk_idx,
                                           int nrows) {
  moe_topk<64, 16, 4>(logits, topk_val, topk_idx, nrows);
}

extern "C" __global__ void moe_topk_e16_k16(const float *logits,
                                            float *topk_val, int *topk_idx,
                                            int nrows) {
  moe_topk<16, 8, 16>(logits, topk_val, topk_idx, nrows);
}
