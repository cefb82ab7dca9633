//===- RecognizeArgReduce.h - Recognise hand-written reductions -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-recognize-arg: finds cross-lane butterflies that HIP code writes
/// by hand (`__shfl_xor` loops, which clang lowers to `ds_bpermute`) and
/// replaces a chain by one Crosslane subgroup operation
/// (`__crosslane_reduce_*`, `__crosslane_argmax/argmin_*`) only when the
/// replacement provably returns the same bits in every lane. The expansion
/// pass then lowers the operation to DPP / permlane / ballot code.
///
/// The proof (docs/ArgRecognition.md):
///   1. a stage is a group of ds.bpermute calls sharing one address; its lane
///      map is evaluated for every lane of the chip's wave (so GFX10+ wave64's
///      half-local ds_bpermute is accounted for) and must be `lane ^ M`;
///   2. the combine between two stages may only compare and select; it is
///      evaluated on order representatives of (self, partner), which covers
///      every order type of its inputs, and must equal "take the partner iff
///      it is strictly better" for one total order (a min/max, or an
///      argmax/argmin with the smaller index winning ties);
///   3. then the xor butterfly's result is the order's extreme over the
///      cluster, independent of lane order.
/// Everything else is left alone with an OptimizationRemarkMissed naming the
/// reason (-Rpass-missed=crosslane-recognize-arg).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_ARGRECOGNITION_RECOGNIZEARGREDUCE_H
#define CROSSLANE_ARGRECOGNITION_RECOGNIZEARGREDUCE_H

#include "llvm/IR/PassManager.h"

#include <memory>

namespace crosslane {
namespace argrec {
class StageCache;
} // namespace argrec

class RecognizeArgReducePass
    : public llvm::PassInfoMixin<RecognizeArgReducePass> {
public:
  RecognizeArgReducePass();
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

private:
  /// Stage proofs shared by the functions of a module (identical combines
  /// are proven once).
  std::shared_ptr<argrec::StageCache> Cache;
};

} // namespace crosslane

#endif // CROSSLANE_ARGRECOGNITION_RECOGNIZEARGREDUCE_H
