// Kernels whose surfaces start at a run-time offset into a buffer, so the
// 2D block base is not 64-byte aligned unless the offset happens to make
// it so, and whose x is an argument (test/Xe/alignment-guards.test). A
// surface of W x H elements with a pitch of P elements starts Off
// elements into the buffer.
#include "crosslane/xe/block_io.h"

#define SG __attribute__((intel_reqd_sub_group_size(16)))
#define LANE get_sub_group_local_id()

// An 8 x 16 tile of 32-bit elements at (X, Y) into Out[lane][0..7], and
// stored back to the same place of a second surface.
SG kernel void copy32(global uint *In, global uint *Out, global uint *Frags,
                      int Off, int W, int H, int P, int X, int Y) {
  crosslane_xe_surface Src =
      crosslane_xe_surface_make(In + Off, W, H, P, sizeof(uint));
  crosslane_xe_surface Dst =
      crosslane_xe_surface_make(Out + Off, W, H, P, sizeof(uint));
  uint Frag[CROSSLANE_XE_LANE_BYTES(32, 8, 16, 1) / sizeof(uint)];
  CROSSLANE_XE_LOAD(Src, 32, 8, 16, 1, X, Y, Frag);
  CROSSLANE_XE_STORE(Dst, 32, 8, 16, X, Y, Frag);
  for (int I = 0; I < 8; ++I)
    Frags[LANE * 8 + I] = Frag[I];
}

// A 16 x 16 VNNI block of 16-bit elements at (X, Y): x must be even.
SG kernel void vnni16(global ushort *In, global uint *Frags, int Off, int W,
                      int H, int P, int X, int Y) {
  crosslane_xe_surface Src =
      crosslane_xe_surface_make(In + Off, W, H, P, sizeof(ushort));
  uint Frag[CROSSLANE_XE_LANE_BYTES_VNNI(16, 16, 16, 1) / sizeof(uint)];
  CROSSLANE_XE_LOAD_VNNI(Src, 16, 16, 16, 1, X, Y, Frag);
  for (int I = 0; I < 8; ++I)
    Frags[LANE * 8 + I] = Frag[I];
}
