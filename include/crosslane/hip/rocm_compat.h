//===- rocm_compat.h - Debian's ROCm 5.2 HIP headers under clang 22 -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// crosslane-hipcc force-includes this header (after clang's own HIP wrapper)
// in every device compilation. It fixes the two things that stop Debian's
// ROCm 5.2 headers from working with clang 22:
//
//  * clang 22 no longer predefines __AMDGCN_WAVEFRONT_SIZE, which
//    <hip/amd_detail/amd_warp_functions.h> uses for `warpSize`.
//    crosslane-hipcc passes -Xarch_<gfx> -D__AMDGCN_WAVEFRONT_SIZE=<32|64>
//    per offload architecture, from the chip and -m[no-]wavefrontsize64.
//
//  * <hip/hip_runtime.h> 5.2 has `#error HIP is not supported on GFX10 with
//    wavefront size 64`, although gfx10 runs wave64 and LLVM compiles it.
//    For that configuration we include the header once here with the chip
//    macro hidden; its include guard makes the user's own include a no-op.
//
//  * ROCm 5.2 has no CUDA-style warp-synchronous functions (__shfl_xor_sync,
//    __ballot_sync, __activemask, __syncwarp, ...), which code ported from
//    CUDA calls; ROCm 6.2 added them. We define them on top of the 5.2
//    functions (below).
//
//  * ROCm 5.2's <hip/hip_fp16.h> calls __llvm_amdgcn_rcp_f16/_2f16 (hrcp,
//    h2rcp), which its own hip_fp16_math_fwd.h declares only without
//    clang's HIP wrapper and clang 22's wrapper no longer declares: any
//    include of hip_fp16.h failed. We define them (clang's rcp builtin).
//
//  * ROCm 5.2's __threadfence*() call __atomic_work_item_fence, which lives
//    in the device library hip.bc; clang 22 no longer links hip.bc (and with
//    -nogpulib nothing is linked). We define it here, inline, in terms of
//    clang's __builtin_amdgcn_fence, so fences become plain LLVM `fence`
//    instructions with the requested ordering and scope.
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_HIP_ROCM_COMPAT_H
#define CROSSLANE_HIP_ROCM_COMPAT_H

#if defined(__AMDGCN__) && !defined(__AMDGCN_WAVEFRONT_SIZE)
#error "crosslane: __AMDGCN_WAVEFRONT_SIZE is not set; compile with crosslane-hipcc or pass -D__AMDGCN_WAVEFRONT_SIZE=32|64"
#endif

#if defined(__HIP__) && defined(__CLANG_HIP_RUNTIME_WRAPPER_INCLUDED__) &&     \
    __CLANG_HIP_RUNTIME_WRAPPER_INCLUDED__
typedef _Float16 __crosslane_2f16 __attribute__((ext_vector_type(2)));
extern "C" __attribute__((device, const)) inline _Float16
__llvm_amdgcn_rcp_f16(_Float16 X) {
  return __builtin_amdgcn_rcph(X);
}
extern "C" __attribute__((device, const)) inline __crosslane_2f16
__llvm_amdgcn_rcp_2f16(__crosslane_2f16 X) {
  return __crosslane_2f16{__llvm_amdgcn_rcp_f16(X.x),
                          __llvm_amdgcn_rcp_f16(X.y)};
}
#endif

#if defined(__AMDGCN__) && __AMDGCN_WAVEFRONT_SIZE == 64 &&                  \
    (defined(__gfx1010__) || defined(__gfx1011__) || defined(__gfx1012__) || \
     defined(__gfx1030__) || defined(__gfx1031__))
#pragma push_macro("__gfx1010__")
#pragma push_macro("__gfx1011__")
#pragma push_macro("__gfx1012__")
#pragma push_macro("__gfx1030__")
#pragma push_macro("__gfx1031__")
#undef __gfx1010__
#undef __gfx1011__
#undef __gfx1012__
#undef __gfx1030__
#undef __gfx1031__
#include <hip/hip_runtime.h>
#pragma pop_macro("__gfx1031__")
#pragma pop_macro("__gfx1030__")
#pragma pop_macro("__gfx1012__")
#pragma pop_macro("__gfx1011__")
#pragma pop_macro("__gfx1010__")
#endif

#if defined(__HIP_DEVICE_COMPILE__)
#include <hip/hip_runtime.h>

// __builtin_amdgcn_fence needs literal arguments, hence a macro.
#define CROSSLANE_FENCE_AT_SCOPE(ORDER, SCOPE)                                 \
  switch (SCOPE) {                                                             \
  case __memory_scope_work_item:                                               \
    break;                                                                     \
  case __memory_scope_sub_group:                                               \
    __builtin_amdgcn_fence(ORDER, "wavefront");                                \
    break;                                                                     \
  case __memory_scope_work_group:                                              \
    __builtin_amdgcn_fence(ORDER, "workgroup");                                \
    break;                                                                     \
  case __memory_scope_device:                                                  \
    __builtin_amdgcn_fence(ORDER, "agent");                                    \
    break;                                                                     \
  default: /* all_svm_devices: system scope */                                 \
    __builtin_amdgcn_fence(ORDER, "");                                         \
    break;                                                                     \
  }

extern "C" __device__ inline void
__atomic_work_item_fence(__cl_mem_fence_flags, __memory_order Order,
                         __memory_scope Scope) {
  // The fence covers all address spaces (the flags only narrow it).
  switch (Order) {
  case __memory_order_relaxed:
    break;
  case __memory_order_acquire:
    CROSSLANE_FENCE_AT_SCOPE(__ATOMIC_ACQUIRE, Scope);
    break;
  case __memory_order_release:
    CROSSLANE_FENCE_AT_SCOPE(__ATOMIC_RELEASE, Scope);
    break;
  case __memory_order_acq_rel:
    CROSSLANE_FENCE_AT_SCOPE(__ATOMIC_ACQ_REL, Scope);
    break;
  default:
    CROSSLANE_FENCE_AT_SCOPE(__ATOMIC_SEQ_CST, Scope);
    break;
  }
}
#undef CROSSLANE_FENCE_AT_SCOPE

#endif // __HIP_DEVICE_COMPILE__

// Declared for host and device compilation: the host pass parses device
// functions too.
#if defined(__HIP__) && !defined(CROSSLANE_NO_WARP_SYNC)
#include <hip/hip_runtime.h>

// CUDA's warp-synchronous functions. A wave runs its active lanes in
// lockstep, so the shuffles need no synchronisation: the mask (the lanes
// that take part, which must all be active) only narrows the votes. Vote
// results are 64-bit lane masks, as in ROCm 6.2; a 32-bit CUDA mask
// (0xffffffff) leaves the upper half of a wave64 out of the vote.
template <typename MaskT, typename T>
__device__ inline T __shfl_sync(MaskT, T Var, int Src, int Width = warpSize) {
  return __shfl(Var, Src, Width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_up_sync(MaskT, T Var, unsigned Delta,
                                   int Width = warpSize) {
  return __shfl_up(Var, Delta, Width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_down_sync(MaskT, T Var, unsigned Delta,
                                     int Width = warpSize) {
  return __shfl_down(Var, Delta, Width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_xor_sync(MaskT, T Var, int LaneMask,
                                    int Width = warpSize) {
  return __shfl_xor(Var, LaneMask, Width);
}
__device__ inline unsigned long long __activemask() { return __ballot(1); }
template <typename MaskT>
__device__ inline unsigned long long __ballot_sync(MaskT Mask, int Pred) {
  return __ballot(Pred) & (unsigned long long)Mask;
}
template <typename MaskT>
__device__ inline int __any_sync(MaskT Mask, int Pred) {
  return __ballot_sync(Mask, Pred) != 0;
}
template <typename MaskT>
__device__ inline int __all_sync(MaskT Mask, int Pred) {
  return __ballot_sync(Mask, Pred) == __ballot_sync(Mask, 1);
}
// Memory order among the wave's lanes: release, then acquire, at wavefront
// scope, around a wave barrier (no lane runs ahead of the others anyway).
template <typename MaskT = unsigned long long>
__device__ inline void __syncwarp(MaskT = ~0ull) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#endif // __HIP__ && !CROSSLANE_NO_WARP_SYNC

#endif // CROSSLANE_HIP_ROCM_COMPAT_H
