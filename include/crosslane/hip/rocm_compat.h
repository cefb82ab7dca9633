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

#endif // CROSSLANE_HIP_ROCM_COMPAT_H
