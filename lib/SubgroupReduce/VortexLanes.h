//===- VortexLanes.h - Vortex warp primitives for expansion ---*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Vortex warp shuffles crosslane-expand-subgroup builds (the lane
/// index, thread mask and ballot come from VortexISA.h). Each is a
/// convergent, side-effecting inline-asm call. Facts: simx alu_unit.cpp
/// (ShflType, VoteType) and ../shared/research/vortex.md section 1.3;
/// docs/SubgroupOps.md explains how the expansion uses them.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_SUBGROUPREDUCE_VORTEXLANES_H
#define CROSSLANE_LIB_SUBGROUPREDUCE_VORTEXLANES_H

namespace llvm {
class Function;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace crosslane {
namespace subgroup {

/// The largest warp a Vortex configuration can have (the shuffle operand's
/// lane fields are 6 bits; every configuration shipped has at most 32).
inline constexpr unsigned VortexMaxWarpSize = 32;

/// vx_shfl_bfly over the whole warp: lane L reads \p Word (i32) of lane
/// L xor \p M (its own when that lane is past the warp). The operand is
/// loaded inside the instruction's asm, unless \p OperandInRegister (a
/// whole-warp launch's call, without a path for lanes that are off): then it
/// is an operand LLVM may keep in a register across loops, as the HIP
/// header's shuffles do.
llvm::Value *buildVortexBfly(llvm::IRBuilderBase &B, llvm::Value *Word,
                             unsigned M, unsigned KnownWarpSize,
                             bool OperandInRegister = false);
/// vx_shfl_idx over the whole warp: each lane reads \p Word (i32) of lane
/// \p Src (i32, a lane of the warp).
llvm::Value *buildVortexShflIdx(llvm::IRBuilderBase &B, llvm::Value *Word,
                                llvm::Value *Src);
} // namespace subgroup
} // namespace crosslane

#endif // CROSSLANE_LIB_SUBGROUPREDUCE_VORTEXLANES_H
