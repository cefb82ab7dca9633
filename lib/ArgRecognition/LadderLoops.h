//===- LadderLoops.h - Shuffle ladders in loops with run-time trip counts -===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A shuffle ladder written as a loop whose trip count is a run-time value
/// (PyTorch's block_x_reduce: `for (offset = 1; offset < dim_x; offset <<=
/// 1) v = combine(v, shfl_down(v, offset))`) is not unrolled by clang, so
/// its lane maps are not constants and the recogniser cannot follow them.
/// versionLadderLoops gives such a loop an unrolled copy for the trip count
/// that covers a whole wave (log2 of the wave size iterations, or the count
/// the loop's own constants fix) and, with -crosslane-ladder-spans, for
/// smaller power-of-two spans of lanes (a 1-D block of 32 threads on a
/// wave64 chip), each entered only when a wave-uniform guard shows that the
/// loop would run exactly that many times; the loop stays for every other
/// count.
/// Each copy's shuffle addresses are then constant lane expressions. The
/// recogniser proves and rewrites the copy like any unrolled ladder; a copy it
/// does not rewrite is removed again (dropLadderVersion: its guard's "no" edge,
/// to the next copy or the loop, is taken unconditionally), so the function is
/// left as it was.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_LADDERLOOPS_H
#define CROSSLANE_LIB_ARGRECOGNITION_LADDERLOOPS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/UniformityAnalysis.h"

namespace llvm {
class BasicBlock;
class BranchInst;
class DominatorTree;
class Function;
class Instruction;
class LoopInfo;
} // namespace llvm

namespace crosslane {
namespace argrec {

/// One versioned loop.
struct LadderVersion {
  /// In the loop's preheader: true enters the unrolled copy, false the loop.
  llvm::BranchInst *Entry = nullptr;
  llvm::BasicBlock *LoopHeader = nullptr;
  llvm::SmallVector<llvm::Instruction *, 8> CopyCalls; ///< ds_bpermute
  llvm::SmallVector<llvm::Instruction *, 8> LoopCalls; ///< ds_bpermute
  unsigned Iterations = 0;
  bool BallotGuard = false; ///< the guard was made uniform with a ballot
  /// Not the loop's first copy: entered on the previous copy's "no" edge;
  /// its remarks are analysis remarks.
  bool Secondary = false;
};

/// Versions every innermost loop of \p F that holds a ds_bpermute whose
/// address depends on the iteration and whose trip count is not a
/// constant. \p DT is kept up to date; \p LI describes the original loops
/// only (copies are straight-line code). \p GetUI is asked only when a
/// guard reads a value that is not a constant; \p BeforeChange before the
/// first change to \p F.
llvm::SmallVector<LadderVersion, 2>
versionLadderLoops(llvm::Function &F, llvm::LoopInfo &LI,
                   llvm::DominatorTree &DT, unsigned WaveSize,
                   llvm::function_ref<const llvm::UniformityInfo &()> GetUI,
                   llvm::function_ref<void()> BeforeChange);

/// Instructions a trip count or an address may be computed with: pure
/// functions of their operands, so also uniform when those are (no phi).
bool isFoldable(const llvm::Instruction &I);

/// The work-group queries of the HIP headers (device-library calls when no
/// device library is linked; the uniformity analysis sees only a call).
bool isUniformQuery(const llvm::Value *V);

/// Removes \p V's copy: its guard's block branches on along the "no" edge
/// (to the next copy's guard or the loop), and the copy is left unreachable.
/// Versions of one loop are dropped in the order versionLadderLoops made
/// them, so each next guard's block merges into the one before. The caller
/// removes unreachable blocks once, after all versions are settled
/// (removeUnreachableBlocks folds constant guards, so removing them per
/// version would delete another version's entry branch).
void dropLadderVersion(const LadderVersion &V);

/// Whether \p V's "no" edge leads straight to its loop (not to another copy
/// that is still there).
bool fallsToLoop(const LadderVersion &V);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_LADDERLOOPS_H
