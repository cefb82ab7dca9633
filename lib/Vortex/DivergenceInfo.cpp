//===- DivergenceInfo.cpp - Which values differ between Vortex lanes ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A forward data-flow analysis over def-use chains, iterated with the
/// control dependences it discovers: a phi is divergent where the paths of
/// a divergent branch meet (every multi-predecessor block reachable from the
/// branch before its immediate post-dominator, and that post-dominator),
/// and a value defined inside a loop with a divergent exit is divergent at
/// its uses outside the loop. The analysis errs towards "divergent": a
/// uniform branch treated as divergent only costs a split/join pair.
///
//===----------------------------------------------------------------------===//

#include "crosslane/Vortex/VortexDivergence.h"

#include "crosslane/Vortex/VortexISA.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace crosslane {

bool isVortexKernel(const Function &F) {
  return F.hasFnAttribute("crosslane-vortex-kernel");
}

/// Whether the result of the call \p CB starts divergent on its own.
static bool callSeedsDivergence(const CallBase &CB) {
  if (CB.getType()->isVoidTy())
    return false;
  if (auto Info = vortex::decodeAsm(CB))
    return vortex::asmResultDivergent(*Info);
  // Intrinsics without side effects follow their operands.
  if (const Function *Callee = CB.getCalledFunction())
    if (Callee->isIntrinsic() && CB.onlyReadsMemory() &&
        !CB.mayHaveSideEffects())
      return false;
  return true;
}

VortexDivergenceInfo::VortexDivergenceInfo(Function &F, const DominatorTree &DT,
                                           const PostDominatorTree &PDT,
                                           const LoopInfo &LI)
    : F(F), DT(DT), PDT(PDT), LI(LI) {
  SmallVector<const Value *, 64> Work;
  seed(Work);
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || I->getFunction() != &F)
        continue;
      if (const auto *Br = dyn_cast<BranchInst>(I)) {
        if (Br->isConditional() &&
            BranchesDone.insert(Br->getParent()).second) {
          ++NumDivergentBranches;
          joinsOf(*Br, Work);
        }
        continue;
      }
      if (const auto *St = dyn_cast<StoreInst>(I)) {
        if (St->getValueOperand() == V)
          if (auto *Slot = dyn_cast<AllocaInst>(St->getPointerOperand()))
            slotDivergent(*Slot, Work);
        continue;
      }
      if (isa<SwitchInst>(I) || isa<IndirectBrInst>(I) ||
          I->getType()->isVoidTy())
        continue;
      markDivergent(I, Work);
    }
  }
}

/// An alloca used only as the address of loads and stores (clang's -O0
/// locals): each lane has its own copy, but the copies hold one value as
/// long as every store to it stores a uniform value outside divergent
/// control flow. Any other use lets the per-lane address itself escape.
/// The string of an llvm.var.annotation call (Vortex's __UNIFORM__ is
/// annotate("vortex.uniform") on a local or parameter), or "".
static StringRef varAnnotation(const Instruction *I) {
  const auto *II = dyn_cast<IntrinsicInst>(I);
  if (!II || II->getIntrinsicID() != Intrinsic::var_annotation)
    return "";
  const auto *G =
      dyn_cast<GlobalVariable>(II->getArgOperand(1)->stripPointerCasts());
  const auto *D =
      G ? dyn_cast_or_null<ConstantDataArray>(G->getInitializer()) : nullptr;
  return D && D->isCString() ? D->getAsCString() : "";
}

bool VortexDivergenceInfo::isPrivateSlot(const AllocaInst &Slot) {
  for (const Use &U : Slot.uses()) {
    const auto *I = dyn_cast<Instruction>(U.getUser());
    if (isa<LoadInst>(I) || !varAnnotation(I).empty())
      continue;
    if (const auto *St = dyn_cast<StoreInst>(I))
      if (St->getPointerOperand() == &Slot)
        continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(I))
      if (II->isLifetimeStartOrEnd() || II->isDroppable())
        continue;
    return false;
  }
  return true;
}

void VortexDivergenceInfo::slotDivergent(const AllocaInst &Slot,
                                         SmallVectorImpl<const Value *> &Work) {
  if (UniformSlots.contains(&Slot) || !DivergentSlots.insert(&Slot).second)
    return;
  for (const User *U : Slot.users())
    if (isa<LoadInst>(U))
      markDivergent(U, Work);
}

void VortexDivergenceInfo::markDivergent(const Value *V,
                                         SmallVectorImpl<const Value *> &Work) {
  if (!DeclaredUniform.contains(V) && Divergent.insert(V).second)
    Work.push_back(V);
}

void VortexDivergenceInfo::seed(SmallVectorImpl<const Value *> &Work) {
  for (const Instruction &I : instructions(F)) {
    if (const auto *Slot = dyn_cast<AllocaInst>(&I)) {
      // The programmer's word (__UNIFORM__ / annotate("vortex.divergent"))
      // decides for an annotated slot, as in Vortex's own compiler.
      for (const User *U : Slot->users()) {
        StringRef Note = varAnnotation(cast<Instruction>(U));
        if (Note == "vortex.uniform") {
          // Also the values stored there (at -O1+ the optimiser forwards
          // the stored argument to the slot's loads).
          UniformSlots.insert(Slot);
          for (const User *V : Slot->users())
            if (const auto *St = dyn_cast<StoreInst>(V))
              if (St->getPointerOperand() == Slot)
                DeclaredUniform.insert(St->getValueOperand());
        } else if (Note == "vortex.divergent")
          slotDivergent(*Slot, Work);
      }
      if (!isPrivateSlot(*Slot))
        markDivergent(&I, Work);
    } else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) ||
               isa<LandingPadInst>(I))
      markDivergent(&I, Work);
    else if (const auto *CB = dyn_cast<CallBase>(&I))
      if (callSeedsDivergence(*CB))
        markDivergent(&I, Work);
  }
  if (isVortexKernel(F))
    return;
  SmallVector<bool, 8> Uniform = uniformFromCallers(F);
  for (const Argument &A : F.args())
    if (!Uniform[A.getArgNo()])
      markDivergent(&A, Work);
}

/// Arguments every caller passes uniform values for. Only for a function
/// the module fully sees (local linkage, used by direct calls alone); the
/// callers are analysed with their own arguments divergent (one level).
SmallVector<bool, 8>
VortexDivergenceInfo::uniformFromCallers(const Function &Callee) {
  SmallVector<bool, 8> Uniform(Callee.arg_size(), false);
  static thread_local unsigned Depth = 0;
  if (!Callee.hasLocalLinkage() || Depth > 0 || Callee.arg_empty() ||
      Callee.use_empty())
    return Uniform;
  SmallVector<const CallBase *, 8> Calls;
  for (const Use &U : Callee.uses()) {
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U) || !CB->getFunction() ||
        !vortex::isVortexFunction(*CB->getFunction()))
      return Uniform;
    Calls.push_back(CB);
  }
  Uniform.assign(Callee.arg_size(), true);
  ++Depth;
  for (const CallBase *CB : Calls) {
    Function &Caller = *const_cast<Function *>(CB->getFunction());
    DominatorTree CDT(Caller);
    PostDominatorTree CPDT(Caller);
    LoopInfo CLI(CDT);
    VortexDivergenceInfo CallerInfo(Caller, CDT, CPDT, CLI);
    for (unsigned I = 0; I < Callee.arg_size(); ++I)
      if (CallerInfo.isDivergent(CB->getArgOperand(I)))
        Uniform[I] = false;
  }
  --Depth;
  return Uniform;
}

const BasicBlock *immediatePostDominator(const BasicBlock *B,
                                         const PostDominatorTree &PDT) {
  const DomTreeNodeBase<BasicBlock> *Node = PDT.getNode(B);
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

/// For every block reachable from a successor of \p B before \p B's
/// immediate post-dominator (included), how many of \p B's successors reach
/// it.
static DenseMap<const BasicBlock *, unsigned>
successorsReaching(const BasicBlock *B, const PostDominatorTree &PDT) {
  const BasicBlock *Join = immediatePostDominator(B, PDT);
  DenseMap<const BasicBlock *, unsigned> Count;
  SmallPtrSet<const BasicBlock *, 4> Succs;
  for (const BasicBlock *S : successors(B)) {
    if (!Succs.insert(S).second)
      continue;
    SmallVector<const BasicBlock *, 16> Stack{S};
    SmallPtrSet<const BasicBlock *, 16> Seen;
    while (!Stack.empty()) {
      const BasicBlock *X = Stack.pop_back_val();
      if (!Seen.insert(X).second)
        continue;
      ++Count[X];
      if (X != Join)
        append_range(Stack, successors(X));
    }
  }
  return Count;
}

void divergentRegion(const BasicBlock *B, const PostDominatorTree &PDT,
                     SmallPtrSetImpl<const BasicBlock *> &Region) {
  const BasicBlock *Join = immediatePostDominator(B, PDT);
  for (auto &[X, N] : successorsReaching(B, PDT))
    if (X != Join)
      Region.insert(X);
}

/// A phi whose incoming values are one value (or undefined) does not
/// depend on the path taken.
static bool isPathIndependent(const PHINode &Phi) {
  const Value *Common = nullptr;
  for (const Value *V : Phi.incoming_values()) {
    if (isa<UndefValue>(V) || V == &Phi)
      continue;
    if (Common && Common != V)
      return false;
    Common = V;
  }
  return true;
}

/// Marks what a divergent branch makes divergent: the phis where paths from
/// two of its successors meet and, for a loop exit, the values used after
/// the loop.
void VortexDivergenceInfo::joinsOf(const BranchInst &Br,
                                   SmallVectorImpl<const Value *> &Work) {
  const BasicBlock *B = Br.getParent();
  const BasicBlock *Join = immediatePostDominator(B, PDT);
  for (auto &[X, N] : successorsReaching(B, PDT)) {
    if (N > 1)
      for (const PHINode &Phi : X->phis())
        if (!isPathIndependent(Phi))
          markDivergent(&Phi, Work);
    // A private slot stored to on one path holds lane-dependent values.
    if (X != Join)
      for (const Instruction &I : *X)
        if (const auto *St = dyn_cast<StoreInst>(&I))
          if (auto *Slot = dyn_cast<AllocaInst>(St->getPointerOperand()))
            slotDivergent(*Slot, Work);
  }
  const Loop *L = LI.getLoopFor(B);
  if (!L || all_of(successors(B),
                   [&](const BasicBlock *S) { return L->contains(S); }))
    return;
  for (const BasicBlock *X : L->blocks())
    for (const Instruction &I : *X)
      for (const User *U : I.users())
        if (const auto *UI = dyn_cast<Instruction>(U))
          if (!L->contains(UI->getParent()))
            markDivergent(UI, Work);
}

bool VortexDivergenceInfo::isDivergentBranch(const BranchInst &Br) const {
  return Br.isConditional() && Divergent.contains(Br.getCondition());
}

} // namespace crosslane
