//===- Distribution.cpp - What a lowering config makes every thread do ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// planDistribution checks a lowering config against a reduction and a
/// target, and derives the distribution the generated kernel implements.
/// Positions follow IREE's nested layout, subgroup outermost: along a
/// reduction dimension, chunk k holds
///   k*S + ((g*B + b)*L + l)*T + e     (g < G, b < B, l < L, e < T)
/// and along a parallel dimension, workgroup tile w holds
///   w*W + (g*B + b)*L + l             (g < G, b < B, l < L)
/// where G and L are the subgroup and lane counts the bases map to the
/// dimension, T the thread tile, S the partial_reduction chunk, W the
/// workgroup tile and B the batch that fills the rest.
///
//===----------------------------------------------------------------------===//

#include "crosslane/LoweringConfig/LoweringConfig.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace crosslane {
namespace lc {

namespace {

std::string dimName(unsigned D) { return "d" + std::to_string(D); }

/// Checks counts and mapping of a basis: one count per dimension, a
/// mapping that is a permutation.
Error checkBasis(StringRef Attr, const Basis &B, unsigned Rank) {
  if (B.Counts.size() != B.Mapping.size())
    return makeError(Attr + ": " + Twine(B.Counts.size()) + " counts but " +
                     Twine(B.Mapping.size()) + " mapping entries");
  if (B.Counts.size() != Rank)
    return makeError(Attr + ": " + Twine(B.Counts.size()) +
                     " basis dimensions; the iteration space has " +
                     Twine(Rank) + " (one count per dimension, 1 for none)");
  SmallVector<bool, 6> Used(Rank, false);
  for (unsigned J = 0; J < Rank; ++J) {
    if (B.Counts[J] < 1 || B.Counts[J] > 1024)
      return makeError(Attr + ": count " + Twine(B.Counts[J]) +
                       " at position " + Twine(J) +
                       " is not in 1..1024 (1 means no distribution)");
    int64_t M = B.Mapping[J];
    if (M < 0 || M >= int64_t(Rank) || Used[M])
      return makeError(
          Attr + ": mapping [" +
          join(
              map_range(B.Mapping, [](int64_t V) { return std::to_string(V); }),
              ", ") +
          "] is not a permutation of 0.." + Twine(Rank - 1));
    Used[M] = true;
  }
  return Error::success();
}

/// Checks the per-dimension tile arrays' lengths.
Error checkLengths(const LoweringConfig &C, unsigned Rank) {
  auto Check = [&](StringRef Attr, ArrayRef<int64_t> A) -> Error {
    if (A.size() != Rank)
      return makeError(Attr + ": " + Twine(A.size()) +
                       " entries; the iteration space has " + Twine(Rank) +
                       " dimensions");
    for (int64_t V : A)
      if (V < 0 || V > (int64_t(1) << 40))
        return makeError(Attr + ": tile " + Twine(V) + " is not in 0..2^40");
    return Error::success();
  };
  if (Error E = Check("workgroup", C.Workgroup))
    return E;
  if (Error E = Check("thread", C.Thread))
    return E;
  return Check("partial_reduction", C.PartialReduction);
}

/// The parallel dimension \p D: workgroup tile and batch.
Error planParallel(const LoweringConfig &C, unsigned D, DimPlan &P,
                   std::vector<std::string> &Notes) {
  std::string N = dimName(D);
  if (C.Thread[D] != 0)
    return makeError("thread: " + N +
                     " is parallel; thread tiles apply to reduction dimensions "
                     "(0 here: a thread's outputs along " +
                     N + " come from workgroup / (subgroups x lanes))");
  if (C.PartialReduction[D] != 0)
    return makeError("partial_reduction: " + N +
                     " is parallel; partial_reduction applies to reduction "
                     "dimensions (0 here)");
  P.Tile = C.Workgroup[D];
  if (P.Tile == 0) {
    if (P.Dim.isDynamic())
      return makeError("workgroup: " + N +
                       " is dynamic; an untiled (0) parallel dimension needs a "
                       "static size");
    P.Tile = P.Dim.Size;
    Notes.push_back(N + ": workgroup tile 0 = untiled, the whole " +
                    std::to_string(P.Dim.Size));
  }
  uint64_t Threads = uint64_t(P.Subgroups) * P.Lanes;
  if (P.Tile % Threads)
    return makeError("workgroup: " + N + " tile " + Twine(P.Tile) +
                     " is not a multiple of the threads along it (subgroups " +
                     Twine(P.Subgroups) + " x lanes " + Twine(P.Lanes) + " = " +
                     Twine(Threads) + ")");
  P.Batch = P.Tile / Threads;
  P.Steps = P.Dim.isDynamic() ? 0 : divideCeil(P.Dim.Size, P.Tile);
  if (!P.Dim.isDynamic() && P.Dim.Size % P.Tile)
    Notes.push_back(N + ": " + std::to_string(P.Dim.Size) + " outputs in " +
                    std::to_string(P.Steps) + " tiles of " +
                    std::to_string(P.Tile) +
                    ": the last tile is masked (its extra outputs are not "
                    "stored)");
  return Error::success();
}

/// The reduction dimension \p D: chunk, thread tile, batch and iterations.
Error planReduction(const LoweringConfig &C, unsigned D, DimPlan &P,
                    std::vector<std::string> &Notes) {
  std::string N = dimName(D);
  if (C.Workgroup[D] != 0)
    return makeError("workgroup: " + N +
                     " is a reduction dimension; workgroup tiles apply to "
                     "parallel dimensions (0 here)");
  if (C.Thread[D] < 1 || C.Thread[D] > MaxThreadTile)
    return makeError("thread: reduction dimension " + N + " needs 1.." +
                     Twine(MaxThreadTile) + " elements per load, not " +
                     Twine(C.Thread[D]));
  P.Thread = C.Thread[D];
  P.Tile = C.PartialReduction[D];
  if (P.Tile == 0) {
    if (P.Dim.isDynamic())
      return makeError(
          "partial_reduction: " + N +
          " is dynamic; an untiled (0) reduction dimension needs a "
          "static size");
    P.Tile = P.Dim.Size;
  }
  uint64_t Cover = uint64_t(P.Subgroups) * P.Lanes * P.Thread;
  if (P.Tile % Cover)
    return makeError(
        "partial_reduction: " + N + " chunk " + Twine(P.Tile) +
        (P.Tile < Cover ? " is smaller than" : " is not a multiple of") +
        " what one load of every thread covers (subgroups " +
        Twine(P.Subgroups) + " x lanes " + Twine(P.Lanes) + " x thread " +
        Twine(P.Thread) + " = " + Twine(Cover) + ")");
  P.Batch = P.Tile / Cover;
  if (P.Dim.isDynamic()) {
    P.Steps = 0;
    Notes.push_back(N + ": dynamic size n, ceil(n / " + std::to_string(P.Tile) +
                    ") iterations, the last chunk masked when " +
                    std::to_string(P.Tile) + " does not divide n");
    return Error::success();
  }
  P.Steps = divideCeil(P.Dim.Size, P.Tile);
  std::string It = N + ": " + std::to_string(P.Dim.Size) + " / " +
                   std::to_string(P.Tile) + " = ";
  if (P.Dim.Size % P.Tile)
    It += std::to_string(double(P.Dim.Size) / P.Tile).substr(0, 6) + ", so " +
          std::to_string(P.Steps) +
          (P.Steps == 1 ? " iteration" : " iterations") +
          "; the last chunk holds " +
          std::to_string(P.Dim.Size - (P.Steps - 1) * P.Tile) +
          " elements, the rest masked with the identity";
  else
    It += std::to_string(P.Steps) + (P.Steps == 1 ? " iteration: the loop is "
                                                    "elided"
                                                  : " iterations");
  Notes.push_back(It);
  return Error::success();
}

/// Runs of reduction coordinates in lane_basis order: one clustered
/// subgroup reduction each. Counts of 1 do not break a run.
void planLaneSteps(const LoweringConfig &C, const ReductionSpec &S,
                   Distribution &D) {
  ArrayRef<int64_t> Counts = C.Lane.Counts;
  unsigned K = Counts.size();
  unsigned J = 0;
  while (J < K) {
    bool Red = S.Dims[C.Lane.Mapping[J]].isReduction();
    if (!Red || Counts[J] == 1) {
      ++J;
      continue;
    }
    unsigned Size = 1, Last = J;
    for (; J < K; ++J) {
      if (Counts[J] == 1)
        continue;
      if (!S.Dims[C.Lane.Mapping[J]].isReduction())
        break;
      Size *= Counts[J];
      Last = J;
    }
    unsigned Stride = 1;
    for (unsigned I = Last + 1; I < K; ++I)
      Stride *= Counts[I];
    D.LaneSteps.push_back({Size, Stride});
  }
}

} // namespace

SmallVector<uint64_t, 5> delinearize(uint64_t X, ArrayRef<int64_t> Counts) {
  SmallVector<uint64_t, 5> C(Counts.size() + 1, 0);
  uint64_t P = 1;
  for (int64_t V : Counts)
    P *= V;
  C[0] = X / P;
  uint64_t Rest = X % P;
  for (unsigned I = 0; I < Counts.size(); ++I) {
    P /= Counts[I];
    C[I + 1] = Rest / P;
    Rest %= P;
  }
  return C;
}

Expected<Distribution> planDistribution(const ReductionSpec &Spec,
                                        const LoweringConfig &Cfg,
                                        const TargetDesc &Target) {
  Distribution D;
  D.Spec = Spec;
  D.Target = Target;
  D.Config = Cfg;
  D.SubgroupSize = Target.WaveSize;
  unsigned Rank = Spec.rank();
  if (Error E = checkLengths(Cfg, Rank))
    return std::move(E);
  if (Error E = checkBasis("lane_basis", Cfg.Lane, Rank))
    return std::move(E);
  if (Error E = checkBasis("subgroup_basis", Cfg.Subgroup, Rank))
    return std::move(E);
  if (Cfg.Lane.product() != D.SubgroupSize)
    return makeError("lane_basis: counts multiply to " +
                     Twine(Cfg.Lane.product()) + "; the subgroup size of " +
                     Target.Chip + " here is " + Twine(D.SubgroupSize) +
                     " (the product must equal it)");
  D.NumSubgroups = Cfg.Subgroup.product();
  D.WorkgroupSize = D.NumSubgroups * D.SubgroupSize;
  if (D.WorkgroupSize > Target.MaxWorkgroupSize)
    return makeError(
        "subgroup_basis: " + Twine(D.NumSubgroups) + " subgroups of " +
        Twine(D.SubgroupSize) + " lanes make a workgroup of " +
        Twine(D.WorkgroupSize) + " threads; at most " +
        Twine(Target.MaxWorkgroupSize) +
        (Target.isVortex()
             ? " (" + Target.Chip + ": a block runs on one core, " +
                   Twine(Target.MaxWorkgroupSize / Target.WaveSize) +
                   " warps of " + Twine(Target.WaveSize) + " threads)"
             : Twine()));
  D.Dims.resize(Rank);
  for (unsigned I = 0; I < Rank; ++I)
    D.Dims[I].Dim = Spec.Dims[I];
  for (unsigned J = 0; J < Rank; ++J) {
    D.Dims[Cfg.Lane.Mapping[J]].Lanes = Cfg.Lane.Counts[J];
    D.Dims[Cfg.Subgroup.Mapping[J]].Subgroups = Cfg.Subgroup.Counts[J];
  }
  uint64_t Acc = 1, TileOutputs = 1;
  for (unsigned I = 0; I < Rank; ++I) {
    DimPlan &P = D.Dims[I];
    Error E = P.Dim.isReduction() ? planReduction(Cfg, I, P, D.Notes)
                                  : planParallel(Cfg, I, P, D.Notes);
    if (E)
      return std::move(E);
    if (P.Dim.isReduction()) {
      D.ReductionSubgroups *= P.Subgroups;
      continue;
    }
    Acc *= P.Batch;
    TileOutputs *= P.Tile;
    if (Acc > MaxAccumulators)
      return makeError("workgroup: each thread would hold " + Twine(Acc) +
                       " outputs (workgroup tile / (subgroups x lanes) per "
                       "parallel dimension, multiplied); at most " +
                       Twine(MaxAccumulators));
  }
  D.Accumulators = Acc;
  D.TileOutputs = TileOutputs;
  if (isArg(Spec.Op) && Spec.Index == ElemType::I32) {
    uint64_t N = Spec.reductionSize();
    if (N >= uint64_t(INT32_MAX))
      return makeError("--op: an i32 index cannot number " + Twine(N) +
                       " elements; use " + getName(Spec.Op) + ":i64");
  }
  if (D.ReductionSubgroups > 1) {
    unsigned Bytes = subgroup::getBits(Spec.Acc) / 8;
    if (isArg(Spec.Op))
      Bytes += subgroup::getBits(Spec.Index) / 8;
    uint64_t LDS = uint64_t(D.ReductionSubgroups) * TileOutputs * Bytes;
    if (LDS > Target.LDSBytes)
      return makeError("subgroup_basis: merging " +
                       Twine(D.ReductionSubgroups) +
                       " subgroups' partial results for " + Twine(TileOutputs) +
                       " outputs through LDS needs " + Twine(LDS) + " bytes; " +
                       Target.Chip + " has " + Twine(Target.LDSBytes));
    D.LDSBytes = LDS;
  }
  planLaneSteps(Cfg, Spec, D);
  for (const std::string &K : Cfg.Ignored)
    D.Notes.push_back("'" + K + "' is not used by crosslane-reduce (ignored)");
  return D;
}

uint64_t Distribution::numWorkgroups(ArrayRef<uint64_t> DynSizes) const {
  uint64_t N = 1;
  unsigned Dyn = 0;
  for (const DimPlan &P : Dims) {
    uint64_t Size = P.Dim.Size;
    if (P.Dim.isDynamic())
      Size = Dyn < DynSizes.size() ? DynSizes[Dyn++] : 0;
    if (!P.Dim.isReduction())
      N *= divideCeil(Size, P.Tile);
  }
  return N;
}

} // namespace lc
} // namespace crosslane
