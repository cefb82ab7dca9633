//===- crosslane-reduce.cpp - Reduction kernels from lowering configs -----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Describe a reduction, give an IREE lowering config (or let the heuristic
/// choose one), and get the kernel (AMDGPU, Intel Xe or Vortex) that
/// distributes it exactly so:
///
///   crosslane-reduce --target=gfx942 --op=add --type=f32 --dims=p1152,r384 \
///     --config='#iree_gpu.lowering_config<{...}>' --explain=42 --run \
///     -o kernel.ll
///
/// See docs/LoweringConfigs.md.
///
//===----------------------------------------------------------------------===//

#include "ConfigSearch.h"
#include "ReduceRunner.h"
#include "crosslane/LoweringConfig/ConfigHeuristic.h"
#include "crosslane/LoweringConfig/ReductionKernel.h"
#include "crosslane/SubgroupReduce/Reference.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace crosslane;
using namespace crosslane::lc;

static cl::OptionCategory Cat("crosslane-reduce options");

static cl::opt<std::string> TargetOpt(
    "target",
    cl::desc("<chip>[:w32|:w64] (AMDGPU processor), "
             "pvc|bmg|lnl|ptl|cri|dg2[:w16|:w32] (Intel Xe) or "
             "vortex[:default|w16t16a|w8t32a] (Vortex configuration)"),
    cl::Required, cl::cat(Cat));
static cl::opt<std::string>
    OpOpt("op",
          cl::desc("add mul min max umin umax minimum maximum and or xor, or "
                   "argmax|argmin[:i32|:i64][:nan-wins][:zeros-equal]"),
          cl::Required, cl::cat(Cat));
static cl::opt<std::string> TypeOpt("type",
                                    cl::desc("<elem>[:<acc>], e.g. f16:f32"),
                                    cl::init("f32"), cl::cat(Cat));
static cl::opt<std::string>
    DimsOpt("dims",
            cl::desc("<p|r><size>,... iteration space (? for a dynamic size)"),
            cl::Required, cl::cat(Cat));
static cl::opt<std::string>
    ConfigOpt("config",
              cl::desc("IREE lowering config: #iree_gpu.lowering_config<{...}> "
                       "or {...}; chosen by the heuristic when absent"),
              cl::cat(Cat));
static cl::opt<int64_t>
    ExplainOpt("explain",
               cl::desc("explain what thread <id> of a workgroup does"),
               cl::init(-1), cl::cat(Cat));
static cl::opt<bool>
    RunOpt("run",
           cl::desc("run the kernel in the wave executor against the host "
                    "reference on random and adversarial inputs"),
           cl::cat(Cat));
static cl::opt<std::string> OutputOpt("o",
                                      cl::desc("write the kernel (LLVM IR)"),
                                      cl::value_desc("file"), cl::cat(Cat));
static cl::opt<bool> NoOptimize("no-optimize",
                                cl::desc("skip LLVM's O2 pipeline"),
                                cl::cat(Cat));
static cl::opt<bool>
    NoExpand("no-expand",
             cl::desc("keep the __crosslane_* calls (the executor runs them "
                      "with their reference semantics)"),
             cl::cat(Cat));
static cl::list<uint64_t>
    RunSizes("run-sizes", cl::CommaSeparated,
             cl::desc("sizes of the dynamic dimensions for --run (default: "
                      "three sets: 1, 61, two tiles + 3)"),
             cl::cat(Cat));
static cl::opt<uint64_t> RunBudget(
    "run-budget", cl::init(1 << 20),
    cl::desc("largest input --run executes; larger static problems run with "
             "fewer workgroup tiles along parallel dimensions"),
    cl::cat(Cat));
static cl::opt<bool>
    CostOpt("cost",
            cl::desc("measure the config with Crosslane's cost measure (wave "
                     "instructions of workgroup 0 in the executor, scaled to "
                     "the grid)"),
            cl::cat(Cat));
static cl::opt<bool> NoRefine(
    "no-refine",
    cl::desc("use the heuristic's closed-form choice as is (by default its "
             "neighbours are measured with the cost measure and the "
             "cheapest is kept)"),
    cl::cat(Cat));

static cl::opt<bool> SearchOpt(
    "search",
    cl::desc("rank every config of the bounded search space by the cost "
             "measure; show the best --top and this config's place"),
    cl::cat(Cat));
static cl::opt<unsigned> TopOpt("top", cl::init(5),
                                cl::desc("configs --search lists"),
                                cl::cat(Cat));
static cl::opt<std::string> LauncherOpt(
    "launcher",
    cl::desc("--run's cases through this command instead of the executor: "
             "'<command> <args>' gets GRID BLOCK buf:FILE... i64:N... "
             "appended and must write the output buffers back, e.g. "
             "'crosslane-vx-launch k.clvx crosslane_reduce' for the module "
             "crosslane-hipcc --target=vortex --genco built from -o's "
             "kernel (the problem is then run at its full size)"),
    cl::cat(Cat));
static cl::opt<unsigned> SeedOpt("seed", cl::init(1),
                                 cl::desc("random input seed"), cl::cat(Cat));

namespace {

[[noreturn]] void fatal(const Twine &Msg) {
  WithColor::error(errs(), "crosslane-reduce") << Msg << "\n";
  exit(1);
}

template <typename T> T check(Expected<T> V) {
  if (!V)
    fatal(toString(V.takeError()));
  return std::move(*V);
}

void check(Error E) {
  if (E)
    fatal(toString(std::move(E)));
}

ReductionSpec parseSpec() {
  ReductionSpec S;
  S.Dims = check(parseDims(DimsOpt));
  check(parseCombiner(OpOpt, S));
  check(parseTypes(TypeOpt, S));
  check(checkSpec(S));
  return S;
}

/// What a run of \p D on \p Sizes (every dimension) costs: the input
/// elements, or the element steps of every thread (masked ones included).
uint64_t runCost(const Distribution &D, ArrayRef<uint64_t> Sizes) {
  uint64_t Elements = 1, Steps = uint64_t(D.WorkgroupSize) * D.Accumulators;
  for (unsigned I = 0; I < D.Dims.size(); ++I) {
    const DimPlan &P = D.Dims[I];
    Elements *= Sizes[I];
    Steps *= P.Dim.isReduction()
                 ? divideCeil(Sizes[I], P.Tile) * P.Batch * P.Thread
                 : divideCeil(Sizes[I], P.Tile);
  }
  return std::max(Elements, Steps);
}

/// The sizes --run uses for the dynamic dimensions: one set per entry.
std::vector<std::vector<uint64_t>> dynamicSizeSets(const Distribution &D) {
  unsigned N = 0;
  for (const DimPlan &P : D.Dims)
    N += P.Dim.isDynamic();
  if (N == 0)
    return {{}};
  if (!RunSizes.empty()) {
    if (RunSizes.size() != N)
      fatal("--run-sizes: " + Twine(RunSizes.size()) + " sizes for " +
            Twine(N) + " dynamic dimensions");
    return {std::vector<uint64_t>(RunSizes.begin(), RunSizes.end())};
  }
  std::vector<std::vector<uint64_t>> Sets(3);
  for (const DimPlan &P : D.Dims) {
    if (!P.Dim.isDynamic())
      continue;
    Sets[0].push_back(1);
    Sets[1].push_back(61);
    Sets[2].push_back(2 * P.Tile + 3);
  }
  // Within the budget: halve the largest size (keeping it odd).
  for (std::vector<uint64_t> &Set : Sets) {
    auto Cost = [&]() {
      std::vector<uint64_t> All;
      unsigned K = 0;
      for (const DimPlan &P : D.Dims)
        All.push_back(P.Dim.isDynamic() ? Set[K++] : P.Dim.Size);
      return runCost(D, All);
    };
    while (Cost() > RunBudget) {
      uint64_t &Max = *std::max_element(Set.begin(), Set.end());
      if (Max == 1)
        break;
      Max = (Max / 2) | 1;
    }
  }
  std::sort(Sets.begin(), Sets.end());
  Sets.erase(std::unique(Sets.begin(), Sets.end()), Sets.end());
  return Sets;
}

/// A static problem over the budget runs with fewer tiles along its
/// parallel dimensions (two tiles and a masked part of a third when the
/// size allows): every workgroup runs the same code.
ReductionSpec shrinkForRun(const Distribution &D) {
  ReductionSpec S = D.Spec;
  auto Total = [&]() {
    std::vector<uint64_t> All;
    for (const IterDim &Dim : S.Dims)
      All.push_back(Dim.isDynamic() ? 1 : Dim.Size);
    return runCost(D, All);
  };
  for (unsigned I = 0; I < S.rank() && Total() > RunBudget; ++I) {
    IterDim &Dim = S.Dims[I];
    if (Dim.isReduction() || Dim.isDynamic())
      continue;
    uint64_t Tile = D.Dims[I].Tile;
    uint64_t Small = std::min<uint64_t>(Dim.Size, 2 * Tile + (Tile + 1) / 2);
    if (Small < Dim.Size) {
      outs() << "run: d" << I << " = " << Dim.Size << " shrunk to " << Small
             << " (the input would exceed --run-budget=" << RunBudget
             << " elements or thread steps)\n";
      Dim.Size = Small;
    }
  }
  return S;
}

int runAll(const Distribution &D, LLVMContext &Ctx, const KernelOptions &KO) {
  // A launcher runs the kernel -o wrote: the problem as given.
  ReductionSpec S = LauncherOpt.empty() ? shrinkForRun(D) : D.Spec;
  Distribution RD = check(planDistribution(S, D.Config, D.Target));
  std::unique_ptr<Module> M = check(generateReductionKernel(RD, Ctx, KO));
  RunTotals All;
  for (const std::vector<uint64_t> &Sizes : dynamicSizeSets(RD)) {
    if (!Sizes.empty()) {
      outs() << "run: dynamic sizes";
      for (uint64_t V : Sizes)
        outs() << " " << V;
      outs() << "\n";
    }
    RunTotals T = check(runCases(RD, *M, Sizes, SeedOpt, outs(), LauncherOpt));
    All.Cases += T.Cases;
    All.Mismatches += T.Mismatches;
    All.WaveInstructions = T.WaveInstructions;
  }
  outs() << All.Cases << " cases, " << All.Mismatches << " mismatches\n";
  return All.Mismatches ? 1 : 0;
}

void printCost(const Cost &C) {
  outs() << "cost: " << C.WaveInstructionsPerWorkgroup
         << " wave instructions per workgroup (critical path " << C.CriticalPath
         << "), " << C.Workgroups << " workgroups of " << C.WavesPerWorkgroup
         << " wave" << (C.WavesPerWorkgroup == 1 ? "" : "s") << ": "
         << format("%.0f", C.Slots) << " issue slots\n";
}

/// Ranks the bounded config space; the heuristic's config is \p Heur.
int searchAll(const ReductionSpec &S, const TargetDesc &T,
              const LoweringConfig &Heur, LLVMContext &Ctx) {
  std::vector<std::pair<double, LoweringConfig>> Ranked;
  unsigned Invalid = 0;
  for (const LoweringConfig &C : enumerateConfigs(S, T)) {
    Expected<Cost> K = measureConfig(S, C, T, Ctx);
    if (!K) {
      consumeError(K.takeError());
      ++Invalid;
      continue;
    }
    Ranked.push_back({K->Slots, C});
  }
  double HC = check(measureConfig(S, Heur, T, Ctx)).Slots;
  std::stable_sort(
      Ranked.begin(), Ranked.end(),
      [](const auto &A, const auto &B) { return A.first < B.first; });
  if (Ranked.empty())
    fatal("--search: no valid config in the search space");
  unsigned Rank = 1;
  while (Rank <= Ranked.size() && Ranked[Rank - 1].first < HC)
    ++Rank;
  unsigned N = TopOpt;
  outs() << "search: " << Ranked.size() << " configs measured (" << Invalid
         << " of the space invalid for this problem)\n";
  for (unsigned I = 0; I < N && I < Ranked.size(); ++I)
    outs() << "  #" << I + 1 << " " << format("%.0f", Ranked[I].first)
           << " slots: " << Ranked[I].second.str() << "\n";
  outs() << "search: best " << format("%.0f", Ranked[0].first)
         << " slots; this config " << format("%.0f", HC) << " slots ("
         << format("%.3f", HC / Ranked[0].first) << "x the best, rank " << Rank
         << " of " << Ranked.size() << ")\n";
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  registerSubgroupReferenceBuiltins();
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "crosslane-reduce: reduction kernels (AMDGPU, Intel Xe, Vortex) "
      "distributed exactly as an "
      "IREE lowering config says (workgroup, thread, partial_reduction, "
      "lane_basis, subgroup_basis), or as Crosslane's heuristic chooses.\n\n"
      "  crosslane-reduce --target=gfx942 --op=add --type=f32 "
      "--dims=p1152,r384 \\\n"
      "    --config='{workgroup = [16, 0], thread = [0, 1], partial_reduction "
      "= [0, 32],\n"
      "      lane_basis = [[16, 4], [1, 0]], subgroup_basis = [[1, 2], [0, "
      "1]]}' \\\n"
      "    --explain=42 --run -o kernel.ll\n");
  ReductionSpec S = parseSpec();
  TargetDesc T = check(parseTarget(TargetOpt));
  LoweringConfig C;
  LLVMContext Ctx;
  if (ConfigOpt.getNumOccurrences()) {
    C = check(parseLoweringConfig(ConfigOpt));
  } else {
    std::vector<std::string> Why;
    C = chooseConfig(S, T, &Why);
    if (!NoRefine)
      C = refineConfig(S, T, C, Ctx, Why);
    outs() << "heuristic:\n";
    for (const std::string &W : Why)
      outs() << "  " << W << "\n";
  }
  Distribution D = check(planDistribution(S, C, T));
  D.print(outs());
  if (ExplainOpt >= 0)
    check(D.explain(ExplainOpt, outs()));
  KernelOptions KO;
  KO.Optimize = !NoOptimize;
  KO.Expand = !NoExpand;
  if (!OutputOpt.empty()) {
    std::unique_ptr<Module> M = check(generateReductionKernel(D, Ctx, KO));
    std::error_code EC;
    ToolOutputFile Out(OutputOpt, EC, sys::fs::OF_Text);
    if (EC)
      fatal("cannot write '" + OutputOpt + "': " + EC.message());
    M->print(Out.os(), nullptr);
    Out.keep();
  }
  if (CostOpt)
    printCost(check(measureCost(D, Ctx)));
  if (SearchOpt)
    searchAll(S, T, C, Ctx);
  if (RunOpt)
    return runAll(D, Ctx, KO);
  return 0;
}
