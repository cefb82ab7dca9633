//===- ReductionSpec.h - A reduction to generate a kernel for ---*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What crosslane-reduce is asked to build: an iteration space of parallel
/// and reduction dimensions (static or dynamic sizes), an element and an
/// accumulator type, a combiner, and the target it runs on. The memory
/// layout is fixed: the input is a dense row-major array over the iteration
/// space in dimension order, the output a dense row-major array over the
/// parallel dimensions in order (docs/LoweringConfigs.md).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LOWERINGCONFIG_REDUCTIONSPEC_H
#define CROSSLANE_LOWERINGCONFIG_REDUCTIONSPEC_H

#include "crosslane/SubgroupReduce/SubgroupOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace crosslane {
namespace lc {

using subgroup::ElemType;

enum class DimKind { Parallel, Reduction };

/// One dimension of the iteration space.
struct IterDim {
  DimKind Kind = DimKind::Parallel;
  uint64_t Size = 0; ///< 0 when dynamic (a kernel argument)
  bool isDynamic() const { return Size == 0; }
  bool isReduction() const { return Kind == DimKind::Reduction; }
};

/// The combiners of `--op`.
enum class Combiner {
  Add,
  Mul,
  Min, ///< integers: signed; floats: NaN ignored (IEEE minimumNumber)
  Max, ///< integers: signed; floats: NaN ignored (IEEE maximumNumber)
  UMin,
  UMax,
  Minimum, ///< floats: NaN-propagating (IEEE minimum)
  Maximum,
  And,
  Or,
  Xor,
  ArgMax,
  ArgMin,
};

const char *getName(Combiner C);
inline bool isArg(Combiner C) {
  return C == Combiner::ArgMax || C == Combiner::ArgMin;
}

/// The target a kernel is generated for.
/// The GPU family a generated kernel is for.
enum class TargetKind {
  AMDGPU, ///< amdgcn-amd-amdhsa, HIP's kernel ABI
  Xe, ///< spirv64 OpenCL kernels for Intel Xe (pvc, bmg, lnl, ptl, cri, dg2)
  Vortex, ///< riscv32 HIP kernels for a Vortex configuration
};

struct TargetDesc {
  TargetKind Kind = TargetKind::AMDGPU;
  std::string Chip;          ///< AMDGPU processor (gfx942), Xe chip (pvc) or
                             ///< vortex:<configuration>
  std::string Features;      ///< e.g. "+wavefrontsize64"
  unsigned WaveSize = 64;    ///< wave, subgroup or warp size
  unsigned LDSBytes = 65536; ///< addressable LDS per workgroup
  unsigned MaxWorkgroupSize = 1024; ///< HIP's flat work-group size limit
  unsigned ComputeUnits = 0;        ///< 0 when unknown
  /// Waves a compute unit issues from at once (the cost measure's SIMDs
  /// per CU): 4 on AMDGPU (and Xe, for want of a better model), a
  /// Vortex core's issue width 1.
  unsigned IssueSlotsPerCU = 4;

  bool isXe() const { return Kind == TargetKind::Xe; }
  bool isVortex() const { return Kind == TargetKind::Vortex; }
  bool isAMDGPU() const { return Kind == TargetKind::AMDGPU; }
  /// Vortex: the configuration's name (VortexISA.td).
  llvm::StringRef vortexConfig() const {
    return llvm::StringRef(Chip).split(':').second;
  }
};

/// Parses `<chip>[:w32|:w64]`: an AMDGPU processor LLVM knows (wave and
/// LDS sizes from LLVM's subtarget, ChipInfo), `<xe chip>[:w16|:w32]`
/// (subgroup size; local memory and work-group limits from the Xe chip
/// table, include/crosslane/Xe/XeBlockIO.td), or `vortex[:<config>]` (a
/// configuration of VortexISA.td: warp size, warps per core, local memory
/// and cores; `default` when none is named).
llvm::Expected<TargetDesc> parseTarget(llvm::StringRef S);

/// A reduction: iteration space, types and combiner.
struct ReductionSpec {
  std::vector<IterDim> Dims;
  ElemType Elem = ElemType::F32;
  ElemType Acc = ElemType::F32; ///< type of the accumulators and the output
  Combiner Op = Combiner::Add;
  ElemType Index = ElemType::I32; ///< arg ops: type of the index output
  unsigned ArgPolicy = 0;         ///< arg ops: subgroup::Policy* bits

  unsigned rank() const { return Dims.size(); }
  bool hasDynamicDims() const;
  /// The subgroup reduce operation of a non-arg combiner on Acc.
  subgroup::ReduceOp reduceOp() const;
  /// Number of reduced elements per output (0 when any reduction dim is
  /// dynamic), and of outputs (0 when any parallel dim is dynamic).
  uint64_t reductionSize() const;
  uint64_t outputSize() const;
  /// One line: "p4 x r16384, f16 -> f32, add".
  std::string str() const;
};

/// An error whose text starts with the option or attribute at fault.
inline llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// `--dims=p4,r16384,r?`.
llvm::Expected<std::vector<IterDim>> parseDims(llvm::StringRef S);
/// `--type=f16[:f32]` into \p Spec (Elem, Acc) once Op is set.
llvm::Error parseTypes(llvm::StringRef S, ReductionSpec &Spec);
/// `--op=add|...|argmax[:nan-wins][:zeros-equal]` into \p Spec.
llvm::Error parseCombiner(llvm::StringRef S, ReductionSpec &Spec);
/// Checks types against the combiner (argmax on i64 with an f32 accumulator
/// and the like).
llvm::Error checkSpec(const ReductionSpec &Spec);

} // namespace lc
} // namespace crosslane

#endif // CROSSLANE_LOWERINGCONFIG_REDUCTIONSPEC_H
