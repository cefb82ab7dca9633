//===- XeBlockIO.h - Validate Intel Xe 2D block IO --------------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-xe-block-io<chip=NAME;lower=igc>: checks every 2D block operation
/// of a spirv64 function against the rules nobody else checks (LLVM's SPIR-V
/// backend and spirv-val check none of them): the calls of
/// SPV_INTEL_2d_block_io (`__spirv_Subgroup2DBlock{Load,LoadTransform,
/// LoadTranspose,Prefetch,Store}INTEL`) and of cl_intel_subgroup_2d_block_io
/// (`intel_sub_group_2d_block_{read,read_transform,read_transpose,write,
/// prefetch}_<bits>b_<H>r<W>x<C>c`), for one chip (pvc, bmg, lnl, ptl, cri; dg2
/// has no 2D block hardware). See docs/Xe.md.
///
/// A broken rule is an error at the call's source line naming the rule; a
/// rule it cannot prove (a 64-byte-aligned base, uniform operands in a
/// function whose callers it does not see) is a missed remark; each valid
/// operation gets a remark with the bytes each lane receives. Calls are
/// marked convergent, and a kernel without a required subgroup size gets
/// `intel_reqd_sub_group_size(16)` (with a remark).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_XE_XEBLOCKIO_H
#define CROSSLANE_XE_XEBLOCKIO_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace crosslane {

struct XeBlockIOOptions {
  /// Empty: -crosslane-xe-chip (default pvc).
  std::string Chip;
  /// lower=igc: valid reads IGC 1.0.12504 has a flat builtin for become
  /// that builtin (the offline compiler Debian 12 ships knows neither
  /// 2D block spelling).
  bool LowerIGC = false;
  /// base=assume: trust that every base is 64-byte aligned (a missed
  /// remark where it is not proven) instead of moving unproven bases to a
  /// 64-byte boundary at run time behind a guard (the default).
  bool AssumeAlignedBase = false;
};

class XeBlockIOPass : public llvm::PassInfoMixin<XeBlockIOPass> {
  XeBlockIOOptions Opts;

public:
  explicit XeBlockIOPass(XeBlockIOOptions Opts = {}) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }
};

/// What a kernel generator needs to know of an Xe chip
/// (include/crosslane/Xe/XeBlockIO.td).
struct XeChipLimits {
  unsigned LocalMemBytes = 0;
  unsigned MaxWorkGroupSize = 0;
};
/// The limits of the Xe chip named \p Name, if it is one.
std::optional<XeChipLimits> xeChipLimits(llvm::StringRef Name);

/// Parses the text between '<' and '>' of crosslane-xe-block-io<...>.
llvm::Expected<XeBlockIOOptions> parseXeBlockIOOptions(llvm::StringRef Params);

} // namespace crosslane

#endif // CROSSLANE_XE_XEBLOCKIO_H
