//===- CombineProgram.cpp - A butterfly stage's combine as straight code --===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CombineProgram.h"
#include "LaneMap.h"
#include "crosslane/Support/Compare.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llvm;

/// A value a combine reads, for a remark: the source variable it holds
/// (from debug info), else what computes it and on which line; never an IR
/// name like `%31`.
static std::string describeForeign(const Value *V) {
  if (const auto *A = dyn_cast<Argument>(V))
    return "the function's argument " + std::to_string(A->getArgNo() + 1);
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return "a value computed outside the combine";
  for (const DbgVariableRecord *R : findDVRValues(const_cast<Instruction *>(I)))
    if (R->getVariable())
      return ("'" + R->getVariable()->getName() + "'").str();
  std::string S =
      std::string("a value computed by '") + I->getOpcodeName() + "'";
  if (const DebugLoc &L = I->getDebugLoc())
    S += " at line " + std::to_string(L.getLine());
  return S;
}
using namespace llvm::PatternMatch;

namespace crosslane {
namespace argrec {

namespace {

/// Whether \p A and \p B are phis of one block, or selects on one
/// condition, whose incoming values / arms pairwise satisfy \p Rel: the
/// structural proofs below carry their facts through such merges.
bool pairwise(Value *A, Value *B, function_ref<bool(Value *, Value *)> Rel) {
  auto *PA = dyn_cast<PHINode>(A), *PB = dyn_cast<PHINode>(B);
  if (PA && PB && PA->getParent() == PB->getParent())
    return all_of(PA->blocks(), [&](BasicBlock *Pred) {
      return Rel(PA->getIncomingValueForBlock(Pred),
                 PB->getIncomingValueForBlock(Pred));
    });
  auto *SA = dyn_cast<SelectInst>(A), *SB = dyn_cast<SelectInst>(B);
  return SA && SB && SA->getCondition() == SB->getCondition() &&
         Rel(SA->getTrueValue(), SB->getTrueValue()) &&
         Rel(SA->getFalseValue(), SB->getFalseValue());
}

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
  return pairwise(
      A, B, [&](Value *IA, Value *IB) { return equivBits(IA, IB, Depth + 1); });
}

/// Structural proof that the 32-bit word \p W holds the bits of the 8- or
/// 16-bit \p V (an f16, a `short`) in its low bits: `zext`/`sext` of V,
/// V = `trunc W` (or both truncations of one value), W masked or sign-extended
/// from at least V's bits, or matching phis / selects of such pairs (through
/// bitcasts of V), also around the phi cycles of a chain of stages.
bool wordHoldsLow(Value *V, Value *W, unsigned Depth = 0);

/// A 32-bit value cut back to a narrower integer type's range: `and X,
/// 2^Bits - 1` (unsigned) or `ashr (shl X, 32 - Bits), 32 - Bits` (signed).
struct Narrowing {
  Value *X;
  unsigned Bits;
  bool Signed;
};
std::optional<Narrowing> narrowingOf(Value *W) {
  Value *X;
  const APInt *C, *D;
  if (!W->getType()->isIntegerTy(32))
    return std::nullopt;
  if (match(W, m_And(m_Value(X), m_APInt(C))) && C->isMask())
    return Narrowing{X, C->countTrailingOnes(), false};
  if (match(W, m_AShr(m_Shl(m_Value(X), m_APInt(C)), m_APInt(D))) && *C == *D &&
      C->ult(32))
    return Narrowing{X, unsigned(32 - C->getZExtValue()), true};
  return std::nullopt;
}

bool wordHoldsLowStep(Value *V, Value *W, unsigned Depth) {
  if (Depth > 8)
    return false;
  unsigned Bits = V->getType()->getPrimitiveSizeInBits();
  Value *X;
  if (match(V, m_BitCast(m_Value(X))))
    return wordHoldsLow(X, W, Depth + 1);
  if (match(W, m_ZExtOrSExt(m_Value(X))) && equivBits(X, V))
    return true;
  // V = trunc W, or both cut from one wider value (`(unsigned char)tid`
  // beside `(int)tid & 255`).
  if (match(V, m_Trunc(m_Value(X))) &&
      (X == W || match(W, m_Trunc(m_Specific(X)))))
    return true;
  if (auto N = narrowingOf(W); N && N->Bits >= Bits)
    return wordHoldsLow(V, N->X, Depth + 1);
  return pairwise(
      V, W, [&](Value *A, Value *B) { return wordHoldsLow(A, B, Depth + 1); });
}

bool wordHoldsLow(Value *V, Value *W, unsigned Depth) {
  return relatedThroughPhis(
      V, W, [&](Value *A, Value *B) { return wordHoldsLowStep(A, B, Depth); });
}

/// Structural proof that the 32-bit \p W always holds the low (\p High:
/// high) half of the 64-bit \p V: `trunc V`, `trunc (lshr V, 32)`, the
/// halves an `or (shl H, 32), (zext L)` was built from, through bitcasts
/// and matching phis / selects (a double carried beside its two words).
bool isHalfOf(Value *W, Value *V, bool High, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  Value *X, *H, *L;
  if (High ? match(W, m_Trunc(m_LShr(m_Value(X), m_SpecificInt(32))))
           : match(W, m_Trunc(m_Value(X))) && X->getType()->isIntegerTy(64) &&
                 !match(X, m_LShr(m_Value(), m_Value())))
    if (equivBits(X, V))
      return true;
  if (match(V, m_BitCast(m_Value(X))))
    return isHalfOf(W, X, High, Depth + 1);
  if (Value *S = lowWordSource(V); !High && S != V)
    return isHalfOf(W, S, High, Depth + 1);
  // A sign-extended word: its high word is the word's sign, which InstCombine
  // exchanges as `ashr L, 31` (an int64 index made from an `int`).
  if (match(V, m_SExt(m_Value(L))) && L->getType()->isIntegerTy(32))
    return High ? match(W, m_AShr(m_Value(X), m_SpecificInt(31))) &&
                      equivBits(X, L)
                : equivBits(W, L);
  if (match(V, m_c_Or(m_Shl(m_ZExtOrSExt(m_Value(H)), m_SpecificInt(32)),
                      m_ZExt(m_Value(L)))) &&
      H->getType()->isIntegerTy(32) && L->getType()->isIntegerTy(32))
    return equivBits(W, High ? H : L);
  return pairwise(W, V, [&](Value *IW, Value *IV) {
    return isHalfOf(IW, IV, High, Depth + 1);
  });
}

/// True if the i64 \p V's high word is zero: a zext of an i32, a mask to
/// the low word, or phis and selects of such values.
bool highZero(Value *V) {
  SmallVector<Value *, 8> Work = {V};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    Value *Y;
    if (match(X, m_ZExt(m_Value(Y))) && Y->getType()->isIntegerTy(32))
      continue;
    const APInt *Mask;
    if (match(X, m_And(m_Value(), m_APInt(Mask))) && Mask->isIntN(32))
      continue;
    if (auto *S = dyn_cast<SelectInst>(X)) {
      Work.push_back(S->getTrueValue());
      Work.push_back(S->getFalseValue());
      continue;
    }
    auto *P = dyn_cast<PHINode>(X);
    if (!P)
      return false;
    append_range(Work, P->incoming_values());
  }
  return true;
}

/// Structural proof that the i64 \p V always equals `zext W` for the i32
/// \p W (an index the code widens to i64, carried beside its word): `zext
/// X` with X the word's bits, `W = trunc V` with V's high word zero,
/// `V = and X, 0xFFFFFFFF` with `W = trunc X`, or phis so related.
bool isZExtOf(Value *V, Value *W) {
  return relatedThroughPhis(V, W, [](Value *A, Value *B) {
    Value *X;
    if (match(A, m_ZExt(m_Value(X))) && X->getType()->isIntegerTy(32) &&
        equivBits(X, B))
      return true;
    if (match(B, m_Trunc(m_Specific(A))) &&
        (highZero(A) || cast<TruncInst>(B)->hasNoUnsignedWrap()))
      return true; // `trunc nuw`: the high word is zero (else poison)
    return match(A, m_And(m_Value(X), m_SpecificInt(0xFFFFFFFFull))) &&
           match(B, m_Trunc(m_Specific(X)));
  });
}

APInt ap(unsigned Bits, uint64_t V) { return APInt(Bits, maskTo(V, Bits)); }

/// `fcmp Pred` on f32 (\p Bits 32) or f64 bit patterns.
bool fcmp(CmpInst::Predicate Pred, uint64_t A, uint64_t B, unsigned Bits) {
  if (Bits == 16)
    return evalFCmp(Pred, halfToDouble(A), halfToDouble(B));
  return Bits == 32 ? evalFCmp(Pred, bit_cast<float>(uint32_t(A)),
                               bit_cast<float>(uint32_t(B)))
                    : evalFCmp(Pred, bit_cast<double>(A), bit_cast<double>(B));
}

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

bool relatedThroughPhis(Value *A, Value *B,
                        function_ref<bool(Value *, Value *)> Base) {
  SmallVector<std::pair<Value *, Value *>, 8> Work = {{A, B}};
  SmallPtrSet<Value *, 8> Assumed;
  while (!Work.empty()) {
    auto [X, Y] = Work.pop_back_val();
    if (Base(X, Y))
      continue;
    auto *PX = dyn_cast<PHINode>(X), *PY = dyn_cast<PHINode>(Y);
    if (!PX || !PY || PX->getParent() != PY->getParent())
      return false;
    if (!Assumed.insert(PX).second)
      continue;
    for (BasicBlock *Pred : PX->blocks())
      Work.push_back({PX->getIncomingValueForBlock(Pred),
                      PY->getIncomingValueForBlock(Pred)});
  }
  return true;
}

bool isFloatMinMax(Intrinsic::ID ID) {
  return ID == Intrinsic::maxnum || ID == Intrinsic::minnum ||
         ID == Intrinsic::maximum || ID == Intrinsic::minimum ||
         ID == Intrinsic::maximumnum || ID == Intrinsic::minimumnum;
}

CombineProgram::CombineProgram(ArrayRef<CallInst *> Partners,
                               BasicBlock *StageBB,
                               const SmallSetVector<Instruction *, 32> &Closure,
                               const WordKinds &Kinds, DominatorTree &DT,
                               const PostDominatorTree &PDT, Value *Gate,
                               bool GateOn)
    : Partners(Partners), StageBB(StageBB), Closure(Closure), DT(DT), PDT(PDT),
      Gate(Gate), GateOn(GateOn) {
  IsFloatWord.assign(Partners.size(), false);
  WordRange.assign(Partners.size(), {INT32_MIN, UINT32_MAX});
  for (unsigned W : Kinds.Float)
    IsFloatWord[W] = true;
  for (unsigned W : Kinds.Half) {
    IsFloatWord[W] = true;
    WordRange[W] = {0, UINT16_MAX};
  }
  for (const WordKinds::Range &R : Kinds.Narrow)
    WordRange[R.Word] = {R.Least, R.Most};
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
  if (isa<Constant>(V) || aliasOf(V) || shiftedSelfWord(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || isa<PHINode, CallBase>(I) ||
      I->mayReadOrWriteMemory() || PartnerIdx.count(V))
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return isSelfDerived(Op, Depth + 1); });
}

/// The stage's self words as seen through \p V, when \p V is a word or
/// provably has a word's bits: {word index, or (lo, hi) for 64 bits, or
/// (word, -2) for an i64 that is the word zero-extended}.
std::optional<std::pair<int, int>> CombineProgram::aliasOf(Value *V) {
  if (auto It = WordIdx.find(V); It != WordIdx.end())
    return std::pair<int, int>(It->second, -1);
  unsigned Bits = V->getType()->getPrimitiveSizeInBits();
  if (Bits == 32)
    for (auto [W, I] : WordIdx)
      if (equivBits(V, W))
        return std::pair<int, int>(I, -1);
  // An f16 or 8- or 16-bit integer value the word holds extended.
  if (Bits == 8 || Bits == 16)
    for (auto [W, I] : WordIdx)
      if ((fitsIn(W, Bits, false) || fitsIn(W, Bits, true)) &&
          wordHoldsLow(V, W))
        return std::pair<int, int>(I, -1);
  if (Bits == 64) {
    // words lo = trunc X, hi = trunc (lshr X, 32), X possibly a bitcast,
    // or words carried beside V (isHalfOf).
    int Lo = -1, Hi = -1;
    for (auto [W, I] : WordIdx) {
      if (isHalfOf(W, V, /*High=*/true))
        Hi = I;
      else if (isHalfOf(W, V, /*High=*/false))
        Lo = I;
    }
    if (Lo >= 0 && Hi >= 0)
      return std::pair<int, int>(Lo, Hi);
    if (V->getType()->isIntegerTy(64))
      for (auto [W, I] : WordIdx)
        if (isZExtOf(V, W))
          return std::pair<int, int>(I, -2);
  }
  return std::nullopt;
}

/// True if \p V is a word (the lane's or its partner's) whose integer fits
/// in \p Bits bits, as an unsigned or (\p Signed) a signed number.
bool CombineProgram::fitsIn(Value *V, unsigned Bits, bool Signed) const {
  auto Range = [&](const DenseMap<Value *, unsigned> &Map)
      -> std::optional<std::pair<int64_t, int64_t>> {
    if (auto It = Map.find(V); It != Map.end())
      return WordRange[It->second];
    return std::nullopt;
  };
  auto R = Range(PartnerIdx);
  if (!R)
    R = Range(WordIdx);
  if (!R || Bits == 0 || Bits > 32)
    return false;
  auto [Least, Most] = intRange(Bits, Signed);
  return R->first >= Least && R->second <= Most;
}

/// The self word \p V moves into the high half, when \p V is `shl X, 32`
/// on an i64 X whose low word is a self word: only those bits survive the
/// shift (clang packs a {float, int} state into an i64 as `(X << 32) |
/// value bits`, X the i64 work-item id whose truncation is the index word).
std::optional<unsigned> CombineProgram::shiftedSelfWord(Value *V) {
  Value *X;
  if (!match(V, m_Shl(m_Value(X), m_SpecificInt(32))) ||
      !X->getType()->isIntegerTy(64))
    return std::nullopt;
  for (auto [W, I] : WordIdx)
    if (isHalfOf(W, X, /*High=*/false))
      return I;
  return std::nullopt;
}

/// \p V where a self word W is `select C, V, K` (either order), K a
/// constant: a sentinel for the lanes without an element (`valid ? t : -1`).
/// Where W is not K, C chose V, so V is W; where W is K, V is known only if
/// it is K too, so reading V there fails. clang reads V on the paths where
/// the combine found W not to be the sentinel (jump threading substitutes
/// it into the phi that keeps the lane's own index).
std::optional<unsigned> CombineProgram::selectedSelfWord(Value *V) {
  for (auto [W, WI] : WordIdx) {
    auto *Sel = dyn_cast<SelectInst>(W);
    if (!Sel || !W->getType()->isIntegerTy(32))
      continue;
    Value *Other = Sel->getTrueValue() == V    ? Sel->getFalseValue()
                   : Sel->getFalseValue() == V ? Sel->getTrueValue()
                                               : nullptr;
    auto *K = dyn_cast_or_null<ConstantInt>(Other);
    if (!K)
      continue;
    unsigned Word = add(Op::SelfWord, 32, {}, WI);
    unsigned IsK = add(Op::ICmp, 32, {Word, constant(K->getZExtValue(), 32)}, 0,
                       CmpInst::ICMP_EQ);
    unsigned Unknown = fail("the combine reads the value a sentinel replaced");
    return add(Op::Select, 32, {IsK, Unknown, Word});
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
  } else if (V == Gate) {
    N = constant(GateOn, 1);
  } else if (auto *CI = dyn_cast<ConstantInt>(V)) {
    N = constant(CI->getZExtValue(), Bits);
  } else if (auto *CF = dyn_cast<ConstantFP>(V)) {
    N = constant(CF->getValueAPF().bitcastToAPInt().getZExtValue(), Bits);
  } else if (auto *I = dyn_cast<Instruction>(V); I && Closure.count(I)) {
    N = compileInst(I, Depth);
  } else if (auto W = shiftedSelfWord(V)) {
    N = add(Op::Shl32, 64,
            {add(Op::Copy, 64, {add(Op::SelfWord, 32, {}, *W)})});
  } else if (auto A = aliasOf(V)) {
    if (A->second == -2) // zext of a word
      N = add(Op::Copy, 64, {add(Op::SelfWord, 32, {}, A->first)});
    else if (A->second >= 0)
      N = add(Op::SelfPair, 64, {},
              uint64_t(A->first) | uint64_t(A->second) << 32);
    else if (Bits < 32) // the word's low bits (a sign-extended `short`)
      N = add(Op::Trunc, Bits, {add(Op::SelfWord, 32, {}, A->first)});
    else
      N = add(Op::SelfWord, 32, {}, A->first);
  } else if (auto *I = dyn_cast<Instruction>(V); I && isSelfDerived(I, 0)) {
    // Computed from the lane's own state alone (e.g. `self.index == 0`,
    // which clang tests before it looks at the partner).
    N = compileInst(I, Depth);
  } else if (auto S = selectedSelfWord(V)) {
    N = *S;
  } else {
    if (!Foreign)
      Foreign = V;
    N = fail("the combine reads " + describeForeign(V) +
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
  // Control that enters the stage block leaves through a block that
  // post-dominates it, whichever way the branches before it go (they may
  // belong to another combine: two pairs chosen one after the other).
  if (BB == StageBB || PDT.dominates(BB, StageBB))
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

/// True when the bits of \p V that \p Part names (of an i64: the low or
/// the high word; else all) may hold bits of a float: a bitcast, a float
/// word, or such bits moved by casts, 32-bit shifts and bitwise logic. The
/// representatives of floats are values, not bit patterns, so an integer
/// compare of such bits is not proven.
bool CombineProgram::readsFloatBits(Value *V, WordPart Part, unsigned Depth) {
  if (match(V, m_BitCast(m_Value())))
    return true;
  if (auto It = PartnerIdx.find(V);
      It != PartnerIdx.end() && IsFloatWord[It->second])
    return true;
  if (auto It = WordIdx.find(V); It != WordIdx.end() && IsFloatWord[It->second])
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return false;
  auto Rec = [&](Value *Op, WordPart P) {
    return readsFloatBits(Op, P, Depth + 1);
  };
  Value *X;
  if (match(I, m_Trunc(m_Value(X))))
    return Rec(X, WordPart::Low);
  if (match(I, m_LShr(m_Value(X), m_SpecificInt(32))))
    return Part != WordPart::High && Rec(X, WordPart::High);
  if (match(I, m_Shl(m_Value(X), m_SpecificInt(32))))
    return Part != WordPart::Low && Rec(X, WordPart::Low);
  if (match(I, m_ZExt(m_Value(X))))
    return Part != WordPart::High && Rec(X, WordPart::All);
  if (match(I, m_SExt(m_Value(X))))
    return Rec(X, WordPart::All);
  if (isa<BinaryOperator, SelectInst>(I))
    return any_of(I->operands(), [&](Value *Op) {
      return !Op->getType()->isIntegerTy(1) && Rec(Op, Part);
    });
  return false;
}

std::optional<ShiftedEquality> shiftedEquality(const ICmpInst *Cmp) {
  Value *W;
  const APInt *K, *C;
  if (!Cmp->isEquality() ||
      !match(Cmp->getOperand(0), m_Shl(m_Value(W), m_APInt(K))) ||
      !match(Cmp->getOperand(1), m_APInt(C)) || K->isZero() ||
      K->uge(C->getBitWidth()))
    return std::nullopt;
  unsigned Shift = K->getZExtValue();
  ShiftedEquality S{W, C->getBitWidth() - Shift, std::nullopt};
  if (C->extractBits(Shift, 0).isZero())
    S.Low = C->lshr(Shift).trunc(S.Narrow);
  return S;
}

/// A ShiftedEquality on a word W that fits in the narrow bits: the narrow
/// value compared with C >> K, extended as W holds it; never equal when C
/// has bits below K.
std::optional<unsigned> CombineProgram::compileShiftedEquality(ICmpInst *Cmp,
                                                               unsigned Depth) {
  std::optional<ShiftedEquality> S = shiftedEquality(Cmp);
  if (!S || !S->W->getType()->isIntegerTy(32))
    return std::nullopt;
  for (bool Signed : {true, false}) {
    if (!fitsIn(S->W, S->Narrow, Signed))
      continue;
    if (!S->Low)
      return constant(Cmp->getPredicate() == CmpInst::ICMP_NE, 1);
    APInt Wide = Signed ? S->Low->sext(32) : S->Low->zext(32);
    return add(Op::ICmp, 32,
               {compile(S->W, Depth + 1), constant(Wide.getZExtValue(), 32)}, 0,
               Cmp->getPredicate());
  }
  return std::nullopt;
}

/// `X < W` where InstCombine left `X <= V`: W a self word that is `add
/// V, 1` (a 1-based index `t + 1`, whose `ib < ia` becomes `ib <= t`; or
/// `or disjoint V, 1`, as in `4 * t + 1`), and the like for `add V, -1`. On
/// integers X <= W - 1 iff X < W unless W - 1 wraps, which the add's no-wrap
/// flag for the compare's signedness rules out; the compare of X with W is one
/// the order-type proof represents (W - 1 is not a compare, select or bit
/// move). Only for a V the combine could not read otherwise.
std::optional<unsigned> CombineProgram::compileOffsetCompare(ICmpInst *Cmp,
                                                             unsigned Depth) {
  for (unsigned K = 0; K < 2; ++K) {
    Value *V = Cmp->getOperand(K), *X = Cmp->getOperand(1 - K);
    // X P V.
    CmpInst::Predicate P = K ? Cmp->getPredicate() : Cmp->getSwappedPredicate();
    auto *I = dyn_cast<Instruction>(V);
    if (!V->getType()->isIntegerTy(32) || Cmp->isEquality() ||
        isa<Constant>(V) || PartnerIdx.count(V) || V == Gate ||
        (I && Closure.count(I)) || aliasOf(V) || (I && isSelfDerived(I, 0)))
      continue;
    for (auto [W, WI] : WordIdx) {
      // `or disjoint V, C` (`4 * t + 1`) adds without carries: no wrap.
      const APInt *C;
      bool NoWrap = match(W, m_DisjointOr(m_Specific(V), m_APInt(C)));
      if (!NoWrap && match(W, m_Add(m_Specific(V), m_APInt(C)))) {
        auto *Add = cast<BinaryOperator>(W);
        NoWrap = ICmpInst::isSigned(P) ? Add->hasNoSignedWrap()
                                       : Add->hasNoUnsignedWrap();
      }
      if (!NoWrap)
        continue;
      bool Less = ICmpInst::isLE(P) || ICmpInst::isLT(P);
      std::optional<CmpInst::Predicate> Q;
      if (C->isOne() && ICmpInst::isNonStrictPredicate(P) && Less)
        Q = ICmpInst::getStrictPredicate(P); // X <= W - 1: X < W
      else if (C->isOne() && ICmpInst::isStrictPredicate(P) && !Less)
        Q = ICmpInst::getNonStrictPredicate(P); // X > W - 1: X >= W
      else if (C->isAllOnes() && ICmpInst::isNonStrictPredicate(P) && !Less)
        Q = ICmpInst::getStrictPredicate(P); // X >= W + 1: X > W
      else if (C->isAllOnes() && ICmpInst::isStrictPredicate(P) && Less)
        Q = ICmpInst::getNonStrictPredicate(P); // X < W + 1: X <= W
      if (Q)
        return add(Op::ICmp, 32,
                   {compile(X, Depth + 1), add(Op::SelfWord, 32, {}, WI)}, 0,
                   *Q);
    }
  }
  return std::nullopt;
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
    if (!OT->isHalfTy() && !OT->isFloatTy() && !OT->isDoubleTy())
      return fail("fcmp on a type other than f16/f32/f64");
    return add(Op::FCmp, OT->getPrimitiveSizeInBits(), {Op0(0), Op0(1)}, 0,
               Cmp->getPredicate());
  }
  if (auto *Cmp = dyn_cast<ICmpInst>(I)) {
    if (!Cmp->getOperand(0)->getType()->isIntegerTy())
      return fail("icmp on pointers");
    for (Value *O : Cmp->operands())
      if (readsFloatBits(O, WordPart::All))
        return fail("an integer compare of floating-point bits");
    if (auto N = compileShiftedEquality(Cmp, Depth))
      return *N;
    if (auto N = compileOffsetCompare(Cmp, Depth))
      return *N;
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
    // A word cut back to the range its value already lies in (f16 bits or
    // `unsigned char` masked, `short` sign-extended from 16 bits): a copy.
    if (auto N = narrowingOf(BO); N && fitsIn(N->X, N->Bits, N->Signed))
      return add(Op::Copy, Bits, {compile(N->X, Depth + 1)});
    // Moving 32-bit words into and out of a 64-bit value.
    auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (Bits == 64 && C && C->getZExtValue() == 32 && Opc == Instruction::Shl)
      return add(Op::Shl32, 64, {Op0(0)});
    if (Bits == 64 && C && C->getZExtValue() == 32 && Opc == Instruction::LShr)
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

namespace {

/// One block of rows through a program (CombineProgram::run): node by node
/// over all rows, one dispatch per node instead of one per node and row
/// (the proofs run tens of thousands of rows). A node no row of the block
/// fails (NoFail: leaves, and operations whose operands are such nodes)
/// leaves its FailAt rows unwritten, and opF gives null for it.
class BlockRun {
public:
  using Node = CombineProgram::Node;
  using Op = CombineProgram::Op;

  BlockRun(ArrayRef<uint64_t> Self, ArrayRef<uint64_t> Partner, unsigned Rows,
           MutableArrayRef<uint64_t> Val, MutableArrayRef<int32_t> FailAt,
           ArrayRef<uint32_t> Operands, unsigned NumNodes)
      : Self(Self), Partner(Partner), Rows(Rows), Val(Val), FailAt(FailAt),
        Operands(Operands), NoFail(NumNodes, false) {}

  /// Evaluates node \p NI, \p N (its operands evaluated).
  void node(unsigned NI, const Node &N);
  /// True if no row of node \p NI fails (its FailAt rows may be unwritten).
  bool noFail(unsigned NI) const { return NoFail[NI]; }

private:
  ArrayRef<uint64_t> Self, Partner;
  unsigned Rows;
  MutableArrayRef<uint64_t> Val;
  MutableArrayRef<int32_t> FailAt;
  ArrayRef<uint32_t> Operands;
  SmallVector<bool, 64> NoFail;
  // The node being evaluated.
  const Node *N = nullptr;
  unsigned NI = 0;
  uint64_t *V = nullptr;
  int32_t *F = nullptr;

  const uint64_t *opV(unsigned K) const {
    return Val.data() + size_t(Operands[N->FirstOp + K]) * Rows;
  }
  const int32_t *opF(unsigned K) const {
    unsigned O = Operands[N->FirstOp + K];
    return NoFail[O] ? nullptr : FailAt.data() + size_t(O) * Rows;
  }
  static int32_t failOf(const int32_t *FK, unsigned R) {
    return FK ? FK[R] : -1;
  }
  bool operandsNoFail() const {
    for (unsigned K = 0; K < N->NumOps; ++K)
      if (!NoFail[Operands[N->FirstOp + K]])
        return false;
    return true;
  }
  /// A leaf: \p Body(R) in every row, which never fails.
  template <typename BodyT> void leaf(BodyT Body) {
    for (unsigned R = 0; R < Rows; ++R)
      V[R] = Body(R);
    NoFail[NI] = true;
  }
  template <typename BodyT> void strict(BodyT Body);
  void select();
  void phi();
  void anyOf();
  void fcmpNode();
  void icmpNode();
};

/// A strict operation: fails when any operand fails (the first one's
/// message), with 0 as the failed row's value; else \p Body(R).
template <typename BodyT> void BlockRun::strict(BodyT Body) {
  if (operandsNoFail())
    return leaf(Body);
  if (N->NumOps <= 2) { // one loop: the common case
    const int32_t *F0 = N->NumOps > 0 ? opF(0) : nullptr;
    const int32_t *F1 = N->NumOps > 1 ? opF(1) : nullptr;
    for (unsigned R = 0; R < Rows; ++R) {
      int32_t Fail = F0 && F0[R] >= 0 ? F0[R] : F1 ? F1[R] : -1;
      uint64_t X = Body(R);
      F[R] = Fail;
      V[R] = Fail >= 0 ? 0 : X;
    }
    return;
  }
  std::fill(F, F + Rows, -1);
  for (unsigned K = N->NumOps; K-- > 0;)
    if (const int32_t *FK = opF(K))
      for (unsigned R = 0; R < Rows; ++R)
        if (FK[R] >= 0)
          F[R] = FK[R];
  for (unsigned R = 0; R < Rows; ++R) {
    uint64_t X = Body(R);
    V[R] = F[R] >= 0 ? 0 : X;
  }
}

/// Select (cond, a, b) and LazyAnd (a, b): only the operand taken can
/// fail the row.
void BlockRun::select() {
  bool IsSelect = N->Opc == Op::Select;
  const uint64_t *A0 = opV(0), *A1 = opV(1);
  const uint64_t *A2 = IsSelect ? opV(2) : nullptr;
  if (operandsNoFail())
    return leaf([&](unsigned R) {
      return (A0[R] & 1) ? A1[R] : IsSelect ? A2[R] : 0;
    });
  const int32_t *F0 = opF(0), *F1 = opF(1);
  const int32_t *F2 = IsSelect ? opF(2) : nullptr;
  for (unsigned R = 0; R < Rows; ++R) {
    V[R] = 0;
    if ((F[R] = failOf(F0, R)) >= 0)
      continue;
    unsigned Pick = IsSelect ? ((A0[R] & 1) ? 1 : 2) : ((A0[R] & 1) ? 1 : 0);
    if (Pick == 0)
      continue;
    V[R] = (Pick == 1 ? A1 : A2)[R];
    F[R] = failOf(Pick == 1 ? F1 : F2, R);
  }
}

/// Phi (taken0, value0, ...): the first taken value; Imm fails a row where
/// none is taken.
void BlockRun::phi() {
  // The operands' rows, looked up once per block.
  SmallVector<const uint64_t *, 8> Vs;
  SmallVector<const int32_t *, 8> Fs;
  for (unsigned K = 0; K < N->NumOps; ++K) {
    Vs.push_back(opV(K));
    Fs.push_back(opF(K));
  }
  for (unsigned R = 0; R < Rows; ++R) {
    V[R] = 0;
    F[R] = N->Imm;
    for (unsigned K = 0; K + 1 < N->NumOps; K += 2) {
      if (int32_t FK = failOf(Fs[K], R); FK >= 0) {
        F[R] = FK;
        break;
      }
      if (Vs[K][R] & 1) {
        V[R] = Vs[K + 1][R];
        F[R] = failOf(Fs[K + 1], R);
        break;
      }
    }
  }
}

void BlockRun::anyOf() {
  SmallVector<const uint64_t *, 8> Vs;
  for (unsigned K = 0; K < N->NumOps; ++K)
    Vs.push_back(opV(K));
  strict([&](unsigned R) {
    uint64_t X = 0;
    for (const uint64_t *VK : Vs)
      X |= VK[R] & 1;
    return X;
  });
}

void BlockRun::fcmpNode() {
  // An fcmp predicate's bits are the relations it holds on (1 =, 2 >, 4 <,
  // 8 unordered), as evalFCmp reads them.
  const uint64_t *A0 = opV(0), *A1 = opV(1);
  unsigned Holds = N->Aux & 0xF;
  if (N->Bits == 32)
    return strict([&](unsigned R) -> uint64_t {
      return (Holds & relationOf(bit_cast<float>(uint32_t(A0[R])),
                                 bit_cast<float>(uint32_t(A1[R])))) != 0;
    });
  if (N->Bits == 64)
    return strict([&](unsigned R) -> uint64_t {
      return (Holds & relationOf(bit_cast<double>(A0[R]),
                                 bit_cast<double>(A1[R]))) != 0;
    });
  strict([&](unsigned R) -> uint64_t {
    return fcmp(CmpInst::Predicate(N->Aux), A0[R], A1[R], N->Bits);
  });
}

void BlockRun::icmpNode() {
  const uint64_t *A0 = opV(0), *A1 = opV(1);
  auto P = CmpInst::Predicate(N->Aux);
  unsigned Bits = N->Bits;
  if (Bits > 64)
    return strict([&](unsigned R) -> uint64_t {
      return ICmpInst::compare(ap(Bits, A0[R]), ap(Bits, A1[R]), P);
    });
  ICmpTester Test(P, Bits);
  strict([&](unsigned R) -> uint64_t { return Test(A0[R], A1[R]); });
}

void BlockRun::node(unsigned Index, const Node &Nd) {
  N = &Nd;
  NI = Index;
  V = Val.data() + size_t(NI) * Rows;
  F = FailAt.data() + size_t(NI) * Rows;
  const uint64_t *A0 = N->NumOps > 0 ? opV(0) : nullptr;
  const uint64_t *A1 = N->NumOps > 1 ? opV(1) : nullptr;
  unsigned Bits = N->Bits;
  auto Word = [&](ArrayRef<uint64_t> W, uint64_t I) {
    return W.data() + I * Rows;
  };
  switch (N->Opc) {
  case Op::SelfWord:
  case Op::PartnerWord: {
    const uint64_t *W = Word(N->Opc == Op::SelfWord ? Self : Partner, N->Imm);
    return leaf([&](unsigned R) { return W[R]; });
  }
  case Op::SelfPair: {
    const uint64_t *Lo = Word(Self, N->Imm & 0xFFFFFFFF);
    const uint64_t *Hi = Word(Self, N->Imm >> 32);
    return leaf([&](unsigned R) { return Lo[R] | Hi[R] << 32; });
  }
  case Op::Const:
    return leaf([&](unsigned) { return N->Imm; });
  case Op::Fail:
    std::fill(V, V + Rows, 0);
    std::fill(F, F + Rows, int32_t(N->Imm));
    return;
  case Op::Select:
  case Op::LazyAnd:
    return select();
  case Op::Phi:
    return phi();
  case Op::AnyOf:
    return anyOf();
  case Op::FCmp:
    return fcmpNode();
  case Op::ICmp:
    return icmpNode();
  case Op::Copy:
  case Op::Trunc:
    return strict([&](unsigned R) { return maskTo(A0[R], Bits); });
  case Op::SExt:
    return strict([&](unsigned R) {
      return maskTo(uint64_t(sext(A0[R], N->Aux)), Bits);
    });
  case Op::And:
    return strict([&](unsigned R) { return A0[R] & A1[R]; });
  case Op::Or:
    return strict([&](unsigned R) { return A0[R] | A1[R]; });
  case Op::Xor:
    return strict([&](unsigned R) { return A0[R] ^ A1[R]; });
  case Op::Shl32:
    return strict([&](unsigned R) { return A0[R] << 32; });
  case Op::LShr32:
    return strict([&](unsigned R) { return A0[R] >> 32; });
  case Op::MinMax: {
    CmpInst::Predicate P = N->Aux == Intrinsic::umin   ? CmpInst::ICMP_ULE
                           : N->Aux == Intrinsic::umax ? CmpInst::ICMP_UGE
                           : N->Aux == Intrinsic::smin ? CmpInst::ICMP_SLE
                                                       : CmpInst::ICMP_SGE;
    return strict([&](unsigned R) {
      return evalICmp(P, A0[R], A1[R], Bits) ? A0[R] : A1[R];
    });
  }
  case Op::FMinMax:
    return strict([&](unsigned R) {
      return floatMinMax(Intrinsic::ID(N->Aux), uint32_t(A0[R]),
                         uint32_t(A1[R]));
    });
  case Op::FAbs:
    return strict(
        [&](unsigned R) { return A0[R] & ~(uint64_t(1) << (Bits - 1)); });
  case Op::FNeg:
    return strict(
        [&](unsigned R) { return A0[R] ^ (uint64_t(1) << (Bits - 1)); });
  }
}

} // namespace

bool CombineProgram::run(ArrayRef<uint64_t> Self, ArrayRef<uint64_t> Partner,
                         unsigned Rows, MutableArrayRef<uint64_t> Val,
                         MutableArrayRef<int32_t> FailAt) const {
  BlockRun Run(Self, Partner, Rows, Val, FailAt, Operands, Nodes.size());
  for (auto [NI, N] : enumerate(Nodes))
    Run.node(NI, N);
  // The outputs' rows are written, also where no row failed.
  bool Fails = false;
  for (unsigned Out : Outputs) {
    int32_t *F = FailAt.data() + size_t(Out) * Rows;
    if (Run.noFail(Out))
      std::fill_n(F, Rows, -1);
    else
      Fails |= any_of(ArrayRef(F, Rows), [](int32_t X) { return X >= 0; });
  }
  return Fails;
}

SmallVector<uint64_t, 8>
CombineProgram::comparedConstants(bool Float, unsigned FloatBits) const {
  SmallVector<uint64_t, 8> R;
  auto AddConsts = [&](const Node &N, unsigned From) {
    for (unsigned K = From; K < N.NumOps; ++K) {
      const Node &C = Nodes[Operands[N.FirstOp + K]];
      if (C.Opc == Op::Const && !is_contained(R, C.Imm))
        R.push_back(C.Imm);
    }
  };
  for (const Node &N : Nodes) {
    // Compares, min/max with a constant (`fmaxf(o, 3)` orders o against
    // 3 as a compare does), and constants a select may give instead of a
    // state value (which later code may compare).
    bool Orders = N.Opc == (Float ? Op::FCmp : Op::ICmp) ||
                  N.Opc == (Float ? Op::FMinMax : Op::MinMax);
    if (Orders && (!Float || N.Bits == FloatBits))
      AddConsts(N, 0);
    else if (N.Opc == Op::Select && N.Bits > 1)
      AddConsts(N, 1);
  }
  return R;
}

bool CombineProgram::has(Op O) const {
  return any_of(Nodes, [&](const Node &N) { return N.Opc == O; });
}

bool CombineProgram::splitsPair(unsigned Lo, unsigned Hi) const {
  if (has(Op::Trunc) || has(Op::LShr32))
    return true;
  auto IsWord = [&](const Node &N) {
    return (N.Opc == Op::SelfWord || N.Opc == Op::PartnerWord) &&
           (N.Imm == Lo || N.Imm == Hi);
  };
  // The users of each node.
  SmallVector<SmallVector<unsigned, 2>, 64> Users(Nodes.size());
  for (auto [I, N] : enumerate(Nodes))
    for (unsigned K = 0; K < N.NumOps; ++K)
      Users[Operands[N.FirstOp + K]].push_back(I);
  for (auto [I, N] : enumerate(Nodes)) {
    if (!IsWord(N))
      continue;
    // The lane's own pair is read whole (SelfPair); a word of it alone is
    // a split. The partner's words are joined as (hi << 32) | lo, each
    // widened by a zext or sext first.
    if (N.Opc == Op::SelfWord)
      return true;
    for (unsigned U : Users[I]) {
      const Node &W = Nodes[U];
      if ((W.Opc != Op::Copy && W.Opc != Op::SExt) || W.Bits != 64)
        return true;
      for (unsigned UU : Users[U]) {
        Op O = Nodes[UU].Opc;
        if (O != (N.Imm == Hi ? Op::Shl32 : Op::Or))
          return true;
        if (O == Op::Shl32 && any_of(Users[UU], [&](unsigned X) {
              return Nodes[X].Opc != Op::Or;
            }))
          return true;
      }
    }
  }
  return false;
}

std::string CombineProgram::key() const {
  // A binary encoding (it is built for every stage proof looked up): the
  // counts make it self-delimiting. The size is known first, so each field
  // is one store.
  size_t Size = 2 * sizeof(uint32_t) + Outputs.size() * sizeof(uint32_t);
  for (const Node &N : Nodes)
    Size += sizeof(uint8_t) + sizeof(N.Bits) + sizeof(N.Aux) + sizeof(N.Imm) +
            sizeof(N.NumOps) + N.NumOps * sizeof(uint32_t);
  std::string S(Size, '\0');
  char *At = S.data();
  auto Put = [&At](auto V) {
    std::memcpy(At, &V, sizeof(V));
    At += sizeof(V);
  };
  Put(uint32_t(Nodes.size()));
  for (const Node &N : Nodes) {
    Put(uint8_t(N.Opc));
    Put(N.Bits);
    Put(N.Aux);
    Put(N.Imm);
    Put(N.NumOps);
    for (unsigned K = 0; K < N.NumOps; ++K)
      Put(uint32_t(Operands[N.FirstOp + K]));
  }
  Put(uint32_t(Outputs.size()));
  for (unsigned O : Outputs)
    Put(uint32_t(O));
  assert(At == S.data() + S.size() && "key size");
  // Messages are left out: they name values of this function, and two
  // programs that differ only there compute the same (a proof resolves its
  // message indices against the program it was asked for).
  return S;
}

} // namespace argrec
} // namespace crosslane
