//===- hip/hip_runtime.h - HIP for Vortex, device and host ------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What `#include <hip/hip_runtime.h>` gives a program compiled by
/// `crosslane-hipcc --target=vortex`. The device side maps HIP's thread
/// model onto Vortex v3.0's KMU CSRs (VX_types.toml: 0xCD0-0xCDF); the
/// host side is Crosslane's HIP runtime for Vortex (hip_runtime_api.h).
/// Kernels and __shared__ variables carry annotations that Crosslane's
/// crosslane-vortex-abi pass reads (kernel entries, local memory).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_VORTEX_HIP_RUNTIME_H
#define CROSSLANE_VORTEX_HIP_RUNTIME_H

#define __HIP_PLATFORM_VORTEX__ 1
#define __CROSSLANE_VORTEX__ 1

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global, annotate("crosslane.vortex.kernel")))
#define __shared__                                                             \
  __attribute__((shared, annotate("crosslane.vortex.shared")))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#include "../hip_runtime_api.h"

//===----------------------------------------------------------------------===//
// Thread model: CSR reads (non-volatile: a CSR of the KMU does not change
// while a CTA runs, so the optimiser may merge and hoist them).
//===----------------------------------------------------------------------===//

#define __CROSSLANE_VX_CSR(NUM)                                                \
  static __device__ __forceinline__ unsigned __crosslane_vx_csr_##NUM() {     \
    unsigned R;                                                                \
    __asm__("csrr %0, " #NUM : "=r"(R));                                       \
    return R;                                                                  \
  }
__CROSSLANE_VX_CSR(0xcc0) // lane within the warp
__CROSSLANE_VX_CSR(0xcc1) // warp within the core
__CROSSLANE_VX_CSR(0xfc0) // lanes per warp
__CROSSLANE_VX_CSR(0xcd0) // the CTA's slot (barrier id)
__CROSSLANE_VX_CSR(0xcd1) // warp rank in the CTA
__CROSSLANE_VX_CSR(0xcd2) // warps in the CTA (barrier count)
__CROSSLANE_VX_CSR(0xcd3)
__CROSSLANE_VX_CSR(0xcd4)
__CROSSLANE_VX_CSR(0xcd5)
__CROSSLANE_VX_CSR(0xcd6)
__CROSSLANE_VX_CSR(0xcd7)
__CROSSLANE_VX_CSR(0xcd8)
__CROSSLANE_VX_CSR(0xcd9)
__CROSSLANE_VX_CSR(0xcda)
__CROSSLANE_VX_CSR(0xcdb)
__CROSSLANE_VX_CSR(0xcdc)
__CROSSLANE_VX_CSR(0xcdd)
__CROSSLANE_VX_CSR(0xcde)
#undef __CROSSLANE_VX_CSR

#define __CROSSLANE_VX_DIM3(TYPE, X, Y, Z)                                     \
  struct TYPE {                                                                \
    static __device__ __forceinline__ unsigned __get_x() {                     \
      return __crosslane_vx_csr_##X();                                         \
    }                                                                          \
    static __device__ __forceinline__ unsigned __get_y() {                     \
      return __crosslane_vx_csr_##Y();                                         \
    }                                                                          \
    static __device__ __forceinline__ unsigned __get_z() {                     \
      return __crosslane_vx_csr_##Z();                                         \
    }                                                                          \
    __declspec(property(get = __get_x)) unsigned x;                            \
    __declspec(property(get = __get_y)) unsigned y;                            \
    __declspec(property(get = __get_z)) unsigned z;                            \
    __device__ operator dim3() const {                                         \
      return dim3(__get_x(), __get_y(), __get_z());                            \
    }                                                                          \
  };
__CROSSLANE_VX_DIM3(__crosslane_vx_threadIdx_t, 0xcd3, 0xcd4, 0xcd5)
__CROSSLANE_VX_DIM3(__crosslane_vx_blockIdx_t, 0xcd6, 0xcd7, 0xcd8)
__CROSSLANE_VX_DIM3(__crosslane_vx_blockDim_t, 0xcd9, 0xcda, 0xcdb)
__CROSSLANE_VX_DIM3(__crosslane_vx_gridDim_t, 0xcdc, 0xcdd, 0xcde)
#undef __CROSSLANE_VX_DIM3

// Never defined: every member read goes through a static getter.
extern const __device__ __crosslane_vx_threadIdx_t threadIdx;
extern const __device__ __crosslane_vx_blockIdx_t blockIdx;
extern const __device__ __crosslane_vx_blockDim_t blockDim;
extern const __device__ __crosslane_vx_gridDim_t gridDim;

/// warpSize: the configuration's lanes per warp, read at run time (an
/// object, not a macro, so host code can still say prop.warpSize).
struct __crosslane_vx_warpsize_t {
  __device__ __forceinline__ operator int() const {
    return (int)__crosslane_vx_csr_0xfc0();
  }
};
static constexpr __crosslane_vx_warpsize_t warpSize{};

static __device__ __forceinline__ unsigned __lane_id() {
  return __crosslane_vx_csr_0xcc0();
}

//===----------------------------------------------------------------------===//
// Synchronisation. vx_barrier(id, count): id = (barrier << 8) | CTA slot,
// count = warps in the CTA (simx barrier_unit.cpp counts warp arrivals).
//===----------------------------------------------------------------------===//

static __device__ __forceinline__ void __syncthreads() {
  unsigned Id = __crosslane_vx_csr_0xcd0(), Warps = __crosslane_vx_csr_0xcd2();
  __asm__ volatile(".insn r 0x0b, 4, 0, x0, %0, %1" ::"r"(Id), "r"(Warps)
                   : "memory");
}
static __device__ __forceinline__ void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static __device__ __forceinline__ void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static __device__ __forceinline__ void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

//===----------------------------------------------------------------------===//
// Atomics (need a configuration with the A extension; the compiler says so
// otherwise). Operations RISC-V has no AMO for become compare-and-swap
// loops, which Crosslane runs one lane at a time.
//===----------------------------------------------------------------------===//

#define __CROSSLANE_VX_ATOMIC(NAME, BUILTIN)                                   \
  template <class T> static __device__ __forceinline__ T NAME(T *P, T V) {     \
    return BUILTIN(P, V, __ATOMIC_RELAXED);                                    \
  }
__CROSSLANE_VX_ATOMIC(atomicAdd, __atomic_fetch_add)
__CROSSLANE_VX_ATOMIC(atomicSub, __atomic_fetch_sub)
__CROSSLANE_VX_ATOMIC(atomicAnd, __atomic_fetch_and)
__CROSSLANE_VX_ATOMIC(atomicOr, __atomic_fetch_or)
__CROSSLANE_VX_ATOMIC(atomicXor, __atomic_fetch_xor)
__CROSSLANE_VX_ATOMIC(atomicMin, __atomic_fetch_min)
__CROSSLANE_VX_ATOMIC(atomicMax, __atomic_fetch_max)
__CROSSLANE_VX_ATOMIC(atomicExch, __atomic_exchange_n)
#undef __CROSSLANE_VX_ATOMIC

template <class T>
static __device__ __forceinline__ T atomicCAS(T *P, T Compare, T V) {
  __atomic_compare_exchange_n(P, &Compare, V, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return Compare;
}

//===----------------------------------------------------------------------===//
// Device printf: Vortex's console printer (libvortex2.a).
//===----------------------------------------------------------------------===//

extern "C" __device__ int vx_printf(const char *, ...);

//===----------------------------------------------------------------------===//
// <math.h> in device code: glibc declares its functions for the host only;
// these device overloads (the host/device overloading clang's own CUDA
// headers use) call the same C functions in the device's libc (picolibc).
//===----------------------------------------------------------------------===//

#define __CROSSLANE_VX_MATH1(T, F)                                             \
  extern "C" __device__ T __crosslane_vx_##F(T) __asm__(#F);                   \
  static __device__ __forceinline__ T F(T X) { return __crosslane_vx_##F(X); }
#define __CROSSLANE_VX_MATH2(T, F)                                             \
  extern "C" __device__ T __crosslane_vx_##F(T, T) __asm__(#F);                \
  static __device__ __forceinline__ T F(T X, T Y) {                            \
    return __crosslane_vx_##F(X, Y);                                           \
  }
#define __CROSSLANE_VX_MATH(M)                                                 \
  M##1(float, sinf) M##1(float, cosf) M##1(float, tanf) M##1(float, asinf)     \
  M##1(float, acosf) M##1(float, atanf) M##1(float, sinhf)                     \
  M##1(float, coshf) M##1(float, tanhf) M##1(float, expf) M##1(float, exp2f)   \
  M##1(float, expm1f) M##1(float, logf) M##1(float, log2f)                     \
  M##1(float, log10f) M##1(float, log1pf) M##1(float, sqrtf)                   \
  M##1(float, cbrtf) M##1(float, fabsf) M##1(float, floorf) M##1(float, ceilf) \
  M##1(float, truncf) M##1(float, roundf) M##1(float, rintf)                   \
  M##1(float, erff) M##1(float, erfcf) M##2(float, powf) M##2(float, atan2f)   \
  M##2(float, fmodf) M##2(float, fminf) M##2(float, fmaxf)                     \
  M##2(float, hypotf) M##2(float, copysignf) M##1(double, sin)                 \
  M##1(double, cos) M##1(double, tan) M##1(double, exp) M##1(double, log)      \
  M##1(double, log2) M##1(double, sqrt) M##1(double, fabs)                     \
  M##1(double, floor) M##1(double, ceil) M##1(double, tanh)                    \
  M##2(double, pow) M##2(double, fmin) M##2(double, fmax) M##2(double, fmod)   \
  M##2(double, atan2)
__CROSSLANE_VX_MATH(__CROSSLANE_VX_MATH)
#undef __CROSSLANE_VX_MATH
#undef __CROSSLANE_VX_MATH1
#undef __CROSSLANE_VX_MATH2

//===----------------------------------------------------------------------===//
// Spellings HIP adds.
//===----------------------------------------------------------------------===//

static __device__ __forceinline__ float __fdividef(float A, float B) {
  return A / B;
}
static __device__ __forceinline__ float __expf(float A) { return expf(A); }
static __device__ __forceinline__ float __logf(float A) { return logf(A); }
static __device__ __forceinline__ float __sinf(float A) { return sinf(A); }
static __device__ __forceinline__ float __cosf(float A) { return cosf(A); }
static __device__ __forceinline__ float __powf(float A, float B) {
  return powf(A, B);
}
static __device__ __forceinline__ float rsqrtf(float A) {
  return 1.0f / sqrtf(A);
}
static __device__ __forceinline__ int __popc(unsigned A) {
  return __builtin_popcount(A);
}
static __device__ __forceinline__ int __ffs(unsigned A) {
  return __builtin_ffs((int)A);
}
static __device__ __forceinline__ int __clz(int A) {
  return A == 0 ? 32 : __builtin_clz((unsigned)A);
}
template <class T> static __device__ __forceinline__ T min(T A, T B) {
  return A < B ? A : B;
}
template <class T> static __device__ __forceinline__ T max(T A, T B) {
  return A < B ? B : A;
}

#endif // CROSSLANE_VORTEX_HIP_RUNTIME_H
