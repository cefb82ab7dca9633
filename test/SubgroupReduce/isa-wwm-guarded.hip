// Guarded loads stay out of whole-wave code. Each kernel loads its value
// under `if (t < n)` and hands it to two or three Crosslane operations; no
// load (nor any other memory access) may run inside the whole-wave regions
// that LLVM's SIWholeQuadMode builds around the expansions, or lanes the
// guard switched off would load from their own addresses (and ballots of
// those loads would count them). LLVM 22 does that when register coalescing
// merges two values built from halves that share a constant half: its
// markDefs then also marks the earlier, dead partial definition
// (llvm-patches/0001). The expansion builds no such values: cluster-any
// tests work on 32-bit halves, argcmp passes 16-bit values to set.inactive
// at their own width, and 16-bit words for lane moves are sign-extended (on
// gfx11 a zero extension shares its zero half with the user's own, as in
// k_user_zext16).
// Before (f56998d): k_max_argmin, k_f64_strided, k_bf16 and k_user_zext16
// on gfx942/gfx90a/gfx950 and gfx1100 wave64 (there also k_f16_cmp_argmax),
// k_f16_cmp_argmax and k_user_zext16 on gfx1100 had the load in whole-wave
// code.
// REQUIRES: hip-headers
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -S %s -o %t/gfx942.s
// RUN: %python %S/wwm_check.py %t/gfx942.s | FileCheck %s
// RUN: %hipcc --offload-arch=gfx90a --cuda-device-only -O3 -S %s -o %t/gfx90a.s
// RUN: %python %S/wwm_check.py %t/gfx90a.s | FileCheck %s
// RUN: %hipcc --offload-arch=gfx950 --cuda-device-only -O2 -S %s -o %t/gfx950.s
// RUN: %python %S/wwm_check.py %t/gfx950.s | FileCheck %s
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only -O2 -S %s -o %t/gfx1100.s
// RUN: %python %S/wwm_check.py %t/gfx1100.s | FileCheck %s
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only -O2 -mwavefrontsize64 -S %s -o %t/gfx1100w64.s
// RUN: %python %S/wwm_check.py %t/gfx1100w64.s | FileCheck %s
// RUN: %hipcc --offload-arch=gfx1201 --cuda-device-only -O2 -S %s -o %t/gfx1201.s
// RUN: %python %S/wwm_check.py %t/gfx1201.s | FileCheck %s
// CHECK: kernels=8 without-regions=0 with-memory-in-wwm=0
//
// The checker finds the defect in LLVM 22's output for the old expansion.
// RUN: not %python %S/wwm_check.py %S/Inputs/wwm-load-in-region.s | FileCheck %s --check-prefix=OLD
// OLD: k: regions={{[0-9]+}} memory=2
// OLD-NEXT: s_load_dwordx4
// OLD-NEXT: global_load_dword v3, v2, s[0:1]
// OLD: kernels=1 without-regions=0 with-memory-in-wwm=1
#include <hip/hip_runtime.h>
#include <crosslane/hip/crosslane.h>

__device__ bool greater_h(_Float16 A, _Float16 B) { return A > B; }
__device__ bool greater_s(short A, short B) { return A > B; }
__device__ bool greater_f(float A, float B) { return A > B; }

extern "C" __global__ void k_max_argmin(const float *In, float *O, int *I,
                                        int N) {
  int T = threadIdx.x;
  if (T < N) {
    float V = In[T];
    O[T] = crosslane::reduce_max<16>(V);
    I[T] = crosslane::argmin<16>(V, T).index;
  }
}

extern "C" __global__ void k_f16_cmp_argmax(const _Float16 *In, int *I,
                                            int N) {
  int T = threadIdx.x;
  if (T < N) {
    _Float16 V = In[T];
    I[T] = crosslane::argcmp<greater_h, 16>(V, T).index;
    I[T + 64] = crosslane::argmax<4>(V, T).index;
  }
}

extern "C" __global__ void k_f64_strided(const double *In, double *O, int *I,
                                         int N) {
  int T = threadIdx.x;
  if (T < N) {
    double V = In[T];
    O[T] = crosslane::reduce_min<4, 8>(V);
    I[T] = crosslane::argmax<4, 8, CROSSLANE_NAN_WINS>(V, T).index;
  }
}

extern "C" __global__ void k_i16(const short *In, short *O, int *I, int N) {
  int T = threadIdx.x;
  if (T < N) {
    short V = In[T];
    O[T] = crosslane::reduce_max<8, 2>(V);
    I[T] = crosslane::argcmp<greater_s, 8>(V, T).index;
    I[T + 64] = crosslane::argmin<16>(V, T).index;
  }
}

extern "C" __global__ void k_bf16(const __bf16 *In, float *O, int *I, int N) {
  int T = threadIdx.x;
  if (T < N) {
    __bf16 V = In[T];
    O[T] = (float)crosslane::reduce_maximum<16>(V);
    I[T] = crosslane::argmin<16, 2, CROSSLANE_NAN_WINS>(V, T).index;
    O[T + 64] = (float)crosslane::reduce_add<8>(V);
  }
}

extern "C" __global__ void k_i64_loaded_index(const long long *In,
                                              const long long *Ix,
                                              long long *O, int N) {
  int T = threadIdx.x;
  if (T < N) {
    long long V = In[T];
    O[T] = crosslane::reduce_or<16, 2>(V);
    O[T + 64] = crosslane::argmax<16, 2>(V, Ix[T]).index;
  }
}

extern "C" __global__ void k_three(const float *In, float *O, int *I, int N) {
  int T = threadIdx.x;
  if (T < N) {
    float V = In[T];
    I[T] = crosslane::argmax<32>(V, T).index;
    O[T] = crosslane::reduce_min<4, 8>(V);
    I[T + 64] = crosslane::argcmp<greater_f, 8>(V, T).index;
  }
}

extern "C" __global__ void k_user_zext16(const _Float16 *In, double *O,
                                         int N) {
  int T = threadIdx.x;
  if (T < N) {
    _Float16 V = In[T];
    O[T] = (double)crosslane::reduce_max<4>(V);
    O[T + 64] = (double)__builtin_bit_cast(unsigned short, V);
    O[T + 128] = (double)crosslane::argmin<4>(V, T).index;
  }
}
