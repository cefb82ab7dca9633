//===- torch_argmax.hip - torch.argmax(x, dim=-1) as a generic reduction -===//
//
// Imitates: PyTorch's reduction kernels (Reduce.cuh + ArgMaxOps style): a
//   (value, int64 index) accumulator, a comparator in which NaN wins and the
//   smaller index breaks ties, several elements per thread held in VT
//   independent accumulators, a shared-memory tree down to one wave and then
//   a __shfl_down ladder with *increasing* offsets (1, 2, 4, ...).
//   Written for Crosslane's corpus; not copied from any project.
//
// Kernels:
//   torch_argmax_f32(const float    *in, long long *out, int n)
//   torch_argmax_f16(const _Float16 *in, long long *out, int n)
//   Launch: grid = (nrows), block = (B), B a power of two, warpSize <= B <= 1024.
//   Row r is in[r*n .. r*n+n-1]; out[r] receives its argmax (int64).
//   f16 values are compared after conversion to float (exact).
//   (_Float16, not __half: ROCm 5.2's <hip/hip_fp16.h> does not compile
//   with clang 22 -- it calls the removed __llvm_amdgcn_rcp_f16.)
//
// Semantics (exact, = torch.argmax):
//   if the row has a NaN: the smallest index of a NaN;
//   otherwise the smallest index i with x[i] == max(x) (-0.0 == +0.0);
//   a row of all -inf gives 0 (the identity is (-inf, 0)); n == 0 gives 0.
//   Index: 0-based, int64. The comparator is a total order on
//   (value, index) pairs, so the result depends neither on B, nor on the
//   wave size, nor on the order of combination.
//
// GFX10+ in wave64 (gfx1100 -mwavefrontsize64): ROCm 5.2's __shfl* use
//   ds_bpermute, which there only reads within the lane's own 32-lane half:
//   the offset-32 __shfl_down step reads the lane itself, so lanes 32..63 of
//   the first wave (after the shared-memory tree) never reach lane 0.
//   The kernel then does not compute the result above (nor on hardware); the
//   wave executor models this and the reference reproduces it with
//   --bpermute=halves. A recogniser must evaluate the lane map per chip.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

namespace {

constexpr int VT = 4; // accumulators (elements in flight) per thread

struct ArgAcc {
  float value;
  long long index;
};

__device__ inline bool is_nan(float v) { return v != v; }

// "a should be kept over b" for argmax: NaN first, then larger value, then
// smaller index.
__device__ inline bool greater_or_nan(float a, float b, long long ia,
                                      long long ib) {
  if (is_nan(a)) {
    if (is_nan(b))
      return ia < ib;
    return true;
  }
  return (a == b) ? ia < ib : (a > b);
}

__device__ inline ArgAcc combine(ArgAcc a, ArgAcc b) {
  return greater_or_nan(a.value, b.value, a.index, b.index) ? a : b;
}

__device__ inline ArgAcc shfl_down_acc(ArgAcc a, int offset) {
  ArgAcc r;
  r.value = __shfl_down(a.value, offset);
  r.index = __shfl_down(a.index, offset);
  return r;
}

template <typename T>
__device__ inline void argmax_row(const T *in, long long *out, int n) {
  const int row = blockIdx.x;
  const T *x = in + (size_t)row * n;
  const ArgAcc ident = {-INFINITY, 0};

  // Several elements per thread: VT accumulators over VT consecutive
  // elements, then a stride of B * VT.
  ArgAcc acc[VT];
#pragma unroll
  for (int j = 0; j < VT; ++j)
    acc[j] = ident;
  const int stride = blockDim.x * VT;
  for (int base = threadIdx.x * VT; base < n; base += stride) {
#pragma unroll
    for (int j = 0; j < VT; ++j) {
      const int i = base + j;
      if (i < n) {
        ArgAcc e = {static_cast<float>(x[i]), (long long)i};
        acc[j] = combine(acc[j], e);
      }
    }
  }
  ArgAcc value = acc[0];
#pragma unroll
  for (int j = 1; j < VT; ++j)
    value = combine(value, acc[j]);

  // Shared-memory tree until one wave is left.
  __shared__ float s_value[1024];
  __shared__ long long s_index[1024];
  const int tid = threadIdx.x;
  int dim_x = blockDim.x;
  if (dim_x > warpSize) {
    s_value[tid] = value.value;
    s_index[tid] = value.index;
    for (int offset = dim_x / 2; offset >= warpSize; offset >>= 1) {
      __syncthreads();
      if (tid < offset) {
        ArgAcc other = {s_value[tid + offset], s_index[tid + offset]};
        value = combine(value, other);
        s_value[tid] = value.value;
        s_index[tid] = value.index;
      }
    }
    dim_x = warpSize;
  }

  // __shfl_down ladder with increasing offsets inside the first wave.
  if (tid < warpSize) {
    for (int offset = 1; offset < dim_x; offset <<= 1)
      value = combine(value, shfl_down_acc(value, offset));
  }
  if (tid == 0)
    out[row] = value.index;
}

} // namespace

extern "C" __global__ void __launch_bounds__(1024)
    torch_argmax_f32(const float *in, long long *out, int n) {
  argmax_row(in, out, n);
}

extern "C" __global__ void __launch_bounds__(1024)
    torch_argmax_f16(const _Float16 *in, long long *out, int n) {
  argmax_row(in, out, n);
}
