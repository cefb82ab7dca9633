//===- TargetInfoPrinter.h - Print what Crosslane knows of a target C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// print<crosslane-target>: for every AMDGPU function, prints the ChipInfo
/// Crosslane derives from its attributes (wave size, DPP controls, permlane
/// instructions). It is how a user checks what a chip will get before any
/// lowering runs, and how the tests pin the per-chip facts.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_TARGETINFOPRINTER_H
#define CROSSLANE_SUPPORT_TARGETINFOPRINTER_H

#include "llvm/IR/PassManager.h"

namespace crosslane {

class TargetInfoPrinterPass
    : public llvm::PassInfoMixin<TargetInfoPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit TargetInfoPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  // Printing is harmless, so it runs on optnone (-O0) functions as well.
  static bool isRequired() { return true; }
};

/// crosslane-target-remarks: one optimization-analysis remark per kernel
/// naming the chip facts Crosslane will lower for. Part of the device
/// pipeline, so `clang -Rpass-analysis=crosslane` shows what each device
/// compilation targets.
class TargetRemarksPass : public llvm::PassInfoMixin<TargetRemarksPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_TARGETINFOPRINTER_H
