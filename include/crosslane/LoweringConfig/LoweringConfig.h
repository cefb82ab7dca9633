//===- LoweringConfig.h - IREE-style reduction lowering configs -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// IREE's lowering config for reductions (LLVMGPU vector distribute):
/// `workgroup`, `thread` and `partial_reduction` tile sizes, `lane_basis` and
/// `subgroup_basis` (counts + mapping). parseLoweringConfig reads IREE's own
/// attribute syntax (`#iree_gpu.lowering_config<{...}>` or the bare `{...}`
/// dictionary); planDistribution checks a config against a reduction and a
/// target and derives what every thread does (Distribution), which the
/// kernel generator follows exactly. Every error names the attribute and
/// the rule it breaks.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LOWERINGCONFIG_LOWERINGCONFIG_H
#define CROSSLANE_LOWERINGCONFIG_LOWERINGCONFIG_H

#include "crosslane/LoweringConfig/ReductionSpec.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

namespace crosslane {
namespace lc {

/// `[[counts], [mapping]]`: delinearise an id with `counts` (last fastest),
/// then basis coordinate j goes to iteration dimension mapping[j].
struct Basis {
  llvm::SmallVector<int64_t, 4> Counts;
  llvm::SmallVector<int64_t, 4> Mapping;
  int64_t product() const;
};

struct LoweringConfig {
  llvm::SmallVector<int64_t, 4> Workgroup;
  llvm::SmallVector<int64_t, 4> Thread;
  llvm::SmallVector<int64_t, 4> PartialReduction;
  Basis Lane;
  Basis Subgroup;
  /// Keys of the text that crosslane-reduce does not use (warnings).
  std::vector<std::string> Ignored;

  /// IREE's attribute syntax, keys in alphabetical order as IREE prints.
  void print(llvm::raw_ostream &OS) const;
  std::string str() const;
};

/// Parses `#iree_gpu.lowering_config<{...}>` or `{...}`. `reduction` is read
/// as `partial_reduction` when the latter is absent.
llvm::Expected<LoweringConfig> parseLoweringConfig(llvm::StringRef Text);

/// \p X delinearised by \p Counts: element 0 is c0 = X / product (the outer
/// bound), then c1..cn.
llvm::SmallVector<uint64_t, 5> delinearize(uint64_t X,
                                           llvm::ArrayRef<int64_t> Counts);

/// Prints `[a, b, c]`.
template <typename T>
void printList(llvm::raw_ostream &OS, llvm::ArrayRef<T> A) {
  OS << '[';
  const char *Sep = "";
  for (const T &V : A) {
    OS << Sep << V;
    Sep = ", ";
  }
  OS << ']';
}

/// What the config means for one iteration dimension.
struct DimPlan {
  IterDim Dim;
  unsigned Lanes = 1;     ///< lane_basis count mapped to this dimension
  unsigned Subgroups = 1; ///< subgroup_basis count mapped to it
  unsigned Thread = 1;    ///< elements per load (reduction dims)
  /// Parallel: the workgroup tile W; reduction: the chunk S.
  uint64_t Tile = 1;
  /// Tile / (Subgroups * Lanes * Thread): loads of one thread per chunk
  /// (reduction) or outputs of one thread per dimension (parallel).
  uint64_t Batch = 1;
  /// Reduction: chunks, ceil(Size / Tile) (0 when dynamic); parallel:
  /// workgroup tiles along it.
  uint64_t Steps = 1;
};

/// One cross-lane step: a clustered subgroup reduction over the lanes that
/// differ in a run of reduction coordinates of lane_basis.
struct LaneStep {
  unsigned ClusterSize = 1;
  unsigned ClusterStride = 1;
};

/// A validated config: the distribution the kernel implements.
struct Distribution {
  ReductionSpec Spec;
  TargetDesc Target;
  LoweringConfig Config;
  std::vector<DimPlan> Dims;
  unsigned SubgroupSize = 64;
  unsigned NumSubgroups = 1;
  unsigned WorkgroupSize = 64;
  /// Subgroups whose partial results are merged through LDS (product of
  /// subgroup counts on reduction dimensions).
  unsigned ReductionSubgroups = 1;
  unsigned Accumulators = 1; ///< outputs per thread (product of batches)
  uint64_t TileOutputs = 1;  ///< outputs per workgroup
  unsigned LDSBytes = 0;
  llvm::SmallVector<LaneStep, 2> LaneSteps;
  /// Facts the user should see (elided loops, masked tails, ...).
  std::vector<std::string> Notes;

  /// Workgroups for the given sizes of the dynamic dimensions (in order).
  uint64_t numWorkgroups(llvm::ArrayRef<uint64_t> DynSizes = {}) const;
  /// A human summary of the distribution.
  void print(llvm::raw_ostream &OS) const;
  /// The seed's step-by-step explanation for one thread id of a workgroup.
  llvm::Error explain(uint64_t ThreadId, llvm::raw_ostream &OS) const;
};

/// Checks \p Cfg against \p Spec and \p Target; the error text starts with
/// the name of the offending attribute.
llvm::Expected<Distribution> planDistribution(const ReductionSpec &Spec,
                                              const LoweringConfig &Cfg,
                                              const TargetDesc &Target);

/// Maximum accumulators (parallel outputs) one thread may hold.
inline constexpr unsigned MaxAccumulators = 64;
/// Maximum elements one thread loads per chunk (unrolled).
inline constexpr unsigned MaxThreadTile = 64;

} // namespace lc
} // namespace crosslane

#endif // CROSSLANE_LOWERINGCONFIG_LOWERINGCONFIG_H
