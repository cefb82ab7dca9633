//===- VortexApi.h - Vortex runtime entry points, loaded at run time
//-------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Crosslane's own declarations of the part of Vortex's C runtime API
// (libvortex.so, v3.0) that the HIP runtime uses. Every type, constant and
// signature below mirrors sw/runtime/include/vortex2.h of Vortex v3.0
// (/work/shared/vortex/prebuilt/<config>/runtime/include/vortex2.h); the
// library is opened with dlopen, so building Crosslane needs no Vortex.
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_VORTEXRUNTIME_VORTEXAPI_H
#define CROSSLANE_LIB_VORTEXRUNTIME_VORTEXAPI_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace crosslane {
namespace vortex {

// Handles (vortex2.h: vx_device_h and vx_buffer_h are void *, the others
// pointers to incomplete structs; all are passed as plain pointers).
using VxDevice = void *;
using VxBuffer = void *;
using VxQueue = void *;
using VxEvent = void *;
using VxModule = void *;
using VxKernel = void *;

/// vortex2.h vx_result_t.
using VxResult = int;
constexpr VxResult VxSuccess = 0;    // VX_SUCCESS
constexpr VxResult VxErrTimeout = 7; // VX_ERR_TIMEOUT

// vortex2.h VX_CAPS_* ids for vx_device_query.
constexpr uint32_t VxCapsVersion = 0x0;
constexpr uint32_t VxCapsNumThreads = 0x1;
constexpr uint32_t VxCapsNumWarps = 0x2;
constexpr uint32_t VxCapsNumCores = 0x3;
constexpr uint32_t VxCapsGlobalMemSize = 0x5;
constexpr uint32_t VxCapsLocalMemSize = 0x6;
constexpr uint32_t VxCapsClockRate = 0xD; // MHz

// vortex2.h VX_MEM_* access flags.
constexpr uint32_t VxMemReadWrite = 0x3;

/// vortex2.h vx_queue_info_t.
struct VxQueueInfo {
  size_t StructSize;
  const void *Next;
  int Priority; // vx_queue_priority_e; VX_QUEUE_PRIORITY_NORMAL = 1
  uint32_t Flags;
};
constexpr int VxQueuePriorityNormal = 1;

/// vortex2.h vx_launch_info_t.
struct VxLaunchInfo {
  size_t StructSize;
  const void *Next;
  VxKernel Kernel;
  const void *ArgsHost;
  size_t ArgsSize;
  uint32_t NDim;
  uint32_t GridDim[3];
  uint32_t BlockDim[3];
  uint32_t LmemSize;
  uint32_t ClusterDim[3];
};

/// The vortex2.h functions used, as X(name, return type, parameter list).
#define CROSSLANE_VORTEX_FUNCTIONS(X)                                          \
  X(vx_device_open, VxResult, (uint32_t, VxDevice *))                          \
  X(vx_device_release, VxResult, (VxDevice))                                   \
  X(vx_device_query, VxResult, (VxDevice, uint32_t, uint64_t *))               \
  X(vx_device_dump_perf, VxResult, (VxDevice, FILE *))                         \
  X(vx_buffer_create, VxResult, (VxDevice, uint64_t, uint32_t, VxBuffer *))    \
  X(vx_buffer_reserve, VxResult,                                               \
    (VxDevice, uint64_t, uint64_t, uint32_t, VxBuffer *))                      \
  X(vx_buffer_release, VxResult, (VxBuffer))                                   \
  X(vx_buffer_address, VxResult, (VxBuffer, uint64_t *))                       \
  X(vx_module_load_bytes, VxResult,                                            \
    (VxDevice, const void *, size_t, VxModule *))                              \
  X(vx_module_release, VxResult, (VxModule))                                   \
  X(vx_module_get_kernel, VxResult, (VxModule, const char *, VxKernel *))      \
  X(vx_kernel_release, VxResult, (VxKernel))                                   \
  X(vx_queue_create, VxResult, (VxDevice, const VxQueueInfo *, VxQueue *))     \
  X(vx_queue_release, VxResult, (VxQueue))                                     \
  X(vx_enqueue_launch, VxResult,                                               \
    (VxQueue, const VxLaunchInfo *, uint32_t, const VxEvent *, VxEvent *))     \
  X(vx_enqueue_copy, VxResult,                                                 \
    (VxQueue, VxBuffer, uint64_t, VxBuffer, uint64_t, uint64_t, uint32_t,      \
     const VxEvent *, VxEvent *))                                              \
  X(vx_enqueue_read, VxResult,                                                 \
    (VxQueue, void *, VxBuffer, uint64_t, uint64_t, uint32_t, const VxEvent *, \
     VxEvent *))                                                               \
  X(vx_enqueue_write, VxResult,                                                \
    (VxQueue, VxBuffer, uint64_t, const void *, uint64_t, uint32_t,            \
     const VxEvent *, VxEvent *))                                              \
  X(vx_enqueue_fill_buffer, VxResult,                                          \
    (VxQueue, VxBuffer, uint64_t, uint64_t, const void *, size_t, uint32_t,    \
     const VxEvent *, VxEvent *))                                              \
  X(vx_event_wait_value, VxResult, (VxEvent, uint64_t, uint64_t))              \
  X(vx_event_release, VxResult, (VxEvent))                                     \
  X(vx_result_string, const char *, (VxResult))

/// libvortex.so, opened with dlopen; one pointer per function used.
struct VortexApi {
#define CROSSLANE_VORTEX_MEMBER(Name, Ret, Params) Ret(*Name) Params = nullptr;
  CROSSLANE_VORTEX_FUNCTIONS(CROSSLANE_VORTEX_MEMBER)
#undef CROSSLANE_VORTEX_MEMBER

  /// Opens \p LibraryPath and resolves every function. On failure returns
  /// false with the reason (the path tried and dlerror()) in \p Error.
  bool load(const std::string &LibraryPath, std::string &Error);

  /// vx_result_string, or a number when the library gave no text.
  std::string describe(VxResult Result) const;

private:
  void *Handle = nullptr;
};

} // namespace vortex
} // namespace crosslane

#endif // CROSSLANE_LIB_VORTEXRUNTIME_VORTEXAPI_H
