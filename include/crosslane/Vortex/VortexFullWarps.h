//===- VortexFullWarps.h - Kernel copies for whole-warp launches -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-vortex-full-warps: Vortex's HIP runtime enters a launch whose
/// blocks are whole warps through `__vx_kentry_<name>.fullwarps`
/// (EntryStub.cpp), where every lane of every warp is on. A Crosslane
/// subgroup operation that such a kernel reaches outside divergent control
/// flow therefore runs with its whole warp, and needs neither the check of
/// the warp mask nor the path for lanes that are off that the expansion
/// builds for any other call. The pass gives each kernel entry with such a
/// call its own copy for that symbol, in which those calls carry
/// `crosslane.full-groups` (the expansion then emits the full-warp steps
/// only); the entry partial-warp launches use keeps every path. Runs in the
/// device pipeline before the expansion; modules without Vortex kernel
/// entries are left alone.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_VORTEX_VORTEXFULLWARPS_H
#define CROSSLANE_VORTEX_VORTEXFULLWARPS_H

#include "llvm/IR/PassManager.h"

namespace crosslane {

struct VortexFullWarpsPass : public llvm::PassInfoMixin<VortexFullWarpsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace crosslane

#endif // CROSSLANE_VORTEX_VORTEXFULLWARPS_H
