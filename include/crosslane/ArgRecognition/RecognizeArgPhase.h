//===- RecognizeArgPhase.h - One phase of crosslane-recognize-arg alone ---===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-recognize-arg first reshapes the code it reads (struct copies,
/// vector state, f16 states moved as f32, ladder loops, folded high words),
/// then proves and rewrites chains, then combines per-lane atomics. Inside
/// the pass, a reshaping no rewrite used is undone. This pass runs one of
/// those phases alone and keeps its result, so that each can be tested and
/// debugged on its own (`opt -passes='crosslane-recognize-arg-phase<NAME>'`):
///
///   struct-copies   copies of {value, index} structs chosen through selects
///                   or phis of stack slots become per-field code; SROA and
///                   InstCombine then promote the slots (StructCopies.h)
///   vector-state    a state the SLP vectorizer packed into a vector becomes
///                   scalars (VectorState.h)
///   half-exchanges  an f16 state exchanged as its f32 extension is
///                   exchanged as its own bits (HalfExchanges.h)
///   ladder-loops    a shuffle ladder loop with a run-time trip count gets
///                   unrolled copies behind wave-uniform guards
///                   (LadderLoops.h; AMDGPU)
///   high-words      the exchange of an int64's high word InstCombine folded
///                   to 0 is put back (HighWords.h)
///   lane-atomics    per-lane atomics to one address become one reduction
///                   and one atomic per wave (LaneAtomics.h; AMDGPU)
///
/// Every phase computes what the function computed (the lit tests run the
/// result against the input in the executor).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_ARGRECOGNITION_RECOGNIZEARGPHASE_H
#define CROSSLANE_ARGRECOGNITION_RECOGNIZEARGPHASE_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace crosslane {

enum class RecognizeArgPhase {
  StructCopies,
  VectorState,
  HalfExchanges,
  LadderLoops,
  HighWords,
  LaneAtomics,
};

/// Parses the parameter of crosslane-recognize-arg-phase<NAME>.
llvm::Expected<RecognizeArgPhase>
parseRecognizeArgPhase(llvm::StringRef Params);

class RecognizeArgPhasePass
    : public llvm::PassInfoMixin<RecognizeArgPhasePass> {
public:
  explicit RecognizeArgPhasePass(RecognizeArgPhase Phase) : Phase(Phase) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);

private:
  RecognizeArgPhase Phase;
};

} // namespace crosslane

#endif // CROSSLANE_ARGRECOGNITION_RECOGNIZEARGPHASE_H
