//===- FormLoops.cpp - 2D block IO from per-lane accesses in loops
//---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A loop of 2 to 32 iterations that loads (or stores) row k of a tile lane
// by lane in iteration k. A load becomes one 2D block load before the loop
// (behind the same run-time guard as unrolled rows), and iteration k takes
// row k from the fragment; loads of the tile's blocks side by side merge
// into one load of 2 or 4 blocks. A store puts row k into a fragment in
// iteration k and the whole tile is written by a 2D store as the loop
// exits. Where the guard fails, the original accesses run.
//
//===----------------------------------------------------------------------===//

#include "FormBlocks.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace crosslane {
namespace xe {
namespace form {

/// What, besides \p P's own access and accesses apart from its tile
/// (private arrays, `restrict` arguments: apart()), the loop's memory
/// accesses rule out (empty: nothing): a load reads the whole tile before
/// the loop, so nothing in it may write memory; a store writes the tile
/// after the loop, so nothing in it may read or write memory either, but
/// stores to the same surface (counted in \p P.Siblings) that may be the
/// tile's other blocks.
std::string Former::loopMemoryRule(LoopPlan &P) const {
  Instruction *Own = P.R.inst();
  bool Store = P.R.SI;
  for (BasicBlock *BB : P.L->blocks())
    for (Instruction &I : *BB) {
      if (&I == Own ||
          !(Store ? I.mayReadOrWriteMemory() : I.mayWriteToMemory()))
        continue;
      if (apart(I, P.R))
        continue;
      if (Store && sameSurface(P, I)) {
        ++P.Siblings;
        continue;
      }
      return Store ? "the loop may read or write other memory"
                   : "the loop may write memory";
    }
  return "";
}

/// True if \p I is a per-lane store in \p P's loop's own blocks with \p
/// P's base, element, index and lane, or (a block addressed another way:
/// FormBeside.cpp) with the same lane into the same object.
bool Former::sameSurface(const LoopPlan &P, Instruction &I) const {
  auto *St = dyn_cast<StoreInst>(&I);
  if (!St || LI.getLoopFor(St->getParent()) != P.L)
    return false;
  const Value *Object =
      getUnderlyingObject(getLoadStorePointerOperand(P.R.inst()));
  for (bool Bytes : {false, true})
    if (std::optional<RowLoad> R = rowStore(St, SE, Bytes))
      if (R->key() == P.R.key() ||
          (P.R.SI && R->L.V == P.R.L.V &&
           getUnderlyingObject(St->getPointerOperand()) == Object))
        return true;
  return false;
}

namespace {
/// What is known of a min/max's operands: scalar evolution's predicates,
/// and the no-wrap of the bound a loop's exit branch compares with.
struct MinMaxFacts {
  ScalarEvolution &SE;
  /// (V + C, V) with C >= 0 and no signed (unsigned) wrap: V + C >= V + D
  /// for 0 <= D <= C.
  SmallVector<std::tuple<const SCEV *, const SCEV *, bool>, 2> Above;

  bool known(ICmpInst::Predicate Pred, const SCEV *X, const SCEV *Y) const {
    if (X == Y || SE.isKnownPredicate(Pred, X, Y))
      return true;
    bool Signed = ICmpInst::isSigned(Pred);
    bool Ge = Pred == ICmpInst::ICMP_SGE || Pred == ICmpInst::ICMP_UGE;
    // V + C (no wrap) >= V + D for 0 <= D <= C: V + D cannot wrap either.
    const SCEV *Big = Ge ? X : Y, *Small = Ge ? Y : X;
    for (auto [Hi, Lo, S] : Above) {
      const auto *C = dyn_cast<SCEVConstant>(SE.getMinusSCEV(Hi, Lo));
      const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(Small, Lo));
      if (S == Signed && Big == Hi && C && D && !D->getAPInt().isNegative() &&
          D->getAPInt().sle(C->getAPInt()))
        return true;
    }
    return false;
  }

  /// \p S with each min/max whose one operand is known to be the result
  /// replaced by that operand.
  const SCEV *simplify(const SCEV *S, unsigned Depth = 0) const {
    if (Depth > 8)
      return S;
    if (const auto *MM = dyn_cast<SCEVMinMaxExpr>(S)) {
      ICmpInst::Predicate Pred =
          MM->getSCEVType() == scSMaxExpr   ? ICmpInst::ICMP_SGE
          : MM->getSCEVType() == scUMaxExpr ? ICmpInst::ICMP_UGE
          : MM->getSCEVType() == scSMinExpr ? ICmpInst::ICMP_SLE
                                            : ICmpInst::ICMP_ULE;
      for (const SCEV *X : MM->operands())
        if (all_of(MM->operands(),
                   [&](const SCEV *Y) { return known(Pred, X, Y); }))
          return simplify(X, Depth + 1);
      return S;
    }
    if (const auto *Add = dyn_cast<SCEVAddExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops;
      for (const SCEV *Op : Add->operands())
        Ops.push_back(simplify(Op, Depth + 1));
      return SE.getAddExpr(Ops);
    }
    return S;
  }
};
} // namespace

/// The number of times \p L runs, if a constant: scalar evolution's, or
/// its exact backedge-taken count once the min/max it leaves in is
/// decided. A loop from Y to Y + 8 leaves `(Y + 7) smax Y - Y`, and the
/// `add nsw Y, 7` its exit branch compares with cannot wrap (the branch
/// would be on poison).
unsigned Former::tripCount(Loop *L) const {
  if (unsigned Trip = SE.getSmallConstantTripCount(L))
    return Trip;
  const SCEV *Taken = SE.getBackedgeTakenCount(L);
  BasicBlock *Latch = L->getLoopLatch();
  auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition())
                                        : nullptr;
  if (isa<SCEVCouldNotCompute>(Taken) || !Cmp)
    return 0;
  MinMaxFacts Facts{SE, {}};
  for (Value *Op : Cmp->operands()) {
    auto *Add = dyn_cast<BinaryOperator>(Op);
    const APInt *C;
    if (!Add || Add->getOpcode() != Instruction::Add ||
        !match(Add->getOperand(1), m_APInt(C)) || C->isNegative())
      continue;
    const SCEV *Lo = SE.getSCEV(Add->getOperand(0));
    if (Add->hasNoSignedWrap())
      Facts.Above.push_back({SE.getSCEV(Add), Lo, true});
    if (Add->hasNoUnsignedWrap())
      Facts.Above.push_back({SE.getSCEV(Add), Lo, false});
  }
  const auto *C = dyn_cast<SCEVConstant>(Facts.simplify(Taken));
  if (!C || C->getAPInt().uge(64))
    return 0;
  return C->getAPInt().getZExtValue() + 1;
}

/// \p S with each phi of \p L's header that is one constant on entry and
/// another from the latch written as the recurrence it is in a loop of two
/// iterations (LLVM counts such a loop with an `i1` phi and picks row 0 or
/// 1 by phis of constants, which scalar evolution leaves unknown).
const SCEV *Former::twoIterations(const SCEV *S, Loop *L) const {
  BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch();
  if (!Pre || !Latch)
    return S;
  ValueToSCEVMapTy Map;
  SCEVExprContains(S, [&](const SCEV *X) {
    const auto *Un = dyn_cast<SCEVUnknown>(X);
    auto *Phi = Un ? dyn_cast<PHINode>(Un->getValue()) : nullptr;
    if (!Phi || Phi->getParent() != L->getHeader() ||
        Phi->getNumIncomingValues() != 2)
      return false;
    auto *A = dyn_cast<ConstantInt>(Phi->getIncomingValueForBlock(Pre));
    auto *B = dyn_cast<ConstantInt>(Phi->getIncomingValueForBlock(Latch));
    if (A && B)
      Map[Phi] = SE.getAddRecExpr(SE.getConstant(A->getValue()),
                                  SE.getConstant(B->getValue() - A->getValue()),
                                  L, SCEV::FlagAnyWrap);
    return false;
  });
  return Map.empty() ? S : SCEVParameterRewriter::rewrite(S, SE, Map);
}

/// Checks \p I, a load or a store in loop \p L: once per iteration, row k
/// of the tile in iteration k, in uniform control flow, no other memory
/// access in the loop that the 2D operation's moving before (a load) or
/// after (a store) the loop could change, a base computed before the loop;
/// a store's loop also leaves through its latch only.
std::optional<LoopPlan> Former::planLoop(Loop *L, Instruction *I,
                                         bool ReqdSG16) {
  auto *Load = dyn_cast<LoadInst>(I);
  auto *St = dyn_cast<StoreInst>(I);
  auto Access = [&](bool Bytes) {
    return Load ? rowLoad(Load, SE, Bytes)
           : St ? rowStore(St, SE, Bytes)
                : std::nullopt;
  };
  std::optional<RowLoad> R = Access(false);
  // `p[lane]` with `p += pitch` each iteration: the offset from p's start.
  if (R && !L->isLoopInvariant(R->Base))
    if (std::optional<RowLoad> FromStart = Access(true);
        FromStart && isa<SCEVAddRecExpr>(FromStart->CoreS))
      R = FromStart;
  unsigned Trip = tripCount(L);
  if (R && Trip == 2 && !isa<SCEVAddRecExpr>(R->CoreS))
    R->CoreS = twoIterations(R->CoreS, L);
  const auto *AR = R ? dyn_cast<SCEVAddRecExpr>(R->CoreS) : nullptr;
  if (!AR || AR->getLoop() != L || !AR->isAffine() || !L->getLoopPreheader() ||
      !L->getLoopLatch() || !DT.dominates(I->getParent(), L->getLoopLatch()))
    return std::nullopt;
  LoopPlan P;
  P.R = *R;
  P.L = L;
  P.PreTerm = L->getLoopPreheader()->getTerminator();
  SmallVector<RowLoad, 1> One{*R};
  if (!shapeOf(One, P.S))
    return std::nullopt;
  std::string What = ((St ? "a per-lane store in a loop of "
                          : "a per-lane load in a loop of ") +
                      (Trip ? std::to_string(Trip) : std::string("unknown")) +
                      " iterations (a row each)");
  if (Trip < 2 || Trip > 32)
    return missed(*R, What, "the loop does not run 2 to 32 times"),
           std::nullopt;
  if (std::string Why = kernelRule(*R, ReqdSG16); !Why.empty())
    return missed(*R, What, Why), std::nullopt;
  if (U.control(I->getParent()) != Lanes::Uniform ||
      U.control(L->getLoopPreheader()) != Lanes::Uniform)
    return missed(*R, What, "the loop is not in uniform control flow"),
           std::nullopt;
  // The tile's base is computed before the loop.
  if (!L->isLoopInvariant(R->Base))
    return missed(*R, What, "the base changes from one iteration to the next"),
           std::nullopt;
  if (St) {
    P.Exit = L->getExitBlock();
    P.LatchTerm = L->getLoopLatch()->getTerminator();
    for (unsigned K = 0; K < P.LatchTerm->getNumSuccessors(); ++K)
      if (P.LatchTerm->getSuccessor(K) == P.Exit)
        P.ExitIdx = K;
    if (!P.Exit || L->getExitingBlock() != L->getLoopLatch())
      return missed(*R, What, "the loop leaves other than through its latch"),
             std::nullopt;
  }
  P.S.Rows = Trip;
  RowLoad Start = *R;
  Start.CoreS = AR->getStart();
  P.Stride = AR->getStepRecurrence(SE);
  if (std::string Why = tileRule(Start, P.S, P.Stride, P.U0); !Why.empty())
    return missed(*R, What, Why), std::nullopt;
  if (std::string Why = loopMemoryRule(P); !Why.empty())
    return missed(*R, What, Why), std::nullopt;
  return P;
}

/// Reads the whole tile before the loop (behind the guard) and, in the
/// loop, row k from the fragment where the guard held.
CallInst *Former::formLoop(LoopPlan &P) {
  if (P.R.SI)
    return formLoopStore(P);
  Instruction *Pre = P.PreTerm;
  IRBuilder<> B(Pre);
  Tile T = tile(B, P.R, P.S, P.U0V, P.StrideV);
  for (auto [K, Col] : enumerate(P.Columns))
    if (Col.Checked)
      besideGuard(B, T, P.S, Col.R, Col.S, Col.U0V, Col.StrideV, K + 1);
  Instruction *Then = SplitBlockAndInsertIfThen(T.Ok, Pre, false);
  AllocaInst *Frag = nullptr;
  CallInst *Call = read(Then, P.S, T, P.R.LI->getDebugLoc(), Frag);
  rowFromFragment(P, T, Frag, 0);
  for (auto [K, Col] : enumerate(P.Columns))
    rowFromFragment(Col, T, Frag, K + 1);
  std::string From = P.S.C > 1 ? std::to_string(P.S.C) + " per-lane loads"
                               : std::string("a per-lane load");
  remarkFormed(Call, P.S, P.S.Rows * P.S.C,
               From + " in a loop of " + Twine(P.S.Rows) +
                   " iterations (a row each)",
               T.What);
  return Call;
}

/// Splits \p P's access on the guard: the access moves to the path where
/// it fails; returns the address of row k (the iteration) of block \p Col
/// in the fragment, built by \p TB on the path where the guard holds.
Value *Former::fragmentRow(LoopPlan &P, const Tile &T, AllocaInst *Frag,
                           unsigned Col, IRBuilder<> &TB) {
  Instruction *Access = P.R.inst();
  Instruction *InThen = nullptr, *InElse = nullptr;
  SplitBlockAndInsertIfThenElse(T.Ok, Access, &InThen, &InElse);
  Access->moveBefore(InElse->getIterator());
  TB.SetInsertPoint(InThen);
  Value *Row = TB.CreateAdd(P.Iter, TB.getInt64(uint64_t(Col) * P.S.Rows));
  return TB.CreateGEP(TB.getInt8Ty(), Frag,
                      TB.CreateMul(Row, TB.getInt64(P.S.Bytes())));
}

/// In iteration k of \p P's loop, \p P's load takes row k of block \p Col
/// from the fragment where the guard held, and runs otherwise.
void Former::rowFromFragment(LoopPlan &P, const Tile &T, AllocaInst *Frag,
                             unsigned Col) {
  LoadInst *Load = P.R.LI;
  IRBuilder<> TB(Load->getContext());
  Value *Ptr = fragmentRow(P, T, Frag, Col, TB);
  Value *FromBlock = TB.CreateAlignedLoad(Load->getType(), Ptr, Align(P.S.Es));
  BasicBlock *Merge = TB.GetInsertBlock()->getSingleSuccessor();
  PHINode *Phi = PHINode::Create(Load->getType(), 2, Load->getName() + ".row");
  Phi->insertBefore(Merge->begin());
  Load->replaceAllUsesWith(Phi);
  Phi->addIncoming(FromBlock, TB.GetInsertBlock());
  Phi->addIncoming(Load, Load->getParent());
}

/// Merges \p Plans' loads (stores) of one loop that read (write) the
/// blocks of a tile side by side (block k's row index 16 lanes' elements
/// past block k-1's, in every iteration) into the plan of block 0, where
/// one 2D load of 2 or 4 blocks is a shape the chip has (where each block
/// is a store the chip has).
void Former::mergeLoopColumns(SmallVectorImpl<LoopPlan> &Plans) {
  SmallVector<bool, 8> Taken(Plans.size(), false);
  SmallVector<LoopPlan, 4> Out;
  auto SameTile = [&](const LoopPlan &P, const LoopPlan &Q) {
    return bool(P.R.LI) == bool(Q.R.LI) && Q.L == P.L &&
           Q.R.key() == P.R.key() && Q.Stride == P.Stride &&
           Q.S.Rows == P.S.Rows;
  };
  // The free plan of P's tile whose block is K blocks right of P's (a
  // store's may be addressed another way: its place is checked at run
  // time).
  auto Block = [&](unsigned I, int K, bool *Probed = nullptr) -> int {
    const LoopPlan &P = Plans[I];
    const SCEV *U = SE.getAddExpr(
        P.U0, SE.getConstant(P.U0->getType(), K * int64_t(P.S.Coef * SG),
                             /*isSigned=*/true));
    for (unsigned J = 0; J < Plans.size(); ++J)
      if (J != I && !Taken[J] && SameTile(P, Plans[J]) && Plans[J].U0 == U)
        return J;
    int J = checkedColumn(Plans, Taken, I, K);
    if (Probed)
      *Probed = J >= 0;
    return J;
  };
  // Each round starts tiles at the leftmost blocks still free (the loads
  // may come in any order); four blocks where the chip takes them at once,
  // else two.
  for (bool Progress = true; Progress;) {
    Progress = false;
    for (unsigned I = 0; I < Plans.size(); ++I) {
      if (Taken[I] || Block(I, -1) >= 0)
        continue;
      SmallVector<int, 3> Cols;
      SmallVector<bool, 3> Probed;
      int Most = Plans[I].R.SI ? 8 : 4;
      for (int K = 1; K < Most && int(Cols.size()) == K - 1; ++K) {
        bool ByProbe = false;
        if (int J = Block(I, K, &ByProbe); J >= 0) {
          Cols.push_back(J);
          Probed.push_back(ByProbe);
        }
      }
      LoopPlan &P = Plans[I];
      Shape S = P.S;
      BlockOp Op = P.R.LI ? BlockOp::Load : BlockOp::Store;
      // A store is a 2D store per block: any number side by side.
      S.C = P.R.SI             ? Cols.size() + 1
            : Cols.size() == 3 ? 4
            : Cols.empty()     ? 1
                               : 2;
      if (S.C == 4 && rowPieces(Op, S).empty())
        S.C = 2;
      if (S.C > 1 && !rowPieces(Op, S).empty()) {
        P.S.C = S.C;
        for (unsigned K = 0; K + 1 < S.C; ++K) {
          Taken[Cols[K]] = true;
          Plans[Cols[K]].Checked = Probed[K];
          P.Columns.push_back(std::move(Plans[Cols[K]]));
        }
      }
      Taken[I] = Progress = true;
      Out.push_back(std::move(P));
    }
  }
  Plans.assign(std::make_move_iterator(Out.begin()),
               std::make_move_iterator(Out.end()));
}

/// Drops (with a remark) the store plans of \p Plans whose loop stores to
/// the same surface elsewhere than in the tile's other blocks: the 2D
/// stores after the loop would change the order of writes that may
/// overlap. Their stores leave \p InPlans.
void Former::dropLoneBlocks(SmallVectorImpl<LoopPlan> &Plans,
                            SmallPtrSetImpl<Instruction *> &InPlans) {
  auto Lone = [&](const LoopPlan &P) {
    return P.R.SI && P.Siblings != P.Columns.size();
  };
  for (LoopPlan &P : Plans)
    if (Lone(P)) {
      missed(P.R,
             "a per-lane store in a loop of " + Twine(P.S.Rows) +
                 " iterations (a row each)",
             "the loop may read or write other memory");
      InPlans.erase(P.R.inst());
    }
  llvm::erase_if(Plans, Lone);
}

/// Where the guard holds, the loop puts row k into a fragment in
/// iteration k (the original store runs otherwise), and the whole tile is
/// written by a 2D store as the loop exits.
CallInst *Former::formLoopStore(LoopPlan &P) {
  StoreInst *St = P.R.SI;
  // A block of its own after the loop (the one it leaves to may be entered
  // from elsewhere too: the loop under an `if`).
  // (Another plan of the loop may have split the latch: its branch moves
  // to the last part; or have split the edge out already: its 2D store is
  // then in that block, and this one's goes before it.)
  BasicBlock *Latch = P.LatchTerm->getParent();
  P.Exit = P.LatchTerm->getSuccessor(P.ExitIdx);
  if (P.Exit->getSinglePredecessor() != Latch)
    P.Exit = SplitEdge(Latch, P.Exit);
  IRBuilder<> B(P.PreTerm);
  Tile T = tile(B, P.R, P.S, P.U0V, P.StrideV);
  for (auto [K, Col] : enumerate(P.Columns))
    if (Col.Checked)
      besideGuard(B, T, P.S, Col.R, Col.S, Col.U0V, Col.StrideV, K + 1);
  AllocaInst *Frag = fragment(P.S);
  rowToFragment(P, T, Frag, 0);
  for (auto [K, Col] : enumerate(P.Columns))
    rowToFragment(Col, T, Frag, K + 1);
  Instruction *After =
      SplitBlockAndInsertIfThen(T.Ok, P.Exit->getFirstInsertionPt(), false);
  IRBuilder<> AB(After);
  CallInst *Call =
      blockCalls(AB, BlockOp::Store, P.S, T, Frag, St->getDebugLoc());
  std::string From = P.S.C > 1 ? std::to_string(P.S.C) + " per-lane stores"
                               : std::string("a per-lane store");
  remarkFormed(Call, P.S, P.S.Rows * P.S.C,
               From + " in a loop of " + Twine(P.S.Rows) +
                   " iterations (a row each)",
               T.What, /*Store=*/true);
  return Call;
}

/// In iteration k of \p P's loop, \p P's store puts its value into row k
/// of block \p Col of the fragment where the guard held, and runs
/// otherwise.
void Former::rowToFragment(LoopPlan &P, const Tile &T, AllocaInst *Frag,
                           unsigned Col) {
  StoreInst *St = P.R.SI;
  IRBuilder<> TB(St->getContext());
  Value *Ptr = fragmentRow(P, T, Frag, Col, TB);
  TB.CreateAlignedStore(St->getValueOperand(), Ptr, Align(P.S.Es));
}

} // namespace form
} // namespace xe
} // namespace crosslane
