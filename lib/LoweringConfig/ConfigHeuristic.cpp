//===- ConfigHeuristic.cpp - Choosing a reduction lowering config ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Rules (docs/LoweringConfigs.md, "The heuristic"):
///  1. Lanes and subgroups go to the last reduction dimension r; the other
///     reduction dimensions are walked serially (thread 1, chunk 1).
///  2. Thread tile: 128-bit loads when r is the innermost dimension of the
///     input (8 x f16, 4 x f32, 2 x f64), halved until it divides a static
///     size of r; 1 when r is not innermost (the loads would be strided).
///  3. Lanes on r: the subgroup size, or the power of two covering
///     size / thread when r is shorter; the remaining lanes go to the
///     innermost parallel dimension (several outputs per subgroup).
///  4. Subgroups on r: as many as keep every thread at 8 or more loads, at
///     most 1024 threads; a single subgroup when the outputs alone give
///     every compute unit 4 workgroups.
///  5. partial_reduction on r = subgroups x lanes x thread (one load per
///     thread per iteration); workgroup tile = lanes on the dimension.
///
//===----------------------------------------------------------------------===//

#include "crosslane/LoweringConfig/ConfigHeuristic.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace crosslane {
namespace lc {

unsigned getComputeUnits(StringRef Chip) {
  // Public product specifications of the largest part of each chip.
  return StringSwitch<unsigned>(Chip)
      .Case("gfx908", 120)
      .Case("gfx90a", 110)
      .Case("gfx942", 304)
      .Case("gfx950", 256)
      .Case("gfx1030", 80)
      .Case("gfx1100", 96)
      .Case("gfx1101", 60)
      .Case("gfx1200", 32)
      .Case("gfx1201", 64)
      .Default(0);
}

namespace {

uint64_t powerOfTwoFloor(uint64_t V) {
  return V ? uint64_t(1) << Log2_64(V) : 1;
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
  unsigned Vec = 1;
  if (unsigned(R) == Rank - 1) {
    Vec = 128 / subgroup::getBits(S.Elem);
    while (Vec > 1 && !S.Dims[R].isDynamic() && Size % Vec)
      Vec /= 2;
    Say("thread: " + Twine(Vec) + " x " + subgroup::getName(S.Elem) +
        " per load along d" + Twine(R));
  } else {
    Say("thread: 1 (d" + Twine(R) + " is not the innermost dimension)");
  }
  uint64_t LanesR =
      std::min<uint64_t>(T.WaveSize, powerOfTwoFloor(divideCeil(Size, Vec)));
  if (P < 0)
    LanesR = T.WaveSize;
  uint64_t LanesP = T.WaveSize / LanesR;
  if (LanesP > 1)
    Say("lanes: " + Twine(LanesR) + " on d" + Twine(R) + ", " + Twine(LanesP) +
        " outputs of d" + Twine(P) + " per subgroup (d" + Twine(R) +
        " is short)");
  uint64_t Outputs = 1;
  for (const IterDim &D : S.Dims)
    if (!D.isReduction())
      Outputs *= D.isDynamic() ? 1024 : D.Size;
  unsigned CUs = T.ComputeUnits ? T.ComputeUnits : getComputeUnits(T.Chip);
  uint64_t Sg = powerOfTwoFloor(
      std::max<uint64_t>(1, Size / (uint64_t(Vec) * LanesR * 8)));
  Sg = std::min<uint64_t>(Sg, T.MaxWorkgroupSize / T.WaveSize);
  uint64_t WGs = divideCeil(Outputs, LanesP);
  if (CUs && WGs >= 4ull * CUs && Sg > 1) {
    Say("subgroups: 1 (" + Twine(WGs) + " workgroups already give " +
        Twine(CUs) + " compute units 4 each)");
    Sg = 1;
  } else {
    Say("subgroups: " + Twine(Sg) + " on d" + Twine(R) +
        " (each thread keeps 8 or more loads)");
  }
  C.Thread[R] = Vec;
  C.PartialReduction[R] = Sg * LanesR * Vec;
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
