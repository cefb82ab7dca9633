//===- PlainFallback.cpp - 2D block operations as per-lane accesses -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// For chips without 2D block hardware (dg2): each operation becomes the
// per-lane loads or stores that give every lane the fragment the extension
// assigns it ("Mapping Block Data to Invocations"), with the extension's
// out-of-bounds rule (loads read 0, stores are dropped). Lane L's unit u of
// block b: with rows of Wd cells (after padding), Wd >= 16 gives lane L the
// cells L*n .. L*n+n-1 (n = Wd / 16) of each row; Wd < 16 puts 16 / Wd
// rows side by side, lane L taking cell L % Wd of row u * (16 / Wd) + L /
// Wd. Transposed loads of more than 16 rows and VNNI loads wider than 16
// follow Intel's hardware instead: lane L's unit u is cell L + 16 * (u %
// n) of row u / n (BlockCalls.h, laneOrderDisputed). A cell is an element
// (load, store; transposed: a column's element) or K rows of one column packed
// into a dword (VNNI, K = 4 / element size, lowest row in the low bits).
// Prefetches are dropped.
//
//===----------------------------------------------------------------------===//

#include "BlockCalls.h"
#include "crosslane/Support/OpenCLBuiltins.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace crosslane {
namespace xe {

namespace {
/// The geometry of one block as rows of cells, after padding.
struct Rows {
  unsigned N = 0;     ///< rows
  unsigned Width = 0; ///< cells per row
  unsigned K = 1;     ///< rows per cell (VNNI)
};

Rows rowsOf(const BlockCall &B) {
  const BlockShape &S = B.Shape;
  if (B.Op == BlockOp::LoadTranspose)
    return {S.W, unsigned(PowerOf2Ceil(S.H)), 1};
  unsigned K = B.Op == BlockOp::LoadTransform ? 4 / S.ElemBytes : 1;
  return {unsigned(alignTo(S.H, K) / K), unsigned(PowerOf2Ceil(S.W)), K};
}

/// Emits one 2D operation's per-lane accesses before its call.
class Expander {
public:
  Expander(const BlockCall &B, unsigned SG) : B(B), SG(SG), Bld(B.CI) {}
  void run();

private:
  const BlockCall &B;
  unsigned SG;
  IRBuilder<> Bld;
  Value *Lane = nullptr, *X = nullptr, *Y = nullptr;

  Value *c(int64_t V) { return Bld.getInt64(V); }
  /// In bounds, for element (Row, Col) of the surface (i64 values).
  Value *inBounds(Value *Row, Value *Col);
  Value *address(Value *Row, Value *Col);
  Value *loadElement(Value *Row, Value *Col, Value *Valid);
  void storeElement(Value *Row, Value *Col, Value *Valid, Value *V);
  /// Block row and cell of lane unit \p U: (row, cell, valid).
  std::tuple<Value *, Value *, Value *> place(const Rows &R, unsigned U);
};

Value *Expander::inBounds(Value *Row, Value *Col) {
  unsigned Es = B.Shape.ElemBytes;
  Value *W = Bld.CreateSExt(B.Width, Bld.getInt64Ty());
  Value *H = Bld.CreateSExt(B.Height, Bld.getInt64Ty());
  Value *Ok =
      Bld.CreateAnd(Bld.CreateICmpSGE(Row, c(0)), Bld.CreateICmpSLT(Row, H));
  Ok = Bld.CreateAnd(Ok, Bld.CreateICmpSGE(Col, c(0)));
  Value *End = Bld.CreateMul(Bld.CreateAdd(Col, c(1)), c(Es));
  return Bld.CreateAnd(Ok, Bld.CreateICmpSLE(End, W));
}

Value *Expander::address(Value *Row, Value *Col) {
  Value *P = Bld.CreateSExt(B.Pitch, Bld.getInt64Ty());
  Value *Off = Bld.CreateAdd(Bld.CreateMul(Row, P),
                             Bld.CreateMul(Col, c(B.Shape.ElemBytes)));
  return Bld.CreateGEP(Bld.getInt8Ty(), B.Base, Off);
}

Value *Expander::loadElement(Value *Row, Value *Col, Value *Valid) {
  Type *ETy = Bld.getIntNTy(8 * B.Shape.ElemBytes);
  Value *Ok = Bld.CreateAnd(Valid, inBounds(Row, Col));
  // Out of bounds: the base (always readable: the surface is at least 64
  // bytes wide), then 0.
  Value *Addr = Bld.CreateSelect(Ok, address(Row, Col), B.Base);
  Value *V = Bld.CreateAlignedLoad(ETy, Addr, Align(B.Shape.ElemBytes));
  return Bld.CreateSelect(Ok, V, ConstantInt::get(ETy, 0));
}

void Expander::storeElement(Value *Row, Value *Col, Value *Valid, Value *V) {
  Value *Ok = Bld.CreateAnd(Valid, inBounds(Row, Col));
  Instruction *Then = SplitBlockAndInsertIfThen(Ok, &*Bld.GetInsertPoint(),
                                                /*Unreachable=*/false);
  IRBuilder<> T(Then);
  Value *P = T.CreateSExt(B.Pitch, T.getInt64Ty());
  Value *Off = T.CreateAdd(T.CreateMul(Row, P),
                           T.CreateMul(Col, T.getInt64(B.Shape.ElemBytes)));
  T.CreateAlignedStore(V, T.CreateGEP(T.getInt8Ty(), B.Base, Off),
                       Align(B.Shape.ElemBytes));
  Bld.SetInsertPoint(B.CI);
}

std::tuple<Value *, Value *, Value *> Expander::place(const Rows &R,
                                                      unsigned U) {
  if (R.Width >= SG) {
    unsigned N = R.Width / SG;
    // Lane L's cells L*N .. L*N+N-1, or L, L+16, ... (laneOrderDisputed).
    Value *Cell = laneOrderDisputed(B.Op, B.Shape)
                      ? Bld.CreateAdd(Lane, c(SG * (U % N)))
                      : Bld.CreateAdd(Bld.CreateMul(Lane, c(N)), c(U % N));
    return {c(U / N), Cell, Bld.getTrue()};
  }
  unsigned PerReg = SG / R.Width;
  Value *Row =
      Bld.CreateAdd(c(uint64_t(U) * PerReg), Bld.CreateUDiv(Lane, c(R.Width)));
  Value *Cell = Bld.CreateURem(Lane, c(R.Width));
  return {Row, Cell, Bld.CreateICmpULT(Row, c(R.N))};
}

void Expander::run() {
  // At the function's entry: LLVM 22's SPIR-V back end defines a builtin
  // variable where it is first read, and a read in a block that does not
  // dominate the others' (a guarded fallback) breaks its machine verifier.
  BasicBlock &Entry = B.CI->getFunction()->getEntryBlock();
  IRBuilder<> AtEntry(&Entry, Entry.getFirstInsertionPt());
  CallInst *LaneCall = emitOpenCLCall(AtEntry, "_Z22get_sub_group_local_idv",
                                      Bld.getInt32Ty(), {});
  Lane = Bld.CreateZExt(LaneCall, Bld.getInt64Ty());
  X = Bld.CreateSExt(Bld.CreateExtractElement(B.Coord, uint64_t(0)),
                     Bld.getInt64Ty());
  Y = Bld.CreateSExt(Bld.CreateExtractElement(B.Coord, uint64_t(1)),
                     Bld.getInt64Ty());
  const BlockShape &S = B.Shape;
  Rows R = rowsOf(B);
  unsigned PerBlock = R.Width >= SG ? R.N * (R.Width / SG)
                                    : unsigned(divideCeil(R.N, SG / R.Width));
  bool T = B.Op == BlockOp::LoadTranspose, Vnni = R.K > 1;
  unsigned UnitBytes = Vnni ? 4 : S.ElemBytes;
  Type *UTy = Bld.getIntNTy(8 * UnitBytes);
  for (unsigned Blk = 0; Blk < S.C; ++Blk)
    for (unsigned U = 0; U < PerBlock; ++U) {
      auto [RowV, Cell, Valid] = place(R, U);
      // The block's element (r, col) of this unit; transposed rows are
      // columns.
      Value *Rr = T ? Cell : Bld.CreateMul(RowV, c(R.K));
      Value *Cc = T ? RowV : Cell;
      Value *ColLimit = c(S.W), *RowLimit = c(S.H);
      Valid = Bld.CreateAnd(Valid, Bld.CreateICmpULT(Cc, ColLimit));
      Value *Col = Bld.CreateAdd(X, Bld.CreateAdd(c(Blk * S.W), Cc));
      Value *Dst = Bld.CreateConstGEP1_64(Bld.getInt8Ty(), B.Private,
                                          (Blk * PerBlock + U) * UnitBytes);
      if (B.Op == BlockOp::Store) {
        Value *V = Bld.CreateAlignedLoad(UTy, Dst, Align(S.ElemBytes));
        Valid = Bld.CreateAnd(Valid, Bld.CreateICmpULT(Rr, RowLimit));
        storeElement(Bld.CreateAdd(Y, Rr), Col, Valid, V);
        continue;
      }
      Value *Acc = ConstantInt::get(UTy, 0);
      for (unsigned I = 0; I < R.K; ++I) {
        Value *Ri = Bld.CreateAdd(Rr, c(I));
        Value *Ok = Bld.CreateAnd(Valid, Bld.CreateICmpULT(Ri, RowLimit));
        Value *E = loadElement(Bld.CreateAdd(Y, Ri), Col, Ok);
        E = Bld.CreateZExt(E, UTy);
        Acc = Bld.CreateOr(Acc, Bld.CreateShl(E, 8 * S.ElemBytes * I));
      }
      Bld.CreateAlignedStore(Acc, Dst, Align(S.ElemBytes));
    }
}
} // namespace

void expandToPlainAccesses(const BlockCall &B) {
  if (B.Op != BlockOp::Prefetch)
    Expander(B, 16).run();
}

bool lowerToPlainAccesses(ArrayRef<BlockCall> Calls,
                          OptimizationRemarkEmitter *ORE, StringRef Chip) {
  for (const BlockCall &B : Calls) {
    if (ORE)
      ORE->emit([&] {
        OptimizationRemark R("crosslane-xe-block-io", "PlainFallback",
                             userDebugLoc(B.CI), B.CI->getParent());
        R << describeBlock(B.Op, B.Shape) << " on " << Chip;
        if (B.Op == BlockOp::Prefetch)
          return R << " dropped (no 2D block hardware; a prefetch has no "
                      "effect on results)";
        return R << " lowered to per-lane "
                 << (B.Op == BlockOp::Store ? "stores" : "loads")
                 << " (no 2D block hardware)";
      });
    expandToPlainAccesses(B);
    B.CI->eraseFromParent();
  }
  return !Calls.empty();
}

} // namespace xe
} // namespace crosslane
