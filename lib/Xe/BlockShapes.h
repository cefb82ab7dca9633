//===- BlockShapes.h - Xe 2D block IO: chips, shapes and rules --*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The facts the 2D block IO validator checks, kept apart from IR: which
/// chips have the hardware, the block shapes each operation accepts there
/// (IGC's hardware constraint table), the memory-geometry rules of
/// SPV_INTEL_2d_block_io, and how many bytes of the block each lane holds.
/// Each check returns the rule a value breaks, in words, or an empty string.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_XE_BLOCKSHAPES_H
#define CROSSLANE_LIB_XE_BLOCKSHAPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace crosslane {
namespace xe {

// Load, LoadTransform, LoadTranspose, Prefetch, Store
// (include/crosslane/Xe/XeBlockIO.td).
#define GET_XE_BLOCK_OP_ENUM
#include "crosslane/Xe/XeBlockIO.inc"

/// "load", "load-transform (VNNI)", ...
llvm::StringRef opName(BlockOp Op);

struct BlockShape;
/// "2D block load 16b_8r16x2c": the operation and its shape as the
/// OpenCL builtin names it ('?' for a size that is not a constant).
std::string describeBlock(BlockOp Op, const BlockShape &S);

/// One chip's 2D block facts (research/xe-block-io.md §4.1, §4.4).
/// A chip: Name (pvc, bmg, lnl, ptl, cri, dg2), Family ("Xe-HPC", "Xe2",
/// "Xe3", "Xe3P", "Xe-HPG"), Has2DBlock (cl_intel_subgroup_2d_block_io
/// advertised), BlockGen (its 2D block messages: 0 Xe-HPC, 1 Xe2 with VNNI
/// rows up to 64 bytes, 2 Xe3P with wider transposes and 256-byte prefetch
/// rows). XeBlockIO.td's XeChip.
#define GET_XeChipTable_STRUCT
#include "crosslane/Xe/XeBlockIOStructs.inc"

/// The chip named \p Name, or nullptr.
const XeChip *lookupXeChip(llvm::StringRef Name);
/// The chip with 2D blocks of the latest generation (every shape any chip
/// has).
const XeChip *widestXeChip();
/// The chip names, comma-separated (for diagnostics and --help).
std::string xeChipNames();

/// A block: element size in bytes, width (elements per block row, before
/// any transpose), height (rows), count (blocks side by side).
struct BlockShape {
  unsigned ElemBytes = 0, W = 0, H = 0, C = 0;
};

/// The rule \p S breaks for \p Op on \p Chip with \p SubgroupSize lanes
/// (IGC's LSC 2D block constraints and its "subgroup needs more data than
/// loaded" rule), or "".
std::string checkShape(const XeChip &Chip, BlockOp Op, const BlockShape &S,
                       unsigned SubgroupSize);

/// Rules on the surface, each for a value known at compile time
/// (SPV_INTEL_2d_block_io "Restrictions"; the 2^24 pitch bound is IGC's and
/// Triton's).
/// A shape the OpenCL SPIR-V environment guarantees on every device with
/// cl_intel_subgroup_2d_block_io (subgroup size 16; XeBlockIO.td).
struct GuaranteedShape {
  BlockOp Op;
  unsigned ElemBytes, W, H, C;
};
llvm::ArrayRef<GuaranteedShape> guaranteedShapes();
/// True if \p S is one of them for \p Op.
bool isGuaranteed(BlockOp Op, const BlockShape &S);

std::string checkWidth(uint64_t WidthBytes, unsigned ElemBytes);
std::string checkHeight(uint64_t Rows);
std::string checkPitch(uint64_t PitchBytes);
std::string checkPitchVsWidth(uint64_t PitchBytes, uint64_t WidthBytes);
std::string checkX(int64_t X, unsigned ElemBytes);

/// Bytes of the block one lane holds (the per-lane private buffer's size):
/// the spec's padding and row distribution (§2.5), at least one element.
uint64_t laneBytes(BlockOp Op, const BlockShape &S, unsigned SubgroupSize);

inline bool isPow2(uint64_t V) { return V && !(V & (V - 1)); }

} // namespace xe
} // namespace crosslane

#endif // CROSSLANE_LIB_XE_BLOCKSHAPES_H
