// Work-group collective functions the Xe model runs
// (test/Xe/opencl-workgroup.test): in a one-dimensional grid of
// work-groups of one to three dimensions, each work-item g (its group's
// index times the local size plus its linear local id) reads
// element g of one input per type and writes 12 results per type (reduce,
// inclusive and exclusive scans of add, min and max, and the 1-, 2- and
// 3-D broadcasts of the work-item (BX, BY, BZ)), and the work-group's
// all/any of its int input. SG (16 or 32) is the subgroup size.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#ifndef SG
#define SG 16
#endif

#define ROW(T, IN, OUT)                                                        \
  {                                                                            \
    T X = IN[G];                                                               \
    global T *O = OUT + G * 12;                                                \
    O[0] = work_group_reduce_add(X);                                           \
    O[1] = work_group_reduce_min(X);                                           \
    O[2] = work_group_reduce_max(X);                                           \
    O[3] = work_group_scan_inclusive_add(X);                                   \
    O[4] = work_group_scan_inclusive_min(X);                                   \
    O[5] = work_group_scan_inclusive_max(X);                                   \
    O[6] = work_group_scan_exclusive_add(X);                                   \
    O[7] = work_group_scan_exclusive_min(X);                                   \
    O[8] = work_group_scan_exclusive_max(X);                                   \
    O[9] = work_group_broadcast(X, BX);                                        \
    O[10] = work_group_broadcast(X, BX, BY);                                   \
    O[11] = work_group_broadcast(X, BX, BY, BZ);                               \
  }

__attribute__((intel_reqd_sub_group_size(SG)))
kernel void collectives(global const int *I, global const uint *U,
                        global const long *L, global const ulong *UL,
                        global const float *F, global const double *D,
                        global const half *H, global int *OI, global uint *OU,
                        global long *OL, global ulong *OUL, global float *OF,
                        global double *OD, global half *OH, global int *Votes,
                        int BX, int BY, int BZ) {
  size_t G = get_group_id(0) * get_local_size(0) * get_local_size(1) *
                 get_local_size(2) +
             get_local_linear_id();
  ROW(int, I, OI)
  ROW(uint, U, OU)
  ROW(long, L, OL)
  ROW(ulong, UL, OUL)
  ROW(float, F, OF)
  ROW(double, D, OD)
  ROW(half, H, OH)
  Votes[G * 2] = work_group_all(I[G] & 1);
  Votes[G * 2 + 1] = work_group_any(U[G] == 7u);
}

// A collective inside a loop and a helper function: the work-group meets it
// again and again; each time every work-item gets its own work-group's sum.
int sumOf(int X) { return work_group_reduce_add(X); }

kernel void loop(global int *Out) {
  size_t G = get_global_id(0);
  int Acc = 0;
  for (int K = 0; K < 5; ++K)
    Acc = Acc * 3 + sumOf((int)get_local_id(0) + K);
  Out[G] = Acc;
}

// Errors: a collective only part of the work-group reaches, in a subgroup
// and across subgroups; two different collectives; a collective and a
// barrier; a broadcast whose local id is not uniform or is outside the
// work-group.
kernel void partial_subgroup(global int *Out) {
  size_t G = get_global_id(0);
  if (get_local_id(0) < 8)
    Out[G] = work_group_reduce_add(1);
}

kernel void partial_group(global int *Out) {
  size_t G = get_global_id(0);
  if (get_local_id(0) < 16)
    Out[G] = work_group_reduce_add(1);
}

kernel void two_collectives(global int *Out) {
  size_t G = get_global_id(0);
  if (get_sub_group_id() == 0)
    Out[G] = work_group_reduce_add(1);
  else
    Out[G] = work_group_reduce_max(1);
}

kernel void collective_barrier(global int *Out) {
  size_t G = get_global_id(0);
  if (get_sub_group_id() == 0)
    Out[G] = work_group_reduce_add(1);
  else
    barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void early_exit(global int *Out) {
  size_t G = get_global_id(0);
  if (get_sub_group_id() == 1)
    return;
  Out[G] = work_group_reduce_add(1);
}

kernel void broadcast_varying(global int *Out) {
  size_t G = get_global_id(0);
  Out[G] = work_group_broadcast(1, get_local_id(0) / 16);
}

kernel void broadcast_outside(global int *Out, int BX) {
  size_t G = get_global_id(0);
  Out[G] = work_group_broadcast(1, BX);
}
