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
/// caller supplies its value, threadIdx.x. A chain of lane maps (of any
/// cross-lane read) combined by a selection is summarised by the set of
/// lanes each lane's final value covers (reductionLanes).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_LANEMAP_H
#define CROSSLANE_LIB_ARGRECOGNITION_LANEMAP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class CallInst;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace crosslane {
namespace argrec {

/// The low \p Bits bits of \p V.
inline uint64_t maskTo(uint64_t V, unsigned Bits) {
  return Bits >= 64 ? V : V & ((uint64_t(1) << Bits) - 1);
}
/// Every lane of a \p W-lane wave, as a lane mask.
inline uint64_t allLanes(unsigned W) { return maskTo(~uint64_t(0), W); }
/// \p V's low \p Bits bits, sign-extended.
inline int64_t sext(uint64_t V, unsigned Bits) {
  return Bits >= 64 ? int64_t(V) : int64_t(V << (64 - Bits)) >> (64 - Bits);
}

/// The least and greatest values of a \p Bits-bit integer (below 64 bits),
/// signed or not.
inline std::pair<int64_t, int64_t> intRange(unsigned Bits, bool Signed) {
  return Signed ? std::pair(-(int64_t(1) << (Bits - 1)),
                            (int64_t(1) << (Bits - 1)) - 1)
                : std::pair(int64_t(0), (int64_t(1) << Bits) - 1);
}

using LaneValue = std::optional<int64_t>;
using LaneVector = llvm::SmallVector<int64_t, 64>;

/// True if \p V is threadIdx.x: the intrinsic, or ROCm's
/// `__ockl_get_local_id(0)` when device libraries are not linked in.
bool isWorkItemIdX(const llvm::Value *V);
/// True if \p V is threadIdx.x, .y or .z (below 1024 in HIP's model).
bool isWorkItemId(const llvm::Value *V);

/// True if \p V is a thread's linear id in its block built on threadIdx.x:
/// an add of threadIdx.x (or of such an id) and a term that reads
/// threadIdx.y or threadIdx.z (`threadIdx.y * blockDim.x + threadIdx.x`).
/// Its value is what a lane map is evaluated on, like threadIdx.x's; the
/// rewrite's guard checks at run time that it is below 1024 and the lane
/// id modulo the wave size, since nothing is known of the other term.
bool isLinearThreadId(const llvm::Value *V);

/// The thread ids a lane map was evaluated on: threadIdx.x reads and linear
/// thread ids (see isLinearThreadId).
using TidLeafSet = llvm::SmallSetVector<llvm::Value *, 2>;

/// An instruction as a lane operation, decoded once, so that evaluating it
/// in every lane of a wave costs a few operations per lane.
struct LaneOp {
  enum KindTy : uint8_t {
    Opaque, ///< not a lane expression
    MbcntLo,
    MbcntHi, ///< mbcnt.lo/hi(-1, base): base + lanes below
    Select,
    Freeze,
    ZExtOrTrunc,
    SExt,
    ICmp,
    Binary
  } Kind = Opaque;
  unsigned Opcode = 0;  ///< Binary: the opcode; ICmp: the predicate
  unsigned SrcBits = 0; ///< casts and ICmp: the operand's width
  unsigned Bits = 0;    ///< casts and Binary: the result's width
};

/// What \p I computes in a lane, as a LaneOp (Opaque when it is not a lane
/// expression: only integer operations and mbcnt are).
LaneOp decodeLaneOp(const llvm::Instruction *I);

/// \p Op in every lane of a \p Wave-lane wave into \p Out, from its
/// operands' values in every lane (nullptr: cannot be evaluated); false if
/// some lane has no value.
bool evalLaneRow(const LaneOp &Op, llvm::ArrayRef<const LaneVector *> Ops,
                 unsigned Wave, LaneVector &Out);

/// Evaluates \p V in lane \p L; nullopt when it depends on anything but the
/// lane id and constants, or threadIdx.x or a linear thread id (added to
/// \p Leaves) when \p TidX gives its value.
LaneValue evalLane(llvm::Value *V, unsigned L, unsigned Wave,
                   std::optional<unsigned> TidX = std::nullopt,
                   TidLeafSet *Leaves = nullptr, unsigned Depth = 0);

/// The xor offset of a lane map (lane L reads Src[L] = L ^ Offset), or -1.
int xorOffsetOf(llvm::ArrayRef<unsigned> Src);

/// True if in every segment of \p Cluster lanes, each lane L whose L + D is
/// still in the segment reads lane L + D (__shfl_down's in-range lanes; what
/// the others read never reaches a segment's first lane).
bool isDownMap(llvm::ArrayRef<unsigned> Src, unsigned D, unsigned Cluster);

/// A lane map entry for a lane that reads nothing usable: a zero fill, or
/// an old value that is undefined or not the lane's own.
constexpr unsigned NoLane = ~0u;

/// The 32-bit word a cross-lane read moves between lanes (ds_bpermute's
/// data, the source of update.dpp / mov.dpp / ds.swizzle / permlane16 /
/// permlanex16 / permlane64, readlane's value), or nullptr for other calls.
llvm::Value *exchangedWord(const llvm::CallInst *CI);
/// The operand number of exchangedWord, or NoLane.
unsigned exchangedWordOperand(const llvm::CallInst *CI);
/// True if \p F holds a cross-lane read (a call exchangedWordOperand knows).
bool hasExchanges(const llvm::Function &F);

/// The i64 whose low word \p V (an i64) provably shares, through the
/// operations that keep it: `ashr (shl X, 32), 32`, `sext`/`zext (trunc X)`,
/// `and X, 0xFFFFFFFF` (an `int` index widened to `long long`, whose low
/// word InstCombine cuts from the unwidened value), `(H << 32) + X` (a row
/// number added in the high word). \p V itself otherwise.
llvm::Value *lowWordSource(llvm::Value *V);

/// Where a chain of lane maps leaves a complete reduction.
struct ReductionLanes {
  unsigned Cluster = 0; ///< the lanes are combined in aligned groups of this
  uint64_t Lanes = 0;   ///< the lanes whose value covers their whole group
};

/// Follows \p Maps (each: the lane every lane reads, or NoLane) as stages
/// that each keep the better of a lane's value and the value it reads, for
/// a total order (so the order of combination and repeats do not matter):
/// lane L's value is the best over a set of lanes. Returns the largest
/// aligned group size some lane covers exactly, with the lanes that do;
/// lanes that read NoLane, or a lane that did, hold nothing usable.
std::optional<ReductionLanes>
reductionLanes(llvm::ArrayRef<llvm::SmallVector<unsigned, 64>> Maps,
               unsigned W);

/// The lanes of the aligned \p C-lane group holding lane \p L.
uint64_t groupOf(unsigned L, unsigned C);

/// "lane 63", "lanes 16-31", "the first lane of each 16-lane group", or
/// "N lanes" for \p Lanes of a \p W-lane wave.
std::string describeLanes(uint64_t Lanes, unsigned W, unsigned Cluster);

/// The lanes of a \p W-lane wave that are the first of a \p Cluster-lane
/// group.
uint64_t segmentStarts(unsigned W, unsigned Cluster);

/// True if \p Cond taking the value \p Want in lane L implies
/// that L is one of \p Lanes, for every lane of a \p W-lane wave. A condition
/// on threadIdx.x is tried with threadIdx.x = L + k * W for every k a 1024-item
/// block allows, which holds exactly when threadIdx.x % W is the lane id (1-D
/// blocks); \p UsesTid is then set: a run-time check must confirm that.
/// The thread ids the condition reads are added to \p Leaves.
bool impliesLaneIn(llvm::Value *Cond, bool Want, unsigned W, uint64_t Lanes,
                   bool &UsesTid, TidLeafSet *Leaves = nullptr);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_LANEMAP_H
