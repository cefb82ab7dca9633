//===- Execution.cpp - Instruction semantics ------------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What each non-call, non-terminator LLVM instruction does to the lanes
/// of a wave: execInst dispatches on the opcode to a short handler per
/// family (integer and float arithmetic, compares, select, casts, bitcast,
/// freeze, GEP, alloca, vector and aggregate element operations; loads,
/// stores and atomics are in Memory.cpp). Handlers loop over the active
/// lanes and set each result leaf's poison by LLVM's rules (flags, shifts,
/// fptosi out of range). Integers of 65..128 bits run in execWide.
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"
#include "LeafOps.h"
#include "crosslane/Support/Compare.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace crosslane {
namespace exec {

//===----------------------------------------------------------------------===//
// Integers of up to 64 bits
//===----------------------------------------------------------------------===//

/// Integer binary operator; sets \p Poison for flag violations and
/// out-of-range shifts; \p DivZero for division by zero / overflow.
static uint64_t intBinary(unsigned Opc, uint64_t A, uint64_t B, unsigned Bits,
                          bool NUW, bool NSW, bool Exact, bool &Poison,
                          bool &DivZero) {
  uint64_t M = maskBits(Bits);
  int64_t SA = sext(A, Bits), SB = sext(B, Bits);
  uint64_t R = 0;
  switch (Opc) {
  case Instruction::Add:
    R = (A + B) & M;
    if (NUW && R < A)
      Poison = true;
    if (NSW && sext(R, Bits) != (int64_t)((__int128)SA + SB))
      Poison = true;
    if (NSW && (__int128)SA + SB != (__int128)sext(R, Bits))
      Poison = true;
    break;
  case Instruction::Sub:
    R = (A - B) & M;
    if (NUW && B > A)
      Poison = true;
    if (NSW && (__int128)SA - SB != (__int128)sext(R, Bits))
      Poison = true;
    break;
  case Instruction::Mul: {
    R = (A * B) & M;
    if (NUW && (unsigned __int128)A * B != R)
      Poison = true;
    if (NSW && (__int128)SA * SB != (__int128)sext(R, Bits))
      Poison = true;
    break;
  }
  case Instruction::UDiv:
  case Instruction::URem:
    if (B == 0) {
      DivZero = true;
      return 0;
    }
    R = Opc == Instruction::UDiv ? A / B : A % B;
    if (Exact && A % B)
      Poison = true;
    break;
  case Instruction::SDiv:
  case Instruction::SRem:
    if (B == 0 || (SB == -1 && SA == sext(1ULL << (Bits - 1), Bits))) {
      DivZero = true;
      return 0;
    }
    R = (uint64_t)(Opc == Instruction::SDiv ? SA / SB : SA % SB) & M;
    if (Exact && SA % SB)
      Poison = true;
    break;
  case Instruction::Shl:
    if (B >= Bits) {
      Poison = true;
      return 0;
    }
    R = (A << B) & M;
    if (NUW && (R >> B) != A)
      Poison = true;
    if (NSW && (sext(R, Bits) >> B) != SA)
      Poison = true;
    break;
  case Instruction::LShr:
    if (B >= Bits) {
      Poison = true;
      return 0;
    }
    R = A >> B;
    if (Exact && (R << B) != A)
      Poison = true;
    break;
  case Instruction::AShr:
    if (B >= Bits) {
      Poison = true;
      return 0;
    }
    R = (uint64_t)(SA >> B) & M;
    if (Exact && ((A >> B) << B) != A)
      Poison = true;
    break;
  case Instruction::And:
    R = A & B;
    break;
  case Instruction::Or:
    R = A | B;
    break;
  case Instruction::Xor:
    R = A ^ B;
    break;
  }
  return R;
}

static bool execIntBinary(LaneCtx &C) {
  const DInst &D = C.I;
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  bool NUW = false, NSW = false, Exact = false;
  if (isa<OverflowingBinaryOperator>(I)) {
    NUW = I.hasNoUnsignedWrap();
    NSW = I.hasNoSignedWrap();
  }
  if (isa<PossiblyExactOperator>(I))
    Exact = I.isExact();
  bool Disjoint = false;
  if (auto *PD = dyn_cast<PossiblyDisjointInst>(&I))
    Disjoint = PD->isDisjoint();
  unsigned N = C.resLeaves();
  for (unsigned L = 0; L < N; ++L) {
    unsigned Bits = resLeaf(C, L).Bits;
    uint64_t P = C.opPoison(0, L) | C.opPoison(1, L);
    uint64_t NewP = 0;
    bool Bad = false;
    unsigned BadLane = 0;
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, L), B = C.op(1, Lane, L);
      bool Po = false, DZ = false;
      if ((P >> Lane) & 1) {
        // A poison divisor is UB; poison otherwise propagates.
        if ((D.Opc == Instruction::UDiv || D.Opc == Instruction::SDiv ||
             D.Opc == Instruction::URem || D.Opc == Instruction::SRem) &&
            ((C.opPoison(1, L) >> Lane) & 1)) {
          Bad = true;
          BadLane = Lane;
        }
        C.res(Lane, L) = 0;
        return;
      }
      uint64_t R = intBinary(D.Opc, A, B, Bits, NUW, NSW, Exact, Po, DZ);
      if (Disjoint && (A & B))
        Po = true;
      if (DZ) {
        Bad = true;
        BadLane = Lane;
      }
      C.res(Lane, L) = R;
      if (Po)
        NewP |= 1ULL << Lane;
    });
    if (Bad)
      return C.fail("integer division by zero, overflow or poison divisor "
                    "in lane " +
                    Twine(BadLane));
    C.setPoison(P | NewP, L);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Integers of 65..128 bits
//===----------------------------------------------------------------------===//

namespace {
using U128 = unsigned __int128;
using S128 = __int128;

U128 mask128(unsigned W) { return W >= 128 ? ~U128(0) : (U128(1) << W) - 1; }

/// \p X (of \p W bits) sign-extended to 128 bits.
S128 sext128(U128 X, unsigned W) {
  if (W < 128 && ((X >> (W - 1)) & 1))
    X |= ~mask128(W);
  return S128(X);
}

/// Whether \p S fits in \p W signed bits.
bool fitsSigned(S128 S, unsigned W) {
  return W >= 128 || S == sext128(U128(S) & mask128(W), W);
}

/// \p X (of \p W bits) as an APInt, for LLVM's own predicate evaluation.
APInt apInt128(U128 X, unsigned W) {
  uint64_t Words[2] = {uint64_t(X), uint64_t(X >> 64)};
  return APInt(W, Words);
}
} // namespace

namespace {
/// The flags of an operation on wide integers.
struct WideFlags {
  bool NUW = false, NSW = false, Exact = false, Disjoint = false;
  bool NNeg = false, SameSign = false;
};
} // namespace

/// One lane of execWide: the result \p R of \p I (opcode \p Opc, operand
/// width \p W, result width \p RW, result mask \p M) on \p A and \p B,
/// adding flag violations to \p Po (\p BPo: \p B is poison). False for a
/// division by zero, a poison divisor or signed overflow of a division.
static bool wideLane(const Instruction &I, unsigned Opc, const WideFlags &Fl,
                     unsigned W, unsigned RW, U128 M, U128 A, U128 B, bool BPo,
                     U128 &R, bool &Po) {
  S128 SA = sext128(A, W), SB = sext128(B, W);
  switch (Opc) {
  case Instruction::Add:
    R = (A + B) & M;
    Po |= (Fl.NUW && (R < A || (W < 128 && A + B > M))) ||
          (Fl.NSW && !fitsSigned(SA + SB, W)) ||
          (Fl.NSW && W == 128 && ((SA < 0) == (SB < 0)) &&
           ((S128(R) < 0) != (SA < 0)));
    break;
  case Instruction::Sub:
    R = (A - B) & M;
    Po |= (Fl.NUW && A < B) || (Fl.NSW && W < 128 && !fitsSigned(SA - SB, W)) ||
          (Fl.NSW && W == 128 && ((SA < 0) != (SB < 0)) &&
           ((S128(R) < 0) != (SA < 0)));
    break;
  case Instruction::Mul: {
    U128 T;
    S128 ST;
    R = (A * B) & M;
    Po |=
        (Fl.NUW && (__builtin_mul_overflow(A, B, &T) || T > M)) ||
        (Fl.NSW && (__builtin_mul_overflow(SA, SB, &ST) || !fitsSigned(ST, W)));
    break;
  }
  case Instruction::UDiv:
  case Instruction::URem:
  case Instruction::SDiv:
  case Instruction::SRem: {
    bool Signed = Opc == Instruction::SDiv || Opc == Instruction::SRem;
    if (BPo || B == 0 ||
        (Signed && SB == -1 && SA == sext128(U128(1) << (W - 1), W))) {
      return false;
    }
    if (Opc == Instruction::UDiv)
      R = A / B, Po |= Fl.Exact && A % B;
    else if (Opc == Instruction::URem)
      R = A % B;
    else if (Opc == Instruction::SDiv)
      R = U128(SA / SB) & M, Po |= Fl.Exact && SA % SB;
    else
      R = U128(SA % SB) & M;
    break;
  }
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
    if (B >= W) {
      Po = true;
      break;
    }
    if (Opc == Instruction::Shl) {
      R = (A << unsigned(B)) & M;
      Po |= (Fl.NUW && (R >> unsigned(B)) != A) ||
            (Fl.NSW && (sext128(R, W) >> unsigned(B)) != SA);
    } else if (Opc == Instruction::LShr) {
      R = A >> unsigned(B);
      Po |= Fl.Exact && (R << unsigned(B)) != A;
    } else {
      R = U128(SA >> unsigned(B)) & M;
      Po |= Fl.Exact && (A & mask128(unsigned(B)));
    }
    break;
  case Instruction::And:
    R = A & B;
    break;
  case Instruction::Or:
    R = A | B;
    Po |= Fl.Disjoint && (A & B);
    break;
  case Instruction::Xor:
    R = A ^ B;
    break;
  case Instruction::ICmp:
    R = ICmpInst::compare(apInt128(A, W), apInt128(B, W),
                          cast<ICmpInst>(I).getPredicate());
    Po |= Fl.SameSign && ((SA < 0) != (SB < 0));
    break;
  case Instruction::ZExt:
    R = A;
    Po |= Fl.NNeg && ((A >> (W - 1)) & 1);
    break;
  case Instruction::SExt:
    R = U128(SA) & M;
    break;
  default: // Trunc
    R = A & M;
    Po |= (Fl.NUW && R != A) || (Fl.NSW && sext128(R, RW) != SA);
    break;
  }
  Po |= BPo && Opc != Instruction::UDiv && Opc != Instruction::SDiv;
  return true;
}

/// Arithmetic, compares and casts with integers of 65..128 bits (two
/// leaves, low first), computed in 128-bit host integers with LLVM's
/// poison rules for the flags; division by zero or signed overflow of a
/// division is an error (undefined behaviour), as for narrower integers.
bool Executor::Impl::execWide(LaneCtx &C, const DInst &D) {
  const Instruction &I = *D.I;
  auto WidthOf = [](const Value *V) {
    return V->getType()->getIntegerBitWidth();
  };
  unsigned W = WidthOf(I.getOperand(0)); // operand width
  unsigned RW = WidthOf(&I);             // result width (i1 for icmp)
  U128 M = mask128(isa<ICmpInst>(I) ? W : RW);
  WideFlags Fl;
  if (isa<OverflowingBinaryOperator>(I) || isa<TruncInst>(I)) {
    Fl.NUW = I.hasNoUnsignedWrap();
    Fl.NSW = I.hasNoSignedWrap();
  }
  if (isa<PossiblyExactOperator>(I))
    Fl.Exact = I.isExact();
  if (auto *PD = dyn_cast<PossiblyDisjointInst>(&I))
    Fl.Disjoint = PD->isDisjoint();
  if (auto *PN = dyn_cast<PossiblyNonNegInst>(&I))
    Fl.NNeg = PN->hasNonNeg();
  if (auto *IC = dyn_cast<ICmpInst>(&I))
    Fl.SameSign = IC->hasSameSign();
  auto Get = [&](unsigned K, unsigned Lane, bool &Po) -> U128 {
    Po |= (C.opPoison(K, 0) >> Lane) & 1;
    U128 X = C.op(K, Lane, 0);
    if (isWideInt(I.getOperand(K)->getType())) {
      Po |= (C.opPoison(K, 1) >> Lane) & 1;
      X |= U128(C.op(K, Lane, 1)) << 64;
    }
    return X;
  };
  uint64_t P = 0;
  std::string Err;
  forLanes(C.Exec, [&](unsigned Lane) {
    bool Po = false, BPo = false;
    U128 A = Get(0, Lane, Po), B = 0;
    if (I.getNumOperands() > 1)
      B = Get(1, Lane, BPo);
    U128 R = 0;
    if (!wideLane(I, D.Opc, Fl, W, RW, M, A, B, BPo, R, Po)) {
      if (Err.empty())
        Err = "division by zero, a poison divisor or signed overflow in "
              "lane " +
              std::to_string(Lane);
      return;
    }
    C.res(Lane, 0) = uint64_t(R);
    if (isWideInt(I.getType()))
      C.res(Lane, 1) = uint64_t(R >> 64);
    if (Po)
      P |= 1ULL << Lane;
  });
  if (!Err.empty())
    return C.fail(Err);
  C.setPoison(P, 0);
  if (isWideInt(I.getType()))
    C.setPoison(P, 1);
  return true;
}

//===----------------------------------------------------------------------===//
// Other instructions
//===----------------------------------------------------------------------===//

static bool execFPBinary(LaneCtx &C) {
  const DInst &D = C.I;
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  unsigned N = C.resLeaves();
  FastMathFlags FMF = I.getFastMathFlags();
  for (unsigned L = 0; L < N; ++L) {
    Leaf LT = resLeaf(C, L);
    uint64_t P = C.opPoison(0, L) | C.opPoison(1, L);
    uint64_t NewP = 0;
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, L), B = C.op(1, Lane, L), R = 0;
      switch (D.Opc) {
      case Instruction::FAdd:
        R = fpBinary(
            LT, A, B, [](float X, float Y) { return X + Y; },
            [](double X, double Y) { return X + Y; });
        break;
      case Instruction::FSub:
        R = fpBinary(
            LT, A, B, [](float X, float Y) { return X - Y; },
            [](double X, double Y) { return X - Y; });
        break;
      case Instruction::FMul:
        R = fpBinary(
            LT, A, B, [](float X, float Y) { return X * Y; },
            [](double X, double Y) { return X * Y; });
        break;
      case Instruction::FDiv:
        R = fpBinary(
            LT, A, B, [](float X, float Y) { return X / Y; },
            [](double X, double Y) { return X / Y; });
        break;
      default:
        R = fpBinary(
            LT, A, B, [](float X, float Y) { return std::fmod(X, Y); },
            [](double X, double Y) { return std::fmod(X, Y); });
      }
      C.res(Lane, L) = R;
      if ((FMF.noNaNs() &&
           (leafIsNaN(LT, A) || leafIsNaN(LT, B) || leafIsNaN(LT, R))) ||
          (FMF.noInfs() && (std::isinf(leafToDouble(LT, A)) ||
                            std::isinf(leafToDouble(LT, B)) ||
                            std::isinf(leafToDouble(LT, R)))))
        NewP |= 1ULL << Lane;
    });
    C.setPoison(P | NewP, L);
  }
  return true;
}

static bool execFNeg(LaneCtx &C) {
  uint64_t Exec = C.Exec;
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
    uint64_t SB = signBit(resLeaf(C, L));
    forLanes(Exec,
             [&](unsigned Lane) { C.res(Lane, L) = C.op(0, Lane, L) ^ SB; });
    C.setPoison(C.opPoison(0, L), L);
  }
  return true;
}

static bool execCompare(LaneCtx &C) {
  const DInst &D = C.I;
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  auto Pred = cast<CmpInst>(I).getPredicate();
  bool IsF = D.Opc == Instruction::FCmp;
  FastMathFlags FMF;
  if (IsF)
    FMF = I.getFastMathFlags();
  bool SameSign = false;
  if (auto *IC = dyn_cast<ICmpInst>(&I))
    SameSign = IC->hasSameSign();
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
    Leaf OL = opLeaf(C, 0, L);
    unsigned Bits = OL.Bits;
    uint64_t P = C.opPoison(0, L) | C.opPoison(1, L), NewP = 0;
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, L), B = C.op(1, Lane, L);
      bool R;
      if (IsF) {
        double X = leafToDouble(OL, A), Y = leafToDouble(OL, B);
        R = evalFCmp(Pred, X, Y);
        if ((FMF.noNaNs() && (std::isnan(X) || std::isnan(Y))) ||
            (FMF.noInfs() && (std::isinf(X) || std::isinf(Y))))
          NewP |= 1ULL << Lane;
      } else {
        R = evalICmp(Pred, A, B, Bits);
        if (SameSign && ((A ^ B) >> (Bits - 1)) & 1)
          NewP |= 1ULL << Lane;
      }
      C.res(Lane, L) = R;
    });
    C.setPoison(P | NewP, L);
  }
  return true;
}

static bool execSelect(LaneCtx &C) {
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  bool VecCond = I.getOperand(0)->getType()->isVectorTy();
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
    unsigned CL = VecCond ? L : 0;
    uint64_t CP = C.opPoison(0, CL), PT = C.opPoison(1, L),
             PF = C.opPoison(2, L), P = CP;
    forLanes(Exec, [&](unsigned Lane) {
      bool Cond = C.op(0, Lane, CL) & 1;
      C.res(Lane, L) = Cond ? C.op(1, Lane, L) : C.op(2, Lane, L);
      if (((Cond ? PT : PF) >> Lane) & 1)
        P |= 1ULL << Lane;
    });
    C.setPoison(P, L);
  }
  return true;
}

bool Executor::Impl::execCast(LaneCtx &C) {
  const DInst &D = C.I;
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  bool NUW = false, NSW = false, NNeg = false;
  if (auto *TI = dyn_cast<TruncInst>(&I)) {
    NUW = TI->hasNoUnsignedWrap();
    NSW = TI->hasNoSignedWrap();
  }
  if (auto *PN = dyn_cast<PossiblyNonNegInst>(&I))
    NNeg = PN->hasNonNeg();
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
    Leaf From = opLeaf(C, 0, L), To = resLeaf(C, L);
    unsigned FB = leafBits(From), TB = leafBits(To);
    uint64_t P = C.opPoison(0, L), NewP = 0;
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, L), R = 0;
      bool Po = false;
      switch (D.Opc) {
      case Instruction::Trunc:
        R = A & maskBits(TB);
        if (NUW && R != A)
          Po = true;
        if (NSW && sext(R, TB) != sext(A, FB))
          Po = true;
        break;
      case Instruction::ZExt:
        R = A;
        if (NNeg && (A >> (FB - 1)) & 1)
          Po = true;
        break;
      case Instruction::SExt:
        R = (uint64_t)sext(A, FB) & maskBits(TB);
        break;
      case Instruction::PtrToInt:
      case Instruction::IntToPtr:
      case Instruction::PtrToAddr:
        R = A & maskBits(TB);
        break;
      case Instruction::AddrSpaceCast:
        R = castAddr(From.AS, To.AS, A, Lane) & maskBits(TB);
        break;
      case Instruction::FPTrunc:
      case Instruction::FPExt:
        R = castFP(From, To, A);
        break;
      case Instruction::FPToUI:
      case Instruction::FPToSI: {
        double X = leafToDouble(From, A);
        double T = std::trunc(X);
        bool Signed = D.Opc == Instruction::FPToSI;
        double Lo = Signed ? -std::ldexp(1.0, TB - 1) : 0.0;
        double Hi = Signed ? std::ldexp(1.0, TB - 1) : std::ldexp(1.0, TB);
        if (std::isnan(X) || T < Lo || T >= Hi) {
          Po = true;
          break;
        }
        R = Signed ? (uint64_t)(int64_t)T & maskBits(TB)
                   : (uint64_t)T & maskBits(TB);
        break;
      }
      case Instruction::UIToFP:
      case Instruction::SIToFP: {
        if (NNeg && (A >> (FB - 1)) & 1)
          Po = true;
        bool Signed = D.Opc == Instruction::SIToFP;
        if (To.K == LeafKind::Float) {
          float X = Signed ? (float)sext(A, FB) : (float)A;
          uint32_t B;
          std::memcpy(&B, &X, 4);
          R = B;
        } else if (To.K == LeafKind::Double) {
          double X = Signed ? (double)sext(A, FB) : (double)A;
          std::memcpy(&R, &X, 8);
        } else {
          APFloat F(semOf(To.K));
          F.convertFromAPInt(APInt(FB, A), Signed,
                             APFloat::rmNearestTiesToEven);
          R = F.bitcastToAPInt().getZExtValue();
        }
        break;
      }
      }
      C.res(Lane, L) = R;
      if (Po)
        NewP |= 1ULL << Lane;
    });
    C.setPoison(P | NewP, L);
  }
  return true;
}

/// Same leaf count: leaf by leaf; otherwise through a little-endian bit
/// string, poison if any source leaf is.
static bool execBitCast(LaneCtx &C) {
  uint64_t Exec = C.Exec;
  unsigned NS = C.opSlot(0).N, NR = C.resLeaves();
  if (NS == NR) {
    for (unsigned L = 0; L < NR; ++L) {
      forLanes(Exec, [&](unsigned Lane) { C.res(Lane, L) = C.op(0, Lane, L); });
      C.setPoison(C.opPoison(0, L), L);
    }
    return true;
  }
  // Reinterpret through a little-endian bit string.
  unsigned SB = leafBits(opLeaf(C, 0, 0)), RB = leafBits(resLeaf(C, 0));
  uint64_t AnyP = 0;
  for (unsigned L = 0; L < NS; ++L)
    AnyP |= C.opPoison(0, L);
  forLanes(Exec, [&](unsigned Lane) {
    uint8_t Buf[64] = {0};
    for (unsigned L = 0; L < NS; ++L)
      for (unsigned B = 0; B < SB; ++B)
        if ((C.op(0, Lane, L) >> B) & 1) {
          unsigned Bit = L * SB + B;
          Buf[Bit / 8] |= 1 << (Bit % 8);
        }
    for (unsigned L = 0; L < NR; ++L) {
      uint64_t R = 0;
      for (unsigned B = 0; B < RB; ++B) {
        unsigned Bit = L * RB + B;
        if ((Buf[Bit / 8] >> (Bit % 8)) & 1)
          R |= 1ULL << B;
      }
      C.res(Lane, L) = R;
    }
  });
  for (unsigned L = 0; L < NR; ++L)
    C.setPoison(AnyP, L);
  return true;
}

static bool execFreeze(LaneCtx &C) {
  uint64_t Exec = C.Exec;
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
    uint64_t P = C.opPoison(0, L);
    forLanes(Exec, [&](unsigned Lane) {
      C.res(Lane, L) = ((P >> Lane) & 1) ? 0 : C.op(0, Lane, L);
    });
    C.setPoison(0, L);
  }
  return true;
}

static bool execGEP(LaneCtx &C) {
  const DInst &D = C.I;
  uint64_t Exec = C.Exec;
  unsigned Bits = resLeaf(C, 0).Bits;
  uint64_t P = C.opPoison(0);
  for (auto &GI : D.GepIdx)
    P |= C.opPoison(GI.first);
  forLanes(Exec, [&](unsigned Lane) {
    uint64_t A = C.op(0, Lane) + D.ConstOff;
    for (auto &GI : D.GepIdx) {
      unsigned IB = opLeaf(C, GI.first, 0).Bits;
      A += (uint64_t)(sext(C.op(GI.first, Lane), IB) * GI.second);
    }
    C.res(Lane) = A & maskBits(Bits);
  });
  C.setPoison(P);
  return true;
}

bool Executor::Impl::execAlloca(LaneCtx &C) {
  const DInst &D = C.I;
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  Frame &F = C.F;
  // An alloca outside the private address space (riscv32: 0) yields the
  // lane's flat private address.
  unsigned AS = cast<AllocaInst>(I).getAddressSpace();
  bool Flat = TM->memSpace(AS) != MemSpace::Private;
  forLanes(Exec, [&](unsigned Lane) {
    uint64_t Off = F.PrivBase + D.ConstOff;
    C.res(Lane) = Flat ? Map.privateToFlat(Lane, Off) : Off;
  });
  C.setPoison(0);
  return true;
}

/// extractelement / insertelement: an out-of-range or poison index gives
/// poison.
static bool execVectorElement(LaneCtx &C) {
  const DInst &D = C.I;
  uint64_t Exec = C.Exec;
  bool Ins = D.Opc == Instruction::InsertElement;
  unsigned IdxOp = Ins ? 2 : 1;
  unsigned NV = C.opSlot(0).N;
  unsigned IB = opLeaf(C, IdxOp, 0).Bits;
  uint64_t IP = C.opPoison(IdxOp);
  unsigned NR = C.resLeaves();
  SmallVector<uint64_t, 8> P(NR, 0);
  forLanes(Exec, [&](unsigned Lane) {
    uint64_t Idx = C.op(IdxOp, Lane) & maskBits(IB);
    bool Bad = ((IP >> Lane) & 1) || Idx >= NV;
    if (Ins) {
      for (unsigned L = 0; L < NR; ++L) {
        bool Take = L == Idx;
        C.res(Lane, L) = Take ? C.op(1, Lane) : C.op(0, Lane, L);
        uint64_t SP = Take ? C.opPoison(1) : C.opPoison(0, L);
        if (Bad || ((SP >> Lane) & 1))
          P[L] |= 1ULL << Lane;
      }
    } else {
      C.res(Lane) = Bad ? 0 : C.op(0, Lane, Idx);
      if (Bad || ((C.opPoison(0, Idx) >> Lane) & 1))
        P[0] |= 1ULL << Lane;
    }
  });
  for (unsigned L = 0; L < NR; ++L)
    C.setPoison(P[L], L);
  return true;
}

static bool execShuffleVector(LaneCtx &C) {
  const DInst &D = C.I;
  uint64_t Exec = C.Exec;
  unsigned N0 = C.opSlot(0).N;
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
    int M = D.Mask[L];
    if (M < 0) {
      C.setPoison(~0ULL, L);
      continue;
    }
    unsigned Op = (unsigned)M < N0 ? 0 : 1;
    unsigned SL = Op ? M - N0 : M;
    forLanes(Exec, [&](unsigned Lane) { C.res(Lane, L) = C.op(Op, Lane, SL); });
    C.setPoison(C.opPoison(Op, SL), L);
  }
  return true;
}

static bool execExtractValue(LaneCtx &C) {
  const DInst &D = C.I;
  uint64_t Exec = C.Exec;
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
    forLanes(Exec, [&](unsigned Lane) {
      C.res(Lane, L) = C.op(0, Lane, D.LeafOff + L);
    });
    C.setPoison(C.opPoison(0, D.LeafOff + L), L);
  }
  return true;
}

static bool execInsertValue(LaneCtx &C) {
  const DInst &D = C.I;
  uint64_t Exec = C.Exec;
  unsigned NI = C.opSlot(1).N;
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
    bool In = L >= D.LeafOff && L < D.LeafOff + NI;
    unsigned Op = In ? 1 : 0, SL = In ? L - D.LeafOff : L;
    forLanes(Exec, [&](unsigned Lane) { C.res(Lane, L) = C.op(Op, Lane, SL); });
    C.setPoison(C.opPoison(Op, SL), L);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

bool Executor::Impl::execInst(Frame &F, const DInst &D, uint64_t Exec,
                              uint64_t LaneMask) {
  LaneCtx C{{*this, F, D, Exec, LaneMask, W}};
  const Instruction &I = *D.I;
  Stats.LaneInstructions += llvm::popcount(Exec);
  ++Stats.WaveInstructions;
  if (D.Wide)
    return execWide(C, D);
  switch (D.Opc) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    return execIntBinary(C);
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
  case Instruction::FDiv:
  case Instruction::FRem:
    return execFPBinary(C);
  case Instruction::FNeg:
    return execFNeg(C);
  case Instruction::ICmp:
  case Instruction::FCmp:
    return execCompare(C);
  case Instruction::Select:
    return execSelect(C);
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::FPTrunc:
  case Instruction::FPExt:
  case Instruction::FPToUI:
  case Instruction::FPToSI:
  case Instruction::UIToFP:
  case Instruction::SIToFP:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToAddr:
    return execCast(C);
  case Instruction::BitCast:
    return execBitCast(C);
  case Instruction::Freeze:
    return execFreeze(C);
  case Instruction::GetElementPtr:
    return execGEP(C);
  case Instruction::Alloca:
    return execAlloca(C);
  case Instruction::Load:
    return execLoad(C);
  case Instruction::Store:
    return execStore(C);
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg:
    return execAtomic(C);
  case Instruction::Fence:
    return true;
  case Instruction::ExtractElement:
  case Instruction::InsertElement:
    return execVectorElement(C);
  case Instruction::ShuffleVector:
    return execShuffleVector(C);
  case Instruction::ExtractValue:
    return execExtractValue(C);
  case Instruction::InsertValue:
    return execInsertValue(C);
  default:
    break;
  }
  return failAt(I,
                Twine("unsupported instruction '") + I.getOpcodeName() + "'");
}

} // namespace exec
} // namespace crosslane
