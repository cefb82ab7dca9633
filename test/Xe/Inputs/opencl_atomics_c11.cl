// C11-style atomic functions the Xe model runs
// (test/Xe/opencl-atomics-c11.test). Subgroup s of the launch works on
// its own 16 objects of each type, in global memory (O* + s * 16) and, for
// int, in local memory too, so that the results depend only on the order
// of the lanes of a subgroup: work-item g applies its value V[g] and
// expected value E[g] and writes the 16 results R[g * 16 + k]. SG (16 or
// 32) is the subgroup size.
#ifndef SG
#define SG 16
#endif

#define OPS(T, A, O, V, E, R)                                                  \
  {                                                                            \
    T X = V[G], Want = E[G];                                                   \
    global T *Res = R + G * 16;                                                \
    atomic_init(&O[14], (T)100);                                               \
    Res[0] = atomic_fetch_add(&O[0], X);                                       \
    Res[1] = atomic_fetch_sub_explicit(&O[1], X, memory_order_relaxed);        \
    Res[2] = atomic_fetch_or(&O[2], X);                                        \
    Res[3] = atomic_fetch_xor_explicit(&O[3], X, memory_order_seq_cst,         \
                                       memory_scope_work_group);               \
    Res[4] = atomic_fetch_and(&O[4], X);                                       \
    Res[5] = atomic_fetch_min(&O[5], X);                                       \
    Res[6] = atomic_fetch_max_explicit(&O[6], X, memory_order_acq_rel);        \
    Res[7] = atomic_exchange(&O[7], X);                                        \
    T Exp = Want;                                                              \
    Res[8] = atomic_compare_exchange_strong(&O[8], &Exp, X);                   \
    Res[9] = Exp;                                                              \
    Exp = Want;                                                                \
    Res[10] = atomic_compare_exchange_weak_explicit(                           \
        &O[9], &Exp, X, memory_order_acq_rel, memory_order_acquire,            \
        memory_scope_device);                                                  \
    Res[11] = Exp;                                                             \
    atomic_store(&O[10], X);                                                   \
    Res[12] = atomic_load(&O[10]);                                             \
    atomic_store_explicit(&O[11], X ^ Want, memory_order_release);             \
    Res[13] = atomic_load_explicit(&O[11], memory_order_acquire,               \
                                   memory_scope_work_group);                   \
    Res[14] = atomic_exchange_explicit(&O[14], X, memory_order_relaxed);       \
    Res[15] = atomic_load_explicit(&O[0], memory_order_relaxed);               \
  }

__attribute__((intel_reqd_sub_group_size(SG)))
kernel void c11(global atomic_int *OI, global atomic_uint *OU,
                global atomic_long *OL, global atomic_ulong *OUL,
                global atomic_float *OF, global atomic_double *OD,
                global const int *VI, global const uint *VU,
                global const long *VL, global const ulong *VUL,
                global const float *VF, global const double *VD,
                global const int *EI, global const uint *EU,
                global const long *EL, global const ulong *EUL,
                global const float *EF, global const double *ED,
                global int *RI, global uint *RU, global long *RL,
                global ulong *RUL, global float *RF, global double *RD,
                global int *RLocal, global atomic_int *Flags) {
  size_t G = get_global_id(0);
  size_t S = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
  unsigned Lane = get_sub_group_local_id();
  OPS(int, atomic_int, (OI + S * 16), VI, EI, RI)
  OPS(uint, atomic_uint, (OU + S * 16), VU, EU, RU)
  OPS(long, atomic_long, (OL + S * 16), VL, EL, RL)
  OPS(ulong, atomic_ulong, (OUL + S * 16), VUL, EUL, RUL)
  // atomic_float and atomic_double: init, store, load, exchange and
  // compare-exchange (bits compared).
  {
    global atomic_float *O = OF + S * 4;
    global float *Res = RF + G * 4;
    atomic_init(&O[0], 0.5f);
    Res[0] = atomic_exchange(&O[0], VF[G]);
    float Exp = EF[G];
    Res[1] = atomic_compare_exchange_strong(&O[1], &Exp, VF[G]);
    Res[2] = Exp;
    atomic_store(&O[2], VF[G]);
    Res[3] = atomic_load(&O[2]);
  }
  {
    global atomic_double *O = OD + S * 4;
    global double *Res = RD + G * 4;
    atomic_init(&O[0], -0.25);
    Res[0] = atomic_exchange_explicit(&O[0], VD[G], memory_order_seq_cst);
    double Exp = ED[G];
    Res[1] = atomic_compare_exchange_weak(&O[1], &Exp, VD[G]);
    Res[2] = Exp;
    atomic_store(&O[2], VD[G]);
    Res[3] = atomic_load(&O[2]);
  }
  // Local memory: the int objects' first values copied in, the same
  // operations.
  local atomic_int Local[4 * 16];
  local atomic_int *L = Local + get_sub_group_id() * 16;
  if (Lane < 16)
    atomic_init(&L[Lane], atomic_load(&OI[S * 16 + Lane]) ^ 0x5a5a);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  OPS(int, atomic_int, L, VI, EI, RLocal)
  // atomic_flag: lane order decides who finds it set; lane 3 clears it.
  global atomic_flag *F = (global atomic_flag *)(Flags + S);
  RLocal[G * 16 + 15] = atomic_flag_test_and_set(F);
  if (Lane == 3)
    atomic_flag_clear_explicit(F, memory_order_release);
  RLocal[G * 16 + 14] = atomic_flag_test_and_set_explicit(
      F, memory_order_acq_rel, memory_scope_work_group);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst,
                         memory_scope_device);
}

// Errors: an atomic load of memory nobody wrote, a poison operand.
kernel void c11_uninit(global int *Out) {
  local atomic_int Obj;
  Out[get_global_id(0)] = atomic_load(&Obj);
}

kernel void c11_poison(global atomic_int *Obj) {
  int Undefined;
  atomic_fetch_add(Obj, Undefined);
}
