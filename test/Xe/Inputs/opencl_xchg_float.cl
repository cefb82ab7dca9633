// atomic_xchg and atom_xchg on float as the Xe model runs them
// (test/Xe/opencl-xchg-float.test): the OpenCL 1.x forms on global and
// local pointers, and (with -DGENERIC) generic ones. Each subgroup s
// exchanges into its own objects: Obj[5 s + k] for form k (global twice,
// atom_xchg, local initialised from Obj, global with a third of the
// work-items inactive), work-item G offering V[5 G + k] and writing what
// it got back to Old[5 G + k].
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable

// cl_khr_global_int32_base_atomics' float form, which clang's header
// leaves out.
float __attribute__((overloadable)) atom_xchg(volatile global float *,
                                              float);
#ifdef GENERIC
// The generic overload (OpenCL C 3.0 §6.15.12.9), which clang's header
// declares for C++ for OpenCL only; with it clang picks it for the global
// and local pointers too.
float __attribute__((overloadable)) atomic_xchg(volatile float *, float);
#endif

kernel void xchg(global float *Obj, global const float *V, global float *Old,
                 volatile local float *L) {
  size_t G = get_global_id(0);
  uint S = (uint)get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
  uint LS = get_sub_group_id();
  // Volatile, as the overloads' parameters are: an exact match.
  volatile global float *O = Obj + 5 * S;
  const global float *W = V + 5 * G;
  global float *R = Old + 5 * G;
  if (get_sub_group_local_id() == 0)
    L[LS] = O[3];
  barrier(CLK_LOCAL_MEM_FENCE);
  R[0] = atomic_xchg(O, W[0]);
  R[1] = atomic_xchg(O + 1, W[1]);
  R[2] = atom_xchg(O + 2, W[2]);
  R[3] = atomic_xchg(L + LS, W[3]);
  if (G % 3 != 1)
    R[4] = atomic_xchg(O + 4, W[4]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0)
    O[3] = L[LS];
}
