// For test/Xe/lane-order.test: the two shapes whose lane order the
// extension's text and Intel's hardware disagree on (a transposed load of
// 32 rows, a VNNI load 32 wide), each lane's fragment written out whole:
// lane L's k-th uint to out[16 * k + L] (a row of 16 per k).
void intel_sub_group_2d_block_read_transpose_32b_32r8x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transform_16b_16r32x1c(global void *, int, int, int, int2, private uint *);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void tall(global uint *t, global uint *out, int x, int y) {
  uint v[16];
  intel_sub_group_2d_block_read_transpose_32b_32r8x1c(t, 128, 40, 128, (int2)(x, y), v);
  for (int k = 0; k < 16; ++k)
    out[16 * k + get_sub_group_local_id()] = v[k];
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void wide(global ushort *a, global uint *out, int x, int y) {
  uint v[16];
  intel_sub_group_2d_block_read_transform_16b_16r32x1c(a, 128, 40, 128, (int2)(x, y), v);
  for (int k = 0; k < 16; ++k)
    out[16 * k + get_sub_group_local_id()] = v[k];
}

// Two more VNNI loads wider than 16 that pvc lacks and bmg has: split on
// pvc by width into one load of 16-wide blocks.
void intel_sub_group_2d_block_read_transform_8b_32r64x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_read_transform_8b_32r32x2c(global void *, int, int, int, int2, private uint *);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void wide8(global uchar *a, global uint *out, int x, int y) {
  uint v[32];
  intel_sub_group_2d_block_read_transform_8b_32r64x1c(a, 128, 40, 128, (int2)(x, y), v);
  for (int k = 0; k < 32; ++k)
    out[16 * k + get_sub_group_local_id()] = v[k];
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void wide2(global uchar *a, global uint *out, int x, int y) {
  uint v[32];
  intel_sub_group_2d_block_read_transform_8b_32r32x2c(a, 128, 40, 128, (int2)(x, y), v);
  for (int k = 0; k < 32; ++k)
    out[16 * k + get_sub_group_local_id()] = v[k];
}

// Two 32-wide 16-bit VNNI blocks: split into blocks on bmg, and then by
// width on pvc.
void intel_sub_group_2d_block_read_transform_16b_16r32x2c(global void *, int, int, int, int2, private uint *);
__attribute__((intel_reqd_sub_group_size(16)))
kernel void wide16x2(global ushort *a, global uint *out, int x, int y) {
  uint v[32];
  intel_sub_group_2d_block_read_transform_16b_16r32x2c(a, 256, 40, 256, (int2)(x, y), v);
  for (int k = 0; k < 32; ++k)
    out[16 * k + get_sub_group_local_id()] = v[k];
}
