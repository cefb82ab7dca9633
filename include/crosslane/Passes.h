//===- Passes.h - Register Crosslane's passes with a PassBuilder -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One registration function serves every host that loads Crosslane: opt
/// (-load-pass-plugin), clang (-fpass-plugin, or -fplugin with the clang
/// plugin), ld.lld (--load-pass-plugin) and Crosslane's own tools.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_PASSES_H
#define CROSSLANE_PASSES_H

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace crosslane {

/// Registers every pass name in Passes.def with \p PB's textual pipeline
/// parser and, unless -crosslane-auto=false, appends the device pipeline to
/// the OptimizerLast and FullLTO-last extension points.
void registerPasses(llvm::PassBuilder &PB);

/// Appends Crosslane's device pipeline (what clang -fpass-plugin runs on
/// AMDGPU device code) to \p MPM. Passes skip host modules themselves.
void addDevicePipeline(llvm::ModulePassManager &MPM,
                       llvm::OptimizationLevel Level);

} // namespace crosslane

#endif // CROSSLANE_PASSES_H
