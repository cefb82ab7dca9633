//===- VectorState.cpp - State the SLP vectorizer packed into vectors -----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "VectorState.h"
#include "LaneMap.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace crosslane {
namespace argrec {
namespace {

/// Builds scalar elements of vectors, memoised per (vector, index).
class ElementBuilder {
public:
  explicit ElementBuilder(Function &F) : F(F) {}
  Value *get(Value *V, unsigned K);

private:
  Value *build(Value *V, unsigned K);
  Function &F;
  /// Tracking handles: a phi folded into the value it merges is replaced
  /// everywhere, here too (other elements may have been memoised as it).
  DenseMap<std::pair<Value *, unsigned>, WeakTrackingVH> Memo;
};

Value *ElementBuilder::get(Value *V, unsigned K) {
  auto Key = std::make_pair(V, K);
  if (auto It = Memo.find(Key); It != Memo.end())
    return It->second;
  Value *E = build(V, K);
  Memo[Key] = E;
  return E;
}

Value *ElementBuilder::build(Value *V, unsigned K) {
  auto *VTy = cast<FixedVectorType>(V->getType());
  Type *ETy = VTy->getElementType();
  auto Named = [&](Value *X) { return (X->getName() + ".e" + Twine(K)).str(); };
  if (auto *C = dyn_cast<Constant>(V))
    if (Constant *E = C->getAggregateElement(K))
      return E;
  if (auto *IE = dyn_cast<InsertElementInst>(V))
    if (auto *Idx = dyn_cast<ConstantInt>(IE->getOperand(2)))
      return Idx->getZExtValue() == K ? IE->getOperand(1)
                                      : get(IE->getOperand(0), K);
  if (auto *BC = dyn_cast<BitCastInst>(V)) {
    auto *STy = dyn_cast<FixedVectorType>(BC->getSrcTy());
    if (STy && STy->getNumElements() == VTy->getNumElements()) {
      // The source's element dominates the bitcast.
      Value *S = get(BC->getOperand(0), K);
      return new BitCastInst(S, ETy, Named(BC), BC->getIterator());
    }
    // Words of wider elements (`<2 x i64>` read as `<4 x i32>`, an array of
    // i64 indices exchanged in words): the piece of the source element, low
    // piece first (AMDGPU is little-endian).
    unsigned EBits = ETy->getPrimitiveSizeInBits();
    unsigned SBits = STy ? STy->getElementType()->getPrimitiveSizeInBits() : 0;
    if (STy && EBits && SBits > EBits && SBits % EBits == 0 &&
        STy->getNumElements() * (SBits / EBits) == VTy->getNumElements()) {
      IRBuilder<> B(BC);
      unsigned R = SBits / EBits;
      Value *S = get(BC->getOperand(0), K / R);
      S = B.CreateBitCast(S, B.getIntNTy(SBits));
      S = B.CreateTrunc(B.CreateLShr(S, (K % R) * EBits), B.getIntNTy(EBits));
      return B.CreateBitCast(S, ETy, Named(BC));
    }
  }
  // Element-wise operations: the operation on the elements (the SLP
  // vectorizer packs two pairs' compares into one `fcmp <2 x float>`).
  if (auto *Cmp = dyn_cast<CmpInst>(V)) {
    auto *New = CmpInst::Create(
        Cmp->getOpcode(), Cmp->getPredicate(), get(Cmp->getOperand(0), K),
        get(Cmp->getOperand(1), K), Named(Cmp), Cmp->getIterator());
    New->copyIRFlags(Cmp);
    return New;
  }
  if (auto *BO = dyn_cast<BinaryOperator>(V)) {
    auto *New = BinaryOperator::Create(
        BO->getOpcode(), get(BO->getOperand(0), K), get(BO->getOperand(1), K),
        Named(BO), BO->getIterator());
    New->copyIRFlags(BO);
    return New;
  }
  if (auto *UO = dyn_cast<UnaryOperator>(V)) {
    auto *New =
        UnaryOperator::Create(UO->getOpcode(), get(UO->getOperand(0), K),
                              Named(UO), UO->getIterator());
    New->copyIRFlags(UO);
    return New;
  }
  if (auto *Cast = dyn_cast<CastInst>(V); Cast && !isa<BitCastInst>(Cast)) {
    auto *STy = dyn_cast<FixedVectorType>(Cast->getSrcTy());
    if (STy && STy->getNumElements() == VTy->getNumElements()) {
      auto *New =
          CastInst::Create(Cast->getOpcode(), get(Cast->getOperand(0), K), ETy,
                           Named(Cast), Cast->getIterator());
      New->copyIRFlags(Cast);
      return New;
    }
  }
  if (auto *SV = dyn_cast<ShuffleVectorInst>(V)) {
    int M = SV->getMaskValue(K);
    unsigned N =
        cast<FixedVectorType>(SV->getOperand(0)->getType())->getNumElements();
    if (M < 0)
      return PoisonValue::get(ETy);
    return unsigned(M) < N ? get(SV->getOperand(0), M)
                           : get(SV->getOperand(1), M - N);
  }
  if (auto *Sel = dyn_cast<SelectInst>(V)) {
    // A state chosen whole (`c ? <partner's pair> : <own pair>`): the
    // element of each arm, chosen by the condition (or its element).
    Value *T = get(Sel->getTrueValue(), K);
    Value *E = get(Sel->getFalseValue(), K);
    // An element both arms share (the other pair's, when one pair of an
    // array is chosen): that element, not a select on the other pair's
    // compare.
    if (T == E)
      return T;
    Value *C = Sel->getCondition();
    if (C->getType()->isVectorTy())
      C = get(C, K);
    return SelectInst::Create(C, T, E, Named(Sel), Sel->getIterator());
  }
  if (auto *Phi = dyn_cast<PHINode>(V)) {
    auto *New = PHINode::Create(ETy, Phi->getNumIncomingValues(), Named(Phi),
                                Phi->getIterator());
    Memo[{V, K}] = New; // a loop phi reads itself
    // Each incoming element is available where its vector is: an inserted
    // value dominates its insertelement, new code sits at its vector.
    for (auto [In, BB] : zip(Phi->incoming_values(), Phi->blocks()))
      New->addIncoming(get(In, K), BB);
    // An element that passes through a diamond unchanged (the other
    // pair's, when each pair of an array is chosen by its own `if`) is
    // that element: a phi of it would make the diamond's branch look like
    // part of its combine.
    Value *Same = New->hasConstantValue();
    if (!Same || Same == New || isa<PoisonValue>(Same))
      return New;
    New->replaceAllUsesWith(Same);
    New->eraseFromParent();
    return Same;
  }
  // Anything else (a load, a shuffle, an argument, a constant expression):
  // one extractelement where the vector is defined.
  BasicBlock::iterator At;
  if (auto *I = dyn_cast<Instruction>(V))
    At = isa<PHINode>(I) ? I->getParent()->getFirstInsertionPt()
                         : std::next(I->getIterator());
  else
    At = F.getEntryBlock().getFirstInsertionPt();
  return ExtractElementInst::Create(
      V, ConstantInt::get(Type::getInt32Ty(V->getContext()), K), Named(V), At);
}

/// The extractelement \p CI's word is cut from, through bitcasts, truncs
/// and constant right shifts (a word of a double or an i64 element), or
/// null.
ExtractElementInst *exchangedElement(CallInst *CI) {
  Value *W = exchangedWord(CI);
  while (W && !isa<ExtractElementInst>(W)) {
    auto *I = dyn_cast<Instruction>(W);
    if (!I || !(isa<BitCastInst, TruncInst>(I) ||
                (I->getOpcode() == Instruction::LShr &&
                 isa<ConstantInt>(I->getOperand(1)))))
      return nullptr;
    W = I->getOperand(0);
  }
  return cast_or_null<ExtractElementInst>(W);
}

} // namespace

bool scalarizeExchangedElements(Function &F,
                                function_ref<void()> BeforeChange) {
  SmallVector<ExtractElementInst *, 8> Elements;
  auto Collect = [&](ExtractElementInst *EE) {
    if (EE && isa<ConstantInt>(EE->getIndexOperand()) &&
        isa<FixedVectorType>(EE->getVectorOperandType()) &&
        !is_contained(Elements, EE))
      Elements.push_back(EE);
  };
  // The code computed from what the lanes read, where the combines are.
  SmallPtrSet<Instruction *, 32> Cone;
  SmallVector<Instruction *, 16> Work;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I)) {
      if (!exchangedWord(CI))
        continue;
      Collect(exchangedElement(CI));
      Work.push_back(CI);
    }
  while (!Work.empty() && Cone.size() < 4096) {
    Instruction *I = Work.pop_back_val();
    if (!Cone.insert(I).second)
      continue;
    for (User *U : I->users())
      if (auto *UI = dyn_cast<Instruction>(U))
        Work.push_back(UI);
  }
  // Elements of vectors the combines compute: each built from scalars (in
  // program order, so the output does not depend on pointer values).
  for (Instruction &I : instructions(F))
    if (auto *EE = dyn_cast<ExtractElementInst>(&I); EE && Cone.count(EE))
      Collect(EE);
  if (Elements.empty())
    return false;
  BeforeChange();
  SmallVector<Type *, 2> Types;
  for (ExtractElementInst *EE : Elements)
    if (!is_contained(Types, EE->getVectorOperandType()))
      Types.push_back(EE->getVectorOperandType());
  ElementBuilder B(F);
  SmallVector<WeakTrackingVH, 8> Dead;
  for (ExtractElementInst *EE : Elements) {
    unsigned K = cast<ConstantInt>(EE->getIndexOperand())->getZExtValue();
    Value *V = EE->getVectorOperand();
    if (K >= cast<FixedVectorType>(V->getType())->getNumElements())
      continue; // poison; left as it is
    EE->replaceAllUsesWith(B.get(V, K));
    Dead.push_back(EE);
  }
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
  // Vector phis left reading only each other (a ladder in a loop).
  auto VectorPhis = [&] {
    SmallVector<WeakVH, 8> Phis;
    for (BasicBlock &BB : F)
      for (PHINode &P : BB.phis())
        if (is_contained(Types, P.getType()))
          Phis.push_back(&P);
    return Phis;
  };
  for (WeakVH &P : VectorPhis())
    if (auto *Phi = dyn_cast_or_null<PHINode>(P))
      RecursivelyDeleteDeadPHINode(Phi);
  // A state vector still read (the last stage's result, stored whole) is
  // rebuilt from its elements, so the chain's results are scalar phis.
  SmallVector<std::pair<PHINode *, SmallVector<Value *, 4>>, 4> Rebuild;
  for (WeakVH &P : VectorPhis()) {
    auto *Phi = cast<PHINode>(P);
    SmallVector<Value *, 4> Elts;
    for (unsigned K = 0,
                  N = cast<FixedVectorType>(Phi->getType())->getNumElements();
         K < N; ++K)
      Elts.push_back(B.get(Phi, K));
    Rebuild.push_back({Phi, std::move(Elts)});
  }
  // Each use gets its own copy right before it, so a result read only in
  // some lanes (`if (lane == 0) store`) is read only there.
  for (auto &[Phi, Elts] : Rebuild) {
    for (Use &U : make_early_inc_range(Phi->uses())) {
      auto *UI = cast<Instruction>(U.getUser());
      Instruction *At = UI;
      if (auto *UP = dyn_cast<PHINode>(UI))
        At = UP->getIncomingBlock(U)->getTerminator();
      IRBuilder<> IRB(At);
      Value *V = PoisonValue::get(Phi->getType());
      for (auto [K, E] : enumerate(Elts))
        V = IRB.CreateInsertElement(V, E, uint64_t(K));
      U.set(V);
    }
  }
  SmallVector<WeakTrackingVH, 8> Inputs;
  for (auto &[Phi, Elts] : Rebuild) {
    append_range(Inputs, Phi->incoming_values());
    Phi->eraseFromParent();
  }
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Inputs);
  return true;
}

} // namespace argrec
} // namespace crosslane
