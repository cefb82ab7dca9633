//===- SourceLocation.h - Where diagnostics point -------------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Crosslane's remarks and errors are about code the user wrote, but the
/// instructions they are about usually come from inlined runtime headers
/// (ROCm's __shfl_xor, Crosslane's own crosslane.h wrappers). userDebugLoc
/// walks the inlining chain to the first location outside those headers.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_SOURCELOCATION_H
#define CROSSLANE_SUPPORT_SOURCELOCATION_H

#include "llvm/IR/DebugLoc.h"

namespace llvm {
class Instruction;
} // namespace llvm

namespace crosslane {

/// The innermost location of \p I's inlining chain that is not in a HIP
/// runtime header (`.../include/hip/...`, `.../crosslane/hip/...`); \p I's
/// own location when every one is, or when it has none.
llvm::DebugLoc userDebugLoc(const llvm::Instruction *I);

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_SOURCELOCATION_H
