//===- Builtins.cpp - Builtin registry and __ocml_* math ------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The name-prefix registry of builtins (Builtins.h) and the default
/// builtins: the __ocml_* math functions HIP's headers call when device
/// libraries are not linked, computed with the host libm in double and
/// rounded once to the result type. An __ocml_ function not in the table is
/// an error naming it.
///
//===----------------------------------------------------------------------===//

#include "crosslane/Executor/Builtins.h"
#include "crosslane/Executor/Engine.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Type.h"

#include <cmath>
#include <limits>
#include <map>
#include <mutex>

using namespace llvm;

namespace crosslane {
namespace exec {

BuiltinContext::~BuiltinContext() = default;

namespace {
std::map<std::string, BuiltinFn> &registry() {
  static std::map<std::string, BuiltinFn> R;
  return R;
}
} // namespace

void registerBuiltin(StringRef Prefix, BuiltinFn Fn) {
  registry()[Prefix.str()] = std::move(Fn);
}

const BuiltinFn *lookupBuiltin(StringRef Name) {
  const BuiltinFn *Best = nullptr;
  size_t BestLen = 0;
  for (auto &KV : registry())
    if (Name.starts_with(KV.first) && (!Best || KV.first.size() > BestLen)) {
      Best = &KV.second;
      BestLen = KV.first.size();
    }
  return Best;
}

namespace {

using D1 = double (*)(double);
using D2 = double (*)(double, double);
using D3 = double (*)(double, double, double);

/// NaN-aware maxnum/minnum on doubles (returns the non-NaN operand).
double maxNum(double A, double B) { return std::fmax(A, B); }
double minNum(double A, double B) { return std::fmin(A, B); }

/// sign(x): 1 or -1, a zero of x's sign, 0 for NaN (OpenCL C 3.0
/// §6.15.4).
double sign(double X) {
  if (std::isnan(X))
    return 0;
  return X > 0 ? 1.0 : X < 0 ? -1.0 : X;
}

/// sin(pi x), cos(pi x), tan(pi x), exact where they are 0, 1 or infinite
/// (OpenCL C 3.0 §6.15.2.4: sinpi(n) is a zero of n's sign, cospi(n +
/// 1/2) is +0, tanpi(n) a signed zero and tanpi(n + 1/2) infinite); x is
/// reduced modulo 2 first, which is exact.
double sinPi(double X) {
  if (std::isinf(X) || std::isnan(X))
    return std::numeric_limits<double>::quiet_NaN();
  if (X == std::trunc(X))
    return std::copysign(0.0, X);
  return std::sin(M_PI * std::fmod(X, 2.0));
}
double cosPi(double X) {
  if (std::isinf(X) || std::isnan(X))
    return std::numeric_limits<double>::quiet_NaN();
  double R = std::fabs(std::fmod(X, 2.0));
  if (R == 0.5 || R == 1.5)
    return 0.0;
  return R == 0 ? 1.0 : R == 1 ? -1.0 : std::cos(M_PI * R);
}
double tanPi(double X) {
  if (std::isinf(X) || std::isnan(X))
    return std::numeric_limits<double>::quiet_NaN();
  double R = std::fmod(X, 2.0); // in (-2, 2), X's sign
  bool Odd = std::fmod(std::fabs(X), 2.0) >= 1.0;
  if (X == std::trunc(X))
    return std::copysign(0.0, Odd ? -X : X);
  if (std::fabs(X) - std::trunc(std::fabs(X)) == 0.5)
    return std::copysign(INFINITY, Odd ? -X : X);
  return std::tan(M_PI * R);
}

/// maxmag(x, y): the operand of greater magnitude, fmax if equal; minmag
/// likewise.
double maxMag(double X, double Y) {
  double A = std::fabs(X), B = std::fabs(Y);
  return A > B ? X : B > A ? Y : std::fmax(X, Y);
}
double minMag(double X, double Y) {
  double A = std::fabs(X), B = std::fabs(Y);
  return A < B ? X : B < A ? Y : std::fmin(X, Y);
}

/// powr(x, y) = exp2(y * log2(x)), defined for x >= 0 only (OpenCL C 3.0
/// §6.15.2.4, OCML's powr): NaN for x < 0, for 0 ** 0, inf ** 0 and
/// 1 ** inf, and a zero x of either sign is +0.
double powr(double X, double Y) {
  if (std::isnan(X) || std::isnan(Y) || X < 0 || (X == 0 && Y == 0) ||
      (std::isinf(X) && Y == 0) || (X == 1 && std::isinf(Y)))
    return std::numeric_limits<double>::quiet_NaN();
  return std::pow(std::fabs(X), Y);
}

const StringMap<D1> &unaryTable() {
  static const StringMap<D1> T = {
      {"sqrt", [](double X) { return std::sqrt(X); }},
      {"fabs", [](double X) { return std::fabs(X); }},
      {"exp", [](double X) { return std::exp(X); }},
      {"exp2", [](double X) { return std::exp2(X); }},
      {"exp10", [](double X) { return std::pow(10.0, X); }},
      {"expm1", [](double X) { return std::expm1(X); }},
      {"log", [](double X) { return std::log(X); }},
      {"log2", [](double X) { return std::log2(X); }},
      {"log10", [](double X) { return std::log10(X); }},
      {"log1p", [](double X) { return std::log1p(X); }},
      {"sin", [](double X) { return std::sin(X); }},
      {"cos", [](double X) { return std::cos(X); }},
      {"tan", [](double X) { return std::tan(X); }},
      {"asin", [](double X) { return std::asin(X); }},
      {"acos", [](double X) { return std::acos(X); }},
      {"atan", [](double X) { return std::atan(X); }},
      {"sinh", [](double X) { return std::sinh(X); }},
      {"cosh", [](double X) { return std::cosh(X); }},
      {"tanh", [](double X) { return std::tanh(X); }},
      {"erf", [](double X) { return std::erf(X); }},
      {"erfc", [](double X) { return std::erfc(X); }},
      {"cbrt", [](double X) { return std::cbrt(X); }},
      {"rsqrt", [](double X) { return 1.0 / std::sqrt(X); }},
      {"floor", [](double X) { return std::floor(X); }},
      {"ceil", [](double X) { return std::ceil(X); }},
      {"trunc", [](double X) { return std::trunc(X); }},
      {"rint", [](double X) { return std::nearbyint(X); }},
      {"round", [](double X) { return std::round(X); }},
      {"asinh", [](double X) { return std::asinh(X); }},
      {"acosh", [](double X) { return std::acosh(X); }},
      {"atanh", [](double X) { return std::atanh(X); }},
      {"sinpi", sinPi},
      {"cospi", cosPi},
      {"tanpi", tanPi},
      {"asinpi", [](double X) { return std::asin(X) / M_PI; }},
      {"acospi", [](double X) { return std::acos(X) / M_PI; }},
      {"atanpi", [](double X) { return std::atan(X) / M_PI; }},
      {"logb", [](double X) { return std::logb(X); }},
      {"tgamma", [](double X) { return std::tgamma(X); }},
      {"lgamma", [](double X) { return std::lgamma(X); }},
      {"degrees", [](double X) { return X * (180 / M_PI); }},
      {"radians", [](double X) { return X * (M_PI / 180); }},
      {"sign", sign},
      {"native_sqrt", [](double X) { return std::sqrt(X); }},
      {"native_recip", [](double X) { return 1.0 / X; }},
      {"native_rsqrt", [](double X) { return 1.0 / std::sqrt(X); }},
      {"native_exp", [](double X) { return std::exp(X); }},
      {"native_log", [](double X) { return std::log(X); }},
  };
  return T;
}

const StringMap<D2> &binaryTable() {
  static const StringMap<D2> T = {
      {"fmax", maxNum},
      {"fmin", minNum},
      {"pow", [](double X, double Y) { return std::pow(X, Y); }},
      {"powr", powr},
      {"atan2", [](double X, double Y) { return std::atan2(X, Y); }},
      {"fmod", [](double X, double Y) { return std::fmod(X, Y); }},
      {"hypot", [](double X, double Y) { return std::hypot(X, Y); }},
      {"copysign", [](double X, double Y) { return std::copysign(X, Y); }},
      {"fdim", [](double X, double Y) { return std::fdim(X, Y); }},
      {"remainder", [](double X, double Y) { return std::remainder(X, Y); }},
      {"atan2pi", [](double X, double Y) { return std::atan2(X, Y) / M_PI; }},
      {"maxmag", maxMag},
      {"minmag", minMag},
      {"step", [](double Edge, double X) { return X < Edge ? 0.0 : 1.0; }},
  };
  return T;
}

} // namespace

std::optional<uint64_t> mathFunction(StringRef Fn, Type *Ty,
                                     ArrayRef<uint64_t> Args) {
  if (!Ty->isFloatingPointTy())
    return std::nullopt;
  Leaf L = scalarLeaf(Ty);
  auto Arg = [&](unsigned K) { return leafToDouble(L, Args[K]); };
  if (Args.size() == 1)
    if (auto It = unaryTable().find(Fn); It != unaryTable().end())
      return doubleToLeaf(L, It->second(Arg(0)));
  if (Args.size() == 2)
    if (auto It = binaryTable().find(Fn); It != binaryTable().end()) {
      // fmax/fmin: LLVM's maxnum semantics bit-exact (the non-NaN operand,
      // unchanged).
      if (Fn == "fmax" || Fn == "fmin") {
        if (leafIsNaN(L, Args[0]))
          return Args[1];
        if (leafIsNaN(L, Args[1]))
          return Args[0];
      }
      return doubleToLeaf(L, It->second(Arg(0), Arg(1)));
    }
  if (Args.size() == 3 && (Fn == "fma" || Fn == "mad")) {
    if (Ty->isFloatTy())
      return doubleToLeaf(
          L, std::fmaf(float(Arg(0)), float(Arg(1)), float(Arg(2))));
    return doubleToLeaf(L, std::fma(Arg(0), Arg(1), Arg(2)));
  }
  return std::nullopt;
}

namespace {

Error ocml(BuiltinContext &Ctx, const CallBase &Call, ArrayRef<LaneScalars> A,
           MutableArrayRef<LaneScalars> R) {
  StringRef Name = Call.getCalledFunction()->getName();
  StringRef Base = Name.drop_front(strlen("__ocml_"));
  size_t US = Base.rfind('_');
  if (US == StringRef::npos)
    return createStringError(inconvertibleErrorCode(), "not modelled");
  StringRef Fn = Base.take_front(US);
  if (R.size() != 1)
    return createStringError(inconvertibleErrorCode(), "not modelled");
  uint64_t Act = Ctx.activeMask();
  uint64_t P = 0;
  for (auto &X : A)
    P |= X.Poison;
  R[0].Poison = P & Act;
  auto Each = [&](auto F) {
    for (unsigned Lane = 0; Lane < Ctx.waveSize(); ++Lane)
      if ((Act >> Lane) & 1)
        R[0].Bits[Lane] = F(Lane);
  };
  auto Arg = [&](unsigned K, unsigned Lane) {
    return leafToDouble(scalarLeaf(A[K].Ty), A[K].Bits[Lane]);
  };
  SmallVector<uint64_t, 3> First;
  for (const LaneScalars &X : A)
    First.push_back(X.Bits.empty() ? 0 : X.Bits[0]);
  if (mathFunction(Fn, R[0].Ty, First)) {
    SmallVector<uint64_t, 3> Lane(A.size());
    Each([&](unsigned L) {
      for (unsigned K = 0; K < A.size(); ++K)
        Lane[K] = A[K].Bits[L];
      return *mathFunction(Fn, R[0].Ty, Lane);
    });
    return Error::success();
  }
  if (A.size() == 1 &&
      (Fn == "isnan" || Fn == "isinf" || Fn == "isfinite" || Fn == "signbit")) {
    Each([&](unsigned Lane) -> uint64_t {
      double X = Arg(0, Lane);
      if (Fn == "isnan")
        return std::isnan(X);
      if (Fn == "isinf")
        return std::isinf(X);
      if (Fn == "isfinite")
        return std::isfinite(X);
      return std::signbit(X);
    });
    return Error::success();
  }
  return createStringError(inconvertibleErrorCode(),
                           "this __ocml_ function is not modelled");
}

} // namespace

void registerDefaultBuiltins() {
  static std::once_flag Once;
  std::call_once(Once, [] { registerBuiltin("__ocml_", ocml); });
}

} // namespace exec
} // namespace crosslane
