//===- ReductionKernel.h - Reduction kernels from a distribution -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds the LLVM IR kernel that computes a reduction exactly as a
/// validated lowering config distributes it (Distribution): per-thread
/// serial accumulation over `thread` elements per load, the outer
/// partial-reduction loops, Crosslane's clustered subgroup reduce /
/// argmax / argmin across the lanes of each reduction run of lane_basis,
/// and the merge of the reduction subgroups through LDS. Tails are masked
/// with the identity. The kernel:
///
///   void crosslane_reduce(ptr addrspace(1) in, ptr addrspace(1) out,
///                         [ptr addrspace(1) out_index,]   ; arg ops
///                         i64 n<d>...)                    ; dynamic dims
///
/// launched with numWorkgroups() x 1 x 1 workgroups of WorkgroupSize x 1 x 1.
/// The target's part (lib/LoweringConfig/KernelTarget.h): an amdgcn HIP
/// kernel, a spirv64 OpenCL kernel for Intel Xe, or a riscv32 HIP kernel
/// for Vortex with the entry, kernel record and local memory of
/// crosslane-vortex-abi (what crosslane-hipcc --target=vortex makes of a
/// HIP kernel).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LOWERINGCONFIG_REDUCTIONKERNEL_H
#define CROSSLANE_LOWERINGCONFIG_REDUCTIONKERNEL_H

#include "crosslane/LoweringConfig/LoweringConfig.h"

#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace crosslane {
namespace lc {

inline constexpr const char *KernelName = "crosslane_reduce";

struct KernelOptions {
  bool Optimize = true; ///< run LLVM's O2 pipeline on the generated kernel
  bool Expand = true;   ///< expand the subgroup operations (DPP, ...)
};

/// Builds the kernel of \p D in a new module of \p Ctx.
llvm::Expected<std::unique_ptr<llvm::Module>>
generateReductionKernel(const Distribution &D, llvm::LLVMContext &Ctx,
                        const KernelOptions &Opts = {});

/// Maximum loads one thread issues per step (accumulators times elements
/// per load), all unrolled.
inline constexpr unsigned MaxUnrolledLoads = 256;

} // namespace lc
} // namespace crosslane

#endif // CROSSLANE_LOWERINGCONFIG_REDUCTIONKERNEL_H
