// Shapes only Xe3P (cri) has: 16-wide transposed loads of 4-byte elements,
// 8-wide ones of 8-byte elements, prefetches of 256-byte rows
// (test/Xe/xe3p.test). Each load reads one block at (X, Y) of a surface of
// 64 uints x 40 rows and writes every lane's fragment to Out[lane][k].
// With -DHALVES_SWAPPED, tr16x16 reads its two 8-wide halves in the wrong
// order (a wrong split, which the executor must tell apart).
#define SG __attribute__((intel_reqd_sub_group_size(16)))
#define LANE get_sub_group_local_id()
void intel_sub_group_2d_block_read_transpose_32b_16r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transpose_32b_16r8x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transpose_32b_32r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transpose_32b_8r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transpose_64b_8r8x1c(global void *, int, int, int, int2, private ulong *);
void intel_sub_group_2d_block_prefetch_8b_8r256x1c(global void *, int, int, int, int2);
void intel_sub_group_2d_block_prefetch_32b_4r16x4c(global void *, int, int, int, int2);
void intel_sub_group_2d_block_prefetch_8b_2r128x1c(global void *, int, int, int, int2);
void intel_sub_group_2d_block_read_transpose_64b_16r8x1c(global void *, int, int, int, int2, private ulong *);
void intel_sub_group_2d_block_read_transpose_32b_16r16x2c(global void *, int, int, int, int2, private uint *);

#define TRANSPOSED(NAME, T, N, FN)                                            \
  SG kernel void NAME(global T *A, global T *Out, int X, int Y) {              \
    T V[N];                                                                    \
    FN(A, 256, 40, 256, (int2)(X, Y), V);                                      \
    for (int I = 0; I < N; ++I)                                                \
      Out[LANE * N + I] = V[I];                                                \
  }

#ifndef HALVES_SWAPPED
TRANSPOSED(tr16x16, uint, 16, intel_sub_group_2d_block_read_transpose_32b_16r16x1c)
#else
SG kernel void tr16x16(global uint *A, global uint *Out, int X, int Y) {
  uint V[16];
  intel_sub_group_2d_block_read_transpose_32b_16r8x1c(A, 256, 40, 256, (int2)(X + 8, Y), V);
  intel_sub_group_2d_block_read_transpose_32b_16r8x1c(A, 256, 40, 256, (int2)(X, Y), V + 8);
  for (int I = 0; I < 16; ++I)
    Out[LANE * 16 + I] = V[I];
}
#endif
TRANSPOSED(tr32x16, uint, 32, intel_sub_group_2d_block_read_transpose_32b_32r16x1c)
TRANSPOSED(tr8x16, uint, 8, intel_sub_group_2d_block_read_transpose_32b_8r16x1c)
TRANSPOSED(tr64, ulong, 4, intel_sub_group_2d_block_read_transpose_64b_8r8x1c)
// Two blocks of Xe3P's width: cri splits the blocks, earlier chips then
// their columns too.
TRANSPOSED(tr16x16x2, uint, 32, intel_sub_group_2d_block_read_transpose_32b_16r16x2c)

SG kernel void prefetch256(global uchar *A, global uint *Out, int X, int Y) {
  intel_sub_group_2d_block_prefetch_8b_8r256x1c(A, 256, 40, 256, (int2)(X * 4, Y));
  intel_sub_group_2d_block_prefetch_32b_4r16x4c(A, 256, 40, 256, (int2)(X, Y));
  // 128-byte rows: neither Xe-HPC's 64 nor Xe3P's 256 (two of 64).
  intel_sub_group_2d_block_prefetch_8b_2r128x1c(A, 256, 40, 256, (int2)(X * 4, Y));
  Out[LANE] = A[LANE];
}

#ifdef BAD
// 16 rows of 8-byte elements transposed: no chip has it, and a transposed
// load's rows do not split.
SG kernel void tr64tall(global ulong *A, global ulong *Out, int X, int Y) {
  ulong V[8];
  intel_sub_group_2d_block_read_transpose_64b_16r8x1c(A, 256, 40, 256, (int2)(X, Y), V);
  for (int I = 0; I < 8; ++I)
    Out[LANE * 8 + I] = V[I];
}
#endif
