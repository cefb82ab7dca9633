//===- SubgroupOps.h - Names of Crosslane's portable subgroup ops -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The name scheme of Crosslane's portable subgroup operations (see
/// docs/SubgroupOps.md for the full specification):
///
///   T      __crosslane_reduce_<op>_<ty>(T value, i32 cluster_size,
///                                       i32 cluster_stride)
///   {T, I} __crosslane_argmax_<ty>_<ity>(T value, I index, i32 cluster_size,
///                                        i32 cluster_stride, i32 nan_policy)
///   {T, I} __crosslane_argmin_<ty>_<ity>(... same ...)
///   {T, I} __crosslane_argcmp_<ty>_<ity>(T value, I index, ptr comparator,
///                                        i32 cluster_size, i32 cluster_stride)
///
///   <op>  add mul smin smax umin umax fmin fmax fminimum fmaximum and or xor
///   <ty>  i16 i32 i64 f16 bf16 f32 f64        <ity>  i32 i64
///
/// Header-only so that the pass library and the reference library (which
/// are linked together into crosslane-run) share it without duplicate
/// symbols.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUBGROUPREDUCE_SUBGROUPOPS_H
#define CROSSLANE_SUBGROUPREDUCE_SUBGROUPOPS_H

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"

#include <optional>
#include <string>

namespace crosslane {
namespace subgroup {

enum class ReduceOp {
  Add,
  Mul,
  SMin,
  SMax,
  UMin,
  UMax,
  FMin,     ///< minnum-style: NaN ignored unless every input is NaN.
  FMax,     ///< maxnum-style.
  FMinimum, ///< NaN-propagating (IEEE-754-2019 minimum).
  FMaximum,
  And,
  Or,
  Xor,
};

enum class ElemType { I16, I32, I64, F16, BF16, F32, F64 };

enum class ArgKind { ArgMax, ArgMin, Custom };

/// nan_policy operand of argmax/argmin on floating-point values.
enum class NaNPolicy : unsigned {
  Ignore = 0, ///< NaN never wins unless every candidate is NaN.
  Wins = 1,   ///< NaN is larger (argmax) / smaller (argmin) than anything,
              ///< as torch.argmax does.
};

/// Bits of the nan_policy operand: bit 0 is the NaNPolicy; bit 1 makes -0 and
/// +0 one value (as `fcmp` compares them), so the smallest index among all
/// zero lanes wins and the result value is that lane's zero.
inline constexpr unsigned PolicyNaNWins = 1;
inline constexpr unsigned PolicyZerosEqual = 2;
inline constexpr unsigned PolicyMask = PolicyNaNWins | PolicyZerosEqual;

/// A decoded nan_policy operand.
struct ArgPolicy {
  NaNPolicy NaN = NaNPolicy::Ignore;
  bool ZerosEqual = false; ///< only ever set for floating-point values
};

/// Decodes nan_policy \p Bits for values of type \p T; std::nullopt when
/// bits outside PolicyMask are set.
inline std::optional<ArgPolicy> decodeArgPolicy(uint64_t Bits, ElemType T);

/// The reduction that finds the winning value of an argmax/argmin.
inline ReduceOp getArgValueOp(ArgKind K, ElemType T, NaNPolicy P);

inline constexpr const char *Prefix = "__crosslane_";

inline const char *getName(ReduceOp Op) {
  switch (Op) {
  case ReduceOp::Add:
    return "add";
  case ReduceOp::Mul:
    return "mul";
  case ReduceOp::SMin:
    return "smin";
  case ReduceOp::SMax:
    return "smax";
  case ReduceOp::UMin:
    return "umin";
  case ReduceOp::UMax:
    return "umax";
  case ReduceOp::FMin:
    return "fmin";
  case ReduceOp::FMax:
    return "fmax";
  case ReduceOp::FMinimum:
    return "fminimum";
  case ReduceOp::FMaximum:
    return "fmaximum";
  case ReduceOp::And:
    return "and";
  case ReduceOp::Or:
    return "or";
  case ReduceOp::Xor:
    return "xor";
  }
  return "?";
}

inline const char *getName(ElemType T) {
  switch (T) {
  case ElemType::I16:
    return "i16";
  case ElemType::I32:
    return "i32";
  case ElemType::I64:
    return "i64";
  case ElemType::F16:
    return "f16";
  case ElemType::BF16:
    return "bf16";
  case ElemType::F32:
    return "f32";
  case ElemType::F64:
    return "f64";
  }
  return "?";
}

inline const char *getName(ArgKind K) {
  switch (K) {
  case ArgKind::ArgMax:
    return "argmax";
  case ArgKind::ArgMin:
    return "argmin";
  case ArgKind::Custom:
    return "argcmp";
  }
  return "?";
}

inline bool isFloat(ElemType T) {
  return T == ElemType::F16 || T == ElemType::BF16 || T == ElemType::F32 ||
         T == ElemType::F64;
}

/// The LLVM type of \p T.
inline llvm::Type *getLLVMType(ElemType T, llvm::LLVMContext &Ctx) {
  switch (T) {
  case ElemType::I16:
    return llvm::Type::getInt16Ty(Ctx);
  case ElemType::I32:
    return llvm::Type::getInt32Ty(Ctx);
  case ElemType::I64:
    return llvm::Type::getInt64Ty(Ctx);
  case ElemType::F16:
    return llvm::Type::getHalfTy(Ctx);
  case ElemType::BF16:
    return llvm::Type::getBFloatTy(Ctx);
  case ElemType::F32:
    return llvm::Type::getFloatTy(Ctx);
  case ElemType::F64:
    return llvm::Type::getDoubleTy(Ctx);
  }
  return nullptr;
}

/// The float semantics of \p T (IEEE single for the integer types).
inline const llvm::fltSemantics &semantics(ElemType T) {
  switch (T) {
  case ElemType::F16:
    return llvm::APFloat::IEEEhalf();
  case ElemType::BF16:
    return llvm::APFloat::BFloat();
  case ElemType::F64:
    return llvm::APFloat::IEEEdouble();
  default:
    return llvm::APFloat::IEEEsingle();
  }
}

inline unsigned getBits(ElemType T) {
  switch (T) {
  case ElemType::I16:
  case ElemType::F16:
  case ElemType::BF16:
    return 16;
  case ElemType::I32:
  case ElemType::F32:
    return 32;
  case ElemType::I64:
  case ElemType::F64:
    return 64;
  }
  return 0;
}

inline bool isFloatOnly(ReduceOp Op) {
  return Op == ReduceOp::FMin || Op == ReduceOp::FMax ||
         Op == ReduceOp::FMinimum || Op == ReduceOp::FMaximum;
}

inline bool isIntOnly(ReduceOp Op) {
  return Op == ReduceOp::SMin || Op == ReduceOp::SMax || Op == ReduceOp::UMin ||
         Op == ReduceOp::UMax || Op == ReduceOp::And || Op == ReduceOp::Or ||
         Op == ReduceOp::Xor;
}

/// True when \p Op is defined on \p T.
inline bool isLegal(ReduceOp Op, ElemType T) {
  if (isFloatOnly(Op))
    return isFloat(T);
  if (isIntOnly(Op))
    return !isFloat(T);
  return true;
}

inline std::optional<ElemType> parseElemType(llvm::StringRef S) {
  for (ElemType T : {ElemType::I16, ElemType::I32, ElemType::I64, ElemType::F16,
                     ElemType::BF16, ElemType::F32, ElemType::F64})
    if (S == getName(T))
      return T;
  return std::nullopt;
}

inline std::optional<ReduceOp> parseReduceOp(llvm::StringRef S) {
  for (unsigned I = 0; I <= unsigned(ReduceOp::Xor); ++I)
    if (S == getName(ReduceOp(I)))
      return ReduceOp(I);
  return std::nullopt;
}

/// A parsed operation name.
struct OpName {
  bool IsArg = false;
  ReduceOp Op = ReduceOp::Add;    ///< reduce only
  ArgKind Kind = ArgKind::ArgMax; ///< arg-compare only
  ElemType Ty = ElemType::I32;
  ElemType IndexTy = ElemType::I32; ///< arg-compare only

  std::string str() const {
    std::string S = Prefix;
    if (IsArg)
      return S + getName(Kind) + "_" + getName(Ty) + "_" + getName(IndexTy);
    return S + "reduce_" + getName(Op) + "_" + getName(Ty);
  }
};

/// Parses a Crosslane subgroup operation name. Returns std::nullopt when
/// \p Name is not one (including a legal-looking name with an operation the
/// type does not have, e.g. reduce_and_f32).
inline std::optional<OpName> parseOpName(llvm::StringRef Name) {
  if (!Name.consume_front(Prefix))
    return std::nullopt;
  OpName N;
  if (Name.consume_front("reduce_")) {
    auto [OpS, TyS] = Name.rsplit('_');
    auto Op = parseReduceOp(OpS);
    auto Ty = parseElemType(TyS);
    if (!Op || !Ty || !isLegal(*Op, *Ty))
      return std::nullopt;
    N.Op = *Op;
    N.Ty = *Ty;
    return N;
  }
  N.IsArg = true;
  if (Name.consume_front("argmax_"))
    N.Kind = ArgKind::ArgMax;
  else if (Name.consume_front("argmin_"))
    N.Kind = ArgKind::ArgMin;
  else if (Name.consume_front("argcmp_"))
    N.Kind = ArgKind::Custom;
  else
    return std::nullopt;
  auto [TyS, ITyS] = Name.split('_');
  auto Ty = parseElemType(TyS);
  auto ITy = parseElemType(ITyS);
  if (!Ty || !ITy || (*ITy != ElemType::I32 && *ITy != ElemType::I64))
    return std::nullopt;
  N.Ty = *Ty;
  N.IndexTy = *ITy;
  return N;
}

inline std::optional<ArgPolicy> decodeArgPolicy(uint64_t Bits, ElemType T) {
  if (Bits & ~uint64_t(PolicyMask))
    return std::nullopt;
  ArgPolicy P;
  P.NaN = NaNPolicy(Bits & PolicyNaNWins);
  P.ZerosEqual = isFloat(T) && (Bits & PolicyZerosEqual);
  return P;
}

/// Metadata kind on every lane move crosslane-expand-subgroup emits
/// (update.dpp, permlane, ds_swizzle, ds_bpermute). crosslane-recognize-arg
/// never reads such a move as a stage of a hand-written butterfly, so a
/// second run of the device pipeline (the -fgpu-rdc link after the
/// per-file compile) leaves Crosslane's own expansions alone.
inline constexpr llvm::StringLiteral ExpandedLaneMoveMD = "crosslane.expanded";

/// Metadata kind on an operation call whose result is used only where every
/// lane of the call's cluster was active (crosslane-recognize-arg's guarded
/// rewrites check it at run time, after the call): on Vortex the expansion
/// then builds the butterfly alone, without the lanes-off path (a result
/// computed with lanes off is discarded by the guard).
inline constexpr llvm::StringLiteral FullGroupsMD = "crosslane.full-groups";

/// Metadata kind, beside FullGroupsMD, on a call that a Vortex launch of
/// whole warps reaches with every lane on (crosslane-vortex-full-warps): its
/// shuffle operands become register operands LLVM may hoist, as in a
/// hand-written butterfly. Not on the recogniser's guarded calls, whose
/// fallback code competes for the same registers.
inline constexpr llvm::StringLiteral WholeWarpLaunchMD =
    "crosslane.whole-warp-launch";

inline ReduceOp getArgValueOp(ArgKind K, ElemType T, NaNPolicy P) {
  bool Max = K == ArgKind::ArgMax;
  if (!isFloat(T))
    return Max ? ReduceOp::SMax : ReduceOp::SMin;
  if (P == NaNPolicy::Wins)
    return Max ? ReduceOp::FMaximum : ReduceOp::FMinimum;
  return Max ? ReduceOp::FMax : ReduceOp::FMin;
}

} // namespace subgroup
} // namespace crosslane

#endif // CROSSLANE_SUBGROUPREDUCE_SUBGROUPOPS_H
