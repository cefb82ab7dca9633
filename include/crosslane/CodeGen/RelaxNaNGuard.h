//===- RelaxNaNGuard.h - Relax fmin/fmax NaN guards -------------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-relax-nan-guard: a code-generation-time rewrite of the fmin/fmax
/// (IEEE minnum/maxnum-style) reductions crosslane-expand-subgroup emits.
///
/// The expansion is exact on any LLVM: NaN lanes are replaced by the
/// identity, the steps are `nnan` (so LLVM 22's backend needs no
/// canonicalize and GCNDPPCombine fuses each step into one v_max_f32_dpp),
/// and a ballot turns an all-NaN cluster into the canonical NaN. It marks
/// that guard with !crosslane.nan.guard metadata ("entry" on the NaN ->
/// identity select, "result" on the all-NaN select).
///
/// When Crosslane is loaded into the code generator too (clang
/// -fpass-plugin, llc -load), this pass removes the guard: the steps become
/// plain llvm.maxnum/minnum over a quiet-NaN identity, which is the
/// reduction's own semantics (a NaN is ignored, all-NaN gives a NaN) without
/// the 4 guard instructions, and it marks the function with the
/// "crosslane-relaxed-minmax" attribute so that DropMinMaxQuieting may drop
/// the canonicalizes LLVM 22 puts on the moved operands. Only a guard whose
/// whole chain it recognises is rewritten; anything else stays as emitted.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_CODEGEN_RELAXNANGUARD_H
#define CROSSLANE_CODEGEN_RELAXNANGUARD_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"

namespace llvm {
class FunctionPass;
class Instruction;
} // namespace llvm

namespace crosslane {

/// The metadata kind of the guard's two selects.
inline constexpr llvm::StringLiteral NaNGuardMD = "crosslane.nan.guard";
/// The function attribute set once a guard has been removed.
inline constexpr llvm::StringLiteral RelaxedMinMaxAttr =
    "crosslane-relaxed-minmax";

enum class NaNGuardRole { Entry, Result };

/// Marks \p I (a select) as the \p Role part of a NaN guard.
void tagNaNGuard(llvm::Instruction &I, NaNGuardRole Role);

/// True when \p F is strictfp or calls llvm.canonicalize or
/// llvm.maximumnum/minimumnum (whose lowering relies on the operand quieting
/// DropMinMaxQuieting drops): such a function keeps its guards and its
/// quietings.
bool needsQuieting(const llvm::Function &F);

/// True for the intrinsics needsQuieting looks for.
bool isQuietingIntrinsic(llvm::Intrinsic::ID ID);

/// needsQuieting for the code generator's passes, answered from the
/// module's declarations of those intrinsics and their uses rather than by
/// reading the function (whose IR is cold by then). The code generator's IR
/// passes (its inliner, atomic expansion) may add such calls between the two
/// Crosslane passes; a declaration added since the last look comes at the
/// end of the module's function list, which is looked at again when it has
/// grown. With many such calls in the module, the function is read instead.
class QuietingCalls {
public:
  bool in(const llvm::Function &F);

private:
  void refresh(const llvm::Module &M);

  const llvm::Module *Indexed = nullptr;
  llvm::WeakVH Last; ///< the module's last function when it was looked at
  llvm::SmallVector<llvm::WeakVH, 4> Decls;
};

/// Removes every recognised NaN guard of \p F; true if any was removed.
bool relaxNaNGuards(llvm::Function &F);

class RelaxNaNGuardPass : public llvm::PassInfoMixin<RelaxNaNGuardPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

/// The same rewrite for the legacy code-generation pipeline.
llvm::FunctionPass *createRelaxNaNGuardLegacyPass();

} // namespace crosslane

#endif // CROSSLANE_CODEGEN_RELAXNANGUARD_H
