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

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
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

/// True for an intrinsic whose lowering relies on the operands' quieting.
bool isQuietingIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::canonicalize:
  case Intrinsic::maximumnum:
  case Intrinsic::minimumnum:
    return true;
  default:
    return false;
  }
}

static bool needsQuieting(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && isQuietingIntrinsic(II->getIntrinsicID());
}

bool needsQuieting(const Function &F) {
  // strictfp code keeps LLVM's own lowering, quieting included.
  return F.hasFnAttribute(Attribute::StrictFP) ||
         any_of(instructions(F),
                [](const Instruction &I) { return needsQuieting(I); });
}

bool QuietingCalls::in(const Function &F) {
  if (F.hasFnAttribute(Attribute::StrictFP))
    return true;
  refresh(*F.getParent());
  unsigned Budget = 64;
  for (const WeakVH &H : Decls) {
    const auto *D = dyn_cast_or_null<Function>(H);
    if (!D)
      continue;
    for (const User *U : D->users()) {
      if (Budget-- == 0)
        return needsQuieting(F);
      const auto *CB = dyn_cast<CallBase>(U);
      if (CB && CB->getCalledOperand() == D && CB->getFunction() == &F)
        return true;
    }
  }
  return false;
}

void QuietingCalls::refresh(const Module &M) {
  if (M.empty())
    return;
  Module::const_iterator From = M.begin();
  if (Indexed == &M && Last) {
    const auto *L = cast<Function>(Last);
    if (L == &M.getFunctionList().back())
      return;
    From = std::next(L->getIterator());
  } else {
    Decls.clear();
    Indexed = &M;
  }
  for (const Function &D : make_range(From, M.end()))
    if (isQuietingIntrinsic(D.getIntrinsicID()))
      Decls.emplace_back(const_cast<Function *>(&D));
  Last = const_cast<Function *>(&M.getFunctionList().back());
}

static bool isBallot(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == Intrinsic::amdgcn_ballot;
}

/// Whether \p S is a guard entry the pass looks at: tagged as one, with a
/// condition a ballot reads. The expansion's `fcmp ord %v, %v` feeds both
/// the NaN ballot and the entry select, so the module can be indexed from
/// the ballots' uses instead of read in full. (An entry whose ballot later
/// optimisation removed, its NaN result being unused, has no result select
/// either: nothing to relax.)
static bool isGuardEntry(const SelectInst &S) {
  // (A constant, such as `i1 true`, keeps no list of its uses.)
  return hasRole(S, NaNGuardRole::Entry) && S.getCondition()->hasUseList() &&
         any_of(S.getCondition()->users(),
                [](const User *U) { return isBallot(U); });
}

/// Adds the users of \p V that are guard entries to \p Entries.
static void addEntriesAmong(const Value &V,
                            SmallVectorImpl<SelectInst *> &Entries) {
  if (!V.hasUseList())
    return;
  for (const User *U : V.users())
    if (auto *S = dyn_cast<SelectInst>(U);
        S && isGuardEntry(*S) && !is_contained(Entries, S))
      Entries.push_back(const_cast<SelectInst *>(S));
}

/// Puts \p Entries (of one function) in program order, for the remarks.
static void sortInProgramOrder(Function &F,
                               SmallVectorImpl<SelectInst *> &Entries) {
  if (Entries.size() < 2)
    return;
  DenseMap<const BasicBlock *, unsigned> Pos;
  for (BasicBlock &BB : F)
    Pos.try_emplace(&BB, Pos.size());
  llvm::sort(Entries, [&](SelectInst *A, SelectInst *B) {
    unsigned PA = Pos.lookup(A->getParent()), PB = Pos.lookup(B->getParent());
    return PA != PB ? PA < PB : A->comesBefore(B);
  });
}

/// Removes the guards whose entry selects are \p Entries (of \p F), unless
/// \p Quieting (the function needs maxnum's operand quieting, see
/// needsQuieting).
static bool relaxEntries(Function &F, ArrayRef<SelectInst *> Entries,
                         bool Quieting) {
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

bool relaxNaNGuards(Function &F) {
  // One walk for the guards and for what keeps them.
  SmallVector<SelectInst *, 4> Entries;
  bool Quieting = F.hasFnAttribute(Attribute::StrictFP);
  for (Instruction &I : instructions(F)) {
    if (auto *S = dyn_cast<SelectInst>(&I)) {
      if (isGuardEntry(*S))
        Entries.push_back(S);
    } else {
      Quieting |= needsQuieting(I);
    }
  }
  if (Entries.empty())
    return false;
  return relaxEntries(F, Entries, Quieting);
}

PreservedAnalyses RelaxNaNGuardPass::run(Function &F,
                                         FunctionAnalysisManager &) {
  noteStatisticsCounted();
  if (!relaxNaNGuards(F))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

namespace {

/// In the code generator, the pass runs on every function of the module
/// before any other pass does (its own function pass manager, first in the
/// pipeline), so what each function holds is known from the module's
/// declarations before the first one: the guards from the ballots' uses
/// (quieting calls from the quieting intrinsics' uses, QuietingCalls). A
/// function is then looked at only where it has a guard, instead of reading
/// all its instructions. (Value handles: an entry another pass deleted is
/// not looked at.)
class RelaxNaNGuardLegacy : public FunctionPass {
public:
  static char ID;
  RelaxNaNGuardLegacy() : FunctionPass(ID) {}
  bool doInitialization(Module &M) override;
  bool runOnFunction(Function &F) override;
  bool doFinalization(Module &) override {
    Guards.clear();
    return false;
  }
  StringRef getPassName() const override {
    return "Crosslane: relax fmin/fmax NaN guards";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
  }

private:
  DenseMap<const Function *, SmallVector<WeakVH, 2>> Guards;
  QuietingCalls Quieting;
};

bool RelaxNaNGuardLegacy::doInitialization(Module &M) {
  noteStatisticsCounted();
  Guards.clear();
  SmallVector<SelectInst *, 8> Found;
  auto Note = [&]() {
    for (SelectInst *S : Found) {
      auto &List = Guards[S->getFunction()];
      if (!is_contained(List, S))
        List.emplace_back(S);
    }
    Found.clear();
  };
  // Guard entries, from the ballots that read their conditions
  // (isGuardEntry).
  for (Function &D : M) {
    if (D.getIntrinsicID() != Intrinsic::amdgcn_ballot)
      continue;
    for (User *U : D.users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == &D)
        addEntriesAmong(*CB->getArgOperand(0), Found);
    Note();
  }
  return false;
}

bool RelaxNaNGuardLegacy::runOnFunction(Function &F) {
  auto It = Guards.find(&F);
  if (It == Guards.end())
    return false;
  SmallVector<SelectInst *, 4> Entries;
  for (const WeakVH &H : It->second)
    if (auto *S = dyn_cast_or_null<SelectInst>(H);
        S && S->getFunction() == &F && hasRole(*S, NaNGuardRole::Entry))
      Entries.push_back(S);
  Guards.erase(It);
  if (Entries.empty())
    return false;
  sortInProgramOrder(F, Entries);
  return relaxEntries(F, Entries, Quieting.in(F));
}

} // namespace

char RelaxNaNGuardLegacy::ID = 0;
static RegisterPass<RelaxNaNGuardLegacy>
    RegisterRelax(DEBUG_TYPE, "Crosslane: relax fmin/fmax NaN guards",
                  /*CFGOnly=*/false, /*is_analysis=*/false);

FunctionPass *createRelaxNaNGuardLegacyPass() {
  return new RelaxNaNGuardLegacy();
}

} // namespace crosslane
