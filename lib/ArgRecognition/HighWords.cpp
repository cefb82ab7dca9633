//===- HighWords.cpp - Exchanges whose high word LLVM folded away ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HighWords.h"
#include "LaneMap.h"

#include "crosslane/Support/Debug.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "crosslane-recognize-arg"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace crosslane {
namespace argrec {
namespace {

/// An i64 whose low word is \p W and whose high word is zero, available
/// at \p W's read \p At: X for `trunc nuw X` or for `trunc X` with X's high
/// 32 bits known zero, or the code's own `and X, 0xFFFFFFFF` beside `trunc
/// X` (an index made from the i64 work-item id, whose high word nothing
/// bounds).
Value *zeroHighSource(Value *W, Instruction *At, const DominatorTree &DT) {
  auto *T = dyn_cast<TruncInst>(W);
  if (!T || !T->getType()->isIntegerTy(32) ||
      !T->getOperand(0)->getType()->isIntegerTy(64))
    return nullptr;
  Value *X = T->getOperand(0);
  if (T->hasNoUnsignedWrap() ||
      computeKnownBits(X, At->getDataLayout()).countMinLeadingZeros() >= 32)
    return X;
  for (User *U : X->users())
    if (match(U, m_And(m_Specific(X), m_SpecificInt(0xFFFFFFFF))) &&
        DT.dominates(U, At))
      return U;
  return nullptr;
}

/// Whether \p CI gives a lane without a source lane an `old` value of its
/// own (update.dpp, permlane16): the restored read would need the old
/// value's high word too, so such reads are left alone.
bool hasOldOperand(const CallInst *CI) {
  switch (CI->getIntrinsicID()) {
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_permlane16:
  case Intrinsic::amdgcn_permlanex16:
    return true;
  default:
    return false;
  }
}

/// Whether \p CI's block already exchanges X's high word with \p CI's lane
/// map (the same callee and operands but the data).
bool highWordExchanged(CallInst *CI, Value *X) {
  unsigned K = exchangedWordOperand(CI);
  for (Instruction &I : *CI->getParent()) {
    auto *Other = dyn_cast<CallInst>(&I);
    if (!Other || Other == CI ||
        Other->getCalledOperand() != CI->getCalledOperand() ||
        !match(Other->getArgOperand(K),
               m_Trunc(m_LShr(m_Specific(X), m_SpecificInt(32)))))
      continue;
    bool Same = true;
    for (unsigned A = 0; A < CI->arg_size(); ++A)
      Same &= A == K || Other->getArgOperand(A) == CI->getArgOperand(A);
    if (Same)
      return true;
  }
  return false;
}

/// The i64 zero extension of \p CI's result, if it has exactly one and
/// the code does not join it with another word, as the low or the high half
/// (a packed key whose halves are exchanged as computed).
ZExtInst *wideningOf(CallInst *CI) {
  ZExtInst *Z = nullptr;
  for (User *U : CI->users()) {
    auto *E = dyn_cast<ZExtInst>(U);
    if (!E || !E->getType()->isIntegerTy(64))
      continue;
    if (Z)
      return nullptr;
    Z = E;
  }
  if (Z && any_of(Z->users(), [&](User *U) {
        return match(U, m_c_Or(m_Specific(Z),
                               m_Shl(m_Value(), m_SpecificInt(32)))) ||
               match(U, m_Shl(m_Specific(Z), m_SpecificInt(32)));
      }))
    return nullptr;
  return Z;
}

/// Whether \p V is an i64 that a cross-lane read exchanges as two words
/// (`trunc (lshr V, 32)` is a read's word), or one joined from two words
/// read across lanes.
bool exchangedAsTwoWords(Value *V) {
  Value *Hi;
  if (match(V,
            m_c_Or(m_Shl(m_ZExt(m_Value(Hi)), m_SpecificInt(32)), m_Value())) &&
      isa<CallInst>(Hi) && exchangedWordOperand(cast<CallInst>(Hi)) != NoLane)
    return true;
  for (User *U : V->users())
    if (match(U, m_LShr(m_Specific(V), m_SpecificInt(32))))
      for (User *T : U->users())
        for (User *R : T->users())
          if (auto *CI = dyn_cast<CallInst>(R);
              CI && isa<TruncInst>(T) && exchangedWord(CI) == T)
            return true;
  return false;
}

/// Whether the lane state \p X, whose partner \p Z is narrowed, is one
/// component of a chain whose other stages exchange it as two words: the
/// i64 values that the selects and phis of the state connect to \p X and
/// \p Z (backwards from X, forwards from Z, a bounded search).
bool meetsTwoWordStage(Value *X, ZExtInst *Z) {
  SmallVector<Value *, 16> Work = {X, Z};
  SmallPtrSet<Value *, 32> Seen(from_range, Work);
  auto Visit = [&](Value *N) {
    if (N->getType()->isIntegerTy(64) && Seen.size() < 512 &&
        Seen.insert(N).second)
      Work.push_back(N);
  };
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (exchangedAsTwoWords(V))
      return true;
    if (auto *Phi = dyn_cast<PHINode>(V))
      for (Value *In : Phi->incoming_values())
        Visit(In);
    else if (auto *Sel = dyn_cast<SelectInst>(V))
      for (Value *In : {Sel->getTrueValue(), Sel->getFalseValue()})
        Visit(In);
    else if (V != X && V != Z)
      continue;
    for (User *U : V->users())
      Visit(U);
  }
  return false;
}

} // namespace

SmallVector<RestoredHighWord, 4>
restoreHighWords(Function &F, const DominatorTree &DT,
                 function_ref<void()> BeforeChange) {
  struct NarrowRead {
    CallInst *CI;
    ZExtInst *Z;
    Value *X; ///< the i64 both words are read from
  };
  SmallVector<NarrowRead, 4> Narrow;
  for (Instruction &I : instructions(F)) {
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || !CI->getType()->isIntegerTy(32) ||
        exchangedWordOperand(CI) == NoLane || hasOldOperand(CI))
      continue;
    Value *X = zeroHighSource(exchangedWord(CI), CI, DT);
    ZExtInst *Z = X ? wideningOf(CI) : nullptr;
    if (Z && !highWordExchanged(CI, X) && meetsTwoWordStage(X, Z))
      Narrow.push_back({CI, Z, X});
  }
  SmallVector<RestoredHighWord, 4> Restored;
  for (auto [CI, Z, X] : Narrow) {
    unsigned K = exchangedWordOperand(CI);
    auto *Lo = cast<TruncInst>(CI->getArgOperand(K));
    if (Restored.empty())
      BeforeChange();
    IRBuilder<> B(CI);
    // Both words are read from X (the low one is the same bits).
    if (X != Lo->getOperand(0))
      CI->setArgOperand(K, B.CreateTrunc(X, CI->getType()));
    Value *HiWord = B.CreateTrunc(B.CreateLShr(X, 32), CI->getType());
    Instruction *Hi = CI->clone();
    Hi->setOperand(K, HiWord);
    Hi->insertAfter(CI->getIterator());
    Hi->setName("crosslane.hi.read");
    B.SetInsertPoint(Z->getNextNode());
    Value *Wide = B.CreateShl(B.CreateZExt(Hi, Z->getType()), 32, "", true);
    auto *Join = cast<Instruction>(B.CreateOr(Wide, Z, "crosslane.join"));
    cast<PossiblyDisjointInst>(Join)->setIsDisjoint(true);
    Z->replaceUsesWithIf(Join, [&](Use &U) { return U.getUser() != Join; });
    Restored.push_back({Join, Z, CI, Lo});
    CROSSLANE_DEBUG(dbgs() << "crosslane-recognize-arg: restored the high word "
                              "exchange of "
                           << *CI << "\n");
  }
  return Restored;
}

void foldHighWords(ArrayRef<RestoredHighWord> Restored) {
  for (const RestoredHighWord &R : Restored) {
    auto *Join = dyn_cast_or_null<Instruction>(R.Join);
    if (!Join || !R.Ext)
      continue;
    Join->replaceAllUsesWith(R.Ext);
    RecursivelyDeleteTriviallyDeadInstructions(Join);
    auto *Read = dyn_cast_or_null<CallInst>(R.Read);
    if (!Read || !R.Word || exchangedWord(Read) == R.Word)
      continue;
    Value *Moved = exchangedWord(Read);
    Read->setArgOperand(exchangedWordOperand(Read), R.Word);
    RecursivelyDeleteTriviallyDeadInstructions(Moved);
  }
}

} // namespace argrec
} // namespace crosslane
