//===- VortexFullWarps.cpp - Kernel copies for whole-warp launches --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Vortex/VortexFullWarps.h"
#include "crosslane/SubgroupReduce/SubgroupOps.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Vortex/VortexDivergence.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

#define DEBUG_TYPE "crosslane-vortex-full-warps"

CROSSLANE_STATISTIC(NumCopies, "Number of kernel entries copied for "
                               "whole-warp launches");
CROSSLANE_STATISTIC(NumFullCalls, "Number of subgroup operations that run "
                                  "with every lane on in such a copy");

static cl::opt<bool>
    Enabled("crosslane-vortex-full-warps",
            cl::desc("Vortex: give kernel entries a copy for launches of "
                     "whole warps whose subgroup operations outside "
                     "divergent code skip the lanes-off check (default on)"),
            cl::init(true));

namespace crosslane {

/// The blocks of \p F some lanes may run without the others: the regions of
/// its divergent branches and switches.
static SmallPtrSet<const BasicBlock *, 16>
divergentBlocks(Function &F, const VortexDivergenceInfo &DI,
                const PostDominatorTree &PDT) {
  SmallPtrSet<const BasicBlock *, 16> Blocks;
  for (BasicBlock &BB : F) {
    const Instruction *T = BB.getTerminator();
    bool Divergent = false;
    if (auto *Br = dyn_cast_or_null<BranchInst>(T))
      Divergent = DI.isDivergentBranch(*Br);
    else if (T && T->getNumSuccessors() > 1)
      Divergent = any_of(T->operands(),
                         [&](const Use &U) { return DI.isDivergent(U.get()); });
    if (Divergent)
      divergentRegion(&BB, PDT, Blocks);
  }
  return Blocks;
}

/// The calls of Crosslane subgroup operations in \p F that every lane
/// reaches when every lane enters \p F.
static SmallVector<CallInst *, 4> wholeWarpCalls(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *Callee = CI->getCalledFunction();
          Callee && subgroup::parseOpName(Callee->getName()))
        Calls.push_back(CI);
  if (Calls.empty())
    return Calls;
  DominatorTree DT(F);
  PostDominatorTree PDT(F);
  LoopInfo LI(DT);
  VortexDivergenceInfo DI(F, DT, PDT, LI);
  SmallPtrSet<const BasicBlock *, 16> Divergent = divergentBlocks(F, DI, PDT);
  erase_if(Calls,
           [&](CallInst *CI) { return Divergent.contains(CI->getParent()); });
  return Calls;
}

PreservedAnalyses VortexFullWarpsPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Enabled)
    return PreservedAnalyses::all();
  bool Changed = false;
  SmallVector<GlobalAlias *, 4> Entries;
  for (GlobalAlias &A : M.aliases())
    if (A.getName().starts_with(vortex::KernelEntryPrefix) &&
        A.getName().ends_with(vortex::FullWarpsSuffix))
      Entries.push_back(&A);
  for (GlobalAlias *A : Entries) {
    auto *E = dyn_cast<Function>(A->getAliasee());
    if (!E || E->isDeclaration())
      continue;
    SmallVector<CallInst *, 4> Calls = wholeWarpCalls(*E);
    if (Calls.empty())
      continue;
    ValueToValueMapTy VMap;
    Function *Copy = CloneFunction(E, VMap);
    Copy->setName(E->getName() + vortex::FullWarpsSuffix);
    Copy->setLinkage(GlobalValue::InternalLinkage);
    MDNode *Full = MDNode::get(M.getContext(), {});
    for (CallInst *CI : Calls) {
      auto *C = cast<CallInst>(VMap[CI]);
      C->setMetadata(subgroup::FullGroupsMD, Full);
      C->setMetadata(subgroup::WholeWarpLaunchMD, Full);
    }
    A->setAliasee(Copy);
    appendToUsed(M, {Copy});
    CROSSLANE_DEBUG(dbgs() << "crosslane-vortex-full-warps: " << A->getName()
                           << " -> " << Copy->getName() << ", " << Calls.size()
                           << " call(s) with every lane on\n");
    ++NumCopies;
    NumFullCalls += Calls.size();
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace crosslane
