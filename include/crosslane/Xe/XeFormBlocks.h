//===- XeFormBlocks.h - 2D block loads formed from per-lane loads -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-xe-form-blocks<chip=NAME>: in spirv64 kernels that require
/// subgroups of 16, a subgroup loading the rows of a tile with per-lane
/// loads (lane L loads element(s) L of each row, rows evenly spaced, in
/// uniform control flow) gets one 2D block load instead, behind a run-time
/// guard for what the 2D load needs and the rewrite assumes, with the
/// original loads on the other path. crosslane-xe-block-io then validates,
/// splits and aligns the formed load like any other. See docs/Xe.md.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_XE_XEFORMBLOCKS_H
#define CROSSLANE_XE_XEFORMBLOCKS_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace crosslane {

struct XeFormBlocksOptions {
  /// Empty: -crosslane-xe-chip (default pvc).
  std::string Chip;
};

class XeFormBlocksPass : public llvm::PassInfoMixin<XeFormBlocksPass> {
  XeFormBlocksOptions Opts;

public:
  explicit XeFormBlocksPass(XeFormBlocksOptions Opts = {})
      : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
};

/// Parses the text between '<' and '>' of crosslane-xe-form-blocks<...>.
llvm::Expected<XeFormBlocksOptions>
parseXeFormBlocksOptions(llvm::StringRef Params);

} // namespace crosslane

#endif // CROSSLANE_XE_XEFORMBLOCKS_H
