//===- ConfigHeuristic.h - Choosing a reduction lowering config -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The config crosslane-reduce uses when none is given, from the problem
/// (sizes, element type, combiner) and the chip (wave size, compute units,
/// LDS). The rules are in docs/LoweringConfigs.md; every decision is
/// reported through \p Why.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LOWERINGCONFIG_CONFIGHEURISTIC_H
#define CROSSLANE_LOWERINGCONFIG_CONFIGHEURISTIC_H

#include "crosslane/LoweringConfig/LoweringConfig.h"

#include <vector>

namespace crosslane {
namespace lc {

/// Compute units of \p Chip (0 when Crosslane's table does not know it).
unsigned getComputeUnits(llvm::StringRef Chip);

/// Waves \p T issues from at once: compute units (64 when unknown) times
/// T.IssueSlotsPerCU. The cost measure and the heuristic divide the
/// workgroups' waves among them.
uint64_t concurrentWaves(const TargetDesc &T);

/// The heuristic's config for \p S on \p T; \p Why (if not null) receives
/// one line per decision.
LoweringConfig chooseConfig(const ReductionSpec &S, const TargetDesc &T,
                            std::vector<std::string> *Why = nullptr);

} // namespace lc
} // namespace crosslane

#endif // CROSSLANE_LOWERINGCONFIG_CONFIGHEURISTIC_H
