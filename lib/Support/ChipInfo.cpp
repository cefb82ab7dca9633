//===- ChipInfo.cpp - What Crosslane knows about an AMDGPU target ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/ChipInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/TargetParser.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <memory>
#include <mutex>

using namespace llvm;

namespace crosslane {

namespace {

// Facts that LLVM 22 does not express as subtarget features: the one
// hand-kept per-chip table, include/crosslane/Support/AMDGPUChips.td.
#define GET_AMDGPUQuirkTable_STRUCT
#define GET_AMDGPUProductTable_STRUCT
#include "crosslane/Support/AMDGPUChipStructs.inc"
#define GET_AMDGPUQuirkTable_DECL
#define GET_AMDGPUQuirkTable_IMPL
#define GET_AMDGPUProductTable_DECL
#define GET_AMDGPUProductTable_IMPL
#include "crosslane/Support/AMDGPUChips.inc"

bool hasFeature(const MCSubtargetInfo *STI, StringRef Feature) {
  return STI && STI->checkFeatures(("+" + Feature).str());
}

std::unique_ptr<MCSubtargetInfo> makeSubtarget(StringRef CPU,
                                               StringRef Features) {
  Triple TT("amdgcn-amd-amdhsa");
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return nullptr;
  return std::unique_ptr<MCSubtargetInfo>(
      T->createMCSubtargetInfo(TT, CPU, Features));
}

/// Wave size: an explicit +wavefrontsize64/32 wins, then the chip default.
unsigned waveSizeFor(AMDGPU::GPUKind Kind, StringRef Features) {
  SmallVector<StringRef, 16> Parts;
  Features.split(Parts, ',', -1, /*KeepEmpty=*/false);
  unsigned Size = 0;
  for (StringRef P : Parts) {
    if (P == "+wavefrontsize64")
      Size = 64;
    else if (P == "+wavefrontsize32")
      Size = 32;
  }
  if (Size)
    return Size;
  return (AMDGPU::getArchAttrAMDGCN(Kind) & AMDGPU::FEATURE_WAVE32) ? 32 : 64;
}

} // namespace

std::optional<ChipInfo> ChipInfo::get(StringRef CPU, StringRef Features) {
  // Building an MCSubtargetInfo is the costly part (about a sixth of the
  // recognition pass on a module of small kernels): one per (CPU,
  // features), shared by every function and pass; passes may run on
  // several threads.
  // Consecutive calls nearly always ask for the same chip: the last answer
  // of this thread is kept beside the shared table.
  thread_local std::string LastCPU, LastFeatures;
  thread_local std::optional<ChipInfo> Last;
  thread_local bool HasLast = false;
  if (HasLast && CPU == LastCPU && Features == LastFeatures)
    return Last;
  static std::mutex Lock;
  static StringMap<std::optional<ChipInfo>> Cache;
  std::string Key = (CPU + "|" + Features).str();
  auto Remember = [&](const std::optional<ChipInfo> &C) {
    LastCPU = CPU.str();
    LastFeatures = Features.str();
    Last = C;
    HasLast = true;
    return C;
  };
  {
    std::lock_guard<std::mutex> G(Lock);
    if (auto It = Cache.find(Key); It != Cache.end())
      return Remember(It->second);
  }
  std::optional<ChipInfo> C = compute(CPU, Features);
  std::lock_guard<std::mutex> G(Lock);
  return Remember(Cache.try_emplace(Key, std::move(C)).first->second);
}

std::optional<ChipInfo> ChipInfo::compute(StringRef CPU, StringRef Features) {
  AMDGPU::GPUKind Kind = AMDGPU::parseArchAMDGCN(CPU);
  if (Kind == AMDGPU::GK_NONE)
    return std::nullopt;
  ChipInfo C;
  C.CPU = CPU.str();
  C.Features = Features.str();
  AMDGPU::IsaVersion V = AMDGPU::getIsaVersion(CPU);
  C.Major = V.Major;
  C.Minor = V.Minor;
  C.Stepping = V.Stepping;
  C.WaveSize = waveSizeFor(Kind, Features);

  std::unique_ptr<MCSubtargetInfo> STI = makeSubtarget(CPU, Features);
  if (STI) {
    C.HasDPP = hasFeature(STI.get(), "dpp");
    C.HasDPP8 = hasFeature(STI.get(), "dpp8");
    C.HasDPP64 = hasFeature(STI.get(), "dpp-64bit");
    C.HasPermLane16Swap = hasFeature(STI.get(), "permlane16-swap");
    C.HasPermLane32Swap = hasFeature(STI.get(), "permlane32-swap");
    C.HasIEEEMinMax = hasFeature(STI.get(), "ieee-minimum-maximum-insts");
    bool GFX10 = hasFeature(STI.get(), "gfx10-insts");
    bool GFX11 = hasFeature(STI.get(), "gfx11-insts");
    // LLVM has no feature of its own for the permlane*.var instructions; it
    // selects them on every subtarget with gfx12-insts (llc-22 accepts
    // llvm.amdgcn.permlane16.var for gfx1200/1201/1250, rejects gfx1150).
    C.HasPermLaneVar = hasFeature(STI.get(), "gfx12-insts");
    C.HasDPPBroadcasts = C.HasDPP && !GFX10;
    C.HasDPPRowXMask = C.HasDPP && GFX10;
    C.HasDPPNewBcast = hasFeature(STI.get(), "gfx90a-insts") && !GFX10;
    C.HasPermLaneX16 = GFX10;
    C.HasPermLane64 = GFX11;
    C.HasVOP3DPP = GFX11;
    for (unsigned Size : {327680u, 163840u, 65536u, 32768u})
      if (hasFeature(STI.get(),
                     "addressablelocalmemorysize" + std::to_string(Size))) {
        C.LDSBytes = Size;
        break;
      }
  } else {
    // No AMDGPU target registered (a bare tool): derive from the ISA version.
    C.HasDPP = C.Major >= 8;
    C.HasDPP8 = C.Major >= 10;
    C.HasDPPBroadcasts = C.Major == 8 || C.Major == 9;
    C.HasDPPRowXMask = C.Major >= 10;
    C.HasDPPNewBcast = C.Major == 9 && (C.Minor == 4 || C.Minor == 5 ||
                                        (C.Minor == 0 && C.Stepping == 10));
    C.HasPermLaneX16 = C.Major >= 10;
    C.HasPermLane64 = C.Major >= 11;
    C.HasPermLaneVar = C.Major >= 12;
    C.HasVOP3DPP = C.Major >= 11;
  }
  C.BPermuteWithinHalf = C.HasPermLaneX16 && C.WaveSize == 64;
  if (const ChipQuirk *Q = lookupChipQuirk(C.Major, C.Minor))
    C.DPPCombineSub32ImmBug = Q->DPPCombineSub32ImmBug;
  return C;
}

unsigned ChipInfo::computeUnits(StringRef CPU) {
  const AMDGPUProduct *P = lookupAMDGPUProduct(CPU);
  return P ? P->ComputeUnits : 0;
}

std::optional<ChipInfo> ChipInfo::get(const Function &F) {
  if (!F.getParent() || !isAMDGPUModule(*F.getParent()))
    return std::nullopt;
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  StringRef FS = F.getFnAttribute("target-features").getValueAsString();
  if (CPU.empty())
    return std::nullopt;
  return get(CPU, FS);
}

void ChipInfo::print(raw_ostream &OS) const {
  OS << CPU << " (" << Major << '.' << Minor << '.' << Stepping << ") wave"
     << WaveSize;
  auto Flag = [&](bool B, StringRef Name) {
    if (B)
      OS << ' ' << Name;
  };
  Flag(HasDPP, "dpp");
  Flag(HasDPP8, "dpp8");
  Flag(HasDPPBroadcasts, "row_bcast");
  Flag(HasDPPRowXMask, "row_xmask");
  Flag(HasDPPNewBcast, "row_newbcast");
  Flag(HasDPP64, "dpp64");
  Flag(HasPermLaneX16, "permlanex16");
  Flag(HasPermLane64, "permlane64");
  Flag(HasPermLane16Swap, "permlane16.swap");
  Flag(HasPermLane32Swap, "permlane32.swap");
  Flag(HasIEEEMinMax, "ieee-minmax");
  Flag(HasVOP3DPP, "vop3-dpp");
  Flag(BPermuteWithinHalf, "bpermute-within-half");
  Flag(DPPCombineSub32ImmBug, "quirk:dpp-combine-sub32-imm");
}

int ChipInfo::dppSourceLane(unsigned Ctrl, unsigned Lane) const {
  unsigned W = WaveSize, R = Lane / 16, J = Lane % 16;
  if (Ctrl <= 0xFF) // quad_perm
    return 16 * R + 4 * (J / 4) + ((Ctrl >> (2 * (J % 4))) & 3);
  if (Ctrl >= 0x101 && Ctrl <= 0x10F) { // row_shl
    unsigned K = Ctrl - 0x100;
    return J + K < 16 ? int(Lane + K) : -1;
  }
  if (Ctrl >= 0x111 && Ctrl <= 0x11F) { // row_shr
    unsigned K = Ctrl - 0x110;
    return J >= K ? int(Lane - K) : -1;
  }
  if (Ctrl >= 0x121 && Ctrl <= 0x12F) // row_ror
    return 16 * R + ((J + 16 - (Ctrl - 0x120)) % 16);
  switch (Ctrl) {
  case 0x130: // wave_shl:1
    return Lane + 1 < W ? int(Lane + 1) : -1;
  case 0x134: // wave_rol:1
    return (Lane + 1) % W;
  case 0x138: // wave_shr:1
    return Lane ? int(Lane - 1) : -1;
  case 0x13C: // wave_ror:1
    return (Lane + W - 1) % W;
  case 0x140: // row_mirror
    return 16 * R + 15 - J;
  case 0x141: // row_half_mirror
    return 16 * R + (J & 8) + 7 - (J & 7);
  case 0x142: // row_bcast:15
    return R ? int(16 * R - 1) : -1;
  case 0x143: // row_bcast:31
    return R >= 2 ? 31 : -1;
  default:
    break;
  }
  if (Ctrl >= 0x150 && Ctrl <= 0x15F) // row_share / row_newbcast
    return 16 * R + (Ctrl - 0x150);
  if (Ctrl >= 0x160 && Ctrl <= 0x16F) // row_xmask
    return 16 * R + (J ^ (Ctrl - 0x160));
  return -1;
}

int ChipInfo::dppRead(unsigned Ctrl, unsigned RowMask, unsigned BankMask,
                      bool BoundCtrl, unsigned Lane) const {
  unsigned R = Lane / 16, J = Lane % 16;
  if (!((RowMask >> R) & 1) || !((BankMask >> (J / 4)) & 1))
    return DPPKeepsOld;
  int From = dppSourceLane(Ctrl, Lane);
  if (From < 0 || unsigned(From) >= WaveSize)
    return BoundCtrl ? DPPZero : DPPKeepsOld;
  return From;
}

std::string ChipInfo::checkDPPCtrl(unsigned Ctrl) const {
  if (!HasDPP)
    return "DPP is not available on " + CPU;
  if ((Ctrl >= 0x100 && Ctrl <= 0x12F && (Ctrl & 0xF) == 0) || Ctrl > 0x16F ||
      (Ctrl > 0x143 && Ctrl < 0x150) || (Ctrl > 0x13C && Ctrl < 0x140) ||
      (Ctrl > 0x130 && Ctrl < 0x13C && Ctrl != 0x134 && Ctrl != 0x138))
    return "invalid dpp_ctrl";
  if (Ctrl >= 0x130 && Ctrl <= 0x13C && !HasDPPBroadcasts)
    return "wave_shl/wave_rol/wave_shr/wave_ror are only available on GFX8/9";
  if ((Ctrl == 0x142 || Ctrl == 0x143) && !HasDPPBroadcasts)
    return "row_bcast:15/31 are only available on GFX8/9";
  if (Ctrl >= 0x150 && Ctrl <= 0x15F && !HasDPPRowXMask && !HasDPPNewBcast)
    return "row_share/row_newbcast are not available";
  if (Ctrl >= 0x160 && Ctrl <= 0x16F && !HasDPPRowXMask)
    return "row_xmask is only available on GFX10+";
  return "";
}

int ChipInfo::swizzleSourceLane(unsigned Offset, unsigned Lane) const {
  // DS_SWIZZLE_B32 in the Vega/CDNA/RDNA ISA guides; the modes are told apart
  // by offset[15:13]: 111 FFT, 110 rotate (both GFX9+, which is where LLVM's
  // assembler accepts swizzle(FFT,..)/swizzle(ROTATE,..)), 10x quad
  // permutation, 0xx bit mode. Rotate and FFT work inside 32-lane groups.
  unsigned Group = Lane & ~31u, J = Lane & 31;
  if ((Offset & 0xC000) == 0xC000) {
    if (Major < 9)
      return -1;
    unsigned Mask = Offset & 0x1F;
    if (Offset & 0x2000) {
      // FFT: the lane's 5-bit reversal, shifted down past the kept bits.
      unsigned Rev = reverseBits(J) >> 27;
      return Group | (Rev >> llvm::popcount(Mask)) | (J & Mask);
    }
    // Rotate by offset[9:5] lanes; offset[10] = 1 reads lower lanes (data
    // moves up), 0 higher ones. Bits in offset[4:0] are kept.
    unsigned Count = (Offset >> 5) & 0x1F;
    unsigned Moved = Offset & 0x400 ? J - Count : J + Count;
    return Group | (((J & Mask) | (Moved & ~Mask)) & 31);
  }
  if (Offset & 0x8000) {
    if (Offset & 0x3F00)
      return -1; // quad mode with reserved bits set
    return 4 * (Lane / 4) + ((Offset >> (2 * (Lane % 4))) & 3);
  }
  unsigned And = Offset & 0x1F, Or = (Offset >> 5) & 0x1F,
           Xor = (Offset >> 10) & 0x1F;
  return Group | (((J & And) | Or) ^ Xor);
}

bool isAMDGPUModule(const Module &M) {
  return Triple(M.getTargetTriple()).isAMDGCN();
}

bool ChipInfo::runsFullWaves(const Instruction &I) const {
  const Function &F = *I.getFunction();
  if (F.getCallingConv() != CallingConv::AMDGPU_KERNEL ||
      I.getParent() != &F.getEntryBlock() ||
      F.getFnAttribute("uniform-work-group-size").getValueAsString() != "true")
    return false;
  auto [MinS, MaxS] = F.getFnAttribute("amdgpu-flat-work-group-size")
                          .getValueAsString()
                          .split(',');
  unsigned Min = 0, Max = 0;
  return !MinS.getAsInteger(10, Min) && !MaxS.getAsInteger(10, Max) &&
         Min == Max && Min && Min % WaveSize == 0;
}

Value *ChipInfo::buildLaneId(IRBuilderBase &B) const {
  Value *Lo = B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                {B.getInt32(~0u), B.getInt32(0)});
  if (WaveSize == 32)
    return Lo;
  return B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_hi, {},
                           {B.getInt32(~0u), Lo});
}

} // namespace crosslane
