//===- VortexCodeGen.cpp - Crosslane's Vortex passes in the code generator ===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The divergence pass must see the IR instruction selection sees: it runs
/// after the last IR pass of the RISC-V pipeline that changes control flow:
/// after CallBrPrepare, which TargetPassConfig::addISelPrepare adds at every
/// optimisation level after CodeGenPrepare; only the stack protector (which
/// instruction selection requires as an analysis, so it must run after us)
/// and SafeStack follow.
///
//===----------------------------------------------------------------------===//

#include "crosslane/Vortex/VortexDivergence.h"

#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/Pass.h"

#include <memory>

using namespace llvm;

namespace crosslane {

void addVortexCodeGenPasses(TargetPassConfig &PassConfig) {
  // LLVM does not export CallBrPrepare's pass ID; an instance names it.
  std::unique_ptr<Pass> CallBr(createCallBrPass());
  PassConfig.insertPass(CallBr->getPassID(),
                        createVortexDivergenceLegacyPass());
  // The check reads the selected code once its pseudos are expanded.
  PassConfig.insertPass(&FinalizeISelID, createVortexBranchCheckPass());
}

} // namespace crosslane
