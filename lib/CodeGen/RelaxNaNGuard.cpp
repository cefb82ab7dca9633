//===- RelaxNaNGuard.cpp - Relax fmin/fmax NaN guards ---------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The guard (ExpandSubgroup.cpp, buildReduce) of an fmax reduction is
///
///   %ord = fcmp ord %v, %v                ; feeds a ballot
///   %w   = select %ord, %v, -inf          ; !crosslane.nan.guard "entry"
///   %x   = set.inactive(%w, -inf)
///   ...  nnan llvm.maxnum steps over lane moves ...
///   %r   = select %allnan, qNaN, %bits    ; !crosslane.nan.guard "result"
///
/// and becomes
///
///   %x   = set.inactive(%v, qNaN)
///   ...  llvm.maxnum steps (no nnan) ...
///   %r   = %bits
///
/// which is a tree of llvm.maxnum over the active lanes: a NaN lane is
/// ignored, an all-NaN cluster gives a NaN, an inactive lane (qNaN) is
/// ignored too. The rewrite is all or nothing per guard: the chain from the
/// entry to the result select must consist of the instructions the
/// expansion emits (lane moves, bit casts, widening, the steps).
///
//===----------------------------------------------------------------------===//

#include "crosslane/CodeGen/RelaxNaNGuard.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Pass.h"
#include "llvm/PassRegistry.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "crosslane-relax-nan-guard"

using namespace llvm;

CROSSLANE_STATISTIC(NumRelaxed, "Number of fmin/fmax NaN guards removed");

namespace crosslane {

static StringRef roleName(NaNGuardRole Role) {
  return Role == NaNGuardRole::Entry ? "entry" : "result";
}

void tagNaNGuard(Instruction &I, NaNGuardRole Role) {
  LLVMContext &Ctx = I.getContext();
  I.setMetadata(NaNGuardMD,
                MDNode::get(Ctx, MDString::get(Ctx, roleName(Role))));
}

static bool hasRole(const Instruction &I, NaNGuardRole Role) {
  if (!I.hasMetadataOtherThanDebugLoc())
    return false;
  MDNode *N = I.getMetadata(NaNGuardMD);
  if (!N || N->getNumOperands() != 1)
    return false;
  auto *S = dyn_cast<MDString>(N->getOperand(0));
  return S && S->getString() == roleName(Role);
}

namespace {

/// What removing one guard changes, collected before anything changes.
struct GuardChain {
  SelectInst *Entry = nullptr;
  SmallVector<SelectInst *, 2> Results;
  SmallVector<IntrinsicInst *, 16> Steps;   ///< maxnum/minnum nnan
  SmallVector<IntrinsicInst *, 2> Inactive; ///< set.inactive(chain, id)
};

/// Lane moves and other value-preserving intrinsics the steps pass through.
bool isLaneMove(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_mov_dpp:
  case Intrinsic::amdgcn_permlanex16:
  case Intrinsic::amdgcn_permlane16:
  case Intrinsic::amdgcn_permlane64:
  case Intrinsic::amdgcn_permlane16_swap:
  case Intrinsic::amdgcn_permlane32_swap:
  case Intrinsic::amdgcn_readlane:
  case Intrinsic::amdgcn_readfirstlane:
  case Intrinsic::amdgcn_ds_swizzle:
  case Intrinsic::amdgcn_ds_bpermute:
  case Intrinsic::amdgcn_strict_wwm:
  case Intrinsic::amdgcn_wwm:
    return true;
  default:
    return false;
  }
}

/// Walks every use reachable from the entry select up to the result
/// select(s). False when some user is not part of a reduction chain.
bool collectChain(SelectInst *Entry, Constant *Identity, GuardChain &C) {
  C.Entry = Entry;
  SmallVector<Instruction *, 32> Work{Entry};
  SmallPtrSet<Instruction *, 32> Seen{Entry};
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    for (User *U : I->users()) {
      auto *UI = cast<Instruction>(U);
      if (!Seen.insert(UI).second)
        continue;
      if (auto *Sel = dyn_cast<SelectInst>(UI)) {
        if (hasRole(*Sel, NaNGuardRole::Result) && Sel->getFalseValue() == I) {
          C.Results.push_back(Sel);
          continue;
        }
        // A lane-dependent choice between moved values (readlane gathers):
        // the chain may be an arm, never the condition, and no arm may be
        // a constant (an identity would not stand for "no value" once NaNs
        // reach the steps).
        if (Sel->getCondition() == I || isa<Constant>(Sel->getTrueValue()) ||
            isa<Constant>(Sel->getFalseValue()))
          return false;
        Work.push_back(Sel);
        continue;
      }
      if (isa<BitCastInst, FPExtInst, FPTruncInst, ExtractValueInst,
              InsertValueInst>(UI)) {
        Work.push_back(UI);
        continue;
      }
      auto *II = dyn_cast<IntrinsicInst>(UI);
      if (!II)
        return false;
      Intrinsic::ID ID = II->getIntrinsicID();
      if (ID == Intrinsic::maxnum || ID == Intrinsic::minnum) {
        if (!II->hasNoNaNs())
          return false;
        C.Steps.push_back(II);
      } else if (ID == Intrinsic::amdgcn_set_inactive) {
        // Inactive lanes must hold a value maxnum ignores: the same
        // identity the guard used, replaced by a quiet NaN below.
        if (II->getArgOperand(0) != I || II->getArgOperand(1) != Identity)
          return false;
        C.Inactive.push_back(II);
      } else if (!isLaneMove(ID)) {
        return false;
      }
      Work.push_back(II);
    }
  }
  return !C.Results.empty();
}

void removeGuard(GuardChain &C) {
  SmallVector<WeakTrackingVH, 8> Dead;
  for (IntrinsicInst *II : C.Inactive)
    II->setArgOperand(1, ConstantFP::getQNaN(II->getType()));
  for (IntrinsicInst *II : C.Steps)
    II->setHasNoNaNs(false);
  for (SelectInst *R : C.Results) {
    Dead.push_back(R->getCondition());
    R->replaceAllUsesWith(R->getFalseValue());
    R->eraseFromParent();
  }
  Dead.push_back(C.Entry->getCondition());
  C.Entry->replaceAllUsesWith(C.Entry->getTrueValue());
  C.Entry->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
}

/// The entry select: select (fcmp ord %v, %v), %w, <fp identity>.
Constant *entryIdentity(SelectInst &S) {
  auto *Cmp = dyn_cast<FCmpInst>(S.getCondition());
  auto *Id = dyn_cast<ConstantFP>(S.getFalseValue());
  if (!Cmp || Cmp->getPredicate() != FCmpInst::FCMP_ORD || !Id || Id->isNaN() ||
      !S.getType()->isFloatTy())
    return nullptr;
  return Id;
}

} // namespace

/// True for a call whose lowering relies on the operands' quieting.
static bool needsQuieting(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::canonicalize:
  case Intrinsic::maximumnum:
  case Intrinsic::minimumnum:
    return true;
  default:
    return false;
  }
}

bool needsQuieting(const Function &F) {
  // strictfp code keeps LLVM's own lowering, quieting included.
  return F.hasFnAttribute(Attribute::StrictFP) ||
         any_of(instructions(F),
                [](const Instruction &I) { return needsQuieting(I); });
}

bool relaxNaNGuards(Function &F) {
  // One walk for the guards and for what keeps them.
  SmallVector<SelectInst *, 4> Entries;
  bool Quieting = F.hasFnAttribute(Attribute::StrictFP);
  for (Instruction &I : instructions(F)) {
    if (auto *S = dyn_cast<SelectInst>(&I)) {
      if (hasRole(*S, NaNGuardRole::Entry))
        Entries.push_back(S);
    } else {
      Quieting |= needsQuieting(I);
    }
  }
  if (Entries.empty())
    return false;

  OptimizationRemarkEmitter ORE(&F);
  if (Quieting) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "GuardKept",
                                      userDebugLoc(Entries[0]),
                                      Entries[0]->getParent())
             << "fmin/fmax reductions keep their NaN guards: the function "
                "is strictfp or calls llvm.canonicalize or "
                "llvm.maximumnum/minimumnum, whose lowering needs the operand "
                "quieting the guard avoids";
    });
    return false;
  }
  bool Changed = false;
  for (SelectInst *S : Entries) {
    GuardChain C;
    Constant *Id = entryIdentity(*S);
    if (!Id || !collectChain(S, Id, C)) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "GuardKept",
                                        userDebugLoc(S), S->getParent())
               << "fmin/fmax reduction keeps its NaN guard: its chain is "
                  "not the one crosslane-expand-subgroup emits";
      });
      continue;
    }
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "GuardRemoved", userDebugLoc(S),
                                S->getParent())
             << "fmin/fmax reduction reduces NaNs with llvm.maxnum/minnum "
                "itself (guard removed; "
             << ore::NV("Steps", unsigned(C.Steps.size()))
             << (C.Steps.size() == 1 ? " step)" : " steps)");
    });
    removeGuard(C);
    ++NumRelaxed;
    Changed = true;
  }
  if (Changed)
    F.addFnAttr(RelaxedMinMaxAttr);
  return Changed;
}

PreservedAnalyses RelaxNaNGuardPass::run(Function &F,
                                         FunctionAnalysisManager &) {
  if (!relaxNaNGuards(F))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

namespace {

class RelaxNaNGuardLegacy : public FunctionPass {
public:
  static char ID;
  RelaxNaNGuardLegacy() : FunctionPass(ID) {}
  bool runOnFunction(Function &F) override { return relaxNaNGuards(F); }
  StringRef getPassName() const override {
    return "Crosslane: relax fmin/fmax NaN guards";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
  }
};

} // namespace

char RelaxNaNGuardLegacy::ID = 0;
static RegisterPass<RelaxNaNGuardLegacy>
    RegisterRelax(DEBUG_TYPE, "Crosslane: relax fmin/fmax NaN guards",
                  /*CFGOnly=*/false, /*is_analysis=*/false);

FunctionPass *createRelaxNaNGuardLegacyPass() {
  return new RelaxNaNGuardLegacy();
}

} // namespace crosslane
