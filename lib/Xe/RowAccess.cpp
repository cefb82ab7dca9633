//===- RowAccess.cpp - Per-lane accesses of a tile's rows
//------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What crosslane-xe-form-blocks reads a load or a store as: the lane query
// its address depends on, its base, element and index (as scalar evolution
// sees it), so that rows of a tile can be matched up and ordered.
//
//===----------------------------------------------------------------------===//

#include "FormBlocks.h"
#include "crosslane/Support/OpenCLBuiltins.h"

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace crosslane {
namespace xe {
namespace form {

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

/// The mul24/mad24 call \p V is (i32 scalars), if any.
static CallInst *mul24Call(Value *V) {
  auto *CI = dyn_cast<CallInst>(V);
  Function *F = CI ? CI->getCalledFunction() : nullptr;
  if (!F || !CI->getType()->isIntegerTy(32))
    return nullptr;
  StringRef Base = demangledBase(F->getName());
  bool Mad = Base == "mad24";
  if ((Base != "mul24" && !Mad) || CI->arg_size() != (Mad ? 3u : 2u))
    return nullptr;
  return CI;
}

/// Rewrites the mul24(a, b) and mad24(a, b, c) calls that global
/// addresses are computed from as a * b (+ c), in 32 bits, so that scalar
/// evolution reads them. OpenCL leaves the product of operands wider than
/// 24 bits to the implementation; IGC's is the 32-bit product (its
/// built-in library multiplies the operands as they are), which this is.
bool expandMul24(Function &F) {
  SmallVector<Value *, 32> Work;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (Value *Ptr = getLoadStorePointerOperand(&I);
          Ptr && Ptr->getType()->getPointerAddressSpace() == 1)
        Work.push_back(Ptr);
  SmallPtrSet<Value *, 32> Seen;
  SmallVector<CallInst *, 8> Calls;
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (CallInst *CI = mul24Call(I))
      Calls.push_back(CI);
    else if (isa<CallBase, LoadInst>(I))
      continue;
    append_range(Work, I->operands());
  }
  for (CallInst *CI : Calls) {
    IRBuilder<> B(CI);
    Value *V = B.CreateMul(CI->getArgOperand(0), CI->getArgOperand(1));
    if (CI->arg_size() == 3)
      V = B.CreateAdd(V, CI->getArgOperand(2));
    V->takeName(CI);
    CI->replaceAllUsesWith(V);
    CI->eraseFromParent();
  }
  return !Calls.empty();
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

namespace {
/// Rewrites the sign extensions of no-wrap arithmetic an address is
/// computed from as the arithmetic of the extended operands (`sext(3 *
/// p)` as `3 * sext(p)`): the instruction's `nsw` holds wherever the
/// access runs, since an access at a poison address is undefined. Scalar
/// evolution does not use the flags (they need not hold where the value is
/// not used), so rows written out as `o[0]`, `o[p]`, ..., `o[7 * p]` would
/// not be evenly spaced for it.
class NoWrapExtensions : public SCEVRewriteVisitor<NoWrapExtensions> {
  DenseMap<const SCEV *, const SCEV *> Wide;
  SmallPtrSet<const Value *, 16> Seen;

public:
  NoWrapExtensions(ScalarEvolution &SE, Value *Ptr) : SCEVRewriteVisitor(SE) {
    collect(Ptr);
  }
  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *S) {
    auto It = Wide.find(S);
    return It != Wide.end() ? It->second
                            : SCEVRewriteVisitor::visitSignExtendExpr(S);
  }

private:
  /// The 64-bit value of \p V if it is `sext` of no-wrap arithmetic
  /// (recursively), else the plain extension.
  const SCEV *widen(Value *V, Type *Ty, unsigned Depth) {
    auto *BO = dyn_cast<BinaryOperator>(V);
    if (Depth < 4 && BO && BO->hasNoSignedWrap() &&
        (BO->getOpcode() == Instruction::Add ||
         BO->getOpcode() == Instruction::Mul ||
         BO->getOpcode() == Instruction::Shl)) {
      const SCEV *A = widen(BO->getOperand(0), Ty, Depth + 1);
      if (BO->getOpcode() == Instruction::Shl) {
        auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
        if (C && C->getValue().ult(BO->getType()->getIntegerBitWidth() - 1))
          return SE.getMulExpr(
              A, SE.getConstant(Ty, uint64_t(1) << C->getZExtValue()));
      } else {
        const SCEV *B = widen(BO->getOperand(1), Ty, Depth + 1);
        return BO->getOpcode() == Instruction::Add ? SE.getAddExpr(A, B)
                                                   : SE.getMulExpr(A, B);
      }
    }
    return SE.getSignExtendExpr(SE.getSCEV(V), Ty);
  }

  /// The sign extensions among \p V's operands (GEPs and additions of
  /// the address, all of them: a pointer bumped row by row is a chain as
  /// long as the tile), each with its rewritten value.
  void collect(Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !Seen.insert(I).second)
      return;
    if (auto *SExt = dyn_cast<SExtInst>(I)) {
      const SCEV *From = SE.getSCEV(SExt);
      if (isa<SCEVSignExtendExpr>(From))
        Wide[From] = widen(SExt->getOperand(0), SExt->getType(), 0);
      return;
    }
    if (isa<GetElementPtrInst>(I) ||
        (isa<BinaryOperator>(I) && I->getOpcode() == Instruction::Add))
      for (Value *Op : I->operands())
        collect(Op);
  }
};
} // namespace

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
  NoWrapExtensions NoWrap(SE, Ptr);
  const SCEV *PS = NoWrap.visit(SE.getSCEV(Ptr));
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

std::optional<RowLoad> rowLoad(LoadInst *LI, ScalarEvolution &SE, bool Bytes) {
  if (!LI->isSimple())
    return std::nullopt;
  return rowAccess(LI, LI->getPointerOperand(), SE, Bytes);
}

std::optional<RowLoad> rowStore(StoreInst *SI, ScalarEvolution &SE,
                                bool Bytes) {
  if (!SI->isSimple())
    return std::nullopt;
  return rowAccess(SI, SI->getPointerOperand(), SE, Bytes);
}

/// An access whose index widens a 32-bit value is read again as a byte
/// offset from its pointer's base when it is alone in its group, or when
/// its base is itself an address computed per row (`row = C + (y + r) *
/// pitch + x; row[lane]; row[16 + lane]`, whose two accesses would read as
/// two rows of a tile 16 elements apart), and grouped with the others read
/// so where that joins accesses of several groups (or of single ones):
/// rows reached through a chain of GEPs (`p[lane]; p += pitch;` unrolled:
/// each row's GEP has a base of its own), row pointers.
RowGroups groupRows(BasicBlock &BB, bool Loads,
                    const SmallPtrSetImpl<Instruction *> &Taken,
                    ScalarEvolution &SE) {
  auto Read = [&](Instruction &I, bool Bytes) -> std::optional<RowLoad> {
    if (Taken.count(&I))
      return std::nullopt;
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && Loads)
      return rowLoad(LI, SE, Bytes);
    if (auto *SI = dyn_cast<StoreInst>(&I); SI && !Loads)
      return rowStore(SI, SE, Bytes);
    return std::nullopt;
  };
  RowGroups Groups;
  for (Instruction &I : BB)
    if (std::optional<RowLoad> R = Read(I, false))
      Groups[R->key()].push_back(*R);
  struct Again {
    RowLoad R;
    RowLoad::Key From;
    bool Single;
  };
  MapVector<RowLoad::Key, SmallVector<Again, 8>> ByBytes;
  for (auto &[Key, G] : Groups)
    if (G[0].Cast && (G.size() == 1 || isa<GetElementPtrInst>(G[0].Base)))
      for (const RowLoad &R0 : G)
        if (std::optional<RowLoad> R = Read(*R0.inst(), true))
          ByBytes[R->key()].push_back({*R, Key, G.size() == 1});
  for (auto &[Bytes, Members] : ByBytes) {
    SmallPtrSet<Value *, 8> Bases;
    for (const Again &M : Members)
      Bases.insert(std::get<0>(M.From));
    bool Singles = all_of(Members, [](const Again &M) { return M.Single; });
    if (!Singles && Bases.size() < 2)
      continue;
    for (const Again &M : Members) {
      if (!M.Single)
        erase_if(Groups[M.From],
                 [&](const RowLoad &R) { return R.inst() == M.R.inst(); });
      Groups[Bytes].push_back(M.R);
    }
  }
  return Groups;
}

} // namespace form
} // namespace xe
} // namespace crosslane
