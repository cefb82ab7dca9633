//===- BlockCalls.h - Xe 2D block IO calls in LLVM IR -----------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A 2D block operation as it appears in IR, in either spelling
/// (`__spirv_Subgroup2DBlock*INTEL` or `intel_sub_group_2d_block_*`), and
/// the lowering of valid reads to the flat 2D read builtins of IGC
/// 1.0.12504 (Debian 12's Intel compiler, which knows neither spelling).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_XE_BLOCKCALLS_H
#define CROSSLANE_LIB_XE_BLOCKCALLS_H

#include "BlockShapes.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace llvm {
class AssumptionCache;
class CallInst;
class DominatorTree;
class Function;
class OptimizationRemarkEmitter;
class Value;
} // namespace llvm

namespace crosslane {
namespace xe {

/// What is proven of x's alignment rule for 1- and 2-byte elements.
enum class XAlign { Proven, Broken, Unproven };

struct BlockCall {
  llvm::CallInst *CI = nullptr;
  BlockOp Op = BlockOp::Load;
  bool OpenCLName = false;
  BlockShape Shape;
  /// Why the call cannot be read (a wrong operand count), or empty.
  std::string Malformed;
  /// SPIR-V spelling: the shape operands that are not constants.
  llvm::SmallVector<llvm::StringRef, 4> NonConstant;
  llvm::Value *Base = nullptr, *Width = nullptr, *Height = nullptr,
              *Pitch = nullptr, *Coord = nullptr, *Private = nullptr;
  /// The call operand that is Base; width, height, pitch and coordinate
  /// follow it in both spellings.
  unsigned BaseOp = 0;
  /// Proven at validation, while the function's dominator tree is valid
  /// (provenBaseAlign, xAlignment); kept by the pieces of a split.
  uint64_t BaseAlign = 1;
  XAlign XA = XAlign::Unproven;
};

/// The chip crosslane-xe-block-io and crosslane-xe-form-blocks use when
/// their chip= is empty: -crosslane-xe-chip (default pvc).
llvm::StringRef defaultXeChip();

/// \p CI as a 2D block operation, if it is one.
std::optional<BlockCall> decodeBlockCall(llvm::CallInst *CI);

/// How to split an operation whose shape the chip lacks into pieces it has
/// (SplitBlocks.cpp): \p Pieces operations of shape \p Piece.
struct SplitPlan {
  BlockShape Piece;
  unsigned Pieces = 0;
  /// 16-wide blocks per block of the operation when it is split by its
  /// width (planWidthSplit); 1 otherwise.
  unsigned Columns = 1;
};

/// The split of \p Op with shape \p S on \p Chip into the fewest pieces of
/// one legal shape, keeping each lane's fragment a concatenation of the
/// pieces' fragments (blocks, rows, or a transposed load's or a
/// prefetch's columns); std::nullopt if the shape is legal or cannot be
/// split so (the width of other operations, a transposed load's rows,
/// subgroup size other than 16).
std::optional<SplitPlan> planSplit(const XeChip &Chip, BlockOp Op,
                                   const BlockShape &S, unsigned SG);

/// The split of a VNNI load wider than 16 that \p Chip lacks (Xe2's 32-
/// and 64-wide VNNI on pvc) into one load of 16-wide blocks side by side,
/// whose units each lane then puts in the order the wide load gives them
/// (the hardware's: columns L, L + 16, ... of each row group);
/// std::nullopt if there is none.
std::optional<SplitPlan> planWidthSplit(const XeChip &Chip, BlockOp Op,
                                        const BlockShape &S, unsigned SG);

/// Replaces \p B by the pieces of \p P (same spelling; x, y and the
/// fragment pointer advanced per piece) and returns them.
llvm::SmallVector<llvm::CallInst *, 8> splitBlockCall(const BlockCall &B,
                                                      const SplitPlan &P);

/// For lower=igc, before the alignment guards: replaces each of \p Valid
/// (subgroup size 16) that IGC 1.0.12504 has no flat builtin for by its
/// per-lane accesses (PlainFallback.cpp; prefetches dropped) and takes it
/// out of \p Valid, with a missed remark saying why. Returns whether it
/// changed the function (per-lane stores add blocks).
bool lowerWithoutIGCBuiltin(llvm::SmallVectorImpl<BlockCall> &Valid,
                            llvm::OptimizationRemarkEmitter *ORE,
                            llvm::StringRef Chip);

/// Replaces each read of \p Valid (already checked, subgroup size 16) that
/// IGC 1.0.12504 has a flat builtin for by that builtin, storing its result
/// to the per-lane buffer, with a remark (lowerWithoutIGCBuiltin reported
/// the others). Returns whether it changed anything.
bool lowerToIGCFlatReads(llvm::ArrayRef<BlockCall> Valid,
                         llvm::OptimizationRemarkEmitter *ORE,
                         llvm::StringRef Chip);

/// The base's alignment as far as it is proven at \p B's call (bytes, at
/// most 64), from known bits, alignment attributes and \p AC's assumptions
/// (e.g. `__builtin_assume(((ulong)p & 63) == 0)`).
uint64_t provenBaseAlign(const BlockCall &B, llvm::AssumptionCache *AC,
                         const llvm::DominatorTree *DT);

/// What is known at \p B's call of the rule that x be a multiple of 4
/// (1-byte elements) or 2 (2-byte elements); \p Residue gets x's known
/// remainder when Broken. Proven for other element sizes.
XAlign xAlignment(const BlockCall &B, llvm::AssumptionCache *AC,
                  const llvm::DominatorTree *DT, uint64_t *Residue = nullptr);

/// Metadata on a 2D call whose caller checks at run time what moving its
/// base down to 64 bytes needs (a base that is a multiple of 4 bytes, the
/// moved width within the pitch): crosslane-xe-form-blocks' calls.
constexpr const char *AlignmentCheckedMD = "crosslane.xe.alignment.checked";

/// Metadata on a 2D call whose base carried a cache hint of the tile API
/// (CacheHints.cpp): !{i32 L1, i32 L3}, kept by clones and split pieces
/// until applyCacheHints turns it into SPV_INTEL_cache_controls.
constexpr const char *CacheControlsMD = "crosslane.xe.cache";

/// The tile API's cache hints (block_io.h: a base wrapped in
/// __crosslane_xe_cache_controls(base, L1, L3)): checks each against the
/// operation that uses it, moves it to the operation as CacheControlsMD
/// (dropped, with a missed remark, where no 2D operation remains: chips
/// without 2D hardware, \p LowerIGC) and removes the wrapper calls.
/// Errors and remarks only with \p ORE. Returns whether it changed \p F.
bool peelCacheHints(llvm::Function &F, const XeChip &Chip, bool LowerIGC,
                    llvm::OptimizationRemarkEmitter *ORE);

/// Replaces each call of the tile API's cache hint wrapper in \p F by its
/// pointer; returns whether there was one.
bool stripCacheHints(llvm::Function &F);

/// Decorates the base of each 2D call with CacheControlsMD, as LLVM 22's
/// SPIR-V back end takes it: a fresh pointer (a zero-offset GEP) wrapped in
/// llvm.ptr.annotation with "{6442:\"0,L1\"}{6442:\"1,L3\"}" (6443 for
/// stores) becomes OpDecorate CacheControl{Load,Store}INTEL on it.
bool applyCacheHints(llvm::Function &F, const XeChip &Chip,
                     llvm::OptimizationRemarkEmitter *ORE);

/// True for the shapes whose lane order the extension's text and Intel's
/// hardware disagree on (research/xe-block-io.md §6.3): transposed loads of
/// more than 16 rows and VNNI loads wider than 16. The text gives lane i
/// cells 2i and 2i + 1 of a row; IGC, XeGPU's lane layouts and the hardware
/// give it cells i and i + 16 (and i + 32, i + 48), and Crosslane follows
/// them: the per-lane accesses and the executor's Xe model.
inline bool laneOrderDisputed(BlockOp Op, const BlockShape &S) {
  return (Op == BlockOp::LoadTranspose && S.H > 16) ||
         (Op == BlockOp::LoadTransform && S.W > 16);
}

/// For valid operations (subgroup size 16) whose base is not proven
/// 64-byte aligned: moves the base down to the 64-byte boundary at run time
/// and adds what it moved by to x and the surface width (Triton's
/// normalisation; the same elements are in bounds). Then, for what the
/// operation needs and is not proven (x's alignment for 1- and 2-byte
/// elements; after a move, a base aligned to max(4, element size) and the
/// adjusted width within the pitch and 2^24), a run-time guard with the
/// per-lane accesses (PlainFallback.cpp) on the other path. \p Calls become
/// the 2D operations left; returns whether it added blocks.
bool guardAlignment(llvm::SmallVectorImpl<BlockCall> &Calls,
                    llvm::OptimizationRemarkEmitter *ORE, llvm::StringRef Chip);

/// Emits before \p B's call the per-lane accesses that do what it does
/// (PlainFallback.cpp; subgroup size 16); the call stays.
void expandToPlainAccesses(const BlockCall &B);

/// Replaces each of \p Valid (subgroup size 16) by the per-lane loads or
/// stores that give each lane its fragment (PlainFallback.cpp): for chips
/// without 2D block hardware. Prefetches are dropped.
bool lowerToPlainAccesses(llvm::ArrayRef<BlockCall> Valid,
                          llvm::OptimizationRemarkEmitter *ORE,
                          llvm::StringRef Chip);

} // namespace xe
} // namespace crosslane

#endif // CROSSLANE_LIB_XE_BLOCKCALLS_H
