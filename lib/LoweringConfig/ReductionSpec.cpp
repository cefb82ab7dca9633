//===- ReductionSpec.cpp - Reductions crosslane-reduce builds -------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/LoweringConfig/ReductionSpec.h"
#include "crosslane/Support/ChipInfo.h"
#include "crosslane/Vortex/VortexISA.h"
#include "crosslane/Xe/XeBlockIO.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crosslane {
namespace lc {

namespace {

struct CombinerName {
  const char *Name;
  Combiner C;
};

constexpr CombinerName CombinerNames[] = {
    {"add", Combiner::Add},         {"mul", Combiner::Mul},
    {"min", Combiner::Min},         {"max", Combiner::Max},
    {"umin", Combiner::UMin},       {"umax", Combiner::UMax},
    {"minimum", Combiner::Minimum}, {"maximum", Combiner::Maximum},
    {"and", Combiner::And},         {"or", Combiner::Or},
    {"xor", Combiner::Xor},         {"argmax", Combiner::ArgMax},
    {"argmin", Combiner::ArgMin},
};

} // namespace

const char *getName(Combiner C) {
  for (const CombinerName &N : CombinerNames)
    if (N.C == C)
      return N.Name;
  return "?";
}

/// `vortex[:<config>]`: the configuration's facts from VortexISA.td (a
/// block has at most warps x threads threads, all on one core; one warp
/// instruction issued per core and cycle, VX_CFG_ISSUE_WIDTH=1).
static Expected<TargetDesc> parseVortexTarget(StringRef Config) {
  if (Config.empty())
    Config = "default";
  const vortex::HWConfig *HW = vortex::lookupHWConfig(Config);
  if (!HW)
    return makeError("--target: no Vortex configuration '" + Config +
                     "' (known: " + vortex::hwConfigNames() + ")");
  TargetDesc T;
  T.Kind = TargetKind::Vortex;
  T.Chip = ("vortex:" + Config).str();
  T.WaveSize = HW->Threads;
  T.MaxWorkgroupSize = HW->Threads * HW->Warps;
  T.LDSBytes = 1u << HW->LmemLogSize;
  T.ComputeUnits = HW->Cores;
  T.IssueSlotsPerCU = 1;
  return T;
}

Expected<TargetDesc> parseTarget(StringRef S) {
  auto [Chip, Wave] = S.split(':');
  if (Chip == "vortex")
    return parseVortexTarget(Wave);
  TargetDesc T;
  T.Chip = Chip.str();
  if (std::optional<XeChipLimits> X = xeChipLimits(Chip)) {
    T.Kind = TargetKind::Xe;
    if (Wave.empty() || Wave == "w16")
      T.WaveSize = 16;
    else if (Wave == "w32")
      T.WaveSize = 32;
    else
      return makeError("--target: subgroup size '" + Wave + "' of " + Chip +
                       " is not w16 or w32");
    T.LDSBytes = X->LocalMemBytes;
    T.MaxWorkgroupSize = X->MaxWorkGroupSize;
    return T;
  }
  if (Wave == "w32")
    T.Features = "+wavefrontsize32";
  else if (Wave == "w64")
    T.Features = "+wavefrontsize64";
  else if (!Wave.empty())
    return makeError("--target: wave size '" + Wave + "' is not w32 or w64");
  std::optional<ChipInfo> C = ChipInfo::get(T.Chip, T.Features);
  if (!C || !C->isKnown())
    return makeError(
        "--target: '" + Chip +
        "' is neither an AMDGPU processor LLVM 22 knows, an Intel Xe chip "
        "(pvc, bmg, lnl, ptl, cri, dg2) nor vortex[:<configuration>]");
  if (C->Major < 10 && Wave == "w32")
    return makeError("--target: " + Chip + " runs wave64 only");
  T.WaveSize = C->WaveSize;
  T.LDSBytes = C->LDSBytes;
  return T;
}

bool ReductionSpec::hasDynamicDims() const {
  for (const IterDim &D : Dims)
    if (D.isDynamic())
      return true;
  return false;
}

subgroup::ReduceOp ReductionSpec::reduceOp() const {
  using subgroup::ReduceOp;
  bool F = subgroup::isFloat(Acc);
  switch (Op) {
  case Combiner::Add:
    return ReduceOp::Add;
  case Combiner::Mul:
    return ReduceOp::Mul;
  case Combiner::Min:
    return F ? ReduceOp::FMin : ReduceOp::SMin;
  case Combiner::Max:
    return F ? ReduceOp::FMax : ReduceOp::SMax;
  case Combiner::UMin:
    return ReduceOp::UMin;
  case Combiner::UMax:
    return ReduceOp::UMax;
  case Combiner::Minimum:
    return ReduceOp::FMinimum;
  case Combiner::Maximum:
    return ReduceOp::FMaximum;
  case Combiner::And:
    return ReduceOp::And;
  case Combiner::Or:
    return ReduceOp::Or;
  case Combiner::Xor:
    return ReduceOp::Xor;
  case Combiner::ArgMax:
  case Combiner::ArgMin:
    break;
  }
  return ReduceOp::Add;
}

uint64_t ReductionSpec::reductionSize() const {
  uint64_t N = 1;
  for (const IterDim &D : Dims)
    if (D.isReduction()) {
      if (D.isDynamic())
        return 0;
      N *= D.Size;
    }
  return N;
}

uint64_t ReductionSpec::outputSize() const {
  uint64_t N = 1;
  for (const IterDim &D : Dims)
    if (!D.isReduction()) {
      if (D.isDynamic())
        return 0;
      N *= D.Size;
    }
  return N;
}

std::string ReductionSpec::str() const {
  std::string S;
  raw_string_ostream OS(S);
  ListSeparator LS(" x ");
  for (const IterDim &D : Dims) {
    OS << LS << (D.isReduction() ? 'r' : 'p');
    if (D.isDynamic())
      OS << '?';
    else
      OS << D.Size;
  }
  OS << ", " << subgroup::getName(Elem);
  if (Acc != Elem)
    OS << " -> " << subgroup::getName(Acc);
  OS << ", " << getName(Op);
  if (isArg(Op)) {
    OS << " (index " << subgroup::getName(Index);
    if (ArgPolicy & subgroup::PolicyNaNWins)
      OS << ", NaN wins";
    if (ArgPolicy & subgroup::PolicyZerosEqual)
      OS << ", zeros equal";
    OS << ")";
  }
  return S;
}

Expected<std::vector<IterDim>> parseDims(StringRef S) {
  SmallVector<StringRef, 6> Parts;
  S.split(Parts, ',');
  std::vector<IterDim> Dims;
  bool AnyReduction = false;
  for (StringRef P : Parts) {
    P = P.trim();
    IterDim D;
    if (P.consume_front("p"))
      D.Kind = DimKind::Parallel;
    else if (P.consume_front("r"))
      D.Kind = DimKind::Reduction;
    else
      return makeError("--dims: '" + P +
                       "' must start with p (parallel) or r "
                       "(reduction)");
    if (P == "?")
      D.Size = 0;
    else if (P.getAsInteger(10, D.Size) || D.Size == 0 ||
             D.Size > (uint64_t(1) << 40))
      return makeError("--dims: size '" + P +
                       "' is not ? or an integer in 1..2^40");
    AnyReduction |= D.isReduction();
    Dims.push_back(D);
  }
  if (Dims.empty() || Dims.size() > 6)
    return makeError("--dims: 1 to 6 dimensions");
  if (!AnyReduction)
    return makeError("--dims: no reduction dimension (r<size>)");
  return Dims;
}

Error parseCombiner(StringRef S, ReductionSpec &Spec) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, ':');
  bool Found = false;
  for (const CombinerName &N : CombinerNames)
    if (Parts[0] == N.Name) {
      Spec.Op = N.C;
      Found = true;
    }
  if (!Found)
    return makeError("--op: unknown combiner '" + Parts[0] +
                     "' (add mul min max umin umax minimum maximum and or xor "
                     "argmax argmin)");
  for (StringRef Mod : ArrayRef<StringRef>(Parts).drop_front()) {
    if (!isArg(Spec.Op))
      return makeError("--op: '" + Mod + "' applies to argmax/argmin only");
    if (Mod == "nan-wins")
      Spec.ArgPolicy |= subgroup::PolicyNaNWins;
    else if (Mod == "zeros-equal")
      Spec.ArgPolicy |= subgroup::PolicyZerosEqual;
    else if (Mod == "i32" || Mod == "i64")
      Spec.Index = *subgroup::parseElemType(Mod);
    else
      return makeError("--op: unknown modifier '" + Mod +
                       "' (nan-wins, zeros-equal, i32, i64)");
  }
  return Error::success();
}

Error parseTypes(StringRef S, ReductionSpec &Spec) {
  auto [E, A] = S.split(':');
  std::optional<ElemType> Elem = subgroup::parseElemType(E);
  if (!Elem || *Elem == ElemType::I16)
    return makeError("--type: element type '" + E +
                     "' is not one of f16 bf16 f32 f64 i32 i64");
  Spec.Elem = *Elem;
  Spec.Acc = *Elem;
  if (!A.empty()) {
    std::optional<ElemType> Acc = subgroup::parseElemType(A);
    if (!Acc || *Acc == ElemType::I16)
      return makeError("--type: accumulator type '" + A +
                       "' is not one of f16 bf16 f32 f64 i32 i64");
    Spec.Acc = *Acc;
  }
  return Error::success();
}

Error checkSpec(const ReductionSpec &Spec) {
  bool FE = subgroup::isFloat(Spec.Elem), FA = subgroup::isFloat(Spec.Acc);
  if (FE != FA)
    return makeError(Twine("--type: accumulator ") +
                     subgroup::getName(Spec.Acc) + " and element " +
                     subgroup::getName(Spec.Elem) +
                     " must both be floating point or both integers");
  unsigned EB = subgroup::getBits(Spec.Elem), AB = subgroup::getBits(Spec.Acc);
  bool Narrower = AB < EB || (AB == EB && Spec.Acc != Spec.Elem);
  if (Narrower)
    return makeError(Twine("--type: accumulator ") +
                     subgroup::getName(Spec.Acc) + " cannot hold every " +
                     subgroup::getName(Spec.Elem) + " exactly");
  if (isArg(Spec.Op) && Spec.Acc != Spec.Elem)
    return makeError("--type: argmax/argmin carry the element itself: no "
                     "accumulator type");
  bool IntOnly = Spec.Op == Combiner::UMin || Spec.Op == Combiner::UMax ||
                 Spec.Op == Combiner::And || Spec.Op == Combiner::Or ||
                 Spec.Op == Combiner::Xor;
  if (IntOnly && FA)
    return makeError(Twine("--op: ") + getName(Spec.Op) +
                     " is defined on integers only");
  if ((Spec.Op == Combiner::Minimum || Spec.Op == Combiner::Maximum) && !FA)
    return makeError(
        Twine("--op: ") + getName(Spec.Op) +
        " is the NaN-propagating float rule; use min/max on integers");
  if (isArg(Spec.Op) && !FE && (Spec.ArgPolicy & subgroup::PolicyMask))
    return makeError("--op: nan-wins and zeros-equal apply to floating-point "
                     "elements only");
  return Error::success();
}

} // namespace lc
} // namespace crosslane
