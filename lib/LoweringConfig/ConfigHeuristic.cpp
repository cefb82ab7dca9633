//===- ConfigHeuristic.cpp - Choosing a reduction lowering config ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Rules (docs/LoweringConfigs.md, "The heuristic"), r the last reduction
/// dimension (the others are walked serially: thread 1, chunk 1), R its
/// size, V the elements of a 128-bit load, S the wave size:
///  1. Lanes on r: a power of two up to min(S, R / T); the other lanes go
///     to the innermost parallel dimension (several outputs per subgroup).
///     Thread tiles T > 1 only when r is the innermost dimension (else the
///     loads are strided).
///  2. T (1 .. 2V), the lanes and the subgroups G on r (1 .. 16, one chunk
///     at most R) minimise a closed-form estimate of the cost measure:
///       rounds x (F + iterations x (A + T x E) + log2(lanes) x X
///                 + (G - 1) x M + (G > 1) x B)
///     with rounds = ceil(workgroups x G / (4 x compute units)), iterations
///     = ceil(R / (G x lanes x T)), E 1.5 times larger when the chunk does
///     not divide R (masked loads), and F, A, E, X, M, B per combiner family
///     (arg-reductions cost about twelve times more per element).
///  3. partial_reduction = G x lanes x T (one load per thread per
///     iteration); workgroup tile = the lanes on the parallel dimension.
///
//===----------------------------------------------------------------------===//

#include "crosslane/LoweringConfig/ConfigHeuristic.h"
#include "crosslane/Support/ChipInfo.h"

#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace crosslane {
namespace lc {

unsigned getComputeUnits(StringRef Chip) {
  return ChipInfo::computeUnits(Chip);
}

uint64_t concurrentWaves(const TargetDesc &T) {
  unsigned CUs = T.ComputeUnits ? T.ComputeUnits : getComputeUnits(T.Chip);
  return uint64_t(T.IssueSlotsPerCU) * (CUs ? CUs : 64);
}

namespace {

uint64_t powerOfTwoFloor(uint64_t V) {
  return V ? uint64_t(1) << Log2_64(V) : 1;
}

} // namespace

namespace {

/// Per-wave instruction weights of the estimate, per combiner family, from
/// executor measurements of generated kernels on gfx942 (docs).
struct Weights {
  double Fixed, Iteration, Element, LaneStep, Merge, Barrier;
};

Weights weightsFor(const ReductionSpec &S) {
  if (isArg(S.Op))
    return {150, 3, 30, 15, 25, 40};
  return {40, 2.5, 2.5, 3, 2.5, 12};
}

struct Choice {
  unsigned Thread = 1, LanesR = 1, Subgroups = 1;
  double Estimate = 0;
};

/// Rules 1 and 2: the thread tile, lanes and subgroups on the reduction
/// dimension of \p Size with the lowest estimate.
Choice pickDistribution(const ReductionSpec &S, const TargetDesc &T,
                        uint64_t Size, bool Inner, bool HasParallel,
                        uint64_t Outputs, uint64_t SIMDs) {
  Weights W = weightsFor(S);
  unsigned Vec = 128 / subgroup::getBits(S.Elem);
  Choice Best;
  Best.Estimate = -1;
  for (unsigned Thr = 1; Thr <= (Inner ? 2 * Vec : 1); Thr *= 2) {
    if (Thr > 1 && Thr > Size)
      break;
    unsigned MaxLanes =
        HasParallel ? unsigned(std::min<uint64_t>(T.WaveSize,
                                                  powerOfTwoFloor(Size / Thr)))
                    : T.WaveSize;
    unsigned MinLanes = HasParallel ? 1 : T.WaveSize;
    for (unsigned Lanes = MaxLanes; Lanes >= MinLanes; Lanes /= 2) {
      uint64_t WGs = divideCeil(Outputs, T.WaveSize / Lanes);
      for (unsigned G = 1; G <= 16 && G * T.WaveSize <= T.MaxWorkgroupSize;
           G *= 2) {
        uint64_t Chunk = uint64_t(G) * Lanes * Thr;
        if (G > 1 && Chunk > Size)
          break;
        double Iter = double(divideCeil(Size, Chunk));
        double E = W.Element * (Size % Chunk ? 1.5 : 1.0);
        double Wave = W.Fixed + Iter * (W.Iteration + Thr * E) +
                      Log2_32(Lanes) * W.LaneStep + (G - 1) * W.Merge +
                      (G > 1 ? W.Barrier : 0);
        double Est = double(divideCeil(WGs * G, SIMDs)) * Wave;
        if (Best.Estimate < 0 || Est < Best.Estimate)
          Best = {Thr, Lanes, G, Est};
      }
      if (Lanes == 1)
        break;
    }
  }
  return Best;
}

} // namespace

LoweringConfig chooseConfig(const ReductionSpec &S, const TargetDesc &T,
                            std::vector<std::string> *Why) {
  auto Say = [&](const Twine &Msg) {
    if (Why)
      Why->push_back(Msg.str());
  };
  unsigned Rank = S.rank();
  int R = -1, P = -1;
  for (unsigned I = 0; I < Rank; ++I)
    (S.Dims[I].isReduction() ? R : P) = I;
  LoweringConfig C;
  C.Workgroup.assign(Rank, 0);
  C.Thread.assign(Rank, 0);
  C.PartialReduction.assign(Rank, 0);
  for (unsigned I = 0; I < Rank; ++I) {
    if (S.Dims[I].isReduction()) {
      C.Thread[I] = 1;
      C.PartialReduction[I] = 1;
    } else {
      C.Workgroup[I] = 1;
    }
  }
  // A dynamic size is planned as a large one.
  uint64_t Size = S.Dims[R].isDynamic() ? (uint64_t(1) << 31) : S.Dims[R].Size;
  bool Inner = unsigned(R) == Rank - 1;
  uint64_t Outputs = 1;
  for (const IterDim &D : S.Dims)
    if (!D.isReduction())
      Outputs *= D.isDynamic() ? 1024 : D.Size;
  uint64_t SIMDs = concurrentWaves(T);
  Choice Ch = pickDistribution(S, T, Size, Inner, P >= 0, Outputs, SIMDs);
  unsigned Thread = Ch.Thread, LanesR = Ch.LanesR;
  uint64_t Sg = Ch.Subgroups, LanesP = T.WaveSize / LanesR;
  bool Exact = Size % (Sg * LanesR * Thread) == 0;
  Say("thread: " + Twine(Thread) + " x " + subgroup::getName(S.Elem) +
      " per load along d" + Twine(R) +
      (!Inner  ? " (not the innermost dimension: strided loads)"
       : Exact ? ""
               : " (the last chunk is masked)"));
  if (LanesP > 1)
    Say("lanes: " + Twine(LanesR) + " on d" + Twine(R) + ", " + Twine(LanesP) +
        " outputs of d" + Twine(P) + " per subgroup (d" + Twine(R) +
        " is short)");
  Say("subgroups: " + Twine(Sg) + " on d" + Twine(R) + " (" +
      Twine(divideCeil(Outputs, LanesP)) + " workgroups, " + Twine(SIMDs) +
      " SIMDs; estimate " + Twine(unsigned(Ch.Estimate)) + " slots)");
  C.Thread[R] = Thread;
  C.PartialReduction[R] = Sg * LanesR * Thread;
  C.Lane.Counts.assign(Rank, 1);
  C.Subgroup.Counts.assign(Rank, 1);
  for (unsigned I = 0; I < Rank; ++I) {
    C.Lane.Mapping.push_back(I);
    C.Subgroup.Mapping.push_back(I);
  }
  C.Lane.Counts[R] = LanesR;
  C.Subgroup.Counts[R] = Sg;
  if (P >= 0) {
    C.Lane.Counts[P] = LanesP;
    C.Workgroup[P] = LanesP;
  }
  return C;
}

} // namespace lc
} // namespace crosslane
