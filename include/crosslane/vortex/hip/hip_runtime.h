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
// Warp-level operations on Vortex's vote and shuffle instructions (custom-0,
// funct7 1; simx alu_unit.cpp). A shuffle's second operand packs
// (segment mask << 12) | (clamp << 6) | lane; lanes read their own value
// when the source is outside their segment, as HIP specifies. Widths and
// warpSize are the configuration's lanes per warp (4, 16, 32): code that
// assumes 32 lanes needs a 32-lane configuration.
//===----------------------------------------------------------------------===//

#define __CROSSLANE_VX_SHFL(NAME, F3)                                          \
  static __device__ __forceinline__ unsigned NAME(unsigned V, unsigned Bc) {   \
    unsigned R;                                                                \
    __asm__ volatile(".insn r 0x0b, " #F3 ", 1, %0, %1, %2"                    \
                     : "=r"(R)                                                 \
                     : "r"(V), "r"(Bc));                                       \
    return R;                                                                  \
  }
__CROSSLANE_VX_SHFL(__crosslane_vx_shfl_up, 4)
__CROSSLANE_VX_SHFL(__crosslane_vx_shfl_down, 5)
__CROSSLANE_VX_SHFL(__crosslane_vx_shfl_bfly, 6)
__CROSSLANE_VX_SHFL(__crosslane_vx_shfl_idx, 7)
#undef __CROSSLANE_VX_SHFL

#define __CROSSLANE_VX_VOTE(NAME, F3)                                          \
  static __device__ __forceinline__ unsigned NAME(int P) {                     \
    unsigned R;                                                                \
    __asm__ volatile(".insn r 0x0b, " #F3 ", 1, %0, %1, x0"                    \
                     : "=r"(R)                                                 \
                     : "r"(P != 0));                                           \
    return R;                                                                  \
  }
__CROSSLANE_VX_VOTE(__crosslane_vx_vote_all, 0)
__CROSSLANE_VX_VOTE(__crosslane_vx_vote_any, 1)
__CROSSLANE_VX_VOTE(__crosslane_vx_vote_ballot, 3)
#undef __CROSSLANE_VX_VOTE

/// The shuffle operand for a segment of \p Width lanes (a power of two).
static __device__ __forceinline__ unsigned __crosslane_vx_bc(unsigned Lane,
                                                             int Width) {
  unsigned W = (unsigned)Width;
  return ((~(W - 1) & 0x3f) << 12) | (((W - 1) & 0x3f) << 6) | (Lane & 0x3f);
}

enum __crosslane_vx_shfl_kind { __CL_VX_UP, __CL_VX_DOWN, __CL_VX_XOR, __CL_VX_IDX };

static __device__ __forceinline__ unsigned
__crosslane_vx_shfl32(__crosslane_vx_shfl_kind K, unsigned V, unsigned Bc) {
  switch (K) {
  case __CL_VX_UP:
    return __crosslane_vx_shfl_up(V, Bc);
  case __CL_VX_DOWN:
    return __crosslane_vx_shfl_down(V, Bc);
  case __CL_VX_XOR:
    return __crosslane_vx_shfl_bfly(V, Bc);
  default:
    return __crosslane_vx_shfl_idx(V, Bc);
  }
}

/// Any 4- or 8-byte value, moved as 32-bit words.
template <class T>
static __device__ __forceinline__ T
__crosslane_vx_shfl(__crosslane_vx_shfl_kind K, T V, unsigned Lane, int Width) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "shuffle of 4 or 8 bytes");
  unsigned Words[sizeof(T) / 4];
  __builtin_memcpy(Words, &V, sizeof(T));
  unsigned Bc = __crosslane_vx_bc(Lane, Width);
  for (unsigned I = 0; I < sizeof(T) / 4; ++I)
    Words[I] = __crosslane_vx_shfl32(K, Words[I], Bc);
  __builtin_memcpy(&V, Words, sizeof(T));
  return V;
}

template <class T>
static __device__ __forceinline__ T __shfl(T V, int Src, int Width = warpSize) {
  return __crosslane_vx_shfl(__CL_VX_IDX, V, (unsigned)Src & (Width - 1), Width);
}
template <class T>
static __device__ __forceinline__ T __shfl_up(T V, unsigned Delta,
                                              int Width = warpSize) {
  return __crosslane_vx_shfl(__CL_VX_UP, V, Delta, Width);
}
template <class T>
static __device__ __forceinline__ T __shfl_down(T V, unsigned Delta,
                                                int Width = warpSize) {
  return __crosslane_vx_shfl(__CL_VX_DOWN, V, Delta, Width);
}
template <class T>
static __device__ __forceinline__ T __shfl_xor(T V, int Mask,
                                               int Width = warpSize) {
  return __crosslane_vx_shfl(__CL_VX_XOR, V, (unsigned)Mask, Width);
}
template <class M, class T>
static __device__ __forceinline__ T __shfl_sync(M, T V, int Src,
                                                int Width = warpSize) {
  return __shfl(V, Src, Width);
}
template <class M, class T>
static __device__ __forceinline__ T __shfl_up_sync(M, T V, unsigned Delta,
                                                   int Width = warpSize) {
  return __shfl_up(V, Delta, Width);
}
template <class M, class T>
static __device__ __forceinline__ T __shfl_down_sync(M, T V, unsigned Delta,
                                                     int Width = warpSize) {
  return __shfl_down(V, Delta, Width);
}
template <class M, class T>
static __device__ __forceinline__ T __shfl_xor_sync(M, T V, int Mask,
                                                    int Width = warpSize) {
  return __shfl_xor(V, Mask, Width);
}

/// HIP's ballot is 64 bits wide; Vortex warps have at most 32 lanes.
static __device__ __forceinline__ unsigned long long __ballot(int P) {
  return __crosslane_vx_vote_ballot(P);
}
static __device__ __forceinline__ int __any(int P) {
  return (int)__crosslane_vx_vote_any(P);
}
static __device__ __forceinline__ int __all(int P) {
  return (int)__crosslane_vx_vote_all(P);
}
static __device__ __forceinline__ unsigned long long __activemask() {
  unsigned R;
  __asm__ volatile("csrr %0, 0xcc4" : "=r"(R));
  return R;
}
template <class M>
static __device__ __forceinline__ unsigned long long __ballot_sync(M Mask,
                                                                   int P) {
  return __ballot(P) & (unsigned long long)Mask;
}
template <class M> static __device__ __forceinline__ int __any_sync(M, int P) {
  return __any(P);
}
template <class M> static __device__ __forceinline__ int __all_sync(M, int P) {
  return __all(P);
}
/// Lanes of a Vortex warp execute in lockstep: nothing to wait for.
template <class M = unsigned> static __device__ __forceinline__ void
__syncwarp(M = 0) {}
static __device__ __forceinline__ int __popcll(unsigned long long A) {
  return __builtin_popcountll(A);
}
static __device__ __forceinline__ int __ffsll(unsigned long long A) {
  return __builtin_ffsll((long long)A);
}

//===----------------------------------------------------------------------===//
// Atomics (need a configuration with the A extension; the compiler says so
// otherwise). Operations RISC-V has no AMO for become compare-and-swap
// loops, which Crosslane runs one lane at a time.
//===----------------------------------------------------------------------===//

/// 8-byte atomics: rv32 has no 64-bit AMO or LR/SC. They take one lock
/// word of the image, one active lane at a time (a spin lock that several
/// lanes of one warp contend for would never be released: the winner waits
/// masked off for the others).
__device__ __attribute__((weak)) int __crosslane_vx_lock64 = 0;
template <class T, class F>
static __device__ __forceinline__ T __crosslane_vx_locked(T *P, F Update) {
  T Old{};
  unsigned Me = __lane_id();
  for (unsigned M = (unsigned)__activemask(); M; M &= M - 1)
    if (Me == (unsigned)__builtin_ctz(M)) {
      // Back off between attempts: a stream of AMOs from waiting warps
      // starves the holder's own memory accesses on simx.
      for (unsigned Wait = 8;
           __atomic_exchange_n(&__crosslane_vx_lock64, 1, __ATOMIC_ACQUIRE);
           Wait = Wait < 1024 ? 2 * Wait : Wait)
        for (unsigned K = 0; K < Wait; ++K)
          __asm__ volatile("");
      Old = *(volatile T *)P;
      *(volatile T *)P = Update(Old);
      __atomic_exchange_n(&__crosslane_vx_lock64, 0, __ATOMIC_RELEASE);
    }
  return Old;
}

#define __CROSSLANE_VX_ATOMIC(NAME, BUILTIN, EXPR)                             \
  template <class T> static __device__ __forceinline__ T NAME(T *P, T V) {     \
    if constexpr (sizeof(T) == 8)                                              \
      return __crosslane_vx_locked(P, [V](T X) { return EXPR; });              \
    else                                                                       \
      return BUILTIN(P, V, __ATOMIC_RELAXED);                                  \
  }
__CROSSLANE_VX_ATOMIC(atomicAdd, __atomic_fetch_add, X + V)
__CROSSLANE_VX_ATOMIC(atomicSub, __atomic_fetch_sub, X - V)
__CROSSLANE_VX_ATOMIC(atomicAnd, __atomic_fetch_and, X & V)
__CROSSLANE_VX_ATOMIC(atomicOr, __atomic_fetch_or, X | V)
__CROSSLANE_VX_ATOMIC(atomicXor, __atomic_fetch_xor, X ^ V)
__CROSSLANE_VX_ATOMIC(atomicMin, __atomic_fetch_min, V < X ? V : X)
__CROSSLANE_VX_ATOMIC(atomicMax, __atomic_fetch_max, X < V ? V : X)
__CROSSLANE_VX_ATOMIC(atomicExch, __atomic_exchange_n, V)
#undef __CROSSLANE_VX_ATOMIC

template <class T>
static __device__ __forceinline__ T atomicCAS(T *P, T Compare, T V) {
  if constexpr (sizeof(T) == 8)
    return __crosslane_vx_locked(P, [=](T X) { return X == Compare ? V : X; });
  __atomic_compare_exchange_n(P, &Compare, V, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return Compare;
}

//===----------------------------------------------------------------------===//
// Device printf: Vortex's console printer (vx_vprintf, libvortex2.a). Each
// lane prints in turn (Crosslane runs library calls one lane at a time).
//===----------------------------------------------------------------------===//

extern "C" __device__ int vx_printf(const char *, ...);
extern "C" __device__ int vx_vprintf(const char *, __builtin_va_list);
static __device__ int printf(const char *Format, ...) {
  __builtin_va_list Args;
  __builtin_va_start(Args, Format);
  int R = vx_vprintf(Format, Args);
  __builtin_va_end(Args);
  return R;
}

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

// memcpy/memset in device code (HIP provides them; glibc declares them for
// the host only), also as std::memcpy / std::memset.
static __device__ __forceinline__ void *memcpy(void *D, const void *S,
                                               size_t N) {
  return __builtin_memcpy(D, S, N);
}
static __device__ __forceinline__ void *memset(void *D, int V, size_t N) {
  return __builtin_memset(D, V, N);
}
namespace std {
using ::memcpy;
using ::memset;
} // namespace std

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
