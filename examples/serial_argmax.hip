//===- serial_argmax.hip - one thread per output, serial arg-reductions ---===//
//
// Imitates: the simple "one thread computes one output" reductions found
//   everywhere (naive column argmax over dim 0 of a matrix, the fallback
//   path of framework reductions for short rows). No cross-lane operation:
//   a recognizer must leave these alone or replace them exactly.
//   Written for Crosslane's corpus; not copied from any project.
//
// Kernels:
//   serial_argmax_cols(const float *x, int *out, int rows, int cols)
//     out[c] for column c of the rows x cols row-major matrix x.
//     Reference-BLAS style: best = x[0][c], index 0, then rows 1.. with a
//     strict '>'. So a NaN in row 0 sticks (index 0), other NaNs never win;
//     ties keep the first row; rows <= 0 gives 0 (x is not read).
//   serial_argmin_rows_nan(const float *x, long long *out, int rows, int cols)
//     out[r] for row r: torch.argmin semantics: the first NaN if any, else
//     the first index of the minimum (-0.0 == +0.0); cols <= 0 gives 0.
//   Launch (both): grid = (G), block = (B), any shape with G*B >= number of
//   outputs (cols for the first, rows for the second); extra threads idle.
//   Index: 0-based; int32 for the first, int64 for the second.
//   Independent of the wave size.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

extern "C" __global__ void serial_argmax_cols(const float *x, int *out,
                                              int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  int best_i = 0;
  if (rows > 0) {
    float best = x[c];
    for (int r = 1; r < rows; ++r) {
      const float v = x[(size_t)r * cols + c];
      if (v > best) {
        best = v;
        best_i = r;
      }
    }
  }
  out[c] = best_i;
}

extern "C" __global__ void serial_argmin_rows_nan(const float *x,
                                                  long long *out, int rows,
                                                  int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *row = x + (size_t)r * cols;
  float best = INFINITY;
  long long best_i = 0;
  for (int i = 0; i < cols; ++i) {
    const float v = row[i];
    if (v != v) { // the first NaN wins outright
      best_i = i;
      break;
    }
    if (v < best) {
      best = v;
      best_i = i;
    }
  }
  out[r] = best_i;
}
