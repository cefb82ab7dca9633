//===- RecognizeArgProof.cpp - Proving a chain's stages -------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-recognize-arg's proof (RecognizeArgInternal.h): a stage's
/// combine evaluated on every representative (self, partner) pair and
/// compared with every candidate semantics (cached per module); a chain's
/// stages proven in turn, with valid-prefix and other gates; the candidate
/// picked; and the integer bounds of the inputs that the proof may use.
///
//===----------------------------------------------------------------------===//

#include "RecognizeArgInternal.h"

#include "CombineProgram.h"
#include "LaneMap.h"
#include "crosslane/Support/Debug.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace crosslane::argrec;

#define DEBUG_TYPE "crosslane-recognize-arg"

CROSSLANE_STATISTIC(NumStageProofsReused,
                    "Number of stage proofs reused from an identical combine");
CROSSLANE_STATISTIC(NumStageProofs, "Number of stage proofs computed");
static cl::opt<unsigned> ProofLeadColumns(
    "crosslane-proof-lead-columns", cl::Hidden, cl::init(2),
    cl::desc("Stage proofs: after the first block of pairs, evaluate only "
             "this many readings of each output (0: all; a proof whose "
             "readings all fail later starts again with all)"));

static cl::opt<unsigned> ProofBlockRows(
    "crosslane-proof-block-rows", cl::Hidden, cl::init(256),
    cl::desc("Stage proofs: representative pairs evaluated together"));

CROSSLANE_STATISTIC(NumProofRestarts,
                    "Number of stage proofs evaluated again with every "
                    "map of every output");
CROSSLANE_STATISTIC(NumProofRows,
                    "Number of (self, partner) state pairs the stage proofs "
                    "evaluated");

namespace crosslane {
namespace recognize {

//===----------------------------------------------------------------------===//
// One stage's proof
//===----------------------------------------------------------------------===//

/// A way to read an output as the lane state: a word, or a (lo, hi) pair.
struct OutputMap {
  int Lo, Hi; ///< Hi: -1 for a 32-bit output, -2 for a zero-extended word
};

/// Per output, the words it may be: any word for 32 bits, an f16 word for
/// 16 bits (the half value itself), an i64 component's (lo, hi) words, an
/// i32 zero-extended, or two 32-bit components packed, for 64 bits.
static SmallVector<SmallVector<OutputMap, 4>, 8>
outputMaps(const StageShape &Sh) {
  SmallVector<SmallVector<OutputMap, 4>, 8> Maps(Sh.OutBits.size());
  for (auto [OI, B] : enumerate(Sh.OutBits)) {
    if (B == 32) {
      for (unsigned W = 0; W < Sh.WordOfSlot.size(); ++W)
        Maps[OI].push_back({int(W), -1});
      continue;
    }
    if (B == 8 || B == 16) {
      // The f16 value, or an 8- or 16-bit integer the word extends (the
      // word's low bits).
      for (const Component &C : Sh.Comps)
        if ((B == 16 && C.Kind == SlotKind::Float16) ||
            (C.narrowName() && C.Least >= intRange(B, true).first &&
             C.Most <= intRange(B, false).second))
          Maps[OI].push_back({int(Sh.WordOfSlot[C.Lo]), -1});
      continue;
    }
    for (const Component &C : Sh.Comps)
      if (C.is64())
        Maps[OI].push_back(
            {int(Sh.WordOfSlot[C.Lo]), int(Sh.WordOfSlot[C.Hi])});
    // An i32 index the code widens to i64 (`long long i = threadIdx.x`).
    for (const Component &C : Sh.Comps)
      if (C.Kind == SlotKind::Int32)
        Maps[OI].push_back({int(Sh.WordOfSlot[C.Lo]), -2});
    // Two 32-bit components packed into one i64: clang selects a {float,
    // int} struct as `(index << 32) | value bits`, and stores it so.
    auto Is32 = [](const Component &C) {
      return C.Kind == SlotKind::Int32 || C.Kind == SlotKind::Float32;
    };
    for (const Component &L : Sh.Comps)
      for (const Component &H : Sh.Comps)
        if (&L != &H && Is32(L) && Is32(H))
          Maps[OI].push_back(
              {int(Sh.WordOfSlot[L.Lo]), int(Sh.WordOfSlot[H.Lo])});
  }
  return Maps;
}

/// True if some output of the stage is one of the lanes' states.
static bool hasResult(const StageOutcome &R) {
  return any_of(R.Chosen, [](int C) { return C >= 0; });
}

static StageOutcome refusal(StringRef Reason, const Twine &Why) {
  StageOutcome R;
  R.Reason = Reason;
  R.Why = Why.str();
  return R;
}

/// True when some float component of the pair is -0 in one state and +0 in
/// the other.
static bool mixesZeros(const Component &C, uint64_t S, uint64_t Pt) {
  return C.isZero(S) && C.isZero(Pt) && S != Pt;
}
static bool mixesZeros(ArrayRef<Component> Comps, ArrayRef<uint64_t> S,
                       ArrayRef<uint64_t> Pt) {
  for (auto [K, C] : enumerate(Comps))
    if (mixesZeros(C, S[K], Pt[K]))
      return true;
  return false;
}

/// True if \p V is computed from constants and values \p IsLeaf accepts
/// through at most 7 levels of instructions \p Through accepts.
bool computedFrom(Value *V, function_ref<bool(Value *)> IsLeaf,
                  function_ref<bool(Instruction *)> Through, unsigned Depth) {
  if (isa<Constant>(V) || IsLeaf(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 6 || !Through(I))
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return computedFrom(Op, IsLeaf, Through, Depth + 1);
  });
}

/// Every (self, partner) pair of representative states, enumerated without
/// being stored (a (f32, i64) stage has 44,100 of them). Row R's digits are
/// a mixed-radix number, digit 0 varying fastest: digit K < N picks self's
/// component K, digit N + K the partner's.
class RepPairs {
public:
  RepPairs(SmallVector<SmallVector<uint64_t, 32>, 2> Reps)
      : Reps(std::move(Reps)) {
    NumRows = 1;
    for (const auto &R : this->Reps)
      NumRows *= R.size() * R.size();
  }
  size_t size() const { return NumRows; }
  unsigned numComps() const { return Reps.size(); }
  ArrayRef<uint64_t> reps(unsigned C) const { return Reps[C]; }

  /// A position in the rows: its digits, and the row's states.
  struct Cursor {
    SmallVector<unsigned, 4> Digit;
    SmallVector<uint64_t, 4> Self, Partner;
  };
  /// A cursor at row \p Row.
  Cursor at(size_t Row) const {
    unsigned N = numComps();
    Cursor C;
    C.Digit.resize(2 * N);
    C.Self.resize(N);
    C.Partner.resize(N);
    for (unsigned K = 0; K < 2 * N; ++K) {
      size_t Radix = Reps[K % N].size();
      C.Digit[K] = Row % Radix;
      Row /= Radix;
    }
    for (unsigned K = 0; K < N; ++K) {
      C.Self[K] = Reps[K][C.Digit[K]];
      C.Partner[K] = Reps[K][C.Digit[N + K]];
    }
    return C;
  }
  /// Moves \p C to the next row.
  void next(Cursor &C) const {
    // Digit 0 wraps once in its number of representatives.
    if (++C.Digit[0] < Reps[0].size()) {
      C.Self[0] = Reps[0][C.Digit[0]];
      return;
    }
    C.Digit[0] = 0;
    C.Self[0] = Reps[0][0];
    unsigned N = numComps();
    for (unsigned K = 1; K < 2 * N; ++K) {
      const auto &R = Reps[K % N];
      unsigned D = ++C.Digit[K] < R.size() ? C.Digit[K] : 0;
      C.Digit[K] = D;
      (K < N ? C.Self[K] : C.Partner[K - N]) = R[D];
      if (D)
        break;
    }
  }

private:
  SmallVector<SmallVector<uint64_t, 32>, 2> Reps;
  size_t NumRows;
};

/// Every (self, partner) pair of representative states for \p P's combine
/// (the constants it compares with among them); with \p Empty, only pairs
/// of two "no element" states.
static RepPairs repPairs(const CombineProgram &P, const StageShape &Sh,
                         std::optional<EmptyPair> Empty = {}) {
  SmallVector<SmallVector<uint64_t, 32>, 2> Reps;
  for (auto [CI, C] : enumerate(Sh.Comps)) {
    if (Empty && Empty->first == CI) {
      Reps.push_back({maskTo(Empty->second, C.is64() ? 64 : 32)});
      continue;
    }
    Reps.push_back(representatives(
        C.Kind, P.comparedConstants(C.isFloat(), C.floatBits()),
        P.has(CombineProgram::Op::FAbs) || P.has(CombineProgram::Op::FNeg),
        C.is64() && P.splitsPair(Sh.WordOfSlot[C.Lo], Sh.WordOfSlot[C.Hi]),
        C.Least, C.Most));
  }
  return RepPairs(std::move(Reps));
}

/// The words of \p Rows rows from \p Cur (which it advances), word-major
/// (word W of row R at W * Rows + R), for the self (\p SW) and partner
/// (\p PW) lanes.
static void loadRows(const StageShape &Sh, const RepPairs &Pairs,
                     RepPairs::Cursor &Cur, unsigned Rows,
                     std::vector<uint64_t> &SW, std::vector<uint64_t> &PW) {
  // Per component, its words' first rows (Hi: -1 for 32 bits).
  SmallVector<std::pair<int, int>, 4> At;
  for (const Component &C : Sh.Comps)
    At.push_back({int(Sh.WordOfSlot[C.Lo] * Rows),
                  C.is64() ? int(Sh.WordOfSlot[C.Hi] * Rows) : -1});
  for (unsigned R = 0; R < Rows; ++R, Pairs.next(Cur))
    for (auto [CI, W] : enumerate(At)) {
      uint64_t S = Cur.Self[CI], P = Cur.Partner[CI];
      SW[W.first + R] = maskTo(S, 32);
      PW[W.first + R] = maskTo(P, 32);
      if (W.second >= 0) {
        SW[W.second + R] = S >> 32;
        PW[W.second + R] = P >> 32;
      }
    }
}

/// True when \p P gives each output the lane's own words it is read as
/// (\p Chosen, the maps the stage's proof picked) on every representative
/// pair (with \p Empty, every pair of two "no element" states): the stage
/// keeps the lane's state (a gated stage's program with its gate closed).
static bool keepsOwnState(const CombineProgram &P, const StageShape &Sh,
                          ArrayRef<int> Chosen,
                          std::optional<EmptyPair> Empty = {}) {
  auto Maps = outputMaps(Sh);
  RepPairs Pairs = repPairs(P, Sh, Empty);
  unsigned NAll = Pairs.size();
  unsigned NW = Sh.WordOfSlot.size();
  RepPairs::Cursor Cur = Pairs.at(0);
  const unsigned Block = std::max(1u, unsigned(ProofBlockRows));
  std::vector<uint64_t> SW(NW * Block), PW(NW * Block), Val(P.size() * Block);
  std::vector<int32_t> FailAt(P.size() * Block);
  for (unsigned First = 0; First < NAll; First += Block) {
    unsigned Rows = std::min(Block, NAll - First);
    loadRows(Sh, Pairs, Cur, Rows, SW, PW);
    P.run(ArrayRef(SW).take_front(NW * Rows),
          ArrayRef(PW).take_front(NW * Rows), Rows, Val, FailAt);
    for (auto [OI, MI] : enumerate(Chosen)) {
      if (MI < 0)
        continue;
      const OutputMap &M = Maps[OI][MI];
      unsigned Node = Sh.OutNodes[OI];
      for (unsigned R = 0; R < Rows; ++R) {
        uint64_t Own = SW[M.Lo * Rows + R];
        if (M.Hi >= 0)
          Own |= SW[M.Hi * Rows + R] << 32;
        if (FailAt[Node * Rows + R] >= 0 ||
            maskTo(Val[Node * Rows + R], Sh.OutBits[OI]) != Own)
          return false;
      }
    }
  }
  return true;
}

/// True when \p A and \p B expect the same side of every (self, partner)
/// pair without NaN (unless \p NaNMatters) and without -0 against +0
/// (unless \p ZerosMatter): they differ at most in the NaN or zero rules of
/// float values that such pairs do not reach.
static bool sameSides(const Candidate &A, const Candidate &B,
                      ArrayRef<Component> Comps, bool NaNMatters,
                      bool ZerosMatter) {
  if (A.IsArg != B.IsArg || A.Max != B.Max || A.ValSlot != B.ValSlot ||
      A.IdxSlot != B.IdxSlot || A.Sentinel != B.Sentinel ||
      A.UnsignedIdx != B.UnsignedIdx || A.LargestIdx != B.LargestIdx ||
      A.UnsignedVal != B.UnsignedVal ||
      (NaNMatters && A.NaNWins != B.NaNWins) ||
      (ZerosMatter && A.ZerosEqual != B.ZerosEqual))
    return false;
  // Integer min/max order by their operation; float ones by Max (and the
  // NaN rule, compared above where it matters) alone.
  return A.IsArg || Comps[0].isFloat() || A.Op == B.Op;
}

/// \p Cands partitioned by sameSides(..., \p NaNMatters, \p ZerosMatter):
/// the members of each class.
static SmallVector<SmallVector<unsigned, 8>, 16>
sideClasses(ArrayRef<Candidate> Cands, ArrayRef<Component> Comps,
            bool NaNMatters, bool ZerosMatter) {
  SmallVector<SmallVector<unsigned, 8>, 16> Classes;
  for (auto [CI, C] : enumerate(Cands)) {
    auto Same = [&](ArrayRef<unsigned> Ms) {
      return sameSides(Cands[Ms.front()], C, Comps, NaNMatters, ZerosMatter);
    };
    if (auto It = find_if(Classes, Same); It != Classes.end())
      It->push_back(CI);
    else
      Classes.push_back({unsigned(CI)});
  }
  return Classes;
}

/// What countMismatches looks up per representative rather than computes
/// per row: each representative's flags (NaN, zero, a "no element" index),
/// and each candidate's compareValue() of every (partner, self) pair of
/// value representatives.
struct RepTables {
  enum : uint8_t { IsNaN = 1, IsZero = 2, IsSentinel = 4 };
  SmallVector<SmallVector<uint8_t, 32>, 2> Flags;
  SmallVector<SmallVector<int8_t, 0>, 16> Order;
  SmallVector<unsigned, 16> ValSlot;
  unsigned NComp;

  RepTables(ArrayRef<Component> Comps, ArrayRef<Candidate> Cands,
            const RepPairs &Pairs)
      : NComp(Comps.size()) {
    SmallVector<uint64_t, 2> Sentinels;
    for (const Candidate &C : Cands)
      if (C.Sentinel && !is_contained(Sentinels, *C.Sentinel))
        Sentinels.push_back(*C.Sentinel);
    for (auto [K, C] : enumerate(Comps)) {
      Flags.emplace_back();
      for (uint64_t V : Pairs.reps(K))
        Flags.back().push_back(
            (C.isNaN(V) ? IsNaN : 0) | (C.isZero(V) ? IsZero : 0) |
            (!C.isFloat() && is_contained(Sentinels, V) ? IsSentinel : 0));
    }
    for (const Candidate &C : Cands) {
      unsigned VI = C.IsArg ? C.ValSlot : 0;
      ArrayRef<uint64_t> Reps = Pairs.reps(VI);
      ValSlot.push_back(VI);
      Order.emplace_back();
      for (uint64_t P : Reps)
        for (uint64_t S : Reps)
          Order.back().push_back(compareValue(C, Comps[VI], P, S));
    }
  }
  /// compareValue() of candidate \p CI for the row whose digits are \p D.
  int valueOrder(unsigned CI, const unsigned *D) const {
    unsigned VI = ValSlot[CI];
    return Order[CI][D[NComp + VI] * Flags[VI].size() + D[VI]];
  }
  /// The row's kind from its digits \p D and states \p S, \p Pt.
  void kindOf(const unsigned *D, ArrayRef<uint64_t> S, ArrayRef<uint64_t> Pt,
              bool &HasNaN, bool &MixesZeros, bool &AnySentinel,
              bool SelfNaN[2]) const {
    uint8_t Any = 0;
    MixesZeros = false;
    for (unsigned K = 0; K < NComp; ++K) {
      const uint8_t *F = Flags[K].data();
      uint8_t FS = F[D[K]], FP = F[D[NComp + K]];
      Any |= FS | FP;
      MixesZeros |= (FS & FP & IsZero) && S[K] != Pt[K];
      if (K < 2)
        SelfNaN[K] = FS & IsNaN;
    }
    HasNaN = Any & IsNaN;
    AnySentinel = Any & IsSentinel;
  }
};

/// The candidates of countMismatches in classes that expect the same side
/// of a row, by the row's kind: candidates that differ only in their NaN
/// and zero rules agree on a row without NaN and without -0 against +0;
/// those that differ only in the zero rule, on one without -0 against +0;
/// those that differ only in the NaN rule, on one without NaN. Only the
/// candidates not yet refuted on ordered values are kept (a mismatch there
/// implies the other two counts, and only zero / non-zero counts matter).
class LiveClasses {
public:
  LiveClasses(ArrayRef<Candidate> Cands, ArrayRef<Component> Comps) {
    for (bool NaN : {false, true})
      for (bool Zeros : {false, true})
        Classes[NaN][Zeros] = sideClasses(Cands, Comps, NaN, Zeros);
  }
  /// The classes for a row with NaN (\p NaN) or -0 against +0 (\p Zeros).
  ArrayRef<SmallVector<unsigned, 8>> of(bool NaN, bool Zeros) const {
    return Classes[NaN][Zeros];
  }
  /// Drops candidate \p CI from every class, and classes left empty.
  void refute(unsigned CI) {
    for (auto &ByNaN : Classes)
      for (auto &Kind : ByNaN) {
        for (auto &Ms : Kind)
          erase(Ms, CI);
        erase_if(Kind, [](const auto &Ms) { return Ms.empty(); });
      }
  }

private:
  SmallVector<SmallVector<unsigned, 8>, 16> Classes[2][2];
};

/// A row where no output is either lane's state: allowed only where the
/// pair's float values are -0 and +0 (the outputs may take either zero);
/// counted against every candidate but those with -0 == +0 whose value
/// mixes the zeros. False if the row refutes a selection altogether.
static bool countMixedRow(StageOutcome &R, ArrayRef<Component> Comps,
                          ArrayRef<Candidate> Cands, ArrayRef<uint64_t> S,
                          ArrayRef<uint64_t> Pt, LiveClasses &Live) {
  if (!mixesZeros(Comps, S, Pt))
    return false;
  R.MixedZeros = true;
  for (auto [CI, C] : enumerate(Cands))
    if (!C.IsArg || !C.ZerosEqual ||
        !mixesZeros(Comps[C.ValSlot], S[C.ValSlot], Pt[C.ValSlot])) {
      ++R.Mismatch[CI];
      ++R.NumberMismatch[CI];
      if (!R.OrderMismatch[CI]++)
        Live.refute(CI);
    }
  return true;
}

/// A butterfly without an index tie-break keeps self on equal values (a
/// "no element" index is no tie: it loses): records, for the row \p S,
/// \p Pt whose outputs keep self, which index order such a tie had.
static void noteTie(StageOutcome &R, ArrayRef<Component> Comps,
                    ArrayRef<uint64_t> S, ArrayRef<uint64_t> Pt,
                    bool SelfNaN[2]) {
  for (unsigned V = 0; V < 2; ++V)
    if (S[V] == Pt[V] && S[1 - V] != Pt[1 - V] && !Comps[1 - V].isFloat() &&
        !SelfNaN[V]) {
      unsigned IB = Comps[1 - V].is64() ? 64 : 32;
      bool Lower = sext(Pt[1 - V], IB) < sext(S[1 - V], IB);
      R.TieKeepsSelf[V][0][Lower ? 0 : 1] = true;
      bool ULower = maskTo(Pt[1 - V], IB) < maskTo(S[1 - V], IB);
      R.TieKeepsSelf[V][1][ULower ? 0 : 1] = true;
    }
}

/// Pass 3 of evaluateStage: counts in \p R, per candidate of \p Cands, the
/// rows of \p Pairs where the side that all outputs agree on (their chosen
/// columns \p ChosenCols) disagrees with it.
static StageOutcome countMismatches(StageOutcome R, ArrayRef<Component> Comps,
                                    ArrayRef<Candidate> Cands,
                                    const RepPairs &Pairs,
                                    ArrayRef<const uint8_t *> ChosenCols) {
  unsigned NComp = Comps.size();
  R.Mismatch.assign(Cands.size(), 0);
  R.NumberMismatch.assign(Cands.size(), 0);
  R.OrderMismatch.assign(Cands.size(), 0);
  LiveClasses Live(Cands, Comps);
  RepTables Tab(Comps, Cands, Pairs);
  RepPairs::Cursor Cur = Pairs.at(0);
  const unsigned *D = Cur.Digit.data();
  for (unsigned Row = 0, NAll = Pairs.size(); Row < NAll;
       ++Row, Pairs.next(Cur)) {
    ArrayRef<uint64_t> S = Cur.Self, Pt = Cur.Partner;
    uint8_t Sd = 3;
    for (const uint8_t *C : ChosenCols)
      Sd &= C[Row];
    if (!Sd) {
      if (!countMixedRow(R, Comps, Cands, S, Pt, Live))
        return refusal("NotASelection",
                       "the outputs take the value and the index from "
                       "different lanes");
      continue;
    }
    bool HasNaN, MixesZeros, AnySentinel, SelfNaN[2] = {false, false};
    Tab.kindOf(D, S, Pt, HasNaN, MixesZeros, AnySentinel, SelfNaN);
    SmallVector<unsigned, 4> Refuted;
    for (ArrayRef<unsigned> Ms : Live.of(HasNaN, MixesZeros)) {
      Expect E = expected(Cands[Ms[0]], Comps, S, Pt, Tab.valueOrder(Ms[0], D));
      if (E == Expect::Either || E == Expect::Ambiguous ||
          (E == Expect::Self && (Sd & uint8_t(Side::Self))) ||
          (E == Expect::Partner && (Sd & uint8_t(Side::Partner))))
        continue;
      for (unsigned CI : Ms) {
        ++R.Mismatch[CI];
        R.NumberMismatch[CI] += !HasNaN;
        if (!HasNaN && Tab.valueOrder(CI, D) != 0 && !R.OrderMismatch[CI]++)
          Refuted.push_back(CI);
      }
    }
    // Refuting changes the class lists: after the walk.
    for (unsigned CI : Refuted)
      Live.refute(CI);
    if (NComp == 2 && Sd == uint8_t(Side::Self) && !AnySentinel)
      noteTie(R, Comps, S, Pt, SelfNaN);
  }
  return R;
}

/// Pass 1 of evaluateStage: what it keeps of \p P's outputs on every
/// representative pair.
struct StageSides {
  /// Sides[column][row]: which of the pair's states output column (an
  /// output read through one of its maps) equals; columns are per output
  /// (Col[output] the first), each row's 0 when the output failed.
  SmallVector<uint8_t, 0> Sides;
  SmallVector<bool, 16> Viable; ///< the column equals a side on every row
  SmallVector<unsigned, 9> Col;
  int32_t LastWhyMsg = -1; ///< why a last-stage value is not a result
};

/// Evaluates \p P on every pair of \p Pairs in blocks, filling \p S (whose
/// Col is set). Written for every viable column on the first block; after
/// it, with \p Lazy, only for each output's first viable columns (two, or
/// -crosslane-proof-lead-columns; pass 2 picks the first; if all fail a
/// later row, \p LeadFailed is set and the caller runs the pass again
/// without \p Lazy). A refusal if a stage's
/// output fails.
static std::optional<StageOutcome>
sidePass(const CombineProgram &P, const StageShape &Sh, const RepPairs &Pairs,
         ArrayRef<SmallVector<OutputMap, 4>> Maps, bool Lazy, StageSides &S,
         bool &LeadFailed) {
  unsigned NOut = Maps.size(), NAll = Pairs.size(), NW = Sh.WordOfSlot.size();
  S.Sides.resize_for_overwrite(size_t(NAll) * S.Col[NOut]);
  S.Viable.assign(S.Col[NOut], true);
  S.LastWhyMsg = -1;
  const unsigned Block = std::max(1u, unsigned(ProofBlockRows));
  std::vector<uint64_t> SW(NW * Block), PW(NW * Block);
  std::vector<uint64_t> Val(P.size() * Block);
  std::vector<int32_t> FailAt(P.size() * Block);
  bool Unmapped =
      !Sh.Last && any_of(Maps, [](const auto &M) { return M.empty(); });
  SmallVector<bool, 16> Complete(S.Col[NOut], true); // sides on every row
  RepPairs::Cursor Cur = Pairs.at(0);
  for (unsigned First = 0; First < NAll; First += Block) {
    unsigned Rows = std::min(Block, NAll - First);
    loadRows(Sh, Pairs, Cur, Rows, SW, PW);
    bool OutputsFail =
        P.run(ArrayRef(SW).take_front(NW * Rows),
              ArrayRef(PW).take_front(NW * Rows), Rows, Val, FailAt);
    // Failures, in row order: a stage's output must not fail; a last
    // stage's failing value is just not a result (the first one's message
    // is kept). Without failing rows, only an output no map reads refuses.
    bool Scan = (OutputsFail && (!Sh.Last || S.LastWhyMsg < 0)) || Unmapped;
    for (unsigned R = 0; R < Rows && Scan; ++R)
      for (unsigned OI = 0; OI < NOut; ++OI) {
        int32_t Fail = FailAt[Sh.OutNodes[OI] * Rows + R];
        if (!Maps[OI].empty() && Fail < 0)
          continue;
        if (!Sh.Last) {
          StageOutcome Refused = refusal(
              "NotAStage",
              Fail >= 0 ? "" : "a result is not made of the lane's words");
          Refused.WhyMsg = Fail;
          return Refused;
        }
        if (Fail >= 0 && S.LastWhyMsg < 0)
          S.LastWhyMsg = Fail;
      }
    for (unsigned OI = 0; OI < NOut; ++OI) {
      const uint64_t *V = Val.data() + Sh.OutNodes[OI] * Rows;
      const int32_t *F = FailAt.data() + Sh.OutNodes[OI] * Rows;
      uint64_t Mask = Sh.OutBits[OI] >= 64
                          ? ~uint64_t(0)
                          : (uint64_t(1) << Sh.OutBits[OI]) - 1;
      unsigned Computed = 0;
      for (auto [MI, M] : enumerate(Maps[OI])) {
        // A column that failed a row is never chosen: its sides are not
        // read again; nor are a later one's while two earlier ones hold.
        unsigned C = S.Col[OI] + MI;
        if (!S.Viable[C] || !Complete[C])
          continue;
        if (Lazy && First > 0 && Computed == ProofLeadColumns) {
          Complete[C] = false;
          continue;
        }
        ++Computed;
        uint8_t *Sd = S.Sides.data() + size_t(C) * NAll + First;
        const uint64_t *SLo = SW.data() + M.Lo * Rows,
                       *PLo = PW.data() + M.Lo * Rows;
        const uint64_t *SHi = M.Hi < 0 ? nullptr : SW.data() + M.Hi * Rows;
        const uint64_t *PHi = M.Hi < 0 ? nullptr : PW.data() + M.Hi * Rows;
        bool AllMatch = true;
        for (unsigned R = 0; R < Rows; ++R) {
          uint64_t X = V[R] & Mask;
          // An output narrower than a word is the word's low bits.
          uint64_t SV = (SHi ? SLo[R] | SHi[R] << 32 : SLo[R]) & Mask;
          uint64_t PV = (PHi ? PLo[R] | PHi[R] << 32 : PLo[R]) & Mask;
          uint8_t D = F[R] >= 0
                          ? 0
                          : uint8_t((X == SV ? uint8_t(Side::Self) : 0) |
                                    (X == PV ? uint8_t(Side::Partner) : 0));
          Sd[R] = D;
          AllMatch &= D != 0;
        }
        if (!AllMatch)
          S.Viable[C] = false;
      }
      // Pass 2 picks the first viable column: it must have every row.
      for (unsigned C = S.Col[OI]; C < S.Col[OI + 1]; ++C)
        if (S.Viable[C]) {
          if (!Complete[C]) {
            LeadFailed = true;
            return std::nullopt;
          }
          break;
        }
    }
  }
  return std::nullopt;
}

/// Evaluates \p P on every (self, partner) representative pair, finds which
/// of the two lanes each output copies, and counts, per candidate semantics,
/// the pairs where the stage disagrees with it.
static StageOutcome evaluateStage(const CombineProgram &P, const StageShape &Sh,
                                  ArrayRef<Candidate> Cands) {
  ArrayRef<Component> Comps = Sh.Comps;
  auto Maps = outputMaps(Sh);
  unsigned NOut = Maps.size();
  StageSides Pass1;
  Pass1.Col.assign(NOut + 1, 0);
  for (unsigned OI = 0; OI < NOut; ++OI)
    Pass1.Col[OI + 1] = Pass1.Col[OI] + Maps[OI].size();
  RepPairs Pairs = repPairs(P, Sh);
  unsigned NAll = Pairs.size();
  ++NumStageProofs;
  NumProofRows += NAll;
  bool LeadFailed = false;
  std::optional<StageOutcome> Failed = sidePass(
      P, Sh, Pairs, Maps, /*Lazy=*/ProofLeadColumns > 0, Pass1, LeadFailed);
  if (LeadFailed) {
    ++NumProofRestarts;
    Failed = sidePass(P, Sh, Pairs, Maps, /*Lazy=*/false, Pass1, LeadFailed);
  }
  if (Failed)
    return *Failed;
  ArrayRef<unsigned> Col = Pass1.Col;
  ArrayRef<bool> Viable = Pass1.Viable;
  ArrayRef<uint8_t> Sides = Pass1.Sides;
  int32_t LastWhyMsg = Pass1.LastWhyMsg;
  auto SideOf = [&](unsigned Row, unsigned OI, int MI) {
    return Sides[size_t(Col[OI] + MI) * NAll + Row];
  };

  // Pass 2: pick one mapping per output.
  StageOutcome R;
  R.OutputWhyMsg = LastWhyMsg;
  R.Chosen.assign(NOut, -1);
  for (unsigned OI = 0; OI < NOut; ++OI) {
    for (unsigned MI = 0; MI < Maps[OI].size(); ++MI)
      if (Viable[Col[OI] + MI]) {
        R.Chosen[OI] = MI;
        break;
      }
    // In the last stage, a value that is always the partner's (or always
    // the lane's own) word is a view of an input, not a result.
    if (Sh.Last && R.Chosen[OI] >= 0) {
      uint8_t All = 3;
      for (unsigned Row = 0; Row < NAll; ++Row)
        All &= SideOf(Row, OI, R.Chosen[OI]);
      if (All)
        R.Chosen[OI] = -1;
    }
    if (R.Chosen[OI] < 0 && !Sh.Last)
      return refusal("NotASelection",
                     "the stage's result is not one of the two lanes' states");
  }

  // Pass 3: the side all outputs agree on, against each candidate.
  SmallVector<const uint8_t *, 8> ChosenCols;
  for (unsigned OI = 0; OI < NOut; ++OI)
    if (R.Chosen[OI] >= 0)
      ChosenCols.push_back(&Sides[size_t(Col[OI] + R.Chosen[OI]) * NAll]);
  return countMismatches(std::move(R), Comps, Cands, Pairs, ChosenCols);
}

} // namespace recognize

namespace argrec {
const recognize::StageOutcome &
StageCache::get(const CombineProgram &P, const recognize::StageShape &Sh,
                ArrayRef<recognize::Candidate> Cands) {
  // The program's key, then what else the outcome depends on: the shape
  // and the candidate list (the outcome is indexed by it), as numbers.
  SmallVector<uint64_t, 32> Rest;
  Rest.reserve(5 + Sh.WordOfSlot.size() + 5 * Sh.Comps.size() +
               Sh.OutBits.size() + 3 * Cands.size());
  Rest.append({Sh.Last, Sh.WordOfSlot.size()});
  append_range(Rest, Sh.WordOfSlot);
  Rest.push_back(Sh.Comps.size());
  for (const recognize::Component &C : Sh.Comps)
    Rest.append(
        {uint64_t(C.Kind), C.Lo, C.Hi, uint64_t(C.Least), uint64_t(C.Most)});
  Rest.push_back(Sh.OutBits.size());
  append_range(Rest, Sh.OutBits);
  Rest.push_back(Cands.size());
  for (const recognize::Candidate &C : Cands)
    Rest.append({C.Sentinel.has_value(), C.Sentinel.value_or(0),
                 uint64_t(C.UnsignedIdx) | uint64_t(C.LargestIdx) << 1 |
                     uint64_t(C.UnsignedVal) << 2});
  std::string Key = P.key();
  Key.reserve(Key.size() + Rest.size() * sizeof(uint64_t));
  Key.append(reinterpret_cast<const char *>(Rest.data()),
             Rest.size() * sizeof(uint64_t));
  if (auto It = Map.find(Key); It != Map.end()) {
    ++NumStageProofsReused;
    return It->second;
  }
  if (Map.size() >= MaxEntries)
    Map.clear();
  return Map.try_emplace(Key, recognize::evaluateStage(P, Sh, Cands))
      .first->second;
}
} // namespace argrec

namespace recognize {

//===----------------------------------------------------------------------===//
// A chain's proof
//===----------------------------------------------------------------------===//

/// Adds \p Outs to \p Pr as outputs, and their nodes and widths to \p Sh.
static void addOutputs(CombineProgram &Pr, StageShape &Sh,
                       ArrayRef<Instruction *> Outs) {
  for (Instruction *O : Outs) {
    Sh.OutNodes.push_back(Pr.addOutput(O));
    Sh.OutBits.push_back(O->getType()->getPrimitiveSizeInBits());
  }
}

/// The last stage \p SI's results: values of its combine code (\p Prog)
/// of 8 to 64 bits.
/// An intermediate select (or min/max: clang's `smin(ib, ia)` for a
/// tie) that only feeds further selects of the combine, or phis
/// merging only the combine's values (a branch's arm), may take the
/// other lane's state where the final one keeps the lane's own
/// (`a < b ? a : (c ? b : a)`): not a result. A phi may also merge it
/// with the lane's own state (the select runs only on some paths).
SmallVector<Instruction *, 8>
Recognizer::lastStageOutputs(unsigned SI, CombineProgram &Prog) {
  const Stage &S = Stages[SI];
  SmallVector<Instruction *, 8> Outs;
  auto InStage = [&](Value *V) {
    auto *VI = dyn_cast<Instruction>(V);
    return (VI && (Closures[SI].count(VI) || is_contained(S.Calls, VI))) ||
           Prog.isOwnState(V);
  };
  // A select whose condition reads something outside the stage (`b ?
  // min : -1`, b from an earlier ballot) is a use of the result, not
  // part of the combine.
  auto IsPure = [](Instruction *I) {
    return !isa<PHINode>(I) && !I->mayReadOrWriteMemory() &&
           !I->mayHaveSideEffects();
  };
  auto Merges = [&](Instruction *UI, Instruction *I) {
    if (auto *S = dyn_cast<SelectInst>(UI))
      return S->getCondition() != I &&
             computedFrom(S->getCondition(), InStage, IsPure);
    auto *Phi = dyn_cast<PHINode>(UI);
    return Phi && all_of(Phi->incoming_values(), InStage);
  };
  auto Inner = [&](Instruction *I) {
    return isa<SelectInst, MinMaxIntrinsic>(I) && !I->use_empty() &&
           all_of(I->users(), [&](User *U) {
             auto *UI = cast<Instruction>(U);
             return InStage(UI) && Merges(UI, I);
           });
  };
  for (Instruction *I : Closures[SI]) {
    unsigned B = I->getType()->getPrimitiveSizeInBits();
    if ((B == 8 || B == 16 || B == 32 || B == 64) &&
        !I->getType()->isVectorTy() && !Inner(I))
      Outs.push_back(I);
  }
  return Outs;
}

/// The conditions stage \p SI of \p Chain may be proven under (proveStages).
/// A combine that reads a condition on lanes alone: a stage gated by a
/// valid prefix (`if (lane + offset < valid_items)`). Proven with the
/// gate open; closed, the stage must keep the lane's state. (A last
/// stage proves without it, its phis just not being results.)
/// Any other condition computed before the chain that the stage cannot
/// be proven (or, the last, give a result) without (RAFT's `if
/// (active)`): proven open; the guard checks that it is open in every
/// lane, so the closed side never runs on the fast path.
/// When the stage proves (\p Prog, \p Shape, \p R) under one, sets \p Gated and
/// records the gate in \p P; false (with a remark) when that is refused.
bool Recognizer::proveGated(ArrayRef<unsigned> Chain, unsigned SI,
                            const WordKinds &Kinds,
                            ArrayRef<Instruction *> Outs,
                            ArrayRef<Candidate> Cands, const ChainLanes &CL,
                            std::unique_ptr<CombineProgram> &Prog,
                            StageShape &Shape, StageOutcome &R, bool &Gated,
                            ChainProof &P) {
  const Stage &S = Stages[SI];
  Value *Cond = Prog->foreignInput();
  std::optional<StageGate> Gate;
  bool OpenOn = true;
  bool MayGate = (!R.Reason.empty() || Shape.Last) && Cond &&
                 Cond->getType()->isIntegerTy(1);
  bool LaneGate =
      MayGate && (S.Offset == 0 || (Gate = gateOf(S, Cond, CL.Cluster)));
  bool Unproven = !R.Reason.empty() || !hasResult(R);
  bool Assumed = MayGate && !LaneGate && Unproven &&
                 DT.dominates(Cond, Stages[Chain.front()].Calls.front());
  if (LaneGate || Assumed) {
    for (bool On : {true, false}) {
      StageShape OpenSh{Shape.Comps, Shape.WordOfSlot, Shape.Last, {}, {}},
          ClosedSh = OpenSh;
      auto Open = std::make_unique<CombineProgram>(S.Calls, S.BB, Closures[SI],
                                                   Kinds, DT, PDT, Cond, On);
      addOutputs(*Open, OpenSh, Outs);
      StageOutcome RO = Cache.get(*Open, OpenSh, Cands);
      // The open side must combine: a last stage whose outputs all keep
      // the lane's state has no result (it is the closed side).
      if (!RO.Reason.empty() || !hasResult(RO) ||
          keepsOwnState(*Open, OpenSh, RO.Chosen))
        continue;
      if (!Assumed) {
        CombineProgram Closed(S.Calls, S.BB, Closures[SI], Kinds, DT, PDT, Cond,
                              !On);
        addOutputs(Closed, ClosedSh, Outs);
        if (!keepsOwnState(Closed, ClosedSh, RO.Chosen))
          continue;
      }
      Prog = std::move(Open);
      Shape = std::move(OpenSh);
      R = std::move(RO);
      Gated = true;
      OpenOn = On;
      if (Gate && !On)
        Gate->Pred = CmpInst::getInversePredicate(Gate->Pred);
      break;
    }
    if (Gated && Gate) {
      std::string Str;
      raw_string_ostream OS(Str);
      Cond->printAsOperand(OS, false);
      if (!Gate->isPrefix(CL.Cluster)) {
        refuse(S, "NotAStage",
               "the stage combines only where " + Str +
                   " lets it, which does not keep the partner's lane "
                   "within a prefix of the " +
                   std::to_string(CL.Cluster) + "-lane segment");
        return false;
      }
      if (P.Gate && !P.Gate->sameLanes(*Gate)) {
        refuse(S, "NotAStage",
               "the stages combine within different prefixes of lanes (" + Str +
                   ")");
        return false;
      }
      if (!P.Gate)
        P.Gate = std::move(Gate);
      ++P.GatedStages;
    }
    if (Gated && Assumed) {
      // Open on one value in some stages and on the other in others:
      // the guard could never hold.
      if (is_contained(P.OpenGates, std::pair(Cond, !OpenOn))) {
        std::string Str;
        raw_string_ostream OS(Str);
        Cond->printAsOperand(OS, false);
        refuse(S, "NotAStage",
               "the stages combine under opposite values of " + Str);
        return false;
      }
      if (!is_contained(P.OpenGates, std::pair(Cond, OpenOn)))
        P.OpenGates.push_back({Cond, OpenOn});
    }
  }
  return true;
}

/// Which of a stage's words (\p WordOfSlot: each logical slot's word)
/// hold floats, halves or narrow integers, as the stage's program reads
/// them.
static WordKinds wordKinds(ArrayRef<Component> Comps,
                           ArrayRef<unsigned> WordOfSlot) {
  WordKinds Kinds;
  for (const Component &C : Comps)
    if (C.Kind == SlotKind::Float16) {
      Kinds.Half.push_back(WordOfSlot[C.Lo]);
    } else if (C.isFloat()) {
      Kinds.Float.push_back(WordOfSlot[C.Lo]);
      if (C.is64())
        Kinds.Float.push_back(WordOfSlot[C.Hi]);
    } else if (C.narrowName()) {
      Kinds.Narrow.push_back({WordOfSlot[C.Lo], C.Least, C.Most});
    }
  return Kinds;
}

/// Adds a stage's outcome \p R (over \p NCands candidates) to the chain's
/// proof \p P.
static void addOutcome(ChainProof &P, const StageOutcome &R, unsigned NCands) {
  for (unsigned CI = 0; CI < NCands; ++CI) {
    P.Mismatch[CI] += R.Mismatch[CI];
    P.NumberMismatch[CI] += R.NumberMismatch[CI];
    P.OrderMismatch[CI] += R.OrderMismatch[CI];
  }
  P.MixedZeros |= R.MixedZeros;
  for (unsigned V = 0; V < 2; ++V)
    for (unsigned H = 0; H < 2; ++H)
      for (unsigned U = 0; U < 2; ++U)
        P.TieKeepsSelf[V][U][H] |= R.TieKeepsSelf[V][U][H];
}

/// Proves each stage of \p Chain against \p Cands (cached per combine
/// program) and finds the chain's results.
bool Recognizer::proveStages(ArrayRef<unsigned> Chain,
                             ArrayRef<Component> Comps,
                             ArrayRef<Candidate> Cands, const ChainLanes &CL,
                             ChainProof &P) {
  unsigned NWords = Stages[Chain.front()].Calls.size();
  // Slot -> word of each stage; stage 0 is the identity.
  SmallVector<unsigned, 4> WordOfSlot(NWords);
  for (unsigned I = 0; I < NWords; ++I)
    WordOfSlot[I] = I;
  P.Mismatch.assign(Cands.size(), 0);
  P.NumberMismatch.assign(Cands.size(), 0);
  P.OrderMismatch.assign(Cands.size(), 0);
  for (const Candidate &C : Cands)
    if (C.Sentinel &&
        !is_contained(P.EmptyKeepsOwn, EmptyPair(C.IdxSlot, *C.Sentinel)))
      P.EmptyKeepsOwn.push_back({C.IdxSlot, *C.Sentinel});

  for (auto [K, SI] : enumerate(Chain)) {
    const Stage &S = Stages[SI];
    StageShape Shape{Comps, WordOfSlot, K + 1 == Chain.size(), {}, {}};
    WordKinds Kinds = wordKinds(Comps, WordOfSlot);
    auto Prog = std::make_unique<CombineProgram>(S.Calls, S.BB, Closures[SI],
                                                 Kinds, DT, PDT);
    // Outputs: the next stage's words, or the last stage's selections.
    SmallVector<Instruction *, 8> Outs;
    if (!Shape.Last) {
      for (Value *W : Stages[Chain[K + 1]].words())
        Outs.push_back(cast<Instruction>(W));
    } else {
      Outs = lastStageOutputs(SI, *Prog);
    }
    addOutputs(*Prog, Shape, Outs);
    StageOutcome R = Cache.get(*Prog, Shape, Cands);
    bool Gated = false;
    if (!proveGated(Chain, SI, Kinds, Outs, Cands, CL, Prog, Shape, R, Gated,
                    P))
      return false;
    if (!R.Reason.empty()) {
      refuse(S, R.Reason, R.WhyMsg >= 0 ? Prog->message(R.WhyMsg) : R.Why);
      return false;
    }
    erase_if(P.EmptyKeepsOwn, [&](const EmptyPair &E) {
      return Gated || !keepsOwnState(*Prog, Shape, R.Chosen, E);
    });
    addOutcome(P, R, Cands.size());
    if (Shape.Last)
      P.LastWhy =
          R.OutputWhyMsg >= 0 ? Prog->message(R.OutputWhyMsg) : R.OutputWhy;

    auto Maps = outputMaps(Shape);
    if (!Shape.Last) {
      SmallVector<unsigned, 4> Next(NWords);
      for (unsigned Slot = 0; Slot < NWords; ++Slot) {
        unsigned W = WordOfSlot[Slot];
        int Found = -1;
        for (unsigned OI = 0; OI < Outs.size(); ++OI)
          if (Maps[OI][R.Chosen[OI]].Lo == int(W))
            Found = OI;
        if (Found < 0) {
          refuse(S, "NotASelection", "a state word is lost between stages");
          return false;
        }
        Next[Slot] = Found;
      }
      WordOfSlot = Next;
      continue;
    }
    // Translate stage-local words to logical slots.
    auto SlotOf = [&](int W) -> int {
      if (W < 0)
        return -1;
      for (unsigned Slot = 0; Slot < NWords; ++Slot)
        if (int(WordOfSlot[Slot]) == W)
          return Slot;
      return -1;
    };
    for (auto [OI, O] : enumerate(Outs))
      if (R.Chosen[OI] >= 0)
        P.Outputs.push_back({O, SlotOf(Maps[OI][R.Chosen[OI]].Lo),
                             Maps[OI][R.Chosen[OI]].Hi == -2
                                 ? -2
                                 : SlotOf(Maps[OI][R.Chosen[OI]].Hi)});
  }
  unsigned Moving =
      count_if(Chain, [&](unsigned SI) { return Stages[SI].Offset != 0; });
  if (P.Gate && P.GatedStages != Moving) {
    refuse(Stages[Chain.front()], "NotAStage",
           "some stages combine only within a prefix of lanes, others with "
           "every lane");
    return false;
  }
  return true;
}

/// Picks the semantics of the chain: the first candidate proven on every
/// input (\p Proven), else one a run-time guard makes exact.
bool Recognizer::pickCandidate(ArrayRef<unsigned> Chain, unsigned NComps,
                               ArrayRef<Candidate> Cands, const ChainProof &P,
                               Candidate &C, bool &Proven) {
  // The first candidate proven on every input; else the first proven on
  // NaN-free inputs; else (a combine that breaks ties by lane order) the
  // first proven on NaN-free inputs whose values differ. A run-time guard
  // makes the last two exact.
  int Pick = find(P.Mismatch, 0u) - P.Mismatch.begin();
  Proven = Pick < int(Cands.size());
  // Kept its own index whichever is smaller, in the signed and in the
  // unsigned order of indices.
  auto Both = [&](unsigned V, unsigned U) {
    return P.TieKeepsSelf[V][U][0] && P.TieKeepsSelf[V][U][1];
  };
  bool TieByLane = (Both(0, 0) && Both(0, 1)) || (Both(1, 0) && Both(1, 1));
  if (!Proven && !TieByLane)
    Pick = find(P.NumberMismatch, 0u) - P.NumberMismatch.begin();
  bool TiesGuarded = false;
  if (Pick >= int(Cands.size()) || TieByLane) {
    Pick = find(P.OrderMismatch, 0u) - P.OrderMismatch.begin();
    TiesGuarded = NComps == 2 && Pick < int(Cands.size());
  }
  if (!TiesGuarded && (Pick >= int(Cands.size()) || TieByLane)) {
    refuse(Stages[Chain.front()], "NotATotalOrder",
           "the combine is not 'keep the better of two' for a total order "
           "(NaN aside, ties aside)");
    return false;
  }
  C = Cands[Pick];
  C.TiesByLane = TiesGuarded;
  return true;
}

/// Index values stage \p SI's combine tests for (in)equality, such as
/// `if (b.index == 0) return false;`: candidate "no element" markers.
SmallVector<uint64_t, 2> Recognizer::sentinelsOf(unsigned SI,
                                                 ArrayRef<Component> Comps) {
  SmallVector<uint64_t, 2> R;
  if (Comps.size() != 2)
    return R;
  auto IndexWidth = [&](unsigned Bits) {
    return any_of(Comps, [&](const Component &C) {
      return !C.isFloat() && (C.is64() ? 64u : 32u) == Bits;
    });
  };
  // An index that is -1 or not negative: -1 is the only value a sign test
  // (`index < 0` = none) can find.
  for (const Component &C : Comps)
    if (!C.isFloat() && C.Least == -1)
      R.push_back(maskTo(~uint64_t(0), C.is64() ? 64 : 32));
  for (Instruction *I : Closures[SI]) {
    auto *Cmp = dyn_cast<ICmpInst>(I);
    auto *C = Cmp ? dyn_cast<ConstantInt>(Cmp->getOperand(1)) : nullptr;
    if (!C || !Cmp->isEquality() || !IndexWidth(C->getBitWidth()))
      continue;
    uint64_t V = C->getZExtValue();
    // A narrow index (`(short)w == -1`) compared in the word's high bits;
    // the word holds it sign-extended (the proof decides).
    if (auto S = argrec::shiftedEquality(Cmp); S && S->Low)
      V = S->Low->sext(C->getBitWidth()).getZExtValue();
    if (!is_contained(R, V) && R.size() < 2)
      R.push_back(V);
  }
  return R;
}

/// Proves the chain's stages and picks the candidate they implement
/// (proveStages, pickCandidate). When that fails and an integer slot has no
/// proven lower bound, tries once more with its inputs taken to be -1 or
/// more (an index scanned with `i += blockDim.x`, which LLVM cannot prove
/// never wraps, tested with `index < 0` for "no element"), returning those
/// slots in \p Assumed for a run-time guard: every state is one of the
/// inputs (each stage is proven a selection), so inputs of -1 or more keep
/// every state there. The refusal reported is the first attempt's.
bool Recognizer::proveWithIndexBound(ArrayRef<unsigned> Chain,
                                     MutableArrayRef<Component> Comps,
                                     bool Unsigned, const ChainLanes &CL,
                                     ChainProof &P, Candidate &C, bool &Proven,
                                     SmallVectorImpl<unsigned> &Assumed) {
  auto Attempt = [&] {
    SmallVector<Candidate, 16> Cands =
        candidatesFor(Comps, sentinelsOf(Chain.front(), Comps), Unsigned);
    P = ChainProof();
    return proveStages(Chain, Comps, Cands, CL, P) &&
           pickCandidate(Chain, Comps.size(), Cands, P, C, Proven);
  };
  SmallVector<unsigned, 1> Open;
  for (auto [CI, Cm] : enumerate(Comps))
    if (!Cm.isFloat() && Cm.Least < -1 && !Cm.narrowName())
      Open.push_back(CI);
  if (Open.empty())
    return Attempt();
  std::optional<Refusal> First, Second;
  Deferred = &First;
  bool Done = Attempt();
  if (!Done) {
    for (unsigned CI : Open)
      Comps[CI].Least = -1;
    Deferred = &Second;
    Done = Attempt();
    if (Done)
      Assumed.assign(Open.begin(), Open.end());
  }
  Deferred = nullptr;
  if (!Done && First)
    refuse(*First->S, First->Reason, First->Why);
  return Done;
}

//===----------------------------------------------------------------------===//
// Input bounds
//===----------------------------------------------------------------------===//

/// A work-item id or block size (below 1024), also as ROCm's calls when
/// device libraries are not linked in.
static bool isBlockQuery(Value *V) {
  auto *CB = dyn_cast<CallBase>(V);
  Function *Fn = CB ? CB->getCalledFunction() : nullptr;
  return isWorkItemId(V) || (Fn && Fn->getName() == "__ockl_get_local_size");
}

/// True if \p V, an integer, is never less than \p Least (0 or -1) as a
/// signed number: a constant, a work-item id or block size, a lane
/// expression whose value in every lane is, a value LLVM
/// knows is non-negative, a sum of non-negative values that does not wrap
/// (`add nsw`), or a select/phi of such values. A phi is assumed to hold the
/// bound while its incoming values are checked, as in isNeverNaN: an
/// induction over a scan loop that starts with `idx = -1` and sets `idx = i`
/// with `i = threadIdx.x; i += blockDim.x`.
bool Recognizer::isAtLeast(Value *V, int64_t Least,
                           SmallPtrSetImpl<const PHINode *> &Assumed,
                           const Instruction *At, unsigned Depth) {
  if (Depth > 12 || !V->getType()->isIntegerTy())
    return false;
  if (auto *CI = dyn_cast<ConstantInt>(V))
    return CI->getSExtValue() >= Least;
  auto Rec = [&](Value *Op) {
    return isAtLeast(Op, Least, Assumed, At, Depth + 1);
  };
  auto NonNeg = [&](Value *Op) {
    return isAtLeast(Op, 0, Assumed, At, Depth + 1);
  };
  if (auto *Phi = dyn_cast<PHINode>(V)) {
    if (!Assumed.insert(Phi).second)
      return true;
    return all_of(Phi->incoming_values(), Rec);
  }
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return Rec(Sel->getTrueValue()) && Rec(Sel->getFalseValue());
  Value *A, *B;
  if (auto *Add = dyn_cast<BinaryOperator>(V);
      Add && Add->getOpcode() == Instruction::Add && Add->hasNoSignedWrap() &&
      Least <= 0)
    return NonNeg(Add->getOperand(0)) && NonNeg(Add->getOperand(1));
  if (match(V, m_SMax(m_Value(A), m_Value(B))))
    return Rec(A) || Rec(B);
  if (match(V, m_SMin(m_Value(A), m_Value(B))))
    return Rec(A) && Rec(B);
  if (match(V, m_SExt(m_Value(A))))
    return Rec(A);
  // Block queries are below 1024: non-negative in 11 bits or more (a
  // `signed char` work-item id wraps past 127).
  if (Least <= 0 &&
      (isBlockQuery(V) || (match(V, m_Trunc(m_Value(A))) && isBlockQuery(A) &&
                           V->getType()->getIntegerBitWidth() >= 11)))
    return true;
  // A lane expression (the lane id, `lane & 63`): its value in every lane.
  unsigned Bits = V->getType()->getIntegerBitWidth();
  if (const LaneVector *L = laneRow(V, 0))
    return all_of(*L, [&](int64_t X) {
      return sext(maskTo(uint64_t(X), Bits), Bits) >= Least;
    });
  SimplifyQuery Q(F.getDataLayout(), &DT, nullptr, At);
  if (Least <= 0 && isKnownNonNegative(V, Q))
    return true;
  return computeConstantRange(V, /*ForSigned=*/true, /*UseInstrInfo=*/true,
                              nullptr, At, &DT)
      .getSignedMin()
      .sge(Least);
}

/// Sets the least value of \p Comps' integer components when the chain's
/// first stage exchanges values proven to be at least 0, or at least -1,
/// and the range of those that hold 8- or 16-bit integers.
/// Only for chains of ds_bpermute stages, where every lane reads a lane's
/// state (or 0, from an inactive lane); a DPP move may read its `old`
/// operand instead.
void Recognizer::boundIntegers(ArrayRef<unsigned> Chain,
                               MutableArrayRef<Component> Comps) {
  if (!all_of(Chain, [&](unsigned SI) {
        return Stages[SI].Calls.front()->getIntrinsicID() ==
               Intrinsic::amdgcn_ds_bpermute;
      }))
    return;
  const Stage &First = Stages[Chain.front()];
  SmallVector<Value *, 4> W = First.words();
  for (Component &C : Comps) {
    if (C.isFloat())
      continue;
    // An i64 exchanged as two words: the bound is the i64's.
    Value *V = W[C.Lo], *X;
    if (C.is64()) {
      if (!match(V, m_Trunc(m_Value(X))))
        continue;
      V = X;
    }
    for (int64_t Least : {0, -1}) {
      SmallPtrSet<const PHINode *, 8> Assumed;
      if (isAtLeast(V, Least, Assumed, First.Calls.front())) {
        C.Least = Least;
        break;
      }
    }
    if (C.Kind == SlotKind::Int32)
      narrowRange(V, First.Calls.front(), C);
  }
}

/// Narrows the i32 component \p C's range to an 8- or 16-bit type's when
/// its first word \p V provably holds one extended (a `zext i8`, a `sext
/// i16`, phis of such values): every stage is a selection of exchanged
/// words, and a ds_bpermute from an inactive lane reads 0, inside every
/// such range.
void Recognizer::narrowRange(Value *V, const Instruction *At, Component &C) {
  const DataLayout &DL = F.getDataLayout();
  unsigned Zeros =
      computeKnownBits(V, DL, nullptr, At, &DT).countMinLeadingZeros();
  unsigned Signs = ComputeNumSignBits(V, DL, nullptr, At, &DT);
  for (unsigned Bits : {8u, 16u})
    for (bool Signed : {false, true})
      if (Signed ? Signs > 32 - Bits : Zeros >= 32 - Bits) {
        auto [Least, Most] = intRange(Bits, Signed);
        C.Least = std::max(C.Least, Least);
        C.Most = Most;
        return;
      }
}

} // namespace recognize
} // namespace crosslane
