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
    unsigned __cl_R;                                                                \
    __asm__("csrr %0, " #NUM : "=r"(__cl_R));                                       \
    return __cl_R;                                                                  \
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

#define __CROSSLANE_VX_DIM3(TYPE, __cl_X, __cl_Y, __cl_Z)                                     \
  struct TYPE {                                                                \
    static __device__ __forceinline__ unsigned __get_x() {                     \
      return __crosslane_vx_csr_##__cl_X();                                         \
    }                                                                          \
    static __device__ __forceinline__ unsigned __get_y() {                     \
      return __crosslane_vx_csr_##__cl_Y();                                         \
    }                                                                          \
    static __device__ __forceinline__ unsigned __get_z() {                     \
      return __crosslane_vx_csr_##__cl_Z();                                         \
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

/// warpSize: the configuration's lanes per warp (an object, not a macro, so
/// host code can still say prop.warpSize): a constant when the driver names
/// the configuration (VX_CFG_NUM_THREADS), so loops over it unroll and the
/// shuffles' operands are known; read at run time otherwise.
struct __crosslane_vx_warpsize_t {
  __device__ __forceinline__ operator int() const {
#ifdef VX_CFG_NUM_THREADS
    return VX_CFG_NUM_THREADS;
#else
    return (int)__crosslane_vx_csr_0xfc0();
#endif
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
  unsigned __cl_Id = __crosslane_vx_csr_0xcd0(), __cl_Warps = __crosslane_vx_csr_0xcd2();
  __asm__ volatile(".insn r 0x0b, 4, 0, x0, %0, %1" ::"r"(__cl_Id), "r"(__cl_Warps)
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
// funct7 1; simx alu_unit.cpp). __cl_A shuffle's second operand packs
// (segment mask << 12) | (clamp << 6) | lane; lanes read their own value
// when the source is outside their segment, as HIP specifies. Widths and
// warpSize are the configuration's lanes per warp (4, 16, 32): code that
// assumes 32 lanes needs a 32-lane configuration.
//===----------------------------------------------------------------------===//

#define __CROSSLANE_VX_SHFL(NAME, F3)                                          \
  static __device__ __forceinline__ unsigned NAME(unsigned __cl_V, unsigned __cl_Bc) {   \
    unsigned __cl_R;                                                                \
    __asm__ volatile(".insn r 0x0b, " #F3 ", 1, %0, %1, %2"                    \
                     : "=r"(__cl_R)                                                 \
                     : "r"(__cl_V), "r"(__cl_Bc));                                       \
    return __cl_R;                                                                  \
  }
__CROSSLANE_VX_SHFL(__crosslane_vx_shfl_up, 4)
__CROSSLANE_VX_SHFL(__crosslane_vx_shfl_down, 5)
__CROSSLANE_VX_SHFL(__crosslane_vx_shfl_bfly, 6)
__CROSSLANE_VX_SHFL(__crosslane_vx_shfl_idx, 7)
#undef __CROSSLANE_VX_SHFL

#define __CROSSLANE_VX_VOTE(NAME, F3)                                          \
  static __device__ __forceinline__ unsigned NAME(int __cl_P) {                     \
    unsigned __cl_R;                                                                \
    __asm__ volatile(".insn r 0x0b, " #F3 ", 1, %0, %1, x0"                    \
                     : "=r"(__cl_R)                                                 \
                     : "r"(__cl_P != 0));                                           \
    return __cl_R;                                                                  \
  }
__CROSSLANE_VX_VOTE(__crosslane_vx_vote_all, 0)
__CROSSLANE_VX_VOTE(__crosslane_vx_vote_any, 1)
__CROSSLANE_VX_VOTE(__crosslane_vx_vote_ballot, 3)
#undef __CROSSLANE_VX_VOTE

/// The shuffle operand for a segment of \p __cl_Width lanes (a power of two).
static __device__ __forceinline__ unsigned __crosslane_vx_bc(unsigned __cl_Lane,
                                                             int __cl_Width) {
  unsigned __cl_W = (unsigned)__cl_Width;
  return ((~(__cl_W - 1) & 0x3f) << 12) | (((__cl_W - 1) & 0x3f) << 6) | (__cl_Lane & 0x3f);
}

enum __crosslane_vx_shfl_kind { __CL_VX_UP, __CL_VX_DOWN, __CL_VX_XOR, __CL_VX_IDX };

static __device__ __forceinline__ unsigned
__crosslane_vx_shfl32(__crosslane_vx_shfl_kind __cl_K, unsigned __cl_V, unsigned __cl_Bc) {
  switch (__cl_K) {
  case __CL_VX_UP:
    return __crosslane_vx_shfl_up(__cl_V, __cl_Bc);
  case __CL_VX_DOWN:
    return __crosslane_vx_shfl_down(__cl_V, __cl_Bc);
  case __CL_VX_XOR:
    return __crosslane_vx_shfl_bfly(__cl_V, __cl_Bc);
  default:
    return __crosslane_vx_shfl_idx(__cl_V, __cl_Bc);
  }
}

/// Any 4- or 8-byte value, moved as 32-bit words.
template <class __cl_T>
static __device__ __forceinline__ __cl_T
__crosslane_vx_shfl(__crosslane_vx_shfl_kind __cl_K, __cl_T __cl_V, unsigned __cl_Lane, int __cl_Width) {
  static_assert(sizeof(__cl_T) == 4 || sizeof(__cl_T) == 8, "shuffle of 4 or 8 bytes");
  unsigned __cl_Words[sizeof(__cl_T) / 4];
  __builtin_memcpy(__cl_Words, &__cl_V, sizeof(__cl_T));
  unsigned __cl_Bc = __crosslane_vx_bc(__cl_Lane, __cl_Width);
  for (unsigned __cl_I = 0; __cl_I < sizeof(__cl_T) / 4; ++__cl_I)
    __cl_Words[__cl_I] = __crosslane_vx_shfl32(__cl_K, __cl_Words[__cl_I], __cl_Bc);
  __builtin_memcpy(&__cl_V, __cl_Words, sizeof(__cl_T));
  return __cl_V;
}

// Compile-time checks against the configuration's warp size (the driver
// passes VX_CFG_NUM_THREADS): a constant xor mask or width beyond the warp
// is code written for wider warps. Clang reports them at the caller's line.
#ifdef VX_CFG_NUM_THREADS
#define __CL_VX_STR2(__cl_X) #__cl_X
#define __CL_VX_STR(__cl_X) __CL_VX_STR2(__cl_X)
#define __CL_VX_MASK_CHECK                                                     \
  __attribute__((diagnose_if(                                                  \
      __cl_Mask >= VX_CFG_NUM_THREADS,                                         \
      "__shfl_xor lane mask reaches past the " __CL_VX_STR(                    \
          VX_CFG_NUM_THREADS) "-lane warps of this Vortex configuration: "     \
                              "those lanes read their own value (code written "\
                              "for 32-lane warps needs a 32-lane "             \
                              "configuration, e.g. --vortex-config=w8t32a)",   \
      "warning")))
#define __CL_VX_WIDTH_CHECK                                                    \
  __attribute__((diagnose_if(                                                  \
      __cl_Width > VX_CFG_NUM_THREADS,                                         \
      "shuffle width is larger than the " __CL_VX_STR(                         \
          VX_CFG_NUM_THREADS) "-lane warps of this Vortex configuration "      \
                              "(code written for 32-lane warps needs a "       \
                              "32-lane configuration, e.g. "                   \
                              "--vortex-config=w8t32a)",                       \
      "warning")))
#else
#define __CL_VX_MASK_CHECK
#define __CL_VX_WIDTH_CHECK
#endif

template <class __cl_T>
static __device__ __forceinline__ __cl_T __shfl(__cl_T __cl_V, int __cl_Src, int __cl_Width = warpSize)
    __CL_VX_WIDTH_CHECK {
  return __crosslane_vx_shfl(__CL_VX_IDX, __cl_V, (unsigned)__cl_Src & (__cl_Width - 1), __cl_Width);
}
template <class __cl_T>
static __device__ __forceinline__ __cl_T __shfl_up(__cl_T __cl_V, unsigned __cl_Delta,
                                              int __cl_Width = warpSize) __CL_VX_WIDTH_CHECK {
  return __crosslane_vx_shfl(__CL_VX_UP, __cl_V, __cl_Delta, __cl_Width);
}
template <class __cl_T>
static __device__ __forceinline__ __cl_T __shfl_down(__cl_T __cl_V, unsigned __cl_Delta,
                                                int __cl_Width = warpSize) __CL_VX_WIDTH_CHECK {
  return __crosslane_vx_shfl(__CL_VX_DOWN, __cl_V, __cl_Delta, __cl_Width);
}
template <class __cl_T>
static __device__ __forceinline__ __cl_T __shfl_xor(__cl_T __cl_V, int __cl_Mask,
                                               int __cl_Width = warpSize)
    __CL_VX_MASK_CHECK __CL_VX_WIDTH_CHECK {
  return __crosslane_vx_shfl(__CL_VX_XOR, __cl_V, (unsigned)__cl_Mask, __cl_Width);
}
template <class __cl_M, class __cl_T>
static __device__ __forceinline__ __cl_T __shfl_sync(__cl_M, __cl_T __cl_V, int __cl_Src,
                                                int __cl_Width = warpSize) __CL_VX_WIDTH_CHECK {
  return __shfl(__cl_V, __cl_Src, __cl_Width);
}
template <class __cl_M, class __cl_T>
static __device__ __forceinline__ __cl_T __shfl_up_sync(__cl_M, __cl_T __cl_V, unsigned __cl_Delta,
                                                   int __cl_Width = warpSize) __CL_VX_WIDTH_CHECK {
  return __shfl_up(__cl_V, __cl_Delta, __cl_Width);
}
template <class __cl_M, class __cl_T>
static __device__ __forceinline__ __cl_T __shfl_down_sync(__cl_M, __cl_T __cl_V, unsigned __cl_Delta,
                                                     int __cl_Width = warpSize) __CL_VX_WIDTH_CHECK {
  return __shfl_down(__cl_V, __cl_Delta, __cl_Width);
}
template <class __cl_M, class __cl_T>
static __device__ __forceinline__ __cl_T __shfl_xor_sync(__cl_M, __cl_T __cl_V, int __cl_Mask,
                                                    int __cl_Width = warpSize)
    __CL_VX_MASK_CHECK __CL_VX_WIDTH_CHECK {
  return __shfl_xor(__cl_V, __cl_Mask, __cl_Width);
}

/// HIP's ballot is 64 bits wide; Vortex warps have at most 32 lanes.
static __device__ __forceinline__ unsigned long long __ballot(int __cl_P) {
  return __crosslane_vx_vote_ballot(__cl_P);
}
static __device__ __forceinline__ int __any(int __cl_P) {
  return (int)__crosslane_vx_vote_any(__cl_P);
}
static __device__ __forceinline__ int __all(int __cl_P) {
  return (int)__crosslane_vx_vote_all(__cl_P);
}
// A ballot of true, not a read of the thread-mask CSR: simx reads that CSR
// when the instruction executes (csr_unit.cpp), so a warp-control
// instruction issued after it (a join) can change the mask first; a vote
// uses the mask it issued with (alu_unit.cpp).
static __device__ __forceinline__ unsigned long long __activemask() {
  return __crosslane_vx_vote_ballot(1);
}
template <class __cl_M>
static __device__ __forceinline__ unsigned long long __ballot_sync(__cl_M __cl_Mask,
                                                                   int __cl_P) {
  return __ballot(__cl_P) & (unsigned long long)__cl_Mask;
}
template <class __cl_M> static __device__ __forceinline__ int __any_sync(__cl_M, int __cl_P) {
  return __any(__cl_P);
}
template <class __cl_M> static __device__ __forceinline__ int __all_sync(__cl_M, int __cl_P) {
  return __all(__cl_P);
}
/// Lanes of a Vortex warp execute in lockstep: nothing to wait for.
template <class __cl_M = unsigned> static __device__ __forceinline__ void
__syncwarp(__cl_M = 0) {}
static __device__ __forceinline__ int __popcll(unsigned long long __cl_A) {
  return __builtin_popcountll(__cl_A);
}
static __device__ __forceinline__ int __ffsll(unsigned long long __cl_A) {
  return __builtin_ffsll((long long)__cl_A);
}

//===----------------------------------------------------------------------===//
// Atomics (need a configuration with the __cl_A extension; the compiler says so
// otherwise). Operations RISC-__cl_V has no AMO for become compare-and-swap
// loops, which Crosslane runs one lane at a time.
//===----------------------------------------------------------------------===//

/// 8-byte atomics: rv32 has no 64-bit AMO or LR/SC. They take one lock
/// word of the image, one active lane at a time (a spin lock that several
/// lanes of one warp contend for would never be released: the winner waits
/// masked off for the others).
__device__ __attribute__((weak)) int __crosslane_vx_lock64 = 0;
template <class __cl_T, class __cl_F>
static __device__ __forceinline__ __cl_T __crosslane_vx_locked(__cl_T *__cl_P, __cl_F __cl_Update) {
  __cl_T __cl_Old{};
  unsigned __cl_Me = __lane_id();
  for (unsigned __cl_M = (unsigned)__activemask(); __cl_M; __cl_M &= __cl_M - 1)
    if (__cl_Me == (unsigned)__builtin_ctz(__cl_M)) {
      // Back off between attempts: a stream of AMOs from waiting warps
      // starves the holder's own memory accesses on simx.
      for (unsigned __cl_Wait = 8;
           __atomic_exchange_n(&__crosslane_vx_lock64, 1, __ATOMIC_ACQUIRE);
           __cl_Wait = __cl_Wait < 1024 ? 2 * __cl_Wait : __cl_Wait)
        for (unsigned __cl_K = 0; __cl_K < __cl_Wait; ++__cl_K)
          __asm__ volatile("");
      __cl_Old = *(volatile __cl_T *)__cl_P;
      *(volatile __cl_T *)__cl_P = __cl_Update(__cl_Old);
      __atomic_exchange_n(&__crosslane_vx_lock64, 0, __ATOMIC_RELEASE);
    }
  return __cl_Old;
}

/// A float atomic is a compare-and-swap retry loop: run it for one active
/// lane at a time, so a warp of W lanes makes W tries, not W x W (every
/// lane of a warp would retry against the same old value).
template <class __cl_F>
static __device__ __forceinline__ auto __crosslane_vx_one_lane(__cl_F __cl_Do) {
  decltype(__cl_Do()) __cl_Old{};
  unsigned __cl_Me = __lane_id();
  for (unsigned __cl_M = (unsigned)__activemask(); __cl_M; __cl_M &= __cl_M - 1)
    if (__cl_Me == (unsigned)__builtin_ctz(__cl_M))
      __cl_Old = __cl_Do();
  return __cl_Old;
}

#define __CROSSLANE_VX_ATOMIC(NAME, BUILTIN, EXPR)                             \
  template <class __cl_T> static __device__ __forceinline__ __cl_T NAME(__cl_T *__cl_P, __cl_T __cl_V) {     \
    if constexpr (sizeof(__cl_T) == 8)                                              \
      return __crosslane_vx_locked(__cl_P, [__cl_V](__cl_T __cl_X) { return EXPR; });              \
    else if constexpr (__is_floating_point(__cl_T))                            \
      return __crosslane_vx_one_lane(                                          \
          [&] { return BUILTIN(__cl_P, __cl_V, __ATOMIC_RELAXED); });          \
    else                                                                       \
      return BUILTIN(__cl_P, __cl_V, __ATOMIC_RELAXED);                                  \
  }
__CROSSLANE_VX_ATOMIC(atomicAdd, __atomic_fetch_add, __cl_X + __cl_V)
__CROSSLANE_VX_ATOMIC(atomicSub, __atomic_fetch_sub, __cl_X - __cl_V)
__CROSSLANE_VX_ATOMIC(atomicAnd, __atomic_fetch_and, __cl_X & __cl_V)
__CROSSLANE_VX_ATOMIC(atomicOr, __atomic_fetch_or, __cl_X | __cl_V)
__CROSSLANE_VX_ATOMIC(atomicXor, __atomic_fetch_xor, __cl_X ^ __cl_V)
__CROSSLANE_VX_ATOMIC(atomicMin, __atomic_fetch_min, __cl_V < __cl_X ? __cl_V : __cl_X)
__CROSSLANE_VX_ATOMIC(atomicMax, __atomic_fetch_max, __cl_X < __cl_V ? __cl_V : __cl_X)
__CROSSLANE_VX_ATOMIC(atomicExch, __atomic_exchange_n, __cl_V)
#undef __CROSSLANE_VX_ATOMIC

template <class __cl_T>
static __device__ __forceinline__ __cl_T atomicCAS(__cl_T *__cl_P, __cl_T __cl_Compare, __cl_T __cl_V) {
  if constexpr (sizeof(__cl_T) == 8)
    return __crosslane_vx_locked(__cl_P, [=](__cl_T __cl_X) { return __cl_X == __cl_Compare ? __cl_V : __cl_X; });
  __atomic_compare_exchange_n(__cl_P, &__cl_Compare, __cl_V, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return __cl_Compare;
}

//===----------------------------------------------------------------------===//
// Device printf: Vortex's console printer (vx_vprintf, libvortex2.a). Each
// lane prints in turn (Crosslane runs library calls one lane at a time).
//===----------------------------------------------------------------------===//

extern "C" __device__ int vx_printf(const char *, ...);
extern "C" __device__ int vx_vprintf(const char *, __builtin_va_list);
static __device__ int printf(const char *__cl_Format, ...) {
  __builtin_va_list __cl_Args;
  __builtin_va_start(__cl_Args, __cl_Format);
  int __cl_R = vx_vprintf(__cl_Format, __cl_Args);
  __builtin_va_end(__cl_Args);
  return __cl_R;
}

//===----------------------------------------------------------------------===//
// <math.h> in device code: glibc declares its functions for the host only;
// these device overloads (the host/device overloading clang's own CUDA
// headers use) call the same C functions in the device's libc (picolibc).
//===----------------------------------------------------------------------===//

#define __CROSSLANE_VX_MATH1(__cl_T, __cl_F)                                             \
  extern "C" __device__ __cl_T __crosslane_vx_##__cl_F(__cl_T) __asm__(#__cl_F);                   \
  static __device__ __forceinline__ __cl_T __cl_F(__cl_T __cl_X) { return __crosslane_vx_##__cl_F(__cl_X); }
#define __CROSSLANE_VX_MATH2(__cl_T, __cl_F)                                             \
  extern "C" __device__ __cl_T __crosslane_vx_##__cl_F(__cl_T, __cl_T) __asm__(#__cl_F);                \
  static __device__ __forceinline__ __cl_T __cl_F(__cl_T __cl_X, __cl_T __cl_Y) {                            \
    return __crosslane_vx_##__cl_F(__cl_X, __cl_Y);                                           \
  }
#define __CROSSLANE_VX_MATH3(__cl_T, __cl_F)                                             \
  extern "C" __device__ __cl_T __crosslane_vx_##__cl_F(__cl_T, __cl_T, __cl_T) __asm__(#__cl_F);             \
  static __device__ __forceinline__ __cl_T __cl_F(__cl_T __cl_X, __cl_T __cl_Y, __cl_T __cl_Z) {                       \
    return __crosslane_vx_##__cl_F(__cl_X, __cl_Y, __cl_Z);                                        \
  }
#define __CROSSLANE_VX_MATH(__cl_M)                                                 \
  __cl_M##1(float, sinf) __cl_M##1(float, cosf) __cl_M##1(float, tanf) __cl_M##1(float, asinf)     \
  __cl_M##1(float, acosf) __cl_M##1(float, atanf) __cl_M##1(float, sinhf)                     \
  __cl_M##1(float, coshf) __cl_M##1(float, tanhf) __cl_M##1(float, expf) __cl_M##1(float, exp2f)   \
  __cl_M##1(float, expm1f) __cl_M##1(float, logf) __cl_M##1(float, log2f)                     \
  __cl_M##1(float, log10f) __cl_M##1(float, log1pf) __cl_M##1(float, sqrtf)                   \
  __cl_M##1(float, cbrtf) __cl_M##1(float, fabsf) __cl_M##1(float, floorf) __cl_M##1(float, ceilf) \
  __cl_M##1(float, truncf) __cl_M##1(float, roundf) __cl_M##1(float, rintf)                   \
  __cl_M##1(float, erff) __cl_M##1(float, erfcf) __cl_M##2(float, powf) __cl_M##2(float, atan2f)   \
  __cl_M##2(float, fmodf) __cl_M##2(float, fminf) __cl_M##2(float, fmaxf)                     \
  __cl_M##2(float, hypotf) __cl_M##2(float, copysignf) __cl_M##1(double, sin)                 \
  __cl_M##1(double, cos) __cl_M##1(double, tan) __cl_M##1(double, exp) __cl_M##1(double, log)      \
  __cl_M##1(double, log2) __cl_M##1(double, sqrt) __cl_M##1(double, fabs)                     \
  __cl_M##1(double, floor) __cl_M##1(double, ceil) __cl_M##1(double, tanh)                    \
  __cl_M##2(double, pow) __cl_M##2(double, fmin) __cl_M##2(double, fmax) __cl_M##2(double, fmod)   \
  __cl_M##2(double, atan2) __cl_M##3(float, fmaf) __cl_M##3(double, fma)
__CROSSLANE_VX_MATH(__CROSSLANE_VX_MATH)
#undef __CROSSLANE_VX_MATH
#undef __CROSSLANE_VX_MATH1
#undef __CROSSLANE_VX_MATH2
#undef __CROSSLANE_VX_MATH3

// memcpy/memset in device code (HIP provides them; glibc declares them for
// the host only), also as std::memcpy / std::memset.
static __device__ __forceinline__ void *memcpy(void *__cl_D, const void *__cl_S,
                                               size_t __cl_N) {
  return __builtin_memcpy(__cl_D, __cl_S, __cl_N);
}
static __device__ __forceinline__ void *memset(void *__cl_D, int __cl_V, size_t __cl_N) {
  return __builtin_memset(__cl_D, __cl_V, __cl_N);
}
namespace std {
using ::memcpy;
using ::memset;
} // namespace std

//===----------------------------------------------------------------------===//
// Spellings HIP adds.
//===----------------------------------------------------------------------===//

static __device__ __forceinline__ float __fdividef(float __cl_A, float __cl_B) {
  return __cl_A / __cl_B;
}
static __device__ __forceinline__ float __expf(float __cl_A) { return expf(__cl_A); }
static __device__ __forceinline__ float __logf(float __cl_A) { return logf(__cl_A); }
static __device__ __forceinline__ float __sinf(float __cl_A) { return sinf(__cl_A); }
static __device__ __forceinline__ float __cosf(float __cl_A) { return cosf(__cl_A); }
static __device__ __forceinline__ float __powf(float __cl_A, float __cl_B) {
  return powf(__cl_A, __cl_B);
}
static __device__ __forceinline__ float rsqrtf(float __cl_A) {
  return 1.0f / sqrtf(__cl_A);
}
static __device__ __forceinline__ int __popc(unsigned __cl_A) {
  return __builtin_popcount(__cl_A);
}
static __device__ __forceinline__ int __ffs(unsigned __cl_A) {
  return __builtin_ffs((int)__cl_A);
}
static __device__ __forceinline__ int __clz(int __cl_A) {
  return __cl_A == 0 ? 32 : __builtin_clz((unsigned)__cl_A);
}
template <class __cl_T> static __device__ __forceinline__ __cl_T min(__cl_T __cl_A, __cl_T __cl_B) {
  return __cl_A < __cl_B ? __cl_A : __cl_B;
}
template <class __cl_T> static __device__ __forceinline__ __cl_T max(__cl_T __cl_A, __cl_T __cl_B) {
  return __cl_A < __cl_B ? __cl_B : __cl_A;
}

#endif // CROSSLANE_VORTEX_HIP_RUNTIME_H
