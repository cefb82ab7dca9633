//===- AlignmentGuards.cpp - 2D block alignment rules at run time -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// SPV_INTEL_2d_block_io requires the base to be 64-byte aligned; the
// hardware ignores the low bits (research/xe-block-io.md §2), so an
// unaligned base silently reads the wrong elements. Where the alignment is
// not proven, the operation is rewritten as Triton's Intel back end does:
// base' = base & ~63, x' = x + (base & 63) / element size, width' = width +
// (base & 63). Element (r, c) of the block is at base' + (y + r) * pitch +
// (x' + c) * es, the same address as before, and it is in bounds exactly
// when it was ((x' + c) * es < width' iff (x + c) * es < width), so the
// operation reads and writes the same elements. The adjusted operation
// needs (base & 63) to be a multiple of max(4, es) (width' and x' keep the
// rules on width and x) and width' <= pitch and 2^24. Those, and x a
// multiple of 4 / es for 1- and 2-byte elements (x' has x's remainder), are
// checked at run time unless proven, and the other path does the operation
// with per-lane accesses.
//
//===----------------------------------------------------------------------===//

#include "BlockCalls.h"
#include "BlockShapes.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "crosslane-xe-block-io"

using namespace llvm;

CROSSLANE_STATISTIC(NumNormalised,
                    "Number of 2D block bases moved to a 64-byte boundary");
CROSSLANE_STATISTIC(NumGuarded, "Number of 2D block operations behind a "
                                "run-time alignment guard");

namespace crosslane {
namespace xe {

uint64_t provenBaseAlign(const BlockCall &B, AssumptionCache *AC,
                         const DominatorTree *DT) {
  const DataLayout &DL = B.CI->getDataLayout();
  KnownBits K = computeKnownBits(B.Base, DL, AC, B.CI, DT);
  uint64_t A =
      std::max<uint64_t>(B.Base->getPointerAlignment(DL).value(),
                         1ULL << std::min(K.countMinTrailingZeros(), 6u));
  return std::min<uint64_t>(A, 64);
}

XAlign xAlignment(const BlockCall &B, AssumptionCache *AC,
                  const DominatorTree *DT, uint64_t *Residue) {
  unsigned Es = B.Shape.ElemBytes;
  if (Es != 1 && Es != 2)
    return XAlign::Proven;
  Value *X = findScalarElement(B.Coord, 0);
  if (!X || !X->getType()->isIntegerTy(32))
    return XAlign::Unproven;
  KnownBits K = computeKnownBits(X, B.CI->getDataLayout(), AC, B.CI, DT);
  APInt Low = APInt::getLowBitsSet(32, Es == 1 ? 2 : 1);
  if ((K.One & Low) != 0) {
    if (Residue)
      *Residue = (K.One & Low).getZExtValue();
    return XAlign::Broken;
  }
  return (K.Zero & Low) == Low ? XAlign::Proven : XAlign::Unproven;
}

namespace {

constexpr uint64_t MaxSurfaceBytes = 1ULL << 24;

std::optional<uint64_t> constantOf(Value *V) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getZExtValue();
  return std::nullopt;
}

/// What the rewrite of one call needs at run time (null: proven).
struct Needs {
  Value *Guard = nullptr;
  std::string Checked; ///< what the guard checks, for the remark
};

/// The run-time guard \p B needs (null: none), its base moved when
/// \p NewW is set (\p Addr the base's address).
Needs needsOf(IRBuilder<> &Bld, const BlockCall &B, Value *Addr, Value *NewW) {
  Needs N;
  auto Add = [&](Value *Cond, const Twine &What) {
    N.Guard = N.Guard ? Bld.CreateAnd(N.Guard, Cond) : Cond;
    N.Checked += (N.Checked.empty() ? "" : " and ") + What.str();
  };
  unsigned Es = B.Shape.ElemBytes;
  if (B.XA == XAlign::Unproven) {
    uint64_t Mult = Es == 1 ? 4 : 2;
    Value *X = Bld.CreateExtractElement(B.Coord, uint64_t(0));
    Add(Bld.CreateICmpEQ(Bld.CreateAnd(X, Bld.getInt32(Mult - 1)),
                         Bld.getInt32(0)),
        "x is a multiple of " + Twine(Mult));
  }
  if (!NewW || B.CI->getMetadata(AlignmentCheckedMD))
    return N;
  uint64_t Known = B.BaseAlign;
  uint64_t Unit = std::max<uint64_t>(4, Es);
  uint64_t MaxOff = 64 - Known;
  if (Known < Unit)
    Add(Bld.CreateICmpEQ(Bld.CreateAnd(Addr, Bld.getInt64(Unit - 1)),
                         Bld.getInt64(0)),
        "the base is a multiple of " + Twine(Unit) + " bytes");
  std::optional<uint64_t> W = constantOf(B.Width), P = constantOf(B.Pitch);
  if (!(W && P && *P >= *W + MaxOff))
    Add(Bld.CreateICmpULE(NewW, B.Pitch),
        "the adjusted width is at most the pitch");
  if (!(W && *W + MaxOff <= MaxSurfaceBytes))
    Add(Bld.CreateICmpULE(NewW, Bld.getInt32(MaxSurfaceBytes)),
        "the adjusted width is at most 2^24 bytes");
  return N;
}

/// Puts \p B behind \p N's guard, the per-lane accesses on the other path;
/// returns the 2D call on the guarded path.
CallInst *guard(const BlockCall &B, const Needs &N) {
  Instruction *Then = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(N.Guard, B.CI, &Then, &Else);
  auto *Fast = cast<CallInst>(B.CI->clone());
  Fast->insertBefore(Then->getIterator());
  auto *Slow = cast<CallInst>(B.CI->clone());
  Slow->insertBefore(Else->getIterator());
  BlockCall SB = B;
  SB.CI = Slow;
  expandToPlainAccesses(SB);
  Slow->eraseFromParent();
  ++NumGuarded;
  return Fast;
}

void remark(OptimizationRemarkEmitter *ORE, const BlockCall &B, StringRef Chip,
            bool Moved, const Needs &N) {
  if (!ORE)
    return;
  ORE->emit([&] {
    OptimizationRemark R(DEBUG_TYPE, Moved ? "BaseNormalised" : "Guarded",
                         userDebugLoc(B.CI), B.CI->getParent());
    R << describeBlock(B.Op, B.Shape) << " on " << Chip;
    if (Moved) {
      uint64_t Known = B.BaseAlign;
      R << ": the base is not proven 64-byte aligned (known alignment "
        << ore::NV("KnownAlign", Known) << (Known == 1 ? " byte" : " bytes")
        << "); it is moved down to a 64-byte boundary at run time, with x "
           "and the width adjusted";
    }
    if (N.Guard)
      R << (Moved ? "; " : ": ")
        << (B.Op == BlockOp::Prefetch ? "skipped"
            : B.Op == BlockOp::Store  ? "per-lane stores"
                                      : "per-lane loads")
        << " unless " << N.Checked;
    return R;
  });
}

/// Rewrites \p B; returns the 2D call that replaces it.
CallInst *rewrite(const BlockCall &B, OptimizationRemarkEmitter *ORE,
                  StringRef Chip) {
  IRBuilder<> Bld(B.CI);
  bool Move = B.BaseAlign < 64;
  Value *Addr = nullptr, *NewBase = nullptr, *NewW = nullptr,
        *NewCoord = nullptr;
  if (Move) {
    Addr = Bld.CreatePtrToInt(B.Base, Bld.getInt64Ty());
    Value *Off = Bld.CreateAnd(Addr, Bld.getInt64(63), "crosslane.base.off");
    Value *Off32 = Bld.CreateTrunc(Off, Bld.getInt32Ty());
    NewBase = Bld.CreateGEP(Bld.getInt8Ty(), B.Base, Bld.CreateNeg(Off),
                            "crosslane.base");
    NewW = Bld.CreateAdd(B.Width, Off32, "crosslane.width");
    Value *X = Bld.CreateExtractElement(B.Coord, uint64_t(0));
    Value *NewX = Bld.CreateAdd(
        X, Bld.CreateLShr(Off32, Log2_32(B.Shape.ElemBytes)), "crosslane.x");
    NewCoord = Bld.CreateInsertElement(B.Coord, NewX, uint64_t(0));
    ++NumNormalised;
  }
  Needs N = needsOf(Bld, B, Addr, NewW);
  remark(ORE, B, Chip, Move, N);
  CallInst *Fast = N.Guard ? guard(B, N) : B.CI;
  if (Move) {
    Fast->setArgOperand(B.BaseOp, NewBase);
    Fast->setArgOperand(B.BaseOp + 1, NewW);
    Fast->setArgOperand(B.BaseOp + 4, NewCoord);
  }
  if (Fast != B.CI)
    B.CI->eraseFromParent();
  return Fast;
}

} // namespace

bool guardAlignment(SmallVectorImpl<BlockCall> &Calls,
                    OptimizationRemarkEmitter *ORE, StringRef Chip) {
  bool Changed = false;
  for (BlockCall &B : Calls) {
    if (B.BaseAlign >= 64 && B.XA != XAlign::Unproven)
      continue;
    CallInst *CI = rewrite(B, ORE, Chip);
    std::optional<BlockCall> New = decodeBlockCall(CI);
    assert(New && "the rewritten call is a 2D block call");
    B = *New;
    Changed = true;
  }
  return Changed;
}

} // namespace xe
} // namespace crosslane
