//===- RewriteJournal.cpp - Check and undo a rewrite without a copy -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/RewriteJournal.h"
#include "crosslane/Support/BlockDominance.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace crosslane {

/// False for what the record or the check does not cover, for which a
/// function needs a copy and LLVM's verifier: debug records (they move with
/// and around instructions in ways the layout does not capture), and the
/// function-wide rules of tokens and operand bundles (convergence control:
/// every convergent call then needs one), exception handling and musttail
/// calls.
static bool recordable(const Instruction &I) {
  if (I.hasDbgRecords() || I.getType()->isTokenTy() || I.isEHPad() ||
      isa<InvokeInst, CallBrInst>(I))
    return false;
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return true;
  // An assumption's bundles are plain operands (recorded like any other).
  if (CB->hasOperandBundles() && !isa<AssumeInst>(CB))
    return false;
  return !(isa<CallInst>(CB) && cast<CallInst>(CB)->isMustTailCall());
}

bool RewriteJournal::begin() {
  if (Recording)
    return true;
  size_t Size = 0;
  for (BasicBlock &BB : F)
    Size += BB.size();
  Insts.reserve(Size);
  OpStart.reserve(Size + 1);
  Ops.reserve(3 * Size);
  Original.reserve(Size);
  for (BasicBlock &BB : F) {
    unsigned N = 0;
    for (Instruction &I : BB) {
      if (!recordable(I)) {
        end();
        return false;
      }
      Original[&I] = Insts.size();
      Insts.push_back(&I);
      OpStart.push_back(Ops.size());
      append_range(Ops, I.operand_values());
      if (auto *Phi = dyn_cast<PHINode>(&I))
        append_range(PhiBlocks, Phi->blocks());
      ++N;
    }
    Blocks.push_back({&BB, N});
  }
  OpStart.push_back(Ops.size());
  Recording = true;
  return true;
}

void RewriteJournal::end() {
  Recording = false;
  Blocks.clear();
  Insts.clear();
  Ops.clear();
  OpStart.clear();
  PhiBlocks.clear();
  Original.clear();
}

/// The rules of LLVM's verifier an instruction the rewrite made must meet
/// (types agree, immediate operands are constants, its location is in this
/// function); sets \p Unknown for a kind of instruction not looked at here.
std::string RewriteJournal::checkNew(const Instruction &I,
                                     bool &Unknown) const {
  // As the verifier: checked only in a function with a subprogram.
  if (const DILocation *DL = I.getDebugLoc(); DL && F.getSubprogram())
    if (const DISubprogram *SP = DL->getInlinedAtScope()->getSubprogram();
        !SP || !SP->describes(&F))
      return "its debug location is in another function";
  auto Op = [&](unsigned K) { return I.getOperand(K)->getType(); };
  if (isa<BinaryOperator, FreezeInst>(I))
    return all_of(I.operand_values(),
                  [&](const Value *V) { return V->getType() == I.getType(); })
               ? ""
               : "an operand's type is not the result's";
  if (auto *Cmp = dyn_cast<CmpInst>(&I)) {
    bool Kind = Cmp->isIntPredicate()
                    ? Op(0)->isIntOrIntVectorTy() || Op(0)->isPtrOrPtrVectorTy()
                    : Op(0)->isFPOrFPVectorTy();
    return Kind && Op(0) == Op(1) &&
                   I.getType() == CmpInst::makeCmpResultType(Op(0))
               ? ""
               : "a compare's operand or result types do not agree";
  }
  if (auto *Sel = dyn_cast<SelectInst>(&I))
    return !SelectInst::areInvalidOperands(
               const_cast<Value *>(Sel->getCondition()),
               const_cast<Value *>(Sel->getTrueValue()),
               const_cast<Value *>(Sel->getFalseValue())) &&
                   Op(1) == I.getType()
               ? ""
               : "a select's operand types do not agree";
  if (auto *Cast = dyn_cast<CastInst>(&I))
    return CastInst::castIsValid(Cast->getOpcode(), Op(0), I.getType())
               ? ""
               : "the cast is not valid for its types";
  if (auto *Phi = dyn_cast<PHINode>(&I))
    return all_of(Phi->incoming_values(),
                  [&](const Value *V) { return V->getType() == I.getType(); })
               ? ""
               : "an incoming value's type is not the phi's";
  if (auto *Br = dyn_cast<BranchInst>(&I))
    return Br->isUnconditional() ||
                   Br->getCondition()->getType()->isIntegerTy(1)
               ? ""
               : "a branch condition is not an i1";
  if (isa<UnreachableInst>(I))
    return "";
  if (auto *EE = dyn_cast<ExtractElementInst>(&I))
    return ExtractElementInst::isValidOperands(EE->getVectorOperand(),
                                               EE->getIndexOperand())
               ? ""
               : "extractelement's operands are not valid";
  if (isa<InsertElementInst>(I))
    return InsertElementInst::isValidOperands(I.getOperand(0), I.getOperand(1),
                                              I.getOperand(2))
               ? ""
               : "insertelement's operands are not valid";
  if (auto *EV = dyn_cast<ExtractValueInst>(&I))
    return ExtractValueInst::getIndexedType(Op(0), EV->getIndices()) ==
                   I.getType()
               ? ""
               : "extractvalue's indices do not name a member of its type";
  if (auto *IV = dyn_cast<InsertValueInst>(&I))
    return ExtractValueInst::getIndexedType(Op(0), IV->getIndices()) == Op(1) &&
                   Op(0) == I.getType()
               ? ""
               : "insertvalue's indices do not name a member of its type";
  auto *Call = dyn_cast<CallInst>(&I);
  if (!Call) {
    Unknown = true;
    return "";
  }
  FunctionType *FT = Call->getFunctionType();
  auto *Fn = dyn_cast<Function>(Call->getCalledOperand());
  // A call may name a function of another type (as through a pointer), not
  // an intrinsic.
  if ((Fn && Fn->isIntrinsic() && Fn->getFunctionType() != FT) ||
      I.getType() != FT->getReturnType())
    return "the call's type is not its callee's";
  if (FT->isVarArg() ? Call->arg_size() < FT->getNumParams()
                     : Call->arg_size() != FT->getNumParams())
    return "the call has the wrong number of arguments";
  for (unsigned K = 0, E = FT->getNumParams(); K != E; ++K) {
    if (Op(K) != FT->getParamType(K))
      return "an argument's type is not the parameter's";
    if (Fn && Fn->hasParamAttribute(K, Attribute::ImmArg) &&
        !isa<ConstantInt, ConstantFP>(Call->getArgOperand(K)))
      return "an immediate argument is not a constant";
  }
  SmallVector<Type *, 4> Overloads;
  if (Fn && Fn->isIntrinsic() &&
      !Intrinsic::getIntrinsicSignature(const_cast<Function *>(Fn), Overloads))
    return "the intrinsic's declaration does not match its signature";
  return "";
}

std::string RewriteJournal::check() const {
  std::string Problem;
  auto Fail = [&](StringRef Rule, const Instruction *I) {
    raw_string_ostream OS(Problem);
    OS << Rule;
    if (I) {
      OS << ":";
      I->print(OS);
    }
    return Problem;
  };
  if (!pred_empty(&F.getEntryBlock()))
    return Fail("the entry block has predecessors", nullptr);
  // Dominance as bit sets where the function is small enough (nearly
  // always, and far cheaper than building the tree), else the tree.
  BlockDominance Small;
  std::optional<DominatorTree> DT;
  if (!Small.build(F))
    DT.emplace(F);
  bool Unknown = false;
  // The sorted predecessors of the block whose phis are being checked.
  SmallVector<const BasicBlock *, 8> Preds;
  const BasicBlock *PredsOf = nullptr;
  for (const BasicBlock &BB : F) {
    if (BB.empty() || !BB.back().isTerminator())
      return Fail("a block does not end in a terminator",
                  BB.empty() ? nullptr : &BB.back());
    bool PastPhis = false;
    for (const Instruction &I : BB) {
      if (I.isTerminator() && &I != &BB.back())
        return Fail("a terminator is in the middle of a block", &I);
      if (!isa<PHINode>(I))
        PastPhis = true;
      else if (PastPhis)
        return Fail("a phi follows other instructions", &I);
      auto It = Original.find(&I);
      const Value *const *Before = nullptr;
      if (It != Original.end()) {
        unsigned K = It->second;
        if (I.getNumOperands() != OpStart[K + 1] - OpStart[K])
          return Fail("an instruction the rewrite found lost or gained "
                      "operands",
                      &I);
        Before = &Ops[OpStart[K]];
      }
      for (unsigned K = 0, E = I.getNumOperands(); K != E; ++K) {
        const Use &U = I.getOperandUse(K);
        const Value *V = U.get();
        if (!V)
          return Fail("an operand is missing", &I);
        if (auto *OI = dyn_cast<Instruction>(V)) {
          if (!OI->getParent() || OI->getParent()->getParent() != &F)
            return Fail("an operand is not in the function", &I);
          if (!(DT ? DT->dominates(OI, U) : Small.dominates(OI, U)))
            return Fail("an operand does not dominate its use", &I);
        } else if (auto *A = dyn_cast<Argument>(V)) {
          if (A->getParent() != &F)
            return Fail("an argument of another function is used", &I);
        } else if (auto *B = dyn_cast<BasicBlock>(V)) {
          if (B->getParent() != &F)
            return Fail("a block of another function is used", &I);
        }
        if (Before && V != Before[K] && V->getType() != Before[K]->getType())
          return Fail("a use was given a value of another type", &I);
      }
      if (auto *Phi = dyn_cast<PHINode>(&I)) {
        if (Preds.empty() || PredsOf != &BB) {
          Preds.assign(pred_begin(&BB), pred_end(&BB));
          std::sort(Preds.begin(), Preds.end());
          PredsOf = &BB;
        }
        SmallVector<const BasicBlock *, 8> In(Phi->blocks());
        std::sort(In.begin(), In.end());
        if (In != Preds)
          return Fail("a phi's incoming blocks are not its block's "
                      "predecessors",
                      &I);
      }
      if (!Before)
        if (std::string Why = checkNew(I, Unknown); !Why.empty())
          return Fail(Why, &I);
    }
  }
  if (Unknown) {
    raw_string_ostream OS(Problem);
    verifyFunction(F, &OS);
  }
  return Problem;
}

void RewriteJournal::rollBack() {
  // The instructions that were there get their operands back, so nothing
  // of theirs uses what the rewrite added.
  size_t P = 0;
  for (auto [K, I] : enumerate(Insts)) {
    for (unsigned J = 0, E = OpStart[K + 1] - OpStart[K]; J != E; ++J)
      I->setOperand(J, Ops[OpStart[K] + J]);
    if (auto *Phi = dyn_cast<PHINode>(I))
      for (unsigned J = 0, E = Phi->getNumIncomingValues(); J != E; ++J)
        Phi->setIncomingBlock(J, PhiBlocks[P++]);
  }
  SmallVector<Instruction *, 32> Added;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (!Original.count(&I))
        Added.push_back(&I);
  for (Instruction *I : Added)
    I->dropAllReferences();
  for (Instruction *I : Added)
    I->eraseFromParent();
  // Each block gets its instructions back in their order, and the blocks
  // theirs; blocks the rewrite added are left empty.
  SmallPtrSet<BasicBlock *, 16> Kept;
  size_t At = 0;
  for (auto [BB, N] : Blocks) {
    Kept.insert(BB);
    if (&F.back() != BB)
      BB->moveAfter(&F.back());
    for (unsigned J = 0; J != N; ++J, ++At)
      Insts[At]->moveBefore(*BB, BB->end());
  }
  SmallVector<BasicBlock *, 4> Empty;
  for (BasicBlock &BB : F)
    if (!Kept.count(&BB))
      Empty.push_back(&BB);
  for (BasicBlock *BB : Empty)
    BB->eraseFromParent();
  end();
}

} // namespace crosslane
