// Xe part of `make bench` (bench/xe.py): the same tiles loaded three ways
// on PVC, one subgroup of 16 lanes: a 2D block read (cl_intel_subgroup_2d_
// block_io, lowered by crosslane-xe-block-io<lower=igc> for Debian 12's
// IGC), 1-D subgroup block reads (cl_intel_subgroups, one per row), and
// plain per-lane loads. Each kernel adds up what it loaded, so nothing is
// dead; bench/xe.py counts the global-memory load messages and the
// instructions in IGC's Gen assembly. clang (for the 2D kernels) gets
// -DONLY_2D; ocloc's own front end (for the others) -DNO_2D. Pitches are in elements; the surface
// is P elements wide and 64 rows high.
#define SG __attribute__((intel_reqd_sub_group_size(16)))
// The host allocates the matrices 64-byte aligned (USM and SVM allocations
// are); saying so lets crosslane-xe-block-io drop its run-time alignment
// guard and the per-lane fallback behind it, which would otherwise count
// here as static code.
#define ALIGNED64(P) __builtin_assume(((ulong)(P) & 63) == 0)
void intel_sub_group_2d_block_read_16b_8r16x2c(global void *, int, int, int, int2, private ushort *);
void intel_sub_group_2d_block_read_transform_16b_16r16x1c(global void *, int, int, int, int2, private uint *);

// A operand: two 8x16 blocks of 16-bit elements side by side (8 rows x 32).
#ifndef NO_2D
SG kernel void a_2d(global ushort *A, global uint *Out, int P, int Y) {
  ALIGNED64(A);
  ushort V[16];
  intel_sub_group_2d_block_read_16b_8r16x2c(A, P * 2, 64, P * 2, (int2)(0, Y), V);
  uint S = 0;
  for (int I = 0; I < 16; ++I)
    S += V[I];
  Out[get_global_id(0)] = S;
}
#endif

#ifndef ONLY_2D
SG kernel void a_1d(global ushort *A, global uint *Out, int P, int Y) {
  uint S = 0;
  for (int R = 0; R < 8; ++R) {
    S += intel_sub_group_block_read_us(A + (Y + R) * P);
    S += intel_sub_group_block_read_us(A + (Y + R) * P + 16);
  }
  Out[get_global_id(0)] = S;
}
#endif

#ifndef ONLY_2D
SG kernel void a_plain(global ushort *A, global uint *Out, int P, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
  for (int R = 0; R < 8; ++R)
    S += A[(Y + R) * P + L] + A[(Y + R) * P + 16 + L];
  Out[get_global_id(0)] = S;
}
#endif

// B operand: a 16x16 block of 16-bit elements, VNNI-packed (rows 2k and
// 2k+1 of a column in one dword).
#ifndef NO_2D
SG kernel void b_2d(global ushort *B, global uint *Out, int P, int Y) {
  ALIGNED64(B);
  uint V[8];
  intel_sub_group_2d_block_read_transform_16b_16r16x1c(B, P * 2, 64, P * 2, (int2)(0, Y), V);
  uint S = 0;
  for (int I = 0; I < 8; ++I)
    S ^= V[I];
  Out[get_global_id(0)] = S;
}
#endif

#ifndef ONLY_2D
SG kernel void b_1d(global ushort *B, global uint *Out, int P, int Y) {
  uint S = 0;
  for (int K = 0; K < 8; ++K) {
    uint Lo = intel_sub_group_block_read_us(B + (Y + 2 * K) * P);
    uint Hi = intel_sub_group_block_read_us(B + (Y + 2 * K + 1) * P);
    S ^= Lo | (Hi << 16);
  }
  Out[get_global_id(0)] = S;
}
#endif

#ifndef ONLY_2D
SG kernel void b_plain(global ushort *B, global uint *Out, int P, int Y) {
  int L = get_sub_group_local_id();
  uint S = 0;
  for (int K = 0; K < 8; ++K)
    S ^= (uint)B[(Y + 2 * K) * P + L] | ((uint)B[(Y + 2 * K + 1) * P + L] << 16);
  Out[get_global_id(0)] = S;
}
#endif

// One K step of a GEMM tile's inner loop: an A tile (8 rows x 32) and two
// VNNI B tiles (32 rows x 16).
#ifndef NO_2D
SG kernel void step_2d(global ushort *A, global ushort *B, global uint *Out, int P, int K0) {
  ALIGNED64(A);
  ALIGNED64(B);
  __builtin_assume((K0 & 31) == 0); // a K step starts at a multiple of 32
  ushort AV[16];
  uint B0[8], B1[8];
  intel_sub_group_2d_block_read_16b_8r16x2c(A, P * 2, 64, P * 2, (int2)(K0, 0), AV);
  intel_sub_group_2d_block_read_transform_16b_16r16x1c(B, P * 2, 64, P * 2, (int2)(0, K0), B0);
  intel_sub_group_2d_block_read_transform_16b_16r16x1c(B, P * 2, 64, P * 2, (int2)(0, K0 + 16), B1);
  uint S = 0;
  for (int I = 0; I < 8; ++I)
    S += AV[I] * (B0[I] & 0xffff) + AV[I + 8] * (B1[I] >> 16);
  Out[get_global_id(0)] = S;
}
#endif

#ifndef ONLY_2D
SG kernel void step_1d(global ushort *A, global ushort *B, global uint *Out, int P, int K0) {
  uint S = 0;
  for (int I = 0; I < 8; ++I) {
    uint A0 = intel_sub_group_block_read_us(A + I * P + K0);
    uint A1 = intel_sub_group_block_read_us(A + I * P + K0 + 16);
    uint B0 = intel_sub_group_block_read_us(B + (K0 + 2 * I) * P) |
              (intel_sub_group_block_read_us(B + (K0 + 2 * I + 1) * P) << 16);
    uint B1 = intel_sub_group_block_read_us(B + (K0 + 16 + 2 * I) * P) |
              (intel_sub_group_block_read_us(B + (K0 + 17 + 2 * I) * P) << 16);
    S += A0 * (B0 & 0xffff) + A1 * (B1 >> 16);
  }
  Out[get_global_id(0)] = S;
}
#endif

#ifndef ONLY_2D
SG kernel void step_plain(global ushort *A, global ushort *B, global uint *Out, int P, int K0) {
  int L = get_sub_group_local_id();
  uint S = 0;
  for (int I = 0; I < 8; ++I) {
    uint A0 = A[I * P + K0 + L], A1 = A[I * P + K0 + 16 + L];
    uint B0 = B[(K0 + 2 * I) * P + L] | ((uint)B[(K0 + 2 * I + 1) * P + L] << 16);
    uint B1 = B[(K0 + 16 + 2 * I) * P + L] | ((uint)B[(K0 + 17 + 2 * I) * P + L] << 16);
    S += A0 * (B0 & 0xffff) + A1 * (B1 >> 16);
  }
  Out[get_global_id(0)] = S;
}
#endif

