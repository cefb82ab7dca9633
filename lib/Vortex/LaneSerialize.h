//===- LaneSerialize.h - Run an instruction one Vortex lane at a time -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Some IR lowers to code with data-dependent branches Crosslane never sees:
/// library calls (picolibc, libgcc's soft double and 64-bit division), the
/// lr/sc loop of a compare-and-swap, the branch diamonds of RISC-V's f32
/// rounding. Under divergent operands those branches follow the last active
/// lane. Such an instruction runs inside a loop over the active lanes, each
/// alone (a uniform loop around a divergent `lane == next` test), which is
/// exact whatever the callee does.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_VORTEX_LANESERIALIZE_H
#define CROSSLANE_LIB_VORTEX_LANESERIALIZE_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
class Instruction;
class OptimizationRemarkEmitter;
class Value;
} // namespace llvm

namespace crosslane {

/// Why \p I must run one lane at a time when some operand is divergent, or
/// nullptr if its lowering is branch-free. \p Always is set for instructions
/// that need it whatever their operands (compare-and-swap).
const char *oneLaneReason(const llvm::Instruction &I, bool &Always);

/// Wraps every instruction of \p F that needs it (see oneLaneReason) in a
/// loop over the active lanes. \p IsDivergent tells divergent operands.
/// Returns the number of instructions wrapped.
unsigned
serializeLanes(llvm::Function &F,
               llvm::function_ref<bool(const llvm::Value *)> IsDivergent,
               llvm::OptimizationRemarkEmitter &ORE);

} // namespace crosslane

#endif // CROSSLANE_LIB_VORTEX_LANESERIALIZE_H
