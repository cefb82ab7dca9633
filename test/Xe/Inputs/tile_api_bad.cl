// Shapes a chip lacks, named through the tile API
// (include/crosslane/xe/block_io.h), for test/Xe/tile-api-diag.test: the
// diagnostic must point at the line of the macro call here, not into the
// header. The header declares only the guaranteed shapes; these two are
// declared with its CROSSLANE_XE_DECLARE_* macros.
#include "crosslane/xe/block_io.h"

#define SG __attribute__((intel_reqd_sub_group_size(16)))

// Xe2's 32-wide 16-bit VNNI load (pvc's VNNI loads are at most 16 wide).
CROSSLANE_XE_DECLARE_LOAD_VNNI(16, 16, 32, 1)
// A 32-wide 32-bit store (128-byte rows: at most 64 on every chip).
CROSSLANE_XE_DECLARE_STORE(32, 8, 32, uint)

SG kernel void wide_vnni(global ushort *B, global uint *Out, int Y) {
  crosslane_xe_surface S =
      crosslane_xe_surface_make(B, 64, 64, 64, sizeof(ushort));
  uint Frag[CROSSLANE_XE_LANE_BYTES_VNNI(16, 16, 32, 1) / sizeof(uint)];
  CROSSLANE_XE_LOAD_VNNI(S, 16, 16, 32, 1, 0, Y, Frag);
  for (int I = 0; I < 16; ++I)
    Out[get_sub_group_local_id() * 16 + I] = Frag[I];
}

SG kernel void wide_store(global uint *C, int Y) {
  crosslane_xe_surface S = crosslane_xe_surface_make(C, 64, 64, 64, 4);
  uint Frag[CROSSLANE_XE_LANE_BYTES(32, 8, 32, 1) / sizeof(uint)];
  for (int I = 0; I < 16; ++I)
    Frag[I] = I;
  CROSSLANE_XE_STORE(S, 32, 8, 32, 0, Y, Frag);
}

// A guaranteed shape with an odd x for 16-bit elements.
SG kernel void odd_x(global ushort *A, global ushort *Out, int X) {
  crosslane_xe_surface S = crosslane_xe_surface_make(A, 64, 64, 64, 2);
  ushort Frag[CROSSLANE_XE_LANE_BYTES(16, 8, 16, 1) / sizeof(ushort)];
  CROSSLANE_XE_LOAD(S, 16, 8, 16, 1, 2 * X + 1, 0, Frag);
  Out[get_sub_group_local_id()] = Frag[0];
}
