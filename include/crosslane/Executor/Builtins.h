//===- Builtins.h - Native semantics for calls the executor meets -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The wave executor runs LLVM IR instruction by instruction. Calls to
/// functions that have no body (Crosslane's portable subgroup operations
/// `__crosslane_*`, the `__ockl_*`/`__ocml_*` helpers HIP headers call when
/// device libraries are not linked) are dispatched to a *builtin*: a C++
/// function that computes the result for every active lane of the wave at
/// once. Builtins are registered by name prefix; the longest matching prefix
/// wins.
///
/// This is the seam between the executor (lib/Executor) and the reference
/// semantics of Crosslane's operations (lib/SubgroupReduce/Reference*.cpp):
/// running a module *before* expansion executes the reference; running it
/// *after* executes the DPP/permlane code lane by lane; the differential
/// harness compares the two.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_EXECUTOR_BUILTINS_H
#define CROSSLANE_EXECUTOR_BUILTINS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace llvm {
class CallBase;
class Function;
class Type;
} // namespace llvm

namespace crosslane {
namespace exec {

/// One scalar operand or result (integer, floating point or pointer, at most
/// 64 bits) in every lane of a wave. Lane I's value is Bits[I], zero-extended
/// from the type's width. Bit I of Poison says lane I holds poison.
struct LaneScalars {
  llvm::Type *Ty = nullptr;
  llvm::SmallVector<uint64_t, 64> Bits;
  uint64_t Poison = 0;
};

/// What a builtin may ask of the executor while it runs.
class BuiltinContext {
public:
  virtual ~BuiltinContext();
  /// Wave size (32 or 64) of the running wave.
  virtual unsigned waveSize() const = 0;
  /// Bit I set: lane I executes this call.
  virtual uint64_t activeMask() const = 0;
  /// Runs \p F for one lane with scalar arguments (bit patterns as in
  /// LaneScalars) and returns its scalar result's bit pattern. Used for
  /// user-supplied comparators; F must not touch memory or cross lanes.
  virtual llvm::Expected<uint64_t> callScalar(llvm::Function &F,
                                              llvm::ArrayRef<uint64_t> Args,
                                              unsigned Lane) = 0;
};

/// Computes a call. \p Args holds one entry per call operand; \p Results one
/// entry per result (one for a scalar return, one per element for a literal
/// struct return such as {float, i32}), with Ty and Bits already sized to
/// the wave. Only active lanes need to be written. Returning an error stops
/// the run with that message and the call's source location.
/// The math function \p Fn (its OpenCL and OCML base name: sqrt, exp,
/// fmax, fma, mad, ...) of \p Args, bit patterns of floating-point scalars
/// of type \p Ty, computed with the host's libm in double and rounded once
/// (fma and mad on float: fmaf); std::nullopt if \p Fn with that many
/// operands is not modelled or \p Ty is not floating point.
std::optional<uint64_t> mathFunction(llvm::StringRef Fn, llvm::Type *Ty,
                                     llvm::ArrayRef<uint64_t> Args);

using BuiltinFn =
    std::function<llvm::Error(BuiltinContext &Ctx, const llvm::CallBase &Call,
                              llvm::ArrayRef<LaneScalars> Args,
                              llvm::MutableArrayRef<LaneScalars> Results)>;

/// Registers \p Fn for every called function whose name starts with
/// \p Prefix. Later registrations of the same prefix replace earlier ones.
void registerBuiltin(llvm::StringRef Prefix, BuiltinFn Fn);

/// The builtin for \p Name (longest registered prefix), or nullptr.
const BuiltinFn *lookupBuiltin(llvm::StringRef Name);

} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_EXECUTOR_BUILTINS_H
