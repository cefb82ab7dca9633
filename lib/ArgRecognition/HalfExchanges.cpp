//===- HalfExchanges.cpp - f16 values exchanged as their f32 extension ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HalfExchanges.h"
#include "LaneMap.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace crosslane {
namespace argrec {
namespace {

/// Finds, and where needed builds, the f16 value a word is the f32
/// extension of: `bitcast (fpext h)`, or a phi or select of such words
/// (the combine's merges of the lane's and its partner's state), then a
/// phi or select of their halves, an existing one where the code already
/// carries it beside the word.
class HalfSource {
public:
  /// True if \p W extends a half. Builds nothing.
  bool exists(Value *W, unsigned Depth = 0);
  /// The half \p W extends (exists(W) must hold).
  Value *get(Value *W);

private:
  DenseMap<Value *, WeakTrackingVH> Memo;
};

/// The half \p V is the f32 extension of (`fpext half h`), or null.
Value *extendedHalf(Value *V) {
  Value *H;
  if (match(V, m_FPExt(m_Value(H))) && H->getType()->isHalfTy())
    return H;
  return nullptr;
}

/// The half whose extension the word \p W holds (`bitcast (fpext h)`), or
/// null.
Value *wordHalf(Value *W) {
  Value *F;
  if (W->getType()->isIntegerTy(32) && match(W, m_BitCast(m_Value(F))))
    return extendedHalf(F);
  return nullptr;
}

/// A new, empty half phi at the top of \p P's block, named after \p P.
PHINode *halfPhiBeside(PHINode *P) {
  return PHINode::Create(Type::getHalfTy(P->getContext()),
                         P->getNumIncomingValues(), P->getName() + ".half",
                         P->getParent()->begin());
}

/// A half phi in \p P's block that merges, from every predecessor, the half
/// \p Source finds in what \p P merges there.
Value *existingPhi(PHINode *P, function_ref<Value *(Value *)> Source) {
  for (PHINode &Q : P->getParent()->phis()) {
    if (!Q.getType()->isHalfTy())
      continue;
    bool Same = all_of(P->blocks(), [&](BasicBlock *B) {
      Value *H = Source(P->getIncomingValueForBlock(B));
      return H && H == Q.getIncomingValueForBlock(B);
    });
    if (Same)
      return &Q;
  }
  return nullptr;
}

/// A half phi whose extension the float phi \p P is (one merging the
/// extended halves, built if the block has none), or null.
Value *halfPhiOfExtensions(PHINode *P) {
  if (!P->getType()->isFloatTy() ||
      !all_of(P->incoming_values(), [](Value *V) { return extendedHalf(V); }))
    return nullptr;
  if (Value *Q = existingPhi(P, extendedHalf))
    return Q;
  PHINode *Q = halfPhiBeside(P);
  for (auto [In, B] : zip(P->incoming_values(), P->blocks()))
    Q->addIncoming(extendedHalf(In), B);
  return Q;
}

bool HalfSource::exists(Value *W, unsigned Depth) {
  if (wordHalf(W))
    return true;
  if (Depth > 6)
    return false;
  if (auto *P = dyn_cast<PHINode>(W))
    return all_of(P->incoming_values(),
                  [&](Value *In) { return exists(In, Depth + 1); });
  if (auto *S = dyn_cast<SelectInst>(W))
    return exists(S->getTrueValue(), Depth + 1) &&
           exists(S->getFalseValue(), Depth + 1);
  return false;
}

Value *HalfSource::get(Value *W) {
  if (Value *H = wordHalf(W))
    return H;
  if (auto It = Memo.find(W); It != Memo.end() && It->second)
    return It->second;
  Value *H;
  if (auto *P = dyn_cast<PHINode>(W)) {
    H = existingPhi(P, wordHalf);
    if (!H) {
      PHINode *Q = halfPhiBeside(P);
      Memo[W] = Q;
      for (auto [In, B] : zip(P->incoming_values(), P->blocks()))
        Q->addIncoming(get(In), B);
      H = Q;
    }
  } else {
    auto *S = cast<SelectInst>(W);
    IRBuilder<> B(S);
    H = B.CreateSelect(S->getCondition(), get(S->getTrueValue()),
                       get(S->getFalseValue()), S->getName() + ".half");
  }
  Memo[W] = H;
  return H;
}

/// The casts that convert \p CI's word back to f16, when those are its only
/// users: `fptrunc (bitcast w to float) to half`.
bool readBackAsHalf(CallInst *CI, SmallVectorImpl<Instruction *> &Truncs) {
  for (User *U : CI->users()) {
    auto *BC = dyn_cast<BitCastInst>(U);
    if (!BC || !BC->getType()->isFloatTy() || BC->use_empty())
      return false;
    for (User *V : BC->users()) {
      auto *FT = dyn_cast<FPTruncInst>(V);
      if (!FT || !FT->getType()->isHalfTy())
        return false;
      Truncs.push_back(FT);
    }
  }
  return !Truncs.empty();
}

/// True if \p CI moves only its word: DPP's and permlane's `old` operand
/// (what a lane keeps when it reads nothing) is the same word or undefined.
bool movesOnlyTheWord(CallInst *CI) {
  auto *II = dyn_cast<IntrinsicInst>(CI);
  switch (II ? II->getIntrinsicID() : Intrinsic::not_intrinsic) {
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_permlane16:
  case Intrinsic::amdgcn_permlanex16:
    return CI->getArgOperand(0) == exchangedWord(CI) ||
           isa<UndefValue>(CI->getArgOperand(0));
  default:
    return true;
  }
}

} // namespace

bool narrowHalfExchanges(Function &F, function_ref<void()> BeforeChange) {
  // The f16 results of the conversions must be exact: f16 denormals kept.
  if (F.getDenormalMode(APFloat::IEEEhalf()) != DenormalMode::getIEEE())
    return false;
  struct Read {
    CallInst *CI;
    SmallVector<Instruction *, 2> Truncs;
  };
  SmallVector<Read, 8> Reads;
  HalfSource Halves;
  for (Instruction &I : instructions(F)) {
    auto *CI = dyn_cast<CallInst>(&I);
    Value *W = CI ? exchangedWord(CI) : nullptr;
    if (!W || !W->getType()->isIntegerTy(32) || !movesOnlyTheWord(CI))
      continue;
    Read R{CI, {}};
    if (readBackAsHalf(CI, R.Truncs) && Halves.exists(W))
      Reads.push_back(std::move(R));
  }
  if (Reads.empty())
    return false;
  BeforeChange();
  SmallVector<WeakTrackingVH, 16> Dead;
  for (Read &R : Reads) {
    CallInst *CI = R.CI;
    Value *W = exchangedWord(CI);
    IRBuilder<> B(CI);
    Value *Bits = B.CreateZExt(B.CreateBitCast(Halves.get(W), B.getInt16Ty()),
                               B.getInt32Ty(), "crosslane.half.bits");
    for (Use &Op : CI->args())
      if (Op.get() == W)
        Op.set(Bits);
    for (Instruction *FT : R.Truncs) {
      B.SetInsertPoint(FT);
      FT->replaceAllUsesWith(B.CreateBitCast(B.CreateTrunc(CI, B.getInt16Ty()),
                                             B.getHalfTy(), FT->getName()));
      Dead.push_back(FT);
    }
    Dead.push_back(W);
  }
  // The f32 copy of the state clang carries beside the half (a phi of the
  // extensions, which `__half2float(v)` after the chain reads) is the
  // extension of a half phi: the chain's results then reach it. In program
  // order, so a phi of such phis follows them.
  for (BasicBlock &BB : F)
    for (PHINode &P : make_early_inc_range(BB.phis()))
      if (Value *H = halfPhiOfExtensions(&P)) {
        IRBuilder<> B(&*BB.getFirstInsertionPt());
        P.replaceAllUsesWith(B.CreateFPExt(H, P.getType(), P.getName()));
        Dead.push_back(&P);
      }
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
  return true;
}

} // namespace argrec
} // namespace crosslane
