//===- VortexLaneOps.h - The recogniser's lane primitives per target ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the arg-reduction recogniser needs from a target besides its lane
/// maps: Vortex warp shuffles as exchanges (hip_runtime.h's
/// `.insn r 0x0b, F3, 1` with a constant operand), and the ballot, lane id
/// and threadIdx.x its run-time guards read, for AMDGPU and Vortex.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_VORTEXLANEOPS_H
#define CROSSLANE_LIB_ARGRECOGNITION_VORTEXLANEOPS_H

#include "crosslane/Support/ChipInfo.h"

#include "llvm/IR/IRBuilder.h"

#include <optional>
#include <string>

namespace crosslane {
namespace argrec {

/// A Vortex shuffle with a constant operand (research/vortex.md §1.3).
struct VortexShuffle {
  unsigned Kind = 0; ///< funct3: 4 up, 5 down, 6 bfly, 7 idx
  uint32_t Bc = 0;   ///< (segment mask << 12) | (clamp << 6) | b
  llvm::Value *Data = nullptr;
};

/// \p CI as a Vortex shuffle of an i32 with a constant operand.
std::optional<VortexShuffle> decodeVortexShuffle(const llvm::CallInst *CI);

/// The lane \p Lane reads with shuffle \p S on \p Warp-lane warps (simx
/// alu_unit.cpp): an out-of-range source reads the lane's own value.
unsigned vortexShuffleSource(const VortexShuffle &S, unsigned Lane,
                             unsigned Warp);

/// The Vortex CSR \p V reads (`csrr`), if it is such a read.
std::optional<unsigned> vortexCSRRead(const llvm::Value *V);

/// The chip facts of a Vortex function whose warp size is known (the
/// recogniser needs the lane maps of a fixed warp); std::nullopt otherwise.
std::optional<ChipInfo> vortexRecognitionChip(const llvm::Function &F);

/// The chip crosslane-recognize-arg works for in \p F: Vortex's (above) or
/// an AMDGPU chip's facts; std::nullopt for any other function.
std::optional<ChipInfo> recognitionChip(const llvm::Function &F);

/// True for the facts vortexRecognitionChip gives.
inline bool isVortexChip(const ChipInfo &Chip) { return Chip.CPU == "vortex"; }

/// The target as remarks name it: "gfx942 wave64", "Vortex warp16".
std::string describeTarget(const ChipInfo &Chip);

/// A ballot of \p Cond over the active lanes as an iW mask (W = wave size).
llvm::Value *buildBallot(llvm::IRBuilderBase &B, const ChipInfo &Chip,
                         llvm::Value *Cond);
/// The lane's index in its wave or warp.
llvm::Value *buildLaneIndex(llvm::IRBuilderBase &B, const ChipInfo &Chip);
/// threadIdx.x.
llvm::Value *buildThreadIdX(llvm::IRBuilderBase &B, const ChipInfo &Chip);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_VORTEXLANEOPS_H
