//===- Intrinsics.cpp - Generic LLVM intrinsics ---------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Target-independent LLVM intrinsics, by family: float min/max, sign and
/// rounding; float math (libm through double, fma, ldexp, frexp,
/// is.fpclass); integer bit operations and min/max; overflow and saturating
/// arithmetic; traps, markers and identities; vector reductions; three-way
/// compares and saturating conversions; memory intrinsics (Memory.cpp).
/// Each family clears Handled for intrinsics it does not know; what no
/// family knows goes to the target model.
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"
#include "LeafOps.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Intrinsics.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llvm;

namespace crosslane {
namespace exec {

//===----------------------------------------------------------------------===//
// Element-wise helpers
//===----------------------------------------------------------------------===//

static uint64_t roundFP(Leaf L, uint64_t A, double (*Fn)(double)) {
  if (leafIsNaN(L, A))
    return quietNaN(L, A);
  return doubleToLeaf(L, Fn(leafToDouble(L, A)));
}

/// Unary libm function through double (correctly rounded for sqrt; the
/// transcendental ones are as accurate as the host libm, which is within
/// the ULP bounds LLVM allows for them).
static uint64_t unaryFP(Leaf L, uint64_t A, double (*Fn)(double)) {
  if (L.K == LeafKind::Float) {
    // Compute in double and round once.
    return doubleToLeaf(L, Fn(leafToDouble(L, A)));
  }
  return doubleToLeaf(L, Fn(leafToDouble(L, A)));
}

/// Result leaf L = \p Fn(leaf type, operand 0 leaf L) in the active lanes;
/// poison where the operand is.
template <typename FnT> static bool mapUnary(LaneCtx &C, FnT Fn) {
  for (unsigned L = 0, NR = C.resLeaves(); L < NR; ++L) {
    Leaf LT = resLeaf(C, L);
    forLanes(C.Exec,
             [&](unsigned Lane) { C.res(Lane, L) = Fn(LT, C.op(0, Lane, L)); });
    C.setPoison(C.opPoison(0, L), L);
  }
  return true;
}

/// Result leaf L = \p Fn(leaf type, operand 0 and 1 leaves L).
template <typename FnT> static bool mapBinary(LaneCtx &C, FnT Fn) {
  for (unsigned L = 0, NR = C.resLeaves(); L < NR; ++L) {
    Leaf LT = resLeaf(C, L);
    forLanes(C.Exec, [&](unsigned Lane) {
      C.res(Lane, L) = Fn(LT, C.op(0, Lane, L), C.op(1, Lane, L));
    });
    C.setPoison(C.opPoison(0, L) | C.opPoison(1, L), L);
  }
  return true;
}

/// Result leaf L = \p Fn(leaf type, operand 0, 1 and 2 leaves L).
template <typename FnT> static bool mapTernary(LaneCtx &C, FnT Fn) {
  for (unsigned L = 0, NR = C.resLeaves(); L < NR; ++L) {
    Leaf LT = resLeaf(C, L);
    forLanes(C.Exec, [&](unsigned Lane) {
      C.res(Lane, L) =
          Fn(LT, C.op(0, Lane, L), C.op(1, Lane, L), C.op(2, Lane, L));
    });
    C.setPoison(C.opPoison(0, L) | C.opPoison(1, L) | C.opPoison(2, L), L);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Floating point
//===----------------------------------------------------------------------===//

/// Float min/max, sign, canonicalize, sqrt and rounding.
static bool execFloatIntrinsic(LaneCtx &C, bool &Handled) {
  switch (C.I.IID) {
  case Intrinsic::maxnum:
  case Intrinsic::maximumnum:
    return mapBinary(C, [](Leaf L, uint64_t A, uint64_t B) {
      return fMinMaxNum(L, A, B, true);
    });
  case Intrinsic::minnum:
  case Intrinsic::minimumnum:
    return mapBinary(C, [](Leaf L, uint64_t A, uint64_t B) {
      return fMinMaxNum(L, A, B, false);
    });
  case Intrinsic::maximum:
    return mapBinary(C, [](Leaf L, uint64_t A, uint64_t B) {
      return fMinMaxIEEE(L, A, B, true);
    });
  case Intrinsic::minimum:
    return mapBinary(C, [](Leaf L, uint64_t A, uint64_t B) {
      return fMinMaxIEEE(L, A, B, false);
    });
  case Intrinsic::fabs:
    return mapUnary(C, [](Leaf L, uint64_t A) { return A & ~signBit(L); });
  case Intrinsic::copysign:
    return mapBinary(C, [](Leaf L, uint64_t A, uint64_t B) {
      return (A & ~signBit(L)) | (B & signBit(L));
    });
  case Intrinsic::canonicalize:
  case Intrinsic::arithmetic_fence:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return leafIsNaN(L, A) ? quietNaN(L, A) : A;
    });
  case Intrinsic::sqrt:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return leafIsNaN(L, A)
                 ? quietNaN(L, A)
                 : unaryFP(L, A, [](double X) { return std::sqrt(X); });
    });
  case Intrinsic::floor:
    return mapUnary(
        C, [](Leaf L, uint64_t A) { return roundFP(L, A, std::floor); });
  case Intrinsic::ceil:
    return mapUnary(
        C, [](Leaf L, uint64_t A) { return roundFP(L, A, std::ceil); });
  case Intrinsic::trunc:
    return mapUnary(
        C, [](Leaf L, uint64_t A) { return roundFP(L, A, std::trunc); });
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::roundeven:
    return mapUnary(
        C, [](Leaf L, uint64_t A) { return roundFP(L, A, std::nearbyint); });
  case Intrinsic::round:
    return mapUnary(
        C, [](Leaf L, uint64_t A) { return roundFP(L, A, std::round); });
  default:
    Handled = false;
    return true;
  }
}

static bool execLdexp(LaneCtx &C) {
  const DInst &D = C.I;
  const DecodedFunc &DF = *C.F.DF;
  uint64_t Exec = C.Exec;
  unsigned NR = C.resLeaves();
  for (unsigned L = 0; L < NR; ++L) {
    Leaf LT = resLeaf(C, L);
    unsigned EB = DF.Leaves[DF.Slots[D.Ops[1]].LeafBegin].Bits;
    unsigned EL = C.opSlot(1).N > 1 ? L : 0;
    forLanes(Exec, [&](unsigned Lane) {
      APFloat F(semOf(LT.K), APInt(leafBits(LT), C.op(0, Lane, L)));
      F = scalbn(F, (int)sext(C.op(1, Lane, EL), EB),
                 APFloat::rmNearestTiesToEven);
      C.res(Lane, L) = F.bitcastToAPInt().getZExtValue();
    });
    C.setPoison(C.opPoison(0, L) | C.opPoison(1, EL), L);
  }
  return true;
}

static bool execFrexp(LaneCtx &C) {
  uint64_t Exec = C.Exec;
  Leaf LT = resLeaf(C, 0);
  forLanes(Exec, [&](unsigned Lane) {
    APFloat F(semOf(LT.K), APInt(leafBits(LT), C.op(0, Lane)));
    int Exp = 0;
    APFloat M = frexp(F, Exp, APFloat::rmNearestTiesToEven);
    C.res(Lane, 0) = M.bitcastToAPInt().getZExtValue();
    C.res(Lane, 1) = F.isFinite() ? (uint64_t)(uint32_t)Exp : 0;
  });
  C.setPoison(C.opPoison(0), 0);
  C.setPoison(C.opPoison(0), 1);
  return true;
}

static bool execIsFPClass(LaneCtx &C) {
  const DecodedFunc &DF = *C.F.DF;
  uint64_t Exec = C.Exec;
  unsigned NR = C.resLeaves();
  uint64_t Test = 0;
  C.constOp(1, Test);
  const SlotInfo &S0 = C.opSlot(0);
  for (unsigned L = 0; L < NR; ++L) {
    Leaf LT = DF.Leaves[S0.LeafBegin + L];
    forLanes(Exec, [&](unsigned Lane) {
      APFloat F(semOf(LT.K), APInt(leafBits(LT), C.op(0, Lane, L)));
      C.res(Lane, L) = (F.classify() & Test) != 0;
    });
    C.setPoison(C.opPoison(0, L), L);
  }
  return true;
}

/// Transcendental functions, pow, fma, ldexp, frexp, is.fpclass.
static bool execFloatMathIntrinsic(LaneCtx &C, bool &Handled) {
  switch (C.I.IID) {
  case Intrinsic::exp2:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::exp2(X); });
    });
  case Intrinsic::exp:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::exp(X); });
    });
  case Intrinsic::exp10:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::pow(10.0, X); });
    });
  case Intrinsic::log2:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::log2(X); });
    });
  case Intrinsic::log:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::log(X); });
    });
  case Intrinsic::log10:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::log10(X); });
    });
  case Intrinsic::sin:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::sin(X); });
    });
  case Intrinsic::cos:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::cos(X); });
    });
  case Intrinsic::pow:
    return mapBinary(C, [](Leaf L, uint64_t A, uint64_t B) {
      return doubleToLeaf(L, std::pow(leafToDouble(L, A), leafToDouble(L, B)));
    });
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    return mapTernary(C, [](Leaf L, uint64_t A, uint64_t B, uint64_t Cc) {
      if (L.K == LeafKind::Float) {
        float X, Y, Z;
        uint32_t A32 = A, B32 = B, C32 = Cc;
        std::memcpy(&X, &A32, 4);
        std::memcpy(&Y, &B32, 4);
        std::memcpy(&Z, &C32, 4);
        float R = std::fmaf(X, Y, Z);
        uint32_t RB;
        std::memcpy(&RB, &R, 4);
        return (uint64_t)RB;
      }
      return doubleToLeaf(L, std::fma(leafToDouble(L, A), leafToDouble(L, B),
                                      leafToDouble(L, Cc)));
    });
  case Intrinsic::ldexp:
    return execLdexp(C);
  case Intrinsic::frexp:
    return execFrexp(C);
  case Intrinsic::is_fpclass:
    return execIsFPClass(C);
  default:
    Handled = false;
    return true;
  }
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

static bool execAbs(LaneCtx &C) {
  uint64_t Exec = C.Exec;
  unsigned NR = C.resLeaves();
  uint64_t IntMinPoison = 0;
  C.constOp(1, IntMinPoison);
  for (unsigned L = 0; L < NR; ++L) {
    Leaf LT = resLeaf(C, L);
    uint64_t NewP = 0;
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, L);
      int64_t S = sext(A, LT.Bits);
      if (IntMinPoison && A == (1ULL << (LT.Bits - 1)))
        NewP |= 1ULL << Lane;
      C.res(Lane, L) = (uint64_t)(S < 0 ? -S : S) & maskBits(LT.Bits);
    });
    C.setPoison(C.opPoison(0, L) | NewP, L);
  }
  return true;
}

static bool execCountZeros(LaneCtx &C) {
  const DInst &D = C.I;
  uint64_t Exec = C.Exec;
  unsigned NR = C.resLeaves();
  uint64_t ZeroPoison = 0;
  C.constOp(1, ZeroPoison);
  bool TZ = D.IID == Intrinsic::cttz;
  for (unsigned L = 0; L < NR; ++L) {
    Leaf LT = resLeaf(C, L);
    uint64_t NewP = 0;
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, L);
      if (A == 0) {
        if (ZeroPoison)
          NewP |= 1ULL << Lane;
        C.res(Lane, L) = LT.Bits;
        return;
      }
      C.res(Lane, L) =
          TZ ? llvm::countr_zero(A) : llvm::countl_zero(A) - (64 - LT.Bits);
    });
    C.setPoison(C.opPoison(0, L) | NewP, L);
  }
  return true;
}

/// Integer min/max, abs, bit counts, bit and byte reversal, funnel shifts.
static bool execIntIntrinsic(LaneCtx &C, bool &Handled) {
  const DInst &D = C.I;
  switch (C.I.IID) {
  case Intrinsic::smax:
  case Intrinsic::smin:
  case Intrinsic::umax:
  case Intrinsic::umin: {
    unsigned IID = D.IID;
    return mapBinary(C, [IID](Leaf L, uint64_t A, uint64_t B) {
      int64_t SA = sext(A, L.Bits), SB = sext(B, L.Bits);
      switch (IID) {
      case Intrinsic::smax:
        return SA >= SB ? A : B;
      case Intrinsic::smin:
        return SA <= SB ? A : B;
      case Intrinsic::umax:
        return A >= B ? A : B;
      default:
        return A <= B ? A : B;
      }
    });
  }
  case Intrinsic::abs:
    return execAbs(C);
  case Intrinsic::ctpop:
    return mapUnary(
        C, [](Leaf, uint64_t A) { return (uint64_t)llvm::popcount(A); });
  case Intrinsic::cttz:
  case Intrinsic::ctlz:
    return execCountZeros(C);
  case Intrinsic::bitreverse:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return llvm::reverseBits(A) >> (64 - L.Bits);
    });
  case Intrinsic::bswap:
    return mapUnary(C, [](Leaf L, uint64_t A) {
      return llvm::byteswap(A) >> (64 - L.Bits);
    });
  case Intrinsic::fshl:
  case Intrinsic::fshr: {
    bool Left = D.IID == Intrinsic::fshl;
    return mapTernary(C, [Left](Leaf L, uint64_t A, uint64_t B, uint64_t S) {
      unsigned Bits = L.Bits;
      S %= Bits;
      unsigned __int128 Cat = ((unsigned __int128)A << Bits) | B;
      uint64_t M = maskBits(Bits);
      if (Left)
        return (uint64_t)((Cat << S) >> Bits) & M;
      return (uint64_t)(Cat >> S) & M;
    });
  }
  default:
    Handled = false;
    return true;
  }
}

static bool execWithOverflow(LaneCtx &C) {
  const DInst &D = C.I;
  uint64_t Exec = C.Exec;
  Leaf LT = resLeaf(C, 0);
  unsigned Bits = LT.Bits;
  unsigned IID = D.IID;
  forLanes(Exec, [&](unsigned Lane) {
    uint64_t A = C.op(0, Lane), B = C.op(1, Lane);
    __int128 SA = sext(A, Bits), SB = sext(B, Bits);
    unsigned __int128 UA = A, UB = B;
    __int128 Full = 0;
    bool Signed = false;
    switch (IID) {
    case Intrinsic::sadd_with_overflow:
      Full = SA + SB, Signed = true;
      break;
    case Intrinsic::uadd_with_overflow:
      Full = (__int128)(UA + UB);
      break;
    case Intrinsic::ssub_with_overflow:
      Full = SA - SB, Signed = true;
      break;
    case Intrinsic::usub_with_overflow:
      Full = (__int128)UA - (__int128)UB;
      break;
    case Intrinsic::smul_with_overflow:
      Full = SA * SB, Signed = true;
      break;
    default:
      Full = (__int128)(UA * UB);
    }
    uint64_t R = (uint64_t)Full & maskBits(Bits);
    bool Ov = Signed ? (__int128)sext(R, Bits) != Full
                     : (Full < 0 || (unsigned __int128)Full != R);
    C.res(Lane, 0) = R;
    C.res(Lane, 1) = Ov;
  });
  uint64_t P = C.opPoison(0) | C.opPoison(1);
  C.setPoison(P, 0);
  C.setPoison(P, 1);
  return true;
}

/// Arithmetic with an overflow bit, and saturating arithmetic.
static bool execOverflowIntrinsic(LaneCtx &C, bool &Handled) {
  const DInst &D = C.I;
  switch (C.I.IID) {
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::usub_with_overflow:
  case Intrinsic::smul_with_overflow:
  case Intrinsic::umul_with_overflow:
    return execWithOverflow(C);
  case Intrinsic::sadd_sat:
  case Intrinsic::uadd_sat:
  case Intrinsic::ssub_sat:
  case Intrinsic::usub_sat: {
    unsigned IID = D.IID;
    return mapBinary(C, [IID](Leaf L, uint64_t A, uint64_t B) {
      unsigned Bits = L.Bits;
      uint64_t M = maskBits(Bits);
      __int128 SMax = (__int128)(M >> 1), SMin = -SMax - 1;
      __int128 SA = sext(A, Bits), SB = sext(B, Bits);
      switch (IID) {
      case Intrinsic::uadd_sat:
        return (unsigned __int128)A + B > M ? M : A + B;
      case Intrinsic::usub_sat:
        return A > B ? A - B : 0;
      case Intrinsic::sadd_sat: {
        __int128 R = std::max(SMin, std::min(SMax, SA + SB));
        return (uint64_t)R & M;
      }
      default: {
        __int128 R = std::max(SMin, std::min(SMax, SA - SB));
        return (uint64_t)R & M;
      }
      }
    });
  }
  default:
    Handled = false;
    return true;
  }
}

/// Traps, intrinsics that do nothing here, and identities.
static bool execMarkerIntrinsic(LaneCtx &C, bool &Handled) {
  const DInst &D = C.I;
  uint64_t Exec = C.Exec;
  switch (C.I.IID) {
  case Intrinsic::trap:
  case Intrinsic::debugtrap:
  case Intrinsic::ubsantrap:
    // __builtin_trap(), a failed device assert() without device libraries,
    // and -fsanitize-trap: the wave stops; a run that traps is an error.
    return C.fail("the kernel trapped (" +
                  cast<CallBase>(D.I)->getCalledFunction()->getName() +
                  ") in lane " + Twine(llvm::countr_zero(Exec)));
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::donothing:
  case Intrinsic::sideeffect:
  case Intrinsic::var_annotation:
    return true;
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability:
  case Intrinsic::ssa_copy:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  // __attribute__((annotate)) on values and struct members: the value itself.
  case Intrinsic::annotation:
  case Intrinsic::ptr_annotation:
    return mapUnary(C, [](Leaf, uint64_t A) { return A; });
  default:
    Handled = false;
    return true;
  }
}

//===----------------------------------------------------------------------===//
// Vector reductions
//===----------------------------------------------------------------------===//

/// One step of an integer vector reduction (LangRef "llvm.vector.reduce.*":
/// the binary operator or llvm.[su]{min,max} on elements of \p Bits).
uint64_t reduceIntStep(unsigned IID, uint64_t A, uint64_t B, unsigned Bits) {
  uint64_t M = maskBits(Bits);
  int64_t SA = sext(A, Bits), SB = sext(B, Bits);
  switch (IID) {
  case Intrinsic::vector_reduce_add:
    return (A + B) & M;
  case Intrinsic::vector_reduce_mul:
    return (A * B) & M;
  case Intrinsic::vector_reduce_and:
    return A & B;
  case Intrinsic::vector_reduce_or:
    return A | B;
  case Intrinsic::vector_reduce_xor:
    return A ^ B;
  case Intrinsic::vector_reduce_smin:
    return SA <= SB ? A : B;
  case Intrinsic::vector_reduce_smax:
    return SA >= SB ? A : B;
  case Intrinsic::vector_reduce_umin:
    return A <= B ? A : B;
  default: // vector_reduce_umax
    return A >= B ? A : B;
  }
}

/// One step of a floating-point vector reduction: fadd/fmul (IEEE, in
/// element order from the start value), fmax/fmin (llvm.maxnum/minnum
/// semantics), fmaximum/fminimum (llvm.maximum/minimum semantics).
uint64_t reduceFPStep(unsigned IID, Leaf L, uint64_t A, uint64_t B) {
  switch (IID) {
  case Intrinsic::vector_reduce_fadd:
    return fpBinary(
        L, A, B, [](float X, float Y) { return X + Y; },
        [](double X, double Y) { return X + Y; });
  case Intrinsic::vector_reduce_fmul:
    return fpBinary(
        L, A, B, [](float X, float Y) { return X * Y; },
        [](double X, double Y) { return X * Y; });
  case Intrinsic::vector_reduce_fmax:
    return fMinMaxNum(L, A, B, true);
  case Intrinsic::vector_reduce_fmin:
    return fMinMaxNum(L, A, B, false);
  case Intrinsic::vector_reduce_fmaximum:
    return fMinMaxIEEE(L, A, B, true);
  default: // vector_reduce_fminimum
    return fMinMaxIEEE(L, A, B, false);
  }
}

/// llvm.vector.reduce.*: the elements are combined in order (fadd/fmul
/// start from their scalar start value, which is the sequential order the
/// LangRef prescribes without 'reassoc' and one of the orders it allows
/// with it). A poison element or start value makes the result poison.
static bool execReduction(LaneCtx &C, bool &Handled) {
  const DInst &D = C.I;
  bool Ordered = false, FP = false;
  switch (D.IID) {
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul:
    Ordered = true;
    [[fallthrough]];
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    FP = true;
    break;
  case Intrinsic::vector_reduce_add:
  case Intrinsic::vector_reduce_mul:
  case Intrinsic::vector_reduce_and:
  case Intrinsic::vector_reduce_or:
  case Intrinsic::vector_reduce_xor:
  case Intrinsic::vector_reduce_smin:
  case Intrinsic::vector_reduce_smax:
  case Intrinsic::vector_reduce_umin:
  case Intrinsic::vector_reduce_umax:
    break;
  default:
    Handled = false;
    return true;
  }
  Handled = true;
  const DecodedFunc &DF = *C.F.DF;
  Leaf L = DF.Leaves[DF.Slots[D.Res].LeafBegin];
  unsigned VecOp = Ordered ? 1 : 0, N = C.opSlot(VecOp).N;
  uint64_t P = Ordered ? C.opPoison(0) : 0;
  for (unsigned E = 0; E < N; ++E)
    P |= C.opPoison(VecOp, E);
  unsigned IID = D.IID;
  forLanes(C.Exec, [&](unsigned Lane) {
    uint64_t Acc = Ordered ? C.op(0, Lane) : C.op(VecOp, Lane, 0);
    for (unsigned E = Ordered ? 0 : 1; E < N; ++E) {
      uint64_t X = C.op(VecOp, Lane, E);
      Acc = FP ? reduceFPStep(IID, L, Acc, X)
               : reduceIntStep(IID, Acc, X, L.Bits);
    }
    C.res(Lane) = Acc;
  });
  C.setPoison(P);
  return true;
}

//===----------------------------------------------------------------------===//
// Three-way compares and saturating conversions
//===----------------------------------------------------------------------===//

/// Saturating float-to-integer conversion (LangRef "llvm.fptosi.sat" /
/// "llvm.fptoui.sat"): NaN gives 0, out-of-range values clamp to the
/// destination's range, others round toward zero.
static uint64_t fpToIntSat(double X, unsigned Bits, bool Signed) {
  if (std::isnan(X))
    return 0;
  double T = std::trunc(X);
  uint64_t M = maskBits(Bits);
  if (Signed) {
    double Lim = std::ldexp(1.0, Bits - 1); // 2^(Bits-1), exact
    if (T >= Lim)
      return M >> 1;
    if (T < -Lim)
      return (M >> 1) + 1;
    return (uint64_t)(int64_t)T & M;
  }
  if (T <= 0)
    return 0;
  if (T >= std::ldexp(1.0, Bits))
    return M;
  return (uint64_t)T;
}

/// llvm.scmp / llvm.ucmp (three-way compare: -1, 0, 1 in the result type)
/// and llvm.fptosi.sat / llvm.fptoui.sat, element-wise.
static bool execCompareConvert(LaneCtx &C, bool &Handled) {
  const DInst &D = C.I;
  bool Signed = D.IID == Intrinsic::scmp || D.IID == Intrinsic::fptosi_sat;
  bool Cmp = D.IID == Intrinsic::scmp || D.IID == Intrinsic::ucmp;
  if (!Cmp && D.IID != Intrinsic::fptosi_sat &&
      D.IID != Intrinsic::fptoui_sat) {
    Handled = false;
    return true;
  }
  Handled = true;
  const DecodedFunc &DF = *C.F.DF;
  unsigned NR = C.resLeaves();
  for (unsigned L = 0; L < NR; ++L) {
    Leaf R = DF.Leaves[DF.Slots[D.Res].LeafBegin + L];
    Leaf S = DF.Leaves[C.opSlot(0).LeafBegin + L];
    uint64_t P = C.opPoison(0, L) | (Cmp ? C.opPoison(1, L) : 0);
    forLanes(C.Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, L);
      if (!Cmp) {
        C.res(Lane, L) = fpToIntSat(leafToDouble(S, A), R.Bits, Signed);
        return;
      }
      uint64_t B = C.op(1, Lane, L);
      bool Less = Signed ? sext(A, S.Bits) < sext(B, S.Bits) : A < B;
      int64_t V = A == B ? 0 : Less ? -1 : 1;
      C.res(Lane, L) = (uint64_t)V & maskBits(R.Bits);
    });
    C.setPoison(P, L);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

bool Executor::Impl::execGenericIntrinsic(LaneCtx &C, bool &Handled) {
  // Each family runs the intrinsics it knows and clears Handled for the
  // others.
  static bool (*const Families[])(LaneCtx &, bool &) = {
      execFloatIntrinsic,    execFloatMathIntrinsic, execIntIntrinsic,
      execOverflowIntrinsic, execMarkerIntrinsic,    execReduction,
      execCompareConvert};
  for (bool (*Family)(LaneCtx &, bool &) : Families) {
    Handled = true;
    bool Ok = Family(C, Handled);
    if (Handled)
      return Ok;
  }
  Handled = true;
  return execMemIntrinsic(C, Handled);
}

} // namespace exec
} // namespace crosslane
