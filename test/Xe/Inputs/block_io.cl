// cl_intel_subgroup_2d_block_io kernels, good and bad, for the 2D block IO
// validator (test/Xe/block-io-validate.test). Each bad kernel breaks one
// rule; the line of its call is what the diagnostic must name.
#define SG __attribute__((intel_reqd_sub_group_size(16)))

void intel_sub_group_2d_block_read_16b_8r16x1c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_transform_16b_16r16x2c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transform_16b_16r32x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transpose_32b_16r8x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_write_32b_8r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_write_32b_16r16x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_prefetch_8b_32r16x1c(global void *, int, int, int, int2);

SG kernel void good_load(global ushort *a, global ushort *out, int x, int y) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 128, (int2)(2 * x, y), v);
  out[get_global_id(0)] = v[0] + v[7];
}

SG kernel void good_vnni_transpose_store(global ushort *b, global uint *c,
                                        int x, int y) {
  uint bv[16], tv[8];
  intel_sub_group_2d_block_read_transform_16b_16r16x2c(b, 256, 64, 256, (int2)(0, y), bv);
  intel_sub_group_2d_block_read_transpose_32b_16r8x1c(c, 256, 64, 256, (int2)(x, y), tv);
  for (int i = 0; i < 8; ++i)
    tv[i] += bv[i] + bv[i + 8];
  intel_sub_group_2d_block_write_32b_8r16x1c(c, 256, 64, 256, (int2)(x, y), tv);
}

SG kernel void good_prefetch(global uchar *a, int y) {
  intel_sub_group_2d_block_prefetch_8b_32r16x1c(a, 64, 256, 64, (int2)(0, y));
}

kernel void no_subgroup_size(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[3];
}

SG kernel void wide_vnni(global ushort *b, global uint *out) {
  uint bv[16];
  intel_sub_group_2d_block_read_transform_16b_16r32x1c(b, 256, 64, 256, (int2)(0, 0), bv);
  out[get_global_id(0)] = bv[15];
}

SG kernel void tall_store(global uint *c) {
  uint tv[16] = {0};
  intel_sub_group_2d_block_write_32b_16r16x1c(c, 256, 64, 256, (int2)(0, 0), tv);
}

SG kernel void narrow_surface(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 32, 64, 32, (int2)(0, 0), v);
  out[get_global_id(0)] = v[1];
}

SG kernel void bad_pitch(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 100, (int2)(0, 0), v);
  out[get_global_id(0)] = v[2];
}

SG kernel void lane_coordinate(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 128, (int2)(0, get_local_id(0)), v);
  out[get_global_id(0)] = v[4];
}

SG kernel void divergent_branch(global ushort *a, global ushort *out) {
  ushort v[8] = {0};
  if (get_sub_group_local_id() < 8)
    intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[5];
}

SG kernel void odd_x(global ushort *a, global ushort *out, int x) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 128, (int2)(2 * x + 1, 0), v);
  out[get_global_id(0)] = v[6];
}

SG kernel void small_buffer(global ushort *a, global ushort *out) {
  ushort v[4];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void subgroup_32(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}
