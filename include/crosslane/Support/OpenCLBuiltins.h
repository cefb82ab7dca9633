//===- OpenCLBuiltins.h - Calls of OpenCL builtins in spirv64 IR -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Crosslane's Xe code (the 2D block passes, the subgroup expansion, the
/// reduction kernel generator) calls OpenCL builtins by their Itanium-mangled
/// names, as clang's OpenCL front end and MLIR's XeVM lowering do: declared
/// and called with the spir_func calling convention.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_OPENCLBUILTINS_H
#define CROSSLANE_SUPPORT_OPENCLBUILTINS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallInst;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace crosslane {

/// Calls the OpenCL builtin \p Name (mangled) returning \p Ret on \p Args,
/// declaring it in the module if needed; a subgroup or work-group operation
/// is \p Convergent (declaration and call).
llvm::CallInst *emitOpenCLCall(llvm::IRBuilderBase &B, llvm::StringRef Name,
                               llvm::Type *Ret,
                               llvm::ArrayRef<llvm::Value *> Args,
                               bool Convergent = false);

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_OPENCLBUILTINS_H
