//===- VortexKernelABI.h - Vortex kernel entries and local memory -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What upstream clang does not do for a Vortex v3.0 (KMU) program, done at
/// the start of the optimisation pipeline on modules with +xvortex code:
///   * every kernel gets its `__vx_kentry_<name>` symbol (Vortex's .vxbin
///     tool builds the kernel table from them): functions annotated
///     "vortex.kernel" (Vortex's `__kernel`, taking the argument pointer)
///     get an alias; HIP kernels (annotated "crosslane.vortex.kernel" by
///     Crosslane's hip_runtime.h) get an entry that unpacks their arguments
///     from the blob the KMU passes in a0, laid out as rv32 lays them out;
///   * `__shared__` variables (annotated "crosslane.vortex.shared") and
///     `extern __shared__` arrays move into the CTA's local memory (CSR
///     0xCDF): statics at fixed offsets, the dynamic array after them;
///   * a `.crosslane.vortex.meta` section describes each kernel's argument
///     blob and local memory, and each `__device__` variable, for the host
///     runtime (docs/Vortex.md has the format);
///   * atomics on a target without the A extension are diagnosed.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_VORTEX_VORTEXKERNELABI_H
#define CROSSLANE_VORTEX_VORTEXKERNELABI_H

#include "llvm/IR/PassManager.h"

namespace crosslane {

struct VortexKernelABIPass : public llvm::PassInfoMixin<VortexKernelABIPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Required: a kernel without its entry cannot be launched, also at -O0.
  static bool isRequired() { return true; }
};

} // namespace crosslane

#endif // CROSSLANE_VORTEX_VORTEXKERNELABI_H
