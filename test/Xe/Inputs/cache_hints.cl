// The tile API's cache controls (test/Xe/cache-hints.test). With
// -DNO_HINTS the same kernel without them.
#include "crosslane/xe/block_io.h"

__attribute__((intel_reqd_sub_group_size(16)))
kernel void copy(global ushort *In, global ushort *Out, int X, int Y) {
  crosslane_xe_surface A = crosslane_xe_surface_make(In, 64, 32, 64, 2);
  crosslane_xe_surface B = crosslane_xe_surface_make(Out, 64, 32, 64, 2);
  ushort F[CROSSLANE_XE_LANE_BYTES(16, 8, 16, 2) / 2];
#ifdef NO_HINTS
  CROSSLANE_XE_PREFETCH(A, 16, 8, 16, 2, X, Y + 8);
  CROSSLANE_XE_LOAD(A, 16, 8, 16, 2, X, Y, F);
  CROSSLANE_XE_STORE(B, 16, 8, 16, X, Y, F);
#else
  CROSSLANE_XE_PREFETCH_CC(A, 16, 8, 16, 2, X, Y + 8, CROSSLANE_XE_LOAD_CACHED,
                           CROSSLANE_XE_LOAD_CACHED);
  CROSSLANE_XE_LOAD_CC(A, 16, 8, 16, 2, X, Y, F, CROSSLANE_XE_LOAD_STREAMING,
                       CROSSLANE_XE_LOAD_CACHED);
  CROSSLANE_XE_STORE_CC(B, 16, 8, 16, X, Y, F, CROSSLANE_XE_STORE_UNCACHED,
                        CROSSLANE_XE_STORE_WRITE_BACK);
#endif
  CROSSLANE_XE_STORE(B, 16, 8, 16, X + 16, Y, F + 8);
}

#ifdef BAD
__attribute__((intel_reqd_sub_group_size(16)))
kernel void bad(global ushort *In, global ushort *Out, int X, int Y, int L1) {
  crosslane_xe_surface A = crosslane_xe_surface_make(In, 64, 32, 64, 2);
  crosslane_xe_surface B = crosslane_xe_surface_make(Out, 64, 32, 64, 2);
  ushort F[CROSSLANE_XE_LANE_BYTES(16, 8, 16, 1) / 2];
  CROSSLANE_XE_LOAD_CC(A, 16, 8, 16, 1, X, Y, F, CROSSLANE_XE_LOAD_CACHED,
                       CROSSLANE_XE_LOAD_STREAMING);
  CROSSLANE_XE_STORE_CC(B, 16, 8, 16, X, Y, F, CROSSLANE_XE_STORE_WRITE_BACK,
                        CROSSLANE_XE_STORE_UNCACHED);
  CROSSLANE_XE_LOAD_CC(A, 16, 8, 16, 1, X, Y, F, L1, CROSSLANE_XE_LOAD_CACHED);
  global ushort *P = __crosslane_xe_cache_controls(In, 1, 1);
  Out[get_sub_group_local_id()] = P[X];
}
#endif
