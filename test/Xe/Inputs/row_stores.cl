// Kernels that store the rows of a tile lane by lane (test/Xe/form-stores.test),
// and near misses.
#define SG16 __attribute__((intel_reqd_sub_group_size(16)))

// Eight rows of floats; row R of the tile at (X, Y + R), pitch P.
SG16 kernel void store_rows_f32(global float *A, global const float *In, int P,
                                int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  for (int R = 0; R < 8; ++R)
    A[(Y + R) * P + X + L] = V * (R + 1);
}

// Four rows of ushorts, indexed by the global id.
SG16 __attribute__((reqd_work_group_size(32, 1, 1))) kernel void
store_rows_gid(global ushort *A, global const ushort *In, int P, int Y) {
  size_t G = get_global_id(0);
  ushort V = In[G];
#pragma unroll
  for (int R = 0; R < 4; ++R)
    A[(size_t)(Y + R) * P + G] = V + R;
}

// Sixteen rows of bytes: two stores of eight rows (a store takes 8).
SG16 kernel void store_rows_u8(global uchar *A, global const uchar *In, int P,
                               int X, int Y) {
  int L = get_sub_group_local_id();
  uchar V = In[get_global_id(0)];
#pragma unroll
  for (int R = 0; R < 16; ++R)
    A[(Y + R) * P + X + L] = V ^ R;
}

// Twelve rows of floats: stores of 8 and 4 rows.
SG16 kernel void store_rows_12(global float *A, global const float *In, int P,
                               int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
#pragma unroll
  for (int R = 0; R < 12; ++R)
    A[(Y + R) * P + X + L] = V - R;
}

// Near miss: a load between the rows (it reads a row stored before it).
SG16 kernel void load_between(global float *A, global float *Out, int P) {
  int L = get_sub_group_local_id();
  A[L] = 1.0f;
  float S = A[P + L - 1];
  A[P + L] = 2.0f;
  Out[get_global_id(0)] = S;
}

// The lane's id asked for in every row's index (clang keeps one call per
// row): the pass makes them one query at the entry first. Stores, loads,
// and loads in a loop.
SG16 kernel void store_rows_lid_calls(global float *A, global const float *In,
                                      int P, int X, int Y) {
  float V = In[get_global_id(0)];
  for (int R = 0; R < 8; ++R)
    A[(Y + R) * P + X + get_sub_group_local_id()] = V + R;
}
SG16 kernel void load_rows_lid_calls(global const float *A, global float *Out,
                                     int P, int X, int Y) {
  float S = 0;
  for (int R = 0; R < 8; ++R)
    S += A[(Y + R) * P + X + get_sub_group_local_id()] * (R + 1);
  Out[get_global_id(0)] = S;
}
SG16 kernel void load_loop_lid_calls(global const float *A, global float *Out,
                                     int P, int X, int Y) {
  float S = 0;
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    S += A[(Y + R) * P + X + get_sub_group_local_id()] * (R + 1);
  Out[get_global_id(0)] = S;
}

// A row per iteration of a loop clang keeps: the rows go to a private
// fragment and one 2D store writes the tile as the loop exits.
SG16 kernel void store_loop_f32(global float *A, global const float *In, int P,
                                int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    A[(Y + R) * P + X + L] = V * (R + 1) + 0.5f;
}

// Sixteen rows of ushorts and twelve of floats in loops: stores of eight
// rows and fewer.
SG16 kernel void store_loop_u16(global ushort *A, global const ushort *In,
                                int P, int X, int Y) {
  int L = get_sub_group_local_id();
  ushort V = In[get_global_id(0)];
#pragma unroll 1
  for (int R = 0; R < 16; ++R)
    A[(Y + R) * P + X + L] = V * 3 + R;
}
SG16 kernel void store_loop_12(global float *A, global const float *In, int P,
                               int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  float Acc = 0;
#pragma unroll 1
  for (int R = 0; R < 12; ++R) {
    Acc = Acc * 0.5f + V;
    A[(Y + R) * P + X + L] = Acc;
  }
}

// Near miss: the loop reads global memory (a later row could read what
// an earlier one stored).
SG16 kernel void store_loop_reads(global float *A, int P, int X, int Y) {
  int L = get_sub_group_local_id();
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    A[(Y + R + 1) * P + X + L] = A[(Y + R) * P + X + L] + 1.0f;
}

// Two blocks side by side (lane L writes elements L and L + 16 of each
// row), their stores interleaved: a store takes one block, so one guard
// (with a pitch of two blocks at least, where no row of one block can
// overlap a row of the other) and a 2D store per block.
SG16 kernel void store_2blocks_f32(global float *A, global const float *In,
                                   int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  for (int R = 0; R < 4; ++R) {
    A[(Y + R) * P + X + L] = V + R;
    A[(Y + R) * P + X + L + 16] = V - R;
  }
}

// A loop under a uniform `if` (the block after the loop is also the `if`'s
// join): the 2D store goes on the loop's own edge out.
SG16 kernel void store_loop_in_if(global float *A, global const float *In,
                                  int P, int X, int Y, int M) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  if (Y < M) {
#pragma unroll 1
    for (int R = 0; R < 8; ++R)
      A[(Y + R) * P + X + L] = V * R;
  }
}

// Near miss: the rows of one iteration go to one buffer, of another to
// another (a base chosen in the loop is not one surface).
SG16 kernel void store_loop_switch_base(global float *A, global float *B,
                                        int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = (float)get_global_id(0);
#pragma unroll 1
  for (int R = 0; R < 8; ++R) {
    global float *D = R < 4 ? A : B;
    D[(Y + R) * P + X + L] = V + R;
  }
}

// A pointer bumped by the pitch each iteration (CLBlast-style), stores and
// loads: the rows are offsets from the pointer's start.
SG16 kernel void store_loop_bump(global float *A, global const float *In,
                                 int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  global float *Row = A + Y * P + X;
#pragma unroll 1
  for (int R = 0; R < 8; ++R) {
    Row[L] = V + R;
    Row += P;
  }
}
SG16 kernel void load_loop_bump(global const float *A, global float *Out,
                                int P, int X, int Y) {
  int L = get_sub_group_local_id();
  const global float *Row = A + Y * P + X;
  float S = 0;
#pragma unroll 1
  for (int R = 0; R < 8; ++R) {
    S = S * 0.5f + Row[L];
    Row += P;
  }
  Out[get_global_id(0)] = S;
}

// Blocks side by side in a loop, a store per block in each iteration: two
// blocks of floats, four of ushorts (the stores in any order).
SG16 kernel void store_loop_2blocks(global float *A, global const float *In,
                                    int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
#pragma unroll 1
  for (int R = 0; R < 8; ++R) {
    A[(Y + R) * P + X + L] = V + R;
    A[(Y + R) * P + X + L + 16] = V * R;
  }
}
SG16 kernel void store_loop_4blocks(global ushort *A,
                                    global const ushort *In, int P, int X,
                                    int Y) {
  int L = get_sub_group_local_id();
  ushort V = In[get_global_id(0)];
#pragma unroll 1
  for (int R = 0; R < 4; ++R) {
    global ushort *Row = A + (Y + R) * P + X + L;
    Row[32] = V + 2 * R;
    Row[0] = V + R;
    Row[48] = V ^ R;
    Row[16] = V - R;
  }
}

// Near miss: a gap between the blocks (L and L + 32): the other store is
// not a block of the tile, and may write a row of it.
SG16 kernel void store_loop_gap(global float *A, global const float *In,
                                int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  global float *Row = A + Y * P + X + L;
#pragma unroll 1
  for (int R = 0; R < 8; ++R, Row += P) {
    Row[32] = V * R;
    Row[0] = V - R;
  }
}

// A pointer bumped by the pitch, unrolled at -O2 (each row's address a
// GEP of the previous row's).
SG16 kernel void store_bump_unrolled(global float *A, global const float *In,
                                     int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  global float *Dst = A + Y * P + X;
  for (int R = 0; R < 8; ++R, Dst += P)
    Dst[L] = V * (R - 3);
}

// restrict arguments: the loads of Src and the stores to Dst interleave,
// and neither may touch the other's tile, so both become 2D operations,
// unrolled and in a loop. Two outputs of one loop under an `if` share the
// loop's edge out; two interleaved unrolled outputs are formed in order.
// Without restrict (copy_may_alias) nothing is formed.
SG16 kernel void copy_restrict(global const float *restrict Src,
                               global float *restrict Dst, int P, int X,
                               int Y) {
  int L = get_sub_group_local_id();
  for (int R = 0; R < 8; ++R)
    Dst[(Y + R) * P + X + L] = Src[(Y + R) * P + X + L] * 2.0f;
}
SG16 kernel void copy_may_alias(global const float *Src, global float *Dst,
                                int P, int X, int Y) {
  int L = get_sub_group_local_id();
  for (int R = 0; R < 8; ++R)
    Dst[(Y + R) * P + X + L] = Src[(Y + R) * P + X + L] - 1.0f;
}
SG16 kernel void copy_restrict_loop(global const ushort *restrict Src,
                                    global ushort *restrict Dst, int P, int X,
                                    int Y) {
  int L = get_sub_group_local_id();
#pragma unroll 1
  for (int R = 0; R < 8; ++R)
    Dst[(Y + R) * P + X + L] = Src[(Y + R) * P + X + L] ^ (ushort)R;
}
SG16 kernel void two_outputs_loop(global const float *restrict In,
                                  global float *restrict Lo,
                                  global float *restrict Hi, int P, int X,
                                  int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  if (P > 0) {
#pragma unroll 1
    for (int R = 0; R < 8; ++R) {
      Lo[(Y + R) * P + X + L] = V - R;
      Hi[(Y + R) * P + X + L] = V + R;
    }
  }
}
SG16 kernel void two_outputs(global const float *restrict In,
                             global float *restrict Lo,
                             global float *restrict Hi, int P, int X, int Y) {
  int L = get_sub_group_local_id();
  for (int R = 0; R < 4; ++R) {
    float V = In[(Y + R) * P + X + L];
    Lo[(Y + R) * P + X + L] = V * 0.5f;
    Hi[(Y + R) * P + X + L] = V * V;
  }
}

// Near miss: the lane from get_local_id(0) and a pointer bumped by the
// pitch: with the lane taken out, scalar evolution writes row 0's offset
// in 34-bit arithmetic, which SPIR-V lacks.
SG16 __attribute__((reqd_work_group_size(32, 1, 1))) kernel void
store_lid_bump(global float *A, global const float *In, int P, int X, int Y) {
  int L = get_local_id(0);
  float V = In[0];
  global float *Dst = A + Y * P + X + L;
  for (int R = 0; R < 4; ++R, Dst += P)
    *Dst = V * R;
}

// Near miss: the lane from get_local_id(0) in a kernel with no
// reqd_work_group_size (the lane is the id mod 16 only when x is a
// multiple of 16).
SG16 kernel void store_lid_any_wg(global float *A, int P, int X, int Y) {
  int L = get_local_id(0);
  for (int R = 0; R < 4; ++R)
    A[(Y + R) * P + X + L] = R;
}

// A GEMM's epilogue (CLBlast's StoreResults): two blocks side by side,
// row by row, with the block's offset before the lane, unrolled and in a
// loop. -O2 addresses block 0 with 64-bit offsets and block 1 with a
// 32-bit index (`lane + 16 + trunc(offset)`), so where block 1 lies is
// checked at run time.
#define EPILOGUE_2BLOCKS(NAME, UNROLL)                                        \
  SG16 kernel void NAME(global float *C, global const float *In, int P,       \
                        int X, int Y) {                                        \
    int L = get_sub_group_local_id();                                          \
    float V = In[get_global_id(0)];                                            \
    _Pragma(UNROLL) for (int R = 0; R < 8; ++R) {                              \
      C[(Y + R) * P + X + L] = V * R;                                          \
      C[(Y + R) * P + X + 16 + L] = V - R;                                     \
    }                                                                          \
  }
EPILOGUE_2BLOCKS(epilogue_2blocks, "unroll")
EPILOGUE_2BLOCKS(epilogue_loop, "unroll 1")

// Four blocks unrolled.
SG16 kernel void epilogue_4blocks(global float *C, global const float *In,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
#pragma unroll
  for (int R = 0; R < 4; ++R) {
    C[(Y + R) * P + X + L] = V * R;
    C[(Y + R) * P + X + 16 + L] = V - R;
    C[(Y + R) * P + X + 32 + L] = V + R;
    C[(Y + R) * P + X + 48 + L] = R - V;
  }
}

// Block 1 is beside block 0 only while Y < 64: the run-time check must
// see that it is 16 elements further right from Y = 64 on (and the
// original stores run).
SG16 kernel void epilogue_shifted(global float *C, global const float *In,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
#pragma unroll
  for (int R = 0; R < 4; ++R) {
    C[(Y + R) * P + X + L] = V * R;
    C[(Y + R) * P + X + 16 + ((uint)Y >> 6) * 16 + L] = V - R;
  }
}

// Loops of two iterations (an `i1` phi counts them), one block and two.
SG16 kernel void store_loop_two(global float *C, global const float *In, int P,
                                int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
#pragma unroll 1
  for (int R = 0; R < 2; ++R) {
    V = V * V + 0.25f;
    C[(Y + R) * P + X + L] = V;
  }
}
SG16 kernel void store_loop_two_2blocks(global float *C, global const float *In,
                                        int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
#pragma unroll 1
  for (int R = 0; R < 2; ++R) {
    V = V * V + 0.25f;
    C[(Y + R) * P + X + L] = V;
    C[(Y + R) * P + X + 16 + L] = -V;
  }
}

// Rows written out from a pointer to the tile's row 0 (`o[k * P]`).
SG16 kernel void store_written_out(global float *C, global const float *In,
                                   int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  global float *O = C + Y * P + X + L;
  O[0] = V;
  O[P] = V + 1;
  O[2 * P] = V + 2;
  O[3 * P] = V + 3;
}

// Row pointers (image code): each row's address computed once, its two
// blocks indexed from it.
SG16 kernel void store_rowptr_u8(global uchar *C, global const uchar *In, int P,
                                 int X, int Y) {
  int L = get_sub_group_local_id();
  uchar V = In[get_global_id(0)];
#pragma unroll
  for (int R = 0; R < 8; ++R) {
    global uchar *Row = C + (Y + R) * P + X;
    Row[L] = V + R;
    Row[16 + L] = V ^ R;
  }
}
SG16 kernel void store_rowptr_f32(global float *C, global const float *In,
                                  int P, int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
#pragma unroll
  for (int R = 0; R < 8; ++R) {
    global float *Row = C + (Y + R) * P + X;
    Row[L] = V + R;
    Row[16 + L] = V * R;
  }
}

// Block 1 written through an int view of the same buffer: C lets a kernel
// do that, so the types prove nothing; the blocks are joined as blocks
// addressed two ways, where they lie checked at run time (with a pitch of
// 16 elements, block 1 of row R is block 0 of row R + 1).
SG16 kernel void store_int_view(global float *C, global const float *In, int P,
                                int X, int Y) {
  int L = get_sub_group_local_id();
  float V = In[get_global_id(0)];
  global int *Ci = (global int *)C;
#pragma unroll
  for (int R = 0; R < 8; ++R) {
    C[(Y + R) * P + X + L] = V * R;
    Ci[(Y + R) * P + X + 16 + L] = as_int(V + R);
  }
}
