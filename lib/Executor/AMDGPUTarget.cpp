//===- AMDGPUTarget.cpp - AMDGPU target model of the wave executor --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// AMDGPU specifics behind the executor's TargetModel: address spaces (0
/// flat, 1 global, 3 LDS, 4 constant, 5 private), the HSA dispatch packet
/// and code-object-v5 implicit arguments, the thread-model intrinsics, and
/// exact lane semantics of the cross-lane operations (DPP, DPP8, permlane*,
/// ds_swizzle, ds_(b)permute, readlane/writelane, ballot, set.inactive,
/// WWM, wave.reduce). Lane tables follow the ISA reference as summarised in
/// /work/shared/research/amdgpu-dpp.md §1 (SIDefines.h DppCtrl encodings,
/// AMDGPUModifierSyntax.rst for masks/bound_ctrl) and §13.
///
//===----------------------------------------------------------------------===//

#include "crosslane/Executor/Engine.h"
#include "crosslane/Support/ChipInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace crosslane {
namespace exec {

bool evalICmp(unsigned Pred, uint64_t A, uint64_t B, unsigned Bits);
bool evalFCmp(unsigned Pred, double X, double Y);

namespace {

class AMDGPUTarget : public TargetModel {
  ChipInfo CI;

public:
  explicit AMDGPUTarget(ChipInfo C) : CI(std::move(C)) {}

  StringRef name() const override { return CI.CPU; }
  unsigned waveSize() const override { return CI.WaveSize; }

  MemSpace memSpace(unsigned AS) const override {
    switch (AS) {
    case 0:
      return MemSpace::Flat;
    case 1:
      return MemSpace::Global;
    case 3:
      return MemSpace::Local;
    case 4:
    case 6:
      return MemSpace::Constant;
    case 5:
      return MemSpace::Private;
    default:
      return MemSpace::Other;
    }
  }

  /// HSA kernel dispatch packet (hsa_kernel_dispatch_packet_t) and code
  /// object v5 hidden kernel arguments (AMDGPUUsage "Code Object V5 Metadata"
  /// hidden_block_count_*, hidden_group_size_*, hidden_remainder_*).
  void buildDispatch(const LaunchConfig &C, uint64_t KernargAddr,
                     std::vector<uint8_t> &Packet,
                     std::vector<uint8_t> &Implicit) const override {
    Packet.assign(64, 0);
    auto Put = [](std::vector<uint8_t> &V, unsigned Off, uint64_t X,
                  unsigned Size) { std::memcpy(&V[Off], &X, Size); };
    unsigned Dims = C.Grid[2] * C.Block[2] > 1   ? 3
                    : C.Grid[1] * C.Block[1] > 1 ? 2
                                                 : 1;
    Put(Packet, 2, Dims, 2);
    for (unsigned D = 0; D < 3; ++D) {
      Put(Packet, 4 + 2 * D, C.Block[D], 2);
      Put(Packet, 12 + 4 * D, (uint64_t)C.Grid[D] * C.Block[D], 4);
    }
    Put(Packet, 40, KernargAddr, 8);
    Implicit.assign(256, 0);
    for (unsigned D = 0; D < 3; ++D) {
      Put(Implicit, 4 * D, C.Grid[D], 4);
      Put(Implicit, 12 + 2 * D, C.Block[D], 2);
      Put(Implicit, 18 + 2 * D, 0, 2); // no partial workgroups
    }
    Put(Implicit, 64, Dims, 2); // hidden_grid_dims
  }

  int execIntrinsic(OpCtx &C, unsigned IID) override;
  int execExternal(OpCtx &C, StringRef Name) override;

private:
  int uniformFill(OpCtx &C, uint64_t V) {
    forLanes(C.Exec, [&](unsigned L) { C.res(L) = V; });
    C.setPoison(0);
    return 1;
  }
  /// Reads a uniform operand (the value of the first active lane, which
  /// must agree with every active lane). Poison is an error.
  bool uniformOp(OpCtx &C, unsigned Op, uint64_t &V, StringRef What) {
    uint64_t Active = C.LaneMask ? C.LaneMask : C.Exec;
    if (uint64_t P = C.opPoison(Op) & Active)
      return C.fail(What + " is poison in lane " + Twine(llvm::countr_zero(P)));
    unsigned First = llvm::countr_zero(Active);
    V = C.op(Op, First);
    bool Same = true;
    forLanes(Active, [&](unsigned L) { Same &= C.op(Op, L) == V; });
    if (!Same)
      return C.fail(What + " is not uniform across the active lanes");
    return true;
  }
  bool needConst(OpCtx &C, unsigned Op, uint64_t &V, StringRef What) {
    if (!C.constOp(Op, V))
      return C.fail(What + " must be an immediate");
    return true;
  }
  /// Gathers leaf-wise: result lane I = Src[Map(I)] for written lanes.
  /// Map returns -1 for "keep Old" and -2 for "zero".
  template <typename MapFn>
  int gather(OpCtx &C, int OldOp, unsigned SrcOp, MapFn Map) {
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      uint64_t SP = C.opPoison(SrcOp, L);
      uint64_t OP = OldOp >= 0 ? C.opPoison(OldOp, L) : ~0ULL;
      uint64_t P = 0;
      forLanes(C.Exec, [&](unsigned Lane) {
        int S = Map(Lane);
        uint64_t V = 0;
        bool Po = false;
        if (S == -1) {
          V = OldOp >= 0 ? C.op(OldOp, Lane, L) : 0;
          Po = (OP >> Lane) & 1;
        } else if (S == -2) {
          V = 0;
        } else {
          V = C.op(SrcOp, S, L);
          Po = (SP >> S) & 1;
        }
        C.res(Lane, L) = V;
        if (Po)
          P |= 1ULL << Lane;
      });
      C.setPoison(P, L);
    }
    return 1;
  }
  int dpp(OpCtx &C, bool HasOld);
  int dpp8(OpCtx &C);
  int permlane16(OpCtx &C, bool Cross);
  int permlaneSwap(OpCtx &C, bool Is32);
  int swizzle(OpCtx &C);
  int bpermute(OpCtx &C, bool Permute);
  int ballot(OpCtx &C);
  int readRegister(OpCtx &C);
  int waveCompare(OpCtx &C, bool IsF);
  int waveReduce(OpCtx &C, unsigned IID);
  int mathIntrinsic(OpCtx &C, unsigned IID);
  Leaf resLeaf(OpCtx &C, unsigned L = 0);
};

Leaf AMDGPUTarget::resLeaf(OpCtx &C, unsigned L) {
  (void)L;
  return scalarLeaf(C.inst().getType());
}

/// update.dpp(old, src, ctrl, row_mask, bank_mask, bound_ctrl) and
/// mov.dpp(src, ctrl, row_mask, bank_mask, bound_ctrl) (old = poison).
int AMDGPUTarget::dpp(OpCtx &C, bool HasOld) {
  unsigned B = HasOld ? 1 : 0;
  uint64_t Ctrl, RowMask, BankMask, BC;
  if (!needConst(C, B + 1, Ctrl, "dpp_ctrl") ||
      !needConst(C, B + 2, RowMask, "row_mask") ||
      !needConst(C, B + 3, BankMask, "bank_mask") ||
      !needConst(C, B + 4, BC, "bound_ctrl"))
    return -1;
  if (!CI.HasDPP)
    return C.fail("DPP is not available on " + CI.CPU), -1;
  // Legality per chip (research §2.1; SIDefines.h DppCtrl).
  std::string Bad = CI.checkDPPCtrl(Ctrl);
  if (!Bad.empty())
    return C.fail(Bad + " (dpp_ctrl 0x" + utohexstr(Ctrl) + ") on " + CI.CPU),
           -1;
  unsigned W = C.W;
  return gather(C, HasOld ? 0 : -1, B, [&](unsigned Lane) -> int {
    unsigned R = Lane / 16, J = Lane % 16;
    if (!((RowMask >> R) & 1) || !((BankMask >> (J / 4)) & 1))
      return -1; // not written: keeps old
    int S = CI.dppSourceLane(Ctrl, Lane);
    if (S < 0 || (unsigned)S >= W)
      return BC ? -2 : -1; // invalid source: zero or keep old
    return S;
  });
}

int AMDGPUTarget::dpp8(OpCtx &C) {
  uint64_t Sel;
  if (!needConst(C, 1, Sel, "dpp8 selector"))
    return -1;
  if (!CI.HasDPP8)
    return C.fail("DPP8 is only available on GFX10+ (not " + CI.CPU + ")"), -1;
  return gather(C, -1, 0, [&](unsigned Lane) -> int {
    return 8 * (Lane / 8) + ((Sel >> (3 * (Lane % 8))) & 7);
  });
}

/// permlane16/permlanex16(old, src, sel_lo, sel_hi, fi, bound_ctrl).
/// Reads of inactive source lanes are poison regardless of fi.
int AMDGPUTarget::permlane16(OpCtx &C, bool Cross) {
  if (!CI.HasPermLaneX16)
    return C.fail(Twine(Cross ? "permlanex16" : "permlane16") +
                  " is only available on GFX10+ (not " + CI.CPU + ")"),
           -1;
  uint64_t Lo = 0, Hi = 0, FI = 0, BC = 0;
  if (!uniformOp(C, 2, Lo, "permlane sel_lo") ||
      !uniformOp(C, 3, Hi, "permlane sel_hi") || !needConst(C, 4, FI, "fi") ||
      !needConst(C, 5, BC, "bound_ctrl"))
    return -1;
  uint64_t Sel = (Hi << 32) | (Lo & 0xFFFFFFFF);
  return gather(C, 0, 1, [&](unsigned Lane) -> int {
    unsigned Row = Lane / 16, J = Lane % 16;
    unsigned SrcRow = Cross ? (Row ^ 1) : Row;
    return 16 * SrcRow + ((Sel >> (4 * J)) & 0xF);
  });
}

/// permlane16.swap / permlane32.swap(vdst_old, vsrc_old, fi, bc) ->
/// {new vdst, new vsrc}: 16: odd rows of vdst <-> even rows of vsrc;
/// 32: rows 2,3 of vdst <-> rows 0,1 of vsrc (research §1.4).
int AMDGPUTarget::permlaneSwap(OpCtx &C, bool Is32) {
  if (Is32 ? !CI.HasPermLane32Swap : !CI.HasPermLane16Swap)
    return C.fail(Twine(Is32 ? "permlane32.swap" : "permlane16.swap") +
                  " is not available on " + CI.CPU),
           -1;
  uint64_t P0 = C.opPoison(0), P1 = C.opPoison(1), R0 = 0, R1 = 0;
  forLanes(C.Exec, [&](unsigned Lane) {
    unsigned Row = Lane / 16;
    uint64_t V0, V1;
    bool Q0, Q1;
    if (!Is32) {
      // vdst odd rows take vsrc's preceding even row; vsrc even rows take
      // vdst's following odd row.
      if (Row & 1) {
        V0 = C.op(1, Lane - 16), Q0 = (P1 >> (Lane - 16)) & 1;
        V1 = C.op(1, Lane), Q1 = (P1 >> Lane) & 1;
      } else {
        V0 = C.op(0, Lane), Q0 = (P0 >> Lane) & 1;
        V1 = C.op(0, Lane + 16), Q1 = (P0 >> (Lane + 16)) & 1;
      }
    } else {
      if (Row >= 2) {
        V0 = C.op(1, Lane - 32), Q0 = (P1 >> (Lane - 32)) & 1;
        V1 = C.op(1, Lane), Q1 = (P1 >> Lane) & 1;
      } else {
        V0 = C.op(0, Lane), Q0 = (P0 >> Lane) & 1;
        V1 = C.op(0, Lane + 32), Q1 = (P0 >> (Lane + 32)) & 1;
      }
    }
    C.res(Lane, 0) = V0;
    C.res(Lane, 1) = V1;
    R0 |= (uint64_t)Q0 << Lane;
    R1 |= (uint64_t)Q1 << Lane;
  });
  C.setPoison(R0, 0);
  C.setPoison(R1, 1);
  return 1;
}

/// ds.swizzle(src, offset): offset[15]=1 with offset[14:8]=0: quad
/// permutation offset[7:0]; offset[15]=0: bit mode inside 32-lane groups,
/// src lane = ((lane & and) | or) ^ xor with and=offset[4:0],
/// or=offset[9:5], xor=offset[14:10] (research §1.4).
int AMDGPUTarget::swizzle(OpCtx &C) {
  uint64_t Off;
  if (!needConst(C, 1, Off, "ds.swizzle offset"))
    return -1;
  if (CI.swizzleSourceLane(Off, 0) < 0)
    return C.fail("ds.swizzle offset 0x" + utohexstr(Off) +
                  " uses a mode the executor does not model (rotate/FFT)"),
           -1;
  return gather(C, -1, 0,
                [&](unsigned Lane) { return CI.swizzleSourceLane(Off, Lane); });
}

/// ds.bpermute(addr, src): lane i reads src[addr_i / 4]; ds.permute(addr,
/// src): lane i writes src_i to lane addr_i / 4 (unwritten or conflicting
/// destinations are poison). On GFX10+ wave64 both stay within a 32-lane

/// Writes lane mask \p Mask (truncated to the result width) to every active
/// lane, poisoned everywhere if any contributing lane was poison.
static int broadcastMask(OpCtx &C, uint64_t Mask, uint64_t Poison) {
  unsigned RB = C.inst().getType()->getIntegerBitWidth();
  if (RB < 64)
    Mask &= (1ULL << RB) - 1;
  forLanes(C.Exec, [&](unsigned Lane) { C.res(Lane) = Mask; });
  C.setPoison(Poison ? ~0ULL : 0);
  return 1;
}

/// half (research §1.4, §12.12).
int AMDGPUTarget::bpermute(OpCtx &C, bool Permute) {
  unsigned W = C.W;
  uint64_t AP = C.opPoison(0);
  if (uint64_t Bad = AP & C.Exec)
    return C.fail("ds_(b)permute address is poison in lane " +
                  Twine(llvm::countr_zero(Bad))),
           -1;
  auto Target = [&](unsigned Lane) {
    return CI.bpermuteSourceLane(Lane, C.op(0, Lane));
  };
  if (!Permute)
    return gather(C, -1, 1, [&](unsigned Lane) -> int { return Target(Lane); });
  uint64_t SP = C.opPoison(1);
  uint64_t Written = 0, Conflict = 0, P = 0;
  SmallVector<uint64_t, 64> Val(W, 0);
  forLanes(C.Exec, [&](unsigned Lane) {
    unsigned T = Target(Lane);
    if ((Written >> T) & 1)
      Conflict |= 1ULL << T;
    Written |= 1ULL << T;
    Val[T] = C.op(1, Lane);
    if ((SP >> Lane) & 1)
      P |= 1ULL << T;
  });
  forLanes(C.Exec, [&](unsigned Lane) { C.res(Lane) = Val[Lane]; });
  C.setPoison(P | Conflict | ~Written);
  return 1;
}

/// llvm.read_register of the exec mask: what InstCombine makes of
/// `ballot(true)` (`__activemask()`, ROCm's `__ballot(1)`); "exec", or its
/// 32-bit halves "exec_lo" / "exec_hi". Other registers are not modelled.
int AMDGPUTarget::readRegister(OpCtx &C) {
  auto *MV = dyn_cast<MetadataAsValue>(C.inst().getOperand(0));
  auto *N = MV ? dyn_cast<MDNode>(MV->getMetadata()) : nullptr;
  auto *Name = N && N->getNumOperands() == 1
                   ? dyn_cast<MDString>(N->getOperand(0))
                   : nullptr;
  StringRef Reg = Name ? Name->getString() : "";
  uint64_t Mask = C.Exec;
  if (Reg == "exec_hi")
    Mask >>= 32;
  else if (Reg != "exec" && Reg != "exec_lo")
    return C.fail("llvm.read_register of '" + Reg + "' is not modelled"), -1;
  return broadcastMask(C, Mask, 0);
}

int AMDGPUTarget::ballot(OpCtx &C) {
  uint64_t Active = C.Exec, Bits = 0;
  uint64_t P = C.opPoison(0) & Active;
  forLanes(Active, [&](unsigned Lane) {
    if (C.op(0, Lane) & 1)
      Bits |= 1ULL << Lane;
  });
  return broadcastMask(C, Bits, P);
}

/// llvm.amdgcn.icmp/fcmp(a, b, pred): ballot of the comparison.
int AMDGPUTarget::waveCompare(OpCtx &C, bool IsF) {
  uint64_t Pred;
  if (!needConst(C, 2, Pred, "compare predicate"))
    return -1;
  if (IsF ? !CmpInst::isFPPredicate((CmpInst::Predicate)Pred)
          : !CmpInst::isIntPredicate((CmpInst::Predicate)Pred)) {
    // LLVM folds an invalid predicate to poison.
    forLanes(C.Exec, [&](unsigned L) { C.res(L) = 0; });
    C.setPoison(~0ULL);
    return 1;
  }
  Type *T = C.opType(0);
  Leaf L = scalarLeaf(T);
  unsigned Bits = IsF ? 0 : T->getIntegerBitWidth();
  uint64_t P = (C.opPoison(0) | C.opPoison(1)) & C.Exec, Mask = 0;
  forLanes(C.Exec, [&](unsigned Lane) {
    uint64_t A = C.op(0, Lane), B = C.op(1, Lane);
    bool R = IsF ? evalFCmp(Pred, leafToDouble(L, A), leafToDouble(L, B))
                 : evalICmp(Pred, A, B, Bits);
    if (R)
      Mask |= 1ULL << Lane;
  });
  return broadcastMask(C, Mask, P);
}

/// wave.reduce.<op>(v, strategy): the active lanes' values combined in
/// ascending lane order from the identity (as the iterative lowering).
int AMDGPUTarget::waveReduce(OpCtx &C, unsigned IID) {
  Leaf L = resLeaf(C);
  unsigned Bits = L.K == LeafKind::Int ? L.Bits : 64;
  uint64_t M = Bits >= 64 ? ~0ULL : ((1ULL << Bits) - 1);
  auto S = [&](uint64_t V) {
    return Bits >= 64 ? (int64_t)V : (int64_t)(V << (64 - Bits)) >> (64 - Bits);
  };
  if (C.opPoison(0) & C.Exec) {
    forLanes(C.Exec, [&](unsigned Lane) { C.res(Lane) = 0; });
    C.setPoison(~0ULL);
    return 1;
  }
  bool First = true;
  uint64_t Acc = 0;
  double FAcc = 0;
  forLanes(C.Exec, [&](unsigned Lane) {
    uint64_t V = C.op(0, Lane);
    switch (IID) {
    case Intrinsic::amdgcn_wave_reduce_add:
      Acc = (Acc + V) & M;
      break;
    case Intrinsic::amdgcn_wave_reduce_sub:
      Acc = (Acc - V) & M;
      break;
    case Intrinsic::amdgcn_wave_reduce_and:
      Acc = First ? V : (Acc & V);
      break;
    case Intrinsic::amdgcn_wave_reduce_or:
      Acc |= V;
      break;
    case Intrinsic::amdgcn_wave_reduce_xor:
      Acc ^= V;
      break;
    case Intrinsic::amdgcn_wave_reduce_umin:
      Acc = First || V < Acc ? V : Acc;
      break;
    case Intrinsic::amdgcn_wave_reduce_umax:
      Acc = First || V > Acc ? V : Acc;
      break;
    case Intrinsic::amdgcn_wave_reduce_min:
      Acc = First || S(V) < S(Acc) ? V : Acc;
      break;
    case Intrinsic::amdgcn_wave_reduce_max:
      Acc = First || S(V) > S(Acc) ? V : Acc;
      break;
    case Intrinsic::amdgcn_wave_reduce_fadd:
    case Intrinsic::amdgcn_wave_reduce_fsub: {
      float X = (float)leafToDouble(L, V);
      float A =
          First ? (IID == Intrinsic::amdgcn_wave_reduce_fadd ? X : -X)
                : (IID == Intrinsic::amdgcn_wave_reduce_fadd ? (float)FAcc + X
                                                             : (float)FAcc - X);
      FAcc = A;
      Acc = doubleToLeaf(L, A);
      break;
    }
    case Intrinsic::amdgcn_wave_reduce_fmin:
    case Intrinsic::amdgcn_wave_reduce_fmax: {
      bool Max = IID == Intrinsic::amdgcn_wave_reduce_fmax;
      if (First || leafIsNaN(L, Acc)) {
        Acc = V;
        break;
      }
      if (leafIsNaN(L, V))
        break;
      double X = leafToDouble(L, V), A = leafToDouble(L, Acc);
      if (Max ? X > A : X < A)
        Acc = V;
      break;
    }
    }
    First = false;
  });
  // Empty exec cannot happen (the call runs for at least one lane).
  forLanes(C.Exec, [&](unsigned Lane) { C.res(Lane) = Acc; });
  C.setPoison(0);
  return 1;
}

int AMDGPUTarget::mathIntrinsic(OpCtx &C, unsigned IID) {
  Leaf L = resLeaf(C);
  auto Unary = [&](auto Fn) {
    uint64_t P = C.opPoison(0);
    forLanes(C.Exec, [&](unsigned Lane) {
      C.res(Lane) = doubleToLeaf(L, Fn(leafToDouble(L, C.op(0, Lane))));
    });
    C.setPoison(P);
    return 1;
  };
  switch (IID) {
  case Intrinsic::amdgcn_rcp:
    return Unary([](double X) { return 1.0 / X; });
  case Intrinsic::amdgcn_rsq:
    return Unary([](double X) { return 1.0 / std::sqrt(X); });
  case Intrinsic::amdgcn_sqrt:
    return Unary([](double X) { return std::sqrt(X); });
  case Intrinsic::amdgcn_exp2:
    return Unary([](double X) { return std::exp2(X); });
  case Intrinsic::amdgcn_log:
    return Unary([](double X) { return std::log2(X); });
  case Intrinsic::amdgcn_sin:
    return Unary([](double X) { return std::sin(2 * M_PI * X); });
  case Intrinsic::amdgcn_cos:
    return Unary([](double X) { return std::cos(2 * M_PI * X); });
  case Intrinsic::amdgcn_fract:
    return Unary([](double X) {
      if (std::isnan(X) || std::isinf(X))
        return std::isnan(X) ? X : 0.0;
      return std::min(X - std::floor(X), 0x1.fffffep-1);
    });
  case Intrinsic::amdgcn_frexp_mant:
    return Unary([](double X) {
      int E;
      return (std::isnan(X) || std::isinf(X)) ? X : std::frexp(X, &E);
    });
  case Intrinsic::amdgcn_frexp_exp: {
    Type *T = C.opType(0);
    Leaf S;
    S.K = T->isHalfTy()    ? LeafKind::Half
          : T->isFloatTy() ? LeafKind::Float
                           : LeafKind::Double;
    forLanes(C.Exec, [&](unsigned Lane) {
      double X = leafToDouble(S, C.op(0, Lane));
      int E = 0;
      if (!std::isnan(X) && !std::isinf(X))
        std::frexp(X, &E);
      C.res(Lane) = (uint64_t)(uint32_t)E & ((1ULL << L.Bits) - 1);
    });
    C.setPoison(C.opPoison(0));
    return 1;
  }
  case Intrinsic::amdgcn_fmed3: {
    uint64_t P = C.opPoison(0) | C.opPoison(1) | C.opPoison(2);
    forLanes(C.Exec, [&](unsigned Lane) {
      double A = leafToDouble(L, C.op(0, Lane)),
             B = leafToDouble(L, C.op(1, Lane)),
             D = leafToDouble(L, C.op(2, Lane));
      // med3 = max(min(a,b), min(max(a,b), c)) with minnum/maxnum.
      double R = std::fmax(std::fmin(A, B), std::fmin(std::fmax(A, B), D));
      C.res(Lane) = doubleToLeaf(L, R);
    });
    C.setPoison(P);
    return 1;
  }
  case Intrinsic::amdgcn_class: {
    Type *T = C.opType(0);
    Leaf S;
    S.K = T->isHalfTy()    ? LeafKind::Half
          : T->isFloatTy() ? LeafKind::Float
                           : LeafKind::Double;
    forLanes(C.Exec, [&](unsigned Lane) {
      double X = leafToDouble(S, C.op(0, Lane));
      uint64_t Bits = C.op(0, Lane), Mask = C.op(1, Lane);
      bool Neg = std::signbit(X);
      unsigned Cls;
      if (std::isnan(X))
        Cls = leafIsNaN(S, Bits) &&
                      !(Bits & (S.K == LeafKind::Float  ? 0x400000ULL
                                : S.K == LeafKind::Half ? 0x200ULL
                                                        : 0x8000000000000ULL))
                  ? 0
                  : 1;
      else if (std::isinf(X))
        Cls = Neg ? 2 : 9;
      else if (X == 0)
        Cls = Neg ? 5 : 6;
      else if (std::fpclassify(X) == FP_SUBNORMAL ||
               (S.K == LeafKind::Float && std::fabs(X) < 0x1p-126) ||
               (S.K == LeafKind::Half && std::fabs(X) < 0x1p-14))
        Cls = Neg ? 4 : 7;
      else
        Cls = Neg ? 3 : 8;
      C.res(Lane) = (Mask >> Cls) & 1;
    });
    C.setPoison(C.opPoison(0) | C.opPoison(1));
    return 1;
  }
  default:
    return 0;
  }
}

int AMDGPUTarget::execIntrinsic(OpCtx &C, unsigned IID) {
  Engine &E = C.E;
  unsigned W = C.W;
  switch (IID) {
  case Intrinsic::amdgcn_workitem_id_x:
  case Intrinsic::amdgcn_workitem_id_y:
  case Intrinsic::amdgcn_workitem_id_z: {
    unsigned D = IID - Intrinsic::amdgcn_workitem_id_x;
    forLanes(C.Exec, [&](unsigned L) { C.res(L) = E.workitemId(L, D); });
    C.setPoison(0);
    return 1;
  }
  case Intrinsic::amdgcn_workgroup_id_x:
  case Intrinsic::amdgcn_workgroup_id_y:
  case Intrinsic::amdgcn_workgroup_id_z:
    return uniformFill(C,
                       E.workgroupId(IID - Intrinsic::amdgcn_workgroup_id_x));
  case Intrinsic::amdgcn_dispatch_ptr:
    return uniformFill(C, E.dispatchPtr());
  case Intrinsic::amdgcn_implicitarg_ptr:
    return uniformFill(C, E.implicitArgPtr());
  case Intrinsic::amdgcn_kernarg_segment_ptr:
    return uniformFill(C, E.kernargPtr());
  case Intrinsic::amdgcn_dispatch_id:
    return uniformFill(C, 0);
  case Intrinsic::amdgcn_wavefrontsize:
    return uniformFill(C, W);
  case Intrinsic::amdgcn_s_memtime:
  case Intrinsic::amdgcn_s_memrealtime:
    return uniformFill(C, 0);
  case Intrinsic::amdgcn_s_waitcnt:
  case Intrinsic::amdgcn_s_sleep:
  case Intrinsic::amdgcn_s_nop:
  case Intrinsic::amdgcn_s_setprio:
  case Intrinsic::amdgcn_sched_barrier:
  case Intrinsic::amdgcn_sched_group_barrier:
  case Intrinsic::amdgcn_wave_barrier:
    return 1;
  case Intrinsic::amdgcn_mbcnt_lo:
  case Intrinsic::amdgcn_mbcnt_hi: {
    // mbcnt_lo: bits of mask below the lane among lanes 0..31; mbcnt_hi:
    // among lanes 32..63.
    bool Hi = IID == Intrinsic::amdgcn_mbcnt_hi;
    forLanes(C.Exec, [&](unsigned L) {
      uint64_t Mask = C.op(0, L) & 0xFFFFFFFF;
      unsigned Below = Hi ? (L > 32 ? L - 32 : 0) : std::min(L, 32u);
      uint64_t Sel = Below >= 32 ? 0xFFFFFFFFULL : ((1ULL << Below) - 1);
      C.res(L) = (C.op(1, L) + llvm::popcount(Mask & Sel)) & 0xFFFFFFFF;
    });
    C.setPoison(C.opPoison(0) | C.opPoison(1));
    return 1;
  }
  case Intrinsic::amdgcn_readlane: {
    uint64_t Idx = 0;
    if (!uniformOp(C, 1, Idx, "readlane lane index"))
      return -1;
    if (Idx >= W)
      return C.fail("readlane lane index " + Twine(Idx) + " >= wave size " +
                    Twine(W)),
             -1;
    return gather(C, -1, 0, [&](unsigned) -> int { return Idx; });
  }
  case Intrinsic::amdgcn_readfirstlane: {
    unsigned First = llvm::countr_zero(C.LaneMask ? C.LaneMask : C.Exec);
    return gather(C, -1, 0, [&](unsigned) -> int { return First; });
  }
  case Intrinsic::amdgcn_writelane: {
    uint64_t Idx = 0;
    if (!uniformOp(C, 1, Idx, "writelane lane index"))
      return -1;
    if (Idx >= W)
      return C.fail("writelane lane index " + Twine(Idx) + " >= wave size"), -1;
    unsigned First = llvm::countr_zero(C.LaneMask ? C.LaneMask : C.Exec);
    uint64_t VP = (C.opPoison(0) >> First) & 1;
    uint64_t V = C.op(0, First);
    uint64_t OP = C.opPoison(2);
    forLanes(C.Exec, [&](unsigned L) { C.res(L) = L == Idx ? V : C.op(2, L); });
    uint64_t P = (OP & ~(1ULL << Idx)) | (VP << Idx);
    C.setPoison(P);
    // The written lane may be outside exec: v_writelane ignores exec.
    if (!((C.Exec >> Idx) & 1)) {
      C.res(Idx) = V;
      C.setPoisonLanes(VP << Idx, 1ULL << Idx);
    }
    return 1;
  }
  case Intrinsic::amdgcn_ballot:
    return ballot(C);
  case Intrinsic::amdgcn_inverse_ballot: {
    forLanes(C.Exec, [&](unsigned L) { C.res(L) = (C.op(0, L) >> L) & 1; });
    C.setPoison(C.opPoison(0));
    return 1;
  }
  case Intrinsic::amdgcn_icmp:
    return waveCompare(C, false);
  case Intrinsic::amdgcn_fcmp:
    return waveCompare(C, true);
  case Intrinsic::amdgcn_update_dpp:
    return dpp(C, true);
  case Intrinsic::amdgcn_mov_dpp:
    return dpp(C, false);
  case Intrinsic::amdgcn_mov_dpp8:
    return dpp8(C);
  case Intrinsic::amdgcn_permlane16:
    return permlane16(C, false);
  case Intrinsic::amdgcn_permlanex16:
    return permlane16(C, true);
  case Intrinsic::amdgcn_permlane64: {
    if (!CI.HasPermLane64)
      return C.fail("permlane64 is only available on GFX11+ (not " + CI.CPU +
                    ")"),
             -1;
    return gather(C, -1, 0,
                  [&](unsigned L) -> int { return W == 64 ? (L ^ 32) : L; });
  }
  case Intrinsic::amdgcn_permlane16_swap:
    return permlaneSwap(C, false);
  case Intrinsic::amdgcn_permlane32_swap:
    return permlaneSwap(C, true);
  case Intrinsic::amdgcn_ds_swizzle:
    return swizzle(C);
  case Intrinsic::amdgcn_ds_bpermute:
    return bpermute(C, false);
  case Intrinsic::amdgcn_ds_permute:
    return bpermute(C, true);
  case Intrinsic::amdgcn_set_inactive: {
    // Active lanes (exec) get src, the others the identity operand.
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      uint64_t P = 0, SP = C.opPoison(0, L), IP = C.opPoison(1, L);
      forLanes(C.Exec, [&](unsigned Lane) {
        bool Act = (C.LaneMask >> Lane) & 1;
        C.res(Lane, L) = Act ? C.op(0, Lane, L) : C.op(1, Lane, L);
        if (((Act ? SP : IP) >> Lane) & 1)
          P |= 1ULL << Lane;
      });
      C.setPoison(P, L);
    }
    return 1;
  }
  case Intrinsic::amdgcn_strict_wwm:
  case Intrinsic::amdgcn_wwm:
  case Intrinsic::amdgcn_strict_wqm:
    return gather(C, -1, 0, [](unsigned L) -> int { return L; });
  case Intrinsic::amdgcn_wave_reduce_umin:
  case Intrinsic::amdgcn_wave_reduce_min:
  case Intrinsic::amdgcn_wave_reduce_umax:
  case Intrinsic::amdgcn_wave_reduce_max:
  case Intrinsic::amdgcn_wave_reduce_add:
  case Intrinsic::amdgcn_wave_reduce_sub:
  case Intrinsic::amdgcn_wave_reduce_and:
  case Intrinsic::amdgcn_wave_reduce_or:
  case Intrinsic::amdgcn_wave_reduce_xor:
  case Intrinsic::amdgcn_wave_reduce_fmin:
  case Intrinsic::amdgcn_wave_reduce_fmax:
  case Intrinsic::amdgcn_wave_reduce_fadd:
  case Intrinsic::amdgcn_wave_reduce_fsub:
    return waveReduce(C, IID);
  case Intrinsic::amdgcn_groupstaticsize:
    return C.fail("llvm.amdgcn.groupstaticsize is not modelled"), -1;
  case Intrinsic::amdgcn_is_shared:
  case Intrinsic::amdgcn_is_private: {
    uint64_t Tag = IID == Intrinsic::amdgcn_is_shared ? 1 : 2;
    forLanes(C.Exec, [&](unsigned L) { C.res(L) = (C.op(0, L) >> 48) == Tag; });
    C.setPoison(C.opPoison(0));
    return 1;
  }
  case Intrinsic::amdgcn_live_mask:
  case Intrinsic::amdgcn_ps_live:
    return uniformFill(C, 1);
  case Intrinsic::read_register:
    return readRegister(C);
  default:
    return mathIntrinsic(C, IID);
  }
}

//===----------------------------------------------------------------------===//
// Bodiless helpers HIP headers call without device libraries
//===----------------------------------------------------------------------===//

int AMDGPUTarget::execExternal(OpCtx &C, StringRef Name) {
  Engine &E = C.E;
  const LaunchConfig &Cfg = E.launch();
  if (Name == "__atomic_work_item_fence" || Name == "__ockl_fence" ||
      Name == "__builtin_amdgcn_fence")
    return 1;
  if (Name.starts_with("__ockl_get_")) {
    StringRef What = Name.drop_front(strlen("__ockl_get_"));
    unsigned NOps = C.numOps();
    if (What == "work_dim") {
      unsigned Dims = Cfg.Grid[2] * Cfg.Block[2] > 1   ? 3
                      : Cfg.Grid[1] * Cfg.Block[1] > 1 ? 2
                                                       : 1;
      return uniformFill(C, Dims);
    }
    if (NOps != 1)
      return 0;
    uint64_t P = C.opPoison(0) & C.Exec;
    if (P)
      return C.fail(Name + " dimension is poison"), -1;
    bool Ok = true;
    forLanes(C.Exec, [&](unsigned L) {
      uint64_t D = C.op(0, L);
      if (D > 2) {
        // ockl returns 0 (ids) or 1 (sizes) for out-of-range dimensions.
        C.res(L) = What.contains("size") || What == "num_groups" ? 1 : 0;
        return;
      }
      uint64_t V;
      if (What == "local_id")
        V = E.workitemId(L, D);
      else if (What == "group_id")
        V = E.workgroupId(D);
      else if (What == "local_size" || What == "enqueued_local_size")
        V = Cfg.Block[D];
      else if (What == "num_groups")
        V = Cfg.Grid[D];
      else if (What == "global_size")
        V = (uint64_t)Cfg.Grid[D] * Cfg.Block[D];
      else if (What == "global_id")
        V = (uint64_t)E.workgroupId(D) * Cfg.Block[D] + E.workitemId(L, D);
      else if (What == "global_offset")
        V = 0;
      else {
        Ok = false;
        return;
      }
      C.res(L) = V;
    });
    if (!Ok)
      return 0;
    C.setPoison(0);
    return 1;
  }
  return 0;
}

} // namespace

std::unique_ptr<TargetModel>
createAMDGPUTarget(StringRef CPU, StringRef Features, std::string &Err) {
  std::optional<ChipInfo> CI = ChipInfo::get(CPU, Features);
  if (!CI || !CI->isKnown()) {
    Err = "unknown AMDGPU processor '" + CPU.str() + "'";
    return nullptr;
  }
  return std::make_unique<AMDGPUTarget>(*CI);
}

} // namespace exec
} // namespace crosslane
