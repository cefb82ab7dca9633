// One 8x16 tile of C += A * B per subgroup, as XeGPU-style GEMM kernels
// load it, written with Crosslane's tile API (crosslane/xe/block_io.h, over
// cl_intel_subgroup_2d_block_io): A as two 8x16 blocks of 16-bit elements
// (one message, array length 2), B as a 16x16 VNNI block (rows packed in
// pairs for DPAS), C as an 8x16 block of 32-bit elements; the next K step of
// A is prefetched. The multiply is a scalar stand-in for DPAS (this example
// is about the loads). Compile with -I include.
#include "crosslane/xe/block_io.h"

#define TILE_K 32

__attribute__((intel_reqd_sub_group_size(16)))
kernel void gemm_tile(global ushort *A, global ushort *B, global float *C,
                      int M, int N, int K) {
  // The host allocates the matrices 64-byte aligned (USM and SVM allocations
  // are). Without these, crosslane-xe-block-io cannot prove the bases
  // aligned and puts each operation behind a run-time alignment guard with
  // per-lane accesses on the other path (docs/Xe.md).
  __builtin_assume(((ulong)A & 63) == 0);
  __builtin_assume(((ulong)B & 63) == 0);
  __builtin_assume(((ulong)C & 63) == 0);
  int Row = get_group_id(1) * 8, Col = get_group_id(0) * 16;
  crosslane_xe_surface SA = crosslane_xe_surface_make(A, K, M, K, 2);
  crosslane_xe_surface SB = crosslane_xe_surface_make(B, N, K, N, 2);
  crosslane_xe_surface SC = crosslane_xe_surface_make(C, N, M, N, 4);
  uint Acc[CROSSLANE_XE_LANE_BYTES(32, 8, 16, 1) / 4];
  CROSSLANE_XE_LOAD(SC, 32, 8, 16, 1, Col, Row, Acc);
  for (int K0 = 0; K0 < K; K0 += TILE_K) {
    ushort A2[CROSSLANE_XE_LANE_BYTES(16, 8, 16, 2) / 2];
    uint Bv[CROSSLANE_XE_LANE_BYTES_VNNI(16, 16, 16, 1) / 4];
    CROSSLANE_XE_LOAD(SA, 16, 8, 16, 2, K0, Row, A2);
    CROSSLANE_XE_PREFETCH(SA, 16, 8, 16, 2, K0 + TILE_K, Row);
    CROSSLANE_XE_LOAD_VNNI(SB, 16, 16, 16, 1, Col, K0, Bv);
    // Lane L: A2[I] is A[Row + I][K0 + L], A2[I + 8] is A[Row + I][K0 + 16
    // + L]; Bv[I] packs B[K0 + 2I][Col + L] (low) and B[K0 + 2I + 1][Col +
    // L] (high).
    for (int I = 0; I < 8; ++I)
      Acc[I] = as_uint(as_float(Acc[I]) + (float)A2[I] * (float)(Bv[I] & 0xffff) +
                       (float)A2[I + 8] * (float)(Bv[I] >> 16));
  }
  CROSSLANE_XE_STORE(SC, 32, 8, 16, Col, Row, Acc);
}
