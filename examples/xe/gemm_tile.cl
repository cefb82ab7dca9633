// One 8x16 tile of C += A * B per subgroup, as XeGPU-style GEMM kernels
// load it with cl_intel_subgroup_2d_block_io: A as two 8x16 blocks of
// 16-bit elements (one message, array length 2), B as a 16x16 VNNI block
// (rows packed in pairs for DPAS), C as an 8x16 block of 32-bit elements;
// the next K step of A is prefetched. The multiply is a scalar stand-in
// for DPAS (this example is about the loads).
#define TILE_K 32

void intel_sub_group_2d_block_read_16b_8r16x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_transform_16b_16r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_32b_8r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_write_32b_8r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_prefetch_16b_8r16x2c(global void *, int, int, int, int2);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void gemm_tile(global ushort *A, global ushort *B, global float *C,
                      int M, int N, int K) {
  int Row = get_group_id(1) * 8, Col = get_group_id(0) * 16;
  uint Acc[8];
  intel_sub_group_2d_block_read_32b_8r16x1c(C, N * 4, M, N * 4, (int2)(Col, Row), Acc);
  for (int K0 = 0; K0 < K; K0 += TILE_K) {
    ushort A2[16];
    uint Bv[8];
    intel_sub_group_2d_block_read_16b_8r16x2c(A, K * 2, M, K * 2, (int2)(K0, Row), A2);
    intel_sub_group_2d_block_prefetch_16b_8r16x2c(A, K * 2, M, K * 2, (int2)(K0 + TILE_K, Row));
    intel_sub_group_2d_block_read_transform_16b_16r16x1c(B, N * 2, K, N * 2, (int2)(Col, K0), Bv);
    for (int I = 0; I < 8; ++I)
      Acc[I] = as_uint(as_float(Acc[I]) + (float)A2[I] * (float)(Bv[I] & 0xffff) +
                       (float)A2[I + 8] * (float)(Bv[I] >> 16));
  }
  intel_sub_group_2d_block_write_32b_8r16x1c(C, N * 4, M, N * 4, (int2)(Col, Row), Acc);
}
