//===- RecognizeArgPhase.cpp - One phase of crosslane-recognize-arg alone -===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/ArgRecognition/RecognizeArgPhase.h"
#include "HalfExchanges.h"
#include "HighWords.h"
#include "LadderLoops.h"
#include "LaneAtomics.h"
#include "LaneMap.h"
#include "StructCopies.h"
#include "VectorState.h"
#include "VortexLaneOps.h"
#include "crosslane/Support/ChipInfo.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace crosslane {

static constexpr std::pair<RecognizeArgPhase, StringLiteral> PhaseNames[] = {
    {RecognizeArgPhase::StructCopies, "struct-copies"},
    {RecognizeArgPhase::VectorState, "vector-state"},
    {RecognizeArgPhase::HalfExchanges, "half-exchanges"},
    {RecognizeArgPhase::LadderLoops, "ladder-loops"},
    {RecognizeArgPhase::HighWords, "high-words"},
    {RecognizeArgPhase::LaneAtomics, "lane-atomics"},
};

Expected<RecognizeArgPhase> parseRecognizeArgPhase(StringRef Params) {
  for (auto [Phase, Name] : PhaseNames)
    if (Params == Name)
      return Phase;
  std::string Names;
  for (auto [Phase, Name] : PhaseNames)
    Names += (Names.empty() ? "" : ", ") + Name.str();
  return make_error<StringError>(
      formatv("invalid crosslane-recognize-arg-phase parameter '{0}' "
              "(expected one of {1})",
              Params, Names)
          .str(),
      inconvertibleErrorCode());
}

void RecognizeArgPhasePass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << MapClassName2PassName(name()) << '<';
  for (auto [Phase, Name] : PhaseNames)
    if (Phase == this->Phase)
      OS << Name;
  OS << '>';
}

/// The ladder-loop phase: versions the loops and keeps every copy.
static bool versionLoops(Function &F, FunctionAnalysisManager &FAM,
                         unsigned WaveSize) {
  SmallVector<argrec::LadderVersion, 2> Versions = argrec::versionLadderLoops(
      F, FAM.getResult<LoopAnalysis>(F),
      FAM.getResult<DominatorTreeAnalysis>(F), WaveSize,
      [&]() -> const UniformityInfo & {
        return FAM.getResult<UniformityInfoAnalysis>(F);
      },
      [] {});
  return !Versions.empty();
}

PreservedAnalyses RecognizeArgPhasePass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  // The same chips as crosslane-recognize-arg; ladder loops and lane
  // atomics are AMDGPU's phases only.
  std::optional<ChipInfo> Chip = argrec::recognitionChip(F);
  if (!Chip)
    return PreservedAnalyses::all();
  bool Vortex = argrec::isVortexChip(*Chip);
  auto Nothing = [] {};
  bool Changed = false, CFG = false;
  switch (Phase) {
  case RecognizeArgPhase::StructCopies:
    Changed =
        argrec::hasExchanges(F) && argrec::prepareStructCopies(F, FAM, Nothing);
    break;
  case RecognizeArgPhase::VectorState:
    Changed = argrec::scalarizeExchangedElements(F, Nothing);
    break;
  case RecognizeArgPhase::HalfExchanges:
    Changed = argrec::narrowHalfExchanges(F, Nothing);
    break;
  case RecognizeArgPhase::LadderLoops:
    Changed = CFG = !Vortex && versionLoops(F, FAM, Chip->WaveSize);
    break;
  case RecognizeArgPhase::HighWords:
    Changed = !argrec::restoreHighWords(
                   F, FAM.getResult<DominatorTreeAnalysis>(F), Nothing)
                   .empty();
    break;
  case RecognizeArgPhase::LaneAtomics:
    Changed = CFG = !Vortex && argrec::hasLaneAtomics(F) &&
                    argrec::combineLaneAtomics(
                        F, *Chip, FAM.getResult<UniformityInfoAnalysis>(F),
                        FAM.getResult<OptimizationRemarkEmitterAnalysis>(F));
    break;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  if (CFG)
    return PreservedAnalyses::none();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace crosslane
