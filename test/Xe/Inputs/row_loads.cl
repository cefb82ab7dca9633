// Kernels that load the rows of a tile lane by lane, in the styles real
// OpenCL code uses (the subgroup's local id, the global id, vector loads,
// bytes), and near misses (test/Xe/form-blocks.test).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define SG16 __attribute__((intel_reqd_sub_group_size(16)))

// Eight rows of floats; row R of the tile at (X, Y + R), pitch P.
SG16 kernel void rows_f32(global const float *A, global float *Out, int P,
                          int X, int Y) {
  int L = get_sub_group_local_id();
  float S = 0;
  for (int R = 0; R < 8; ++R)
    S += A[(Y + R) * P + X + L] * (R + 1);
  Out[get_global_id(0)] = S;
}

// Four rows of halves, indexed by the global id (size_t arithmetic).
SG16 __attribute__((reqd_work_group_size(32, 1, 1))) kernel void
rows_gid(global const half *A, global float *Out, int P, int Y) {
  size_t G = get_global_id(0);
  float S = 0;
#pragma unroll
  for (int R = 0; R < 4; ++R)
    S += (float)A[(size_t)(Y + R) * P + G] * (R + 1);
  Out[G] = S;
}

// Two 16-bit elements per lane per row, loaded as one ushort2 (X and P
// even): a 32-wide block.
SG16 kernel void rows_vec2(global const ushort *A, global uint *Out, int P,
                           int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
  for (int R = 0; R < 4; ++R) {
    ushort2 V = *(global const ushort2 *)(A + (Y + R) * P + X + 2 * L);
    S = S * 31 + V.x * 7 + V.y;
  }
  Out[get_global_id(0)] = S;
}

// Bytes, sixteen rows.
SG16 kernel void rows_u8(global const uchar *A, global uint *Out, int P,
                         int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll
  for (int R = 0; R < 16; ++R)
    S = S * 3 + A[(Y + R) * P + X + L];
  Out[get_global_id(0)] = S;
}

// Near misses: a store between the rows (it may overwrite a later row).
SG16 kernel void store_between(global float *A, global float *Out, int P) {
  int L = get_sub_group_local_id();
  float S = A[L];
  A[P + L + 1] = S;
  S += A[P + L];
  Out[get_global_id(0)] = S;
}

// Under a branch on the lane: not the whole subgroup.
SG16 kernel void divergent(global const float *A, global float *Out, int P) {
  int L = get_sub_group_local_id();
  float S = 0;
  if (L < 8)
    S = A[L] + A[P + L];
  Out[get_global_id(0)] = S;
}

// Two elements apart per lane: not a row of the block.
SG16 kernel void strided_lanes(global const float *A, global float *Out,
                               int P) {
  int L = get_sub_group_local_id();
  Out[get_global_id(0)] = A[2 * L] + A[P + 2 * L];
}

// No required subgroup size: the subgroup may not have 16 lanes.
kernel void no_sg16(global const float *A, global float *Out, int P) {
  int L = get_sub_group_local_id();
  Out[get_global_id(0)] = A[L] + A[P + L];
}

// Rows 0, 1 and 3: not evenly spaced.
SG16 kernel void uneven(global const float *A, global float *Out, int P) {
  int L = get_sub_group_local_id();
  Out[get_global_id(0)] = A[L] + A[P + L] * 2 + A[3 * P + L] * 3;
}

// A loop that loads one row per iteration (not unrolled): the whole tile
// is read before the loop, row k taken from it in iteration k.
SG16 kernel void rows_loop(global const float *A, global float *Out, int P,
                           int X, int Y) {
  int L = get_sub_group_local_id();
  float S = 0;
#pragma unroll 1
  for (int R = 0; R < 16; ++R)
    S = S * 0.5f + A[(Y + R) * P + X + L];
  Out[get_global_id(0)] = S;
}

SG16 kernel void rows_loop_u16(global const ushort *A, global uint *Out,
                               int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    S = S * 3 + A[(Y + R) * P + X + L];
  Out[get_global_id(0)] = S;
}

// Twelve rows in a loop: two 2D loads, of 8 and 4 rows. A near miss: a
// loop that stores to global memory (it could overwrite a later row).
SG16 kernel void loop12(global const float *A, global float *Out, int P) {
  int L = get_sub_group_local_id();
  float S = 0;
#pragma unroll 1
  for (int R = 0; R < 12; ++R)
    S += A[R * P + L];
  Out[get_global_id(0)] = S;
}

SG16 kernel void loop_store(global float *A, global float *Out, int P) {
  int L = get_sub_group_local_id();
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    Out[R * 16 + L] = A[R * P + L];
}

// Blocks side by side: lane L reads elements L and L + 16 of each of eight
// rows of 16-bit data (a 32-wide tile), one 16b_8r16x2c load; and
// elements L, L + 16, L + 32 and L + 48 of bytes, one 8b_8r16x4c load.
SG16 kernel void rows_2blocks_u16(global const ushort *A, global uint *Out,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
  for (int R = 0; R < 8; ++R)
    S = S * 3 + A[(Y + R) * P + X + L] * 5 + A[(Y + R) * P + X + L + 16];
  Out[get_global_id(0)] = S;
}
SG16 kernel void rows_4blocks_u8(global const uchar *A, global uint *Out,
                                 int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
  for (int R = 0; R < 8; ++R)
    for (int K = 0; K < 4; ++K)
      S = S * 7 + A[(Y + R) * P + X + L + 16 * K];
  Out[get_global_id(0)] = S;
}

// Two blocks of floats: a 4-byte block row holds at most 16 elements in
// all, so each block is a tile of its own (two 32b_4r16x1c loads).
SG16 kernel void rows_2blocks_f32(global const float *A, global float *Out,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float S = 0;
  for (int R = 0; R < 4; ++R)
    S = S * 0.5f + A[(Y + R) * P + X + L] - A[(Y + R) * P + X + L + 16];
  Out[get_global_id(0)] = S;
}

// Blocks side by side in a loop: one load of 2 (or 4) blocks before it.
SG16 kernel void loop_2blocks_u16(global const ushort *A, global uint *Out,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    S = S * 3 + A[(Y + R) * P + X + L] * 5 + A[(Y + R) * P + X + L + 16];
  Out[get_global_id(0)] = S;
}
SG16 kernel void loop_4blocks_u8(global const uchar *A, global uint *Out,
                                 int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    for (int K = 0; K < 4; ++K)
      S = S * 7 + A[(Y + R) * P + X + L + 16 * K];
  Out[get_global_id(0)] = S;
}

// Four blocks of 16-bit data (a 64-wide row): the chip loads two at once,
// so two loads of two blocks. In a loop, blocks named right to left.
SG16 kernel void rows_4blocks_u16(global const ushort *A, global uint *Out,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
  for (int R = 0; R < 4; ++R)
    for (int K = 0; K < 4; ++K)
      S = S * 5 + A[(Y + R) * P + X + L + 16 * K];
  Out[get_global_id(0)] = S;
}
SG16 kernel void loop_blocks_reversed(global const ushort *A, global uint *Out,
                                      int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    S = S * 3 + A[(Y + R) * P + X + L + 16] * 5 + A[(Y + R) * P + X + L];
  Out[get_global_id(0)] = S;
}

// Rows kept in a private array as they are loaded (-O0-style code the
// optimiser leaves in memory): private stores between the loads do not
// change what they read.
SG16 kernel void rows_private_copy(global const float *A, global float *Out,
                                   int P, int X, int Y, int K) {
  int L = get_sub_group_local_id();
  volatile float T[8];
  for (int R = 0; R < 8; ++R)
    T[R] = A[(Y + R) * P + X + L];
  Out[get_global_id(0)] = T[K & 7];
}

// Three blocks of halves: a load of two blocks and one of one, in a loop
// (as clang leaves it) and unrolled.
SG16 kernel void rows_3blocks_f16(global const half *A, global float *Out,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float S = 0;
  for (int R = 0; R < 8; ++R)
    S = S * 0.5f + A[(Y + R) * P + X + L] - A[(Y + R) * P + X + L + 16] +
        A[(Y + R) * P + X + L + 32];
  Out[get_global_id(0)] = S;
}
SG16 kernel void rows_3blocks_f16_unrolled(global const half *A,
                                           global float *Out, int P, int X,
                                           int Y) {
  int L = get_sub_group_local_id();
  float S = 0;
#pragma unroll
  for (int R = 0; R < 8; ++R)
    S = S * 0.5f + A[(Y + R) * P + X + L] - A[(Y + R) * P + X + L + 16] +
        A[(Y + R) * P + X + L + 32];
  Out[get_global_id(0)] = S;
}

// A pointer bumped by the pitch, the loop fully unrolled at -O2: each
// row's address is a GEP of the previous row's, read as a byte offset
// from the pointer the rows start at.
SG16 kernel void rows_bump_unrolled(global const float *A, global float *Out,
                                    int P, int X, int Y) {
  int L = get_sub_group_local_id();
  const global float *Tile = A + Y * P + X;
  float Acc = 1;
  for (int R = 0; R < 8; ++R, Tile += P)
    Acc = Acc * 0.25f - Tile[L];
  Out[get_global_id(0)] = Acc;
}

// Two blocks with a gap between them (lane L reads L and L + 32): each a
// tile of its own.
SG16 kernel void rows_gap_f32(global const float *A, global float *Out,
                              int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float Lo = 0, Hi = 0;
  for (int R = 0; R < 8; ++R) {
    int Row = (Y + R) * P + X + L;
    Lo = Lo * 0.5f + A[Row];
    Hi = Hi * 0.5f + A[Row + 32];
  }
  Out[get_global_id(0)] = Lo - Hi;
}

// Row indices built with mad24, in a loop and unrolled (read as the 32-bit
// multiply-add IGC makes of them); the loop runs from Y to Y + 8 (its
// count a max that the bound's add nsw decides).
SG16 kernel void rows_mad24_loop(global const ushort *A, global uint *Out,
                                 int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint Max = 0;
#pragma unroll 1
  for (int R = Y; R < Y + 8; ++R) {
    uint V = A[mad24(R, P, X) + L];
    Max = V > Max ? V : Max;
  }
  Out[get_global_id(0)] = Max;
}
SG16 kernel void rows_mad24(global const float *A, global float *Out, int P,
                            int X, int Y) {
  int L = get_sub_group_local_id();
  float S = 0;
  for (int R = 0; R < 4; ++R)
    S += A[mad24(Y + R, P, X + L)] * (R + 1);
  Out[get_global_id(0)] = S;
}

// Two blocks with a gap, the rows interleaved and addressed two ways by
// -O2 (block 0 through a chain of GEPs, block 1 by a 32-bit index): the
// two tiles are formed in the block's order.
SG16 kernel void rows_gap_interleaved(global const float *A, global float *Out,
                                      int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float Near[4], Far[4];
  for (int R = 0; R < 4; ++R) {
    Near[R] = A[(Y + R) * P + X + L];
    Far[R] = A[(Y + R) * P + X + 32 + L];
  }
  float S = 0;
  for (int R = 0; R < 4; ++R)
    S = S * 0.5f + Near[R] - Far[R];
  Out[get_global_id(0)] = S;
}

// A loop of two iterations: LLVM counts it with an `i1` phi and picks the
// row by a phi of 0 and 1.
SG16 kernel void rows_loop_two(global const float *A, global float *Out, int P,
                               int X, int Y) {
  int L = get_sub_group_local_id();
  float S = 0;
#pragma unroll 1
  for (int R = 0; R < 2; ++R)
    S += A[(Y + R) * P + X + L];
  Out[get_global_id(0)] = S;
}

// Rows written out from a pointer to the tile's row 0 (`o[k * P]`): -O2
// computes k * P in 32 bits with no signed wrap, then widens it.
SG16 kernel void rows_written_out(global const float *A, global float *Out,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  global const float *O = A + Y * P + X + L;
  Out[get_global_id(0)] = O[0] + 2 * O[P] + 3 * O[2 * P] + 4 * O[3 * P] +
                          5 * O[4 * P] + 6 * O[5 * P] + 7 * O[6 * P] +
                          8 * O[7 * P];
}

// Blocks side by side with the block's offset before the lane, as a GEMM
// reads its A tile: -O2 addresses block 0 with 64-bit offsets and the
// others with 32-bit indices. One load of 2 (4) blocks where the chip has
// it, where each block lies checked at run time.
SG16 kernel void rows_2ways_u16(global const ushort *A, global uint *Out,
                                int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll
  for (int R = 0; R < 8; ++R)
    S = S * 3 + A[(Y + R) * P + X + L] * 2 + A[(Y + R) * P + X + 16 + L];
  Out[get_global_id(0)] = S;
}
SG16 kernel void loop_2ways_u16(global const ushort *A, global uint *Out,
                                int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    S = S * 3 + A[(Y + R) * P + X + L] * 2 + A[(Y + R) * P + X + 16 + L];
  Out[get_global_id(0)] = S;
}
SG16 kernel void rows_4ways_u8(global const uchar *A, global uint *Out, int P,
                               int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll
  for (int R = 0; R < 4; ++R)
    S = S * 3 + A[(Y + R) * P + X + L] + 2 * A[(Y + R) * P + X + 16 + L] +
        5 * A[(Y + R) * P + X + 32 + L] + 7 * A[(Y + R) * P + X + 48 + L];
  Out[get_global_id(0)] = S;
}

// Block 1 is beside block 0 only while Y < 64 (the check must see it).
SG16 kernel void rows_2ways_shifted(global const ushort *A, global uint *Out,
                                    int P, int X, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
#pragma unroll
  for (int R = 0; R < 8; ++R)
    S = S * 3 + A[(Y + R) * P + X + L] * 2 +
        A[(Y + R) * P + X + 16 + ((uint)Y >> 6) * 16 + L];
  Out[get_global_id(0)] = S;
}
