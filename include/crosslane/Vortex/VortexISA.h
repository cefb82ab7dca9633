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

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace crosslane {
namespace vortex {

/// CSR numbers (VX_types.toml [csr_*] of Vortex v3.0).
enum CSR : unsigned {
  CSRThreadId = 0xCC0,      ///< lane within the warp
  CSRWarpId = 0xCC1,        ///< warp within the core
  CSRCoreId = 0xCC2,        ///< core
  CSRActiveWarps = 0xCC3,   ///< active-warps mask
  CSRActiveThreads = 0xCC4, ///< the warp's thread mask
  CSRNumThreads = 0xFC0,    ///< lanes per warp
  CSRNumWarps = 0xFC1,      ///< warps per core
  CSRNumCores = 0xFC2,
  CSRHartId = 0xF14,      ///< global hart id
  CSRCtaId = 0xCD0,       ///< the CTA's slot on its core
  CSRCtaRank = 0xCD1,     ///< warp rank inside the CTA
  CSRCtaSize = 0xCD2,     ///< warps in the CTA
  CSRThreadIdxX = 0xCD3,  ///< threadIdx.{x,y,z}: 0xCD3..0xCD5
  CSRBlockIdxX = 0xCD6,   ///< blockIdx: 0xCD6..0xCD8
  CSRBlockDimX = 0xCD9,   ///< blockDim: 0xCD9..0xCDB
  CSRGridDimX = 0xCDC,    ///< gridDim: 0xCDC..0xCDE
  CSRCtaLocalMem = 0xCDF, ///< the CTA's local-memory base
};

/// True if reading \p Csr gives lanes of one warp different values.
bool isDivergentCSR(unsigned Csr);

/// What an inline-asm call is, as far as divergence is concerned.
enum class AsmKind {
  Unknown,      ///< anything else (its results are taken as divergent)
  CSRRead,      ///< csrr rd, csr
  TMC,          ///< vx_tmc
  WSpawn,       ///< vx_wspawn
  Split,        ///< vx_split (its token is warp-uniform)
  Join,         ///< vx_join
  Barrier,      ///< vx_barrier
  Pred,         ///< vx_pred
  BarrierAsync, ///< vx_barrier_arrive / wait
  WSync,        ///< vx_wsync
  Vote,         ///< vx_vote_{all,any,uni,ballot}: one value for the warp
  Shuffle,      ///< vx_shfl_*: a value per lane
};

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
                        llvm::ArrayRef<llvm::Value *> Args,
                        llvm::StringRef Asm, llvm::StringRef Constraints,
                        bool SideEffects);
/// vx_vote_ballot of \p Cond (i1) over the active lanes: an i32 lane mask.
llvm::Value *emitBallot(llvm::IRBuilderBase &B, llvm::Value *Cond);
llvm::Value *emitCSRRead(llvm::IRBuilderBase &B, unsigned Csr);
llvm::Value *emitSplit(llvm::IRBuilderBase &B, llvm::Value *Pred);
void emitJoin(llvm::IRBuilderBase &B, llvm::Value *Token);
void emitPred(llvm::IRBuilderBase &B, llvm::Value *Keep,
              llvm::Value *RestoreMask);
llvm::Value *emitThreadMask(llvm::IRBuilderBase &B);

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

} // namespace vortex
} // namespace crosslane

#endif // CROSSLANE_VORTEX_VORTEXISA_H
