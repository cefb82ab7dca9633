#define SG16 __attribute__((intel_reqd_sub_group_size(16)))
// OpenCL C built-ins outside subgroups (test/Xe/opencl-builtins.test).
SG16 kernel void builtins(global const int *In, volatile global int *Bins,
                          volatile global int *Stats, global int *Out,
                          volatile global long *Wide) {
  size_t G = get_global_id(0);
  int V = In[G] - 16; // -16 .. 15
  atomic_inc(&Bins[V & 7]);
  atomic_dec(&Bins[8]);
  atomic_add(&Stats[0], V);
  atomic_sub(&Stats[1], V);
  atomic_max(&Stats[2], V);
  atomic_min(&Stats[3], V);
  atomic_or(&Stats[4], 1 << (G & 31));
  atomic_or(&Stats[5], -1);
  atomic_and(&Stats[5], ~(1 << (G & 15)));
  atomic_xor(&Stats[6], (int)G * 3 + 1);
  atomic_min((volatile global uint *)&Stats[7], (uint)V);
  // The first lane in lane order takes the slot.
  int Old = atomic_cmpxchg(&Stats[8], 0, (int)G + 100);
  int Prev = atomic_xchg(&Stats[9], (int)G);
  atom_add(&Wide[0], (long)V << 33);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst,
                         memory_scope_work_group);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  Out[G] = mad24(V, 3, 7) + mul24(V, V) + (Old == 0 ? 1000 : 0) + Prev * 0;
}

// Undefined: a subgroup barrier only some work-items of the subgroup reach.
SG16 kernel void divergent_barrier(global int *Out) {
  if (get_sub_group_local_id() < 4)
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  Out[get_global_id(0)] = 1;
}

// Errors: an atomic on uninitialised local memory, and an atomic whose
// operand was read from it.
SG16 kernel void atomic_uninit(global int *Out) {
  local int T[16];
  Out[get_global_id(0)] = atomic_add(&T[get_sub_group_local_id()], 1);
}
SG16 kernel void atomic_poison(volatile global int *Out) {
  local int T[16];
  atomic_add(&Out[0], T[get_sub_group_local_id()]);
}
