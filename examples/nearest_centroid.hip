//===- nearest_centroid.hip - k-means assignment step, several rows/thread ===//
//
// Imitates: the assignment step of k-means / nearest-neighbour libraries
//   (cuML / FAISS brute-force style): each thread owns ROWS points, streams
//   the centroids once for all of them and keeps a running (min distance,
//   label) per point with a strict '<' (so the first centroid wins ties).
//   Purely serial per thread: no cross-lane operation; the arg-reduction is
//   a loop-carried select. Written for Crosslane's corpus; not copied.
//
// Kernel: nearest_centroid(const float *points, const float *centroids,
//                          int *labels, float *min_dist, int npoints,
//                          int k, int d)
//   points: npoints x d, row-major; centroids: k x d, row-major.
//   Launch: grid = (G), block = (B), any G, B; thread t (global id) owns
//   points t*ROWS .. t*ROWS+ROWS-1 and then the same block of ROWS a grid
//   stride (G*B*ROWS) further, and so on. ROWS = 4.
//
// Semantics (exact): dist(p, c) = sum over j = 0..d-1, in order, of
//   (p[j] - c[j]) * (p[j] - c[j]) in float (the compiler may contract the
//   multiply-add into an fma: the reference is bit-exact only when every
//   intermediate is exact, e.g. integer-valued coordinates with small
//   magnitude, and for inf/NaN, which propagate the same either way).
//   labels[p] = the smallest c with dist(p, c) == min over c (strict '<'
//   scan from best = +inf, label 0): NaN distances never win; if every
//   distance is NaN or +inf, label 0 and min_dist +inf.
//   min_dist[p] = that distance. Index: 0-based, int32.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime.h>

#define ROWS 4

extern "C" __global__ void nearest_centroid(const float *points,
                                           const float *centroids, int *labels,
                                           float *min_dist, int npoints, int k,
                                           int d) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int nthreads = gridDim.x * blockDim.x;
  for (int base = tid * ROWS; base < npoints; base += nthreads * ROWS) {
    float best[ROWS];
    int label[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      best[r] = INFINITY;
      label[r] = 0;
    }
    for (int c = 0; c < k; ++c) {
      const float *cen = centroids + (size_t)c * d;
      float dist[ROWS];
#pragma unroll
      for (int r = 0; r < ROWS; ++r)
        dist[r] = 0.0f;
      for (int j = 0; j < d; ++j) {
        const float cj = cen[j];
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
          // Rows past the end read row npoints-1 (in bounds) and are
          // discarded below.
          const int p = min(base + r, npoints - 1);
          const float diff = points[(size_t)p * d + j] - cj;
          dist[r] += diff * diff;
        }
      }
#pragma unroll
      for (int r = 0; r < ROWS; ++r) {
        if (dist[r] < best[r]) {
          best[r] = dist[r];
          label[r] = c;
        }
      }
    }
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      if (base + r < npoints) {
        labels[base + r] = label[r];
        min_dist[base + r] = best[r];
      }
    }
  }
}
