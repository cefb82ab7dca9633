//===- TargetInfoPrinter.cpp - print<crosslane-target> --------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// USAGE:
//   opt-22 -load-pass-plugin=build/lib/CrosslanePlugin.so \
//     -passes='print<crosslane-target>' -disable-output in.ll
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/TargetInfoPrinter.h"
#include "crosslane/Support/ChipInfo.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace crosslane {

PreservedAnalyses TargetInfoPrinterPass::run(Function &F,
                                             FunctionAnalysisManager &) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  OS << "crosslane-target: " << F.getName() << ": ";
  if (std::optional<ChipInfo> C = ChipInfo::get(F))
    C->print(OS);
  else
    OS << "not an AMDGPU function with a known target-cpu";
  OS << '\n';
  return PreservedAnalyses::all();
}

PreservedAnalyses TargetRemarksPass::run(Function &F,
                                         FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || F.getCallingConv() != CallingConv::AMDGPU_KERNEL)
    return PreservedAnalyses::all();
  // The chip's facts are only looked up when the remark is wanted (asked
  // of the context, as OptimizationRemarkEmitter::enabled does, before the
  // emitter is made).
  LLVMContext &Ctx = F.getContext();
  if (!Ctx.getLLVMRemarkStreamer() &&
      !Ctx.getDiagHandlerPtr()->isAnyRemarkEnabled())
    return PreservedAnalyses::all();
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  std::optional<ChipInfo> C = ChipInfo::get(F);
  if (!C)
    return PreservedAnalyses::all();
  ORE.emit([&] {
    std::string Facts;
    raw_string_ostream FS(Facts);
    C->print(FS);
    return OptimizationRemarkAnalysis("crosslane", "Target", &F)
           << "kernel " << ore::NV("Kernel", F.getName()) << " targets "
           << ore::NV("Chip", Facts);
  });
  return PreservedAnalyses::all();
}

} // namespace crosslane
