//===- ChipInfo.h - What Crosslane knows about an AMDGPU target -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// ChipInfo is the single place where Crosslane's passes learn what the target
/// of a function can do. Facts come, in this order, from:
///   1. the function's "target-cpu" / "target-features" attributes (clang sets
///      both on every device function; opt's -mcpu/-mattr set them too);
///   2. LLVM's own subtarget description (MCSubtargetInfo::checkFeatures) for
///      every feature LLVM models (dpp, dpp8, permlane16-swap, ...);
///   3. Crosslane's own table (Support/AMDGPUChips.td) for the facts LLVM does
///      not encode as features (e.g. known code-generation bugs to avoid).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_CHIPINFO_H
#define CROSSLANE_SUPPORT_CHIPINFO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

namespace llvm {
class Function;
class IRBuilderBase;
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace crosslane {

/// The hardware facts of one AMDGPU subtarget that cross-lane lowering needs.
struct ChipInfo {
  std::string CPU;      ///< e.g. "gfx942"
  std::string Features; ///< the function's target-features string
  unsigned Major = 0, Minor = 0, Stepping = 0;
  unsigned WaveSize = 64;

  // DPP and cross-lane instruction availability.
  bool HasDPP = false;           ///< DPP16 at all (GFX8+).
  bool HasDPP8 = false;          ///< dpp8 permutations (GFX10+).
  bool HasDPPBroadcasts = false; ///< row_bcast:15/31 and wave_* (GFX8/9).
  bool HasDPPRowXMask = false;   ///< row_xmask / row_share (GFX10+).
  bool HasDPPNewBcast = false;   ///< row_newbcast (GFX90A, GFX94x, GFX950).
  bool HasDPP64 = false;         ///< 64-bit DPP in the DP ALU (dpp-64bit).
  bool HasPermLaneX16 = false;   ///< v_permlane16/permlanex16 (GFX10+).
  bool HasPermLane64 = false;    ///< v_permlane64 (GFX11+, wave64 only).
  /// v_permlane16_var / v_permlanex16_var (VGPR lane selects, GFX12+).
  bool HasPermLaneVar = false;
  bool HasPermLane16Swap = false;
  bool HasPermLane32Swap = false;
  bool HasIEEEMinMax = false;      ///< v_maximum/v_minimum (NaN-propagating).
  bool HasVOP3DPP = false;         ///< VOP3/VOPC with DPP source (GFX11+).
  bool BPermuteWithinHalf = false; ///< ds_bpermute cannot cross 32-lane halves.
  /// LDS a workgroup can address (LLVM's addressablelocalmemorysize*).
  unsigned LDSBytes = 65536;

  // Facts LLVM does not model as features (see AMDGPUChips.td).
  bool DPPCombineSub32ImmBug = false; ///< gfx11.0 VOP3-DPP with imm src1.

  bool isWave64() const { return WaveSize == 64; }
  bool isGFX9Family() const { return Major == 9; }
  bool isKnown() const { return Major != 0; }

  /// True when every lane of every wave provably executes \p I: the entry
  /// block of an amdgpu_kernel launched with uniform work-groups whose fixed
  /// size is a multiple of the wave size (no partial wave, no branch before).
  bool runsFullWaves(const llvm::Instruction &I) const;
  /// The lane's index in its wave (mbcnt over all lanes), emitted at \p B.
  llvm::Value *buildLaneId(llvm::IRBuilderBase &B) const;

  /// The lane ds_bpermute reads for lane \p Lane with byte address \p Addr:
  /// addr[7:2] (wave64) or addr[6:2] (wave32); on chips where ds_bpermute
  /// cannot cross 32-lane halves, within the lane's own half.
  unsigned bpermuteSourceLane(unsigned Lane, uint64_t Addr) const {
    unsigned T = (Addr >> 2) & (WaveSize - 1);
    if (BPermuteWithinHalf && WaveSize == 64)
      T = (Lane & 32) | (T & 31);
    return T;
  }

  /// The lane that DPP16 control \p Ctrl makes lane \p Lane read, or -1
  /// when the source is out of range (row_shl/row_shr at a row's edge,
  /// row_bcast into row 0); row_mask/bank_mask/bound_ctrl are the caller's.
  /// Encodings: SIDefines.h DppCtrl; lane tables: research notes §1.1.
  int dppSourceLane(unsigned Ctrl, unsigned Lane) const;
  /// What lane \p Lane gets from a DPP16 move with these controls: the lane
  /// it reads (>= 0), DPPKeepsOld (its row or bank is masked off, or the
  /// source is out of range without bound_ctrl) or DPPZero (out of range
  /// with bound_ctrl).
  enum : int { DPPKeepsOld = -1, DPPZero = -2 };
  int dppRead(unsigned Ctrl, unsigned RowMask, unsigned BankMask,
              bool BoundCtrl, unsigned Lane) const;
  /// The lane permlane16 (or, with \p Cross, permlanex16) makes lane \p Lane
  /// read for its 4-bit selector \p Sel: lane Sel of its own 16-lane row, or
  /// of the other row of its 32.
  static unsigned permlaneSourceLane(unsigned Lane, unsigned Sel, bool Cross) {
    return 16 * ((Lane / 16) ^ unsigned(Cross)) + (Sel & 15);
  }
  /// The lane permlane64 makes lane \p Lane read (the other half in wave64).
  unsigned permlane64SourceLane(unsigned Lane) const {
    return WaveSize == 64 ? Lane ^ 32 : Lane;
  }
  /// Why \p Ctrl is not a DPP16 control this chip has (empty if it is).
  std::string checkDPPCtrl(unsigned Ctrl) const;
  /// The lane ds_swizzle with \p Offset makes lane \p Lane read: quad
  /// permutation, bit mode, and on GFX9+ rotate and FFT (within 32-lane
  /// groups); -1 for encodings with reserved bits set or modes the chip
  /// lacks.
  int swizzleSourceLane(unsigned Offset, unsigned Lane) const;

  /// Builds the facts for \p CPU with \p Features ("+wavefrontsize64,..."),
  /// asking LLVM's AMDGPU subtarget when the target is registered.
  static std::optional<ChipInfo> get(llvm::StringRef CPU,
                                     llvm::StringRef Features = "");
  /// Builds the facts for the target of \p F. Returns std::nullopt when \p F
  /// is not amdgcn code or names no known processor.
  static std::optional<ChipInfo> get(const llvm::Function &F);

  /// One line: "gfx942 (9.4.2) wave64 dpp row_bcast newbcast dpp64 ...".
  void print(llvm::raw_ostream &OS) const;

  /// Compute units of the largest product of \p CPU (AMDGPUChips.td); 0
  /// when the table does not know the chip.
  static unsigned computeUnits(llvm::StringRef CPU);

private:
  /// get() without its cache.
  static std::optional<ChipInfo> compute(llvm::StringRef CPU,
                                         llvm::StringRef Features);
};

/// True when \p M is device code for AMDGPU (amdgcn triple).
bool isAMDGPUModule(const llvm::Module &M);

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_CHIPINFO_H
