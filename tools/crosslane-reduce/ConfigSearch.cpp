//===- ConfigSearch.cpp - Crosslane's cost measure and config search ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ConfigSearch.h"
#include "ReduceRunner.h"
#include "crosslane/Executor/Engine.h"
#include "crosslane/Executor/Executor.h"
#include "crosslane/LoweringConfig/ConfigHeuristic.h"
#include "crosslane/LoweringConfig/ReductionKernel.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace crosslane {
namespace lc {

double issueSlots(uint64_t CriticalPath, uint64_t Workgroups, unsigned Waves,
                  uint64_t SIMDs) {
  return double(divideCeil(Workgroups * Waves, SIMDs)) * double(CriticalPath);
}

Expected<Cost> measureCost(const Distribution &D, LLVMContext &Ctx) {
  const ReductionSpec &S = D.Spec;
  if (S.hasDynamicDims())
    return makeError("cost: the problem must have static sizes");
  Expected<std::unique_ptr<Module>> M = generateReductionKernel(D, Ctx);
  if (!M)
    return M.takeError();
  Expected<Runnable> Run = makeRunnable(D.Target, **M);
  if (!Run)
    return Run.takeError();
  exec::Executor &X = *Run->X;
  unsigned EB = subgroup::getBits(S.Elem) / 8;
  unsigned AB = subgroup::getBits(S.Acc) / 8;
  unsigned IB = subgroup::getBits(S.Index) / 8;
  std::vector<std::vector<uint8_t>> Bufs = {
      std::vector<uint8_t>(S.reductionSize() * S.outputSize() * EB, 0),
      std::vector<uint8_t>(S.outputSize() * AB, 0)};
  if (isArg(S.Op))
    Bufs.push_back(std::vector<uint8_t>(S.outputSize() * IB, 0));
  exec::LaunchConfig C;
  C.Block = {D.WorkgroupSize, 1, 1};
  for (unsigned B = 0; B < Bufs.size(); ++B)
    C.Args.push_back({true, B, 0});
  if (Error E = X.run(*Run->Kernel, C, Bufs))
    return std::move(E);
  Cost R;
  R.WaveInstructionsPerWorkgroup = X.stats().WaveInstructions;
  R.Workgroups = D.numWorkgroups();
  R.WavesPerWorkgroup = D.NumSubgroups;
  R.CriticalPath = X.stats().CriticalPath;
  R.Slots = issueSlots(R.CriticalPath, R.Workgroups, R.WavesPerWorkgroup,
                       concurrentWaves(D.Target));
  return R;
}

Expected<Cost> measureConfig(const ReductionSpec &S, const LoweringConfig &C,
                             const TargetDesc &T, LLVMContext &Ctx) {
  Expected<Distribution> D = planDistribution(S, C, T);
  if (!D)
    return D.takeError();
  return measureCost(*D, Ctx);
}

std::vector<LoweringConfig> enumerateConfigs(const ReductionSpec &S,
                                             const TargetDesc &T) {
  unsigned Rank = S.rank();
  int R = -1, P = -1;
  for (unsigned I = 0; I < Rank; ++I)
    (S.Dims[I].isReduction() ? R : P) = I;
  uint64_t Size = S.Dims[R].Size;
  unsigned Vec = 128 / subgroup::getBits(S.Elem);
  std::vector<LoweringConfig> Out;
  LoweringConfig Base = chooseConfig(S, T);
  for (unsigned LanesR = 1; LanesR <= T.WaveSize; LanesR *= 2) {
    if (P < 0 && LanesR != T.WaveSize)
      continue;
    unsigned LanesP = T.WaveSize / LanesR;
    for (unsigned Sg = 1; Sg * T.WaveSize <= T.MaxWorkgroupSize; Sg *= 2)
      for (bool SgOnP : {false, true}) {
        if (SgOnP && (P < 0 || Sg == 1))
          continue;
        for (unsigned Thr : {1u, 2u, 4u, 8u, 16u}) {
          if (Thr > 2 * Vec || (Thr > 1 && unsigned(R) != Rank - 1))
            continue;
          for (unsigned BR : {1u, 2u})
            for (unsigned BP : {1u, 2u, 4u}) {
              if (P < 0 && BP > 1)
                continue;
              uint64_t Chunk = uint64_t(SgOnP ? 1 : Sg) * LanesR * Thr * BR;
              if (Chunk > 2 * Size && Chunk > uint64_t(LanesR) * Thr)
                continue;
              LoweringConfig C = Base;
              C.Thread[R] = Thr;
              C.PartialReduction[R] = Chunk;
              C.Lane.Counts.assign(Rank, 1);
              C.Subgroup.Counts.assign(Rank, 1);
              C.Lane.Counts[R] = LanesR;
              C.Subgroup.Counts[SgOnP ? P : R] = Sg;
              if (P >= 0) {
                C.Lane.Counts[P] = LanesP;
                C.Workgroup[P] = uint64_t(SgOnP ? Sg : 1) * LanesP * BP;
              }
              Out.push_back(C);
            }
        }
      }
  }
  return Out;
}

namespace {

/// The neighbours refineConfig measures, each with what changed.
std::vector<std::pair<std::string, LoweringConfig>>
neighbours(const ReductionSpec &S, const LoweringConfig &C) {
  unsigned Rank = S.rank();
  int R = -1, P = -1;
  for (unsigned I = 0; I < Rank; ++I)
    (S.Dims[I].isReduction() ? R : P) = I;
  std::vector<std::pair<std::string, LoweringConfig>> Out;
  std::string DR = "d" + std::to_string(R);
  LoweringConfig N = C;
  N.PartialReduction[R] *= 2;
  Out.push_back({"two loads per thread per iteration along " + DR, N});
  if (unsigned(R) == Rank - 1) {
    N = C;
    N.Thread[R] *= 2;
    N.PartialReduction[R] *= 2;
    Out.push_back({"thread tile doubled along " + DR, N});
  }
  if (C.Thread[R] > 1) {
    N = C;
    N.Thread[R] /= 2;
    N.PartialReduction[R] /= 2;
    Out.push_back({"thread tile halved along " + DR, N});
  }
  if (P >= 0) {
    N = C;
    N.Workgroup[P] *= 2;
    Out.push_back({"two outputs per thread along d" + std::to_string(P), N});
  }
  return Out;
}

} // namespace

LoweringConfig refineConfig(const ReductionSpec &S, const TargetDesc &T,
                            const LoweringConfig &C, LLVMContext &Ctx,
                            std::vector<std::string> &Why) {
  if (S.hasDynamicDims()) {
    Why.push_back("refine: skipped (dynamic sizes cannot be measured)");
    return C;
  }
  auto Measure = [&](const LoweringConfig &K) -> double {
    Expected<Cost> M = measureConfig(S, K, T, Ctx);
    if (!M) {
      consumeError(M.takeError());
      return -1;
    }
    return M->Slots;
  };
  double Base = Measure(C), Best = Base;
  if (Base < 0)
    return C;
  LoweringConfig Chosen = C;
  std::string What;
  unsigned Measured = 1;
  for (auto &[Change, K] : neighbours(S, C)) {
    double V = Measure(K);
    if (V < 0)
      continue;
    ++Measured;
    if (V < Best) {
      Best = V;
      Chosen = K;
      What = Change;
    }
  }
  Why.push_back(
      "refine: " + std::to_string(Measured) + " configs measured; " +
      (What.empty()
           ? std::string("kept (") + std::to_string(unsigned(Base)) + " slots)"
           : What + " (" + std::to_string(unsigned(Base)) + " -> " +
                 std::to_string(unsigned(Best)) + " slots)"));
  return Chosen;
}

} // namespace lc
} // namespace crosslane
