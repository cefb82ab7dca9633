//===- VortexTarget.h - Vortex model of the wave executor ----*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The executor's model of the Vortex v3.0 RISC-V GPGPU (KMU launch model),
/// for the device IR `crosslane-hipcc --target=vortex -S -emit-llvm` writes
/// (before or after crosslane-vortex-divergence): a warp of NUM_THREADS
/// lanes, CSR reads, Vortex's warp-control, vote and shuffle instructions
/// (inline asm, decoded by crosslane::vortex::decodeAsm), kernel entries
/// that take a pointer to an argument blob laid out as the module's
/// `.crosslane.vortex.meta` says, and the CTA's local memory at the address
/// CSR 0xCDF returns. Two control-flow semantics:
///   * Structured: the engine's reconverging lanes (the meaning of the
///     program before the divergence lowering); split/join/pred/tmc are
///     errors there;
///   * Hardware: what simx does (sim/simx/wctl_unit.cpp, alu_unit.cpp,
///     barrier_unit.cpp): branches follow the warp's last active lane, only
///     split/join/pred/tmc change the thread mask, barriers count warp
///     arrivals. See docs/Executor.md, "Vortex target model".
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_EXECUTOR_VORTEXTARGET_H
#define CROSSLANE_EXECUTOR_VORTEXTARGET_H

#include "crosslane/Executor/Engine.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace crosslane {
namespace exec {

/// The configuration facts the model needs (a Vortex build's
/// config/cflags.txt: VX_CFG_NUM_THREADS, VX_CFG_NUM_WARPS, ...). The
/// defaults are Vortex's default configuration.
struct VortexConfig {
  unsigned Threads = 4;      ///< lanes per warp (the wave size)
  unsigned Warps = 4;        ///< warps per core: a block has at most
                             ///< Warps * Threads threads
  unsigned LmemLogSize = 14; ///< local memory per core: 2^LmemLogSize bytes
  unsigned Cores = 1;        ///< cores (times clusters)
  unsigned Barriers = 8;     ///< barriers per CTA slot
  std::string Name = "built-in default (4 warps x 4 threads)";
};

enum class VortexSemantics { Hardware, Structured };

/// "hardware" or "structured".
bool parseVortexSemantics(llvm::StringRef S, VortexSemantics &Out);

/// Reads \p Dir/config/cflags.txt into \p C. False with \p Err if the file
/// is missing or lacks VX_CFG_NUM_THREADS / VX_CFG_NUM_WARPS.
bool readVortexConfig(llvm::StringRef Dir, VortexConfig &C, std::string &Err);

/// The configuration VortexISA.td records under \p Name (case-insensitive),
/// named `<Name> (W warps x T threads, from VortexISA.td)`; false if the
/// table has none of that name.
bool tableVortexConfig(llvm::StringRef Name, VortexConfig &C);

/// True if \p M is riscv32 code with Vortex functions (attribute
/// "crosslane-vortex" or target feature +xvortex).
bool isVortexModule(const llvm::Module &M);

/// The function to run for kernel \p Name of a Vortex module: the entry
/// `__crosslane_vx_entry.<mangled>` of the HIP kernel whose mangled name is
/// \p Name or whose demangled name starts with \p Name (`kNested`,
/// `kNested(int const*, int*, int)`), or the function named \p Name. An
/// empty \p Name picks the module's only kernel. nullptr and \p Err (which
/// lists the kernels) otherwise.
llvm::Function *findVortexKernel(llvm::Module &M, llvm::StringRef Name,
                                 std::string &Err);

/// Makes \p M what the machine runs, under hardware semantics (a no-op for
/// structured ones): the machine computes plain bits where the IR says
/// poison, so every instruction's poison-generating flags, metadata and
/// return attributes go (nsw, nuw, exact, disjoint, nneg, samesign,
/// nnan/ninf, !range, ...), as instruction selection drops them; and a
/// select of a value RISC-V keeps in an FP register (float with +f) becomes
/// the branch diamond instruction selection makes of it, which the warp's
/// last active lane decides.
void prepareVortexModule(llvm::Module &M, VortexSemantics S);

/// The Vortex target model for \p M (whose kernel meta it reads).
std::unique_ptr<TargetModel> createVortexTarget(const llvm::Module &M,
                                                const VortexConfig &C,
                                                VortexSemantics S,
                                                std::string &Err);

} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_EXECUTOR_VORTEXTARGET_H
