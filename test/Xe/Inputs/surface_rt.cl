// A 2D block load whose surface comes from the host (test/Xe/executor-surface.test).
void intel_sub_group_2d_block_read_32b_8r16x1c(global void *, int, int, int, int2, private uint *);
__attribute__((intel_reqd_sub_group_size(16)))
kernel void surface_rt(global uint *A, global uint *Out, int W, int H, int P) {
  uint V[8];
  intel_sub_group_2d_block_read_32b_8r16x1c(A, W, H, P, (int2)(0, 0), V);
  for (int I = 0; I < 8; ++I)
    Out[get_sub_group_local_id() * 8 + I] = V[I];
}
