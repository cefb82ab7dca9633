//===- Runtime.h - HIP runtime state on top of Vortex ----------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The objects behind libcrosslane_hip_vortex.so's HIP entry points:
//
//  * CodeObject: one registered container (clang's __hipRegisterFatBinary)
//    and, once a kernel or variable of it is used, its image loaded on the
//    device.
//  * Stream: a Vortex queue plus the work enqueued on it and not yet
//    waited for. Launches and copies are asynchronous; the host waits only
//    at synchronisation points, with a time limit.
//  * Device: libvortex.so, the opened Vortex device, its allocations and
//    streams.
//
// All state is guarded by one mutex held by each HIP entry point
// (HipRuntime.cpp); nothing here locks.
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_VORTEXRUNTIME_RUNTIME_H
#define CROSSLANE_LIB_VORTEXRUNTIME_RUNTIME_H

#include "FatBinary.h"
#include "VortexApi.h"

#include "crosslane/vortex/hip_runtime_api.h"

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace crosslane {
namespace vortex {

/// The outcome of an operation: a HIP error code and, on failure, the
/// message hipGetErrorString reports for it.
struct Status {
  hipError_t Code = hipSuccess;
  std::string Message;

  static Status success() { return Status(); }
  static Status error(hipError_t Code, std::string Message) {
    return Status{Code, std::move(Message)};
  }
  bool ok() const { return Code == hipSuccess; }
};

/// Generic descriptions and names of HIP error codes (HipErrors.cpp).
const char *errorName(hipError_t Code);
const char *errorDescription(hipError_t Code);
/// Remembers \p Message as the explanation of \p Code for hipGetErrorString.
void noteErrorDetail(hipError_t Code, const std::string &Message);
/// The text hipGetErrorString returns: the description, plus the latest
/// detail noted for \p Code. The pointer stays valid for the program.
const char *errorString(hipError_t Code);

/// Exit-time hook (HipRuntime.cpp explains it): called once when a wait
/// times out.
void noteDeviceLost();

/// Formats \p Value as 0x-prefixed hexadecimal.
std::string hex(uint64_t Value);

/// A registered container and its loaded state on the device.
struct CodeObject {
  FatBinary Bin;
  /// The container's bytes when hipModuleLoad/hipModuleLoadData made it
  /// (Bin points into them); empty for a program's embedded container.
  std::vector<uint8_t> Owned;
  /// Why the container cannot be used (hipErrorInvalidImage), if it cannot.
  Status Invalid;

  bool Loaded = false;
  VxModule Module = nullptr;
  /// The image beyond its first page, which this runtime reserves and
  /// writes itself so that variables can be written (see Launch.cpp).
  VxBuffer Data = nullptr;
  uint64_t DataBase = 0;
  uint64_t DataSize = 0;
  std::map<std::string, VxKernel> KernelHandles;
};

/// One operation enqueued on a stream and not yet waited for.
struct PendingOp {
  VxEvent Event = nullptr;
  /// "kernel <name>" or the HIP call, for messages.
  std::string What;
  bool IsKernel = false;
  /// Host bytes an asynchronous host-to-device copy reads from.
  std::unique_ptr<uint8_t[]> Staging;
};

/// A HIP stream: one Vortex queue. Streams created by hipStreamCreate wait
/// for the null stream's earlier work, and the null stream for theirs (HIP's
/// blocking-stream semantics), through Vortex event wait lists.
struct Stream {
  VxQueue Queue = nullptr;
  std::deque<PendingOp> Pending;
  /// A failure found while retiring finished work, reported at the next
  /// synchronisation point.
  Status AsyncError;
};

/// A device memory range that device pointers may point into.
struct Allocation {
  VxBuffer Buffer = nullptr;
  uint64_t Size = 0;
  /// False for the data part of a loaded image, which hipFree rejects.
  bool Owned = true;
};

/// Enqueues one Vortex command after the events of its wait list; returns
/// its event.
using EnqueueFn = std::function<VxResult(uint32_t NumWaits,
                                         const VxEvent *Waits, VxEvent *Out)>;

/// The Vortex device and everything allocated on it.
class Device {
public:
  /// Loads <ConfigDir>/runtime/lib/libvortex.so and opens device 0.
  Status open(const std::string &ConfigDir);
  /// Waits for all work, optionally dumps performance counters, releases
  /// every handle (the loaded images of \p Codes too). Leaves a device that
  /// hung alone: its queues cannot be released.
  Status shutdown(const std::vector<std::unique_ptr<CodeObject>> &Codes,
                  bool DumpPerf);
  /// hipDeviceReset: waits, then frees allocations, user streams and the
  /// loaded images of \p Codes.
  Status reset(const std::vector<std::unique_ptr<CodeObject>> &Codes);

  // Queries. Properties come from the capabilities read at open.
  Status properties(hipDeviceProp_t &Props);
  Status attribute(hipDeviceAttribute_t Attr, int &Value);

  // Memory.
  Status allocate(size_t Size, void **Ptr);
  Status release(void *Ptr);
  /// The allocation holding \p Address, and the offset of Address in it;
  /// nullptr when there is none.
  const Allocation *find(uint64_t Address, uint64_t &Offset) const;
  Status copy(void *Dst, const void *Src, size_t Size, hipMemcpyKind Kind,
              Stream &S, bool Async);
  Status fill(void *Dst, int Value, size_t Size, Stream &S, bool Async);

  // Streams.
  Stream &nullStream() { return NullStream; }
  Status createStream(Stream *&Out);
  /// Waits for \p S's work and releases it.
  Status destroyStream(Stream *S);
  /// Whether \p S is a stream of this device; nullptr is the null stream.
  Stream *findStream(const void *S);
  Status synchronize(Stream &S);
  Status synchronizeAll();
  /// Enqueues through \p Fn after the work \p S must wait for, and tracks
  /// the resulting event.
  Status submit(Stream &S, PendingOp Op, const EnqueueFn &Fn);

  // Code (Launch.cpp).
  Status loadCode(CodeObject &Code);
  void unloadCode(CodeObject &Code);
  Status launch(CodeObject &Code, const KernelInfo &Kernel, dim3 Grid,
                dim3 Block, void **Args, size_t SharedMem, Stream &S);
  /// The device address of \p Var, loading its image first.
  Status symbolAddress(CodeObject &Code, const VarInfo &Var, uint64_t &Address);
  /// The device pointer for bytes [Offset, Offset + Size) of \p Var; fails
  /// when that range cannot be written from the host.
  Status symbolRange(CodeObject &Code, const VarInfo &Var, size_t Offset,
                     size_t Size, void *&Ptr);

private:
  Status checkUsable() const;
  Status vortexError(const std::string &What, VxResult Result,
                     hipError_t Code = hipErrorUnknown) const;
  Status retire(Stream &S);
  Status drain(Stream &S, std::chrono::steady_clock::time_point Deadline);
  Status markLost(const PendingOp &Op);
  void collectWaits(const Stream &S, std::vector<VxEvent> &Waits) const;
  Status resolvePointer(const void *Ptr, size_t Size, const char *Role,
                        Allocation &Alloc, uint64_t &Offset);
  Status copyKinds(void *Dst, const void *Src, size_t Size,
                   hipMemcpyKind &Kind);
  Status enqueueCopy(void *Dst, const void *Src, size_t Size,
                     hipMemcpyKind Kind, Stream &S, bool Async);
  Status checkLaunch(const KernelInfo &Kernel, dim3 Grid, dim3 Block,
                     size_t SharedMem, uint32_t &LmemSize);
  /// The entry of \p Kernel; \p FullWarps: every block of the launch is a
  /// whole number of warps (crosslane-vortex-abi's stub can be skipped).
  Status kernelHandle(CodeObject &Code, const KernelInfo &Kernel,
                      bool FullWarps, VxKernel &Handle);
  Status loadSplitImage(CodeObject &Code, const uint8_t *Image,
                        const VxbinLayout &Layout);
  Status uploadData(CodeObject &Code, const uint8_t *Image,
                    const VxbinLayout &Layout);

  VortexApi Api;
  std::string ConfigDir;
  VxDevice Handle = nullptr;
  uint64_t NumThreads = 0, NumWarps = 0, NumCores = 0, LocalMemSize = 0;
  uint64_t GlobalMemSize = 0, ClockMHz = 0, Version = 0;
  std::map<uint64_t, Allocation> Allocations;
  Stream NullStream;
  std::map<const void *, std::unique_ptr<Stream>> UserStreams;
  double TimeoutSeconds = 300;
  /// Set when a wait timed out: the device is stuck, its queues cannot be
  /// released, and every later call fails with this status.
  bool Lost = false;
  Status LostStatus;
};

} // namespace vortex
} // namespace crosslane

#endif // CROSSLANE_LIB_VORTEXRUNTIME_RUNTIME_H
