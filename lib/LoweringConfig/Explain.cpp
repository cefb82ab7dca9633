//===- Explain.cpp - Printing a distribution, thread by thread ------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/LoweringConfig/LoweringConfig.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace crosslane {
namespace lc {

namespace {

/// The seed's two steps for one id: delinearise by the counts, then apply
/// the mapping. Returns the position in the iteration space.
SmallVector<uint64_t, 6> explainBasis(raw_ostream &OS, StringRef Attr,
                                      StringRef IdName, uint64_t Id,
                                      const Basis &B) {
  unsigned N = B.Counts.size();
  OS << "  " << Attr << " [";
  printList<int64_t>(OS, B.Counts);
  OS << ", ";
  printList<int64_t>(OS, B.Mapping);
  OS << "], " << IdName << " " << Id << ":\n";
  SmallVector<uint64_t, 6> P(N + 1, 1);
  for (int I = int(N) - 1; I >= 0; --I)
    P[I] = P[I + 1] * B.Counts[I];
  OS << "    step 1, delinearize(" << Id << ", ";
  printList<int64_t>(OS, B.Counts);
  OS << "): products P = ";
  printList<uint64_t>(OS, P);
  OS << "\n";
  SmallVector<uint64_t, 5> C = delinearize(Id, B.Counts);
  OS << "      c0 = " << Id << " / " << P[0] << " = " << C[0]
     << " (outer bound, ignored)\n";
  for (unsigned I = 1; I <= N; ++I)
    OS << "      c" << I << " = (" << Id << " mod " << P[I - 1] << ") / "
       << P[I] << " = " << C[I] << "\n";
  SmallVector<uint64_t, 6> Pos(N, 0);
  OS << "    step 2, mapping ";
  printList<int64_t>(OS, B.Mapping);
  OS << ":";
  ListSeparator LS(",");
  for (unsigned J = 0; J < N; ++J) {
    Pos[B.Mapping[J]] = C[J + 1];
    OS << LS << " d" << B.Mapping[J] << " = c" << J + 1 << " = " << C[J + 1];
  }
  OS << "\n    iteration coordinates: ";
  printList<uint64_t>(OS, Pos);
  OS << "\n";
  return Pos;
}

} // namespace

void Distribution::print(raw_ostream &OS) const {
  OS << "reduction: " << Spec.str() << "\n";
  OS << "target: " << Target.Chip << (Target.isVortex() ? " warp" : " wave")
     << SubgroupSize << ", LDS " << Target.LDSBytes << " bytes\n";
  OS << "config: " << Config.str() << "\n";
  OS << "workgroup: " << WorkgroupSize << " threads = " << NumSubgroups
     << " subgroup" << (NumSubgroups == 1 ? "" : "s") << " x " << SubgroupSize
     << " lanes";
  if (uint64_t N = numWorkgroups(); N && !Spec.hasDynamicDims())
    OS << "; " << N << " workgroups";
  OS << "\n";
  for (unsigned I = 0; I < Dims.size(); ++I) {
    const DimPlan &P = Dims[I];
    OS << "  d" << I << (P.Dim.isReduction() ? " reduction " : " parallel ");
    if (P.Dim.isDynamic())
      OS << "?";
    else
      OS << P.Dim.Size;
    if (P.Dim.isReduction())
      OS << ": chunk " << P.Tile << " = " << P.Subgroups << " subgroups x "
         << P.Lanes << " lanes x " << P.Batch << " loads x " << P.Thread
         << " elements";
    else
      OS << ": tile " << P.Tile << " = " << P.Subgroups << " subgroups x "
         << P.Lanes << " lanes x " << P.Batch << " outputs";
    if (P.Dim.isDynamic())
      OS << "; ceil(n / " << P.Tile << ") "
         << (P.Dim.isReduction() ? "iterations" : "tiles");
    else
      OS << "; " << P.Steps << (P.Dim.isReduction() ? " iteration" : " tile")
         << (P.Steps == 1 ? "" : "s");
    OS << "\n";
  }
  uint64_t Loads = 1;
  for (const DimPlan &P : Dims)
    if (P.Dim.isReduction())
      Loads *= P.Batch * P.Thread;
  OS << "per thread: " << Accumulators << " accumulator"
     << (Accumulators == 1 ? "" : "s") << ", " << Loads * Accumulators
     << " elements per iteration\n";
  OS << "cross-lane:";
  if (LaneSteps.empty())
    OS << " none (no lanes along reduction dimensions)";
  for (const LaneStep &S : LaneSteps)
    OS << " reduce clusters of " << S.ClusterSize << " lanes, stride "
       << S.ClusterStride << ";";
  OS << "\ncross-subgroup: ";
  if (ReductionSubgroups == 1)
    OS << "none\n";
  else
    OS << ReductionSubgroups << " partial results per output through LDS ("
       << LDSBytes << " bytes), 1 barrier\n";
  for (const std::string &N : Notes)
    OS << "note: " << N << "\n";
}

Error Distribution::explain(uint64_t ThreadId, raw_ostream &OS) const {
  if (ThreadId >= WorkgroupSize)
    return createStringError(inconvertibleErrorCode(),
                             "--explain: thread " + Twine(ThreadId) +
                                 " is outside the workgroup of " +
                                 Twine(WorkgroupSize) + " threads");
  uint64_t Sg = ThreadId / SubgroupSize, Lane = ThreadId % SubgroupSize;
  OS << "thread " << ThreadId << " of " << WorkgroupSize << ": subgroup "
     << ThreadId << " / " << SubgroupSize << " = " << Sg << ", lane "
     << ThreadId << " mod " << SubgroupSize << " = " << Lane << "\n";
  SmallVector<uint64_t, 6> L =
      explainBasis(OS, "lane_basis", "lane", Lane, Config.Lane);
  SmallVector<uint64_t, 6> G =
      explainBasis(OS, "subgroup_basis", "subgroup", Sg, Config.Subgroup);
  OS << "  elements of workgroup 0, first iteration:\n";
  for (unsigned I = 0; I < Dims.size(); ++I) {
    const DimPlan &P = Dims[I];
    unsigned T = P.Dim.isReduction() ? P.Thread : 1;
    OS << "    d" << I << ": ";
    ListSeparator LS;
    for (uint64_t B = 0; B < P.Batch && B < 8; ++B) {
      uint64_t First = ((G[I] * P.Batch + B) * P.Lanes + L[I]) * T;
      OS << LS << First;
      if (T > 1)
        OS << ".." << First + T - 1;
    }
    if (P.Batch > 8)
      OS << ", ... (" << P.Batch << " in all)";
    if (P.Dim.isReduction() && P.Steps != 1)
      OS << "; then + " << P.Tile << " per iteration";
    OS << "\n";
  }
  bool Rep = true, Stores = true;
  for (unsigned I = 0; I < Dims.size(); ++I)
    if (Dims[I].Dim.isReduction()) {
      Rep &= L[I] == 0;
      Stores &= L[I] == 0 && G[I] == 0;
    }
  OS << "  result: "
     << (Stores ? "stores its outputs"
         : Rep  ? "hands its subgroup's partial results to LDS"
                : "contributes to the cross-lane reduction only")
     << "\n";
  return Error::success();
}

} // namespace lc
} // namespace crosslane
