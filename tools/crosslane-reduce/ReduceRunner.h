//===- ReduceRunner.h - Run generated reductions against a reference ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs a generated reduction kernel in the wave executor on random and
/// adversarial inputs and compares every output with a host reference
/// written from the combiner's definition (not from the distribution).
/// Integer results, min/max and arg-reductions compare bit for bit (a NaN
/// result as any NaN for min/max); float add/mul results within the
/// order-independent error bound n * u * sum|x| (add) or n * u * |prod|
/// (mul), and with the special-value class the inputs force.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_TOOLS_REDUCERUNNER_H
#define CROSSLANE_TOOLS_REDUCERUNNER_H

#include "crosslane/LoweringConfig/LoweringConfig.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
}

namespace crosslane {
namespace exec {
class TargetModel;
} // namespace exec
namespace lc {

struct RunTotals {
  unsigned Cases = 0;
  uint64_t Mismatches = 0;
  uint64_t WaveInstructions = 0; ///< executor's count over all cases
};

/// The executor's target model for \p T (AMDGPU chip or Xe subgroup size).
std::unique_ptr<exec::TargetModel> makeTargetModel(const TargetDesc &T,
                                                   std::string &Err);

/// Runs \p M (generated for \p D) with the dynamic sizes \p DynSizes on
/// every input pattern; reports the first mismatches on \p Log.
llvm::Expected<RunTotals> runCases(const Distribution &D, llvm::Module &M,
                                   llvm::ArrayRef<uint64_t> DynSizes,
                                   unsigned Seed, llvm::raw_ostream &Log);

} // namespace lc
} // namespace crosslane

#endif // CROSSLANE_TOOLS_REDUCERUNNER_H
