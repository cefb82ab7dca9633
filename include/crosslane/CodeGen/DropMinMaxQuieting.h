//===- DropMinMaxQuieting.h - maxnum without sNaN quieting ------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-drop-minmax-quieting: a machine-SSA pass for AMDGPU, inserted
/// after PeepholeOptimizer (before SIFoldOperands and GCNDPPCombine) when
/// Crosslane is loaded into the code generator.
///
/// In IEEE mode LLVM 22 lowers llvm.maxnum/minnum to v_max/v_min_f32 and
/// first quiets each operand it cannot prove canonical with a
/// `v_max_f32 t, x, x`. A lane move (DPP, permlane, set.inactive) is never
/// proven canonical, so every reduction step pays a canonicalize and the
/// DPP move cannot fuse into the max. The quieting only decides what a
/// signalling NaN operand gives: the other operand (quieted) or a quiet NaN
/// (bare v_max_f32, IEEE-754-2008 maxNum). LangRef's maxnum allows the
/// latter (an sNaN operand gives a qNaN), so the quieting may go.
///
/// The pass runs only in functions RelaxNaNGuard marked, and only when the
/// function calls none of llvm.canonicalize, llvm.maximumnum/minimumnum
/// (whose lowering needs the quieting). It drops a canonicalize when its
/// input is a lane move and every user is a plain (modifier-free) f32
/// v_max/v_min. Opcodes are looked up by name: the AMDGPU target headers
/// are not installed with LLVM.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_CODEGEN_DROPMINMAXQUIETING_H
#define CROSSLANE_CODEGEN_DROPMINMAXQUIETING_H

namespace llvm {
class PassRegistry;
class TargetMachine;
class TargetPassConfig;
namespace legacy {
class PassManagerBase;
} // namespace legacy
} // namespace llvm

namespace crosslane {

/// The pass's ID, as TargetPassConfig::insertPass takes it.
extern char &DropMinMaxQuietingID;

/// Adds Crosslane's code-generation passes to \p PassConfig's pipeline
/// (AMDGPU only, not at -O0): RelaxNaNGuard before instruction selection,
/// DropMinMaxQuieting after PeepholeOptimizer.
void addCodeGenPasses(llvm::TargetMachine &TM,
                      llvm::legacy::PassManagerBase &PM,
                      llvm::TargetPassConfig *PassConfig);

} // namespace crosslane

#endif // CROSSLANE_CODEGEN_DROPMINMAXQUIETING_H
