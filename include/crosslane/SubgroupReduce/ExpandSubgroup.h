//===- ExpandSubgroup.h - Expand subgroup reductions to DPP -----*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-expand-subgroup: expands Crosslane's portable subgroup
/// operations (`__crosslane_reduce_*`, `__crosslane_argmax/argmin/argcmp_*`,
/// see SubgroupOps.h and docs/SubgroupOps.md) and LLVM's own
/// `llvm.amdgcn.wave.reduce.*` into DPP / permlane / ballot sequences chosen
/// for the function's target CPU and wave size.
///
/// Parameters (`crosslane-expand-subgroup<no-wwm;no-wave-reduce>`):
///   no-wwm          assume every lane of the wave executes each call
///                   (skips set.inactive + whole-wave mode; unsafe in
///                   divergent code — for measurement and for callers that
///                   guarantee convergence).
///   no-wave-reduce  leave llvm.amdgcn.wave.reduce.* to LLVM.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUBGROUPREDUCE_EXPANDSUBGROUP_H
#define CROSSLANE_SUBGROUPREDUCE_EXPANDSUBGROUP_H

#include "crosslane/Support/IntrinsicDeclCache.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace crosslane {

struct ExpandSubgroupOptions {
  bool AssumeFullWave = false; ///< no-wwm
  bool WaveReduce = true;      ///< expand llvm.amdgcn.wave.reduce.*
};

class ExpandSubgroupPass : public llvm::PassInfoMixin<ExpandSubgroupPass> {
  ExpandSubgroupOptions Opts;
  IntrinsicDeclCache Decls;

public:
  explicit ExpandSubgroupPass(ExpandSubgroupOptions Opts = {}) : Opts(Opts) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  /// The operations have no definition: they must be expanded at -O0 too.
  static bool isRequired() { return true; }
};

/// Parses the text between '<' and '>' of crosslane-expand-subgroup<...>.
llvm::Expected<ExpandSubgroupOptions>
parseExpandSubgroupOptions(llvm::StringRef Params);

} // namespace crosslane

#endif // CROSSLANE_SUBGROUPREDUCE_EXPANDSUBGROUP_H
