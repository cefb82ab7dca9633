// 2D block reads of every shape Debian 12's IGC (1.0.12504) has a flat
// builtin for, two it has not (16b_8r16x1c, 16b_1r16x2c), a store and a
// prefetch (it has neither), for test/Xe/ocloc-referee.test.
void intel_sub_group_2d_block_read_16b_8r16x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_8b_4r32x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_transform_16b_16r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transform_8b_32r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transpose_32b_16r8x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_16b_8r16x1c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_16b_1r16x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_write_32b_8r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_prefetch_16b_8r16x1c(global void *, int, int, int, int2);
__attribute__((intel_reqd_sub_group_size(16)))
kernel void tiles(global ushort *a, global uchar *q, global uint *t, global uint *out, int y) {
  ushort a2[16], q2[8], a1[8], r1[2];
  uint b[8], bq[8], tt[8];
  intel_sub_group_2d_block_read_16b_8r16x2c(a, 256, 64, 256, (int2)(0, y), a2);
  intel_sub_group_2d_block_read_8b_4r32x2c(q, 128, 64, 128, (int2)(0, y), q2);
  intel_sub_group_2d_block_read_transform_16b_16r16x1c(a, 256, 64, 256, (int2)(16, y), b);
  intel_sub_group_2d_block_read_transform_8b_32r16x1c(q, 128, 64, 128, (int2)(32, y), bq);
  intel_sub_group_2d_block_read_transpose_32b_16r8x1c(t, 256, 64, 256, (int2)(8, y), tt);
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 256, 64, 256, (int2)(64, y), a1);
  intel_sub_group_2d_block_prefetch_16b_8r16x1c(a, 256, 64, 256, (int2)(96, y));
  intel_sub_group_2d_block_read_16b_1r16x2c(a, 256, 64, 256, (int2)(96, y), r1);
  uint s = r1[0] + r1[1], w[8];
  for (int i = 0; i < 8; ++i) {
    w[i] = a2[i] + a2[i + 8] + q2[i] + b[i] + bq[i] + tt[i] + a1[i];
    s += w[i];
  }
  out[get_global_id(0)] = s;
  // Eight rows of 16 uints at (16, y) of a 64 x 64 surface after the
  // 16 sums (256-byte rows).
  intel_sub_group_2d_block_write_32b_8r16x1c(out, 256, 64, 256, (int2)(16, y), w);
}
