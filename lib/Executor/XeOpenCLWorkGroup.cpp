//===- XeOpenCLWorkGroup.cpp - Work-group collective functions ------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL C 3.0 §6.15.18 (work-group collective functions): every
/// work-item of the work-group reaches the call, which is also a barrier. The
/// engine gathers the work-group at the call (TargetModel::isCollectiveCall);
/// here each subgroup's operands are kept by linear local id as it arrives, and
/// the first subgroup to complete computes every work-item's result:
///  * work_group_all/any: 1 if the predicate is non-zero in every / some
///    work-item, else 0;
///  * work_group_broadcast(a, x[, y[, z]]): a of the work-item whose local
///    id is (x, y, z) (missing coordinates 0); the id must be the same in
///    every work-item and inside the work-group;
///  * reduce, scan_inclusive, scan_exclusive of add, min and max (the
///    operators of cl_khr_work_group_uniform_arithmetic are not modelled):
///    the operator applied in
///    increasing linear local id, starting from work-item 0's value (the
///    specification leaves the order of floating-point operations open;
///    this one is the sequential order, each step rounded to the type);
///    an exclusive scan's first work-item gets the operator's identity.
/// A poison operand makes the results that depend on it poison.
///
//===----------------------------------------------------------------------===//

#include "XeSubgroup.h"

#include "LeafOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace crosslane {
namespace exec {
namespace xe {

namespace {

enum class Kind { All, Any, Broadcast, Reduce, Inclusive, Exclusive };

/// The kind of collective \p Base names and, for reductions and scans,
/// its operator; std::nullopt if it is none.
std::optional<Kind> collectiveKind(StringRef Base, RedOp &Op) {
  if (!Base.consume_front("work_group_"))
    return std::nullopt;
  if (Base == "all")
    return Kind::All;
  if (Base == "any")
    return Kind::Any;
  if (Base == "broadcast")
    return Kind::Broadcast;
  Kind K = Base.consume_front("reduce_")           ? Kind::Reduce
           : Base.consume_front("scan_inclusive_") ? Kind::Inclusive
           : Base.consume_front("scan_exclusive_") ? Kind::Exclusive
                                                   : Kind::All;
  std::optional<RedOp> R = redOpNamed(Base);
  if (K == Kind::All || !R ||
      (*R != RedOp::Add && *R != RedOp::Min && *R != RedOp::Max))
    return std::nullopt;
  Op = *R;
  return K;
}

/// The linear local id of lane \p L of the current subgroup.
unsigned itemOf(OpCtx &C, unsigned SG, unsigned L) {
  return C.E.waveIndex() * SG + L;
}

} // namespace

bool WorkGroupCollectives::isCollective(StringRef Base, const Function &F) {
  RedOp Op;
  std::optional<Kind> K = collectiveKind(Base, Op);
  FunctionType *FT = F.getFunctionType();
  Type *T = FT->getReturnType();
  if (!K || FT->getNumParams() < 1 || FT->getParamType(0) != T)
    return false;
  if (*K == Kind::All || *K == Kind::Any)
    return T->isIntegerTy(32) && FT->getNumParams() == 1;
  bool Scalar = T->isIntegerTy(32) || T->isIntegerTy(64) || T->isHalfTy() ||
                T->isFloatTy() || T->isDoubleTy();
  if (!Scalar)
    return false;
  if (*K != Kind::Broadcast)
    return FT->getNumParams() == 1;
  for (unsigned P = 1; P < FT->getNumParams(); ++P)
    if (!FT->getParamType(P)->isIntegerTy(64))
      return false;
  return FT->getNumParams() >= 2 && FT->getNumParams() <= 4;
}

void WorkGroupCollectives::begin(unsigned Items, unsigned NumWaves) {
  Gathered.assign(Items, Item());
  Result.clear();
  ResultPoison.clear();
  Waves = NumWaves;
  Pending = 0;
}

int WorkGroupCollectives::arrive(OpCtx &C, unsigned SG) {
  unsigned Ops = C.numOps();
  forLanes(C.Exec, [&](unsigned L) {
    Item &It = Gathered[itemOf(C, SG, L)];
    It.Poison = 0;
    for (unsigned K = 0; K < Ops; ++K) {
      It.V[K] = C.op(K, L);
      It.Poison |= unsigned((C.opPoison(K) >> L) & 1) << K;
    }
  });
  return 1;
}

/// work_group_broadcast: every work-item's result is the operand of the
/// work-item the (uniform) local id names.
bool WorkGroupCollectives::broadcast(OpCtx &C, StringRef Base) {
  const LaunchConfig &Cfg = C.E.launch();
  unsigned Dims = C.numOps() - 1;
  auto Id = [&](const Item &It) {
    std::string S = "(";
    for (unsigned D = 0; D < Dims; ++D)
      S += (D ? ", " : "") + utostr(It.V[D + 1]);
    return S + ")";
  };
  for (size_t I = 1; I < Gathered.size(); ++I)
    for (unsigned D = 0; D < Dims; ++D)
      if (Gathered[I].V[D + 1] != Gathered[0].V[D + 1])
        return C.fail(Base +
                      ": the local id differs between work-items "
                      "(work-item 0 names " +
                      Id(Gathered[0]) + ", work-item " + Twine(I) + " names " +
                      Id(Gathered[I]) + ")");
  uint64_t Linear = 0, Stride = 1;
  bool Poison = false;
  for (unsigned D = 0; D < Dims; ++D) {
    uint64_t X = Gathered[0].V[D + 1];
    Poison |= (Gathered[0].Poison >> (D + 1)) & 1;
    if (X >= Cfg.Block[D])
      return C.fail(Base + ": the local id " + Id(Gathered[0]) +
                    " is outside the work-group (local size " +
                    Twine(Cfg.Block[0]) + ", " + Twine(Cfg.Block[1]) + ", " +
                    Twine(Cfg.Block[2]) + ")");
    Linear += X * Stride;
    Stride *= Cfg.Block[D];
  }
  const Item &Src = Gathered[Linear];
  Result.assign(Gathered.size(), Src.V[0]);
  ResultPoison.assign(Gathered.size(), Poison || (Src.Poison & 1));
  return true;
}

/// Every work-item's result, from the gathered operands.
bool WorkGroupCollectives::compute(OpCtx &C, StringRef Base, StringRef Params) {
  RedOp Op = RedOp::Add;
  Kind K = *collectiveKind(Base, Op);
  size_t N = Gathered.size();
  if (K == Kind::Broadcast)
    return broadcast(C, Base);
  Result.assign(N, 0);
  ResultPoison.assign(N, false);
  if (K == Kind::All || K == Kind::Any) {
    bool All = true, Any = false, Poison = false;
    for (const Item &It : Gathered) {
      All &= uint32_t(It.V[0]) != 0;
      Any |= uint32_t(It.V[0]) != 0;
      Poison |= It.Poison & 1;
    }
    Result.assign(N, K == Kind::All ? All : Any);
    ResultPoison.assign(N, Poison);
    return true;
  }
  Reduction R{Op, scalarLeaf(C.inst().getType()),
              !unsignedCode(firstParamCode(Params))};
  uint64_t Acc = Gathered[0].V[0];
  bool Poison = Gathered[0].Poison & 1;
  for (size_t I = 0; I < N; ++I) {
    if (I) {
      if (K == Kind::Exclusive)
        Result[I] = Acc, ResultPoison[I] = Poison;
      Acc = R.combine(Acc, Gathered[I].V[0]);
      Poison |= Gathered[I].Poison & 1;
    } else if (K == Kind::Exclusive) {
      Result[I] = R.identity();
    }
    if (K == Kind::Inclusive)
      Result[I] = Acc, ResultPoison[I] = Poison;
  }
  if (K == Kind::Reduce) {
    Result.assign(N, Acc);
    ResultPoison.assign(N, Poison);
  }
  return true;
}

int WorkGroupCollectives::complete(OpCtx &C, StringRef Base, StringRef Params,
                                   unsigned SG) {
  if (!Pending) {
    if (!compute(C, Base, Params))
      return -1;
    Pending = Waves;
  }
  --Pending;
  uint64_t Poison = 0;
  forLanes(C.Exec, [&](unsigned L) {
    unsigned I = itemOf(C, SG, L);
    C.res(L) = Result[I];
    Poison |= uint64_t(ResultPoison[I]) << L;
  });
  C.setPoison(Poison);
  return 1;
}

} // namespace xe
} // namespace exec
} // namespace crosslane
