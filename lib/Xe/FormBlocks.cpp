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

#include "BlockCalls.h"
#include "XeUniformity.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/OpenCLBuiltins.h"
#include "crosslane/Support/SourceLocation.h"
#include "crosslane/Xe/XeFormBlocks.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
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
namespace {

constexpr unsigned SG = 16;

enum class LaneKind { SubgroupLocalId, LocalId0, GlobalId0 };

/// A work-item query whose value is the lane (plus a uniform multiple of
/// 16).
struct Lane {
  Value *V = nullptr;
  LaneKind K = LaneKind::SubgroupLocalId;
};

std::optional<Lane> laneQuery(Value *V) {
  auto *CI = dyn_cast<CallInst>(V);
  Function *F = CI ? CI->getCalledFunction() : nullptr;
  if (!F)
    return std::nullopt;
  StringRef Base = demangledBase(F->getName());
  if (Base == "get_sub_group_local_id" && CI->arg_size() == 0)
    return Lane{V, LaneKind::SubgroupLocalId};
  auto *Dim = CI->arg_size() == 1 ? dyn_cast<ConstantInt>(CI->getArgOperand(0))
                                  : nullptr;
  if (!Dim || !Dim->isZero())
    return std::nullopt;
  if (Base == "get_local_id")
    return Lane{V, LaneKind::LocalId0};
  if (Base == "get_global_id")
    return Lane{V, LaneKind::GlobalId0};
  return std::nullopt;
}

/// Makes all lane queries of a kind (get_sub_group_local_id(),
/// get_local_id(0), get_global_id(0)) one call at the function's entry: a
/// work-item's ids do not change while it runs, and clang does not merge
/// the calls (a row's `A[(Y + R) * P + get_sub_group_local_id()]` calls it
/// once per row, also inside a loop, where scalar evolution would not see
/// it as the same in every iteration). Returns whether it changed \p F.
bool unifyLaneQueries(Function &F) {
  SmallVector<CallInst *, 16> Queries;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (laneQuery(&I))
        Queries.push_back(cast<CallInst>(&I));
  BasicBlock &Entry = F.getEntryBlock();
  DenseMap<Function *, CallInst *> First;
  bool Changed = false;
  for (CallInst *Q : Queries) {
    auto [It, New] = First.try_emplace(Q->getCalledFunction(), Q);
    if (New) {
      // Its operand is a constant: it can run first.
      if (Q != &*Entry.getFirstInsertionPt()) {
        Q->moveBefore(Entry.getFirstInsertionPt());
        Changed = true;
      }
      continue;
    }
    Q->replaceAllUsesWith(It->second);
    Q->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

/// The one lane query \p V is computed from (nullptr: none or several).
Value *findLane(Value *V, unsigned Depth, Value *&Found, bool &Several) {
  if (auto L = laneQuery(V)) {
    Several |= Found && Found != V;
    Found = V;
    return Found;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 12 || isa<PHINode, LoadInst, CallBase>(I))
    return Found;
  for (Value *Op : I->operands())
    findLane(Op, Depth + 1, Found, Several);
  return Found;
}

/// A per-lane load, its address Base + Cast(Core) * sizeof(Elem): a GEP
/// that widens a 32-bit index (Cast, Core), or otherwise the address as
/// scalar evolution sees it (Elem i8, Core the byte offset, no cast).
struct RowLoad {
  LoadInst *LI = nullptr;
  StoreInst *SI = nullptr; ///< a row store instead (LI null)
  Value *Base = nullptr;
  Type *Elem = nullptr;
  unsigned Cast = 0; ///< Instruction::SExt, ZExt or 0
  Lane L;
  const SCEV *CoreS = nullptr;
  unsigned Row = 0;
  unsigned Col = 0; ///< the block, in a tile of blocks side by side
  Instruction *inst() const { return LI ? static_cast<Instruction *>(LI) : SI; }
  Type *valueType() const {
    return LI ? LI->getType() : SI->getValueOperand()->getType();
  }
  /// Accesses of one tile share this: base, element, index widening and
  /// type, value type and lane query.
  using Key = std::tuple<Value *, Type *, unsigned, Type *, Type *, Value *>;
  Key key() const {
    return {Base, Elem, Cast, CoreS->getType(), valueType(), L.V};
  }
};

/// The one lane query among the values \p S is computed from.
std::optional<Lane> laneIn(const SCEV *S) {
  std::optional<Lane> Found;
  bool Several = false;
  SCEVExprContains(S, [&](const SCEV *X) {
    if (const auto *U = dyn_cast<SCEVUnknown>(X))
      if (std::optional<Lane> L = laneQuery(U->getValue())) {
        Several |= Found && Found->V != L->V;
        Found = L;
      }
    return false;
  });
  return Several ? std::nullopt : Found;
}

/// A per-lane load or store (\p I) of global memory at \p Ptr; with \p
/// Bytes, as a byte offset from the pointer's base alone (a pointer bumped
/// by a loop: its base is the pointer it starts from).
std::optional<RowLoad> rowAccess(Instruction *I, Value *Ptr,
                                 ScalarEvolution &SE, bool Bytes = false) {
  if (Ptr->getType()->getPointerAddressSpace() != 1)
    return std::nullopt;
  RowLoad R;
  R.LI = dyn_cast<LoadInst>(I);
  R.SI = dyn_cast<StoreInst>(I);
  auto *GEP = dyn_cast<GetElementPtrInst>(Ptr);
  // `gep (gep T, base, ext(i)), K bytes`, K a multiple of T's size, as
  // InstCombine writes a tile's columns after the first: index i + K /
  // size(T) of base (the same address where that sum does not wrap, which
  // the guard checks for every index of the tile).
  int64_t Extra = 0;
  if (Bytes)
    GEP = nullptr;
  if (auto *K = GEP && GEP->getNumIndices() == 1
                    ? dyn_cast<ConstantInt>(GEP->getOperand(1))
                    : nullptr) {
    auto *Inner = dyn_cast<GetElementPtrInst>(GEP->getPointerOperand());
    const DataLayout &DL = I->getDataLayout();
    int64_t Offset = K->getSExtValue() *
                     int64_t(DL.getTypeAllocSize(GEP->getSourceElementType()));
    int64_t Size = Inner && Inner->getNumIndices() == 1
                       ? DL.getTypeAllocSize(Inner->getSourceElementType())
                       : 0;
    if (Size && Offset % Size == 0) {
      Extra = Offset / Size;
      GEP = Inner;
    }
  }
  auto *Widen = GEP && GEP->getNumIndices() == 1
                    ? dyn_cast<CastInst>(GEP->getOperand(1))
                    : nullptr;
  if (Widen && (isa<SExtInst>(Widen) || isa<ZExtInst>(Widen)) &&
      Widen->getSrcTy()->isIntegerTy(32)) {
    Value *Found = nullptr;
    bool Several = false;
    findLane(Widen->getOperand(0), 0, Found, Several);
    if (Found && !Several) {
      R.Base = GEP->getPointerOperand();
      R.Elem = GEP->getSourceElementType();
      R.Cast = Widen->getOpcode();
      R.L = *laneQuery(Found);
      const SCEV *Idx = SE.getSCEV(Widen->getOperand(0));
      R.CoreS = SE.getAddExpr(Idx, SE.getConstant(Idx->getType(), Extra,
                                                  /*isSigned=*/true));
      return R;
    }
  }
  const SCEV *PS = SE.getSCEV(Ptr);
  const auto *BaseS = dyn_cast<SCEVUnknown>(SE.getPointerBase(PS));
  if (!BaseS)
    return std::nullopt;
  R.Base = BaseS->getValue();
  R.Elem = Type::getInt8Ty(I->getContext());
  R.CoreS = SE.getMinusSCEV(PS, BaseS);
  std::optional<Lane> L = laneIn(R.CoreS);
  if (!L || isa<SCEVCouldNotCompute>(R.CoreS))
    return std::nullopt;
  R.L = *L;
  return R;
}

std::optional<RowLoad> rowLoad(LoadInst *LI, ScalarEvolution &SE,
                               bool Bytes = false) {
  if (!LI->isSimple())
    return std::nullopt;
  return rowAccess(LI, LI->getPointerOperand(), SE, Bytes);
}

std::optional<RowLoad> rowStore(StoreInst *SI, ScalarEvolution &SE,
                                bool Bytes = false) {
  if (!SI->isSimple())
    return std::nullopt;
  return rowAccess(SI, SI->getPointerOperand(), SE, Bytes);
}

/// The shape of the load a group forms.
struct Shape {
  unsigned Es = 0;   ///< element bytes
  unsigned N = 1;    ///< elements per lane per row
  unsigned Rows = 0; ///< H
  unsigned C = 1;    ///< blocks side by side
  uint64_t Coef = 0; ///< index units per lane (c)
  unsigned Bytes() const { return Es * N; }
  unsigned W() const { return SG * N; }
  /// The surface width the operation is given: at least 64 bytes.
  uint64_t width() const {
    return std::max<uint64_t>(64, uint64_t(C) * SG * Bytes());
  }
  BlockShape block(unsigned H) const { return BlockShape{Es, W(), H, C}; }
};

/// True if \p V can be recomputed before \p At's block's end from values
/// available there: instructions of \p At's block after \p At must be
/// pure arithmetic (or work-item queries) over such values.
bool recomputable(Value *V, const Instruction *At, unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getParent() != At->getParent() || I->comesBefore(At))
    return true;
  if (Depth > 16 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      I->mayHaveSideEffects())
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return recomputable(Op, At, Depth + 1); });
}

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

/// A group to form: its rows in order, shape, and the uniform values of
/// row 0's index and of the stride (expanded before any block is split).
struct Plan {
  SmallVector<RowLoad, 8> Rows;
  Shape S;
  const SCEV *U0 = nullptr, *Stride = nullptr;
  Value *U0V = nullptr, *StrideV = nullptr;
  Instruction *First = nullptr; ///< where the uniform values go
};

/// A per-lane load (or store) run once per iteration of a loop of Rows
/// iterations that reads (writes) row k of a tile in iteration k.
struct LoopPlan {
  RowLoad R;
  Loop *L = nullptr;
  /// A store's: the block the loop leaves to, from its latch only (a block
  /// of its own on that edge once formed).
  BasicBlock *Exit = nullptr;
  /// Loads of the loop reading the tile's blocks 1, 2, ... side by side
  /// with this one's (S.C blocks in all), read by one 2D load.
  std::vector<LoopPlan> Columns;
  /// The preheader's branch to the loop (it stays that when the preheader
  /// is split, which LoopInfo is not told of).
  Instruction *PreTerm = nullptr;
  Shape S;
  const SCEV *U0 = nullptr, *Stride = nullptr;
  Value *U0V = nullptr, *StrideV = nullptr, *Iter = nullptr;
};

/// Emits remarks for one function.
class Former {
public:
  Former(Function &F, const XeChip &Chip, ScalarEvolution &SE,
         const DominatorTree &DT, LoopInfo &LI, const XeUniformity &U,
         OptimizationRemarkEmitter &ORE)
      : F(F), Chip(Chip), SE(SE), DT(DT), LI(LI), U(U), ORE(ORE),
        DL(F.getDataLayout()) {}
  /// Forms what it can; returns the formed 2D calls.
  SmallVector<CallInst *, 4> run();
  /// Undoes formed calls the validator would not find uniform.
  void check(const PostDominatorTree &PDT);

private:
  Function &F;
  const XeChip &Chip;
  ScalarEvolution &SE;
  const DominatorTree &DT;
  LoopInfo &LI;
  const XeUniformity &U;
  /// Each formed call with its guard.
  SmallVector<std::pair<CallInst *, Value *>, 4> Guards;
  OptimizationRemarkEmitter &ORE;
  const DataLayout &DL;
  bool WorkGroupXMultiple = false;

  void missed(const RowLoad &R, unsigned Count, const Twine &Why);
  void missed(const RowLoad &R, const Twine &What, const Twine &Why);
  bool shapeOf(SmallVectorImpl<RowLoad> &G, Shape &S);
  const SCEV *laneUniform(const Lane &L);
  const SCEV *uniformPart(const RowLoad &R, const Shape &S);
  const SCEV *orderRows(SmallVectorImpl<RowLoad> &G);
  const SCEV *orderColumns(SmallVectorImpl<RowLoad> &G, Shape &S);
  SmallVector<SmallVector<RowLoad, 8>, 4>
  columnsApart(SmallVectorImpl<RowLoad> &G);
  bool uniformLeaves(const SCEV *S, const Lane &L) const;
  LoadInst *firstOf(ArrayRef<RowLoad> G) const;
  bool noWritesBetween(ArrayRef<RowLoad> G) const;
  bool tiles(SmallVectorImpl<RowLoad> &G, bool ReqdSG16, Plan &P);
  std::optional<Plan> plan(SmallVectorImpl<RowLoad> &G, bool ReqdSG16);
  CallInst *form(Plan &P);
  bool onlyArithmeticBetween(ArrayRef<RowLoad> G, Instruction *&First,
                             Instruction *&Last) const;
  std::optional<Plan> planStores(SmallVectorImpl<RowLoad> &G, bool ReqdSG16);
  void collectStorePlans(BasicBlock &BB, bool ReqdSG16,
                         const SmallPtrSetImpl<Instruction *> &Taken,
                         SmallVectorImpl<Plan> &Plans);
  CallInst *formStores(Plan &P);
  std::string rules(const RowLoad &R0, const Shape &S, const SCEV *Stride);
  std::string kernelRule(const RowLoad &R, bool ReqdSG16) const;
  std::string tileRule(const RowLoad &Start, const Shape &S, const SCEV *Stride,
                       const SCEV *&U0);
  std::optional<LoopPlan> planLoop(Loop *L, Instruction *I, bool ReqdSG16);
  std::string loopMemoryRule(const LoopPlan &P) const;
  void mergeLoopColumns(SmallVectorImpl<LoopPlan> &Plans);
  CallInst *formLoop(LoopPlan &P);
  CallInst *formLoopStore(LoopPlan &P);
  /// A tile's address, pitch and guard.
  struct Tile {
    Value *Row0 = nullptr, *Pitch = nullptr, *Ok = nullptr;
    std::string What;
  };
  Tile tile(IRBuilder<> &B, const RowLoad &R0, const Shape &S, Value *U0V,
            Value *StrideV);
  void rowFromFragment(LoopPlan &P, const Tile &T, AllocaInst *Frag,
                       unsigned Col);
  Value *guard(IRBuilder<> &B, const RowLoad &R0, const Shape &S, Value *U0,
               Value *StrideIdx, Value *Row0, Value *Pitch, std::string &What);
  CallInst *read(Instruction *Then, const Shape &S, const Tile &T, DebugLoc Loc,
                 AllocaInst *&Frag);
  AllocaInst *fragment(const Shape &S);
  SmallVector<std::pair<unsigned, unsigned>, 4> rowPieces(BlockOp Op,
                                                          const Shape &S) const;
  CallInst *blockCalls(IRBuilder<> &TB, BlockOp Op, const Shape &S,
                       const Tile &T, AllocaInst *Frag, DebugLoc Loc);
  std::string formedShapes(BlockOp Op, const Shape &S) const;
  void remarkFormed(CallInst *Call, const Shape &S, unsigned Loads,
                    const Twine &From, StringRef What, bool Store = false);
};

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
/// them all (stores, or a shape the chip lacks); else \p G.
SmallVector<SmallVector<RowLoad, 8>, 4>
Former::columnsApart(SmallVectorImpl<RowLoad> &G) {
  SmallVector<SmallVector<RowLoad, 8>, 4> Parts;
  SmallVector<RowLoad, 8> Tile(G.begin(), G.end());
  Shape S;
  if (G.size() >= 4 && shapeOf(Tile, S) && !orderRows(Tile) &&
      orderColumns(Tile, S)) {
    S.Rows = Tile.size() / S.C;
    bool Whole = G[0].LI && (S.C == 2 || S.C == 4) &&
                 !rowPieces(BlockOp::Load, S).empty();
    if (!Whole) {
      // Runs of four or two blocks where the chip loads them at once (16-bit
      // data in 4 blocks: two pairs; 3 blocks: a pair and one), else each
      // block alone.
      auto Takes = [&](unsigned N) {
        Shape Run = S;
        Run.C = N;
        return G[0].LI && !rowPieces(BlockOp::Load, Run).empty();
      };
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
  }
  Parts.emplace_back(G.begin(), G.end());
  return Parts;
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

bool Former::noWritesBetween(ArrayRef<RowLoad> G) const {
  BasicBlock *BB = G[0].LI->getParent();
  const Instruction *First = firstOf(G), *Last = First;
  for (const RowLoad &R : G)
    if (Last->comesBefore(R.LI))
      Last = R.LI;
  bool In = false;
  for (const Instruction &I : *BB) {
    In |= &I == First;
    // Stores to private arrays (kernels that keep a tile in one before
    // promoting it) cannot change what a global load reads.
    const auto *St = dyn_cast<StoreInst>(&I);
    bool Private =
        St && isa<AllocaInst>(getUnderlyingObject(St->getPointerOperand()));
    if (In && I.mayWriteToMemory() && !Private)
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
  if (R0.Cast) {
    // The widened index is U's plus c * lane only if no row's U + c * lane
    // wraps in 32 bits: all of them lie between U0 and U0 + (H-1) * stride
    // (+ 15c).
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
    Ok = B.CreateAnd(Ok, B.CreateICmpSGE(Min, B.getInt64(MinV)));
    Ok = B.CreateAnd(Ok, B.CreateICmpSLE(Max, B.getInt64(MaxV)));
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

/// The tile's address and pitch (bytes) from row 0's uniform index \p U0V
/// and the stride \p StrideV, and the guard (\p T.What says what it
/// checks), built by \p B.
Former::Tile Former::tile(IRBuilder<> &B, const RowLoad &R0, const Shape &S,
                          Value *U0V, Value *StrideV) {
  Tile T;
  Value *Idx = !R0.Cast ? B.CreateSExtOrTrunc(U0V, B.getInt64Ty())
               : R0.Cast == Instruction::SExt
                   ? B.CreateSExt(U0V, B.getInt64Ty())
                   : B.CreateZExt(U0V, B.getInt64Ty());
  T.Row0 = B.CreateGEP(R0.Elem, R0.Base, Idx, "crosslane.tile");
  T.Pitch =
      B.CreateMul(B.CreateSExt(StrideV, B.getInt64Ty()),
                  B.getInt64(DL.getTypeStoreSize(R0.Elem)), "crosslane.pitch");
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

/// The rows of \p S as pieces (first row, rows) \p Op takes on the chip:
/// powers of two, largest first; none if a row alone is not a shape.
SmallVector<std::pair<unsigned, unsigned>, 4>
Former::rowPieces(BlockOp Op, const Shape &S) const {
  SmallVector<std::pair<unsigned, unsigned>, 4> Pieces;
  for (unsigned A = 0; A < S.Rows;) {
    unsigned H = llvm::bit_floor(S.Rows - A);
    while (H && !checkShape(Chip, Op, S.block(H), SG).empty())
      H /= 2;
    if (!H)
      return {};
    Pieces.push_back({A, H});
    A += H;
  }
  // A fragment holds a tile of blocks block by block: one piece only.
  if (S.C > 1 && Pieces.size() > 1)
    return {};
  return Pieces;
}

/// The 2D operations of \p Op on tile \p T with fragment \p Frag, by \p TB:
/// one per piece of rows, each at (0, its first row) of the tile's surface
/// (the same base, so the guard's alignment checks hold for all). Returns
/// the first.
CallInst *Former::blockCalls(IRBuilder<> &TB, BlockOp Op, const Shape &S,
                             const Tile &T, AllocaInst *Frag, DebugLoc Loc) {
  Type *I32 = TB.getInt32Ty();
  uint64_t Width = S.width();
  CallInst *First = nullptr;
  for (auto [A, H] : rowPieces(Op, S)) {
    Value *At = TB.CreateConstInBoundsGEP1_64(TB.getInt8Ty(), Frag,
                                              uint64_t(A) * S.Bytes());
    CallInst *Call = emitOpenCLCall(
        TB, blockName(Op, S, H), TB.getVoidTy(),
        {T.Row0, TB.getInt32(Width), TB.getInt32(S.Rows),
         TB.CreateTrunc(T.Pitch, I32),
         ConstantVector::get({TB.getInt32(0), TB.getInt32(A)}), At},
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
std::string Former::formedShapes(BlockOp Op, const Shape &S) const {
  auto Pieces = rowPieces(Op, S);
  auto One = [&](unsigned H) { return describeBlock(Op, S.block(H)); };
  if (Pieces.size() == 1)
    return One(S.Rows);
  std::string Text = One(Pieces[0].second);
  Text.insert(Text.find(' ', strlen("2D block ")), "s");
  for (auto [A, H] : drop_begin(Pieces))
    Text += " + " + One(H).substr(One(H).rfind(' ') + 1);
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
void Former::collectStorePlans(BasicBlock &BB, bool ReqdSG16,
                               const SmallPtrSetImpl<Instruction *> &Taken,
                               SmallVectorImpl<Plan> &Plans) {
  MapVector<RowLoad::Key, SmallVector<RowLoad, 8>> Groups;
  for (Instruction &I : BB)
    if (auto *St = dyn_cast<StoreInst>(&I); St && !Taken.count(St))
      if (std::optional<RowLoad> R = rowStore(St, SE))
        Groups[R->key()].push_back(*R);
  for (auto &[Key, G] : Groups)
    if (G.size() >= 2)
      for (SmallVector<RowLoad, 8> &Part : columnsApart(G))
        if (std::optional<Plan> P = planStores(Part, ReqdSG16))
          Plans.push_back(std::move(*P));
}

/// Moves the stores of \p P to where the last one is (nothing between them
/// touches memory), behind the guard: the 2D store of the values gathered
/// in a fragment on one path, the original stores, in their order, on the
/// other.
CallInst *Former::formStores(Plan &P) {
  const Shape &S = P.S;
  SmallVector<StoreInst *, 8> Order;
  for (const RowLoad &R : P.Rows)
    Order.push_back(R.SI);
  llvm::sort(Order,
             [](StoreInst *A, StoreInst *B) { return A->comesBefore(B); });
  Instruction *Last = Order.back();
  for (StoreInst *St : Order)
    if (St != Last)
      St->moveBefore(Last->getIterator());
  IRBuilder<> B(Order.front());
  Tile T = tile(B, P.Rows[0], S, P.U0V, P.StrideV);
  Instruction *Then = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(T.Ok, Order.front(), &Then, &Else);
  for (StoreInst *St : Order)
    St->moveBefore(Else->getIterator());
  AllocaInst *Frag = fragment(S);
  IRBuilder<> TB(Then);
  for (const RowLoad &R : P.Rows)
    TB.CreateAlignedStore(R.SI->getValueOperand(),
                          TB.CreateConstGEP1_64(TB.getInt8Ty(), Frag,
                                                uint64_t(R.Row) * S.Bytes()),
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
    if (S.C == 1)
      return checkShape(Chip, Op, S.block(1), SG);
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
    return "the lane's index is get_local_id(0) or get_global_id(0) and the "
           "kernel's reqd_work_group_size x is not a multiple of 16";
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
  if (!(P.Stride = orderRows(G)) &&
      !(R0.LI && (P.Stride = orderColumns(G, P.S)) &&
        (P.S.C == 2 || P.S.C == 4)))
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
        (I->mayReadOrWriteMemory() || I->mayHaveSideEffects()))
      return false;
  return true;
}

/// Checks \p G (stores of one base, element type and lane query in one
/// block), as plan() does loads: the rows of one tile, lane L writing
/// element L, and nothing between the first and the last that touches
/// memory. The 2D store then runs where the last one did.
std::optional<Plan> Former::planStores(SmallVectorImpl<RowLoad> &G,
                                       bool ReqdSG16) {
  Plan P;
  if (!tiles(G, ReqdSG16, P))
    return std::nullopt;
  Instruction *First = nullptr, *Last = nullptr;
  if (!onlyArithmeticBetween(G, First, Last))
    return missed(G[0], G.size(),
                  "something between them may read or write memory"),
           std::nullopt;
  P.First = Last;
  P.Rows.assign(G.begin(), G.end());
  return P;
}

/// What, besides \p P's own access and private arrays, the loop's memory
/// accesses rule out (empty: nothing): a load reads the whole tile before
/// the loop, so nothing in it may write memory; a store writes the tile
/// after the loop, so nothing in it may read or write memory either.
std::string Former::loopMemoryRule(const LoopPlan &P) const {
  Instruction *Own = P.R.inst();
  bool Store = P.R.SI;
  for (BasicBlock *BB : P.L->blocks())
    for (Instruction &I : *BB) {
      if (&I == Own ||
          !(Store ? I.mayReadOrWriteMemory() : I.mayWriteToMemory()))
        continue;
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (Ptr && isa<AllocaInst>(getUnderlyingObject(Ptr)))
        continue;
      return Store ? "the loop may read or write other memory"
                   : "the loop may write memory";
    }
  return "";
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
  unsigned Trip = SE.getSmallConstantTripCount(L);
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

/// In iteration k of \p P's loop, \p P's load takes row k of block \p Col
/// from the fragment where the guard held, and runs otherwise.
void Former::rowFromFragment(LoopPlan &P, const Tile &T, AllocaInst *Frag,
                             unsigned Col) {
  LoadInst *Load = P.R.LI;
  Instruction *InThen = nullptr, *InElse = nullptr;
  SplitBlockAndInsertIfThenElse(T.Ok, Load, &InThen, &InElse);
  BasicBlock *Merge = Load->getParent();
  IRBuilder<> TB(InThen);
  Value *Row = TB.CreateAdd(P.Iter, TB.getInt64(uint64_t(Col) * P.S.Rows));
  Value *Ptr = TB.CreateGEP(TB.getInt8Ty(), Frag,
                            TB.CreateMul(Row, TB.getInt64(P.S.Bytes())));
  Value *FromBlock = TB.CreateAlignedLoad(Load->getType(), Ptr, Align(P.S.Es));
  PHINode *Phi = PHINode::Create(Load->getType(), 2, Load->getName() + ".row");
  Phi->insertBefore(Merge->begin());
  Load->replaceAllUsesWith(Phi);
  Load->moveBefore(InElse->getIterator());
  Phi->addIncoming(FromBlock, InThen->getParent());
  Phi->addIncoming(Load, InElse->getParent());
}

/// Merges \p Plans' loads of one loop that read the blocks of a tile side
/// by side (block k's row index 16 lanes' elements past block k-1's, in
/// every iteration) into the plan of block 0, where one 2D load of 2 or 4
/// blocks is a shape the chip has.
void Former::mergeLoopColumns(SmallVectorImpl<LoopPlan> &Plans) {
  SmallVector<bool, 8> Taken(Plans.size(), false);
  SmallVector<LoopPlan, 4> Out;
  auto SameTile = [&](const LoopPlan &P, const LoopPlan &Q) {
    return P.R.LI && Q.R.LI && Q.L == P.L && Q.R.key() == P.R.key() &&
           Q.Stride == P.Stride && Q.S.Rows == P.S.Rows;
  };
  // The free plan of P's tile whose block is K blocks right of P's.
  auto Block = [&](unsigned I, int K) -> int {
    const LoopPlan &P = Plans[I];
    const SCEV *U = SE.getAddExpr(
        P.U0, SE.getConstant(P.U0->getType(), K * int64_t(P.S.Coef * SG),
                             /*isSigned=*/true));
    for (unsigned J = 0; J < Plans.size(); ++J)
      if (J != I && !Taken[J] && SameTile(P, Plans[J]) && Plans[J].U0 == U)
        return J;
    return -1;
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
      for (int K = 1; K < 4 && int(Cols.size()) == K - 1; ++K)
        if (int J = Block(I, K); J >= 0)
          Cols.push_back(J);
      LoopPlan &P = Plans[I];
      Shape S = P.S;
      S.C = Cols.size() == 3 ? 4 : Cols.empty() ? 1 : 2;
      if (S.C == 4 && rowPieces(BlockOp::Load, S).empty())
        S.C = 2;
      if (S.C > 1 && !rowPieces(BlockOp::Load, S).empty()) {
        P.S.C = S.C;
        for (unsigned K = 0; K + 1 < S.C; ++K) {
          Taken[Cols[K]] = true;
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

/// Where the guard holds, the loop puts row k into a fragment in
/// iteration k (the original store runs otherwise), and the whole tile is
/// written by a 2D store as the loop exits.
CallInst *Former::formLoopStore(LoopPlan &P) {
  StoreInst *St = P.R.SI;
  // A block of its own after the loop (the one it leaves to may be entered
  // from elsewhere too: the loop under an `if`).
  BasicBlock *Latch = P.L->getLoopLatch();
  if (P.Exit->getSinglePredecessor() != Latch)
    P.Exit = SplitEdge(Latch, P.Exit);
  IRBuilder<> B(P.PreTerm);
  Tile T = tile(B, P.R, P.S, P.U0V, P.StrideV);
  AllocaInst *Frag = fragment(P.S);
  Instruction *InThen = nullptr, *InElse = nullptr;
  SplitBlockAndInsertIfThenElse(T.Ok, St, &InThen, &InElse);
  IRBuilder<> TB(InThen);
  Value *Ptr = TB.CreateGEP(TB.getInt8Ty(), Frag,
                            TB.CreateMul(P.Iter, TB.getInt64(P.S.Bytes())));
  TB.CreateAlignedStore(St->getValueOperand(), Ptr, Align(P.S.Es));
  St->moveBefore(InElse->getIterator());
  Instruction *After =
      SplitBlockAndInsertIfThen(T.Ok, P.Exit->getFirstInsertionPt(), false);
  IRBuilder<> AB(After);
  CallInst *Call =
      blockCalls(AB, BlockOp::Store, P.S, T, Frag, St->getDebugLoc());
  remarkFormed(Call, P.S, P.S.Rows,
               "a per-lane store in a loop of " + Twine(P.S.Rows) +
                   " iterations (a row each)",
               T.What, /*Store=*/true);
  return Call;
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
  SmallVector<Plan, 4> Plans, StorePlans;
  for (BasicBlock &BB : F) {
    MapVector<RowLoad::Key, SmallVector<RowLoad, 8>> Groups;
    for (Instruction &I : BB)
      if (auto *Load = dyn_cast<LoadInst>(&I))
        if (!InLoopPlans.count(Load))
          if (std::optional<RowLoad> R = rowLoad(Load, SE))
            Groups[R->key()].push_back(*R);
    for (auto &[Key, G] : Groups)
      if (G.size() >= 2)
        for (SmallVector<RowLoad, 8> &Part : columnsApart(G))
          if (std::optional<Plan> P = plan(Part, ReqdSG16))
            Plans.push_back(std::move(*P));
    collectStorePlans(BB, ReqdSG16, InLoopPlans, StorePlans);
  }
  SCEVExpander Exp(SE, "crosslane.row");
  for (Plan &P : concat<Plan>(Plans, StorePlans)) {
    Type *IdxTy = P.Rows[0].CoreS->getType();
    P.U0V = Exp.expandCodeFor(P.U0, IdxTy, P.First->getIterator());
    P.StrideV = Exp.expandCodeFor(P.Stride, IdxTy, P.First->getIterator());
  }
  mergeLoopColumns(LoopPlans);
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

} // namespace

PreservedAnalyses XeFormBlocksPass::run(Function &F,
                                        FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !Triple(F.getParent()->getTargetTriple()).isSPIRV())
    return PreservedAnalyses::all();
  StringRef ChipName = Opts.Chip.empty() ? defaultXeChip() : Opts.Chip;
  const XeChip *Chip = lookupXeChip(ChipName);
  if (!Chip || !Chip->Has2DBlock)
    return PreservedAnalyses::all();
  bool Unified = unifyLaneQueries(F);
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
  Former Form(F, *Chip, SE, DT, LI, U, ORE);
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
