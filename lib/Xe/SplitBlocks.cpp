//===- SplitBlocks.cpp - 2D block operations split into legal pieces ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A load, VNNI load, store or prefetch whose shape the chip lacks only
// because it has too many rows or blocks (a store of 16 rows, four 16-bit
// blocks of 16 columns, 64 rows) becomes several operations of a shape the
// chip has, each at its own (x, y), each reading or writing its own slice
// of the lane's fragment. The slices are contiguous because of how the
// extension assigns a block to lanes ("Mapping Block Data to Invocations",
// research/xe-block-io.md §2.5): a lane holds block 0's data, then block
// 1's; within a block, rows (VNNI: groups of 2 or 4 rows) in order, as
// long as a piece covers whole register rows (rows x padded width >= 16
// lanes). Splitting the width would move columns between lanes (but for
// Xe2's wide VNNI loads, which each lane then reorders). A transposed
// load's lanes hold its rows, so its rows are not split, but its columns
// can be (Xe3P's 16-wide transposes on earlier chips): column c becomes row
// c of the transposed block, so a piece of whole register rows of it is a
// contiguous slice of the fragment too. A prefetch has no fragment: its
// columns split too (Xe3P's 256-byte rows).
//
//===----------------------------------------------------------------------===//

#include "BlockCalls.h"
#include "XeUniformity.h"

#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace crosslane {
namespace xe {

/// Rows packed into one unit of the fragment (VNNI: 4 / element size).
static unsigned rowsPerUnit(BlockOp Op, unsigned ElemBytes) {
  return Op == BlockOp::LoadTransform && ElemBytes <= 2 ? 4 / ElemBytes : 1;
}

/// True if a piece of \p Rows rows starts and ends on register rows of the
/// lane's fragment for \p S (so its slice of the fragment is contiguous).
static bool wholeRegisterRows(BlockOp Op, const BlockShape &S, unsigned Rows,
                              unsigned SG) {
  unsigned K = rowsPerUnit(Op, S.ElemBytes);
  return Rows % K == 0 && (Rows / K) * PowerOf2Ceil(S.W) % SG == 0;
}

/// The narrowest columns a piece (of one block) of operation \p S may
/// have: a transposed load's whole register rows of the transposed block;
/// any for a prefetch, which has no fragment; 0 (no split by columns)
/// otherwise.
static unsigned minPieceColumns(BlockOp Op, const BlockShape &S, unsigned SG) {
  if (Op != BlockOp::LoadTranspose && Op != BlockOp::Prefetch)
    return 0;
  uint64_t Hp = PowerOf2Ceil(S.H);
  return Op == BlockOp::Prefetch || Hp >= SG ? 1 : unsigned(SG / Hp);
}

std::optional<SplitPlan> planSplit(const XeChip &Chip, BlockOp Op,
                                   const BlockShape &S, unsigned SG) {
  if (!Chip.Has2DBlock || SG != 16 || !isPow2(S.H) || !isPow2(S.C) ||
      !isPow2(S.W) || checkShape(Chip, Op, S, SG).empty())
    return std::nullopt;
  std::optional<SplitPlan> Best;
  unsigned MinCols = minPieceColumns(Op, S, SG);
  // The fewest pieces; among equals, whole blocks rather than rows, rows
  // rather than columns.
  for (unsigned W = S.W; W >= 1 && (W == S.W || W >= MinCols); W /= 2)
    for (unsigned C = S.C; C >= 1; C /= 2)
      for (unsigned H = S.H; H >= 1; H /= 2) {
        // A transposed load's lanes hold its rows: only its blocks or
        // columns split; a piece of columns is of one block (a lane holds
        // block 0's columns, then block 1's).
        if ((H < S.H && C != 1) ||
            (H < S.H && (Op == BlockOp::LoadTranspose ||
                         !wholeRegisterRows(Op, S, H, SG))) ||
            (W < S.W && (H < S.H || MinCols == 0 || C != 1)))
          continue;
        BlockShape P{S.ElemBytes, W, H, C};
        if (!checkShape(Chip, Op, P, SG).empty())
          continue;
        unsigned N = (S.C / C) * (S.H / H) * (S.W / W);
        if (!Best || N < Best->Pieces)
          Best = SplitPlan{P, N};
      }
  return Best;
}

std::optional<SplitPlan> planWidthSplit(const XeChip &Chip, BlockOp Op,
                                        const BlockShape &S, unsigned SG) {
  if (!Chip.Has2DBlock || SG != 16 || Op != BlockOp::LoadTransform ||
      S.W <= 16 || !isPow2(S.W) || !isPow2(S.H) || !isPow2(S.C) ||
      checkShape(Chip, Op, S, SG).empty())
    return std::nullopt;
  unsigned N = S.W / 16;
  // Block b's columns are 16-wide blocks b * N .. b * N + N - 1.
  BlockShape P{S.ElemBytes, 16, S.H, S.C * N};
  if (!checkShape(Chip, Op, P, SG).empty())
    return std::nullopt;
  return SplitPlan{P, 1, N};
}

namespace {

/// Emits the pieces of one operation before it, then erases it.
class Splitter {
public:
  Splitter(const BlockCall &B, const SplitPlan &P) : B(B), P(P), Bld(B.CI) {}
  SmallVector<CallInst *, 8> run();

private:
  const BlockCall &B;
  const SplitPlan &P;
  IRBuilder<> Bld;

  /// Where the pieces write the lane's units: the fragment, or for a split
  /// by width a buffer they are reordered from.
  Value *Frag = nullptr;

  FunctionCallee callee() const;
  CallInst *piece(unsigned DX, unsigned DY, uint64_t Offset);
  void reorderColumns();
};

/// The OpenCL spelling names the shape: the piece's function has the same
/// parameters under the piece's name (re-mangled: `_Z<len><name><params>`).
FunctionCallee Splitter::callee() const {
  Function *F = B.CI->getCalledFunction();
  if (!B.OpenCLName)
    return F;
  StringRef Mangled = F->getName();
  StringRef Base = demangledBase(Mangled);
  size_t Cut = Base.rfind("b_");
  std::string Name = (Base.take_front(Cut + 2) + Twine(P.Piece.H) + "r" +
                      Twine(P.Piece.W) + "x" + Twine(P.Piece.C) + "c")
                         .str();
  if (Base.size() != Mangled.size()) {
    StringRef Params = Mangled.substr(Base.end() - Mangled.begin());
    Name = ("_Z" + Twine(Name.size()) + Name + Params).str();
  }
  Module &M = *F->getParent();
  FunctionCallee C = M.getOrInsertFunction(Name, F->getFunctionType());
  if (auto *NF = dyn_cast<Function>(C.getCallee())) {
    NF->copyAttributesFrom(F);
    NF->setCallingConv(F->getCallingConv());
  }
  return C;
}

CallInst *Splitter::piece(unsigned DX, unsigned DY, uint64_t Offset) {
  SmallVector<Value *, 10> Args(B.CI->args());
  auto *CoordTy = cast<FixedVectorType>(B.Coord->getType());
  Type *ElemTy = CoordTy->getElementType();
  Value *Coord = B.Coord;
  if (DX || DY)
    Coord = Bld.CreateAdd(B.Coord,
                          ConstantVector::get({ConstantInt::get(ElemTy, DX),
                                               ConstantInt::get(ElemTy, DY)}),
                          "xe.piece.coord");
  Value *Private = Frag ? Frag : B.Private;
  if (Private && Offset)
    Private = Bld.CreateConstInBoundsGEP1_64(Bld.getInt8Ty(), Private, Offset,
                                             "xe.piece.frag");
  for (Value *&A : Args) {
    if (A == B.Coord)
      A = Coord;
    else if (A == B.Private && Private)
      A = Private;
  }
  if (!B.OpenCLName) { // (ElemSize, W, H, C, ...)
    Args[1] = ConstantInt::get(Args[1]->getType(), P.Piece.W);
    Args[2] = ConstantInt::get(Args[2]->getType(), P.Piece.H);
    Args[3] = ConstantInt::get(Args[3]->getType(), P.Piece.C);
  }
  CallInst *CI = Bld.CreateCall(callee(), Args);
  CI->setCallingConv(B.CI->getCallingConv());
  CI->setAttributes(B.CI->getAttributes());
  CI->setDebugLoc(B.CI->getDebugLoc());
  // Each piece keeps the operation's cache controls (CacheHints.cpp) and
  // what its caller checks of its alignment (crosslane-xe-form-blocks).
  for (const char *MD : {CacheControlsMD, AlignmentCheckedMD})
    CI->setMetadata(MD, B.CI->getMetadata(MD));
  return CI;
}

/// After a split by width: lane unit k of the wide block b (row group
/// k / N, 16 columns k % N) is unit r of 16-wide block b * N + k % N.
void Splitter::reorderColumns() {
  const BlockShape &S = B.Shape;
  unsigned N = P.Columns;
  unsigned R = unsigned(laneBytes(B.Op, S, 16) / 4 / (S.C * N));
  Type *I32 = Bld.getInt32Ty();
  for (unsigned Blk = 0; Blk < S.C; ++Blk)
    for (unsigned K = 0; K < R * N; ++K) {
      unsigned From = (Blk * N + K % N) * R + K / N;
      Value *V = Bld.CreateAlignedLoad(
          I32, Bld.CreateConstInBoundsGEP1_64(I32, Frag, From), Align(4));
      Bld.CreateAlignedStore(
          V, Bld.CreateConstInBoundsGEP1_64(I32, B.Private, Blk * R * N + K),
          Align(4));
    }
}

SmallVector<CallInst *, 8> Splitter::run() {
  const BlockShape &S = B.Shape;
  if (P.Columns > 1) {
    BasicBlock &Entry = B.CI->getFunction()->getEntryBlock();
    IRBuilder<> AtEntry(&Entry, Entry.getFirstInsertionPt());
    uint64_t Bytes = laneBytes(B.Op, S, 16);
    Frag = AtEntry.CreateAlloca(ArrayType::get(AtEntry.getInt32Ty(), Bytes / 4),
                                B.Private->getType()->getPointerAddressSpace(),
                                nullptr, "xe.wide.frag");
    cast<AllocaInst>(Frag)->setAlignment(Align(64));
    SmallVector<CallInst *, 8> Pieces{piece(0, 0, 0)};
    reorderColumns();
    B.CI->eraseFromParent();
    return Pieces;
  }
  BlockShape OneBlock{S.ElemBytes, S.W, S.H, 1};
  BlockShape PieceBlock{S.ElemBytes, P.Piece.W, P.Piece.H, 1};
  uint64_t BlockBytes = laneBytes(B.Op, OneBlock, 16);
  uint64_t PieceBytes = laneBytes(B.Op, PieceBlock, 16);
  SmallVector<CallInst *, 8> Pieces;
  // Pieces of a block are of rows or (transposed) of columns, never both.
  for (unsigned Blk = 0; Blk < S.C; Blk += P.Piece.C)
    for (unsigned Row = 0; Row < S.H; Row += P.Piece.H)
      for (unsigned Col = 0; Col < S.W; Col += P.Piece.W)
        Pieces.push_back(piece(Blk * S.W + Col, Row,
                               Blk * BlockBytes +
                                   uint64_t(Row / P.Piece.H) * PieceBytes +
                                   uint64_t(Col / P.Piece.W) * PieceBytes));
  B.CI->eraseFromParent();
  return Pieces;
}

} // namespace

SmallVector<CallInst *, 8> splitBlockCall(const BlockCall &B,
                                          const SplitPlan &P) {
  return Splitter(B, P).run();
}

} // namespace xe
} // namespace crosslane
