//===- CombineProgram.cpp - A butterfly stage's combine as straight code --===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CombineProgram.h"
#include "LaneMap.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace crosslane {
namespace argrec {

namespace {

/// Structural proof that \p A and \p B always hold the same bits.
bool equivBits(Value *A, Value *B, unsigned Depth = 0) {
  if (A == B)
    return true;
  if (Depth > 8)
    return false;
  Value *X;
  if (match(A, m_BitCast(m_Value(X))) && equivBits(X, B, Depth + 1))
    return true;
  if (match(B, m_BitCast(m_Value(X))) && equivBits(A, X, Depth + 1))
    return true;
  auto *PA = dyn_cast<PHINode>(A), *PB = dyn_cast<PHINode>(B);
  if (PA && PB && PA->getParent() == PB->getParent()) {
    for (BasicBlock *Pred : PA->blocks())
      if (!equivBits(PA->getIncomingValueForBlock(Pred),
                     PB->getIncomingValueForBlock(Pred), Depth + 1))
        return false;
    return true;
  }
  auto *SA = dyn_cast<SelectInst>(A), *SB = dyn_cast<SelectInst>(B);
  return SA && SB && SA->getCondition() == SB->getCondition() &&
         equivBits(SA->getTrueValue(), SB->getTrueValue(), Depth + 1) &&
         equivBits(SA->getFalseValue(), SB->getFalseValue(), Depth + 1);
}

APInt ap(unsigned Bits, uint64_t V) { return APInt(Bits, maskTo(V, Bits)); }

unsigned bitsOf(Type *Ty) {
  return Ty->isIntegerTy() ? Ty->getIntegerBitWidth()
                           : Ty->getPrimitiveSizeInBits();
}

constexpr unsigned MaxDepth = 64;
constexpr unsigned InProgress = ~0u;

/// llvm.maxnum/minnum/maximumnum/minimumnum (a NaN operand yields the
/// other) and llvm.maximum/minimum (NaN wins) on f32 bits, with -0 < +0
/// (LLVM leaves the zero's sign open for the *num forms; this is one of the
/// allowed answers, and the one the wave executor and APFloat give). A NaN
/// result is the NaN operand, quieted.
uint64_t floatMinMax(Intrinsic::ID ID, uint32_t A, uint32_t B) {
  bool Max = ID == Intrinsic::maxnum || ID == Intrinsic::maximum ||
             ID == Intrinsic::maximumnum;
  bool NaNWins = ID == Intrinsic::maximum || ID == Intrinsic::minimum;
  float X = bit_cast<float>(A), Y = bit_cast<float>(B);
  auto Quiet = [](uint32_t V) { return V | 0x00400000u; };
  if (std::isnan(X) || std::isnan(Y)) {
    if (std::isnan(X) && (NaNWins || std::isnan(Y)))
      return Quiet(A);
    if (std::isnan(Y) && NaNWins)
      return Quiet(B);
    return std::isnan(X) ? B : A;
  }
  if (X == Y) { // equal, or zeros of either sign: -0 < +0
    bool NegA = A >> 31;
    return Max == NegA ? B : A;
  }
  return (Max ? X > Y : X < Y) ? A : B;
}

} // namespace

bool isFloatMinMax(Intrinsic::ID ID) {
  return ID == Intrinsic::maxnum || ID == Intrinsic::minnum ||
         ID == Intrinsic::maximum || ID == Intrinsic::minimum ||
         ID == Intrinsic::maximumnum || ID == Intrinsic::minimumnum;
}

CombineProgram::CombineProgram(ArrayRef<CallInst *> Partners,
                               BasicBlock *StageBB,
                               const SmallSetVector<Instruction *, 32> &Closure,
                               ArrayRef<unsigned> FloatWords, DominatorTree &DT)
    : Partners(Partners), StageBB(StageBB), Closure(Closure), DT(DT) {
  IsFloatWord.assign(Partners.size(), false);
  for (unsigned W : FloatWords)
    IsFloatWord[W] = true;
  for (auto [I, C] : enumerate(Partners)) {
    WordIdx[exchangedWord(C)] = I;
    PartnerIdx[C] = I;
  }
}

unsigned CombineProgram::add(Op O, unsigned Bits, ArrayRef<unsigned> Ops,
                             uint64_t Imm, uint32_t Aux) {
  Node N;
  N.Opc = O;
  N.Bits = Bits;
  N.Aux = Aux;
  N.FirstOp = Operands.size();
  N.NumOps = Ops.size();
  N.Imm = Imm;
  Operands.append(Ops.begin(), Ops.end());
  Nodes.push_back(N);
  return Nodes.size() - 1;
}

unsigned CombineProgram::fail(const Twine &Why) {
  std::string S = Why.str();
  auto It = find(Messages, S);
  unsigned M = It - Messages.begin();
  if (It == Messages.end())
    Messages.push_back(S);
  return add(Op::Fail, 0, {}, M);
}

unsigned CombineProgram::addOutput(Value *V) {
  unsigned N = compile(V, 0);
  Outputs.push_back(N);
  return N;
}

/// True if \p V is a function of the stage's self words and constants only,
/// through instructions without memory access, calls or phis.
bool CombineProgram::isSelfDerived(Value *V, unsigned Depth) {
  if (isa<Constant>(V) || aliasOf(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || isa<PHINode, CallBase>(I) ||
      I->mayReadOrWriteMemory() || PartnerIdx.count(V))
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return isSelfDerived(Op, Depth + 1); });
}

/// The stage's self words as seen through \p V, when \p V is a word or
/// provably has a word's bits: {word index, or (lo, hi) for 64 bits}.
std::optional<std::pair<int, int>> CombineProgram::aliasOf(Value *V) {
  if (auto It = WordIdx.find(V); It != WordIdx.end())
    return std::pair<int, int>(It->second, -1);
  unsigned Bits = V->getType()->getPrimitiveSizeInBits();
  if (Bits == 32)
    for (auto [W, I] : WordIdx)
      if (equivBits(V, W))
        return std::pair<int, int>(I, -1);
  if (Bits == 64) {
    // words lo = trunc X, hi = trunc (lshr X, 32), X possibly a bitcast.
    int Lo = -1, Hi = -1;
    for (auto [W, I] : WordIdx) {
      Value *X;
      if (match(W, m_Trunc(m_LShr(m_Value(X), m_SpecificInt(32)))) &&
          equivBits(X, V))
        Hi = I;
      else if (match(W, m_Trunc(m_Value(X))) && equivBits(X, V))
        Lo = I;
    }
    if (Lo >= 0 && Hi >= 0)
      return std::pair<int, int>(Lo, Hi);
  }
  return std::nullopt;
}

unsigned CombineProgram::compile(Value *V, unsigned Depth) {
  if (auto It = Compiled.find(V); It != Compiled.end())
    return It->second == InProgress ? fail("a cycle in the combine")
                                    : It->second;
  if (Depth > MaxDepth)
    return fail("the combine is too deep");
  unsigned Bits = bitsOf(V->getType());
  if (Bits > 64)
    return fail("a value wider than 64 bits in the combine");
  Compiled[V] = InProgress;
  unsigned N;
  if (auto It = PartnerIdx.find(V); It != PartnerIdx.end()) {
    N = add(Op::PartnerWord, 32, {}, It->second);
  } else if (auto *CI = dyn_cast<ConstantInt>(V)) {
    N = constant(CI->getZExtValue(), Bits);
  } else if (auto *CF = dyn_cast<ConstantFP>(V)) {
    N = constant(CF->getValueAPF().bitcastToAPInt().getZExtValue(), Bits);
  } else if (auto *I = dyn_cast<Instruction>(V); I && Closure.count(I)) {
    N = compileInst(I, Depth);
  } else if (auto A = aliasOf(V)) {
    N = A->second < 0 ? add(Op::SelfWord, 32, {}, A->first)
                      : add(Op::SelfPair, 64, {},
                            uint64_t(A->first) | uint64_t(A->second) << 32);
  } else if (auto *I = dyn_cast<Instruction>(V); I && isSelfDerived(I, 0)) {
    // Computed from the lane's own state alone (e.g. `self.index == 0`,
    // which clang tests before it looks at the partner).
    N = compileInst(I, Depth);
  } else {
    std::string Str;
    raw_string_ostream OS(Str);
    V->printAsOperand(OS, false);
    N = fail("the combine reads " + Str +
             ", which is neither the lane's state nor its partner's");
  }
  Compiled[V] = N;
  return N;
}

/// Whether the edge From -> To is taken (an i1 node).
unsigned CombineProgram::edge(BasicBlock *From, BasicBlock *To,
                              unsigned Depth) {
  auto *Br = dyn_cast<BranchInst>(From->getTerminator());
  if (!Br)
    return fail("a branch of the combine depends on something else");
  bool ToTrue = Br->getSuccessor(0) == To;
  if (Br->isUnconditional() || (ToTrue && Br->getSuccessor(1) == To))
    return constant(1, 1);
  unsigned C = compile(Br->getCondition(), Depth + 1);
  return ToTrue ? C : add(Op::Xor, 1, {C, constant(1, 1)});
}

/// Whether control, entering the stage block, reaches \p BB (an i1 node), on
/// the acyclic region the stage block dominates.
unsigned CombineProgram::reach(BasicBlock *BB, unsigned Depth) {
  if (BB == StageBB)
    return constant(1, 1);
  auto Structural = [&] {
    return fail("the combine's control flow is not an acyclic region");
  };
  if (auto It = ReachNode.find(BB); It != ReachNode.end())
    return It->second == InProgress ? Structural() : It->second;
  if (!DT.dominates(StageBB, BB))
    return ReachNode[BB] = fail("a phi merges the stage's values with "
                                "values from outside it");
  if (Depth > MaxDepth)
    return ReachNode[BB] = Structural();
  ReachNode[BB] = InProgress;
  SmallVector<unsigned, 4> Terms;
  for (BasicBlock *Pred : predecessors(BB)) {
    if (DT.dominates(BB, Pred))
      return ReachNode[BB] = Structural(); // a loop inside the combine
    unsigned R = reach(Pred, Depth + 1);
    Terms.push_back(add(Op::LazyAnd, 1, {R, edge(Pred, BB, Depth)}));
  }
  return ReachNode[BB] = add(Op::AnyOf, 1, Terms);
}

unsigned CombineProgram::compilePhi(PHINode *Phi, unsigned Depth) {
  SmallVector<unsigned, 8> Ops;
  for (BasicBlock *Pred : Phi->blocks()) {
    unsigned R = reach(Pred, Depth);
    Ops.push_back(
        add(Op::LazyAnd, 1, {R, edge(Pred, Phi->getParent(), Depth)}));
    Ops.push_back(compile(Phi->getIncomingValueForBlock(Pred), Depth + 1));
  }
  unsigned None = fail("no predecessor of a combine phi is taken");
  return add(Op::Phi, bitsOf(Phi->getType()), Ops, Nodes[None].Imm);
}

/// The order-type argument needs operations that only compare, select and
/// move bits; anything else compiles to a failure.
unsigned CombineProgram::compileInst(Instruction *I, unsigned Depth) {
  auto Op0 = [&](unsigned N) { return compile(I->getOperand(N), Depth + 1); };
  unsigned Bits = bitsOf(I->getType());
  if (auto *Phi = dyn_cast<PHINode>(I))
    return compilePhi(Phi, Depth);
  if (isa<SelectInst>(I))
    return add(Op::Select, Bits, {Op0(0), Op0(1), Op0(2)});
  if (auto *Cmp = dyn_cast<FCmpInst>(I)) {
    Type *OT = Cmp->getOperand(0)->getType();
    if (!OT->isFloatTy() && !OT->isDoubleTy())
      return fail("fcmp on a type other than f32/f64");
    return add(Op::FCmp, OT->getPrimitiveSizeInBits(), {Op0(0), Op0(1)}, 0,
               Cmp->getPredicate());
  }
  if (auto *Cmp = dyn_cast<ICmpInst>(I)) {
    if (!Cmp->getOperand(0)->getType()->isIntegerTy())
      return fail("icmp on pointers");
    for (Value *O : Cmp->operands()) {
      auto It = PartnerIdx.find(O);
      if (match(O, m_BitCast(m_Value())) ||
          (It != PartnerIdx.end() && IsFloatWord[It->second]))
        return fail("an integer compare of floating-point bits");
    }
    return add(Op::ICmp, bitsOf(Cmp->getOperand(0)->getType()),
               {Op0(0), Op0(1)}, 0, Cmp->getPredicate());
  }
  if (isa<BitCastInst>(I)) {
    if (I->getType()->isVectorTy() || I->getOperand(0)->getType()->isVectorTy())
      return fail("a vector bitcast");
    return add(Op::Copy, Bits, {Op0(0)});
  }
  if (isa<ZExtInst>(I))
    return add(Op::Copy, Bits, {Op0(0)});
  if (isa<SExtInst>(I))
    return add(Op::SExt, Bits, {Op0(0)}, 0,
               I->getOperand(0)->getType()->getIntegerBitWidth());
  if (isa<TruncInst>(I))
    return add(Op::Trunc, Bits, {Op0(0)});
  if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    unsigned Opc = BO->getOpcode();
    // Logic on i1 conditions.
    if (Bits == 1 && Opc == Instruction::And)
      return add(Op::And, 1, {Op0(0), Op0(1)});
    if (Bits == 1 && Opc == Instruction::Or)
      return add(Op::Or, 1, {Op0(0), Op0(1)});
    if (Bits == 1 && Opc == Instruction::Xor)
      return add(Op::Xor, 1, {Op0(0), Op0(1)});
    // Moving 32-bit words into and out of a 64-bit value.
    auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (Bits == 64 && C && C->getZExtValue() == 32 && Opc == Instruction::Shl)
      return add(Op::Shl32, 64, {Op0(0)});
    if (Bits == 64 && C && C->getZExtValue() == 32 &&
        Opc == Instruction::LShr)
      return add(Op::LShr32, 64, {Op0(0)});
    if (Opc == Instruction::Or && cast<PossiblyDisjointInst>(BO)->isDisjoint())
      return add(Op::Or, Bits, {Op0(0), Op0(1)});
  }
  if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    if (ID == Intrinsic::umin || ID == Intrinsic::umax ||
        ID == Intrinsic::smin || ID == Intrinsic::smax)
      return add(Op::MinMax, Bits, {Op0(0), Op0(1)}, 0, ID);
    if (isFloatMinMax(ID) && Bits == 32)
      return add(Op::FMinMax, 32, {Op0(0), Op0(1)}, 0, ID);
    if (ID == Intrinsic::fabs && (Bits == 32 || Bits == 64))
      return add(Op::FAbs, Bits, {Op0(0)});
  }
  if (I->getOpcode() == Instruction::FNeg && (Bits == 32 || Bits == 64))
    return add(Op::FNeg, Bits, {Op0(0)});
  return fail(Twine("'") + I->getOpcodeName() +
              "' in the combine (only compares, selects and bit moves are "
              "proven)");
}

void CombineProgram::run(ArrayRef<uint64_t> Self, ArrayRef<uint64_t> Partner,
                         MutableArrayRef<uint64_t> Val,
                         MutableArrayRef<int32_t> FailAt) const {
  for (auto [NI, N] : enumerate(Nodes)) {
    const uint32_t *O = Operands.data() + N.FirstOp;
    uint64_t V = 0;
    int32_t F = -1;
    // Strict operations fail when any operand fails.
    auto Strict = [&] {
      for (unsigned K = 0; K < N.NumOps; ++K)
        if (FailAt[O[K]] >= 0)
          return F = FailAt[O[K]], false;
      return true;
    };
    auto A = [&](unsigned K) { return Val[O[K]]; };
    switch (N.Opc) {
    case Op::SelfWord:
      V = Self[N.Imm];
      break;
    case Op::SelfPair:
      V = Self[N.Imm & 0xFFFFFFFF] | Self[N.Imm >> 32] << 32;
      break;
    case Op::PartnerWord:
      V = Partner[N.Imm];
      break;
    case Op::Const:
      V = N.Imm;
      break;
    case Op::Fail:
      F = N.Imm;
      break;
    case Op::Select:
    case Op::LazyAnd: {
      if ((F = FailAt[O[0]]) >= 0)
        break;
      unsigned Pick = N.Opc == Op::Select ? ((A(0) & 1) ? 1 : 2)
                                          : ((A(0) & 1) ? 1 : 0);
      if (Pick == 0)
        break;
      V = A(Pick);
      F = FailAt[O[Pick]];
      break;
    }
    case Op::Phi:
      F = N.Imm;
      for (unsigned K = 0; K + 1 < N.NumOps; K += 2) {
        if (FailAt[O[K]] >= 0) {
          F = FailAt[O[K]];
          break;
        }
        if (A(K) & 1) {
          V = A(K + 1);
          F = FailAt[O[K + 1]];
          break;
        }
      }
      break;
    case Op::AnyOf:
      if (Strict())
        for (unsigned K = 0; K < N.NumOps; ++K)
          V |= A(K) & 1;
      break;
    case Op::FCmp:
      if (Strict()) {
        const fltSemantics &Sem =
            N.Bits == 32 ? APFloat::IEEEsingle() : APFloat::IEEEdouble();
        APFloat X(Sem, ap(N.Bits, A(0))), Y(Sem, ap(N.Bits, A(1)));
        V = FCmpInst::compare(X, Y, CmpInst::Predicate(N.Aux));
      }
      break;
    case Op::ICmp:
      if (Strict())
        V = ICmpInst::compare(ap(N.Bits, A(0)), ap(N.Bits, A(1)),
                              CmpInst::Predicate(N.Aux));
      break;
    case Op::Copy:
    case Op::Trunc:
      if (Strict())
        V = maskTo(A(0), N.Bits);
      break;
    case Op::SExt:
      if (Strict())
        V = maskTo(uint64_t(ap(N.Aux, A(0)).getSExtValue()), N.Bits);
      break;
    case Op::And:
      if (Strict())
        V = A(0) & A(1);
      break;
    case Op::Or:
      if (Strict())
        V = A(0) | A(1);
      break;
    case Op::Xor:
      if (Strict())
        V = A(0) ^ A(1);
      break;
    case Op::Shl32:
      if (Strict())
        V = A(0) << 32;
      break;
    case Op::LShr32:
      if (Strict())
        V = A(0) >> 32;
      break;
    case Op::MinMax:
      if (Strict()) {
        APInt X = ap(N.Bits, A(0)), Y = ap(N.Bits, A(1));
        bool TakeA = N.Aux == Intrinsic::umin   ? X.ule(Y)
                     : N.Aux == Intrinsic::umax ? X.uge(Y)
                     : N.Aux == Intrinsic::smin ? X.sle(Y)
                                                : X.sge(Y);
        V = TakeA ? A(0) : A(1);
      }
      break;
    case Op::FMinMax:
      if (Strict())
        V = floatMinMax(Intrinsic::ID(N.Aux), uint32_t(A(0)), uint32_t(A(1)));
      break;
    case Op::FAbs:
      if (Strict())
        V = A(0) & ~(uint64_t(1) << (N.Bits - 1));
      break;
    case Op::FNeg:
      if (Strict())
        V = A(0) ^ (uint64_t(1) << (N.Bits - 1));
      break;
    }
    Val[NI] = V;
    FailAt[NI] = F;
  }
}

SmallVector<uint64_t, 8> CombineProgram::comparedConstants(bool Float) const {
  SmallVector<uint64_t, 8> R;
  for (const Node &N : Nodes) {
    if (N.Opc != (Float ? Op::FCmp : Op::ICmp) || (Float && N.Bits != 32))
      continue;
    for (unsigned K = 0; K < 2; ++K) {
      const Node &C = Nodes[Operands[N.FirstOp + K]];
      if (C.Opc == Op::Const && !is_contained(R, C.Imm))
        R.push_back(C.Imm);
    }
  }
  return R;
}

std::string CombineProgram::key() const {
  std::string S;
  raw_string_ostream OS(S);
  for (const Node &N : Nodes) {
    OS << unsigned(N.Opc) << ',' << unsigned(N.Bits) << ',' << N.Aux << ','
       << N.Imm << '(';
    for (unsigned K = 0; K < N.NumOps; ++K)
      OS << Operands[N.FirstOp + K] << ' ';
    OS << ')';
  }
  OS << "|out";
  for (unsigned O : Outputs)
    OS << ' ' << O;
  for (const std::string &M : Messages)
    OS << '|' << M;
  return S;
}

} // namespace argrec
} // namespace crosslane
