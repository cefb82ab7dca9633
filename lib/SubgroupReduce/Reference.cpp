//===- Reference.cpp - Serial reference semantics of subgroup ops ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The specification of docs/SubgroupOps.md written as plainly as possible:
/// for every cluster, gather the members (inactive lanes contribute the
/// identity), evaluate the balanced binary tree op(lower half, upper half)
/// over the cluster positions, and write the result to the active members.
/// Floating-point arithmetic goes through APFloat (IEEE, round to nearest
/// even, no flushing), so f16/bf16 results are correctly rounded per node.
///
//===----------------------------------------------------------------------===//

#include "crosslane/SubgroupReduce/Reference.h"
#include "crosslane/Executor/Builtins.h"
#include "crosslane/SubgroupReduce/SubgroupOps.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/Error.h"

#include <functional>

using namespace llvm;
using namespace crosslane::subgroup;

namespace crosslane {

namespace {

using exec::BuiltinContext;
using exec::LaneScalars;

uint64_t widthMask(unsigned Bits) {
  return Bits >= 64 ? ~uint64_t(0) : ((uint64_t(1) << Bits) - 1);
}

int64_t signExtend(uint64_t V, unsigned Bits) {
  return Bits >= 64 ? int64_t(V) : SignExtend64(V, Bits);
}

APFloat toAP(ElemType T, uint64_t Bits) {
  return APFloat(semantics(T), APInt(getBits(T), Bits & widthMask(getBits(T))));
}

uint64_t fromAP(const APFloat &F) { return F.bitcastToAPInt().getZExtValue(); }

bool isNaNBits(ElemType T, uint64_t Bits) { return toAP(T, Bits).isNaN(); }

uint64_t canonicalNaN(ElemType T) {
  return fromAP(APFloat::getQNaN(semantics(T)));
}

/// Monotone integer key of a non-NaN float: -0 orders below +0.
uint64_t orderKey(ElemType T, uint64_t Bits) {
  unsigned W = getBits(T);
  uint64_t Sign = uint64_t(1) << (W - 1);
  Bits &= widthMask(W);
  return (Bits & Sign) ? (~Bits & widthMask(W)) : (Bits | Sign);
}

/// The identity of \p Op on \p T (what inactive lanes contribute).
uint64_t identity(ReduceOp Op, ElemType T) {
  unsigned W = getBits(T);
  switch (Op) {
  case ReduceOp::Add:
    return isFloat(T) ? fromAP(APFloat::getZero(semantics(T), true)) : 0;
  case ReduceOp::Mul:
    return isFloat(T) ? fromAP(APFloat::getOne(semantics(T))) : 1;
  case ReduceOp::SMin:
    return widthMask(W) >> 1;
  case ReduceOp::SMax:
    return uint64_t(1) << (W - 1);
  case ReduceOp::UMin:
  case ReduceOp::And:
    return widthMask(W);
  case ReduceOp::UMax:
  case ReduceOp::Or:
  case ReduceOp::Xor:
    return 0;
  case ReduceOp::FMin:
  case ReduceOp::FMinimum:
    return fromAP(APFloat::getInf(semantics(T), false));
  case ReduceOp::FMax:
  case ReduceOp::FMaximum:
    return fromAP(APFloat::getInf(semantics(T), true));
  }
  return 0;
}

/// op(A, B) on NaN-free (for min/max) values of \p T.
uint64_t combine(ReduceOp Op, ElemType T, uint64_t A, uint64_t B) {
  unsigned W = getBits(T);
  uint64_t M = widthMask(W);
  switch (Op) {
  case ReduceOp::Add:
  case ReduceOp::Mul: {
    if (!isFloat(T))
      return (Op == ReduceOp::Add ? A + B : A * B) & M;
    APFloat X = toAP(T, A), Y = toAP(T, B);
    if (Op == ReduceOp::Add)
      X.add(Y, APFloat::rmNearestTiesToEven);
    else
      X.multiply(Y, APFloat::rmNearestTiesToEven);
    return fromAP(X);
  }
  case ReduceOp::SMin:
    return signExtend(A, W) <= signExtend(B, W) ? A : B;
  case ReduceOp::SMax:
    return signExtend(A, W) >= signExtend(B, W) ? A : B;
  case ReduceOp::UMin:
    return std::min(A & M, B & M);
  case ReduceOp::UMax:
    return std::max(A & M, B & M);
  case ReduceOp::And:
    return A & B & M;
  case ReduceOp::Or:
    return (A | B) & M;
  case ReduceOp::Xor:
    return (A ^ B) & M;
  case ReduceOp::FMin:
  case ReduceOp::FMinimum:
    return orderKey(T, A) <= orderKey(T, B) ? A : B;
  case ReduceOp::FMax:
  case ReduceOp::FMaximum:
    return orderKey(T, A) >= orderKey(T, B) ? A : B;
  }
  return 0;
}

/// The balanced tree over Leaves[Lo, Lo+N): op(lower half, upper half).
uint64_t tree(ReduceOp Op, ElemType T, ArrayRef<uint64_t> Leaves) {
  if (Leaves.size() == 1)
    return Leaves[0];
  size_t H = Leaves.size() / 2;
  return combine(Op, T, tree(Op, T, Leaves.take_front(H)),
                 tree(Op, T, Leaves.drop_front(H)));
}

/// Reduction of \p Vals (one per cluster position) with activity \p Active.
uint64_t reduceCluster(ReduceOp Op, ElemType T, ArrayRef<uint64_t> Vals,
                       ArrayRef<bool> Active) {
  SmallVector<uint64_t, 64> Leaves;
  bool AnyNaN = false, AnyNumber = false;
  for (size_t K = 0; K < Vals.size(); ++K) {
    uint64_t V = Vals[K] & widthMask(getBits(T));
    if (!Active[K]) {
      Leaves.push_back(identity(Op, T));
      continue;
    }
    if (isFloatOnly(Op) && isNaNBits(T, V)) {
      AnyNaN = true;
      Leaves.push_back(identity(Op, T));
      continue;
    }
    AnyNumber = true;
    Leaves.push_back(V);
  }
  uint64_t R = tree(Op, T, Leaves);
  if (Op == ReduceOp::FMin || Op == ReduceOp::FMax) {
    if (!AnyNumber)
      return canonicalNaN(T);
  } else if (Op == ReduceOp::FMinimum || Op == ReduceOp::FMaximum) {
    if (AnyNaN)
      return canonicalNaN(T);
  }
  if (isFloat(T) && isNaNBits(T, R))
    return canonicalNaN(T);
  return R;
}

/// Lane positions of each cluster: Fn(members) for every cluster.
void forEachCluster(unsigned Wave, unsigned Cluster, unsigned Stride,
                    function_ref<void(ArrayRef<unsigned>)> Fn) {
  SmallVector<unsigned, 64> Members;
  for (unsigned G = 0; G < Wave; G += Cluster * Stride)
    for (unsigned R = 0; R < Stride; ++R) {
      Members.clear();
      for (unsigned K = 0; K < Cluster; ++K)
        Members.push_back(G + R + K * Stride);
      Fn(Members);
    }
}

Error failure(const CallBase &Call, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "%s: %s",
                           Call.getCalledFunction()->getName().str().c_str(),
                           Msg.str().c_str());
}

Error getCluster(const CallBase &Call, unsigned ArgNo, unsigned Wave,
                 unsigned &Cluster, unsigned &Stride) {
  auto *C = dyn_cast<ConstantInt>(Call.getArgOperand(ArgNo));
  auto *S = dyn_cast<ConstantInt>(Call.getArgOperand(ArgNo + 1));
  if (!C || !S || !C->getValue().isPowerOf2() || !S->getValue().isPowerOf2() ||
      C->getZExtValue() * S->getZExtValue() > Wave)
    return failure(Call, "cluster size/stride must be constant powers of two "
                         "with size * stride <= wave size");
  Cluster = C->getZExtValue();
  Stride = S->getZExtValue();
  return Error::success();
}

Error referenceReduce(BuiltinContext &Ctx, const CallBase &Call,
                      ArrayRef<LaneScalars> Args,
                      MutableArrayRef<LaneScalars> Results) {
  std::optional<OpName> N = parseOpName(Call.getCalledFunction()->getName());
  if (!N || N->IsArg || Args.size() != 3 || Results.size() != 1)
    return failure(Call, "not a reduce operation of the documented form");
  unsigned Wave = Ctx.waveSize(), Cluster, Stride;
  if (Error E = getCluster(Call, 1, Wave, Cluster, Stride))
    return E;
  uint64_t Exec = Ctx.activeMask();
  forEachCluster(Wave, Cluster, Stride, [&](ArrayRef<unsigned> Lanes) {
    SmallVector<uint64_t, 64> Vals;
    SmallVector<bool, 64> Active;
    bool Any = false;
    for (unsigned L : Lanes) {
      Vals.push_back(Args[0].Bits[L]);
      Active.push_back((Exec >> L) & 1);
      Any |= Active.back();
    }
    if (!Any)
      return;
    uint64_t R = reduceCluster(N->Op, N->Ty, Vals, Active);
    for (unsigned L : Lanes)
      if ((Exec >> L) & 1)
        Results[0].Bits[L] = R;
  });
  return Error::success();
}

Error referenceArg(BuiltinContext &Ctx, const CallBase &Call,
                   ArrayRef<LaneScalars> Args,
                   MutableArrayRef<LaneScalars> Results) {
  std::optional<OpName> N = parseOpName(Call.getCalledFunction()->getName());
  if (!N || !N->IsArg || Args.size() != 5 || Results.size() != 2)
    return failure(Call, "not an arg-compare operation of the documented form");
  bool Custom = N->Kind == ArgKind::Custom;
  unsigned Wave = Ctx.waveSize(), Cluster, Stride;
  if (Error E = getCluster(Call, Custom ? 3 : 2, Wave, Cluster, Stride))
    return E;
  ElemType T = N->Ty;
  unsigned IBits = getBits(N->IndexTy);
  unsigned VBits = getBits(T);
  uint64_t Exec = Ctx.activeMask();
  Function *Cmp = nullptr;
  ArgPolicy Policy;
  if (Custom) {
    Cmp = dyn_cast<Function>(Call.getArgOperand(2)->stripPointerCasts());
    if (!Cmp)
      return failure(Call, "comparator is not a known function");
  } else {
    auto *P = dyn_cast<ConstantInt>(Call.getArgOperand(4));
    std::optional<ArgPolicy> D =
        P ? decodeArgPolicy(P->getZExtValue(), T) : std::nullopt;
    if (!D)
      return failure(Call, "nan_policy must be a constant in 0..3");
    Policy = *D;
  }
  bool ZerosEqual = Policy.ZerosEqual;
  uint64_t NegZero = isFloat(T) ? uint64_t(1) << (VBits - 1) : 0;
  // Zeros-equal mode ranks both zeros as +0.
  auto Key = [&](uint64_t V) {
    V &= widthMask(VBits);
    return ZerosEqual && V == NegZero ? 0 : V;
  };
  uint64_t ResMask0 = widthMask(Results[0].Ty->getPrimitiveSizeInBits());
  uint64_t ResMask1 = widthMask(Results[1].Ty->getPrimitiveSizeInBits());
  Error Err = Error::success();
  forEachCluster(Wave, Cluster, Stride, [&](ArrayRef<unsigned> Lanes) {
    if (Err)
      return;
    bool Any = false;
    for (unsigned L : Lanes)
      Any |= (Exec >> L) & 1;
    if (!Any)
      return;
    uint64_t RV = 0;
    int64_t RI = 0;
    if (!Custom) {
      ReduceOp Op = getArgValueOp(N->Kind, T, Policy.NaN);
      SmallVector<uint64_t, 64> Vals;
      SmallVector<bool, 64> Active;
      for (unsigned L : Lanes) {
        Vals.push_back(Key(Args[0].Bits[L]));
        Active.push_back((Exec >> L) & 1);
      }
      RV = reduceCluster(Op, T, Vals, Active);
      bool RIsNaN = isFloat(T) && isNaNBits(T, RV);
      bool Found = false;
      for (unsigned L : Lanes) {
        if (!((Exec >> L) & 1))
          continue;
        uint64_t V = Key(Args[0].Bits[L]);
        bool Win = RIsNaN ? isNaNBits(T, V) : V == RV;
        if (!Win)
          continue;
        int64_t I = signExtend(Args[1].Bits[L], IBits);
        if (!Found || I < RI)
          RI = I;
        Found = true;
      }
      // A zero result is -0 when a winning lane with the winning index
      // holds -0.
      if (ZerosEqual && RV == 0)
        for (unsigned L : Lanes)
          if (((Exec >> L) & 1) &&
              (Args[0].Bits[L] & widthMask(VBits)) == NegZero &&
              signExtend(Args[1].Bits[L], IBits) == RI)
            RV = NegZero;
    } else {
      struct Cand {
        bool Valid;
        uint64_t V;
        int64_t I;
      };
      unsigned First = 0;
      for (unsigned L : Lanes)
        if ((Exec >> L) & 1) {
          First = L;
          break;
        }
      std::function<Cand(ArrayRef<unsigned>)> Tree =
          [&](ArrayRef<unsigned> Ls) -> Cand {
        if (Ls.size() == 1) {
          unsigned L = Ls[0];
          return {bool((Exec >> L) & 1), Args[0].Bits[L] & widthMask(VBits),
                  signExtend(Args[1].Bits[L], IBits)};
        }
        size_t H = Ls.size() / 2;
        Cand A = Tree(Ls.take_front(H)), B = Tree(Ls.drop_front(H));
        if (!A.Valid)
          return B;
        if (!B.Valid || Err)
          return A;
        Expected<uint64_t> AB = Ctx.callScalar(*Cmp, {A.V, B.V}, First);
        if (!AB) {
          Err = AB.takeError();
          return A;
        }
        Expected<uint64_t> BA = Ctx.callScalar(*Cmp, {B.V, A.V}, First);
        if (!BA) {
          Err = BA.takeError();
          return A;
        }
        bool PA = *AB & 1, PB = *BA & 1;
        bool TakeB;
        if (PA != PB)
          TakeB = PB;
        else if (B.I != A.I)
          TakeB = B.I < A.I;
        else
          TakeB = B.V < A.V;
        return TakeB ? B : A;
      };
      Cand R = Tree(Lanes);
      RV = R.V;
      RI = R.I;
    }
    for (unsigned L : Lanes)
      if ((Exec >> L) & 1) {
        Results[0].Bits[L] = RV & ResMask0;
        Results[1].Bits[L] = uint64_t(RI) & ResMask1;
      }
  });
  return Err;
}

} // namespace

void registerSubgroupReferenceBuiltins() {
  exec::registerBuiltin("__crosslane_reduce_", referenceReduce);
  exec::registerBuiltin("__crosslane_argmax_", referenceArg);
  exec::registerBuiltin("__crosslane_argmin_", referenceArg);
  exec::registerBuiltin("__crosslane_argcmp_", referenceArg);
}

} // namespace crosslane
