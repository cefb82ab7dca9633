//===- XeTarget.h - The executor's Intel Xe target model --------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL/SPIR-V kernels (spirv64, spir_kernel) run by subgroups of 16
/// lanes: the OpenCL work-item and subgroup queries, and the 2D block
/// operations with the memory-side semantics of SPV_INTEL_2d_block_io
/// (out-of-bounds elements read 0, stores to them are dropped) and two
/// register-side layouts written apart from each other: the extension's
/// "Mapping Block Data to Invocations" for both 2D spellings, and the
/// hardware register image (vISA LOAD_BLOCK2D: rows padded to a power of
/// two, blocks to 64-byte registers, element k of lane i at word k * 16 + i)
/// for IGC 1.0.12504's flat read builtins. See docs/Executor.md.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_EXECUTOR_XETARGET_H
#define CROSSLANE_EXECUTOR_XETARGET_H

#include "crosslane/Executor/Engine.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace crosslane {
namespace exec {

/// True if \p M is spirv64 code (OpenCL/SPIR-V kernels).
bool isXeModule(const llvm::Module &M);

/// The Xe target model (subgroups of \p SubgroupSize lanes).
std::unique_ptr<TargetModel> createXeTarget(unsigned SubgroupSize,
                                            std::string &Err);

} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_EXECUTOR_XETARGET_H
