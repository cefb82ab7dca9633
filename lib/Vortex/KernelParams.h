//===- KernelParams.h - Host and device layouts of kernel parameters -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A HIP kernel's parameters as the source declares them, read from the
/// kernel's debug info: for each, its rv32 (device) layout and its x86-64
/// (host) layout. Scalars are copied as the low bytes of the host value; a
/// struct whose layouts differ (8-byte pointers and `long` on the host) is
/// copied field by field. The kernel entry rebuilds the IR arguments the
/// RISC-V calling convention made of each parameter (one register, two
/// registers of a flattened struct, or a pointer to a copy).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_VORTEX_KERNELPARAMS_H
#define CROSSLANE_LIB_VORTEX_KERNELPARAMS_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace crosslane {

/// One scalar of a struct parameter.
struct ParamLeaf {
  uint64_t HostOffset = 0, DevOffset = 0, Size = 0; ///< Size: device bytes
  bool IsFloat = false;
};

struct SourceParam {
  std::string TypeName;
  bool IsAggregate = false;
  uint64_t DevSize = 0, DevAlign = 1, HostSize = 0, HostAlign = 1;
  llvm::SmallVector<ParamLeaf, 4> Leaves; ///< every scalar, in order
  /// Host and device layouts are the same bytes.
  bool sameLayout() const;
  /// The copies the host runtime makes: Leaves with runs that are
  /// contiguous on both sides merged.
  llvm::SmallVector<ParamLeaf, 4> copies() const;
};

/// The source parameters of \p K from its debug info. Returns false with
/// \p Why when \p K has no debug info or a parameter cannot be described
/// (bit-fields, `long double`, unions holding pointers).
bool describeKernelParams(const llvm::Function &K,
                          llvm::SmallVectorImpl<SourceParam> &Out,
                          std::string &Why);

} // namespace crosslane

#endif // CROSSLANE_LIB_VORTEX_KERNELPARAMS_H
