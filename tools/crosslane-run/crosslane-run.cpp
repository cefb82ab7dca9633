//===- crosslane-run.cpp - Run AMDGPU IR kernels on the wave executor -----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Command-line front end of the wave executor: load a module, pick a
/// kernel, build buffers from argument specs, run the grid, print or write
/// the buffers; or run two modules on identical generated inputs and compare
/// every buffer bit for bit (--diff). AMDGPU modules run on the AMDGPU
/// model, riscv32 Vortex modules on the Vortex model (with its structured
/// or hardware control-flow semantics). See docs/Executor.md.
///
//===----------------------------------------------------------------------===//

#include "crosslane/Executor/Engine.h"
#include "crosslane/Executor/Executor.h"
#include "crosslane/Executor/VortexTarget.h"
#include "crosslane/Executor/XeTarget.h"

#include "crosslane/Support/ChipInfo.h"
#include "crosslane/Vortex/VortexISA.h"
#include "llvm/IR/Constants.h"
#ifdef CROSSLANE_HAVE_SUBGROUP_REFERENCE
#include "crosslane/SubgroupReduce/Reference.h"
#endif

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSummaryIndex.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

using namespace llvm;
using namespace crosslane;
using namespace crosslane::exec;

static cl::OptionCategory Cat("crosslane-run options");

static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<module.ll|module.bc>"),
                                      cl::cat(Cat));
static cl::opt<std::string>
    KernelName("kernel",
               cl::desc("Kernel to run (default: the module's only "
                        "kernel). Vortex: a HIP kernel's mangled name or a "
                        "prefix of its demangled name"),
               cl::cat(Cat));
static cl::opt<std::string>
    MCPU("mcpu",
         cl::desc("Chip, e.g. gfx942 (default: the kernel's \"target-cpu\")"),
         cl::cat(Cat));
static cl::opt<std::string>
    MAttr("mattr",
          cl::desc("Target features, e.g. +wavefrontsize64 (default: the "
                   "kernel's \"target-features\" if its \"target-cpu\" is "
                   "the chosen chip)"),
          cl::cat(Cat));
static cl::opt<std::string> Grid("grid",
                                 cl::desc("Workgroups: X[,Y[,Z]] (default 1)"),
                                 cl::init("1"), cl::cat(Cat));
static cl::opt<std::string>
    Block("block", cl::desc("Work-items per workgroup: X[,Y[,Z]] (default 64)"),
          cl::init("64"), cl::cat(Cat));
static cl::list<std::string> ArgSpecs(
    "arg",
    cl::desc("Kernel argument, in parameter order. Buffers: "
             "buf:TYPE:COUNT:INIT with TYPE i8|i16|i32|i64|f16|bf16|f32|f64, "
             "INIT random|zero|iota|const=V|file=PATH|gen=GEN (GEN: random, "
             "all-equal, ties, nan-at=K, all-nan, pm-zero, pm-inf, denorm, "
             "neg-max, lanes: a 0/1 lane subset, new per case) or input "
             "(generator-driven in --diff; random "
             "otherwise). Scalars: TYPE:VALUE (e.g. i32:77, f32:2.5). "
             "null: a null pointer. local:BYTES: a work-group local buffer "
             "(an OpenCL __local kernel argument). COUNT/VALUE/BYTES may be N "
             "(the current "
             "--sizes entry), or N+K / N*K. A struct parameter (byref) "
             "takes one value per scalar field, in memory order"),
    cl::cat(Cat));
static cl::opt<unsigned> Seed("seed", cl::desc("Random seed (default 1)"),
                              cl::init(1), cl::cat(Cat));
static cl::opt<std::string>
    Print("print",
          cl::desc("Buffers to print after the run: comma-separated "
                   "argument indices, 'all' (default), or 'none'"),
          cl::init("all"), cl::cat(Cat));
static cl::opt<std::string>
    Out("out", cl::desc("Write each buffer's bytes to PREFIX.argK.bin"),
        cl::cat(Cat));
/// --stats is LLVM's own option (libLLVM registers it); it is adopted into
/// this tool's category and read through its occurrence count.
static bool ShowStats = false;
static cl::opt<std::string>
    DiffFile("diff",
             cl::desc("Differential mode: run this second module on the same "
                      "inputs and compare every buffer bit for bit"),
             cl::cat(Cat));
static cl::opt<std::string> Inputs(
    "inputs",
    cl::desc("Generators for --diff: comma list of random, all-equal, ties, "
             "nan-each, all-nan, pm-zero, pm-inf, denorm, neg-max, lanes, or "
             "'all' (default; lanes is meant for mask buffers, gen=lanes)"),
    cl::init("all"), cl::cat(Cat));
static cl::opt<unsigned>
    Cases("cases",
          cl::desc("Cases per random-valued generator and size in --diff "
                   "(default 2)"),
          cl::init(2), cl::cat(Cat));
static cl::opt<std::string>
    Sizes("sizes",
          cl::desc("Values substituted for N in --arg/--grid/--block specs, "
                   "comma separated (default 64)"),
          cl::init("64"), cl::cat(Cat));
static cl::opt<unsigned>
    DynamicLDS("dynamic-lds",
               cl::desc("Bytes of dynamic LDS for extern __shared__ arrays "
                        "(default 0)"),
               cl::init(0), cl::cat(Cat));
static cl::opt<bool>
    NaNEqual("nan-equal",
             cl::desc("--diff: treat any two NaNs of a float buffer as equal "
                      "(payload and sign of NaN results are unspecified in "
                      "LLVM IR, e.g. for llvm.maximum)"),
             cl::cat(Cat));
static cl::opt<unsigned>
    MaxNaNPositions("max-nan-positions",
                    cl::desc("nan-each: at most this many positions per size "
                             "(default 64)"),
                    cl::init(64), cl::cat(Cat));
static cl::opt<uint64_t>
    Budget("max-lane-instructions",
           cl::desc("Abort a run after this many lane-instructions, with an "
                    "error naming the budget (default 4000000000: about a "
                    "minute; the guard against endless loops)"),
           cl::init(4000000000ULL), cl::cat(Cat));
static cl::opt<std::string> IntRange(
    "int-range",
    cl::desc("LO:HI: random integer elements (random, all-equal, ties) are "
             "drawn from [LO, HI] instead of the whole range (keeps signed "
             "arithmetic of HIP code from overflowing)"),
    cl::cat(Cat));
static cl::opt<std::string>
    TargetOpt("target",
              cl::desc("Target model: amdgpu, vortex, xe, or auto (default: "
                       "vortex for riscv32 modules with Vortex functions, xe "
                       "for spirv64 modules)"),
              cl::init("auto"), cl::cat(Cat));
static cl::opt<std::string> VortexConfigOpt(
    "vortex-config",
    cl::desc("Vortex configuration: a directory with config/cflags.txt, or "
             "a name under $CROSSLANE_VORTEX_HOME/prebuilt (default: "
             "'default')"),
    cl::cat(Cat));
static cl::opt<unsigned>
    VortexThreads("vortex-threads",
                  cl::desc("Vortex lanes per warp (overrides the "
                           "configuration's VX_CFG_NUM_THREADS)"),
                  cl::init(0), cl::cat(Cat));
static cl::opt<unsigned>
    VortexWarps("vortex-warps",
                cl::desc("Vortex warps per core (overrides the "
                         "configuration's VX_CFG_NUM_WARPS)"),
                cl::init(0), cl::cat(Cat));
static cl::opt<std::string> VortexSemanticsOpt(
    "vortex-semantics",
    cl::desc("Vortex control flow: hardware (simx: branches follow the "
             "warp's last active lane, split/join/pred set the mask; "
             "default) or structured (lanes reconverge: the meaning before "
             "the divergence lowering). --diff takes a pair for the two "
             "modules (default structured,hardware)"),
    cl::cat(Cat));

[[noreturn]] static void fatal(const Twine &Msg) {
  errs() << "crosslane-run: error: " << Msg << "\n";
  exit(1);
}

//===----------------------------------------------------------------------===//
// Element types and values
//===----------------------------------------------------------------------===//

namespace {

struct ElemType {
  std::string Name;
  unsigned Size = 4;
  bool IsFloat = false;
  LeafKind K = LeafKind::Int;
};

bool parseType(StringRef S, ElemType &T) {
  T.Name = S.str();
  if (S == "i8" || S == "u8")
    T.Size = 1;
  else if (S == "i16" || S == "u16")
    T.Size = 2;
  else if (S == "i32" || S == "u32")
    T.Size = 4;
  else if (S == "i64" || S == "u64")
    T.Size = 8;
  else if (S == "f16")
    T.Size = 2, T.IsFloat = true, T.K = LeafKind::Half;
  else if (S == "bf16")
    T.Size = 2, T.IsFloat = true, T.K = LeafKind::BFloat;
  else if (S == "f32")
    T.Size = 4, T.IsFloat = true, T.K = LeafKind::Float;
  else if (S == "f64")
    T.Size = 8, T.IsFloat = true, T.K = LeafKind::Double;
  else
    return false;
  return true;
}

Leaf leafOf(const ElemType &T) {
  Leaf L;
  L.K = T.K;
  L.Bits = T.Size * 8;
  return L;
}

uint64_t fromDouble(const ElemType &T, double D) {
  return doubleToLeaf(leafOf(T), D);
}

/// Parses a scalar literal of type \p T (ints: decimal/hex; floats: decimal,
/// inf, nan, or 0x bit pattern).
bool parseValue(const ElemType &T, StringRef S, uint64_t &V) {
  if (T.IsFloat) {
    if (S.starts_with("0x")) {
      return !S.drop_front(2).getAsInteger(16, V);
    }
    std::string Str = S.str();
    char *End;
    double D = strtod(Str.c_str(), &End);
    if (*End)
      return false;
    V = fromDouble(T, D);
    return true;
  }
  int64_t I;
  if (S.getAsInteger(0, I)) {
    uint64_t U;
    if (S.getAsInteger(0, U))
      return false;
    I = (int64_t)U;
  }
  V = T.Size == 8 ? (uint64_t)I : ((uint64_t)I & ((1ULL << (T.Size * 8)) - 1));
  return true;
}

std::string formatValue(const ElemType &T, uint64_t V) {
  if (!T.IsFloat) {
    if (T.Name[0] == 'u')
      return std::to_string(V);
    int64_t S = T.Size == 8
                    ? (int64_t)V
                    : (int64_t)(V << (64 - 8 * T.Size)) >> (64 - 8 * T.Size);
    return std::to_string(S);
  }
  Leaf L = leafOf(T);
  if (leafIsNaN(L, V))
    return "nan(0x" + utohexstr(V) + ")";
  char Buf[64];
  double D = leafToDouble(L, V);
  snprintf(Buf, sizeof(Buf), T.K == LeafKind::Double ? "%.17g" : "%.9g", D);
  return Buf;
}

/// Evaluates N, N+K, N*K, N-K or a plain number.
bool evalCount(StringRef S, unsigned N, uint64_t &V) {
  S = S.trim();
  S.consume_front("$");
  if (S.starts_with("N")) {
    StringRef Rest = S.drop_front(1);
    if (Rest.empty()) {
      V = N;
      return true;
    }
    uint64_t K;
    char Op = Rest[0];
    if (Rest.drop_front(1).getAsInteger(0, K))
      return false;
    V = Op == '+'   ? N + K
        : Op == '-' ? N - K
        : Op == '*' ? N * K
                    : (uint64_t)-1;
    return Op == '+' || Op == '-' || Op == '*';
  }
  return !S.getAsInteger(0, V);
}

/// One --arg.
struct ArgSpec {
  std::string Text;
  bool IsBuffer = false, IsNull = false, IsLocal = false;
  ElemType T;
  std::string Count, Init, Value;
};

ArgSpec parseArgSpec(StringRef S) {
  ArgSpec A;
  A.Text = S.str();
  if (S == "null") {
    A.IsNull = true;
    return A;
  }
  SmallVector<StringRef, 4> Parts;
  S.split(Parts, ':', 3);
  if (Parts[0] == "local") {
    if (Parts.size() != 2)
      fatal("bad local-memory spec '" + S + "' (want local:BYTES)");
    A.IsLocal = true;
    A.Count = Parts[1].str();
    return A;
  }
  if (Parts[0] == "buf") {
    if (Parts.size() != 4)
      fatal("bad buffer spec '" + S + "' (want buf:TYPE:COUNT:INIT)");
    A.IsBuffer = true;
    if (!parseType(Parts[1], A.T))
      fatal("unknown element type '" + Parts[1] + "' in '" + S + "'");
    A.Count = Parts[2].str();
    A.Init = Parts[3].str();
    return A;
  }
  if (Parts.size() != 2 || !parseType(Parts[0], A.T))
    fatal("bad argument spec '" + S +
          "' (want buf:TYPE:COUNT:INIT, TYPE:VALUE, local:BYTES or null)");
  A.Value = Parts[1].str();
  return A;
}

/// Fills \p Vals (N elements of T) with generator \p Gen.
bool generate(StringRef Gen, const ElemType &T, size_t N, std::mt19937_64 &R,
              std::vector<uint64_t> &Vals, std::string &Err) {
  Leaf L = leafOf(T);
  uint64_t Mask = T.Size == 8 ? ~0ULL : ((1ULL << (8 * T.Size)) - 1);
  int64_t Lo = 0, Hi = -1;
  if (!IntRange.empty()) {
    auto [L, H] = StringRef(IntRange).split(':');
    if (L.getAsInteger(0, Lo) || H.getAsInteger(0, Hi) || Lo > Hi)
      return Err = "bad --int-range '" + IntRange + "' (want LO:HI)", false;
  }
  auto Rand = [&]() -> uint64_t {
    if (T.IsFloat) {
      std::uniform_real_distribution<double> D(-1000.0, 1000.0);
      return fromDouble(T, std::round(D(R) * 64) / 64);
    }
    if (Lo <= Hi)
      return (uint64_t)(Lo + (int64_t)(R() % (uint64_t)(Hi - Lo + 1))) & Mask;
    return R() & Mask;
  };
  auto Special = [&](bool Neg) -> uint64_t { // NaN or extreme int
    if (T.IsFloat)
      return fromDouble(T, Neg ? -NAN : NAN);
    return Neg ? (1ULL << (8 * T.Size - 1)) : (Mask >> 1);
  };
  Vals.assign(N, 0);
  if (Gen == "random") {
    for (auto &V : Vals)
      V = Rand();
  } else if (Gen == "all-equal") {
    uint64_t X = Rand();
    for (auto &V : Vals)
      V = X;
  } else if (Gen == "ties") {
    uint64_t Pool[3] = {Rand(), Rand(), Rand()};
    for (auto &V : Vals)
      V = Pool[R() % 3];
  } else if (Gen.starts_with("nan-at=")) {
    unsigned K;
    if (Gen.drop_front(7).getAsInteger(0, K))
      return Err = "bad generator '" + Gen.str() + "'", false;
    for (auto &V : Vals)
      V = Rand();
    if (K < N)
      Vals[K] = Special(false);
  } else if (Gen == "all-nan") {
    for (auto &V : Vals)
      V = Special(R() & 1);
  } else if (Gen == "pm-zero") {
    for (auto &V : Vals)
      V = T.IsFloat ? ((R() & 1) ? fromDouble(T, -0.0) : 0) : 0;
  } else if (Gen == "pm-inf") {
    for (auto &V : Vals) {
      unsigned C = R() % 3;
      V = !T.IsFloat ? (C == 0   ? Special(true)
                        : C == 1 ? Special(false)
                                 : Rand())
          : C == 0   ? fromDouble(T, INFINITY)
          : C == 1   ? fromDouble(T, -INFINITY)
                     : Rand();
    }
  } else if (Gen == "lanes") {
    // Divergent lane subsets, as a 0/1 mask per element (1.0 for floats):
    // a random half, all, none, one element, every other one, a prefix.
    unsigned Kind = R() % 6;
    size_t One = N ? R() % N : 0, Prefix = R() % (N + 1);
    for (size_t K = 0; K < N; ++K) {
      bool On = Kind == 0   ? (R() & 1)
                : Kind == 1 ? true
                : Kind == 2 ? false
                : Kind == 3 ? K == One
                : Kind == 4 ? K % 2 == 1
                            : K < Prefix;
      Vals[K] = On ? (T.IsFloat ? fromDouble(T, 1.0) : 1) : 0;
    }
  } else if (Gen == "denorm") {
    for (auto &V : Vals) {
      if (!T.IsFloat) {
        V = (R() % 7) & Mask;
        continue;
      }
      // Random subnormal: zero exponent, random mantissa, random sign. The
      // top 6 mantissa bits stay clear so sums of up to 64 of them stay
      // subnormal and therefore exact in any order.
      unsigned MB = L.K == LeafKind::Double  ? 52
                    : L.K == LeafKind::Float ? 23
                    : L.K == LeafKind::Half  ? 10
                                             : 7;
      uint64_t M = (R() & ((1ULL << (MB - 6)) - 1)) | 1;
      V = M | ((R() & 1) ? (1ULL << (8 * T.Size - 1)) : 0);
    }
  } else if (Gen == "neg-max") {
    for (auto &V : Vals) {
      if (!T.IsFloat) {
        V = Special(true);
        continue;
      }
      APFloat F =
          APFloat::getLargest(L.K == LeafKind::Double  ? APFloat::IEEEdouble()
                              : L.K == LeafKind::Float ? APFloat::IEEEsingle()
                              : L.K == LeafKind::Half  ? APFloat::IEEEhalf()
                                                       : APFloat::BFloat(),
                              /*Negative=*/true);
      V = F.bitcastToAPInt().getZExtValue();
    }
  } else {
    return Err = "unknown generator '" + Gen.str() + "'", false;
  }
  return true;
}

/// Builds buffers and kernel arguments for one case.
struct Case {
  std::string Desc;
  std::vector<std::vector<uint8_t>> Buffers;
  std::vector<ElemType> BufType;
  std::vector<unsigned> BufArg; ///< argument index of each buffer
  LaunchConfig Cfg;
};

std::array<unsigned, 3> parseDims(StringRef S, unsigned N, StringRef What) {
  std::array<unsigned, 3> D = {1, 1, 1};
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, ',');
  if (Parts.size() > 3)
    fatal("--" + What + " takes at most 3 dimensions");
  for (unsigned K = 0; K < Parts.size(); ++K) {
    uint64_t V;
    if (!evalCount(Parts[K], N, V) || V == 0 || V > (1u << 24))
      fatal("bad --" + What + " dimension '" + Parts[K] + "'");
    D[K] = V;
  }
  return D;
}

/// \p Gen: generator for `input` buffers ("" = use each spec's own INIT).
bool buildCase(const std::vector<ArgSpec> &Specs, unsigned N, StringRef Gen,
               uint64_t CaseSeed, Case &C, std::string &Err) {
  std::mt19937_64 R(CaseSeed);
  C.Cfg.Grid = parseDims(Grid, N, "grid");
  C.Cfg.Block = parseDims(Block, N, "block");
  C.Cfg.MaxLaneInstructions = Budget;
  C.Cfg.DynamicLDS = DynamicLDS;
  for (unsigned AI = 0; AI < Specs.size(); ++AI) {
    const ArgSpec &S = Specs[AI];
    KernelArg KA;
    if (S.IsNull) {
      C.Cfg.Args.push_back(KA);
      continue;
    }
    if (S.IsLocal) {
      uint64_t Bytes;
      if (!evalCount(S.Count, N, Bytes) || !Bytes || Bytes > (1u << 20))
        return Err = "bad byte count in '" + S.Text + "'", false;
      KA.LocalBytes = Bytes;
      C.Cfg.Args.push_back(KA);
      continue;
    }
    if (!S.IsBuffer) {
      uint64_t V;
      if (!S.T.IsFloat && evalCount(S.Value, N, V)) {
        KA.Bits = V;
      } else if (!parseValue(S.T, S.Value, V)) {
        return Err = "bad scalar '" + S.Text + "'", false;
      } else {
        KA.Bits = V;
      }
      C.Cfg.Args.push_back(KA);
      continue;
    }
    uint64_t Count;
    if (!evalCount(S.Count, N, Count) || Count > (1u << 26))
      return Err = "bad element count in '" + S.Text + "'", false;
    std::vector<uint64_t> Vals(Count, 0);
    StringRef Init = S.Init;
    if (Init == "input")
      Init = Gen.empty() ? StringRef("random") : Gen;
    if (Init == "zero") {
    } else if (Init == "iota") {
      for (size_t K = 0; K < Count; ++K)
        Vals[K] = S.T.IsFloat ? fromDouble(S.T, K) : K;
    } else if (Init.starts_with("const=")) {
      uint64_t V;
      if (!parseValue(S.T, Init.drop_front(6), V))
        return Err = "bad constant in '" + S.Text + "'", false;
      std::fill(Vals.begin(), Vals.end(), V);
    } else if (Init.starts_with("file=")) {
      auto MB = MemoryBuffer::getFile(Init.drop_front(5));
      if (!MB)
        return Err = "cannot read '" + Init.drop_front(5).str() + "'", false;
      StringRef Data = (*MB)->getBuffer();
      if (Data.size() < Count * S.T.Size)
        return Err = "file '" + Init.drop_front(5).str() + "' holds " +
                     std::to_string(Data.size()) + " bytes, need " +
                     std::to_string(Count * S.T.Size),
               false;
      for (size_t K = 0; K < Count; ++K)
        std::memcpy(&Vals[K], Data.data() + K * S.T.Size, S.T.Size);
    } else {
      StringRef G = Init;
      G.consume_front("gen=");
      if (!generate(G, S.T, Count, R, Vals, Err))
        return false;
    }
    std::vector<uint8_t> Bytes(Count * S.T.Size);
    for (size_t K = 0; K < Count; ++K)
      std::memcpy(&Bytes[K * S.T.Size], &Vals[K], S.T.Size);
    KA.IsBuffer = true;
    KA.Buffer = C.Buffers.size();
    C.Buffers.push_back(std::move(Bytes));
    C.BufType.push_back(S.T);
    C.BufArg.push_back(AI);
    C.Cfg.Args.push_back(KA);
  }
  return true;
}

/// The Vortex configuration directory \p Spec names: itself, or
/// <home>/prebuilt/<Spec> under $CROSSLANE_VORTEX_HOME or, when it is
/// unset, the build's default home. Empty if none has config/cflags.txt.
std::string vortexConfigDir(StringRef Spec) {
  SmallVector<std::string, 3> Candidates = {Spec.str()};
  SmallVector<std::string, 2> Homes;
  if (std::optional<std::string> H =
          sys::Process::GetEnv("CROSSLANE_VORTEX_HOME"))
    Homes.push_back(*H); // overrides the build's default
#ifdef CROSSLANE_VORTEX_HOME_DEFAULT
  else
    Homes.push_back(CROSSLANE_VORTEX_HOME_DEFAULT);
#endif
  for (const std::string &H : Homes) {
    SmallString<256> P(H);
    sys::path::append(P, "prebuilt", Spec);
    Candidates.push_back(P.str().str());
  }
  for (const std::string &C : Candidates) {
    SmallString<256> F(C);
    sys::path::append(F, "config", "cflags.txt");
    if (sys::fs::exists(F))
      return C;
  }
  return "";
}

VortexConfig vortexConfig() {
  VortexConfig C;
  std::string Err;
  StringRef Spec = VortexConfigOpt.empty() ? StringRef("default")
                                           : StringRef(VortexConfigOpt);
  std::string Dir = vortexConfigDir(Spec);
  if (!Dir.empty()) {
    if (!readVortexConfig(Dir, C, Err))
      fatal(Err);
  } else if (tableVortexConfig(Spec, C)) {
    // No Vortex installation: the configuration of that name as
    // VortexISA.td records it.
  } else if (!VortexConfigOpt.empty()) {
    fatal("no Vortex configuration '" + Spec +
          "': give a directory with config/cflags.txt, the name of one "
          "under $CROSSLANE_VORTEX_HOME/prebuilt, or one of " +
          vortex::hwConfigNames());
  }
  if (VortexThreads || VortexWarps) {
    C.Threads = VortexThreads ? VortexThreads : C.Threads;
    C.Warps = VortexWarps ? VortexWarps : C.Warps;
    C.Name = std::to_string(C.Warps) + " warps x " + std::to_string(C.Threads) +
             " threads";
  }
  return C;
}

/// The semantics of module \p Which (0: the first, 1: --diff's).
VortexSemantics vortexSemantics(unsigned Which) {
  StringRef Opt = VortexSemanticsOpt;
  if (Opt.empty())
    Opt = DiffFile.empty() ? "hardware" : "structured,hardware";
  SmallVector<StringRef, 2> Parts;
  Opt.split(Parts, ',');
  if (Parts.size() > (DiffFile.empty() ? 1u : 2u))
    fatal("--vortex-semantics takes " +
          Twine(DiffFile.empty() ? "one value" : "one value or a pair") +
          ", not '" + Opt + "'");
  VortexSemantics S;
  StringRef P = Parts[std::min<size_t>(Which, Parts.size() - 1)].trim();
  if (!parseVortexSemantics(P, S))
    fatal("bad --vortex-semantics '" + P + "' (hardware or structured)");
  return S;
}

/// A loaded module with its executor.
struct Loaded {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Function *K = nullptr;
  std::unique_ptr<Executor> X;
  std::string CPU, Features;
};

/// Picks the kernel of a Vortex module and creates its target model.
void loadVortex(Loaded &L, StringRef Path, unsigned Which) {
  std::string Err;
  L.K = findVortexKernel(*L.M, KernelName, Err);
  if (!L.K)
    fatal("'" + Path + "': " + Err);
  VortexSemantics S = vortexSemantics(Which);
  prepareVortexModule(*L.M, S);
  auto TM = createVortexTarget(*L.M, vortexConfig(), S, Err);
  if (!TM)
    fatal(Err);
  L.X = std::make_unique<Executor>(*L.M, std::move(TM));
}

/// Picks the spir_kernel of a spirv64 module and creates the Xe model with
/// the kernel's required subgroup size (16 without one).
void loadXe(Loaded &L, StringRef Path) {
  for (Function &F : *L.M)
    if (F.getCallingConv() == CallingConv::SPIR_KERNEL && !F.isDeclaration() &&
        (KernelName.empty() || F.getName() == KernelName)) {
      if (L.K)
        fatal("'" + Path + "' has several kernels: choose one with --kernel");
      L.K = &F;
    }
  if (!L.K)
    fatal("no spir_kernel" +
          (KernelName.empty() ? Twine() : Twine(" '") + KernelName + "'") +
          " in '" + Path + "'");
  unsigned SG = 16;
  if (MDNode *MD = L.K->getMetadata("intel_reqd_sub_group_size"))
    if (auto *C = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0)))
      SG = C->getZExtValue();
  std::string Err;
  auto TM = createXeTarget(SG, Err);
  if (!TM)
    fatal(Err);
  L.X = std::make_unique<Executor>(*L.M, std::move(TM));
}

void load(Loaded &L, StringRef Path, unsigned Which) {
  SMDiagnostic Diag;
  // Textual IR is parsed without the debug-info upgrade, which verifies the
  // module and aborts on invalid IR; the verifier below reports it instead,
  // and the upgrade runs once the module is valid.
  bool Text = Path.ends_with(".ll");
  if (Text)
    L.M = parseAssemblyFileWithIndexNoUpgradeDebugInfo(
              Path, Diag, L.Ctx, nullptr,
              [](StringRef, StringRef) { return std::nullopt; })
              .Mod;
  else
    L.M = parseIRFile(Path, Diag, L.Ctx);
  if (!L.M) {
    std::string S;
    raw_string_ostream OS(S);
    // "FILE:LINE:COL: error: MESSAGE" and the line, as LLVM's tools print it
    // (without a second program name).
    Diag.print(nullptr, OS, false);
    fatal("cannot load '" + Path + "': " + StringRef(S).trim());
  }
  std::string VErr;
  raw_string_ostream VOS(VErr);
  if (verifyModule(*L.M, &VOS))
    fatal("'" + Path + "' is not valid IR: " + StringRef(VOS.str()).trim());
  if (Text)
    UpgradeDebugInfo(*L.M);
  if (TargetOpt != "auto" && TargetOpt != "amdgpu" && TargetOpt != "vortex" &&
      TargetOpt != "xe")
    fatal("bad --target '" + TargetOpt + "' (amdgpu, vortex, xe or auto)");
  if (TargetOpt == "vortex" || (TargetOpt == "auto" && isVortexModule(*L.M)))
    return loadVortex(L, Path, Which);
  if (TargetOpt == "xe" || (TargetOpt == "auto" && isXeModule(*L.M)))
    return loadXe(L, Path);
  if (!KernelName.empty()) {
    L.K = L.M->getFunction(KernelName);
    if (!L.K || L.K->isDeclaration())
      fatal("no kernel '" + KernelName + "' in '" + Path + "'");
  } else {
    for (Function &F : *L.M)
      if (F.getCallingConv() == CallingConv::AMDGPU_KERNEL &&
          !F.isDeclaration()) {
        if (L.K)
          fatal("'" + Path + "' has several kernels: choose one with --kernel");
        L.K = &F;
      }
    if (!L.K)
      fatal("no amdgpu_kernel in '" + Path + "' (use --kernel)");
  }
  // The chip: --mcpu, else the kernel's "target-cpu". Features: --mattr,
  // else the kernel's "target-features" when they were written for the
  // same chip (so a wave64 gfx1100 module stays wave64).
  std::string AttrCPU =
      L.K->getFnAttribute("target-cpu").getValueAsString().str();
  L.CPU = MCPU.empty() ? AttrCPU : MCPU.getValue();
  L.Features = MAttr;
  if (MAttr.empty() && L.CPU == AttrCPU)
    L.Features =
        L.K->getFnAttribute("target-features").getValueAsString().str();
  if (L.CPU.empty())
    fatal("no chip: give --mcpu (the kernel has no \"target-cpu\")");
  // Run the module as code for the chosen chip.
  for (Function &F : *L.M)
    if (!F.isDeclaration())
      F.addFnAttr("target-cpu", L.CPU);
  std::string Err;
  auto TM = createAMDGPUTarget(L.CPU, L.Features, Err);
  if (!TM)
    fatal(Err);
  L.X = std::make_unique<Executor>(*L.M, std::move(TM));
}

std::vector<unsigned> printSet(size_t NArgs) {
  std::vector<unsigned> R;
  if (Print == "none")
    return R;
  if (Print == "all") {
    for (unsigned K = 0; K < NArgs; ++K)
      R.push_back(K);
    return R;
  }
  SmallVector<StringRef, 4> Parts;
  StringRef(Print).split(Parts, ',');
  for (StringRef P : Parts) {
    unsigned K;
    if (P.trim().getAsInteger(0, K) || K >= NArgs)
      fatal("bad --print entry '" + P + "'");
    R.push_back(K);
  }
  return R;
}

uint64_t element(const Case &C, unsigned B, size_t K) {
  uint64_t V = 0;
  std::memcpy(&V, &C.Buffers[B][K * C.BufType[B].Size], C.BufType[B].Size);
  return V;
}

void printStats(const ExecStats &S) {
  double Rate = S.Seconds > 0 ? S.LaneInstructions / S.Seconds : 0;
  outs() << "stats: " << S.LaneInstructions << " lane-instructions, "
         << S.WaveInstructions << " wave-instructions, " << S.Waves
         << " waves, critical path " << S.CriticalPath << " wave-instructions, "
         << format("%.3f", S.Seconds) << " s, " << format("%.1f", Rate / 1e6)
         << "M lane-instructions/s\n";
}

int runSingle(const std::vector<ArgSpec> &Specs) {
  Loaded L;
  load(L, InputFile, 0);
  SmallVector<StringRef, 4> SZ;
  StringRef(Sizes).split(SZ, ',');
  uint64_t N0 = 64;
  if (!SZ.empty() && SZ[0].getAsInteger(0, N0))
    fatal("bad --sizes '" + Sizes + "'");
  Case C;
  std::string Err;
  if (!buildCase(Specs, N0, "", Seed, C, Err))
    fatal(Err);
  if (Error E = L.X->run(*L.K, C.Cfg, C.Buffers))
    fatal(toString(std::move(E)));
  std::vector<unsigned> PS = printSet(Specs.size());
  for (unsigned B = 0; B < C.Buffers.size(); ++B) {
    unsigned AI = C.BufArg[B];
    if (!Out.empty()) {
      std::error_code EC;
      raw_fd_ostream OS(Out + ".arg" + std::to_string(AI) + ".bin", EC);
      if (EC)
        fatal("cannot write '" + Out + "': " + EC.message());
      OS.write((const char *)C.Buffers[B].data(), C.Buffers[B].size());
    }
    if (!llvm::is_contained(PS, AI))
      continue;
    size_t Count = C.Buffers[B].size() / C.BufType[B].Size;
    for (size_t K = 0; K < Count; ++K)
      outs() << "arg" << AI << "[" << K
             << "] = " << formatValue(C.BufType[B], element(C, B, K)) << "\n";
  }
  if (ShowStats)
    printStats(L.X->stats());
  return 0;
}

int runDiff(const std::vector<ArgSpec> &Specs) {
  Loaded A, B;
  load(A, InputFile, 0);
  load(B, DiffFile, 1);
  SmallVector<StringRef, 8> Gens, SZ;
  std::string GenList = Inputs == "all" ? "random,all-equal,ties,nan-each,"
                                          "all-nan,pm-zero,pm-inf,denorm,"
                                          "neg-max"
                                        : Inputs.getValue();
  StringRef(GenList).split(Gens, ',');
  StringRef(Sizes).split(SZ, ',');
  uint64_t NCases = 0, Mismatches = 0, Printed = 0;
  for (StringRef S : SZ) {
    unsigned N;
    if (S.trim().getAsInteger(0, N))
      fatal("bad --sizes entry '" + S + "'");
    for (StringRef G : Gens) {
      std::vector<std::string> Instances;
      if (G == "nan-each") {
        for (unsigned K = 0; K < std::min(N, MaxNaNPositions.getValue()); ++K)
          Instances.push_back("nan-at=" + std::to_string(K));
      } else {
        bool Randomish = G != "all-nan" && G != "neg-max";
        for (unsigned K = 0; K < (Randomish ? Cases.getValue() : 1); ++K)
          Instances.push_back(G.str());
      }
      for (unsigned K = 0; K < Instances.size(); ++K) {
        uint64_t CaseSeed = Seed * 1000003ULL + NCases * 7919ULL + N;
        std::string Desc = "size " + std::to_string(N) + ", input " +
                           Instances[K] + ", seed " + std::to_string(CaseSeed);
        Case CA, CB;
        std::string Err;
        if (!buildCase(Specs, N, Instances[K], CaseSeed, CA, Err) ||
            !buildCase(Specs, N, Instances[K], CaseSeed, CB, Err))
          fatal(Err);
        ++NCases;
        if (Error E = A.X->run(*A.K, CA.Cfg, CA.Buffers))
          fatal("[" + InputFile + "; " + Desc + "] " + toString(std::move(E)));
        if (Error E = B.X->run(*B.K, CB.Cfg, CB.Buffers))
          fatal("[" + DiffFile + "; " + Desc + "] " + toString(std::move(E)));
        for (unsigned Bf = 0; Bf < CA.Buffers.size(); ++Bf) {
          size_t Count = CA.Buffers[Bf].size() / CA.BufType[Bf].Size;
          for (size_t I = 0; I < Count; ++I) {
            uint64_t VA = element(CA, Bf, I), VB = element(CB, Bf, I);
            if (VA == VB)
              continue;
            const ElemType &ET = CA.BufType[Bf];
            if (NaNEqual && ET.IsFloat && leafIsNaN(leafOf(ET), VA) &&
                leafIsNaN(leafOf(ET), VB))
              continue;
            ++Mismatches;
            if (Printed++ < 100)
              outs() << "mismatch: arg" << CA.BufArg[Bf] << "[" << I
                     << "]: " << formatValue(CA.BufType[Bf], VA) << " vs "
                     << formatValue(CA.BufType[Bf], VB) << " (" << Desc
                     << ")\n";
          }
        }
      }
    }
  }
  if (Printed > 100)
    outs() << "... " << (Printed - 100) << " more mismatches not shown\n";
  outs() << "diff: " << NCases << " cases, " << Mismatches << " mismatches\n";
  if (ShowStats) {
    printStats(A.X->stats());
    printStats(B.X->stats());
  }
  return Mismatches ? 1 : 0;
}

} // namespace

int main(int Argc, char **Argv) {
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
#ifdef CROSSLANE_HAVE_SUBGROUP_REFERENCE
  crosslane::registerSubgroupReferenceBuiltins();
#endif
  cl::Option *StatsOpt = nullptr;
  {
    auto &Opts = cl::getRegisteredOptions();
    auto It = Opts.find("stats");
    if (It != Opts.end()) {
      StatsOpt = It->second;
      StatsOpt->addCategory(Cat);
      StatsOpt->setHiddenFlag(cl::NotHidden);
      StatsOpt->setDescription("Print lane-instructions, waves, time and "
                               "lane-instructions per second");
    }
  }
  cl::HideUnrelatedOptions(Cat);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "crosslane-run (Crosslane wave executor, LLVM 22)\n";
  });
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "Crosslane wave executor: runs an amdgcn LLVM IR kernel over a grid of "
      "workgroups made of 32- or 64-lane waves, or a Vortex (riscv32) HIP "
      "kernel over CTAs of 4- to 32-lane warps, with exact cross-lane "
      "semantics and poison tracking.\n\n"
      "  crosslane-run k.ll --mcpu=gfx942 --grid=4 --block=256 \\\n"
      "      --arg=buf:f32:1024:random --arg=buf:f32:1024:zero --arg=i32:1024\n"
      "  crosslane-run a.ll --diff=b.ll --mcpu=gfx1100 --block=N \\\n"
      "      --arg=buf:i32:N:input --arg=buf:i32:1:zero --sizes=1,31,64,100\n"
      "  crosslane-run pre.ll --diff=lowered.ll --kernel=kNested "
      "--vortex-config=w8t32a \\\n"
      "      --grid=2 --block=N --arg=buf:i32:N*2:input "
      "--arg=buf:i32:N*2:zero --arg=i32:N*2\n");
  ShowStats = StatsOpt && StatsOpt->getNumOccurrences();
  std::vector<ArgSpec> Specs;
  for (const std::string &S : ArgSpecs)
    Specs.push_back(parseArgSpec(S));
  if (!DiffFile.empty())
    return runDiff(Specs);
  return runSingle(Specs);
}
