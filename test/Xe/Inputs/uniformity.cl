// Uniformity cases for the 2D block IO validator (test/Xe/uniformity.test):
// values that are the same across a subgroup although work-item ids feed
// them (must be accepted at every optimisation level), and lane ids hidden
// where a simple look misses them (must be errors).
#define SG __attribute__((intel_reqd_sub_group_size(16)))
void intel_sub_group_2d_block_read_16b_8r16x1c(global void *, int, int, int, int2, private ushort *);

// Rows by get_local_id(1): x is 16 wide, so a subgroup is one row.
__attribute__((reqd_work_group_size(16, 4, 1))) SG
kernel void by_local_y(global ushort *A, global ushort *C) {
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, get_local_id(1) * 8), V);
  C[get_global_id(0)] = V[0];
}
// get_local_id(0) / 16: one value per aligned subgroup.
__attribute__((reqd_work_group_size(64, 1, 1))) SG
kernel void by_subgroup_index(global ushort *A, global ushort *C) {
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, (get_local_id(0) / 16) * 8), V);
  C[get_global_id(0)] = V[1];
}
// A persistent kernel: lane 0 takes a tile, the subgroup broadcasts it.
SG kernel void persistent(global ushort *A, global ushort *C, volatile global int *Next, int Tiles) {
  for (;;) {
    int T = 0;
    if (get_sub_group_local_id() == 0)
      T = atomic_inc(Next);
    T = sub_group_broadcast(T, 0);
    if (T >= Tiles)
      break;
    ushort V[8];
    intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 4096, 128, (int2)(0, T * 8), V);
    C[T * 16 + get_sub_group_local_id()] = V[0];
  }
}
// The geometry through an out-parameter helper (what -O0 keeps).
void geometry(int *W, int *H, int *P, int N) {
  *W = N * 2;
  *H = 64;
  *P = N * 2;
}
SG kernel void out_params(global ushort *A, global ushort *C, int N) {
  int W, H, P;
  geometry(&W, &H, &P, N);
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, W, H, P, (int2)(0, 0), V);
  C[get_global_id(0)] = V[2];
}
// The lane's id in a subgroup of 16, divided by 16 (always 0).
SG kernel void lane_over_sg(global ushort *A, global ushort *C) {
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, get_sub_group_local_id() / 16u), V);
  C[get_global_id(0)] = V[5];
}
// ... as an `int` (an sdiv, or InstCombine's ashr: the id is never negative).
SG kernel void signed_lane_over_sg(global ushort *A, global ushort *C) {
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, (int)get_sub_group_local_id() / 16), V);
  C[get_global_id(0)] = V[6];
}
#ifdef BAD
// ... divided by 8 instead: 0 or 1.
SG kernel void lane_over_8(global ushort *A, global ushort *C) {
  uint Lane = get_sub_group_local_id();
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, Lane / 8u), V);
  C[get_global_id(0)] = V[5];
}
// A lane id behind a call the compiler cannot inline.
__attribute__((noinline)) int my_row(void) { return get_local_id(0) % 8; }
SG kernel void hidden_lane(global ushort *A, global ushort *C) {
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, my_row()), V);
  C[get_global_id(0)] = V[3];
}
// x is a subgroup index times 8 but the work-group's x is not a multiple
// of 16: subgroups straddle rows.
__attribute__((reqd_work_group_size(24, 2, 1))) SG
kernel void straddling(global ushort *A, global ushort *C) {
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, get_local_id(1) * 8), V);
  C[get_global_id(0)] = V[4];
}
#endif

// A surface passed by address to a helper (-O0 keeps it in memory): the
// helper only reads it, so what the kernel then reads of it is uniform.
typedef struct {
  global ushort *Base;
  int Width, Height, Pitch;
} Surface;
__attribute__((noinline)) void load_from(const Surface *S, int Y,
                                         private ushort *V) {
  intel_sub_group_2d_block_read_16b_8r16x1c(S->Base, S->Width, S->Height,
                                            S->Pitch, (int2)(0, Y), V);
}
SG kernel void surface_by_address(global ushort *A, global ushort *C, int Y) {
  Surface S = {A, 128, 64, 128};
  ushort V[8], W[8];
  load_from(&S, Y, V);
  intel_sub_group_2d_block_read_16b_8r16x1c(S.Base, S.Width, S.Height, S.Pitch,
                                            (int2)(0, Y + 8), W);
  C[get_global_id(0)] = V[1] + W[2];
}
#ifdef BAD
// A helper that writes a lane's id into the surface.
__attribute__((noinline)) void set_height(Surface *S) {
  S->Height = get_sub_group_local_id() + 64;
}
SG kernel void surface_written(global ushort *A, global ushort *C) {
  Surface S = {A, 128, 64, 128};
  ushort W[8];
  set_height(&S);
  intel_sub_group_2d_block_read_16b_8r16x1c(S.Base, S.Width, S.Height, S.Pitch,
                                            (int2)(0, 0), W);
  C[get_global_id(0)] = W[2];
}
#endif
#ifdef BAD
// A pointer to the surface kept in another struct, and a lane id written
// through it; then the same through two helpers, one keeping the pointer
// and one writing through it (at -O0 nothing is promoted to registers).
typedef struct {
  Surface *S;
} Holder;
SG kernel void through_holder(global ushort *A, global ushort *C) {
  Surface S = {A, 128, 64, 128};
  Holder H = {&S};
  H.S->Width = 128 + get_sub_group_local_id();
  ushort W[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(S.Base, S.Width, S.Height, S.Pitch,
                                            (int2)(0, 0), W);
  C[get_global_id(0)] = W[1];
}
__attribute__((noinline)) void keep(Holder *H, Surface *S) { H->S = S; }
__attribute__((noinline)) void widen(Holder *H) {
  H->S->Width = 128 + get_sub_group_local_id();
}
SG kernel void through_helpers(global ushort *A, global ushort *C) {
  Surface S = {A, 128, 64, 128};
  Holder H;
  keep(&H, &S);
  widen(&H);
  ushort W[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(S.Base, S.Width, S.Height, S.Pitch,
                                            (int2)(0, 0), W);
  C[get_global_id(0)] = W[1];
}
#endif
// A row every lane takes from one lane (lane 3's): the same in every lane.
SG kernel void shuffled_from_lane(global ushort *A, global ushort *C,
                                  global const int *Rows) {
  int Row = Rows[get_sub_group_local_id()];
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, sub_group_shuffle(Row, 3)), V);
  C[get_global_id(0)] = V[3];
}
#ifdef BAD
// ... from the neighbouring lane instead: differs between lanes.
SG kernel void shuffled_from_neighbour(global ushort *A, global ushort *C,
                                       global const int *Rows) {
  int Row = Rows[get_sub_group_local_id()];
  ushort V[8];
  intel_sub_group_2d_block_read_16b_8r16x1c(A, 128, 64, 128, (int2)(0, sub_group_shuffle(Row, get_sub_group_local_id() ^ 1)), V);
  C[get_global_id(0)] = V[3];
}
#endif
