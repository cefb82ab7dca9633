// Block operations whose shape pvc lacks only by their rows or blocks:
// crosslane-xe-block-io splits each into pieces pvc has
// (test/Xe/split.test). Each kernel reads or writes one block at (X, Y) of
// a 64-element x 80-row surface; loads write every lane's fragment to
// Out[lane][k], stores take it from In[lane][k].
#define SG __attribute__((intel_reqd_sub_group_size(16)))
#define LANE get_sub_group_local_id()
void intel_sub_group_2d_block_read_16b_64r16x1c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_16b_8r16x4c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_32b_8r8x4c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transform_16b_32r16x4c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_write_32b_16r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_write_16b_32r16x1c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_write_8b_16r8x1c(global void *, int, int, int, int2, private uchar *);
void intel_sub_group_2d_block_prefetch_16b_64r16x1c(global void *, int, int, int, int2);
void intel_sub_group_2d_block_read_transpose_32b_16r8x2c(global void *, int, int, int, int2, private uint *);

#define LOAD(NAME, T, N, FN, WBYTES)                                          \
  SG kernel void NAME(global T *A, global T *Out, int X, int Y) {              \
    T V[N];                                                                    \
    FN(A, WBYTES, 80, WBYTES, (int2)(X, Y), V);                                \
    for (int I = 0; I < N; ++I)                                                \
      Out[LANE * N + I] = V[I];                                                \
  }
#define STORE(NAME, T, N, FN, WBYTES)                                         \
  SG kernel void NAME(global T *In, global T *Out, int X, int Y) {             \
    T V[N];                                                                    \
    for (int I = 0; I < N; ++I)                                                \
      V[I] = In[LANE * N + I];                                                 \
    FN(Out, WBYTES, 80, WBYTES, (int2)(X, Y), V);                              \
  }

LOAD(rows64, ushort, 64, intel_sub_group_2d_block_read_16b_64r16x1c, 128)
LOAD(blocks4, ushort, 32, intel_sub_group_2d_block_read_16b_8r16x4c, 128)
LOAD(narrow4, uint, 16, intel_sub_group_2d_block_read_32b_8r8x4c, 256)
LOAD(transposed2, uint, 16, intel_sub_group_2d_block_read_transpose_32b_16r8x2c, 256)
STORE(st16rows, uint, 16, intel_sub_group_2d_block_write_32b_16r16x1c, 256)
STORE(st32rows, ushort, 32, intel_sub_group_2d_block_write_16b_32r16x1c, 128)
STORE(stnarrow, uchar, 8, intel_sub_group_2d_block_write_8b_16r8x1c, 64)

// VNNI: the surface holds ushorts, each lane's fragment uints.
SG kernel void vnni4(global ushort *A, global uint *Out, int X, int Y) {
  uint V[64];
  intel_sub_group_2d_block_read_transform_16b_32r16x4c(A, 128, 80, 128, (int2)(X, Y), V);
  for (int I = 0; I < 64; ++I)
    Out[LANE * 64 + I] = V[I];
}

SG kernel void prefetch64(global ushort *A, int X, int Y) {
  intel_sub_group_2d_block_prefetch_16b_64r16x1c(A, 128, 80, 128, (int2)(X, Y));
}
