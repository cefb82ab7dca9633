//===- FormBeside.cpp - Store tiles whose blocks are addressed two ways ---===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A kernel that stores two blocks of a tile row by row,
//
//   C[(y + r) * ldc + x + lane] = c0[r];
//   C[(y + r) * ldc + x + 16 + lane] = c1[r];
//
// reaches the pass with the blocks addressed two ways: -O2 computes block
// 0's offset in 64 bits (`sext(y + r) * ldc + x`, no signed wrap) and
// block 1's as the 32-bit `lane + 16 + trunc(offset)`, whose add may wrap.
// Scalar evolution cannot tell that block 1 lies 16 elements right of
// block 0, each block's stores lie between the other's, and neither is
// formed alone (loads are, each block a 2D load of its own, where one
// load of both would do). Here such blocks are joined into one tile and the
// guard checks at run time what scalar evolution cannot: that each block's
// own addressing holds (its index does not wrap) and that its row 0 is
// the expected number of blocks right of block 0's, rows as far apart.
// Which blocks to join is guessed by evaluating both addresses with every
// unknown value replaced by small numbers (three ways); a wrong guess only
// makes the guard fail, and the original stores run.
//
//===----------------------------------------------------------------------===//

#include "FormBlocks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace crosslane {
namespace xe {
namespace form {

/// \p S with every integer unknown replaced by a small number chosen by
/// \p Probe (the same unknown by the same number); an integer if it folds.
static std::optional<int64_t> probe(ScalarEvolution &SE, const SCEV *S,
                                    unsigned Probe) {
  ValueToSCEVMapTy Map;
  bool Ok = true;
  SCEVExprContains(S, [&](const SCEV *X) {
    if (const auto *Un = dyn_cast<SCEVUnknown>(X)) {
      if (!Un->getType()->isIntegerTy())
        Ok = false;
      else if (!Map.count(Un->getValue())) {
        uint64_t N = Map.size() + 1;
        Map[Un->getValue()] =
            SE.getConstant(Un->getType(), 2 + N * (Probe + 3) * 7 % 61);
      }
    }
    return false;
  });
  if (!Ok)
    return std::nullopt;
  const auto *C =
      dyn_cast<SCEVConstant>(SCEVParameterRewriter::rewrite(S, SE, Map));
  if (!C || C->getAPInt().getSignificantBits() > 63)
    return std::nullopt;
  return C->getAPInt().getSExtValue();
}

/// Row 0's address (lane 0) and the stride, in bytes, of a tile whose row
/// 0 is \p R with uniform index \p U0 and stride \p Stride.
static std::pair<const SCEV *, const SCEV *>
addressAndPitch(ScalarEvolution &SE, const DataLayout &DL, const RowLoad &R,
                const SCEV *U0, const SCEV *Stride) {
  Type *I64 = Type::getInt64Ty(R.Base->getContext());
  auto Wide = [&](const SCEV *X, bool Signed) {
    return Signed ? SE.getSignExtendExpr(X, I64) : SE.getZeroExtendExpr(X, I64);
  };
  const SCEV *Size = SE.getConstant(I64, DL.getTypeStoreSize(R.Elem));
  bool Signed = R.Cast != Instruction::ZExt;
  const SCEV *Offset = SE.getMulExpr(
      R.Cast ? Wide(U0, Signed) : SE.getTruncateOrSignExtend(U0, I64), Size);
  const SCEV *Pitch =
      SE.getMulExpr(SE.getTruncateOrSignExtend(Stride, I64), Size);
  return {SE.getAddExpr(SE.getSCEV(R.Base), Offset), Pitch};
}

/// True if the tile of \p Q (row 0's uniform index \p QU0, stride \p
/// QStride, shape \p QS) has \p P's lane, elements and rows and probes as
/// \p Blocks blocks of \p P's shape \p S right (left, if negative) of \p
/// P's, rows as far apart, the same way three times.
bool Former::probedApart(const RowLoad &P, const SCEV *PU0, const SCEV *PStride,
                         const Shape &S, const RowLoad &Q, const SCEV *QU0,
                         const SCEV *QStride, const Shape &QS,
                         int64_t &Blocks) const {
  if (P.L.V != Q.L.V || S.Es != QS.Es || S.N != QS.N || S.Rows != QS.Rows)
    return false;
  auto [PA, PPitch] = addressAndPitch(SE, DL, P, PU0, PStride);
  auto [QA, QPitch] = addressAndPitch(SE, DL, Q, QU0, QStride);
  if (SE.getPointerBase(PA) != SE.getPointerBase(QA))
    return false;
  const SCEV *Apart = SE.getMinusSCEV(QA, PA);
  const SCEV *PitchDiff = SE.getMinusSCEV(QPitch, PPitch);
  int64_t Block = int64_t(SG) * S.Bytes();
  std::optional<int64_t> Seen;
  for (unsigned K = 0; K < 3; ++K) {
    std::optional<int64_t> D = probe(SE, Apart, K);
    std::optional<int64_t> DP = probe(SE, PitchDiff, K);
    if (!D || !DP || *DP != 0 || *D % Block || *D == 0 || (Seen && *Seen != *D))
      return false;
    Seen = D;
  }
  Blocks = *Seen / Block;
  return true;
}

/// Joins to \p P (a load tile, or a store tile whose stores are
/// interleaved with others) the tiles \p Right, addressed other ways and
/// probed side by side with it in this order, if what lies between their
/// accesses allows (nothing that may write memory between loads, whose
/// addresses must be computable at the first; nothing that touches memory
/// between stores) and the whole tile keeps the rules; true if it did.
bool Former::joinBeside(Plan &P, ArrayRef<Plan *> Right) {
  Shape S = P.S;
  SmallVector<RowLoad, 16> All(P.Rows.begin(), P.Rows.end());
  SmallVector<Beside, 2> Besides;
  for (Plan *Q : Right) {
    for (RowLoad R : Q->Rows) {
      R.Col += S.C;
      All.push_back(R);
    }
    Besides.push_back({Q->Rows[0], Q->S, S.C, Q->U0, Q->Stride});
    S.C += Q->S.C;
  }
  if (!rules(P.Rows[0], S, P.Stride).empty())
    return false;
  Instruction *First = nullptr, *Last = nullptr;
  if (P.Rows[0].LI) {
    if (!noWritesBetween(All))
      return false;
    First = firstOf(All);
    for (const RowLoad &R : All)
      if (!recomputable(R.LI->getPointerOperand(), First))
        return false;
  } else if (!onlyArithmeticBetween(All, First, Last)) {
    return false;
  }
  P.S = S;
  P.Rows.assign(All.begin(), All.end());
  P.Besides = std::move(Besides);
  P.First = P.Rows[0].LI ? First : Last;
  P.Order.clear();
  if (!P.Rows[0].LI)
    P.Order = storesInOrder(All);
  return true;
}

/// The store tiles \p Blocked (of one block of code) each have other
/// stores between theirs (loads: are single tiles of their own); those
/// that probe as blocks side by side join into one plan (leftmost block
/// first) and go to \p Plans, as do the other loads. The stores left are
/// left as they are, with a remark.
void Former::mergeBeside(SmallVectorImpl<Plan> &Blocked,
                         SmallVectorImpl<Plan> &Plans) {
  SmallVector<bool, 8> Used(Blocked.size(), false);
  auto Apart = [&](unsigned I, unsigned J, int64_t &Blocks) {
    const Plan &P = Blocked[I], &Q = Blocked[J];
    return probedApart(P.Rows[0], P.U0, P.Stride, P.S, Q.Rows[0], Q.U0,
                       Q.Stride, Q.S, Blocks);
  };
  for (unsigned I = 0; I < Blocked.size(); ++I) {
    if (Used[I])
      continue;
    int64_t Blocks = 0;
    bool Leftmost = true;
    for (unsigned J = 0; J < Blocked.size(); ++J)
      if (J != I && !Used[J] && Apart(I, J, Blocks) && Blocks < 0)
        Leftmost = false;
    if (!Leftmost)
      continue;
    SmallVector<unsigned, 4> Right;
    unsigned C = Blocked[I].S.C;
    bool Loads = Blocked[I].Rows[0].LI;
    for (bool Found = true; Found && C < (Loads ? 4 : 8);) {
      Found = false;
      for (unsigned J = 0; J < Blocked.size() && !Found; ++J)
        if (J != I && !Used[J] && !is_contained(Right, J) &&
            Apart(I, J, Blocks) && Blocks == int64_t(C)) {
          Right.push_back(J);
          C += Blocked[J].S.C;
          Found = true;
        }
    }
    // One load takes 2 or 4 blocks where the chip has the shape.
    auto LoadTakes = [&](unsigned N) {
      Shape S = Blocked[I].S;
      S.C = N;
      return oneLoadTakes(S);
    };
    while (Loads && !Right.empty() && !LoadTakes(C)) {
      C -= Blocked[Right.back()].S.C;
      Right.pop_back();
    }
    SmallVector<Plan *, 4> Tiles;
    for (unsigned J : Right)
      Tiles.push_back(&Blocked[J]);
    if (Right.empty() || C > 8 || !joinBeside(Blocked[I], Tiles))
      continue;
    Used[I] = true;
    for (unsigned J : Right)
      Used[J] = true;
    Plans.push_back(std::move(Blocked[I]));
  }
  for (unsigned I = 0; I < Blocked.size(); ++I)
    if (!Used[I] && Blocked[I].Rows[0].LI)
      Plans.push_back(std::move(Blocked[I]));
    else if (!Used[I])
      missed(Blocked[I].Rows[0], Blocked[I].Rows.size(),
             "something between them may read or write memory");
}

/// The free plan of \p Plans (not \p Taken) in \p Plans[I]'s loop
/// whose tile probes as \p K blocks right of \p Plans[I]'s, addressed
/// another way; -1 if none.
int Former::checkedColumn(ArrayRef<LoopPlan> Plans, ArrayRef<bool> Taken,
                          unsigned I, int K) const {
  const LoopPlan &P = Plans[I];
  for (unsigned J = 0; J < Plans.size(); ++J) {
    const LoopPlan &Q = Plans[J];
    int64_t Blocks = 0;
    if (J != I && !Taken[J] && bool(Q.R.SI) == bool(P.R.SI) && Q.L == P.L &&
        Q.S.C == 1 &&
        probedApart(P.R, P.U0, P.Stride, P.S, Q.R, Q.U0, Q.Stride, Q.S,
                    Blocks) &&
        Blocks == K)
      return J;
  }
  return -1;
}

/// Extends \p T, the guard of a tile of shape \p S, by the checks for its
/// blocks addressed another way (row 0 \p R0, their own shape \p Own, row
/// 0's uniform index \p U0V and stride \p StrideV), the first at column
/// \p Col: their own addressing holds (a widened 32-bit index does not
/// wrap), and their row 0 lies \p Col blocks right of the tile's, rows as
/// far apart. (What else the tile's guard checks holds for them then.)
void Former::besideGuard(IRBuilder<> &B, Tile &T, const Shape &S,
                         const RowLoad &R0, const Shape &Own, Value *U0V,
                         Value *StrideV, unsigned Col) {
  Tile Q = tileAddress(B, R0, U0V, StrideV);
  Type *I64 = B.getInt64Ty();
  Value *Want = B.CreateAdd(B.CreatePtrToInt(T.Row0, I64),
                            B.getInt64(uint64_t(Col) * SG * S.Bytes()));
  Value *Ok = B.CreateAnd(B.CreateICmpEQ(B.CreatePtrToInt(Q.Row0, I64), Want),
                          B.CreateICmpEQ(Q.Pitch, T.Pitch));
  StringRef NoWrap = "no row's 32-bit index wraps";
  if (Value *Holds = noWrap(B, R0, Own, U0V, StrideV)) {
    Ok = B.CreateAnd(Ok, Holds);
    if (!StringRef(T.What).contains(NoWrap))
      T.What += (", " + NoWrap).str();
  }
  T.Ok = B.CreateAnd(T.Ok, Ok);
  StringRef Side = "the blocks addressed another way lie side by side with "
                   "the first, rows as far apart";
  if (!StringRef(T.What).contains(Side))
    T.What += (", " + Side).str();
}

} // namespace form
} // namespace xe
} // namespace crosslane
