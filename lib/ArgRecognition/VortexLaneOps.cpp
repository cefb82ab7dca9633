//===- VortexLaneOps.cpp - The recogniser's lane primitives per target ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "VortexLaneOps.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

using namespace llvm;

namespace crosslane {
namespace argrec {

namespace {
enum class ShuffleMode { Up, Down, Bfly, Idx };
} // namespace

/// The shuffle whose funct3 is \p Funct3 (VortexISA.td), if any.
static std::optional<ShuffleMode> shuffleMode(unsigned Funct3) {
  const vortex::InsnInfo *I = vortex::lookupInsn(0x0b, Funct3, 1);
  if (!I || I->Kind != vortex::AsmKind::Shuffle)
    return std::nullopt;
  StringRef M = I->Mnemonic;
  return M == "vx_shfl_up"     ? ShuffleMode::Up
         : M == "vx_shfl_down" ? ShuffleMode::Down
         : M == "vx_shfl_bfly" ? ShuffleMode::Bfly
                               : ShuffleMode::Idx;
}

std::optional<VortexShuffle> decodeVortexShuffle(const CallInst *CI) {
  const auto *IA = dyn_cast<InlineAsm>(CI->getCalledOperand());
  if (!IA || !CI->getType()->isIntegerTy(32) || CI->arg_size() != 2)
    return std::nullopt;
  std::optional<vortex::AsmInfo> Info = vortex::decodeAsm(*CI);
  if (!Info || Info->Kind != vortex::AsmKind::Shuffle)
    return std::nullopt;
  // hip_runtime.h's form: `.insn r 0x0b, F3, 1, $0, $1, $2`, "=r,r,r".
  StringRef Dest, Src;
  StringRef Text = vortex::splitLoadPrefix(IA->getAsmString(), Dest, Src);
  SmallVector<StringRef, 6> F;
  if (!Dest.empty() || !Text.consume_front(".insn r"))
    return std::nullopt;
  Text.split(F, ',');
  unsigned Kind;
  if (F.size() != 6 || F[1].trim().getAsInteger(0, Kind) ||
      F[3].trim() != "$0" || F[4].trim() != "$1" || F[5].trim() != "$2")
    return std::nullopt;
  auto *Bc = dyn_cast<ConstantInt>(CI->getArgOperand(1));
  if (!Bc || !shuffleMode(Kind))
    return std::nullopt;
  return VortexShuffle{Kind, uint32_t(Bc->getZExtValue()),
                       CI->getArgOperand(0)};
}

unsigned vortexShuffleSource(const VortexShuffle &S, unsigned Lane,
                             unsigned Warp) {
  unsigned B = S.Bc & 0x3F, C = (S.Bc >> 6) & 0x3F, Mask = (S.Bc >> 12) & 0x3F;
  unsigned Min = Lane & Mask, Max = Min | (C & ~Mask);
  int Src = Lane;
  switch (*shuffleMode(S.Kind)) {
  case ShuffleMode::Up:
    Src = int(Lane) - int(B) >= int(Min) ? int(Lane - B) : int(Lane);
    break;
  case ShuffleMode::Down:
    Src = Lane + B <= Max ? Lane + B : Lane;
    break;
  case ShuffleMode::Bfly:
    Src = (Lane ^ B) <= Max ? Lane ^ B : Lane;
    break;
  case ShuffleMode::Idx:
    Src = Min | (B & ~Mask);
    break;
  }
  // A source past the warp has no lane: the lane keeps its value.
  return unsigned(Src) < Warp ? unsigned(Src) : Lane;
}

std::optional<unsigned> vortexCSRRead(const Value *V) {
  const auto *CB = dyn_cast<CallBase>(V);
  if (!CB || !isa<InlineAsm>(CB->getCalledOperand()))
    return std::nullopt;
  std::optional<vortex::AsmInfo> Info = vortex::decodeAsm(*CB);
  if (!Info || Info->Kind != vortex::AsmKind::CSRRead)
    return std::nullopt;
  return Info->Csr;
}

std::optional<ChipInfo> vortexRecognitionChip(const Function &F) {
  if (!vortex::isVortexFunction(F))
    return std::nullopt;
  unsigned W = vortex::knownWarpSize(F);
  if (!W)
    return std::nullopt;
  ChipInfo C;
  C.CPU = "vortex";
  C.WaveSize = W;
  return C;
}

std::optional<ChipInfo> recognitionChip(const Function &F) {
  if (std::optional<ChipInfo> C = vortexRecognitionChip(F))
    return C;
  return ChipInfo::get(F);
}

std::string describeTarget(const ChipInfo &Chip) {
  if (isVortexChip(Chip))
    return "Vortex warp" + std::to_string(Chip.WaveSize);
  return Chip.CPU + " wave" + std::to_string(Chip.WaveSize);
}

Value *buildBallot(IRBuilderBase &B, const ChipInfo &Chip, Value *Cond) {
  Type *MaskTy = B.getIntNTy(Chip.WaveSize);
  if (!isVortexChip(Chip))
    return B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {MaskTy}, {Cond});
  return B.CreateZExtOrTrunc(vortex::emitBallot(B, Cond), MaskTy);
}

Value *buildLaneIndex(IRBuilderBase &B, const ChipInfo &Chip) {
  if (!isVortexChip(Chip))
    return Chip.buildLaneId(B);
  return vortex::emitCSRRead(B, vortex::CSRThreadId);
}

Value *buildThreadIdX(IRBuilderBase &B, const ChipInfo &Chip) {
  if (!isVortexChip(Chip))
    return B.CreateIntrinsic(B.getInt32Ty(), Intrinsic::amdgcn_workitem_id_x,
                             {});
  return vortex::emitCSRRead(B, vortex::CSRThreadIdxX);
}

} // namespace argrec
} // namespace crosslane
