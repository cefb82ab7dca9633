//===- LaneMap.h - Lane expressions of a wave, evaluated -------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The recogniser decides what a `ds_bpermute` reads, and which lanes a
/// branch lets through, by evaluating the address or condition for every
/// lane of the chip's wave: the expression may use the lane id (`mbcnt`),
/// constants, integer arithmetic, compares and selects, and, where the
/// caller supplies its value, threadIdx.x.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_LANEMAP_H
#define CROSSLANE_LIB_ARGRECOGNITION_LANEMAP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace crosslane {
namespace argrec {

/// The low \p Bits bits of \p V.
inline uint64_t maskTo(uint64_t V, unsigned Bits) {
  return Bits >= 64 ? V : V & ((uint64_t(1) << Bits) - 1);
}
/// \p V's low \p Bits bits, sign-extended.
inline int64_t sext(uint64_t V, unsigned Bits) {
  return Bits >= 64 ? int64_t(V) : int64_t(V << (64 - Bits)) >> (64 - Bits);
}

using LaneValue = std::optional<int64_t>;
using LaneVector = llvm::SmallVector<int64_t, 64>;

/// True if \p V is threadIdx.x: the intrinsic, or ROCm's
/// `__ockl_get_local_id(0)` when device libraries are not linked in.
bool isWorkItemIdX(const llvm::Value *V);

/// The value of \p I in lane \p L of a \p Wave-lane wave from its operands'
/// values there (nullopt for an operand that cannot be evaluated; a select
/// ignores its untaken arm); nullopt when \p I is not a lane expression.
LaneValue evalLaneOp(llvm::Instruction *I, llvm::ArrayRef<LaneValue> Ops,
                     unsigned L, unsigned Wave);

/// Evaluates \p V in lane \p L; nullopt when it depends on anything but the
/// lane id and constants, or threadIdx.x when \p TidX gives its value.
LaneValue evalLane(llvm::Value *V, unsigned L, unsigned Wave,
                   std::optional<unsigned> TidX = std::nullopt,
                   unsigned Depth = 0);

/// The xor offset of a lane map (lane L reads Src[L] = L ^ Offset), or -1.
int xorOffsetOf(llvm::ArrayRef<unsigned> Src);

/// True if in every segment of \p Cluster lanes, each lane L whose L + D is
/// still in the segment reads lane L + D (__shfl_down's in-range lanes; what
/// the others read never reaches a segment's first lane).
bool isDownMap(llvm::ArrayRef<unsigned> Src, unsigned D, unsigned Cluster);

/// True if \p Cond taking the value \p Want in lane L implies
/// L % \p Cluster == 0, for every lane of a \p W-lane wave. A condition on
/// threadIdx.x is tried with threadIdx.x = L + k * W for every k a
/// 1024-item block allows, which holds exactly when threadIdx.x % W is the
/// lane id (1-D blocks); \p UsesTid is then set: a run-time check must
/// confirm that.
bool impliesSegmentStart(llvm::Value *Cond, bool Want, unsigned W,
                         unsigned Cluster, bool &UsesTid);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_LANEMAP_H
