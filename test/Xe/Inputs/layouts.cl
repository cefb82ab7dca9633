// Each kernel reads one 2D block at (X, Y) of a 64-element x 32-row
// surface and writes every lane's fragment to Out[lane][k]: the executor's
// Xe model runs it with the extension's lane mapping, and again after
// crosslane-xe-block-io<lower=igc> with IGC's register image
// (test/Xe/executor-layouts.test), and as the per-lane accesses of the
// dg2 fallback. With -DDIRECT_IGC, one_row calls IGC's
// one-row builtin itself: the shape the lowering leaves alone.
#define SG __attribute__((intel_reqd_sub_group_size(16)))
#define LANE get_sub_group_local_id()
void intel_sub_group_2d_block_read_16b_8r16x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_16b_1r16x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_8b_4r32x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_transform_16b_16r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transform_8b_32r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transpose_32b_16r8x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_write_32b_8r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_write_16b_4r16x1c(global void *, int, int, int, int2, private ushort *);
ushort2 __builtin_IB_subgroup_block_read_flat_u16_m1k16v2(long, int, int, int, int2);

SG kernel void a16(global ushort *A, global ushort *Out, int X, int Y) {
  ushort V[16];
  intel_sub_group_2d_block_read_16b_8r16x2c(A, 128, 32, 128, (int2)(X, Y), V);
  for (int I = 0; I < 16; ++I)
    Out[LANE * 16 + I] = V[I];
}
SG kernel void a8(global uchar *A, global ushort *Out, int X, int Y) {
  ushort V[8];
  intel_sub_group_2d_block_read_8b_4r32x2c(A, 64, 32, 64, (int2)(X, Y), V);
  for (int I = 0; I < 8; ++I)
    Out[LANE * 8 + I] = V[I];
}
SG kernel void vnni16(global ushort *A, global uint *Out, int X, int Y) {
  uint V[8];
  intel_sub_group_2d_block_read_transform_16b_16r16x1c(A, 128, 32, 128, (int2)(X, Y), V);
  for (int I = 0; I < 8; ++I)
    Out[LANE * 8 + I] = V[I];
}
SG kernel void vnni8(global uchar *A, global uint *Out, int X, int Y) {
  uint V[8];
  intel_sub_group_2d_block_read_transform_8b_32r16x1c(A, 64, 32, 64, (int2)(X, Y), V);
  for (int I = 0; I < 8; ++I)
    Out[LANE * 8 + I] = V[I];
}
SG kernel void tr32(global uint *A, global uint *Out, int X, int Y) {
  uint V[8];
  intel_sub_group_2d_block_read_transpose_32b_16r8x1c(A, 256, 32, 256, (int2)(X, Y), V);
  for (int I = 0; I < 8; ++I)
    Out[LANE * 8 + I] = V[I];
}
SG kernel void st32(global uint *In, global uint *Out, int X, int Y) {
  uint V[8];
  for (int I = 0; I < 8; ++I)
    V[I] = In[LANE * 8 + I];
  intel_sub_group_2d_block_write_32b_8r16x1c(Out, 256, 32, 256, (int2)(X, Y), V);
}
SG kernel void st16(global ushort *In, global ushort *Out, int X, int Y) {
  ushort V[4];
  for (int I = 0; I < 4; ++I)
    V[I] = In[LANE * 4 + I];
  intel_sub_group_2d_block_write_16b_4r16x1c(Out, 128, 32, 128, (int2)(X, Y), V);
}
SG kernel void one_row(global ushort *A, global ushort *Out, int X, int Y) {
  ushort V[2];
#ifdef DIRECT_IGC
  ushort2 R = __builtin_IB_subgroup_block_read_flat_u16_m1k16v2((long)A, 127, 31, 127, (int2)(X, Y));
  V[0] = R.x;
  V[1] = R.y;
#else
  intel_sub_group_2d_block_read_16b_1r16x2c(A, 128, 32, 128, (int2)(X, Y), V);
#endif
  Out[LANE * 2] = V[0];
  Out[LANE * 2 + 1] = V[1];
}
