//===- VortexISA.h - Vortex's custom instructions and CSRs ------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one table of Vortex v3.0 hardware facts Crosslane's Vortex passes use:
/// CSR numbers (VX_types.toml, verified against simx's csr unit) and the
/// custom-0 R-type instructions (opcode 0x0b; sw/kernel/include/
/// vx_intrinsics.h), built as inline asm because upstream LLVM has no Vortex
/// intrinsics, and read back from inline asm (Vortex's own headers, or ours).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_VORTEX_VORTEXISA_H
#define CROSSLANE_VORTEX_VORTEXISA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace crosslane {
namespace vortex {

// The facts themselves are records of include/crosslane/Vortex/VortexISA.td;
// crosslane-tblgen generates the enums and tables below from them.

/// CSR numbers (VX_types.toml [csr_*] of Vortex v3.0).
#define GET_VORTEX_CSR_ENUM
/// What an inline-asm call is, as far as divergence is concerned.
#define GET_VORTEX_ASM_KIND_ENUM
#include "crosslane/Vortex/VortexISA.inc"

/// A CSR the table knows (lookupCSR).
#define GET_VortexCSRTable_STRUCT
/// A hardware configuration (lookupHWConfig): lanes per warp, warps per
/// core, cores, log2 of the local memory per core, barriers per CTA slot.
#define GET_VortexHWConfigTable_STRUCT
#include "crosslane/Vortex/VortexISAStructs.inc"

/// The CSR numbered \p Number, or nullptr.
const CSRInfo *lookupCSR(uint16_t Number);
/// The hardware configuration named \p Name ("default", "w8t32a", ...),
/// or nullptr.
const HWConfig *lookupHWConfig(llvm::StringRef Name);
/// Every hardware configuration the table has, by name.
llvm::ArrayRef<HWConfig> hwConfigs();
/// Their names, comma separated, for messages.
std::string hwConfigNames();

/// A custom instruction: `.insn r Opcode, Funct3, Funct7, rd, rs1, rs2`,
/// with each register operand's role ("-": x0).
struct InsnInfo {
  const char *Mnemonic;
  unsigned Opcode, Funct3, Funct7;
  AsmKind Kind;
  const char *Rd, *Rs1, *Rs2;
};

/// The instruction named \p Mnemonic ("vx_split"); asserts it exists.
const InsnInfo &insn(llvm::StringRef Mnemonic);
/// The instruction encoded as (\p Opcode, \p Funct3, \p Funct7), or
/// nullptr.
const InsnInfo *lookupInsn(unsigned Opcode, unsigned Funct3, unsigned Funct7);
/// `.insn r OPC, F3, F7, Rd, Rs1, Rs2` for \p I.
std::string insnAsm(const InsnInfo &I, llvm::StringRef Rd, llvm::StringRef Rs1,
                    llvm::StringRef Rs2);

/// True if reading \p Csr gives lanes of one warp different values.
bool isDivergentCSR(unsigned Csr);

struct AsmInfo {
  AsmKind Kind = AsmKind::Unknown;
  unsigned Csr = 0; ///< for CSRRead
};

/// Decodes the inline asm called by \p CB (Vortex's `.insn r` forms with the
/// opcode as an "i" operand or a literal, and `csrr`). std::nullopt if \p CB
/// does not call inline asm.
std::optional<AsmInfo> decodeAsm(const llvm::CallBase &CB);

/// \p Asm with each `$N` for which \p Imm gives a value replaced by it (the
/// compiler's and the machine check's view of `.insn r $1, ...` with an
/// "i" operand).
std::string
substituteOperands(llvm::StringRef Asm,
                   llvm::function_ref<std::optional<int64_t>(unsigned)> Imm);

/// Asm that loads a constant operand itself (`li $K, IMM` on its own line,
/// then the instruction, which names `$K` where it reads the constant): the
/// register allocator never keeps such a constant live across a loop. The
/// instruction's text, with \p Dest and \p Src the `li`'s operands (empty
/// when \p Asm has no such line).
llvm::StringRef splitLoadPrefix(llvm::StringRef Asm, llvm::StringRef &Dest,
                                llvm::StringRef &Src);

/// The same for asm text whose constant operands are already substituted
/// (what the machine-level check reads from an INLINEASM instruction).
AsmInfo decodeAsmText(llvm::StringRef Text);

/// True if the results of asm of kind \p Info may differ between lanes.
bool asmResultDivergent(const AsmInfo &Info);

/// Builders for the instructions the passes emit. Every one is a convergent
/// inline-asm call (code motion must not add control dependences to it).
/// A convergent inline-asm call (side-effecting ones keep their order).
llvm::CallInst *emitAsm(llvm::IRBuilderBase &B, llvm::Type *Ret,
                        llvm::ArrayRef<llvm::Value *> Args, llvm::StringRef Asm,
                        llvm::StringRef Constraints, bool SideEffects);
/// vx_vote_ballot of \p Cond (i1) over the active lanes: an i32 lane mask.
llvm::Value *emitBallot(llvm::IRBuilderBase &B, llvm::Value *Cond);
llvm::Value *emitCSRRead(llvm::IRBuilderBase &B, unsigned Csr);
llvm::Value *emitSplit(llvm::IRBuilderBase &B, llvm::Value *Pred);
void emitJoin(llvm::IRBuilderBase &B, llvm::Value *Token);
void emitPred(llvm::IRBuilderBase &B, llvm::Value *Keep,
              llvm::Value *RestoreMask);
llvm::Value *emitThreadMask(llvm::IRBuilderBase &B);
/// `__syncthreads()`: vx_barrier on barrier 0 of the CTA's slot (CSR 0xCD0)
/// for the CTA's warps (CSR 0xCD2), as hip_runtime.h spells it.
void emitCTABarrier(llvm::IRBuilderBase &B);

/// Where a diagnostic about \p DL belongs: the innermost location of the
/// inlining chain that is not in Crosslane's own Vortex headers (an atomic
/// or a barrier written through hip_runtime.h is reported at the user's
/// call).
llvm::DebugLoc userLocation(const llvm::DebugLoc &DL);

/// The source-level parameter types of a mangled kernel name ("int const*",
/// ...); empty for a name that is not mangled (extern "C") or has none.
llvm::SmallVector<std::string, 8> demangledParams(llvm::StringRef Name);

/// True if \p L is a line of Crosslane's own Vortex headers.
bool isInOurHeaders(const llvm::DILocation *L);

/// The function attribute crosslane-vortex-abi gives Vortex code.
inline constexpr const char *VortexAttr = "crosslane-vortex";
/// Metadata on an instruction crosslane-vortex-divergence runs one lane at
/// a time: its block runs with a single active lane, so branches the code
/// generator makes of it need no vx_split (the machine check skips them).
inline constexpr const char *OneLaneMD = "crosslane.one-lane";

/// True if \p F is Vortex code: a RISC-V function whose target features
/// include +xvortex (what Vortex's own build and crosslane-hipcc pass), or
/// that crosslane-vortex-abi marked.
bool isVortexFunction(const llvm::Function &F);

/// Lanes per warp of the Vortex configuration \p F is compiled for:
/// -crosslane-vortex-warp-size (crosslane-hipcc sets it from the
/// configuration's VX_CFG_NUM_THREADS) or the function attribute
/// "crosslane-vortex-warp-size"; 0 when unknown (code must read CSR 0xFC0).
unsigned knownWarpSize(const llvm::Function &F);

/// Marks \p F with VortexAttr and drops +xvortex from its target features:
/// upstream LLVM does not know the feature and warns at every function.
void markVortexFunction(llvm::Function &F);

/// The symbols Crosslane's HIP runtime enters a kernel through
/// (crosslane-vortex-abi makes them): `__vx_kentry_<kernel>` for any launch,
/// and `__vx_kentry_<kernel>.fullwarps` for launches of whole warps.
inline constexpr llvm::StringLiteral KernelEntryPrefix = "__vx_kentry_";
inline constexpr llvm::StringLiteral FullWarpsSuffix = ".fullwarps";
inline std::string kernelEntrySymbol(llvm::StringRef Kernel) {
  return (KernelEntryPrefix + Kernel).str();
}
inline std::string fullWarpsEntrySymbol(llvm::StringRef Kernel) {
  return kernelEntrySymbol(Kernel) + FullWarpsSuffix.str();
}

} // namespace vortex
} // namespace crosslane

#endif // CROSSLANE_VORTEX_VORTEXISA_H
