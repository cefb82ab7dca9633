// A subgroup of 16 scales a tile of 8 rows x 16 floats, each lane its own
// column (an epilogue as kernels write it without a tile API). Crosslane
// forms one 2D block load and one 2D block store from the 8 + 8 per-lane
// accesses (In and Out are restrict, so moving the loads up past the
// stores is proven safe), behind a run-time guard on the pitch and the
// tile's alignment; the original accesses run where it fails.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void row_scale(global const float *restrict In,
                      global float *restrict Out, int Pitch, float Alpha) {
  int L = get_sub_group_local_id();
  int X = get_sub_group_id() * 16;
  int Y = get_group_id(1) * 8;
  for (int R = 0; R < 8; ++R)
    Out[(Y + R) * Pitch + X + L] = Alpha * In[(Y + R) * Pitch + X + L];
}
