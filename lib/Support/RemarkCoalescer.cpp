//===- RemarkCoalescer.cpp - One remark for the copies of one line --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/RemarkCoalescer.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crosslane {

void RemarkCoalescer::record(const DiagnosticInfoOptimizationBase &R) {
  std::string Key;
  raw_string_ostream OS(Key);
  OS << R.getKind() << '|' << R.getPassName() << '|' << R.getRemarkName() << '|'
     << R.getLocation().getRelativePath() << ':' << R.getLocation().getLine()
     << ':' << R.getLocation().getColumn() << '|' << R.getMsg();
  auto [It, New] = Index.try_emplace(Key, Entries.size());
  if (!New) {
    ++Entries[It->second].Count;
    return;
  }
  Entry E{DiagnosticKind(R.getKind()),
          R.getPassName().data(),
          R.getRemarkName().str(),
          R.getLocation(),
          {},
          1};
  E.Args.append(R.getArgs().begin(), R.getArgs().end());
  Entries.push_back(std::move(E));
}

void RemarkCoalescer::flush() {
  const BasicBlock *Region = F.empty() ? nullptr : &F.getEntryBlock();
  for (Entry &E : Entries) {
    auto Fill = [&](auto &&R) {
      for (const DiagnosticInfoOptimizationBase::Argument &A : E.Args)
        R << A;
      if (E.Count > 1)
        R << " [" << ore::NV("Copies", E.Count) << " copies of this line]";
      ORE.emit(R);
    };
    switch (E.Kind) {
    case DK_OptimizationRemark:
      Fill(OptimizationRemark(E.Pass, E.Name, E.Loc, Region));
      break;
    case DK_OptimizationRemarkMissed:
      Fill(OptimizationRemarkMissed(E.Pass, E.Name, E.Loc, Region));
      break;
    default:
      Fill(OptimizationRemarkAnalysis(E.Pass, E.Name, E.Loc, Region));
      break;
    }
  }
  Entries.clear();
  Index.clear();
}

} // namespace crosslane
