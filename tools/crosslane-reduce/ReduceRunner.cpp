//===- ReduceRunner.cpp - Run generated reductions against a reference ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ReduceRunner.h"
#include "crosslane/Executor/Engine.h"
#include "crosslane/Executor/Executor.h"
#include "crosslane/Executor/VortexTarget.h"
#include "crosslane/Executor/XeTarget.h"
#include "crosslane/LoweringConfig/ReductionKernel.h"
#include "crosslane/Vortex/VortexDivergence.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace llvm;

namespace crosslane {
namespace lc {

namespace {

using subgroup::getBits;
using subgroup::isFloat;
using subgroup::semantics;

double decodeFloat(uint64_t Bits, ElemType T) {
  APFloat F(semantics(T), APInt(getBits(T), Bits));
  bool Lost;
  F.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
  return F.convertToDouble();
}

uint64_t encodeFloat(double V, ElemType T) {
  APFloat F(V);
  bool Lost;
  F.convert(semantics(T), APFloat::rmNearestTiesToEven, &Lost);
  return F.bitcastToAPInt().getZExtValue();
}

uint64_t mask(unsigned Bits) {
  return Bits == 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
}

int64_t signExtend(uint64_t V, unsigned Bits) {
  return Bits == 64 ? int64_t(V) : SignExtend64(V, Bits);
}

/// Iterates the input row-major, giving each element's output index and
/// its linear index over the reduction dimensions.
template <typename Fn>
void forEachElement(ArrayRef<IterDim> Dims, ArrayRef<uint64_t> Sizes, Fn F) {
  unsigned Rank = Dims.size();
  SmallVector<uint64_t, 6> C(Rank, 0);
  uint64_t Total = 1;
  for (uint64_t S : Sizes)
    Total *= S;
  for (uint64_t L = 0; L < Total; ++L) {
    uint64_t Out = 0, Red = 0;
    for (unsigned I = 0; I < Rank; ++I) {
      if (Dims[I].isReduction())
        Red = Red * Sizes[I] + C[I];
      else
        Out = Out * Sizes[I] + C[I];
    }
    F(L, Out, Red);
    for (int I = Rank - 1; I >= 0; --I) {
      if (++C[I] < Sizes[I])
        break;
      C[I] = 0;
    }
  }
}

enum class Pattern { Random, Wide, NaNs, Zeros, Infs, Ties, Extremes, Ordered };

const char *patternName(Pattern P) {
  const char *Names[] = {"random", "wide", "nan",      "zeros",
                         "inf",    "ties", "extremes", "ordered"};
  return Names[unsigned(P)];
}

/// The patterns a combiner is tested with: add/mul avoid the values whose
/// overflow depends on the order of evaluation.
std::vector<Pattern> patternsFor(const ReductionSpec &S) {
  bool Arith = S.Op == Combiner::Add || S.Op == Combiner::Mul;
  if (!isFloat(S.Elem))
    return {Pattern::Random, Pattern::Wide, Pattern::Extremes, Pattern::Ties,
            Pattern::Ordered};
  std::vector<Pattern> P = {Pattern::Random, Pattern::Wide, Pattern::NaNs,
                            Pattern::Zeros,  Pattern::Infs, Pattern::Ties,
                            Pattern::Ordered};
  if (!Arith)
    P.push_back(Pattern::Extremes);
  return P;
}

/// One input element of pattern \p P (raw bits of the element type).
class InputGen {
public:
  InputGen(const ReductionSpec &S, uint64_t RowSize, unsigned Seed)
      : S(S), RowSize(RowSize), Rng(Seed) {
    MulRange = std::min(1.0, 4.0 / std::sqrt(double(RowSize)));
  }
  uint64_t next(Pattern P, uint64_t Out, uint64_t Red);

private:
  const ReductionSpec &S;
  uint64_t RowSize;
  std::mt19937_64 Rng;
  double MulRange;

  double uniform(double Lo, double Hi) {
    return std::uniform_real_distribution<double>(Lo, Hi)(Rng);
  }
  bool chance(double P) { return uniform(0, 1) < P; }
  uint64_t nanBits() {
    unsigned B = getBits(S.Elem);
    unsigned Mant = S.Elem == ElemType::F16    ? 10
                    : S.Elem == ElemType::BF16 ? 7
                    : S.Elem == ElemType::F32  ? 23
                                               : 52;
    uint64_t Exp = mask(B - 1 - Mant) << Mant;
    uint64_t M = (Rng() & mask(Mant)) | (uint64_t(1) << (Mant - 1));
    return (chance(0.5) ? uint64_t(1) << (B - 1) : 0) | Exp | M;
  }
  uint64_t floatValue(Pattern P, uint64_t Out, uint64_t Red);
  uint64_t intValue(Pattern P, uint64_t Red);
};

uint64_t InputGen::floatValue(Pattern P, uint64_t Out, uint64_t Red) {
  bool Mul = S.Op == Combiner::Mul;
  auto Base = [&]() {
    if (Mul)
      return (chance(0.5) ? -1.0 : 1.0) *
             std::exp2(uniform(-MulRange, MulRange));
    return uniform(-1, 1);
  };
  double Inf = INFINITY;
  switch (P) {
  case Pattern::Random:
    return encodeFloat(Base(), S.Elem);
  case Pattern::Wide:
    return encodeFloat(Mul ? Base() : uniform(-1000, 1000), S.Elem);
  case Pattern::NaNs:
    if (Out == 0 || chance(0.03) || (Out == 1 && Red == RowSize - 1))
      return nanBits();
    return encodeFloat(Base(), S.Elem);
  case Pattern::Zeros:
    if (Out == 0)
      return encodeFloat(-0.0, S.Elem);
    if (Out == 1)
      return encodeFloat(0.0, S.Elem);
    if (chance(0.8))
      return encodeFloat(chance(0.5) ? -0.0 : 0.0, S.Elem);
    return encodeFloat(chance(0.5) ? -1.0 : 1.0, S.Elem);
  case Pattern::Infs:
    if (Out == 0 && Red < 2)
      return encodeFloat(Red ? -Inf : Inf, S.Elem);
    if (chance(0.03))
      return encodeFloat(chance(0.5) ? -Inf : Inf, S.Elem);
    return encodeFloat(Base(), S.Elem);
  case Pattern::Ties:
    if (Mul)
      return encodeFloat(chance(0.5) ? -1.0 : 1.0, S.Elem);
    return encodeFloat(double(int64_t(Rng() % 6) - 2), S.Elem);
  case Pattern::Extremes: {
    const fltSemantics &Sem = semantics(S.Elem);
    APFloat Vals[] = {APFloat::getLargest(Sem), APFloat::getSmallest(Sem),
                      APFloat::getSmallestNormalized(Sem),
                      APFloat::getZero(Sem), APFloat::getInf(Sem)};
    APFloat V = Vals[Rng() % 5];
    if (chance(0.5))
      V.changeSign();
    return V.bitcastToAPInt().getZExtValue();
  }
  case Pattern::Ordered: {
    // Rows alternate ascending and descending: the winner is last or first.
    double X = double(Red) / double(RowSize);
    if (Mul)
      X = 1.0 + X * MulRange / 4;
    return encodeFloat(Out % 2 ? -X : X, S.Elem);
  }
  }
  return 0;
}

uint64_t InputGen::intValue(Pattern P, uint64_t Red) {
  unsigned B = getBits(S.Elem);
  switch (P) {
  case Pattern::Random:
    return Rng() & mask(B);
  case Pattern::Wide:
    return uint64_t(int64_t(Rng() % 2001) - 1000) & mask(B);
  case Pattern::Extremes: {
    uint64_t Vals[] = {uint64_t(1) << (B - 1), mask(B - 1), 0, mask(B), 1};
    return Vals[Rng() % 5];
  }
  case Pattern::Ties:
    return uint64_t(int64_t(Rng() % 6) - 2) & mask(B);
  default:
    return (Red % 2 ? Red : ~Red) & mask(B);
  }
}

uint64_t InputGen::next(Pattern P, uint64_t Out, uint64_t Red) {
  return isFloat(S.Elem) ? floatValue(P, Out, Red) : intValue(P, Red);
}

/// The reference of one output, folded element by element in index order.
struct RefState {
  uint64_t N = 0;
  // Integers: the accumulator's bits.
  uint64_t Bits = 0;
  // Floats.
  long double Sum = 0, SumAbs = 0, Prod = 1;
  bool NaN = false, PosInf = false, NegInf = false, Zero = false;
  unsigned Negatives = 0;
  bool HaveBest = false;
  double Best = 0;
  uint64_t BestBits = 0, BestIdx = 0;
  bool HaveNaN = false;
  uint64_t NaNIdx = 0;
};

/// -0 < +0 total order on non-NaN doubles.
bool lessTotal(double A, double B) {
  if (A == 0 && B == 0)
    return std::signbit(A) && !std::signbit(B);
  return A < B;
}

class Reference {
public:
  explicit Reference(const ReductionSpec &S) : S(S) {}
  void fold(RefState &R, uint64_t X, uint64_t Idx) const;
  /// Empty when \p Got matches; else what was expected.
  std::string check(const RefState &R, uint64_t Got, uint64_t GotIdx) const;

private:
  const ReductionSpec &S;
  void foldInt(RefState &R, uint64_t X) const;
  void foldFloat(RefState &R, double V, uint64_t Bits, uint64_t Idx) const;
  std::string checkArith(const RefState &R, double Got) const;
  std::string checkPick(const RefState &R, uint64_t Got, uint64_t GotIdx) const;
};

void Reference::foldInt(RefState &R, uint64_t X) const {
  unsigned EB = getBits(S.Elem), AB = getBits(S.Acc);
  bool Unsigned = S.Op == Combiner::UMin || S.Op == Combiner::UMax ||
                  S.Op == Combiner::And || S.Op == Combiner::Or ||
                  S.Op == Combiner::Xor;
  uint64_t V = Unsigned ? X : uint64_t(signExtend(X, EB)) & mask(AB);
  if (R.N == 0) {
    R.Bits = V;
    return;
  }
  int64_t SA = signExtend(R.Bits, AB), SV = signExtend(V, AB);
  switch (S.Op) {
  case Combiner::Add:
    R.Bits = (R.Bits + V) & mask(AB);
    break;
  case Combiner::Mul:
    R.Bits = (R.Bits * V) & mask(AB);
    break;
  case Combiner::Min:
    R.Bits = SV < SA ? V : R.Bits;
    break;
  case Combiner::Max:
    R.Bits = SV > SA ? V : R.Bits;
    break;
  case Combiner::UMin:
    R.Bits = std::min(R.Bits, V);
    break;
  case Combiner::UMax:
    R.Bits = std::max(R.Bits, V);
    break;
  case Combiner::And:
    R.Bits &= V;
    break;
  case Combiner::Or:
    R.Bits |= V;
    break;
  case Combiner::Xor:
    R.Bits ^= V;
    break;
  default:
    break;
  }
}

void Reference::foldFloat(RefState &R, double V, uint64_t Bits,
                          uint64_t Idx) const {
  if (std::isnan(V)) {
    if (!R.HaveNaN)
      R.NaNIdx = Idx;
    R.HaveNaN = R.NaN = true;
    return;
  }
  R.PosInf |= V == INFINITY;
  R.NegInf |= V == -INFINITY;
  R.Zero |= V == 0;
  R.Negatives += std::signbit(V);
  R.Sum += V;
  R.SumAbs += std::fabs(V);
  R.Prod *= V;
  bool Max = S.Op == Combiner::Max || S.Op == Combiner::Maximum ||
             S.Op == Combiner::ArgMax;
  double Cmp = V, Cur = R.Best;
  if (S.ArgPolicy & subgroup::PolicyZerosEqual) {
    Cmp = Cmp == 0 ? 0.0 : Cmp;
    Cur = Cur == 0 ? 0.0 : Cur;
  }
  bool Wins = Max ? lessTotal(Cur, Cmp) : lessTotal(Cmp, Cur);
  if (!R.HaveBest || Wins) {
    R.HaveBest = true;
    R.Best = V;
    R.BestBits = Bits;
    R.BestIdx = Idx;
  }
}

void Reference::fold(RefState &R, uint64_t X, uint64_t Idx) const {
  if (isFloat(S.Elem)) {
    foldFloat(R, decodeFloat(X, S.Elem), X, Idx);
  } else if (isArg(S.Op)) {
    int64_t V = signExtend(X, getBits(S.Elem));
    int64_t Cur = signExtend(R.BestBits, getBits(S.Elem));
    bool Wins = S.Op == Combiner::ArgMax ? V > Cur : V < Cur;
    if (!R.HaveBest || Wins) {
      R.HaveBest = true;
      R.BestBits = X;
      R.BestIdx = Idx;
    }
  } else {
    foldInt(R, X);
  }
  ++R.N;
}

std::string describe(double V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%.9g", V);
  return S;
}

/// add / mul: the special-value class, then the error bound.
std::string Reference::checkArith(const RefState &R, double Got) const {
  bool Add = S.Op == Combiner::Add;
  const fltSemantics &Sem = semantics(S.Acc);
  double U = std::ldexp(1.0, -int(APFloat::semanticsPrecision(Sem)));
  double MaxF = APFloat::getLargest(Sem).convertToDouble();
  double Tiny = APFloat::getSmallest(Sem).convertToDouble();
  bool NaN = R.NaN || (Add ? (R.PosInf && R.NegInf)
                           : (R.Zero && (R.PosInf || R.NegInf)));
  if (NaN)
    return std::isnan(Got) ? "" : "NaN";
  bool Inf = R.PosInf || R.NegInf;
  if (Inf) {
    double Want = Add ? (R.PosInf ? INFINITY : -INFINITY)
                      : (R.Negatives % 2 ? -INFINITY : INFINITY);
    return Got == Want ? "" : describe(Want);
  }
  double Exact = double(Add ? R.Sum : R.Prod);
  double Tol =
      1.01 * double(R.N) * U * double(Add ? R.SumAbs : std::fabs(R.Prod)) +
      double(R.N) * Tiny;
  if (!Add && R.Zero) {
    double Want = R.Negatives % 2 ? -0.0 : 0.0;
    bool Ok = Got == 0 && std::signbit(Got) == std::signbit(Want);
    return Ok ? "" : describe(Want);
  }
  if (std::isinf(Got) && std::fabs(Exact) + Tol >= MaxF &&
      std::signbit(Got) == std::signbit(Exact))
    return "";
  if (std::fabs(Got - Exact) <= Tol)
    return "";
  return describe(Exact) + " +- " + describe(Tol);
}

/// min / max / minimum / maximum / argmax / argmin: one input is the answer.
std::string Reference::checkPick(const RefState &R, uint64_t Got,
                                 uint64_t GotIdx) const {
  bool Propagate = S.Op == Combiner::Minimum || S.Op == Combiner::Maximum ||
                   (isArg(S.Op) && (S.ArgPolicy & subgroup::PolicyNaNWins));
  bool NaN = R.HaveNaN && (Propagate || !R.HaveBest);
  if (!isArg(S.Op)) {
    double G = decodeFloat(Got, S.Acc);
    if (NaN)
      return std::isnan(G) ? "" : "NaN";
    uint64_t Want = encodeFloat(R.Best, S.Acc);
    return Got == Want ? "" : describe(R.Best);
  }
  uint64_t WantBits = NaN ? encodeFloat(NAN, S.Elem) : R.BestBits;
  uint64_t WantIdx = NaN ? R.NaNIdx : R.BestIdx;
  if (Got == WantBits && GotIdx == WantIdx)
    return "";
  return (NaN ? std::string("NaN") : describe(R.Best)) + " at index " +
         std::to_string(WantIdx);
}

std::string Reference::check(const RefState &R, uint64_t Got,
                             uint64_t GotIdx) const {
  if (!isFloat(S.Elem)) {
    if (isArg(S.Op))
      return Got == R.BestBits && GotIdx == R.BestIdx
                 ? ""
                 : std::to_string(signExtend(R.BestBits, getBits(S.Elem))) +
                       " at index " + std::to_string(R.BestIdx);
    return Got == R.Bits ? ""
                         : std::to_string(signExtend(R.Bits, getBits(S.Acc)));
  }
  if (S.Op == Combiner::Add || S.Op == Combiner::Mul)
    return checkArith(R, decodeFloat(Got, S.Acc));
  return checkPick(R, Got, GotIdx);
}

uint64_t readElem(const std::vector<uint8_t> &Buf, size_t K, unsigned Bytes) {
  uint64_t V = 0;
  std::memcpy(&V, &Buf[K * Bytes], Bytes);
  return V;
}

} // namespace

namespace {

/// Vortex: the divergence lowering the code generator runs (vx_split /
/// vx_join around the representative lanes' stores), then the machine's
/// view of the module, and the model of the configuration VortexISA.td
/// records (the same facts as its config/cflags.txt).
std::unique_ptr<exec::TargetModel> prepareVortex(const TargetDesc &T, Module &M,
                                                 std::string &Err) {
  PassBuilder PB;
  FunctionAnalysisManager FAM;
  PB.registerFunctionAnalyses(FAM);
  FunctionPassManager FPM;
  FPM.addPass(VortexDivergencePass());
  for (Function &F : M)
    if (!F.isDeclaration() && vortex::isVortexFunction(F))
      FPM.run(F, FAM);
  exec::prepareVortexModule(M, exec::VortexSemantics::Hardware);
  exec::VortexConfig C;
  if (!exec::tableVortexConfig(T.vortexConfig(), C)) {
    Err = "no Vortex configuration '" + T.vortexConfig().str() + "'";
    return nullptr;
  }
  return exec::createVortexTarget(M, C, exec::VortexSemantics::Hardware, Err);
}

} // namespace

Expected<Runnable> makeRunnable(const TargetDesc &T, Module &M) {
  std::string Err;
  std::unique_ptr<exec::TargetModel> TM;
  Function *K = M.getFunction(KernelName);
  switch (T.Kind) {
  case TargetKind::AMDGPU:
    TM = exec::createAMDGPUTarget(T.Chip, T.Features, Err);
    break;
  case TargetKind::Xe:
    TM = exec::createXeTarget(T.WaveSize, Err);
    break;
  case TargetKind::Vortex:
    TM = prepareVortex(T, M, Err);
    K = TM ? exec::findVortexKernel(M, KernelName, Err) : nullptr;
    break;
  }
  if (!TM || !K)
    return createStringError(
        inconvertibleErrorCode(),
        Err.empty() ? "no kernel " + std::string(KernelName) : Err);
  Runnable R;
  R.X = std::make_unique<exec::Executor>(M, std::move(TM));
  R.Kernel = K;
  return R;
}

namespace {

Error writeBytes(StringRef Path, ArrayRef<uint8_t> Bytes) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (!EC)
    OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  if (EC)
    return createStringError(EC, "cannot write '" + Path + "'");
  return Error::success();
}

/// One case through \p Launcher (see runCases): the buffers go through
/// files in a temporary directory; the launcher's "PERF:" line, if any,
/// goes to \p Perf.
Error runLauncher(StringRef Launcher, const exec::LaunchConfig &C,
                  std::vector<std::vector<uint8_t>> &Bufs, std::string &Perf) {
  SmallString<128> Dir;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("crosslane-reduce", Dir))
    return createStringError(EC, "cannot create a temporary directory: " +
                                     EC.message());
  scope_exit Cleanup([&] { sys::fs::remove_directories(Dir); });
  SmallVector<StringRef, 8> Words;
  SplitString(Launcher, Words);
  std::vector<std::string> Args(Words.begin(), Words.end());
  Args.push_back(std::to_string(C.Grid[0]));
  Args.push_back(std::to_string(C.Block[0]));
  SmallVector<std::string, 4> Files;
  for (const exec::KernelArg &A : C.Args) {
    if (!A.IsBuffer) {
      Args.push_back("i64:" + std::to_string(A.Bits));
      continue;
    }
    SmallString<128> F(Dir);
    sys::path::append(F, "buf" + std::to_string(A.Buffer));
    if (Error E = writeBytes(F, Bufs[A.Buffer]))
      return E;
    Files.push_back(F.str().str());
    Args.push_back("buf:" + Files.back());
  }
  SmallString<128> Out(Dir);
  sys::path::append(Out, "launcher.out");
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out),
                                          StringRef(Out)};
  std::string ErrMsg;
  ErrorOr<std::string> Prog = sys::findProgramByName(Args[0]);
  SmallVector<StringRef, 12> ArgRefs(Args.begin(), Args.end());
  int RC = Prog ? sys::ExecuteAndWait(*Prog, ArgRefs, std::nullopt, Redirects,
                                      /*SecondsToWait=*/600, 0, &ErrMsg)
                : -1;
  auto Text = MemoryBuffer::getFile(Out);
  std::string Said = Text ? (*Text)->getBuffer().trim().str() : "";
  if (RC != 0) {
    std::string How = !Prog             ? "not found"
                      : !ErrMsg.empty() ? ErrMsg
                                        : "exit status " + std::to_string(RC);
    return createStringError(inconvertibleErrorCode(),
                             "--launcher: '" + Args[0] + "' failed (" + How +
                                 ")" + (Said.empty() ? "" : ": " + Said));
  }
  for (StringRef L : split(Said, '\n'))
    if (L.trim().starts_with("PERF:") && Perf.empty())
      Perf = L.trim().str();
  for (size_t I = 0, F = 0; I < C.Args.size(); ++I) {
    if (!C.Args[I].IsBuffer)
      continue;
    auto MB = MemoryBuffer::getFile(Files[F++]);
    std::vector<uint8_t> &B = Bufs[C.Args[I].Buffer];
    if (!MB || (*MB)->getBufferSize() != B.size())
      return createStringError(inconvertibleErrorCode(),
                               "--launcher: a buffer came back with the "
                               "wrong size");
    std::memcpy(B.data(), (*MB)->getBufferStart(), B.size());
  }
  return Error::success();
}

} // namespace

Expected<RunTotals> runCases(const Distribution &D, Module &M,
                             ArrayRef<uint64_t> DynSizes, unsigned Seed,
                             raw_ostream &Log, StringRef Launcher) {
  const ReductionSpec &S = D.Spec;
  SmallVector<uint64_t, 6> Sizes;
  unsigned Dyn = 0;
  for (const IterDim &Dim : S.Dims)
    Sizes.push_back(Dim.isDynamic() ? DynSizes[Dyn++] : Dim.Size);
  uint64_t Total = 1, Outputs = 1, RowSize = 1;
  for (unsigned I = 0; I < Sizes.size(); ++I) {
    Total *= Sizes[I];
    (S.Dims[I].isReduction() ? RowSize : Outputs) *= Sizes[I];
  }
  std::optional<Runnable> R;
  if (Launcher.empty()) {
    Expected<Runnable> Made = makeRunnable(D.Target, M);
    if (!Made)
      return Made.takeError();
    R = std::move(*Made);
  }
  std::string Perf;
  unsigned EB = getBits(S.Elem) / 8, AB = getBits(S.Acc) / 8,
           IB = getBits(S.Index) / 8;
  exec::LaunchConfig C;
  C.Grid = {unsigned(D.numWorkgroups(DynSizes)), 1, 1};
  C.Block = {D.WorkgroupSize, 1, 1};
  unsigned NBuf = isArg(S.Op) ? 3 : 2;
  for (unsigned B = 0; B < NBuf; ++B)
    C.Args.push_back({true, B, 0});
  for (uint64_t V : DynSizes)
    C.Args.push_back({false, 0, V});
  Reference Ref(S);
  RunTotals T;
  unsigned Shown = 0;
  for (Pattern P : patternsFor(S)) {
    InputGen Gen(S, RowSize, Seed + unsigned(P));
    std::vector<std::vector<uint8_t>> Bufs(NBuf);
    Bufs[0].resize(Total * EB);
    Bufs[1].assign(Outputs * AB, 0xA5);
    if (NBuf == 3)
      Bufs[2].assign(Outputs * IB, 0xA5);
    std::vector<RefState> States(Outputs);
    forEachElement(S.Dims, Sizes, [&](uint64_t L, uint64_t Out, uint64_t Red) {
      uint64_t V = Gen.next(P, Out, Red);
      std::memcpy(&Bufs[0][L * EB], &V, EB);
      Ref.fold(States[Out], V, Red);
    });
    if (Error E = R ? R->X->run(*R->Kernel, C, Bufs)
                    : runLauncher(Launcher, C, Bufs, Perf))
      return std::move(E);
    ++T.Cases;
    for (uint64_t O = 0; O < Outputs; ++O) {
      uint64_t Got = readElem(Bufs[1], O, AB);
      uint64_t GotIdx = NBuf == 3 ? readElem(Bufs[2], O, IB) : 0;
      std::string Want = Ref.check(States[O], Got, GotIdx);
      if (Want.empty())
        continue;
      ++T.Mismatches;
      if (Shown++ < 8) {
        Log << "mismatch: inputs '" << patternName(P) << "', output " << O
            << ": got ";
        if (isFloat(S.Acc))
          Log << describe(decodeFloat(Got, S.Acc));
        else
          Log << signExtend(Got, AB * 8);
        if (NBuf == 3)
          Log << " at index " << GotIdx;
        Log << ", want " << Want << "\n";
      }
    }
  }
  if (R)
    T.WaveInstructions = R->X->stats().WaveInstructions;
  if (!Perf.empty())
    Log << "launcher: first case: " << Perf << "\n";
  return T;
}

} // namespace lc
} // namespace crosslane
