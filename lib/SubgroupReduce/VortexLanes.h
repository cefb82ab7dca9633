//===- VortexLanes.h - Vortex warp primitives for expansion ---*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What crosslane-expand-subgroup needs from a Vortex warp: the lane index,
/// the thread mask, butterfly and indexed shuffles and a ballot. Each is a
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
/// L xor \p M (its own when that lane is past the warp).
llvm::Value *buildVortexBfly(llvm::IRBuilderBase &B, llvm::Value *Word,
                             unsigned M, unsigned KnownWarpSize);
/// vx_shfl_idx over the whole warp: each lane reads \p Word (i32) of lane
/// \p Src (i32, a lane of the warp).
llvm::Value *buildVortexShflIdx(llvm::IRBuilderBase &B, llvm::Value *Word,
                                llvm::Value *Src);
/// vx_vote_ballot of \p Cond (i1) over the active lanes: an i32 lane mask.
llvm::Value *buildVortexBallot(llvm::IRBuilderBase &B, llvm::Value *Cond);
/// The lane's index in its warp (CSR 0xCC0).
llvm::Value *buildVortexLaneId(llvm::IRBuilderBase &B);

} // namespace subgroup
} // namespace crosslane

#endif // CROSSLANE_LIB_SUBGROUPREDUCE_VORTEXLANES_H
