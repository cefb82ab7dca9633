//===- XeOpenCLMath.cpp - OpenCL C math, integer and conversion built-ins -===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The OpenCL C built-ins a kernel calls by name for arithmetic (OpenCL C
/// 3.0 §6.15.2-6.15.6): floating-point math through the table HIP's
/// __ocml_ functions use (Builtins.h), integer functions, relational and
/// geometric functions and conversions, element by element on scalars and
/// vectors. What a call means is read from its mangled name: the base name
/// and the first parameter's type (signedness). A form not modelled is
/// left to the caller, which reports the call by name.
///
//===----------------------------------------------------------------------===//

#include "XeSubgroup.h"

#include "LeafOps.h"

#include "crosslane/Executor/Builtins.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace llvm;

namespace crosslane {
namespace exec {
namespace xe {

namespace {

/// OpenCL's math functions on half, float or double scalars and vectors
/// (sqrt, exp, fmax, fma, mad, min/max/clamp on floating point, the native_
/// and half_ forms; a scalar operand of a vector form, as in fmax(float4,
/// float), applies to every element), computed as the HIP side's __ocml_
/// ones are (Builtins.h), element by element.
int mathCall(OpCtx &C, StringRef Base) {
  Type *T = C.inst().getType(), *ET = T->getScalarType();
  if (!ET->isFloatingPointTy())
    return 0;
  unsigned N = elements(T);
  SmallVector<bool, 3> Scalar;
  for (unsigned K = 0; K < C.numOps(); ++K) {
    if (C.opType(K) != T && C.opType(K) != ET)
      return 0; // mixed element types: not a math function modelled
    Scalar.push_back(C.opType(K) != T);
  }
  StringRef Fn = Base;
  if (!Fn.consume_front("half_"))
    Fn.consume_front("native_");
  Fn = StringSwitch<StringRef>(Fn)
           .Case("max", "fmax")
           .Case("min", "fmin")
           .Default(Fn);
  Leaf L = scalarLeaf(ET);
  SmallVector<uint64_t, 3> Args(C.numOps(), 0);
  auto Eval = [&]() -> std::optional<uint64_t> {
    auto D = [&](unsigned K) { return leafToDouble(L, Args[K]); };
    if (Fn == "divide" && Args.size() == 2)
      return doubleToLeaf(L, D(0) / D(1));
    if (Fn == "recip" && Args.size() == 1)
      return doubleToLeaf(L, 1.0 / D(0));
    if (Fn == "mix" && Args.size() == 3)
      return doubleToLeaf(L, D(0) + (D(1) - D(0)) * D(2));
    if (Fn == "smoothstep" && Args.size() == 3) {
      double T = std::clamp((D(2) - D(0)) / (D(1) - D(0)), 0.0, 1.0);
      return doubleToLeaf(L, T * T * (3 - 2 * T));
    }
    if (Fn != "clamp" || Args.size() != 3)
      return mathFunction(Fn, ET, Args);
    // clamp(x, lo, hi) = fmin(fmax(x, lo), hi)
    std::optional<uint64_t> Lo = mathFunction("fmax", ET, {Args[0], Args[1]});
    return Lo ? mathFunction("fmin", ET, {*Lo, Args[2]}) : std::nullopt;
  };
  if (!Eval())
    return 0; // not a math function modelled
  for (unsigned E = 0; E < N; ++E) {
    uint64_t Poison = 0;
    for (unsigned K = 0; K < C.numOps(); ++K)
      Poison |= C.opPoison(K, Scalar[K] ? 0 : E);
    forLanes(C.Exec, [&](unsigned Lane) {
      for (unsigned K = 0; K < C.numOps(); ++K)
        Args[K] = C.op(K, Lane, Scalar[K] ? 0 : E);
      C.res(Lane, E) = *Eval();
    });
    C.setPoison(Poison & C.Exec, E);
  }
  return 1;
}

/// x * 2^n, x^n and the n-th root of x for a floating-point x and an
/// integer n (ldexp, pown, rootn; a scalar n applies to every element),
/// in double, rounded once.
double intExponent(StringRef Fn, double X, int64_t N) {
  if (Fn == "ldexp")
    return std::ldexp(X, int(std::clamp<int64_t>(N, -100000, 100000)));
  if (Fn == "pown")
    return std::pow(X, double(N));
  // rootn: NaN for n = 0 and for a negative x with an even n.
  if (N == 0 || std::isnan(X) || (X < 0 && N % 2 == 0))
    return std::numeric_limits<double>::quiet_NaN();
  if (X == 0)
    return N < 0 ? (N % 2 ? std::copysign(INFINITY, X) : INFINITY)
                 : (N % 2 ? X : 0.0);
  double R = std::pow(std::fabs(X), 1.0 / double(N));
  return X < 0 ? -R : R;
}

int intExponentCall(OpCtx &C, StringRef Base) {
  Type *T = C.inst().getType(), *ET = T->getScalarType();
  if ((Base != "ldexp" && Base != "pown" && Base != "rootn") ||
      C.numOps() != 2 || !ET->isFloatingPointTy() || C.opType(0) != T)
    return 0;
  Type *NT = C.opType(1);
  bool ScalarN = !NT->isVectorTy();
  if (!NT->getScalarType()->isIntegerTy(32) ||
      (!ScalarN && elements(NT) != elements(T)))
    return 0;
  Leaf L = scalarLeaf(ET);
  for (unsigned E = 0; E < elements(T); ++E) {
    unsigned NE = ScalarN ? 0 : E;
    forLanes(C.Exec, [&](unsigned Lane) {
      double X = leafToDouble(L, C.op(0, Lane, E));
      int64_t N = SignExtend64(C.op(1, Lane, NE), 32);
      C.res(Lane, E) = doubleToLeaf(L, intExponent(Base, X, N));
    });
    C.setPoison((C.opPoison(0, E) | C.opPoison(1, NE)) & C.Exec, E);
  }
  return 1;
}

/// nextafter(x, y) on the bit patterns of float kind \p L (OpenCL C 3.0
/// §6.15.2, as C99 §7.12.11.3): the next representable value after x
/// toward y; y if they are equal (so +0 toward -0 is -0), the smallest
/// subnormal of y's sign after a zero, NaN if either is NaN.
uint64_t nextAfter(Leaf L, uint64_t X, uint64_t Y) {
  if (leafIsNaN(L, X) || leafIsNaN(L, Y))
    return quietNaN(L, leafIsNaN(L, X) ? X : Y);
  double DX = leafToDouble(L, X), DY = leafToDouble(L, Y);
  if (DX == DY)
    return Y;
  if (DX == 0)
    return (DY < 0 ? signBit(L) : 0) | 1;
  // Sign and magnitude: one more in the magnitude moves away from zero.
  return (DY > DX) == (DX > 0) ? X + 1 : X - 1;
}

/// ilogb(x) (OpenCL C 3.0 §6.15.2): the unbiased exponent of x as an int,
/// subnormals' exact; FP_ILOGB0 (INT_MIN, as opencl-c-base.h defines it)
/// for a zero, FP_ILOGBNAN (INT_MAX) for NaN, INT_MAX for an infinity.
uint32_t ilogbOf(Leaf L, uint64_t X) {
  double D = leafToDouble(L, X);
  if (D == 0)
    return uint32_t(std::numeric_limits<int32_t>::min());
  if (std::isnan(D) || std::isinf(D))
    return uint32_t(std::numeric_limits<int32_t>::max());
  return uint32_t(std::ilogb(D));
}

/// nan(nancode) (OpenCL C 3.0 §6.15.2): a quiet NaN of float kind \p L
/// whose other significand bits are nancode's low ones (sign 0).
uint64_t nanWithCode(Leaf L, uint64_t Code) {
  unsigned M = L.K == LeafKind::Double ? 52 : L.K == LeafKind::Half ? 10 : 23;
  uint64_t Exponent = maskBits(leafBits(L) - 1) & ~maskBits(M);
  return quietNaN(L, Exponent | (Code & maskBits(M)));
}

/// nextafter(x, y), ilogb(x) and nan(nancode) on half, float and double
/// scalars and vectors, element by element on the bit patterns.
int floatBitsCall(OpCtx &C, StringRef Base) {
  unsigned Ops = Base == "nextafter" ? 2 : 1;
  if ((Ops == 1 && Base != "ilogb" && Base != "nan") || C.numOps() != Ops)
    return 0;
  Type *T = C.inst().getType(), *AT = C.opType(0);
  Type *FT = (Base == "ilogb" ? AT : T)->getScalarType();
  if (!FT->isFloatingPointTy() || elements(AT) != elements(T) ||
      (Ops == 2 && (AT != T || C.opType(1) != T)) ||
      (Base == "ilogb" && !T->getScalarType()->isIntegerTy(32)) ||
      (Base == "nan" &&
       (!AT->getScalarType()->isIntegerTy() ||
        AT->getScalarSizeInBits() != T->getScalarSizeInBits())))
    return 0;
  Leaf L = scalarLeaf(FT);
  for (unsigned E = 0; E < elements(T); ++E) {
    forLanes(C.Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, E);
      C.res(Lane, E) = Ops == 2          ? nextAfter(L, A, C.op(1, Lane, E))
                       : Base == "ilogb" ? ilogbOf(L, A)
                                         : nanWithCode(L, A);
    });
    uint64_t Poison = C.opPoison(0, E) | (Ops == 2 ? C.opPoison(1, E) : 0);
    C.setPoison(Poison & C.Exec, E);
  }
  return 1;
}

/// upsample(hi, lo) (OpenCL C 3.0 §6.15.3): (hi << n) | lo for n-bit char,
/// short or int elements (lo unsigned), a result of 2n bits, signed as hi
/// is (the bits are the same either way).
int upsampleCall(OpCtx &C) {
  Type *T = C.inst().getType(), *AT = C.numOps() ? C.opType(0) : nullptr;
  if (C.numOps() != 2 || C.opType(1) != AT ||
      !AT->getScalarType()->isIntegerTy() ||
      !T->getScalarType()->isIntegerTy() || elements(AT) != elements(T) ||
      T->getScalarSizeInBits() != 2 * AT->getScalarSizeInBits())
    return 0;
  unsigned Bits = AT->getScalarSizeInBits();
  for (unsigned E = 0; E < elements(T); ++E) {
    forLanes(C.Exec, [&](unsigned Lane) {
      uint64_t Hi = C.op(0, Lane, E) & maskBits(Bits);
      C.res(Lane, E) = (Hi << Bits) | (C.op(1, Lane, E) & maskBits(Bits));
    });
    C.setPoison((C.opPoison(0, E) | C.opPoison(1, E)) & C.Exec, E);
  }
  return 1;
}

/// The largest value below 1 of float kind \p L (fract's upper bound).
uint64_t belowOne(Leaf L) {
  return doubleToLeaf(L, L.K == LeafKind::Double ? 0x1.fffffffffffffp-1
                         : L.K == LeafKind::Half ? 0x1.ffcp-1
                                                 : 0x1.fffffep-1);
}

/// remquo's quotient bits: the low 7 bits of the integer k nearest |x/y|
/// (ties to even), with the sign of x/y; x and y finite, y not 0.
int32_t remquoBits(double X, double Y) {
  double AX = std::fabs(X), AY = std::fabs(Y);
  // k mod 128 from x mod 128|y| (exact; k keeps its parity, so the tie
  // breaks alike): k' = (x' - remainder(x', |y|)) / |y| is at most 128.
  double Range = AY * 128;
  double XR = std::isinf(Range) ? AX : std::fmod(AX, Range);
  double K = std::nearbyint((XR - std::remainder(XR, AY)) / AY);
  int32_t Bits = int32_t(K) & 127;
  return std::signbit(X) != std::signbit(Y) ? -Bits : Bits;
}

/// One element of fract, modf, frexp, sincos, remquo or lgamma_r (OpenCL C
/// 3.0 §6.15.2, edge cases §7.5.1): the result's bits and what goes
/// through the pointer (the same float kind, or an int).
std::pair<uint64_t, uint64_t> outPointerOp(StringRef Fn, Type *ET, Leaf L,
                                           uint64_t A, uint64_t B) {
  double X = leafToDouble(L, A), Y = leafToDouble(L, B);
  auto F = [&](double V) { return doubleToLeaf(L, V); };
  if (Fn == "fract") {
    // fmin(x - floor(x), the largest value below 1); +-0 and NaN give
    // themselves twice, +-inf gives +-0 and +-inf.
    if (std::isnan(X) || X == 0)
      return {A, A};
    if (std::isinf(X))
      return {F(std::copysign(0.0, X)), A};
    double Fl = std::floor(X);
    uint64_t R = F(X - Fl);
    return {leafToDouble(L, R) < 1 ? R : belowOne(L), F(Fl)};
  }
  if (Fn == "modf") {
    double Int, Frac = std::modf(X, &Int);
    return {F(Frac), F(Int)};
  }
  if (Fn == "frexp") {
    // +-inf and NaN: themselves, exponent 0.
    int Exp = 0;
    double M = std::isfinite(X) ? std::frexp(X, &Exp) : X;
    return {F(M), uint32_t(Exp)};
  }
  if (Fn == "sincos")
    return {*mathFunction("sin", ET, {A}), *mathFunction("cos", ET, {A})};
  if (Fn == "remquo") {
    if (std::isnan(X) || std::isnan(Y) || std::isinf(X) || Y == 0)
      return {F(std::numeric_limits<double>::quiet_NaN()), 0};
    return {F(std::remainder(X, Y)), uint32_t(remquoBits(X, Y))};
  }
  // lgamma_r: the sign of gamma(x) (0 at its poles, zero and the negative
  // integers, as the specification says, and at NaN and -inf, which have
  // none).
  int32_t Sign = 1;
  if (std::isnan(X) || X == -INFINITY || (X <= 0 && X == std::floor(X)))
    Sign = 0;
  else if (X < 0)
    Sign = std::fmod(std::floor(X), 2.0) != 0 ? -1 : 1;
  return {*mathFunction("lgamma", ET, {A}), uint32_t(Sign)};
}

/// fract(x, iptr), modf(x, iptr), frexp(x, exp), sincos(x, cosval),
/// remquo(x, y, quo), lgamma_r(x, signp) on floating-point scalars and
/// vectors, the pointer in any address space: element e's second result
/// goes to the pointer's element e.
int outPointerCall(OpCtx &C, StringRef Base) {
  bool Int = Base == "frexp" || Base == "remquo" || Base == "lgamma_r";
  if (!Int && Base != "fract" && Base != "modf" && Base != "sincos")
    return 0;
  unsigned Ops = Base == "remquo" ? 3 : 2;
  Type *T = C.inst().getType(), *ET = T->getScalarType();
  if (C.numOps() != Ops || !ET->isFloatingPointTy() || C.opType(0) != T ||
      (Ops == 3 && C.opType(1) != T) || !C.opType(Ops - 1)->isPointerTy())
    return 0;
  unsigned AS = cast<PointerType>(C.opType(Ops - 1))->getAddressSpace();
  unsigned Bytes = Int ? 4 : ET->getPrimitiveSizeInBits() / 8;
  Leaf L = scalarLeaf(ET);
  bool Ok = true;
  for (unsigned E = 0; E < elements(T) && Ok; ++E) {
    uint64_t Poison = C.opPoison(Ops - 1);
    for (unsigned K = 0; K + 1 < Ops; ++K)
      Poison |= C.opPoison(K, E);
    if (Poison & C.Exec)
      return C.fail(Base + ": an operand is poison"), -1;
    forLanes(C.Exec, [&](unsigned Lane) {
      uint64_t B = Ops == 3 ? C.op(1, Lane, E) : 0;
      auto [R, Out] = outPointerOp(Base, ET, L, C.op(0, Lane, E), B);
      C.res(Lane, E) = R;
      Ok = Ok && C.E.storeLane(C, AS, C.op(Ops - 1, Lane) + E * Bytes, Lane,
                               Bytes, Out & maskBits(Bytes * 8));
    });
    C.setPoison(0, E);
  }
  return Ok ? 1 : -1;
}

/// dot(a, b) of floating-point scalars or vectors: the products summed in
/// element order in double and rounded once (OpenCL leaves the order and
/// the rounding of the sum to the implementation).
int dotCall(OpCtx &C) {
  Type *T = C.inst().getType();
  if (C.numOps() != 2 || !T->isFloatingPointTy() ||
      C.opType(0) != C.opType(1) || C.opType(0)->getScalarType() != T)
    return 0;
  Leaf L = scalarLeaf(T);
  unsigned N = elements(C.opType(0));
  uint64_t Poison = 0;
  for (unsigned E = 0; E < N; ++E)
    Poison |= C.opPoison(0, E) | C.opPoison(1, E);
  forLanes(C.Exec, [&](unsigned Lane) {
    double Sum = 0;
    for (unsigned E = 0; E < N; ++E)
      Sum +=
          leafToDouble(L, C.op(0, Lane, E)) * leafToDouble(L, C.op(1, Lane, E));
    C.res(Lane) = doubleToLeaf(L, Sum);
  });
  C.setPoison(Poison & C.Exec);
  return 1;
}

/// convert_<type>[n][_sat][_rte|_rtz|_rtp|_rtn] element by element
/// (OpenCL C 3.0 §6.4.3): between integers (wrapping, or clamped with
/// _sat), floating point to integers (rounded toward zero unless a mode
/// says otherwise; NaN gives 0 and values out of range are clamped, which
/// OpenCL leaves undefined without _sat), and integers or floating point
/// to floating point rounded once, to nearest even unless a mode says
/// otherwise (an overflow rounded toward zero gives the largest finite
/// value).
int convertCall(OpCtx &C, StringRef Base, StringRef Params) {
  if (!Base.consume_front("convert_") || C.numOps() != 1)
    return 0;
  // To integers toward zero by default, to floating point to nearest even.
  RoundingMode RM = RoundingMode::TowardZero;
  bool Mode = roundingSuffix(Base, RM);
  bool Sat = Base.consume_back("_sat");
  Base = Base.rtrim("0123456789");
  Type *T = C.inst().getType(), *DT = T->getScalarType();
  Type *ST = C.opType(0)->getScalarType();
  char Code = firstParamCode(Params);
  if (elements(T) != elements(C.opType(0)) || !Code)
    return 0;
  bool SrcFloat = ST->isFloatingPointTy();
  bool SrcSigned = !unsignedCode(Code);
  bool DstSigned =
      Base == "char" || Base == "short" || Base == "int" || Base == "long";
  if (DT->isFloatingPointTy() && !Mode)
    RM = RoundingMode::NearestTiesToEven;
  Leaf SL = scalarLeaf(ST), DL = scalarLeaf(DT);
  unsigned SBits = ST->getScalarSizeInBits(), DBits = DT->getScalarSizeInBits();
  auto Convert = [&](uint64_t X) -> uint64_t {
    __int128 V = 0;
    if (!SrcFloat) {
      if (DT->isFloatingPointTy())
        return intToFP(X, SBits, SrcSigned, DL, RM);
      V = SrcSigned ? __int128(SignExtend64(X, SBits))
                    : __int128(X & maskBits(SBits));
    } else {
      if (DT->isFloatingPointTy())
        return castFP(SL, DL, X, RM);
      double D = leafToDouble(SL, X);
      if (std::isnan(D))
        return 0;
      D = RM == RoundingMode::NearestTiesToEven ? std::nearbyint(D)
          : RM == RoundingMode::TowardPositive  ? std::ceil(D)
          : RM == RoundingMode::TowardNegative  ? std::floor(D)
                                                : std::trunc(D);
      __int128 Lo = DstSigned ? -(__int128(1) << (DBits - 1)) : 0;
      __int128 Hi = DstSigned ? (__int128(1) << (DBits - 1)) - 1
                              : (__int128(1) << DBits) - 1;
      if (D <= double(Lo))
        return uint64_t(Lo) & maskBits(DBits);
      if (D >= double(Hi))
        return uint64_t(Hi) & maskBits(DBits);
      return uint64_t(__int128(D)) & maskBits(DBits);
    }
    if (Sat) {
      __int128 Lo = DstSigned ? -(__int128(1) << (DBits - 1)) : 0;
      __int128 Hi = DstSigned ? (__int128(1) << (DBits - 1)) - 1
                              : (__int128(1) << DBits) - 1;
      V = V < Lo ? Lo : V > Hi ? Hi : V;
    }
    return uint64_t(V) & maskBits(DBits);
  };
  for (unsigned E = 0; E < elements(T); ++E) {
    forLanes(C.Exec, [&](unsigned Lane) {
      C.res(Lane, E) = Convert(C.op(0, Lane, E));
    });
    C.setPoison(C.opPoison(0, E) & C.Exec, E);
  }
  return 1;
}

/// Which operands of a call with result type \p T are scalars applied to
/// every element (a vector form's scalar operand); false if an operand is
/// neither \p T nor its element type.
bool broadcast(OpCtx &C, Type *T, SmallVectorImpl<bool> &Scalar) {
  for (unsigned K = 0; K < C.numOps(); ++K) {
    if (C.opType(K) != T && C.opType(K) != T->getScalarType())
      return false;
    Scalar.push_back(C.opType(K) != T);
  }
  return true;
}

/// One integer built-in on one element: \p A, \p B, \p D its operands,
/// signed or not, of \p Bits bits (as __int128: wide enough for every
/// intermediate of 64-bit operands but the unsigned high product).
std::optional<uint64_t> integerOp(StringRef Fn, bool Signed, unsigned Bits,
                                  uint64_t RA, uint64_t RB, uint64_t RD) {
  uint64_t M = maskBits(Bits);
  auto Val = [&](uint64_t X) -> __int128 {
    return Signed ? __int128(SignExtend64(X, Bits)) : __int128(X & M);
  };
  __int128 A = Val(RA), B = Val(RB), D = Val(RD);
  __int128 Lo = Signed ? -(__int128(1) << (Bits - 1)) : 0;
  __int128 Hi =
      Signed ? (__int128(1) << (Bits - 1)) - 1 : (__int128(1) << Bits) - 1;
  auto Sat = [&](__int128 X) { return X < Lo ? Lo : X > Hi ? Hi : X; };
  auto High = [&]() -> uint64_t {
    if (Signed || Bits < 64)
      return uint64_t((A * B) >> Bits);
    unsigned __int128 P = (unsigned __int128)RA * RB;
    return uint64_t(P >> 64);
  };
  __int128 R;
  if (Fn == "min")
    R = B < A ? B : A;
  else if (Fn == "max")
    R = A < B ? B : A;
  else if (Fn == "clamp")
    R = A < B ? B : D < A ? D : A;
  else if (Fn == "abs")
    R = A < 0 ? -A : A;
  else if (Fn == "abs_diff")
    R = A < B ? B - A : A - B;
  else if (Fn == "add_sat")
    R = Sat(A + B);
  else if (Fn == "sub_sat")
    R = Sat(A - B);
  else if (Fn == "hadd")
    R = (A + B) >> 1;
  else if (Fn == "rhadd")
    R = (A + B + 1) >> 1;
  else if (Fn == "mul_hi")
    R = __int128(High());
  else if (Fn == "mad_hi")
    R = __int128(High()) + D;
  else if (Fn == "mad_sat")
    // a * b + c saturated; an unsigned 64-bit one needs all 128 bits (at
    // most 2^128 - 2^64, so it does not wrap).
    R = Signed || Bits < 64 ? Sat(A * B + D)
                            : __int128(std::min<unsigned __int128>(
                                  (unsigned __int128)RA * RB + RD, M));
  else if (Fn == "popcount")
    R = llvm::popcount(RA & M);
  else if (Fn == "clz")
    R = Bits - llvm::bit_width(RA & M);
  else if (Fn == "ctz")
    R = (RA & M) ? llvm::countr_zero(RA & M) : Bits;
  else if (Fn == "rotate") {
    unsigned S = unsigned(RB & M) % Bits;
    uint64_t X = RA & M;
    R = S ? __int128(((X << S) | (X >> (Bits - S))) & M) : __int128(X);
  } else
    return std::nullopt;
  return uint64_t(R) & M;
}

/// Integer built-ins element by element on scalars and vectors, signed or
/// not as the mangled first parameter says: min, max, clamp, abs,
/// abs_diff, add_sat, sub_sat, hadd, rhadd, mul_hi, mad_hi, mad_sat,
/// popcount, clz, ctz, rotate (OpenCL C 3.0 §6.15.3).
int integerCall(OpCtx &C, StringRef Base, StringRef Params) {
  Type *T = C.inst().getType(), *ET = T->getScalarType();
  SmallVector<bool, 3> Scalar;
  char Code = firstParamCode(Params);
  if (!ET->isIntegerTy() || !Code || C.numOps() < 1 || C.numOps() > 3 ||
      !broadcast(C, T, Scalar))
    return 0;
  bool Signed = !unsignedCode(Code);
  unsigned Bits = ET->getIntegerBitWidth();
  auto Op = [&](unsigned K, unsigned Lane, unsigned E) {
    return K < C.numOps() ? C.op(K, Lane, Scalar[K] ? 0 : E) : 0;
  };
  if (!integerOp(Base, Signed, Bits, 0, 1, 2))
    return 0;
  for (unsigned E = 0; E < elements(T); ++E) {
    uint64_t Poison = 0;
    for (unsigned K = 0; K < C.numOps(); ++K)
      Poison |= C.opPoison(K, Scalar[K] ? 0 : E);
    forLanes(C.Exec, [&](unsigned Lane) {
      C.res(Lane, E) = *integerOp(Base, Signed, Bits, Op(0, Lane, E),
                                  Op(1, Lane, E), Op(2, Lane, E));
    });
    C.setPoison(Poison & C.Exec, E);
  }
  return 1;
}

/// The relational built-ins: the is* tests and comparisons of floating
/// point (a scalar gives 1 or 0, a vector -1 or 0 per element), any and
/// all (the elements' top bits), select (a scalar condition picks where it
/// is not zero, a vector one where its element's top bit is set) and
/// bitselect.
int relationalCall(OpCtx &C, StringRef Base) {
  Type *T = C.inst().getType();
  unsigned N = C.numOps() ? elements(C.opType(0)) : 0;
  if (!N)
    return 0;
  Type *ST = C.opType(0)->getScalarType();
  auto Top = [](uint64_t X, unsigned Bits) { return (X >> (Bits - 1)) & 1; };
  std::optional<unsigned> Tests =
      StringSwitch<std::optional<unsigned>>(Base)
          .Cases({"isnan", "isinf", "isfinite", "isnormal", "signbit"}, 1)
          .Cases({"isequal", "isnotequal", "isgreater", "isgreaterequal",
                  "isless", "islessequal", "islessgreater", "isordered",
                  "isunordered"},
                 2)
          .Default(std::nullopt);
  if (Tests && ST->isFloatingPointTy() && C.numOps() == *Tests &&
      T->getScalarType()->isIntegerTy() && elements(T) == N) {
    Leaf L = scalarLeaf(ST);
    unsigned Bits = T->getScalarSizeInBits();
    uint64_t True = N > 1 ? maskBits(Bits) : 1;
    // The smallest normal value of the operands' own type (the values are
    // compared as doubles, where a float's subnormals are normal).
    double MinNormal = ST->isHalfTy()     ? 0x1p-14
                       : ST->isDoubleTy() ? 0x1p-1022
                                          : 0x1p-126;
    for (unsigned E = 0; E < N; ++E) {
      uint64_t Poison = 0;
      for (unsigned K = 0; K < C.numOps(); ++K)
        Poison |= C.opPoison(K, E);
      forLanes(C.Exec, [&](unsigned Lane) {
        double X = leafToDouble(L, C.op(0, Lane, E));
        double Y = *Tests == 2 ? leafToDouble(L, C.op(1, Lane, E)) : 0;
        bool Un = std::isnan(X) || std::isnan(Y);
        bool R =
            StringSwitch<bool>(Base)
                .Case("isnan", std::isnan(X))
                .Case("isinf", std::isinf(X))
                .Case("isfinite", std::isfinite(X))
                .Case("isnormal", std::isfinite(X) && std::fabs(X) >= MinNormal)
                .Case("signbit", std::signbit(X))
                .Case("isequal", X == Y)
                .Case("isnotequal", X != Y)
                .Case("isgreater", X > Y)
                .Case("isgreaterequal", X >= Y)
                .Case("isless", X < Y)
                .Case("islessequal", X <= Y)
                .Case("islessgreater", !Un && X != Y)
                .Case("isordered", !Un)
                .Default(Un);
        C.res(Lane, E) = R ? True : 0;
      });
      C.setPoison(Poison & C.Exec, E);
    }
    return 1;
  }
  if ((Base == "any" || Base == "all") && C.numOps() == 1 &&
      ST->isIntegerTy() && T->isIntegerTy()) {
    uint64_t Poison = 0;
    for (unsigned E = 0; E < N; ++E)
      Poison |= C.opPoison(0, E);
    unsigned Bits = ST->getIntegerBitWidth();
    forLanes(C.Exec, [&](unsigned Lane) {
      bool Any = false, All = true;
      for (unsigned E = 0; E < N; ++E) {
        bool B = Top(C.op(0, Lane, E), Bits);
        Any |= B;
        All &= B;
      }
      C.res(Lane) = Base == "any" ? Any : All;
    });
    C.setPoison(Poison & C.Exec);
    return 1;
  }
  if ((Base != "select" && Base != "bitselect") || C.numOps() != 3 ||
      C.opType(0) != T || C.opType(1) != T || elements(C.opType(2)) != N)
    return 0;
  unsigned CBits = C.opType(2)->getScalarSizeInBits();
  for (unsigned E = 0; E < N; ++E) {
    uint64_t Poison = C.opPoison(2, E);
    forLanes(C.Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, E), B = C.op(1, Lane, E),
               Cond = C.op(2, Lane, E);
      if (Base == "bitselect") {
        C.res(Lane, E) = (A & ~Cond) | (B & Cond);
        Poison |= (C.opPoison(0, E) | C.opPoison(1, E)) & (1ull << Lane);
        return;
      }
      bool Pick = N > 1 ? Top(Cond, CBits) : (Cond & maskBits(CBits)) != 0;
      C.res(Lane, E) = Pick ? B : A;
      Poison |= C.opPoison(Pick ? 1 : 0, E) & (1ull << Lane);
    });
    C.setPoison(Poison & C.Exec, E);
  }
  return 1;
}

/// length, distance, normalize (and their fast_ forms) and cross of
/// floating-point scalars and vectors, summed in element order in double
/// and rounded once.
int geometricCall(OpCtx &C, StringRef Base) {
  Base.consume_front("fast_");
  Type *T = C.inst().getType();
  Type *VT = C.numOps() ? C.opType(0) : nullptr;
  if (!VT || !VT->getScalarType()->isFloatingPointTy() ||
      C.numOps() != (Base == "length" || Base == "normalize" ? 1u : 2u) ||
      (C.numOps() == 2 && C.opType(1) != VT))
    return 0;
  unsigned N = elements(VT);
  Leaf L = scalarLeaf(VT->getScalarType());
  bool Cross = Base == "cross";
  if (!Cross && Base != "length" && Base != "distance" && Base != "normalize")
    return 0;
  if (Cross && N != 3 && N != 4)
    return 0;
  uint64_t Poison = 0;
  for (unsigned E = 0; E < N; ++E)
    for (unsigned K = 0; K < C.numOps(); ++K)
      Poison |= C.opPoison(K, E);
  forLanes(C.Exec, [&](unsigned Lane) {
    auto X = [&](unsigned K, unsigned E) {
      return leafToDouble(L, C.op(K, Lane, E));
    };
    if (Cross) {
      for (unsigned E = 0; E < N; ++E) {
        unsigned P = (E + 1) % 3, Q = (E + 2) % 3;
        double V = E < 3 ? X(0, P) * X(1, Q) - X(0, Q) * X(1, P) : 0;
        C.res(Lane, E) = doubleToLeaf(L, V);
      }
      return;
    }
    double Sum = 0;
    for (unsigned E = 0; E < N; ++E) {
      double D = Base == "distance" ? X(0, E) - X(1, E) : X(0, E);
      Sum += D * D;
    }
    double Len = std::sqrt(Sum);
    if (Base != "normalize") {
      C.res(Lane) = doubleToLeaf(L, Len);
      return;
    }
    for (unsigned E = 0; E < N; ++E)
      C.res(Lane, E) = doubleToLeaf(L, Len == 0 ? X(0, E) : X(0, E) / Len);
  });
  for (unsigned E = 0; E < elements(T); ++E)
    C.setPoison(Poison & C.Exec, E);
  return 1;
}

} // namespace

unsigned elements(Type *T) {
  auto *VT = dyn_cast<FixedVectorType>(T);
  return VT ? VT->getNumElements() : 1;
}

bool roundingSuffix(StringRef &Name, RoundingMode &RM) {
  static const std::pair<StringRef, RoundingMode> Modes[] = {
      {"_rte", RoundingMode::NearestTiesToEven},
      {"_rtz", RoundingMode::TowardZero},
      {"_rtp", RoundingMode::TowardPositive},
      {"_rtn", RoundingMode::TowardNegative}};
  for (const auto &[Suffix, Mode] : Modes)
    if (Name.consume_back(Suffix)) {
      RM = Mode;
      return true;
    }
  return false;
}

char firstParamCode(StringRef Params) {
  if (Params.consume_front("Dv")) {
    size_t US = Params.find('_');
    if (US == StringRef::npos)
      return 0;
    Params = Params.drop_front(US + 1);
  }
  if (Params.starts_with("Dh"))
    return 'H';
  return Params.empty() ? 0 : Params.front();
}

int execOpenCLMath(OpCtx &C, StringRef Base, StringRef Params) {
  if (int R = mathCall(C, Base))
    return R;
  if (int R = outPointerCall(C, Base))
    return R;
  if (int R = intExponentCall(C, Base))
    return R;
  if (int R = floatBitsCall(C, Base))
    return R;
  if (Base == "upsample")
    if (int R = upsampleCall(C))
      return R;
  if (Base == "dot")
    if (int R = dotCall(C))
      return R;
  if (int R = convertCall(C, Base, Params))
    return R;
  if (int R = integerCall(C, Base, Params))
    return R;
  if (int R = relationalCall(C, Base))
    return R;
  return geometricCall(C, Base);
}

} // namespace xe
} // namespace exec
} // namespace crosslane
