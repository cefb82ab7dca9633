//===- Executor.h - Wave-level executor for GPU LLVM IR ---------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The public interface of the wave executor: run one kernel of an LLVM IR
/// module over a grid of workgroups, each made of waves of W lanes, with an
/// exec mask per wave and per-lane poison tracking. The engine (Engine.cpp)
/// is target independent; everything specific to a GPU (intrinsics, address
/// spaces, dispatch packet, cross-lane semantics) lives behind TargetModel.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_EXECUTOR_EXECUTOR_H
#define CROSSLANE_EXECUTOR_EXECUTOR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace crosslane {
namespace exec {

class TargetModel;

/// One kernel argument: a buffer (pointer to a global allocation the caller
/// owns) or a scalar bit pattern.
struct KernelArg {
  bool IsBuffer = false;
  unsigned Buffer = 0; ///< index into the buffer list passed to run()
  uint64_t Bits = 0;   ///< scalar value, zero-extended
  /// > 0: a workgroup-local buffer of this many bytes (an OpenCL __local
  /// kernel argument); the argument is its local-memory address.
  uint32_t LocalBytes = 0;
};

/// Launch shape and arguments.
struct LaunchConfig {
  std::array<unsigned, 3> Grid = {1, 1, 1};  ///< workgroups per dimension
  std::array<unsigned, 3> Block = {1, 1, 1}; ///< work-items per workgroup
  std::vector<KernelArg> Args;
  uint64_t MaxLaneInstructions = 4000000000ULL; ///< runaway-loop guard
  uint32_t DynamicLDS = 0; ///< bytes of dynamic LDS (extern __shared__)
};

/// Counters of one or more runs.
struct ExecStats {
  uint64_t LaneInstructions = 0; ///< instructions times active lanes
  uint64_t WaveInstructions = 0; ///< instructions executed per wave
  /// Per workgroup, the sum over its barrier phases of the instructions of
  /// its longest wave in the phase; summed over workgroups.
  uint64_t CriticalPath = 0;
  uint64_t Waves = 0;
  double Seconds = 0;
};

/// Runs kernels of one module. Not thread safe.
class Executor {
public:
  Executor(llvm::Module &M, std::unique_ptr<TargetModel> Target);
  ~Executor();

  /// Runs \p Kernel over \p Cfg. \p Buffers are the global buffers the
  /// arguments refer to; they are read and written in place. Errors carry
  /// the IR location of the failing instruction.
  llvm::Error run(llvm::Function &Kernel, const LaunchConfig &Cfg,
                  std::vector<std::vector<uint8_t>> &Buffers);

  const ExecStats &stats() const;
  TargetModel &target();

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

/// Registers the default builtins (__ocml_* math). Idempotent; the
/// Executor constructor calls it.
void registerDefaultBuiltins();

} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_EXECUTOR_EXECUTOR_H
