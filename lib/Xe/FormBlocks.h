//===- FormBlocks.h - Forming 2D block IO from per-lane code ----*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pieces crosslane-xe-form-blocks shares between its files: a per-lane
/// access of a tile's row (RowAccess.cpp), the plans for rows unrolled in a
/// block (FormBlocks.cpp) and for rows loaded or stored one per iteration
/// of a loop (FormLoops.cpp), and the Former that makes them.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_XE_FORMBLOCKS_H
#define CROSSLANE_LIB_XE_FORMBLOCKS_H

#include "BlockCalls.h"
#include "XeUniformity.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace llvm {
class AAResults;
class Loop;
class LoopInfo;
class OptimizationRemarkEmitter;
class PostDominatorTree;
} // namespace llvm

namespace crosslane {
namespace xe {
struct XeChip;
namespace form {

constexpr unsigned SG = 16;

enum class LaneKind { SubgroupLocalId, LocalId0, GlobalId0 };

/// A work-item query whose value is the lane (plus a uniform multiple of
/// 16).
struct Lane {
  llvm::Value *V = nullptr;
  LaneKind K = LaneKind::SubgroupLocalId;
};

/// The lane query \p V is (get_sub_group_local_id(), get_local_id(0) or
/// get_global_id(0)), if any.
std::optional<Lane> laneQuery(llvm::Value *V);

/// Makes all lane queries of a kind one call at \p F's entry; returns
/// whether it changed \p F.
bool unifyLaneQueries(llvm::Function &F);

/// True if \p V can be recomputed before \p At's block's end from values
/// available there: instructions of \p At's block after \p At must be
/// pure arithmetic (or work-item queries) over such values.
bool recomputable(llvm::Value *V, const llvm::Instruction *At,
                  unsigned Depth = 0);

/// Rewrites the mul24/mad24 calls global addresses are computed from as
/// 32-bit multiplies (and adds); returns whether it changed \p F.
bool expandMul24(llvm::Function &F);

/// A per-lane load, its address Base + Cast(Core) * sizeof(Elem): a GEP
/// that widens a 32-bit index (Cast, Core), or otherwise the address as
/// scalar evolution sees it (Elem i8, Core the byte offset, no cast).
struct RowLoad {
  llvm::LoadInst *LI = nullptr;
  llvm::StoreInst *SI = nullptr; ///< a row store instead (LI null)
  llvm::Value *Base = nullptr;
  llvm::Type *Elem = nullptr;
  unsigned Cast = 0; ///< Instruction::SExt, ZExt or 0
  Lane L;
  const llvm::SCEV *CoreS = nullptr;
  unsigned Row = 0;
  unsigned Col = 0; ///< the block, in a tile of blocks side by side
  llvm::Instruction *inst() const {
    return LI ? static_cast<llvm::Instruction *>(LI) : SI;
  }
  llvm::Type *valueType() const {
    return LI ? LI->getType() : SI->getValueOperand()->getType();
  }
  /// Accesses of one tile share this: base, element, index widening and
  /// type, value type and lane query.
  using Key = std::tuple<llvm::Value *, llvm::Type *, unsigned, llvm::Type *,
                         llvm::Type *, llvm::Value *>;
  Key key() const {
    return {Base, Elem, Cast, CoreS->getType(), valueType(), L.V};
  }
};

/// A per-lane load or store of a row of global memory (\p Bytes: as a byte
/// offset from the pointer's base, for a pointer bumped by a loop).
std::optional<RowLoad> rowLoad(llvm::LoadInst *LI, llvm::ScalarEvolution &SE,
                               bool Bytes = false);
std::optional<RowLoad> rowStore(llvm::StoreInst *SI, llvm::ScalarEvolution &SE,
                                bool Bytes = false);

/// The per-lane loads (or stores) of \p BB but \p Taken, grouped by tile
/// key (RowLoad::key).
using RowGroups = llvm::MapVector<RowLoad::Key, llvm::SmallVector<RowLoad, 8>>;
RowGroups groupRows(llvm::BasicBlock &BB, bool Loads,
                    const llvm::SmallPtrSetImpl<llvm::Instruction *> &Taken,
                    llvm::ScalarEvolution &SE);

/// The stores of \p Rows (stores of one block) in program order.
llvm::SmallVector<llvm::StoreInst *, 8>
storesInOrder(llvm::ArrayRef<RowLoad> Rows);

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
/// Blocks of a store tile that -O2 addresses another way than its first
/// (a 32-bit index where block 0 has 64-bit offsets): scalar evolution
/// cannot tell where they lie, so the guard checks it (FormBeside.cpp).
struct Beside {
  RowLoad R0;   ///< their row 0
  Shape S;      ///< their own shape (their blocks)
  unsigned Col; ///< their first block's column in the tile
  const llvm::SCEV *U0 = nullptr, *Stride = nullptr;
  llvm::Value *U0V = nullptr, *StrideV = nullptr;
};

/// A group to form: its rows in order, shape, and the uniform values of
/// row 0's index and of the stride (expanded before any block is split).
struct Plan {
  llvm::SmallVector<RowLoad, 8> Rows;
  Shape S;
  const llvm::SCEV *U0 = nullptr, *Stride = nullptr;
  llvm::Value *U0V = nullptr, *StrideV = nullptr;
  llvm::Instruction *First = nullptr; ///< where the uniform values go
  /// A store plan's stores in program order (taken while they are in one
  /// block: forming another plan first may split it between them).
  llvm::SmallVector<llvm::StoreInst *, 8> Order;
  /// A store plan's blocks addressed another way.
  llvm::SmallVector<Beside, 2> Besides;
};

/// A per-lane load (or store) run once per iteration of a loop of Rows
/// iterations that reads (writes) row k of a tile in iteration k.
struct LoopPlan {
  RowLoad R;
  llvm::Loop *L = nullptr;
  /// A store's: the block the loop leaves to, from its latch only (a block
  /// of its own on that edge once formed).
  llvm::BasicBlock *Exit = nullptr;
  /// Accesses of the loop to the tile's blocks 1, 2, ... side by side
  /// with this one's (S.C blocks in all): read by one 2D load, or written
  /// by a 2D store per block.
  std::vector<LoopPlan> Columns;
  /// A store's: the other stores of the loop to the same surface, allowed
  /// in the loop only as the tile's other blocks (Columns, once merged).
  unsigned Siblings = 0;
  /// A column addressed another way than block 0: where it lies is
  /// checked at run time (FormBeside.cpp).
  bool Checked = false;
  /// The preheader's branch to the loop (it stays that when the preheader
  /// is split, which llvm::LoopInfo is not told of).
  llvm::Instruction *PreTerm = nullptr;
  /// A store's: the latch's branch (the loop's exit), which stays that when
  /// the latch is split.
  llvm::Instruction *LatchTerm = nullptr;
  unsigned ExitIdx = 0; ///< Exit's successor number in LatchTerm
  Shape S;
  const llvm::SCEV *U0 = nullptr, *Stride = nullptr;
  llvm::Value *U0V = nullptr, *StrideV = nullptr, *Iter = nullptr;
};

/// Emits remarks for one function.
class Former {
public:
  Former(llvm::Function &F, const XeChip &Chip, llvm::ScalarEvolution &SE,
         const llvm::DominatorTree &DT, llvm::LoopInfo &LI,
         const XeUniformity &U, llvm::AAResults &AA,
         llvm::OptimizationRemarkEmitter &ORE)
      : F(F), Chip(Chip), SE(SE), DT(DT), LI(LI), U(U), AA(AA), ORE(ORE),
        DL(F.getDataLayout()) {}
  /// Forms what it can; returns the formed 2D calls.
  llvm::SmallVector<llvm::CallInst *, 4> run();
  /// Undoes formed calls the validator would not find uniform.
  void check(const llvm::PostDominatorTree &PDT);

private:
  llvm::Function &F;
  const XeChip &Chip;
  llvm::ScalarEvolution &SE;
  const llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  const XeUniformity &U;
  llvm::AAResults &AA;
  /// Each formed call with its guard.
  llvm::SmallVector<std::pair<llvm::CallInst *, llvm::Value *>, 4> Guards;
  llvm::OptimizationRemarkEmitter &ORE;
  const llvm::DataLayout &DL;
  bool WorkGroupXMultiple = false;
  bool HasWorkGroupSize = false;

  void missed(const RowLoad &R, unsigned Count, const llvm::Twine &Why);
  void missed(const RowLoad &R, const llvm::Twine &What,
              const llvm::Twine &Why);
  bool shapeOf(llvm::SmallVectorImpl<RowLoad> &G, Shape &S);
  const llvm::SCEV *laneUniform(const Lane &L);
  const llvm::SCEV *uniformPart(const RowLoad &R, const Shape &S);
  const llvm::SCEV *orderRows(llvm::SmallVectorImpl<RowLoad> &G);
  const llvm::SCEV *orderColumns(llvm::SmallVectorImpl<RowLoad> &G, Shape &S);
  llvm::SmallVector<llvm::SmallVector<RowLoad, 8>, 4>
  columnsApart(llvm::SmallVectorImpl<RowLoad> &G);
  llvm::SmallVector<llvm::SmallVector<RowLoad, 8>, 4>
  columnClasses(llvm::ArrayRef<RowLoad> G);
  bool wholeTile(llvm::ArrayRef<RowLoad> Tile, Shape &S) const;
  bool oneLoadTakes(const Shape &S) const;
  llvm::SmallVector<llvm::SmallVector<RowLoad, 8>, 4>
  blockRuns(llvm::ArrayRef<RowLoad> Tile, const Shape &S) const;
  bool uniformLeaves(const llvm::SCEV *S, const Lane &L) const;
  llvm::LoadInst *firstOf(llvm::ArrayRef<RowLoad> G) const;
  bool apart(const llvm::Instruction &I, const RowLoad &R) const;
  bool noWritesBetween(llvm::ArrayRef<RowLoad> G) const;
  bool tiles(llvm::SmallVectorImpl<RowLoad> &G, bool ReqdSG16, Plan &P);
  std::optional<Plan> plan(llvm::SmallVectorImpl<RowLoad> &G, bool ReqdSG16);
  llvm::CallInst *form(Plan &P);
  bool onlyArithmeticBetween(llvm::ArrayRef<RowLoad> G,
                             llvm::Instruction *&First,
                             llvm::Instruction *&Last) const;
  void
  collectStorePlans(llvm::BasicBlock &BB, bool ReqdSG16,
                    const llvm::SmallPtrSetImpl<llvm::Instruction *> &Taken,
                    llvm::SmallVectorImpl<Plan> &Plans);
  llvm::CallInst *formStores(Plan &P);
  // FormBeside.cpp
  bool probedApart(const RowLoad &P, const llvm::SCEV *PU0,
                   const llvm::SCEV *PStride, const Shape &S, const RowLoad &Q,
                   const llvm::SCEV *QU0, const llvm::SCEV *QStride,
                   const Shape &QS, int64_t &Blocks) const;
  void mergeBeside(llvm::SmallVectorImpl<Plan> &Blocked,
                   llvm::SmallVectorImpl<Plan> &Plans);
  bool joinBeside(Plan &P, llvm::ArrayRef<Plan *> Right);
  int checkedColumn(llvm::ArrayRef<LoopPlan> Plans, llvm::ArrayRef<bool> Taken,
                    unsigned I, int K) const;
  std::string rules(const RowLoad &R0, const Shape &S,
                    const llvm::SCEV *Stride);
  std::string kernelRule(const RowLoad &R, bool ReqdSG16) const;
  std::string tileRule(const RowLoad &Start, const Shape &S,
                       const llvm::SCEV *Stride, const llvm::SCEV *&U0);
  std::optional<LoopPlan> planLoop(llvm::Loop *L, llvm::Instruction *I,
                                   bool ReqdSG16);
  std::string loopMemoryRule(LoopPlan &P) const;
  unsigned tripCount(llvm::Loop *L) const;
  const llvm::SCEV *twoIterations(const llvm::SCEV *S, llvm::Loop *L) const;
  bool sameSurface(const LoopPlan &P, llvm::Instruction &I) const;
  void mergeLoopColumns(llvm::SmallVectorImpl<LoopPlan> &Plans);
  void dropLoneBlocks(llvm::SmallVectorImpl<LoopPlan> &Plans,
                      llvm::SmallPtrSetImpl<llvm::Instruction *> &InPlans);
  llvm::CallInst *formLoop(LoopPlan &P);
  llvm::CallInst *formLoopStore(LoopPlan &P);
  /// A tile's address, pitch and guard.
  struct Tile {
    llvm::Value *Row0 = nullptr, *Pitch = nullptr, *Ok = nullptr;
    std::string What;
  };
  Tile tile(llvm::IRBuilder<> &B, const RowLoad &R0, const Shape &S,
            llvm::Value *U0V, llvm::Value *StrideV);
  Tile tileAddress(llvm::IRBuilder<> &B, const RowLoad &R0, llvm::Value *U0V,
                   llvm::Value *StrideV);
  llvm::Value *noWrap(llvm::IRBuilder<> &B, const RowLoad &R0, const Shape &S,
                      llvm::Value *U0, llvm::Value *StrideIdx);
  void besideGuard(llvm::IRBuilder<> &B, Tile &T, const Shape &S,
                   const RowLoad &R0, const Shape &Own, llvm::Value *U0V,
                   llvm::Value *StrideV, unsigned Col);
  void rowFromFragment(LoopPlan &P, const Tile &T, llvm::AllocaInst *Frag,
                       unsigned Col);
  void rowToFragment(LoopPlan &P, const Tile &T, llvm::AllocaInst *Frag,
                     unsigned Col);
  llvm::Value *fragmentRow(LoopPlan &P, const Tile &T, llvm::AllocaInst *Frag,
                           unsigned Col, llvm::IRBuilder<> &TB);
  llvm::Value *guard(llvm::IRBuilder<> &B, const RowLoad &R0, const Shape &S,
                     llvm::Value *U0, llvm::Value *StrideIdx, llvm::Value *Row0,
                     llvm::Value *Pitch, std::string &What);
  llvm::CallInst *read(llvm::Instruction *Then, const Shape &S, const Tile &T,
                       llvm::DebugLoc Loc, llvm::AllocaInst *&Frag);
  llvm::AllocaInst *fragment(const Shape &S);
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4>
  rowPieces(BlockOp Op, const Shape &S) const;
  llvm::CallInst *blockCalls(llvm::IRBuilder<> &TB, BlockOp Op, const Shape &S,
                             const Tile &T, llvm::AllocaInst *Frag,
                             llvm::DebugLoc Loc);
  std::string formedShapes(BlockOp Op, const Shape &S) const;
  void remarkFormed(llvm::CallInst *Call, const Shape &S, unsigned Loads,
                    const llvm::Twine &From, llvm::StringRef What,
                    bool Store = false);
};

} // namespace form
} // namespace xe
} // namespace crosslane

#endif // CROSSLANE_LIB_XE_FORMBLOCKS_H
