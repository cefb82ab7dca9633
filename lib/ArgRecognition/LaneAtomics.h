//===- LaneAtomics.h - One atomic per wave for per-lane atomics -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The packed-key argmin idiom ends in `atomicMin(&result, key)` from every
/// thread: one atomic per lane, which LLVM 22's atomic optimizer turns into
/// a readlane loop (one iteration per active lane). When every lane targets
/// the same address and nobody reads the atomic's result, the lanes' values
/// can be combined first: one Crosslane reduction over the active lanes
/// (DPP after expansion) and one atomic from the first active lane. min,
/// max, and, or, xor and (wrapping) add give the same value in any order
/// and grouping, so the memory ends identical; LLVM's atomic optimizer makes
/// the same exchange, lane by lane.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_LANEATOMICS_H
#define CROSSLANE_LIB_ARGRECOGNITION_LANEATOMICS_H

#include "crosslane/Support/ChipInfo.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/Function.h"

namespace crosslane {
namespace argrec {

/// Rewrites the integer `atomicrmw` add/and/or/xor/min/max/umin/umax of
/// \p F whose address is uniform, whose value is not, whose result is
/// unused and which are not volatile, as a `__crosslane_reduce_*` over the
/// wave plus one atomic from the first active lane. Remarks name each one
/// rewritten and each one left alone with its reason. Returns whether \p F
/// changed (its CFG then did too).
bool combineLaneAtomics(llvm::Function &F, const ChipInfo &Chip,
                        const llvm::UniformityInfo &UI,
                        llvm::OptimizationRemarkEmitter &ORE);

/// Whether \p F has an atomic combineLaneAtomics looks at (so the caller
/// computes uniformity only then).
bool hasLaneAtomics(llvm::Function &F);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_LANEATOMICS_H
