//===- FormBlocks.cpp - 2D block loads and stores from per-lane ones -----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A subgroup of 16 that loads the rows of a tile lane by lane,
//
//   for (int R = 0; R < 8; ++R)
//     V[R] = A[(Y + R) * P + X + get_sub_group_local_id()];
//
// reads what one 2D block load of 8 rows x 16 elements reads, and each
// lane gets what the extension's lane mapping gives it (lane L: element L
// of each row, row after row; with n consecutive elements per lane, a
// block n x 16 wide). The rewrite keeps the original loads on a second
// path and takes the 2D path only when a run-time guard holds:
//
//  * the subgroup has 16 work-items (the whole subgroup runs the load);
//  * the pitch (the distance between rows, uniform) is a multiple of 16
//    bytes, at least the surface width and at most 2^24;
//  * lane L's address is row 0's base plus L elements, exactly: the index
//    of an address is cast(U + c * lane) (c elements per lane), and when
//    the cast widens a 32-bit index every row's U + c * lane is proven (at
//    run time) not to wrap, so that the widened index is U's plus c * lane;
//  * for get_local_id(0) / get_global_id(0) as the lane's index (lane =
//    id mod 16 when the work-group's x size is a multiple of 16, by
//    cl_intel_subgroups' order of work-items in subgroups), a global offset
//    that is a multiple of 16.
//
// The surface is the tile itself: base = row 0's address, width max(64,
// row bytes), height = rows, coordinate (0, 0), so every element the block
// reads is in bounds and no out-of-bounds zero-fill can differ from the
// original loads. Found at compile time: rows evenly spaced (scalar
// evolution: row k's index is row 0's plus k times a uniform stride),
// uniform control flow and uniform bases and strides (XeUniformity), no
// write to memory between the first and the last load, and a shape the
// chip has. crosslane-xe-block-io then aligns the base (AlignmentGuards).
//
// Stores of a tile's rows, lane by lane, become a 2D block store the same
// way, where the last of them was, when nothing between the first and the
// last touches memory; the original stores, in their order, run when the
// guard fails.
//
//===----------------------------------------------------------------------===//

#include "FormBlocks.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/OpenCLBuiltins.h"
#include "crosslane/Support/SourceLocation.h"
#include "crosslane/Xe/XeFormBlocks.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#define DEBUG_TYPE "crosslane-xe-form-blocks"

using namespace llvm;
using namespace crosslane::xe;

CROSSLANE_STATISTIC(NumFormed, "Number of 2D block loads formed");
CROSSLANE_STATISTIC(NumRowLoads, "Number of per-lane loads they replace");
CROSSLANE_STATISTIC(NumFormedStores, "Number of 2D block stores formed");
CROSSLANE_STATISTIC(NumRowStores, "Number of per-lane stores they replace");

namespace crosslane {
namespace xe {
namespace form {

SmallVector<StoreInst *, 8> storesInOrder(ArrayRef<RowLoad> Rows) {
  SmallVector<StoreInst *, 8> Order;
  for (const RowLoad &R : Rows)
    Order.push_back(R.SI);
  llvm::sort(Order,
             [](StoreInst *A, StoreInst *B) { return A->comesBefore(B); });
  return Order;
}

bool recomputable(Value *V, const Instruction *At, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getParent() != At->getParent() || I->comesBefore(At))
    return true;
  if (Depth > 16 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      I->mayHaveSideEffects())
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return recomputable(Op, At, Depth + 1); });
}

namespace {

/// \p V for use before \p Before: a clone of its computation when it is
/// defined in \p Tail (the block the split moved the rows' code to).
Value *materialise(Value *V, Instruction *Before, BasicBlock *Tail,
                   DenseMap<Value *, Value *> &Done) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getParent() != Tail)
    return V;
  if (Value *C = Done.lookup(V))
    return C;
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    Op.set(materialise(Op.get(), Before, Tail, Done));
  C->insertBefore(Before->getIterator());
  Done[V] = C;
  return C;
}
} // namespace

void Former::missed(const RowLoad &R, unsigned Count, const Twine &Why) {
  missed(
      R,
      Twine(Count) + (R.LI ? " per-lane loads of " : " per-lane stores of ") +
          (R.valueType()->isVectorTy() ? "vectors" : "elements") + " in rows",
      Why);
}

void Former::missed(const RowLoad &R, const Twine &What, const Twine &Why) {
  ORE.emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, "NotFormed",
                                    userDebugLoc(R.inst()),
                                    R.inst()->getParent())
           << What.str() << " not formed into a 2D block "
           << (R.LI ? "load: " : "store: ") << Why.str();
  });
}

/// Element size, elements per lane and lane coefficient, the same for all
/// loads of \p G; false if the loads do not tile a row lane by lane.
bool Former::shapeOf(SmallVectorImpl<RowLoad> &G, Shape &S) {
  Type *T = G[0].valueType();
  Type *ET = T->getScalarType();
  if (!ET->isIntegerTy() && !ET->isHalfTy() && !ET->isBFloatTy() &&
      !ET->isFloatTy())
    return false;
  S.Es = DL.getTypeStoreSize(ET);
  S.N = T->isVectorTy() ? cast<FixedVectorType>(T)->getNumElements() : 1;
  uint64_t G0 = DL.getTypeStoreSize(G[0].Elem);
  if (!G0 || S.Bytes() % G0 || S.Bytes() > 4 || !isPowerOf2_32(S.Bytes()) ||
      (S.Es != 1 && S.Es != 2 && S.Es != 4))
    return false;
  S.Coef = S.Bytes() / G0;
  return true;
}

/// The lane query's value with the lane taken out: 0 for the subgroup
/// local id, the id rounded down to a multiple of 16 otherwise.
const SCEV *Former::laneUniform(const Lane &L) {
  const SCEV *LS = SE.getSCEV(L.V);
  if (L.K == LaneKind::SubgroupLocalId)
    return SE.getZero(LS->getType());
  const SCEV *Sixteen = SE.getConstant(LS->getType(), SG);
  return SE.getMulExpr(Sixteen, SE.getUDivExpr(LS, Sixteen));
}

/// Row \p R's index with the lane taken out (U), if lane k's index is
/// exactly U + c * k for every k in 0..15 (in the index's own width);
/// nullptr otherwise. Each k is checked by substituting the lane's value,
/// so casts and shifts of the lane are covered as they are.
const SCEV *Former::uniformPart(const RowLoad &R, const Shape &S) {
  const SCEV *LaneU = laneUniform(R.L);
  auto At = [&](uint64_t K) {
    ValueToSCEVMapTy Map;
    Map[R.L.V] =
        K ? SE.getAddExpr(LaneU, SE.getConstant(LaneU->getType(), K)) : LaneU;
    return SCEVParameterRewriter::rewrite(R.CoreS, SE, Map);
  };
  const SCEV *U0 = At(0);
  Type *Ty = R.CoreS->getType();
  for (uint64_t K = 1; K < SG; ++K)
    if (SE.getMinusSCEV(At(K), U0) != SE.getConstant(Ty, S.Coef * K))
      return nullptr;
  return U0;
}

/// Sorts \p G by row and returns the stride between rows (in index
/// units), if the loads are rows 0 .. H-1 of one evenly spaced tile.
const SCEV *Former::orderRows(SmallVectorImpl<RowLoad> &G) {
  const SCEV *LaneS = SE.getSCEV(G[0].L.V);
  SmallVector<const SCEV *, 8> D;
  for (const RowLoad &R : G) {
    D.push_back(SE.getMinusSCEV(R.CoreS, G[0].CoreS));
    if (SCEVExprContains(D.back(), [&](const SCEV *S) { return S == LaneS; }))
      return nullptr;
  }
  for (int Sign : {1, -1})
    for (const SCEV *Cand : D) {
      if (Cand->isZero())
        continue;
      const SCEV *Stride = Sign > 0 ? Cand : SE.getNegativeSCEV(Cand);
      // A pitch is positive: rows written bottom up are the same tile.
      if (SE.isKnownNegative(Stride))
        continue;
      // Row of each load relative to load 0, in [-(H-1), H-1].
      SmallVector<int, 16> K;
      int H = G.size(), Lo = 0;
      for (const SCEV *Di : D) {
        int Found = INT_MIN;
        for (int J = -H + 1; J < H && Found == INT_MIN; ++J)
          if (SE.getMulExpr(SE.getConstant(Di->getType(), J, true), Stride) ==
              Di)
            Found = J;
        if (Found == INT_MIN)
          break;
        K.push_back(Found);
        Lo = std::min(Lo, Found);
      }
      if (int(K.size()) != H)
        continue;
      SmallVector<bool, 16> Seen(H, false);
      bool Ok = true;
      for (int &Ki : K) {
        Ki -= Lo;
        Ok &= Ki < H && !Seen[Ki];
        if (Ok)
          Seen[Ki] = true;
      }
      if (!Ok)
        continue;
      for (auto [R, Ki] : zip(G, K))
        R.Row = Ki;
      llvm::sort(
          G, [](const RowLoad &A, const RowLoad &B) { return A.Row < B.Row; });
      return Stride;
    }
  return nullptr;
}

/// Sorts \p G (loads) into the columns of a tile of 2 to 8 blocks side by
/// side (lane L reading element L of each block's row: the loads of block
/// k are block 0's, 16 lanes' elements further on) and each column by row;
/// returns the stride between rows and sets \p S.C, if \p G is exactly
/// such a tile. (One operation takes 2 or 4.)
const SCEV *Former::orderColumns(SmallVectorImpl<RowLoad> &G, Shape &S) {
  Type *Ty = G[0].CoreS->getType();
  auto Shifted = [&](const SCEV *X, int64_t Blocks) {
    return SE.getAddExpr(X, SE.getConstant(Ty, Blocks * S.Coef * SG, true));
  };
  DenseMap<const SCEV *, unsigned> Index;
  for (auto [I, R] : enumerate(G))
    if (!Index.try_emplace(R.CoreS, I).second)
      return nullptr;
  SmallVector<RowLoad, 8> First;
  for (const RowLoad &R : G)
    if (!Index.count(Shifted(R.CoreS, -1)))
      First.push_back(R);
  unsigned C = First.empty() ? 0 : G.size() / First.size();
  if (C < 2 || C > 8 || C * First.size() != G.size())
    return nullptr;
  const SCEV *Stride = orderRows(First);
  if (!Stride)
    return nullptr;
  SmallVector<RowLoad, 16> Tile;
  for (unsigned K = 0; K < C; ++K)
    for (const RowLoad &R0 : First) {
      auto It = Index.find(Shifted(R0.CoreS, K));
      if (It == Index.end())
        return nullptr;
      Tile.push_back(G[It->second]);
      Tile.back().Row = R0.Row;
      Tile.back().Col = K;
    }
  G.assign(Tile.begin(), Tile.end());
  S.C = C;
  return Stride;
}

/// The groups to plan of \p G: the columns of a tile of blocks side by
/// side apart (each a tile of its own) where one operation cannot take
/// them all (a shape the chip lacks); blocks with gaps between them apart
/// (columnClasses); else \p G.
SmallVector<SmallVector<RowLoad, 8>, 4>
Former::columnsApart(SmallVectorImpl<RowLoad> &G) {
  SmallVector<SmallVector<RowLoad, 8>, 4> Parts;
  SmallVector<RowLoad, 8> Tile(G.begin(), G.end());
  Shape S;
  if (G.size() >= 4 && shapeOf(Tile, S) && !orderRows(Tile)) {
    if (!orderColumns(Tile, S))
      Parts = columnClasses(G);
    else if (!wholeTile(Tile, S))
      Parts = blockRuns(Tile, S);
  }
  if (Parts.empty())
    Parts.emplace_back(G.begin(), G.end());
  return Parts;
}

/// True if one operation takes the tile of \p S.C blocks \p Tile: a load
/// of 2 or 4 blocks the chip has; stores (a 2D store per block, one guard)
/// of blocks the chip stores.
bool Former::wholeTile(ArrayRef<RowLoad> Tile, Shape &S) const {
  S.Rows = Tile.size() / S.C;
  if (Tile[0].LI)
    return oneLoadTakes(S);
  return !rowPieces(BlockOp::Store, S).empty();
}

/// True if one load takes the tile of \p S: 2 or 4 blocks, a shape the
/// chip has.
bool Former::oneLoadTakes(const Shape &S) const {
  return (S.C == 2 || S.C == 4) && !rowPieces(BlockOp::Load, S).empty();
}

/// \p Tile's blocks in runs of four or two where the chip loads them at
/// once (16-bit data in 4 blocks: two pairs; 3 blocks: a pair and one),
/// else each block alone.
SmallVector<SmallVector<RowLoad, 8>, 4>
Former::blockRuns(ArrayRef<RowLoad> Tile, const Shape &S) const {
  auto Takes = [&](unsigned N) {
    Shape Run = S;
    Run.C = N;
    return Tile[0].LI && !rowPieces(BlockOp::Load, Run).empty();
  };
  SmallVector<SmallVector<RowLoad, 8>, 4> Parts;
  SmallVector<unsigned, 8> PartOf(S.C);
  for (unsigned K = 0; K < S.C;) {
    unsigned N = K + 4 <= S.C && Takes(4)   ? 4
                 : K + 2 <= S.C && Takes(2) ? 2
                                            : 1;
    for (unsigned J = 0; J < N; ++J)
      PartOf[K + J] = Parts.size();
    Parts.emplace_back();
    K += N;
  }
  for (const RowLoad &R : Tile) {
    Parts[PartOf[R.Col]].push_back(R);
    Parts[PartOf[R.Col]].back().Col = 0;
  }
  return Parts;
}

/// \p G split by the constant part of each access's index relative to the
/// first's (its column): blocks with a gap between them (lane L reading L
/// and L + 32), each a tile of its own. Empty unless there are two columns
/// or more and each has two rows or more.
SmallVector<SmallVector<RowLoad, 8>, 4>
Former::columnClasses(ArrayRef<RowLoad> G) {
  MapVector<const SCEV *, SmallVector<RowLoad, 8>> Classes;
  for (const RowLoad &R : G) {
    const SCEV *D = SE.getMinusSCEV(R.CoreS, G[0].CoreS);
    const SCEV *C = SE.getZero(D->getType());
    if (isa<SCEVConstant>(D))
      C = D;
    else if (const auto *Add = dyn_cast<SCEVAddExpr>(D);
             Add && isa<SCEVConstant>(Add->getOperand(0)))
      C = Add->getOperand(0);
    Classes[C].push_back(R);
  }
  SmallVector<SmallVector<RowLoad, 8>, 4> Parts;
  for (auto &[C, Rows] : Classes) {
    if (Rows.size() < 2)
      return {};
    Parts.push_back(std::move(Rows));
  }
  return Parts.size() > 1 ? Parts : decltype(Parts)();
}

/// Every value \p S is computed from is uniform (the lane query only
/// inside the rounding-down that takes the lane out).
bool Former::uniformLeaves(const SCEV *S, const Lane &L) const {
  bool Ok = true;
  SCEVExprContains(S, [&](const SCEV *X) {
    if (const auto *Un = dyn_cast<SCEVUnknown>(X))
      if (Un->getValue() != L.V && U.of(Un->getValue()) != Lanes::Uniform)
        Ok = false;
    return false;
  });
  return Ok;
}

LoadInst *Former::firstOf(ArrayRef<RowLoad> G) const {
  LoadInst *First = G[0].LI;
  for (const RowLoad &R : G)
    if (R.LI->comesBefore(First))
      First = R.LI;
  return First;
}

/// True if \p I, a plain load or store or a memory intrinsic, cannot
/// touch the object \p R's tile lies in (alias analysis: a `restrict`
/// argument, another variable; not another type), wherever in the objects
/// both access: another lane's element of the tile is as much at stake as
/// this lane's. Stores to private arrays (kernels that keep a tile in one
/// before promoting it) cannot touch global memory either.
bool Former::apart(const Instruction &I, const RowLoad &R) const {
  SmallVector<MemoryLocation, 2> Locs;
  bool Plain = true; // not atomic, not volatile
  if (const auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    Plain = !MI->isVolatile();
    Locs.push_back(MemoryLocation::getForDest(MI));
    if (const auto *MT = dyn_cast<MemTransferInst>(MI))
      Locs.push_back(MemoryLocation::getForSource(MT));
  } else if (isa<LoadInst, StoreInst>(I)) {
    Plain = isa<LoadInst>(I) ? cast<LoadInst>(I).isSimple()
                             : cast<StoreInst>(I).isSimple();
    Locs.push_back(MemoryLocation::get(&I));
  } else {
    return false;
  }
  // Types prove nothing here: C lets a kernel write one buffer through
  // pointers of two types (allocated memory takes the type of its last
  // store), and the tile's rows may meet the other access at run time.
  auto Untyped = [](AAMDNodes Tags) {
    Tags.TBAA = Tags.TBAAStruct = nullptr;
    return Tags;
  };
  MemoryLocation Tile(getLoadStorePointerOperand(R.inst()),
                      LocationSize::beforeOrAfterPointer(),
                      Untyped(R.inst()->getAAMetadata()));
  return all_of(Locs, [&](MemoryLocation L) {
    if (isa<AllocaInst>(getUnderlyingObject(L.Ptr)))
      return true;
    L.Size = LocationSize::beforeOrAfterPointer();
    L.AATags = Untyped(L.AATags);
    // An atomic or volatile access orders the tile's accesses around it.
    return Plain && AA.isNoAlias(L, Tile);
  });
}

bool Former::noWritesBetween(ArrayRef<RowLoad> G) const {
  BasicBlock *BB = G[0].LI->getParent();
  const Instruction *First = firstOf(G), *Last = First;
  for (const RowLoad &R : G)
    if (Last->comesBefore(R.LI))
      Last = R.LI;
  bool In = false;
  for (const Instruction &I : *BB) {
    In |= &I == First;
    if (In && I.mayWriteToMemory() && !apart(I, G[0]))
      return false;
    if (&I == Last)
      break;
  }
  return true;
}

/// The mangled OpenCL name of the read or write \p Op of \p Rows rows of
/// \p S's width, its private pointer typed as the extension declares
/// (ushort for 16-bit and 8-bit 32-wide blocks, uchar for other 8-bit
/// ones, uint for 32-bit).
std::string blockName(BlockOp Op, const Shape &S, unsigned Rows) {
  std::string Name = formatv("intel_sub_group_2d_block_{0}_{1}b_{2}r{3}x{4}c",
                             Op == BlockOp::Store ? "write" : "read", S.Es * 8,
                             Rows, S.W(), S.C);
  char P = S.Es == 4 ? 'j' : (S.Es == 2 || S.W() == 32) ? 't' : 'h';
  return formatv("_Z{0}{1}PU3AS1viiiDv2_iP{2}", Name.size(), Name, P);
}

Value *Former::guard(IRBuilder<> &B, const RowLoad &R0, const Shape &S,
                     Value *U0, Value *StrideIdx, Value *Row0, Value *Pitch,
                     std::string &What) {
  SmallVector<std::string, 4> Parts;
  Value *Ok = B.CreateICmpEQ(
      emitOpenCLCall(B, "_Z18get_sub_group_sizev", B.getInt32Ty(), {}),
      B.getInt32(SG));
  Parts.push_back("the subgroup has 16 work-items");
  uint64_t Width = S.width();
  Ok = B.CreateAnd(Ok, B.CreateICmpSGE(Pitch, B.getInt64(Width)));
  Ok = B.CreateAnd(Ok, B.CreateICmpSLE(Pitch, B.getInt64(1 << 24)));
  Ok = B.CreateAnd(
      Ok, B.CreateICmpEQ(B.CreateAnd(Pitch, B.getInt64(15)), B.getInt64(0)));
  Parts.push_back(formatv(
      "the row pitch is a multiple of 16 bytes from {0} to 2^24", Width));
  // What moving the tile's address down to 64 bytes (AlignmentGuards)
  // needs, checked here so that the 2D path is taken only where the moved
  // load is, and the original loads run otherwise.
  Value *Off =
      B.CreateAnd(B.CreatePtrToInt(Row0, B.getInt64Ty()), B.getInt64(63));
  Ok = B.CreateAnd(
      Ok, B.CreateICmpEQ(B.CreateAnd(Off, B.getInt64(3)), B.getInt64(0)));
  Ok = B.CreateAnd(Ok,
                   B.CreateICmpSLE(B.CreateAdd(Off, B.getInt64(Width)), Pitch));
  Parts.push_back("the tile's address is a multiple of 4 bytes and its "
                  "row, moved down to 64 bytes, fits in the pitch");
  if (Value *NoWrap = noWrap(B, R0, S, U0, StrideIdx)) {
    Ok = B.CreateAnd(Ok, NoWrap);
    Parts.push_back("no row's 32-bit index wraps");
  }
  if (R0.L.K == LaneKind::GlobalId0) {
    Value *GOff = emitOpenCLCall(B, "_Z17get_global_offsetj", B.getInt64Ty(),
                                 {B.getInt32(0)});
    Ok = B.CreateAnd(
        Ok, B.CreateICmpEQ(B.CreateAnd(GOff, B.getInt64(15)), B.getInt64(0)));
    Parts.push_back("the global offset is a multiple of 16");
  }
  What = join(Parts, ", ");
  return Ok;
}

/// Where a widened index is (R0.Cast), the check that the widened index
/// is U's plus c * lane: no row's U + c * lane wraps in 32 bits (all of
/// them lie between U0 and U0 + (H-1) * stride (+ c * (16 C - 1))); else
/// nullptr.
Value *Former::noWrap(IRBuilder<> &B, const RowLoad &R0, const Shape &S,
                      Value *U0, Value *StrideIdx) {
  if (!R0.Cast)
    return nullptr;
  bool Signed = R0.Cast == Instruction::SExt;
  auto Wide = [&](Value *V) {
    return Signed ? B.CreateSExt(V, B.getInt64Ty())
                  : B.CreateZExt(V, B.getInt64Ty());
  };
  Value *Lo = Wide(U0);
  Value *Span = B.CreateMul(B.CreateSExt(StrideIdx, B.getInt64Ty()),
                            B.getInt64(S.Rows - 1));
  Value *A = B.CreateAdd(Lo, Span);
  Value *Min = B.CreateSelect(B.CreateICmpSLT(A, Lo), A, Lo);
  Value *Max = B.CreateAdd(B.CreateSelect(B.CreateICmpSLT(A, Lo), Lo, A),
                           B.getInt64(S.Coef * (S.C * SG - 1)));
  int64_t MinV = Signed ? INT32_MIN : 0;
  int64_t MaxV = Signed ? INT32_MAX : UINT32_MAX;
  return B.CreateAnd(B.CreateICmpSGE(Min, B.getInt64(MinV)),
                     B.CreateICmpSLE(Max, B.getInt64(MaxV)));
}

/// The tile's address and pitch (bytes) from row 0's uniform index \p U0V
/// and the stride \p StrideV, built by \p B (the guard left null).
Former::Tile Former::tileAddress(IRBuilder<> &B, const RowLoad &R0, Value *U0V,
                                 Value *StrideV) {
  Tile T;
  Value *Idx = !R0.Cast ? B.CreateSExtOrTrunc(U0V, B.getInt64Ty())
               : R0.Cast == Instruction::SExt
                   ? B.CreateSExt(U0V, B.getInt64Ty())
                   : B.CreateZExt(U0V, B.getInt64Ty());
  T.Row0 = B.CreateGEP(R0.Elem, R0.Base, Idx, "crosslane.tile");
  T.Pitch =
      B.CreateMul(B.CreateSExt(StrideV, B.getInt64Ty()),
                  B.getInt64(DL.getTypeStoreSize(R0.Elem)), "crosslane.pitch");
  return T;
}

/// The tile's address and pitch, and the guard (\p T.What says what it
/// checks), built by \p B.
Former::Tile Former::tile(IRBuilder<> &B, const RowLoad &R0, const Shape &S,
                          Value *U0V, Value *StrideV) {
  Tile T = tileAddress(B, R0, U0V, StrideV);
  T.Ok = guard(B, R0, S, U0V, StrideV, T.Row0, T.Pitch, T.What);
  return T;
}

/// A new private fragment for a tile of shape \p S.
AllocaInst *Former::fragment(const Shape &S) {
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Frag = EB.CreateAlloca(
      ArrayType::get(EB.getIntNTy(S.Es * 8), S.Rows * S.N * S.C), nullptr,
      "crosslane.frag");
  Frag->setAlignment(Align(4));
  return Frag;
}

/// The shape of one operation on a tile of shape \p S: a store takes one
/// block, and a tile of blocks side by side is stored block by block.
static Shape perOperation(BlockOp Op, Shape S) {
  if (Op == BlockOp::Store)
    S.C = 1;
  return S;
}

/// The rows of \p S as pieces (first row, rows) \p Op takes on the chip:
/// powers of two, largest first; none if a row alone is not a shape.
SmallVector<std::pair<unsigned, unsigned>, 4>
Former::rowPieces(BlockOp Op, const Shape &S) const {
  Shape One = perOperation(Op, S);
  SmallVector<std::pair<unsigned, unsigned>, 4> Pieces;
  for (unsigned A = 0; A < S.Rows;) {
    unsigned H = llvm::bit_floor(S.Rows - A);
    while (H && !checkShape(Chip, Op, One.block(H), SG).empty())
      H /= 2;
    if (!H)
      return {};
    Pieces.push_back({A, H});
    A += H;
  }
  // A fragment holds a tile of blocks block by block: a load of several
  // blocks is one piece only.
  if (One.C > 1 && Pieces.size() > 1)
    return {};
  return Pieces;
}

/// The 2D operations of \p Op on tile \p T with fragment \p Frag, by \p TB:
/// one per piece of rows (and, for a store, per block), each at (its
/// block's first element, its first row) of the tile's surface (the same
/// base, so the guard's alignment checks hold for all). Returns the first.
CallInst *Former::blockCalls(IRBuilder<> &TB, BlockOp Op, const Shape &S,
                             const Tile &T, AllocaInst *Frag, DebugLoc Loc) {
  Type *I32 = TB.getInt32Ty();
  uint64_t Width = S.width();
  Shape One = perOperation(Op, S);
  CallInst *First = nullptr;
  for (unsigned K = 0; K < S.C / One.C; ++K)
    for (auto [A, H] : rowPieces(Op, S)) {
      Value *At = TB.CreateConstInBoundsGEP1_64(
          TB.getInt8Ty(), Frag, uint64_t(K * S.Rows + A) * S.Bytes());
      CallInst *Call = emitOpenCLCall(
          TB, blockName(Op, One, H), TB.getVoidTy(),
          {T.Row0, TB.getInt32(Width), TB.getInt32(S.Rows),
           TB.CreateTrunc(T.Pitch, I32),
           ConstantVector::get({TB.getInt32(K * One.W()), TB.getInt32(A)}), At},
          /*Convergent=*/true);
      Call->setDebugLoc(Loc);
      Call->setMetadata(AlignmentCheckedMD, MDNode::get(F.getContext(), {}));
      Guards.push_back({Call, T.Ok});
      First = First ? First : Call;
    }
  return First;
}

/// The 2D read of \p T into a new private fragment, at \p Then.
CallInst *Former::read(Instruction *Then, const Shape &S, const Tile &T,
                       DebugLoc Loc, AllocaInst *&Frag) {
  Frag = fragment(S);
  IRBuilder<> TB(Then);
  return blockCalls(TB, BlockOp::Load, S, T, Frag, Loc);
}

/// "2D block load 32b_8r16x1c", or for pieces of rows "2D block loads
/// 32b_8r16x1c + 32b_4r16x1c".
/// A tile of blocks stored block by block: "2D block stores 32b_8r16x1c
/// (one per block of 2 side by side)".
std::string Former::formedShapes(BlockOp Op, const Shape &S) const {
  auto Pieces = rowPieces(Op, S);
  Shape PerOp = perOperation(Op, S);
  auto One = [&](unsigned H) { return describeBlock(Op, PerOp.block(H)); };
  std::string Text = One(Pieces[0].second);
  if (Pieces.size() > 1 || PerOp.C != S.C)
    Text.insert(Text.find(' ', strlen("2D block ")), "s");
  for (auto [A, H] : drop_begin(Pieces))
    Text += " + " + One(H).substr(One(H).rfind(' ') + 1);
  if (PerOp.C != S.C)
    Text += " (one per block of " + std::to_string(S.C) + " side by side)";
  return Text;
}

void Former::remarkFormed(CallInst *Call, const Shape &S, unsigned Loads,
                          const Twine &From, StringRef What, bool Store) {
  (Store ? NumFormedStores : NumFormed) += 1;
  (Store ? NumRowStores : NumRowLoads) += Loads;
  ORE.emit([&] {
    return OptimizationRemark(DEBUG_TYPE, "Formed", userDebugLoc(Call),
                              Call->getParent())
           << "formed "
           << formedShapes(Store ? BlockOp::Store : BlockOp::Load, S) << " on "
           << Chip.Name << " from " << From.str() << "; taken when " << What
           << ", the original " << (Store ? "stores" : "loads") << " otherwise";
  });
}

CallInst *Former::form(Plan &P) {
  SmallVectorImpl<RowLoad> &G = P.Rows;
  const Shape &S = P.S;
  Instruction *At = P.First;
  IRBuilder<> B(At);
  Tile T = tile(B, G[0], S, P.U0V, P.StrideV);
  for (const Beside &Bs : P.Besides)
    besideGuard(B, T, S, Bs.R0, Bs.S, Bs.U0V, Bs.StrideV, Bs.Col);
  // The 2D path; the original loads, moved up to the first one, on the
  // other (nothing writes memory between them).
  Instruction *Then = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(T.Ok, At, &Then, &Else);
  BasicBlock *Merge = At->getParent();
  DenseMap<Value *, Value *> Done;
  AllocaInst *Frag = nullptr;
  CallInst *Call = read(Then, S, T, At->getDebugLoc(), Frag);
  IRBuilder<> TB(Then);
  for (RowLoad &R : G) {
    Type *Ty = R.LI->getType();
    Value *Ptr = TB.CreateConstGEP1_64(
        TB.getInt8Ty(), Frag, uint64_t(R.Col * S.Rows + R.Row) * S.Bytes());
    Value *FromBlock = TB.CreateAlignedLoad(Ty, Ptr, Align(S.Es));
    // The original load, its address computed here.
    auto *Clone = cast<LoadInst>(R.LI->clone());
    Clone->insertBefore(Else->getIterator());
    Clone->setOperand(
        0, materialise(R.LI->getPointerOperand(), Clone, Merge, Done));
    PHINode *Phi = PHINode::Create(Ty, 2, R.LI->getName() + ".row");
    Phi->insertBefore(Merge->begin());
    Phi->addIncoming(FromBlock, Then->getParent());
    Phi->addIncoming(Clone, Else->getParent());
    R.LI->replaceAllUsesWith(Phi);
  }
  for (RowLoad &R : G) {
    Value *Ptr = R.LI->getPointerOperand();
    R.LI->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Ptr);
  }
  remarkFormed(Call, S, G.size(), Twine(G.size()) + " per-lane loads of rows",
               T.What);
  return Call;
}

/// The store plans of \p BB: its per-lane stores (but the loops' \p
/// Taken) grouped as loads are.
/// Each is checked as plan() checks loads: the rows of one tile, lane L
/// writing element L, and nothing between the first and the last that
/// touches memory (the 2D store then runs where the last one did); tiles
/// with other stores between theirs may be blocks of one tile addressed
/// two ways (mergeBeside).
void Former::collectStorePlans(BasicBlock &BB, bool ReqdSG16,
                               const SmallPtrSetImpl<Instruction *> &Taken,
                               SmallVectorImpl<Plan> &Plans) {
  SmallVector<Plan, 4> Blocked;
  for (auto &[Key, G] : groupRows(BB, /*Loads=*/false, Taken, SE)) {
    if (G.size() < 2)
      continue;
    for (SmallVector<RowLoad, 8> &Part : columnsApart(G)) {
      Plan P;
      if (!tiles(Part, ReqdSG16, P))
        continue;
      P.Rows.assign(Part.begin(), Part.end());
      P.Order = storesInOrder(Part);
      Instruction *First = nullptr, *Last = nullptr;
      if (!onlyArithmeticBetween(Part, First, Last)) {
        Blocked.push_back(std::move(P));
        continue;
      }
      P.First = Last;
      Plans.push_back(std::move(P));
    }
  }
  mergeBeside(Blocked, Plans);
}

/// Moves the stores of \p P to where the last one is (nothing between them
/// touches memory), behind the guard: the 2D store of the values gathered
/// in a fragment on one path, the original stores, in their order, on the
/// other.
CallInst *Former::formStores(Plan &P) {
  const Shape &S = P.S;
  ArrayRef<StoreInst *> Order = P.Order;
  Instruction *Last = Order.back();
  for (StoreInst *St : Order)
    if (St != Last)
      St->moveBefore(Last->getIterator());
  IRBuilder<> B(Order.front());
  Tile T = tile(B, P.Rows[0], S, P.U0V, P.StrideV);
  for (const Beside &Bs : P.Besides)
    besideGuard(B, T, S, Bs.R0, Bs.S, Bs.U0V, Bs.StrideV, Bs.Col);
  Instruction *Then = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(T.Ok, Order.front(), &Then, &Else);
  for (StoreInst *St : Order)
    St->moveBefore(Else->getIterator());
  AllocaInst *Frag = fragment(S);
  IRBuilder<> TB(Then);
  for (const RowLoad &R : P.Rows)
    TB.CreateAlignedStore(
        R.SI->getValueOperand(),
        TB.CreateConstGEP1_64(TB.getInt8Ty(), Frag,
                              uint64_t(R.Col * S.Rows + R.Row) * S.Bytes()),
        Align(S.Es));
  CallInst *Call =
      blockCalls(TB, BlockOp::Store, S, T, Frag, Order.front()->getDebugLoc());
  remarkFormed(Call, S, Order.size(),
               Twine(Order.size()) + " per-lane stores of rows", T.What,
               /*Store=*/true);
  return Call;
}

/// The rule the formed load would break whatever the run time brings: its
/// shape on the chip, or a pitch known here that is out of range (the
/// validator would reject the call, not just the guard).
std::string Former::rules(const RowLoad &R0, const Shape &S,
                          const SCEV *Stride) {
  BlockOp Op = R0.LI ? BlockOp::Load : BlockOp::Store;
  // Rows the chip does not take at once (12: 8 + 4) are several pieces;
  // a tile of blocks is one operation.
  if (rowPieces(Op, S).empty()) {
    if (perOperation(Op, S).C == 1)
      return checkShape(Chip, Op, perOperation(Op, S).block(1), SG);
    std::string Why = checkShape(Chip, Op, S.block(S.Rows), SG);
    return Why.empty() ? "a tile of blocks side by side must be one "
                         "operation, and its height is not one"
                       : Why;
  }
  const auto *C = dyn_cast<SCEVConstant>(Stride);
  if (!C)
    return "";
  int64_t Pitch =
      C->getAPInt().getSExtValue() * int64_t(DL.getTypeStoreSize(R0.Elem));
  int64_t Width = S.width();
  if (Pitch < Width || Pitch > (1 << 24) || Pitch % 16)
    return formatv("the rows are {0} bytes apart; a 2D {1}'s pitch must be "
                   "a multiple of 16 bytes from {2} to 2^24",
                   Pitch, R0.LI ? "load" : "store", Width);
  return "";
}

/// Why the kernel or the lane's index rules out a 2D load (empty: nothing).
std::string Former::kernelRule(const RowLoad &R, bool ReqdSG16) const {
  if (!ReqdSG16)
    return "the kernel does not require subgroups of 16 "
           "(intel_reqd_sub_group_size(16))";
  if (R.L.K != LaneKind::SubgroupLocalId && !WorkGroupXMultiple)
    return HasWorkGroupSize
               ? "the lane's index is get_local_id(0) or get_global_id(0) "
                 "and the kernel's reqd_work_group_size x is not a multiple "
                 "of 16"
               : "the lane's index is get_local_id(0) or get_global_id(0) "
                 "and the kernel has no reqd_work_group_size (its x must be "
                 "a multiple of 16 for the lane to be the id mod 16)";
  return "";
}

/// Why the tile whose row 0 is \p Start's, with \p Stride between rows,
/// cannot be one 2D load (empty: it can, and \p U0 is row 0's uniform
/// index): lane L must read element L, base and stride must be uniform,
/// and the shape and a known pitch must keep the 2D rules.
std::string Former::tileRule(const RowLoad &Start, const Shape &S,
                             const SCEV *Stride, const SCEV *&U0) {
  if (!(U0 = uniformPart(Start, S)))
    return ("lane L does not read element L of the row (" + Twine(S.N) +
            " per lane)")
        .str();
  // Scalar evolution may write the lane's part taken out of a truncated
  // and sign-extended index in odd widths (i34), which SPIR-V lacks.
  auto Odd = [](const SCEV *X) {
    unsigned Bits = X->getType()->getScalarSizeInBits();
    return X->getType()->isIntegerTy() && Bits != 8 && Bits != 16 &&
           Bits != 32 && Bits != 64;
  };
  if (SCEVExprContains(U0, Odd) || SCEVExprContains(Stride, Odd))
    return "row 0's index, with the lane taken out, needs integer widths "
           "SPIR-V does not have";
  const SCEV *LaneS = SE.getSCEV(Start.L.V);
  if (U.of(Start.Base) != Lanes::Uniform || !uniformLeaves(U0, Start.L) ||
      !uniformLeaves(Stride, Start.L) ||
      SCEVExprContains(Stride, [&](const SCEV *X) { return X == LaneS; }))
    return "the base or the stride is not uniform";
  return rules(Start, S, Stride);
}

/// Checks \p G (loads of one base, element type and lane query in one
/// block) and, if it can be formed, expands its uniform values.
/// What loads and stores need alike: the kernel, uniform control flow, the
/// rows of one evenly spaced tile, lane L taking element L. Fills \p P's
/// shape, stride and row 0's index; false, with a missed remark if \p G
/// tiles rows at all, if not.
bool Former::tiles(SmallVectorImpl<RowLoad> &G, bool ReqdSG16, Plan &P) {
  if (!shapeOf(G, P.S))
    return false; // not a tile row per lane: nothing to say
  const RowLoad &R0 = G[0];
  unsigned Count = G.size();
  if (std::string Why = kernelRule(R0, ReqdSG16); !Why.empty())
    return missed(R0, Count, Why), false;
  if (U.control(R0.inst()->getParent()) != Lanes::Uniform)
    return missed(R0, Count, "they are not in uniform control flow"), false;
  if (!(P.Stride = orderRows(G)) && !((P.Stride = orderColumns(G, P.S)) &&
                                      (R0.SI || P.S.C == 2 || P.S.C == 4)))
    return missed(R0, Count,
                  "the rows are not evenly spaced by a stride known here"),
           false;
  P.S.Rows = G.size() / P.S.C;
  if (std::string Why = tileRule(G[0], P.S, P.Stride, P.U0); !Why.empty())
    return missed(R0, Count, Why), false;
  return true;
}

std::optional<Plan> Former::plan(SmallVectorImpl<RowLoad> &G, bool ReqdSG16) {
  Plan P;
  if (!tiles(G, ReqdSG16, P))
    return std::nullopt;
  const RowLoad &R0 = G[0];
  unsigned Count = G.size();
  if (!noWritesBetween(G))
    return missed(R0, Count, "something between them may write memory"),
           std::nullopt;
  P.First = firstOf(G);
  for (const RowLoad &R : G)
    if (!recomputable(R.LI->getPointerOperand(), P.First))
      return missed(R0, Count,
                    "an address is computed from a load or a call "
                    "between them"),
             std::nullopt;
  P.Rows.assign(G.begin(), G.end());
  return P;
}

/// The first and the last of \p G (stores of one block) in \p First and
/// \p Last; true if nothing between them but \p G touches memory or has
/// another effect, so the stores may all run where the last one does.
bool Former::onlyArithmeticBetween(ArrayRef<RowLoad> G, Instruction *&First,
                                   Instruction *&Last) const {
  SmallPtrSet<const Instruction *, 8> Rows;
  First = Last = G[0].inst();
  for (const RowLoad &R : G) {
    Rows.insert(R.inst());
    if (R.inst()->comesBefore(First))
      First = R.inst();
    if (Last->comesBefore(R.inst()))
      Last = R.inst();
  }
  for (Instruction *I = First; I != Last; I = I->getNextNode())
    if (!Rows.count(I) &&
        (I->mayReadOrWriteMemory() || I->mayHaveSideEffects()) &&
        !apart(*I, G[0]))
      return false;
  return true;
}

SmallVector<CallInst *, 4> Former::run() {
  SmallVector<CallInst *, 4> Calls;
  if (F.getCallingConv() != CallingConv::SPIR_KERNEL)
    return Calls;
  auto MDInt = [&](StringRef Kind, unsigned Op) -> std::optional<uint64_t> {
    MDNode *MD = F.getMetadata(Kind);
    if (!MD || MD->getNumOperands() <= Op)
      return std::nullopt;
    if (auto *C = mdconst::dyn_extract<ConstantInt>(MD->getOperand(Op)))
      return C->getZExtValue();
    return std::nullopt;
  };
  bool ReqdSG16 = MDInt("intel_reqd_sub_group_size", 0) == 16;
  std::optional<uint64_t> WGX = MDInt("reqd_work_group_size", 0);
  WorkGroupXMultiple = WGX && *WGX % SG == 0;
  HasWorkGroupSize = WGX.has_value();
  // Analysis and expansion first, for every block: the rewrites split
  // blocks, which scalar evolution must not see half done.
  SmallVector<LoopPlan, 4> LoopPlans;
  SmallPtrSet<Instruction *, 8> InLoopPlans;
  for (Loop *L : LI.getLoopsInPreorder())
    for (BasicBlock *BB : L->blocks())
      if (LI.getLoopFor(BB) == L)
        for (Instruction &I : *BB)
          if (isa<LoadInst, StoreInst>(I))
            if (std::optional<LoopPlan> P = planLoop(L, &I, ReqdSG16)) {
              InLoopPlans.insert(&I);
              LoopPlans.push_back(std::move(*P));
            }
  mergeLoopColumns(LoopPlans);
  dropLoneBlocks(LoopPlans, InLoopPlans);
  SmallVector<Plan, 4> Plans, StorePlans;
  for (BasicBlock &BB : F) {
    size_t Start = Plans.size();
    SmallVector<Plan, 4> Loads;
    for (auto &[Key, G] : groupRows(BB, /*Loads=*/true, InLoopPlans, SE))
      if (G.size() >= 2)
        for (SmallVector<RowLoad, 8> &Part : columnsApart(G))
          if (std::optional<Plan> P = plan(Part, ReqdSG16))
            Loads.push_back(std::move(*P));
    // Blocks side by side addressed two ways: one load where it can be.
    mergeBeside(Loads, Plans);
    size_t StoreStart = StorePlans.size();
    collectStorePlans(BB, ReqdSG16, InLoopPlans, StorePlans);
    // In the block's order: forming one splits the block at its first load
    // (last store), and the ones after it must then lie in the tail.
    auto InOrder = [](const Plan &A, const Plan &B) {
      return A.First->comesBefore(B.First);
    };
    std::stable_sort(Plans.begin() + Start, Plans.end(), InOrder);
    std::stable_sort(StorePlans.begin() + StoreStart, StorePlans.end(),
                     InOrder);
  }
  SCEVExpander Exp(SE, "crosslane.row");
  for (Plan &P : concat<Plan>(Plans, StorePlans)) {
    Type *IdxTy = P.Rows[0].CoreS->getType();
    P.U0V = Exp.expandCodeFor(P.U0, IdxTy, P.First->getIterator());
    P.StrideV = Exp.expandCodeFor(P.Stride, IdxTy, P.First->getIterator());
    for (Beside &Bs : P.Besides) {
      Type *Ty = Bs.R0.CoreS->getType();
      Bs.U0V = Exp.expandCodeFor(Bs.U0, Ty, P.First->getIterator());
      Bs.StrideV = Exp.expandCodeFor(Bs.Stride, Ty, P.First->getIterator());
    }
  }
  auto ExpandLoop = [&](LoopPlan &P) {
    Type *IdxTy = P.R.CoreS->getType();
    Instruction *Pre = P.PreTerm;
    P.U0V = Exp.expandCodeFor(P.U0, IdxTy, Pre->getIterator());
    P.StrideV = Exp.expandCodeFor(P.Stride, IdxTy, Pre->getIterator());
    Type *I64 = Type::getInt64Ty(F.getContext());
    P.Iter = Exp.expandCodeFor(
        SE.getAddRecExpr(SE.getZero(I64), SE.getOne(I64), P.L, SCEV::FlagNUW),
        I64, P.R.inst()->getIterator());
  };
  for (LoopPlan &P : LoopPlans) {
    ExpandLoop(P);
    for (LoopPlan &Col : P.Columns)
      ExpandLoop(Col);
  }
  for (Plan &P : Plans)
    Calls.push_back(form(P));
  for (Plan &P : StorePlans)
    Calls.push_back(formStores(P));
  for (LoopPlan &P : LoopPlans)
    Calls.push_back(formLoop(P));
  return Calls;
}

/// The safety net: crosslane-xe-block-io rejects a 2D call whose control
/// flow or operands its uniformity analysis does not find uniform. Each
/// formed call is checked the same way on the rewritten function; one that
/// fails is undone (its guard made false, the call removed), with a remark.
void Former::check(const PostDominatorTree &PDT) {
  if (Guards.empty())
    return;
  XeUniformity After(F, PDT);
  for (auto [Call, Ok] : Guards) {
    bool Uniform = After.control(Call->getParent()) == Lanes::Uniform;
    for (unsigned K = 0; K < 4; ++K)
      Uniform &= After.of(Call->getArgOperand(K)) == Lanes::Uniform;
    if (Uniform)
      continue;
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "Undone", Call)
             << "a formed 2D block load is undone: its operands are not "
                "proven uniform once formed";
    });
    Ok->replaceAllUsesWith(ConstantInt::getFalse(F.getContext()));
    Call->eraseFromParent();
  }
}
} // namespace form
} // namespace xe

using namespace xe::form;

PreservedAnalyses XeFormBlocksPass::run(Function &F,
                                        FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !Triple(F.getParent()->getTargetTriple()).isSPIRV())
    return PreservedAnalyses::all();
  StringRef ChipName = Opts.Chip.empty() ? defaultXeChip() : Opts.Chip;
  const XeChip *Chip = lookupXeChip(ChipName);
  if (!Chip || !Chip->Has2DBlock)
    return PreservedAnalyses::all();
  bool Unified = unifyLaneQueries(F);
  Unified |= expandMul24(F);
  if (Unified) {
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    FAM.invalidate(F, PA);
  }
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  XeUniformity U(F, PDT);
  auto &AA = FAM.getResult<AAManager>(F);
  Former Form(F, *Chip, SE, DT, LI, U, AA, ORE);
  if (Form.run().empty()) {
    if (!Unified)
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }
  PostDominatorTree After(F);
  Form.check(After);
  return PreservedAnalyses::none();
}

void XeFormBlocksPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << MapClassName2PassName(name());
  if (!Opts.Chip.empty())
    OS << "<chip=" << Opts.Chip << ">";
}

Expected<XeFormBlocksOptions> parseXeFormBlocksOptions(StringRef Params) {
  XeFormBlocksOptions Opts;
  if (Params.empty())
    return Opts;
  if (Params.consume_front("chip=") && lookupXeChip(Params)) {
    Opts.Chip = Params.str();
    return Opts;
  }
  return make_error<StringError>(
      formatv("invalid crosslane-xe-form-blocks parameter '{0}' (expected "
              "chip=NAME with NAME one of {1})",
              Params, xeChipNames())
          .str(),
      inconvertibleErrorCode());
}

} // namespace crosslane
