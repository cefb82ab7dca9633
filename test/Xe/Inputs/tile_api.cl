// Kernels written against include/crosslane/xe/block_io.h, run by the
// executor's Xe model (test/Xe/tile-api-exec.test, tile-api-bounds.test).
// Each 16-bit surface is 40 elements x 24 rows in a buffer 64 elements
// wide and 32 rows high; each 32-bit one 20 x 24 in a 32 x 32 buffer. The
// buffer cells outside the surface hold data too, so a load that reads
// them instead of 0, or a store that writes them, shows.
#include "crosslane/xe/block_io.h"

#define SG __attribute__((intel_reqd_sub_group_size(16)))
#define LANE get_sub_group_local_id()

static crosslane_xe_surface surface16(global ushort *Base) {
  return crosslane_xe_surface_make(Base, 40, 24, 64, sizeof(ushort));
}

static crosslane_xe_surface surface32(global uint *Base) {
  return crosslane_xe_surface_make(Base, 20, 24, 32, sizeof(uint));
}

// An 8 x 32 tile (two 8 x 16 blocks) from In to Out at (X, Y); each lane's
// fragment also goes to Frags[lane][0..15].
SG kernel void copy(global ushort *In, global ushort *Out, global ushort *Frags,
                    int X, int Y) {
  crosslane_xe_surface Src = surface16(In), Dst = surface16(Out);
  ushort Frag[CROSSLANE_XE_LANE_BYTES(16, 8, 16, 2) / sizeof(ushort)];
  CROSSLANE_XE_LOAD(Src, 16, 8, 16, 2, X, Y, Frag);
  CROSSLANE_XE_STORE(Dst, 16, 8, 16, X, Y, Frag);
  CROSSLANE_XE_STORE(Dst, 16, 8, 16, X + 16, Y, Frag + 8);
  for (int I = 0; I < 16; ++I)
    Frags[LANE * 16 + I] = Frag[I];
}

// A 16 x 16 block VNNI-packed; Out[lane][k] = {low half, high half} of the
// lane's uint k.
SG kernel void vnni(global ushort *In, global ushort *Out, int X, int Y) {
  crosslane_xe_surface B = surface16(In);
  uint Frag[CROSSLANE_XE_LANE_BYTES_VNNI(16, 16, 16, 1) / sizeof(uint)];
  CROSSLANE_XE_LOAD_VNNI(B, 16, 16, 16, 1, X, Y, Frag);
  for (int K = 0; K < 8; ++K) {
    Out[(LANE * 8 + K) * 2] = Frag[K] & 0xffff;
    Out[(LANE * 8 + K) * 2 + 1] = Frag[K] >> 16;
  }
}

// A 16-row x 8-column block of 32-bit elements, transposed;
// Out[lane][j] = the lane's element j.
SG kernel void transposed(global uint *In, global uint *Out, int X, int Y) {
  crosslane_xe_surface C = surface32(In);
  uint Frag[CROSSLANE_XE_LANE_BYTES_TRANSPOSED(32, 16, 8, 1) / sizeof(uint)];
  CROSSLANE_XE_LOAD_TRANSPOSED(C, 32, 16, 8, 1, X, Y, Frag);
  for (int J = 0; J < 8; ++J)
    Out[LANE * 8 + J] = Frag[J];
}
