//===- VortexLaunch.h - Vortex kernel meta and argument blobs ---*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the Vortex target model reads from a module to launch a HIP kernel:
/// the kernel records of `@__crosslane_vx_meta` (written by
/// crosslane-vortex-abi; docs/Vortex.md, "The meta section"), and the
/// argument blob the KMU hands the entry `__crosslane_vx_entry.<mangled>`.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_EXECUTOR_VORTEXLAUNCH_H
#define CROSSLANE_LIB_EXECUTOR_VORTEXLAUNCH_H

#include "crosslane/Executor/Executor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace crosslane {
namespace exec {

/// The prefix of the entry crosslane-vortex-abi emits for a HIP kernel.
inline constexpr llvm::StringLiteral VortexEntryPrefix =
    "__crosslane_vx_entry.";

struct VortexParamMeta {
  uint32_t Offset = 0, Size = 0;
  std::string Type; ///< source type from the mangled name ("" if unknown)
  bool isPointer() const {
    return llvm::StringRef(Type).ends_with("*") ||
           llvm::StringRef(Type).ends_with("&");
  }
};

/// One `kernel` record with its `param` records.
struct VortexKernelMeta {
  std::string Name; ///< mangled
  std::string Demangled;
  uint64_t ArgsSize = 0, ArgsAlign = 4, LmemStatic = 0;
  std::vector<VortexParamMeta> Params;
};

/// The kernel records of \p M's `@__crosslane_vx_meta` (none if it has no
/// meta). False with \p Err if the text is malformed.
bool readVortexMeta(const llvm::Module &M, std::vector<VortexKernelMeta> &Out,
                    std::string &Err);

/// Lays the launch arguments \p C.Args (one per HIP parameter; buffer I at
/// address \p BufAddr[I]) out as \p K's blob. False with \p Err on a wrong
/// count or a buffer/scalar mismatch with the parameter's type.
bool packVortexArgs(const VortexKernelMeta &K, const LaunchConfig &C,
                    llvm::ArrayRef<uint64_t> BufAddr,
                    std::vector<uint8_t> &Blob, std::string &Err);

} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_LIB_EXECUTOR_VORTEXLAUNCH_H
