//===- ConfigSearch.h - Crosslane's cost measure and config search --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The cost measure that ranks configs: the wave executor runs workgroup 0
/// of the generated (optimised, expanded) kernel and measures its critical
/// path P (per barrier phase, the instructions of its longest wave); with N
/// workgroups of w waves on a chip of C compute units (4 SIMDs each, a wave
/// per SIMD at a time), the estimate in wave-instruction issue slots is
///
///   slots = ceil(N * w / (4 * C)) * P
///
/// (rounds of workgroups the SIMDs run, times one workgroup's duration). It
/// models issue, not memory: every config of a problem reads the same bytes.
/// searchConfigs enumerates a bounded config space and ranks it by it.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_TOOLS_CONFIGSEARCH_H
#define CROSSLANE_TOOLS_CONFIGSEARCH_H

#include "crosslane/LoweringConfig/LoweringConfig.h"

namespace llvm {
class LLVMContext;
}

namespace crosslane {
namespace lc {

struct Cost {
  uint64_t WaveInstructionsPerWorkgroup = 0;
  uint64_t CriticalPath = 0; ///< of workgroup 0
  uint64_t Workgroups = 0;
  unsigned WavesPerWorkgroup = 1;
  double Slots = 0;
};

/// Wave-instruction slots for \p Workgroups of \p Waves waves whose
/// critical path is \p CriticalPath, \p SIMDs waves at a time
/// (concurrentWaves).
double issueSlots(uint64_t CriticalPath, uint64_t Workgroups, unsigned Waves,
                  uint64_t SIMDs);

/// The cost of \p D (static sizes only).
llvm::Expected<Cost> measureCost(const Distribution &D, llvm::LLVMContext &Ctx);

/// planDistribution then measureCost: the cost of \p C for \p S on \p T.
llvm::Expected<Cost> measureConfig(const ReductionSpec &S,
                                   const LoweringConfig &C, const TargetDesc &T,
                                   llvm::LLVMContext &Ctx);
/// Every config of the bounded space that is valid for \p S on \p T: lanes
/// and subgroups on the last reduction dimension and the innermost parallel
/// one, thread tiles up to twice the 128-bit load, batches up to 2
/// (reduction) and 4 (parallel).
std::vector<LoweringConfig> enumerateConfigs(const ReductionSpec &S,
                                             const TargetDesc &T);

/// A local refinement of the heuristic's config \p C by the cost measure:
/// its neighbours with the reduction chunk doubled (two loads per thread per
/// iteration), the thread tile halved or doubled, and the workgroup tile of
/// the innermost parallel dimension doubled are measured with \p C, and the
/// cheapest wins (ties keep \p C). Static sizes only; \p Why gets one line.
LoweringConfig refineConfig(const ReductionSpec &S, const TargetDesc &T,
                            const LoweringConfig &C, llvm::LLVMContext &Ctx,
                            std::vector<std::string> &Why);

} // namespace lc
} // namespace crosslane

#endif // CROSSLANE_TOOLS_CONFIGSEARCH_H
