//===- VortexDivergence.h - Divergent control flow on Vortex ----*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Vortex resolves every branch with the operands of the warp's last active
/// lane; only vx_split/vx_join/vx_pred change the thread mask. Upstream
/// LLVM's UniformityAnalysis says everything is uniform on RISC-V, so
/// Crosslane brings its own divergence analysis and makes every divergent
/// branch safe:
///   * divergent selects and integer min/max become branch-free arithmetic
///     (the RISC-V back end turns them into branch diamonds otherwise);
///   * switches become branch trees, exits are unified, irreducible loops
///     fixed and the CFG structurized when a divergent branch exists;
///   * a divergent if-region gets vx_split before its branch and vx_join in
///     a block before its immediate post-dominator;
///   * a divergent loop exit gets vx_pred(stay, mask at loop entry);
///   * cmpxchg (whose lr/sc loop the back end expands) runs one lane at a
///     time;
///   * a barrier left inside divergent control flow is diagnosed.
/// It runs inside the code generator, after CodeGenPrepare, so no later IR
/// pass adds a branch; `opt -passes=crosslane-vortex-divergence` runs it too.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_VORTEX_VORTEXDIVERGENCE_H
#define CROSSLANE_VORTEX_VORTEXDIVERGENCE_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class AllocaInst;
class BasicBlock;
class BranchInst;
class DominatorTree;
class Function;
class LoopInfo;
class Pass;
class PostDominatorTree;
class TargetPassConfig;
class Value;
} // namespace llvm

namespace crosslane {

/// Which values may differ between the lanes of a warp. Seeds: thread-id
/// CSRs, shuffles, unknown inline asm, calls, atomics, allocas (each lane
/// has its own stack), and the arguments of non-kernel functions. Values
/// follow their operands; phis also follow the divergent branches whose
/// paths they join (sync dependence) and the divergent exits of the loops
/// that define their incoming values (temporal divergence).
class VortexDivergenceInfo {
public:
  VortexDivergenceInfo(llvm::Function &F, const llvm::DominatorTree &DT,
                       const llvm::PostDominatorTree &PDT,
                       const llvm::LoopInfo &LI);
  bool isDivergent(const llvm::Value *V) const { return Divergent.contains(V); }
  /// A conditional branch whose condition is divergent.
  bool isDivergentBranch(const llvm::BranchInst &Br) const;
  bool hasDivergentBranch() const { return NumDivergentBranches != 0; }

private:
  llvm::Function &F;
  const llvm::DominatorTree &DT;
  const llvm::PostDominatorTree &PDT;
  const llvm::LoopInfo &LI;
  llvm::DenseSet<const llvm::Value *> Divergent;
  llvm::DenseSet<const llvm::BasicBlock *> BranchesDone;
  llvm::DenseSet<const llvm::AllocaInst *> DivergentSlots;
  llvm::DenseSet<const llvm::AllocaInst *> UniformSlots; ///< __UNIFORM__
  llvm::DenseSet<const llvm::Value *> DeclaredUniform;   ///< stored there
  unsigned NumDivergentBranches = 0;

  void seed(llvm::SmallVectorImpl<const llvm::Value *> &Work);
  static bool isPrivateSlot(const llvm::AllocaInst &Slot);
  static llvm::SmallVector<bool, 8>
  uniformFromCallers(const llvm::Function &Callee);
  void slotDivergent(const llvm::AllocaInst &Slot,
                     llvm::SmallVectorImpl<const llvm::Value *> &Work);
  void markDivergent(const llvm::Value *V,
                     llvm::SmallVectorImpl<const llvm::Value *> &Work);
  void joinsOf(const llvm::BranchInst &Br,
               llvm::SmallVectorImpl<const llvm::Value *> &Work);
};

/// The blocks between \p B's branch and its immediate post-dominator: the
/// code a group of lanes runs apart from the others when the branch is
/// divergent.
void divergentRegion(const llvm::BasicBlock *B,
                     const llvm::PostDominatorTree &PDT,
                     llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &Region);

/// The block where the paths from \p B meet again, or nullptr (a path that
/// never returns).
const llvm::BasicBlock *
immediatePostDominator(const llvm::BasicBlock *B,
                       const llvm::PostDominatorTree &PDT);

/// True if \p F is a kernel entry (its arguments are the same in every lane).
bool isVortexKernel(const llvm::Function &F);

/// Makes every divergent branch of \p F safe on Vortex (see the file
/// comment). Returns true if \p F changed.
bool makeVortexDivergenceSafe(llvm::Function &F);

struct VortexDivergencePass : public llvm::PassInfoMixin<VortexDivergencePass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  // Required: without it a divergent branch computes wrong results, also at
  // -O0 (optnone).
  static bool isRequired() { return true; }
};

/// The same, as a legacy pass for the code generator's pipeline.
llvm::Pass *createVortexDivergenceLegacyPass();

/// The machine-level check that every divergent branch is covered
/// (lib/Vortex/BranchCheck.cpp).
llvm::Pass *createVortexBranchCheckPass();

/// Inserts the legacy pass into a RISC-V code generator's pipeline, right
/// before instruction selection (it skips functions without +xvortex).
void addVortexCodeGenPasses(llvm::TargetPassConfig &PassConfig);

} // namespace crosslane

#endif // CROSSLANE_VORTEX_VORTEXDIVERGENCE_H
