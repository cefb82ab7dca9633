// cl_intel_subgroup_2d_block_io calls that break one rule each, for
// test/Diagnostics/xe-block-io-rules.test: the diagnostic must name the
// call's line and the rule (and the value that breaks it).
#define SG __attribute__((intel_reqd_sub_group_size(16)))
#define OVL __attribute__((overloadable))
void intel_sub_group_2d_block_read_16b_8r16x1c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_16b_2r8x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_24b_8r16x1c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_8b_8r2x1c(global void *, int, int, int, int2, private uchar *);
void intel_sub_group_2d_block_read_transpose_32b_32r8x1c(global void *, int, int, int, int2, private uint *);
void intel_sub_group_2d_block_write_32b_8r16x2c(global void *, int, int, int, int2, private uint *);
void OVL intel_sub_group_2d_block_read_32b_8r16x1c(global void *, int, int, int, int2);
void OVL intel_sub_group_2d_block_read_32b_8r16x1c(global void *, long, int, int, int2, private uint *);
void OVL intel_sub_group_2d_block_read_32b_8r16x1c(global void *, int, int, int, long2, private uint *);
void OVL intel_sub_group_2d_block_read_32b_8r16x1c(local void *, int, int, int, int2, private uint *);
void OVL intel_sub_group_2d_block_read_32b_8r16x1c(global void *, int, int, int, int2, global uint *);
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const global void *, int, int, int, int2, private void *);

// Shapes.
SG kernel void elem_size(global ushort *a, global ushort *out) {
  ushort v[12];
  intel_sub_group_2d_block_read_24b_8r16x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void width_multiple(global uchar *a, global uchar *out) {
  uchar v[8];
  intel_sub_group_2d_block_read_8b_8r2x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

// On pvc these two are split into shapes the chip has; dg2 splits them the
// same way and runs each piece per lane.
SG kernel void lane_data(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_2r8x2c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void store_count(global uint *a) {
  uint v[16] = {0};
  intel_sub_group_2d_block_write_32b_8r16x2c(a, 128, 64, 128, (int2)(0, 0), v);
}

// The surface.
SG kernel void surface_width(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 130, 64, 144, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void surface_height(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 0, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void pitch_max(global ushort *a, global ushort *out) {
  ushort v[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 33554432, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void misaligned_base(global ushort *a, global ushort *out) {
  ushort v[8];
  global ushort *b = (global ushort *)__builtin_assume_aligned(a, 64);
  intel_sub_group_2d_block_read_16b_8r16x1c(b + 1, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

// Operand types.
SG kernel void arg_count(global uint *a) {
  intel_sub_group_2d_block_read_32b_8r16x1c(a, 128, 64, 128, (int2)(0, 0));
}

SG kernel void wide_width(global uint *a, global uint *out, long w) {
  uint v[8];
  intel_sub_group_2d_block_read_32b_8r16x1c(a, w, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void long_coord(global uint *a, global uint *out) {
  uint v[8];
  intel_sub_group_2d_block_read_32b_8r16x1c(a, 128, 64, 128, (long2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void local_base(local uint *a, global uint *out) {
  uint v[8];
  intel_sub_group_2d_block_read_32b_8r16x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void global_buffer(global uint *a, global uint *out) {
  intel_sub_group_2d_block_read_32b_8r16x1c(a, 128, 64, 128, (int2)(0, 0), out);
}

// A function that is not a kernel: its subgroup size and uniformity are
// the callers'.
__attribute__((noinline)) void helper(global ushort *a, global ushort *out, int n) {
  ushort v[8];
  if (n > 3)
    intel_sub_group_2d_block_read_16b_8r16x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

SG kernel void calls_helper(global ushort *a, global ushort *out, int n) {
  helper(a, out, n);
}

// Subgroup sizes (the SPIR-V spelling also takes 32 where 2D block
// hardware is).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void spirv_sg8(global ushort *a, global ushort *out) {
  ushort v[8];
  __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void spirv_sg32(global ushort *a, global ushort *out) {
  ushort v[8];
  __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

// dg2's per-lane fallback: a transpose of 32 rows, in the hardware's order.
SG kernel void tall_transpose(global uint *a, global uint *out) {
  uint v[16];
  intel_sub_group_2d_block_read_transpose_32b_32r8x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}

// A height that is not a power of two (what the hardware and IGC take).
void intel_sub_group_2d_block_read_16b_12r16x1c(global void *, int, int, int, int2, private ushort *);
SG kernel void rows12(global ushort *a, global ushort *out) {
  ushort v[12];
  intel_sub_group_2d_block_read_16b_12r16x1c(a, 128, 64, 128, (int2)(0, 0), v);
  out[get_global_id(0)] = v[0];
}
