//===- BlockShapes.cpp - Xe 2D block IO: chips, shapes and rules ----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Sources (research/xe-block-io.md): the SPV_INTEL_2d_block_io
// "Restrictions" and "Mapping Block Data to Invocations" sections (§2.3,
// §2.5); IGC's Subgroup2DBlockIoResolution hardware constraint table and
// read rule (§4.1); compute-runtime's list of chips with the extension
// (§4.4).
//
//===----------------------------------------------------------------------===//

#include "BlockShapes.h"
#include "crosslane/Xe/XeBlockIO.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace crosslane {
namespace xe {

namespace {
struct XeBlockOpInfo {
  const char *Name;
  const char *NoElemWhy; ///< why an element size without limits is refused
};

/// Inclusive bounds for one element size (IGC's Constraints record).
struct Limits {
  unsigned MinH, MaxH, MinW, MaxW, MaxC, MinWC, MaxWC;
};

struct BlockLimit {
  BlockOp Op;
  unsigned ElemBytes;
  unsigned Gen; ///< on chips of this generation (XeChip::BlockGen) and later
  Limits L;
};
} // namespace

// The operations, chips and limits of include/crosslane/Xe/XeBlockIO.td.
#define GET_XE_BLOCK_OPS
#define GET_XE_BLOCK_GENS
#define GET_XE_BLOCK_LIMITS
#define GET_XE_GUARANTEED_SHAPES
#include "crosslane/Xe/XeBlockIO.inc"

ArrayRef<GuaranteedShape> guaranteedShapes() { return GuaranteedShapes; }

bool isGuaranteed(BlockOp Op, const BlockShape &S) {
  return any_of(GuaranteedShapes, [&](const GuaranteedShape &G) {
    return G.Op == Op && G.ElemBytes == S.ElemBytes && G.W == S.W &&
           G.H == S.H && G.C == S.C;
  });
}

StringRef opName(BlockOp Op) { return BlockOps[unsigned(Op)].Name; }

} // namespace xe

std::optional<XeChipLimits> xeChipLimits(StringRef Name) {
  const xe::XeChip *C = xe::lookupXeChip(Name);
  if (!C)
    return std::nullopt;
  return XeChipLimits{unsigned(C->LocalMemBytes),
                      unsigned(C->MaxWorkGroupSize)};
}

namespace xe {

std::string describeBlock(BlockOp Op, const BlockShape &S) {
  auto Num = [](unsigned V, uint64_t Scale = 1) {
    return V ? std::to_string(V * Scale) : std::string("?");
  };
  return ("2D block " + opName(Op) + " " + Num(S.ElemBytes, 8) + "b_" +
          Num(S.H) + "r" + Num(S.W) + "x" + Num(S.C) + "c")
      .str();
}

#define GET_XeChipTable_IMPL
#include "crosslane/Xe/XeBlockIOTables.inc"

std::string xeChipNames() {
  std::string S;
  for (const XeChip &C : XeChipTable)
    S += (S.empty() ? "" : ", ") + std::string(C.Name);
  return S;
}

const XeChip *widestXeChip() {
  const XeChip *Widest = nullptr;
  for (const XeChip &C : XeChipTable)
    if (C.Has2DBlock && (!Widest || C.BlockGen > Widest->BlockGen))
      Widest = &C;
  return Widest;
}

/// The rule \p S breaks of limit \p L, or "".
static std::string checkLimit(const Limits &L, BlockOp Op,
                              const BlockShape &S) {
  std::string Where =
      (Twine(" for ") + Twine(S.ElemBytes) + "-byte elements").str();
  if (S.H < L.MinH || S.H > L.MaxH)
    return (Twine("the block height must be ") + Twine(L.MinH) +
            (L.MinH == L.MaxH ? "" : (" to " + Twine(L.MaxH)).str()) + " rows" +
            Where)
        .str();
  if (S.W < L.MinW || S.W > L.MaxW)
    return (Twine("the block width must be ") + Twine(L.MinW) +
            (L.MinW == L.MaxW ? "" : (" to " + Twine(L.MaxW)).str()) +
            " elements" + Where)
        .str();
  if (S.C > L.MaxC)
    return (Twine("the block count must be at most ") + Twine(L.MaxC) + Where)
        .str();
  uint64_t WC = uint64_t(S.W) * S.C;
  if (WC < L.MinWC || WC > L.MaxWC)
    return (Twine("width x count must be ") +
            (L.MinWC == L.MaxWC ? Twine(L.MaxWC)
                                : "at most " + Twine(L.MaxWC)) +
            " elements (" + Twine(L.MaxWC * S.ElemBytes) + " bytes per row)" +
            Where)
        .str();
  return "";
}

/// What the limits of \p Op for \p S's element size that only chips of a
/// later generation than the first have add, as "; <gen> also has ...";
/// several are joined.
static std::string laterShapes(const XeChip &Chip, BlockOp Op,
                               unsigned ElemBytes) {
  std::string S;
  for (const BlockLimit &B : BlockLimits) {
    if (B.Op != Op || B.ElemBytes != ElemBytes || B.Gen == 0 ||
        B.Gen > Chip.BlockGen)
      continue;
    const Limits &L = B.L;
    auto Range = [](unsigned Lo, unsigned Hi) {
      return Lo == Hi ? std::to_string(Lo)
                      : std::to_string(Lo) + "-" + std::to_string(Hi);
    };
    S += (Twine("; ") + BlockGenNames[B.Gen] + " also has " +
          Range(L.MinH, L.MaxH) + " rows of " + Range(L.MinW, L.MaxW) +
          " elements" +
          (L.MaxC > 1 ? ", up to " + Twine(L.MaxC) + " blocks" : Twine()) +
          (L.MinWC > L.MinW || L.MaxWC < uint64_t(L.MaxW) * L.MaxC
               ? ", width x count " + Range(L.MinWC, L.MaxWC)
               : std::string()))
             .str();
  }
  return S;
}

/// The rule \p S breaks of the limits of \p Op for its element size on
/// \p Chip (those every chip has, else the reason of those; "" if the
/// limits of the chip's generation or an earlier one take it).
static std::string checkLimits(const XeChip &Chip, BlockOp Op,
                               const BlockShape &S) {
  const BlockLimit *Base = nullptr;
  for (const BlockLimit &B : BlockLimits)
    if (B.Op == Op && B.ElemBytes == S.ElemBytes && B.Gen == 0)
      Base = &B;
  if (!Base)
    return BlockOps[unsigned(Op)].NoElemWhy;
  std::string Rule = checkLimit(Base->L, Op, S);
  if (Rule.empty())
    return "";
  for (const BlockLimit &B : BlockLimits)
    if (B.Op == Op && B.ElemBytes == S.ElemBytes && B.Gen > 0 &&
        B.Gen <= Chip.BlockGen && checkLimit(B.L, Op, S).empty())
      return "";
  return Rule + laterShapes(Chip, Op, S.ElemBytes);
}

/// IGC's rule for reads: the subgroup's lanes must all get data (a 64-byte
/// register holds the block's rows).
static std::string checkLaneData(BlockOp Op, const BlockShape &S, unsigned SG) {
  uint64_t Block = uint64_t(S.W) * S.H * S.ElemBytes;
  if (Op == BlockOp::LoadTransform) {
    uint64_t SimdRead = uint64_t(SG) * 4;
    if (Block >= SimdRead || SimdRead == 64)
      return "";
  } else if (Op == BlockOp::Load || Op == BlockOp::LoadTranspose) {
    uint64_t SimdRead = uint64_t(SG) * S.ElemBytes;
    if (SimdRead <= alignTo(Block, 64) &&
        (SimdRead == 64 || Block >= 64 || S.C == 1 || (S.H == 1 && S.W >= SG)))
      return "";
  } else {
    return "";
  }
  return (Twine("a ") + Twine(SG) + "-lane subgroup needs more data than a " +
          Twine(S.H) + "x" + Twine(S.W) + " block of " + Twine(S.ElemBytes) +
          "-byte elements holds (IGC rejects it: unsupported block "
          "configuration)")
      .str();
}

std::string checkShape(const XeChip &Chip, BlockOp Op, const BlockShape &S,
                       unsigned SG) {
  if (SG != 16 && SG != 32)
    return "2D block operations need a subgroup size of 16 (or 32)";
  if (S.ElemBytes != 1 && S.ElemBytes != 2 && S.ElemBytes != 4 &&
      S.ElemBytes != 8)
    return "the element size must be 1, 2, 4 or 8 bytes";
  if (!isPow2(S.W) || !isPow2(S.H) || !isPow2(S.C))
    return "block width, height and count must be powers of two";
  if ((S.ElemBytes == 1 && S.W % 4) || (S.ElemBytes == 2 && S.W % 2))
    return "the block width must be a multiple of 4 for 1-byte elements and "
           "of 2 for 2-byte elements";
  if (Op == BlockOp::Store && S.C != 1)
    return "a store writes one block (count 1)";
  std::string Rule = checkLimits(Chip, Op, S);
  if (!Rule.empty())
    return Rule;
  return checkLaneData(Op, S, SG);
}

std::string checkWidth(uint64_t Width, unsigned ElemBytes) {
  if (Width < 64 || Width > (uint64_t(1) << 24))
    return "the surface width must be between 64 bytes and 2^24 bytes";
  if (Width % std::max(4u, ElemBytes))
    return "the surface width must be a multiple of 4 bytes (1- and 2-byte "
           "elements) or of the element size";
  return "";
}

std::string checkHeight(uint64_t Rows) {
  if (Rows == 0 || Rows > (uint64_t(1) << 24))
    return "the surface height must be between 1 and 2^24 rows";
  return "";
}

std::string checkPitch(uint64_t Pitch) {
  if (Pitch % 16)
    return "the pitch must be a multiple of 16 bytes";
  if (Pitch > (uint64_t(1) << 24))
    return "the pitch must be at most 2^24 bytes";
  return "";
}

std::string checkPitchVsWidth(uint64_t Pitch, uint64_t Width) {
  if (Pitch < Width)
    return "the pitch must be at least the surface width";
  return "";
}

std::string checkX(int64_t X, unsigned ElemBytes) {
  if ((ElemBytes == 1 && X % 4) || (ElemBytes == 2 && X % 2))
    return "the x coordinate must be a multiple of 4 elements (1-byte) or of "
           "2 elements (2-byte)";
  return "";
}

uint64_t laneBytes(BlockOp Op, const BlockShape &S, unsigned SG) {
  uint64_t Wp = PowerOf2Ceil(S.W), Es = S.ElemBytes;
  uint64_t Units = 0, UnitBytes = Es;
  switch (Op) {
  case BlockOp::Prefetch:
    return 0;
  case BlockOp::Load:
  case BlockOp::Store:
    Units = divideCeil(S.H * Wp, SG);
    break;
  case BlockOp::LoadTransform: {
    uint64_t K = 4 / Es, Hp = alignTo(S.H, K);
    Units = divideCeil((Hp / K) * Wp, SG);
    UnitBytes = 4;
    break;
  }
  case BlockOp::LoadTranspose:
    Units = divideCeil(S.W * PowerOf2Ceil(S.H), SG);
    break;
  }
  return S.C * std::max<uint64_t>(Units, 1) * UnitBytes;
}

} // namespace xe
} // namespace crosslane
