// OpenCL C kernels for the Xe model's subgroup builtins
// (test/Xe/subgroup-builtins.test). clang-22 declares none of them for
// spirv64, so they are declared here as OpenCL builtins are (overloadable).
#define OVL __attribute__((overloadable))
int OVL sub_group_reduce_add(int);
int OVL sub_group_scan_inclusive_max(int);
int OVL sub_group_scan_exclusive_add(int);
uint OVL sub_group_reduce_min(uint);
int OVL sub_group_shuffle(int, uint);
int OVL sub_group_shuffle_xor(int, uint);
int OVL intel_sub_group_shuffle_down(int, int, uint);
int OVL intel_sub_group_shuffle_up(int, int, uint);
int OVL sub_group_any(int);
int OVL sub_group_all(int);
int OVL sub_group_broadcast(int, uint);
uint OVL get_sub_group_local_id(void);
uint2 OVL intel_sub_group_block_read2(const global uint *);
void OVL intel_sub_group_block_write(global uint *, uint);
float8 OVL intel_sub_group_f16_f16_matrix_mad_k16(short8, int8, float8);
int8 OVL intel_sub_group_i8_i8_matrix_mad_k32(short8, int8, int8);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void ops(global int *In, global int *Out) {
  uint G = get_global_id(0), L = get_sub_group_local_id();
  int V = In[G];
  global int *O = Out + G * 10;
  O[0] = sub_group_reduce_add(V);
  O[1] = sub_group_scan_inclusive_max(V);
  O[2] = sub_group_scan_exclusive_add(V);
  O[3] = sub_group_reduce_min((uint)V);
  O[4] = sub_group_shuffle(V, 15 - L);
  O[5] = sub_group_shuffle_xor(V, 3);
  O[6] = intel_sub_group_shuffle_down(V, V + 1000, 3);
  O[7] = intel_sub_group_shuffle_up(V - 1000, V, 5);
  O[8] = sub_group_any(V > 90) + 2 * sub_group_all(V > -100);
  O[9] = sub_group_broadcast(V, 2);
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void blocks(global uint *In, global uint *Out) {
  uint Sg = get_global_id(0) / 16;
  uint2 V = intel_sub_group_block_read2(In + Sg * 32);
  intel_sub_group_block_write(Out + Sg * 32, V.s1);
  intel_sub_group_block_write(Out + Sg * 32 + 16, V.s0);
}

// The operand layouts of cl_intel_subgroup_matrix_multiply_accumulate for
// subgroups of 16, written with plain loads: A row m is spread over the
// lanes (16-bit: one element per lane; 8-bit: two), lane n holds column n
// of B packed by 32 bits (2 rows of 16-bit, 4 of 8-bit, low row in the low
// bits) and column n of C and D, row m in element m.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void dpas_f16(global const half *A, global const half *B,
                     global const float *C, global float *D) {
  uint N = get_sub_group_local_id();
  short8 a;
  int8 b;
  float8 c;
  for (int M = 0; M < 8; ++M) {
    a[M] = as_short(A[M * 16 + N]);
    c[M] = C[M * 16 + N];
    b[M] = (int)(ushort)as_short(B[2 * M * 16 + N]) |
           ((int)as_short(B[(2 * M + 1) * 16 + N]) << 16);
  }
  float8 d = intel_sub_group_f16_f16_matrix_mad_k16(a, b, c);
  for (int M = 0; M < 8; ++M)
    D[M * 16 + N] = d[M];
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void dpas_i8(global const char *A, global const char *B,
                    global const int *C, global int *D) {
  uint N = get_sub_group_local_id();
  short8 a;
  int8 b, c;
  for (int M = 0; M < 8; ++M) {
    a[M] = (short)((uchar)A[M * 32 + 2 * N] | ((uchar)A[M * 32 + 2 * N + 1] << 8));
    c[M] = C[M * 16 + N];
    int P = 0;
    for (int J = 0; J < 4; ++J)
      P |= (uchar)B[(4 * M + J) * 16 + N] << (8 * J);
    b[M] = P;
  }
  int8 d = intel_sub_group_i8_i8_matrix_mad_k32(a, b, c);
  for (int M = 0; M < 8; ++M)
    D[M * 16 + N] = d[M];
}

// Wrong: a subgroup reduction called by half the subgroup (undefined in
// OpenCL; the executor stops with an error).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void diverged(global int *In, global int *Out) {
  uint G = get_global_id(0);
  if (get_sub_group_local_id() < 8)
    Out[G] = sub_group_reduce_add(In[G]);
}
