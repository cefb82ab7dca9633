//===- RecognizeArgInternal.h - The recogniser's internals ------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the files of crosslane-recognize-arg share (as InstCombine's files
/// share InstCombineInternal.h); not an interface for other code. See
/// RecognizeArgReduce.h and docs/ArgRecognition.md. The files, the driver
/// first, then the phases in the order they run:
///   RecognizeArgReduce.cpp      the pass and its driver: chains of stages,
///                               their plans, remarks;
///   RecognizeArgStages.cpp      stages: collected, split, their combine code
///                               and the components their words carry;
///   RecognizeArgLaneMaps.cpp    lane maps of stages and chains, valid-prefix
///                               gates, the lanes that read the results;
///   RecognizeArgCandidates.cpp  candidate semantics and their order
///                               representatives;
///   RecognizeArgProof.cpp       one stage's proof (cached per module), a
///                               chain's proof, the integer bounds it uses;
///   RecognizeArgGuards.cpp      run-time guards and the region they branch
///                               around;
///   RecognizeArgRewrite.cpp     the Crosslane operation that replaces a chain.
/// Vocabulary:
///   stage    ds.bpermute calls in one block sharing one address operand;
///   word     an i32 data operand of a stage's ds.bpermute (the lane state);
///   partner  the ds.bpermute result for a word (the partner lane's word);
///   slot     a logical component of the lane state: an f32 or i32 word, or
///            an i64 split into (lo, hi) words;
///   closure  the compare/select instructions fed by a stage's partners;
///   side     which of (self, partner) a combine keeps, per input.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_RECOGNIZEARGINTERNAL_H
#define CROSSLANE_LIB_ARGRECOGNITION_RECOGNIZEARGINTERNAL_H

#include "CombineProgram.h"
#include "LadderLoops.h"
#include "LaneMap.h"
#include "crosslane/ArgRecognition/RecognizeArgReduce.h"
#include "crosslane/SubgroupReduce/SubgroupOps.h"
#include "crosslane/Support/ChipInfo.h"
#include "crosslane/Support/Compare.h"
#include "crosslane/Support/RemarkCoalescer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/ValueHandle.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace crosslane {
namespace recognize {

/// What a slot holds; decides its order representatives.
enum class SlotKind { Int32, Float32, Int64Lo, Int64Hi, Float64, Float16 };

/// One exchange between lanes: the cross-lane reads (one per 32-bit word)
/// of one block with one lane map: ds_bpermute with one address, or DPP /
/// ds_swizzle with one set of controls.
struct Stage {
  llvm::BasicBlock *BB = nullptr;
  llvm::SmallVector<llvm::CallInst *, 2> Calls; ///< in program order
  /// The stage this one was split from (splitUnrelatedWords): chains whose
  /// first stages share it run in one guarded region.
  unsigned Origin = 0;
  /// The lane map, evaluated once (Recognizer::classify): the lane each
  /// lane reads (argrec::NoLane: nothing usable), if it is known; lane ^
  /// Offset, or with Down lane + Offset (lane 0's source), or -1 for
  /// neither shape.
  bool Classified = false;
  std::optional<llvm::SmallVector<unsigned, 64>> Sources;
  int Offset = -1; ///< 0 = identity
  /// For an identity ds_bpermute stage: the xor offset its address names
  /// (lane ^ 32 reads the lane itself on GFX10+ wave64), else -1.
  int NamedOffset = -1;
  bool Down = false;
  /// The lane map reads threadIdx.x: it holds where threadIdx.x % wave
  /// size is the lane id, which the rewrite's guard must check.
  bool UsesTid = false;
  /// The thread ids (threadIdx.x, linear ids) the lane map reads.
  argrec::TidLeafSet TidLeaves;
  llvm::SmallVector<llvm::Value *, 2> words() const {
    llvm::SmallVector<llvm::Value *, 2> W;
    for (llvm::CallInst *C : Calls)
      W.push_back(argrec::exchangedWord(C));
    return W;
  }
};

/// The shape of a chain's lane maps (for remarks).
enum class ChainShape { Xor, Down, General };

/// Where a chain leaves its result.
struct ChainLanes {
  ChainShape Shape = ChainShape::Xor;
  unsigned Cluster = 0;
  uint64_t Lanes = 0; ///< the lanes that hold the complete result
  /// The lanes of groups whose result some lane reads (all when unknown).
  uint64_t ReadGroups = ~uint64_t(0);
};

/// An index slot and the index that marks "no element" there.
using EmptyPair = std::pair<unsigned, uint64_t>;

/// A candidate semantics of the whole chain.
struct Candidate {
  bool IsArg = false;
  subgroup::ReduceOp Op = subgroup::ReduceOp::UMin; ///< single-component chains
  bool Max = true;                                  ///< argmax (else argmin)
  bool NaNWins = false;              ///< float values: NaN is the best class
  bool ZerosEqual = false;           ///< float values: -0 == +0
  unsigned ValSlot = 0, IdxSlot = 1; ///< component order
  /// An index value that marks "no element" (BLAS iamax's 0 with 1-based
  /// indices): such a pair loses to every other, two of them tie.
  std::optional<uint64_t> Sentinel;
  /// Ties go to the smallest index as an unsigned number (the code widens
  /// a 32-bit index with zext and compares unsigned).
  bool UnsignedIdx = false;
  /// Ties go to the largest index (`v == best && i > idx`: the last
  /// occurrence); the operation gets the indices complemented.
  bool LargestIdx = false;
  /// Integer values ordered as unsigned numbers (u8/u16/u32 scores).
  bool UnsignedVal = false;
  /// Not a candidate property: set on the pick when only tie-free inputs
  /// are proven (the original breaks ties by lane order).
  bool TiesByLane = false;
  bool operator==(const Candidate &O) const {
    return IsArg == O.IsArg && Op == O.Op && Max == O.Max &&
           NaNWins == O.NaNWins && ZerosEqual == O.ZerosEqual &&
           ValSlot == O.ValSlot && IdxSlot == O.IdxSlot &&
           Sentinel == O.Sentinel && UnsignedIdx == O.UnsignedIdx &&
           LargestIdx == O.LargestIdx && UnsignedVal == O.UnsignedVal;
  }
};

/// A logical component: one slot or an i64 (lo, hi) pair of slots.
struct Component {
  SlotKind Kind;
  unsigned Lo, Hi; ///< slot numbers (Hi == Lo for 32-bit components)
  /// An integer component's least value as a signed number, when the chain's
  /// inputs are proven to hold no less (0, or -1 for a "none" index); every
  /// stage is a selection, so no stage sees less either.
  int64_t Least = std::numeric_limits<int64_t>::min();
  /// An i32 component's greatest value, when its words hold an 8- or 16-bit
  /// integer extended (`unsigned char` values travel zero-extended, `short`
  /// ones sign-extended; Least is then the type's least value or above).
  int64_t Most = std::numeric_limits<int64_t>::max();
  bool is64() const {
    return Kind == SlotKind::Int64Lo || Kind == SlotKind::Float64;
  }
  bool isFloat() const {
    return Kind == SlotKind::Float32 || Kind == SlotKind::Float64 ||
           Kind == SlotKind::Float16;
  }
  /// Bits of the value: 16 for f16 (a word holding its bits zero-extended).
  unsigned floatBits() const {
    return Kind == SlotKind::Float64 ? 64 : Kind == SlotKind::Float16 ? 16 : 32;
  }
  /// A float component's value \p V (its bits) as a double (exact).
  double toDouble(uint64_t V) const {
    if (Kind == SlotKind::Float16)
      return halfToDouble(V);
    return Kind == SlotKind::Float64
               ? llvm::bit_cast<double>(V)
               : double(llvm::bit_cast<float>(uint32_t(V)));
  }
  bool isNaN(uint64_t V) const { return isFloat() && std::isnan(toDouble(V)); }
  bool isZero(uint64_t V) const { return isFloat() && toDouble(V) == 0; }
  const char *typeName() const {
    switch (Kind) {
    case SlotKind::Float32:
      return "f32";
    case SlotKind::Float64:
      return "f64";
    case SlotKind::Float16:
      return "f16";
    case SlotKind::Int32:
      return "i32";
    default:
      return "i64";
    }
  }
  /// The 8- or 16-bit type an i32 component's words extend ("u8", "i16"),
  /// or null.
  const char *narrowName() const {
    if (Kind != SlotKind::Int32 || Most > UINT16_MAX)
      return nullptr;
    if (Least >= 0)
      return Most <= UINT8_MAX ? "u8" : "u16";
    return Most <= INT8_MAX && Least >= INT8_MIN ? "i8" : "i16";
  }
};

enum class Side { Self = 1, Partner = 2, Either = 3 };

/// The index a "no element" pair gets in the operation's order (INT_MAX of
/// \p Ty): the largest, so it loses every tie under the smallest-index rule.
inline llvm::Constant *noElementIndex(llvm::Type *Ty) {
  return llvm::ConstantInt::get(
      Ty, llvm::APInt::getSignedMaxValue(Ty->getIntegerBitWidth()));
}

/// What a candidate keeps of a (self, partner) pair (compareValue).
enum class Expect { Self, Partner, Either, Ambiguous };

/// One output of the last stage: the value and the words it is made of.
struct Output {
  llvm::Instruction *I;
  int Lo, Hi; ///< logical slots; Hi: -1 for 32-bit outputs, -2 for a
              ///< 64-bit output that is the zero-extended Lo
};

/// What a guarded rewrite checks at run time before it uses the operation's
/// result (docs/ArgRecognition.md, "Guarded rewrites").
struct Guard {
  bool NaNFree = false;         ///< no lane's value is NaN
  bool SameBitsAtIndex = false; ///< equal index, equal value bits
  /// Lanes holding the winning value (fcmp, -0 == +0) hold its bits.
  bool SameBitsAtValue = false;
  bool NoTies = false;     ///< no lane holds the winning value at another index
  bool ZerosEqual = false; ///< float values: -0 and +0 are one value
  bool LaneIsTid = false;  ///< threadIdx.x % wave size is the lane id
  /// With LaneIsTid: threadIdx.x % wave size must be the lane id (TidX),
  /// and so must these linear thread ids, also below 1024 (the ids the
  /// proof tried).
  bool TidX = true;
  llvm::SmallVector<llvm::Value *, 2> TidLeaves;
  bool HasIndex = true; ///< an arg reduction (else value only)
  /// Lanes per group that must all be active (0: proven). A ds_bpermute
  /// from an inactive lane reads 0, which the original code then combines;
  /// the operation reduces over the active lanes only.
  unsigned FullGroups = 0;
  /// A "no element" index: the result is an element (a lane group of
  /// empty pairs is decided by lane order).
  std::optional<int64_t> Sentinel;
  /// With Sentinel: every stage keeps a lane's own pair when both lanes
  /// hold no element, so a group without an element gives each lane its
  /// own pair, and only an element at the encoding's index (\c Largest, as
  /// the code's index) can be taken for "no element".
  bool EmptyKeepsOwn = false;
  int64_t Largest = 0;
  /// Lanes past a valid prefix enter the operation as "no element" pairs:
  /// the result is an element (an element equal to the encoding ties).
  bool EmptyLanes = false;
  /// Integer slots proven only for inputs of -1 or more (a sign test as "no
  /// element" on an index LLVM cannot bound): no lane's input is less.
  llvm::SmallVector<unsigned, 1> AtLeastMinusOne;
  bool BoundIsIndex = false; ///< AtLeastMinusOne is the index slot alone
  /// Conditions (and the value that opens them) that must let every lane's
  /// combine run (ChainProof::OpenGates).
  llvm::SmallVector<std::pair<llvm::Value *, bool>, 1> OpenGates;
  /// The lanes of the groups whose result is read: the conditions on
  /// values and groups are checked there only (no lane elsewhere reads what
  /// they protect).
  uint64_t ReadGroups = ~uint64_t(0);
  bool needed() const {
    return NaNFree || SameBitsAtIndex || SameBitsAtValue || NoTies ||
           LaneIsTid || Sentinel || FullGroups || EmptyLanes ||
           !AtLeastMinusOne.empty() || !OpenGates.empty();
  }
  std::string describe() const;
  /// Where the conditions on values and groups are checked.
  std::string where(unsigned W) const {
    if ((ReadGroups & argrec::allLanes(W)) == argrec::allLanes(W))
      return "";
    return "; the values checked in " +
           argrec::describeLanes(ReadGroups, W, W) +
           " only, the groups whose result is read";
  }
};

/// The chain's code between its first ds_bpermute and its results.
struct ChainRegion {
  llvm::Instruction *Begin = nullptr; ///< the first stage's first call
  llvm::Instruction *End = nullptr; ///< the first instruction after the results
  llvm::SmallPtrSet<llvm::BasicBlock *, 8>
      Blocks; ///< blocks with code in the region
  llvm::SmallPtrSet<llvm::Instruction *, 8>
      Hoist; ///< used later; moved above it
  /// Used later and computed from the results (a broadcast of the first
  /// result between the two results): moved below them, in program order.
  llvm::SmallVector<llvm::Instruction *, 4> Sink;
  llvm::SmallPtrSet<llvm::Instruction *, 4> Results;
  /// The chain itself: the region's code that depends on a lane exchange
  /// and feeds a result (it never moves out of the region).
  llvm::SmallPtrSet<llvm::Instruction *, 8> ChainCode;
  bool contains(const llvm::Instruction *I) const {
    const llvm::BasicBlock *BB = I->getParent();
    if (!Blocks.count(BB))
      return false;
    if (BB == Begin->getParent() && I->comesBefore(Begin))
      return false;
    return !(BB == End->getParent() && !I->comesBefore(End));
  }
};

/// A stage that combines only where its partner's lane lies in a prefix of
/// its segment: `if (lane + offset < valid_items)` (CUB's and rocPRIM's
/// partial warps). Lanes past the prefix hold nothing the segment's first
/// lane reads (docs/ArgRecognition.md, "Valid prefixes").
struct StageGate {
  llvm::Value *LaneSide = nullptr; ///< lane + offset (+ a constant)
  llvm::Value *Valid = nullptr;    ///< wave-uniform
  /// The stage combines where Pred(LaneSide, Valid) holds: slt, ult, sle or
  /// ule once the condition's polarity is known.
  llvm::CmpInst::Predicate Pred = llvm::CmpInst::ICMP_SLT;
  int64_t Offset = 0; ///< the stage's lane offset
  /// Per threadIdx.x wave K (one entry when the lane side does not read
  /// threadIdx.x): LaneSide - Offset - the lane's place in its segment.
  llvm::SmallVector<int64_t, 16> Base;
  bool UsesTid = false;
  argrec::TidLeafSet Leaves;
  /// The same lanes as a strict (signed) or non-strict (unsigned) compare,
  /// for comparing stages: clang writes `p + 1 <= n` as `p < n`.
  bool sameLanes(const StageGate &O) const {
    auto Norm = [](const StageGate &G) {
      std::pair<llvm::CmpInst::Predicate, llvm::SmallVector<int64_t, 16>> N{
          G.Pred, G.Base};
      int Adj = G.Pred == llvm::CmpInst::ICMP_SLE   ? -1
                : G.Pred == llvm::CmpInst::ICMP_ULT ? 1
                                                    : 0;
      if (G.Pred == llvm::CmpInst::ICMP_SLE)
        N.first = llvm::CmpInst::ICMP_SLT;
      if (G.Pred == llvm::CmpInst::ICMP_ULT)
        N.first = llvm::CmpInst::ICMP_ULE;
      for (int64_t &B : N.second)
        B += Adj;
      return N;
    };
    return Valid == O.Valid && Norm(*this) == Norm(O);
  }
  /// True when the lanes it lets through, by their place P in a segment of
  /// \p Cluster lanes (Pred(P + Base, Valid)), are a prefix for any bound.
  bool isPrefix(unsigned Cluster) const {
    if (Pred == llvm::CmpInst::ICMP_SLT || Pred == llvm::CmpInst::ICMP_SLE)
      return true;
    if (Pred != llvm::CmpInst::ICMP_ULT && Pred != llvm::CmpInst::ICMP_ULE)
      return false;
    // Unsigned: P + Base must not cross zero within the segment.
    return llvm::all_of(Base,
                        [&](int64_t B) { return B >= 0 || B + Cluster <= 0; });
  }
};

/// What proving a chain's stages found.
struct ChainProof {
  /// Per candidate: pairs disagreeing with it (all; NaN-free; NaN-free with
  /// values that differ in its order), summed over the stages.
  llvm::SmallVector<unsigned, 16> Mismatch, NumberMismatch, OrderMismatch;
  bool TieKeepsSelf[2][2][2] = {}; ///< [value slot][unsigned][lower]
  /// Some stage mixes two zeros (see StageOutcome::MixedZeros).
  bool MixedZeros = false;
  llvm::SmallVector<Output, 4> Outputs; ///< the chain's results
  std::string LastWhy; ///< why a last-stage value is not a result
  /// The first stage's gate when the stages combine only within a valid
  /// prefix (every stage that moves data then has the same one).
  std::optional<StageGate> Gate;
  unsigned GatedStages = 0;
  /// Conditions computed before the chain that gate some stages' combines
  /// (RAFT's `if (active) redOp(...)`), with the value that lets the
  /// combine run: the stages are proven with them open, and the rewrite is
  /// guarded by every lane's being open.
  llvm::SmallVector<std::pair<llvm::Value *, bool>, 1> OpenGates;
  /// The (index slot, sentinel) pairs of the candidates for which every
  /// stage keeps the lane's own state when both lanes hold no element: a
  /// group without an element leaves each lane its own pair.
  llvm::SmallVector<EmptyPair, 4> EmptyKeepsOwn;
};

/// A chain proved and ready to replace (Recognizer::planChain), before any
/// edit: chains that share their exchanges are replaced together.
struct ChainPlan {
  llvm::SmallVector<unsigned, 8> Chain;
  llvm::SmallVector<Component, 2> Comps;
  ChainLanes CL;
  ChainProof P;
  Candidate C;
  bool Proven = false;
  Guard G;           ///< what a run-time guard must check (needed() or not)
  bool Done = false; ///< replaced
};

/// What a stage's proof depends on besides its combine program.
struct StageShape {
  llvm::ArrayRef<Component> Comps;
  llvm::ArrayRef<unsigned> WordOfSlot; ///< logical slot -> this stage's word
  bool Last;
  llvm::SmallVector<unsigned, 8> OutNodes; ///< program node of each output
  llvm::SmallVector<unsigned, 8> OutBits;  ///< 32 or 64
};

/// The result of evaluating one stage on every representative pair.
struct StageOutcome {
  llvm::StringRef Reason; ///< a refusal, or empty
  std::string Why;
  llvm::SmallVector<int, 8>
      Chosen; ///< per output: its map, or -1 (not a result)
  /// Per candidate, the pairs where the stage disagrees with it: all; those
  /// without NaN; those without NaN whose values differ in its order.
  llvm::SmallVector<unsigned, 16> Mismatch, NumberMismatch, OrderMismatch;
  /// [value slot][indices unsigned?][partner index lower?]: on equal
  /// values the lane kept its own index although the partner's was lower /
  /// higher (in the signed and in the unsigned order).
  bool TieKeepsSelf[2][2][2] = {};
  /// On -0 and +0 (equal to fcmp) the outputs take the value from one lane
  /// and the index from the other (rocBLAS's `else if (y.i < x.i && x.v ==
  /// y.v) x.i = y.i`). Such pairs are left out of the proof; only candidates
  /// with -0 == +0 accept them, and a guard makes sure no two lanes holding
  /// the winning value differ in bits, so mixed states never win.
  bool MixedZeros = false;
  std::string OutputWhy; ///< last stage: why some value is not a result
  /// Message indices of the program (texts name its values, so a cached
  /// proof is read with the asking program's texts); -1 when none.
  int32_t WhyMsg = -1, OutputWhyMsg = -1;
};

class Recognizer {
public:
  Recognizer(llvm::Function &F, const ChipInfo &Chip, llvm::DominatorTree &DT,
             llvm::PostDominatorTree &PDT, llvm::OptimizationRemarkEmitter &ORE,
             argrec::StageCache &Cache,
             llvm::ArrayRef<argrec::LadderVersion> Versions,
             llvm::function_ref<void()> BeforeChange,
             llvm::function_ref<void()> BeforeRewrite)
      : F(F), Chip(Chip), DT(DT), PDT(PDT), ORE(ORE), Remarks(F, ORE),
        Cache(Cache), BeforeChange(BeforeChange), BeforeRewrite(BeforeRewrite),
        Versions(Versions) {
    for (const argrec::LadderVersion &V : Versions) {
      for (llvm::Instruction *I : V.CopyCalls)
        CopyOf[I] = &V;
      for (llvm::Instruction *I : V.LoopCalls)
        LoopOf[I] = &V;
    }
  }
  bool run();
  /// Whether the chain holding \p Call was replaced (a guarded rewrite
  /// keeps it as the fallback).
  bool rewritten(const llvm::Instruction *Call) const {
    return RewrittenCalls.count(Call);
  }
  bool rewroteAny() const { return !RewrittenCalls.empty(); }

private:
  llvm::Function &F;
  const ChipInfo &Chip;
  llvm::DominatorTree &DT;
  llvm::PostDominatorTree &PDT;
  llvm::OptimizationRemarkEmitter &ORE;
  /// The chains' remarks: one per distinct remark, with the copies counted
  /// (emitted when the recogniser is done with the function).
  RemarkCoalescer Remarks;
  argrec::StageCache &Cache;
  llvm::function_ref<void()> BeforeChange; ///< called before the first edit
  /// Called before a chain's replacement, which only adds code, moves it,
  /// splits blocks and redirects uses (RewriteJournal can undo that).
  llvm::function_ref<void()> BeforeRewrite;
  llvm::ArrayRef<argrec::LadderVersion> Versions;
  llvm::SmallVector<Stage, 8> Stages;
  llvm::SmallVector<llvm::SmallSetVector<llvm::Instruction *, 32>, 8> Closures;
  /// Ladder loops (LadderLoops.h): shuffles of an unrolled copy, with its
  /// iteration count, and the loop's own, which the copy's remark covers.
  llvm::DenseMap<const llvm::Instruction *, const argrec::LadderVersion *>
      CopyOf, LoopOf;
  /// Which ladder loop a stage belongs to: its unrolled copy, the loop
  /// itself, or neither. A chain stays within one.
  std::pair<const argrec::LadderVersion *, bool>
  ladderOf(const Stage &S) const {
    const llvm::Instruction *I = S.Calls.front();
    if (const argrec::LadderVersion *V = CopyOf.lookup(I))
      return {V, true};
    return {LoopOf.lookup(I), false};
  }
  llvm::SmallPtrSet<const llvm::Instruction *, 16> RewrittenCalls;
  std::string loopNote(const Stage &S) const;
  template <typename RemarkT>
  void emitRemark(const Stage &S, llvm::Instruction *At, llvm::StringRef Name,
                  llvm::StringRef CopyName, const std::string &Msg);

  void collectStages();
  void splitUnrelatedWords();
  llvm::SmallVector<unsigned, 4> groupWords(const Stage &S,
                                            llvm::ArrayRef<unsigned> Layer);
  bool forEachControlledPhi(llvm::BranchInst *Br,
                            llvm::function_ref<void(llvm::Instruction *)> Add);
  void computeClosures();
  bool splitMixedPhis();
  Stage &classify(unsigned SI);
  void printStage(llvm::raw_ostream &OS, unsigned SI);
  int namedXorOffset(const Stage &S);
  const char *arithmeticUse(const Stage &S) const;
  /// Exchanges whose values are summed or multiplied (stage, opcode),
  /// reported together at the end of run().
  llvm::SmallVector<std::pair<unsigned, const char *>, 8> ArithmeticStages;
  std::optional<llvm::SmallVector<unsigned, 64>> sourceLanes(llvm::Value *Addr,
                                                             bool &UsesTid);
  std::optional<llvm::SmallVector<unsigned, 64>> callSources(llvm::CallInst *CI,
                                                             bool &UsesTid);
  std::optional<argrec::LaneVector> lanes(llvm::Value *V, unsigned Depth = 0);
  const argrec::LaneVector *laneRow(llvm::Value *V, unsigned Depth);
  std::optional<argrec::LaneVector> lanesOrTid(llvm::Value *V, bool &UsesTid);
  std::optional<llvm::SmallVector<argrec::LaneVector, 32>>
  lanesPerTidWave(llvm::Value *V);
  llvm::DenseMap<llvm::Value *, std::unique_ptr<argrec::LaneVector>> LaneMemo,
      TidMemo;
  /// While set, lanes() takes threadIdx.x to be lane + TidWave * wave size.
  std::optional<unsigned> TidWave;
  /// Thread ids lane maps and conditions were evaluated on since the
  /// chain's result checks began (classify keeps a stage's own).
  argrec::TidLeafSet UsedTidLeaves;
  unsigned CFGEdits = 0; ///< guarded rewrites and phi splits (new blocks)
  llvm::SmallVector<llvm::WeakVH, 4> Guards;

  std::optional<ChainPlan> planChain(llvm::ArrayRef<unsigned> Chain);
  unsigned applyPlans(llvm::MutableArrayRef<ChainPlan> Plans);
  bool isPlainRead(unsigned SI);
  llvm::SmallVector<uint64_t, 2> sentinelsOf(unsigned SI,
                                             llvm::ArrayRef<Component> Comps);
  bool checkLaneMaps(llvm::ArrayRef<unsigned> Chain, unsigned NWords,
                     ChainLanes &CL);
  std::pair<unsigned, std::string>
  checkXorOrDown(llvm::ArrayRef<unsigned> Chain, ChainLanes &CL);
  bool proveStages(llvm::ArrayRef<unsigned> Chain,
                   llvm::ArrayRef<Component> Comps,
                   llvm::ArrayRef<Candidate> Cands, const ChainLanes &CL,
                   ChainProof &P);
  llvm::SmallVector<llvm::Instruction *, 8>
  lastStageOutputs(unsigned SI, argrec::CombineProgram &Prog);
  bool proveGated(llvm::ArrayRef<unsigned> Chain, unsigned SI,
                  const argrec::WordKinds &Kinds,
                  llvm::ArrayRef<llvm::Instruction *> Outs,
                  llvm::ArrayRef<Candidate> Cands, const ChainLanes &CL,
                  std::unique_ptr<argrec::CombineProgram> &Prog,
                  StageShape &Shape, StageOutcome &R, bool &Gated,
                  ChainProof &P);
  bool isWaveUniform(llvm::Value *V, unsigned Depth = 0);
  std::optional<StageGate> gateOf(const Stage &S, llvm::Value *Cond,
                                  unsigned Cluster);
  bool checkGate(llvm::ArrayRef<unsigned> Chain, const ChainProof &P,
                 const ChainLanes &CL, const Candidate &C);
  llvm::Value *buildEmptyLane(llvm::IRBuilder<> &B, const StageGate &G,
                              unsigned Cluster);
  bool pickCandidate(llvm::ArrayRef<unsigned> Chain, unsigned NComps,
                     llvm::ArrayRef<Candidate> Cands, const ChainProof &P,
                     Candidate &C, bool &Proven);
  bool checkResults(const Stage &First, const ChainProof &P, ChainLanes &CL,
                    bool &UsesTid);
  void fillGuard(ChainPlan &Pl, bool UsesTid);
  void refuseUnguardable(const ChainPlan &Pl, const llvm::Twine &Why);
  llvm::Value *rewrite(const ChainPlan &Pl, llvm::Instruction *At,
                       unsigned Guarded,
                       llvm::SmallVectorImpl<llvm::Value *> &NewOut);
  void refuse(const Stage &S, llvm::StringRef Reason, const llvm::Twine &Why);
  void reportRewrite(const ChainPlan &Pl, llvm::CallInst *Call,
                     unsigned Guarded);
  /// While set, refuse() keeps its first refusal here instead of reporting
  /// it (a proof tried again under an assumption).
  struct Refusal {
    const Stage *S;
    std::string Reason, Why;
  };
  std::optional<Refusal> *Deferred = nullptr;
  bool proveWithIndexBound(llvm::ArrayRef<unsigned> Chain,
                           llvm::MutableArrayRef<Component> Comps,
                           bool Unsigned, const ChainLanes &CL, ChainProof &P,
                           Candidate &C, bool &Proven,
                           llvm::SmallVectorImpl<unsigned> &Assumed);
  llvm::Value *compValue(llvm::IRBuilder<> &B, const Stage &First,
                         const Component &Cm);
  llvm::CallInst *emitOperation(llvm::IRBuilder<> &B, const Stage &First,
                                llvm::ArrayRef<Component> Comps,
                                const Candidate &C, unsigned Cluster,
                                llvm::ArrayRef<llvm::Value *> In,
                                llvm::MutableArrayRef<llvm::Value *> Results);
  void encodeSentinel(llvm::IRBuilder<> &B, const Candidate &C,
                      llvm::Value *None, llvm::Value *&Val, llvm::Value *&Idx);
  llvm::Value *emitGuard(llvm::IRBuilder<> &B, const Guard &G, llvm::Value *Val,
                         llvm::Value *ResVal, llvm::Value *Idx,
                         llvm::Value *ResIdx, llvm::Value *RawVal,
                         llvm::Value *None, llvm::Value *BelowBound);
  llvm::Value *buildPartialGroup(llvm::IRBuilder<> &B, unsigned Group,
                                 llvm::function_ref<llvm::Value *()> LaneId);
  std::optional<ChainRegion> findRegion(llvm::Instruction *Begin,
                                        llvm::ArrayRef<Output> Outputs,
                                        std::string &Why);
  bool regionBlocks(ChainRegion &R, llvm::ArrayRef<Output> Outputs,
                    std::string &Why);
  bool collectHoist(llvm::Instruction *I, ChainRegion &R);
  bool tryHoist(llvm::Instruction *I, ChainRegion &R);
  bool trySink(llvm::Instruction *I, ChainRegion &R);
  bool wordsAvailableAt(const Stage &First, llvm::Instruction *At,
                        llvm::SmallSetVector<llvm::Instruction *, 8> &Move);
  bool hoistWords(const Stage &First, llvm::Instruction *At);
  using ChainGroup = llvm::SmallVector<llvm::SmallVector<unsigned, 8>, 2>;
  llvm::Instruction *firstExchange(llvm::ArrayRef<llvm::Instruction *> Starts);
  bool interleaves(llvm::ArrayRef<llvm::SmallVector<unsigned, 8>> Earlier,
                   llvm::ArrayRef<llvm::SmallVector<unsigned, 8>> Later);
  void refuseLoneRead(unsigned SI);
  llvm::SmallVector<ChainGroup, 4> linkChains();
  void reportArithmeticStages();
  void mergeInterleaved(llvm::SmallVectorImpl<ChainGroup> &Groups);
  bool hoistOutputs(llvm::Instruction *LastCall,
                    llvm::ArrayRef<Output> Outputs);
  bool hoistOutputsTo(llvm::Instruction *Start, llvm::ArrayRef<Output> Outputs,
                      bool Early = false);
  bool isNeverNaN(llvm::Value *V,
                  llvm::SmallPtrSetImpl<const llvm::PHINode *> &Assumed,
                  const llvm::Instruction *At, unsigned Depth = 0);
  bool isAtLeast(llvm::Value *V, int64_t Least,
                 llvm::SmallPtrSetImpl<const llvm::PHINode *> &Assumed,
                 const llvm::Instruction *At, unsigned Depth = 0);
  void boundIntegers(llvm::ArrayRef<unsigned> Chain,
                     llvm::MutableArrayRef<Component> Comps);
  void narrowRange(llvm::Value *V, const llvm::Instruction *At, Component &C);
  bool readOnlyInLanes(llvm::ArrayRef<Output> Outputs, uint64_t Lanes,
                       bool &UsesTid, std::string &Why);
  uint64_t readGroups(llvm::ArrayRef<Output> Outputs, const ChainLanes &CL,
                      bool UsesTid);
  bool onlyInLanes(llvm::BasicBlock *BB, uint64_t Lanes, bool &UsesTid);
  void insertFallback(const ChainRegion &R, llvm::Value *Fast,
                      llvm::ArrayRef<Output> Outputs,
                      llvm::ArrayRef<llvm::Value *> NewOut);

public:
  bool cfgChanged() const { return CFGEdits; }
  /// The guards' branches; successor 1 is the fallback.
  llvm::ArrayRef<llvm::WeakVH> guards() const { return Guards; }
};

//===----------------------------------------------------------------------===//
// Shared helpers (defined in the file named)
//===----------------------------------------------------------------------===//

// RecognizeArgCandidates.cpp
/// Values that realise every order type of a compare/select function whose
/// constants are \p Consts.
llvm::SmallVector<uint64_t, 32>
representatives(SlotKind K, llvm::ArrayRef<uint64_t> Consts,
                bool Negated = false, bool Words = false,
                int64_t Least = std::numeric_limits<int64_t>::min(),
                int64_t Most = std::numeric_limits<int64_t>::max());
/// -1, 0, +1: how \p A compares with \p B in "goodness" for \p C's value
/// order.
int compareValue(const Candidate &C, const Component &VC, uint64_t A,
                 uint64_t B);
/// Which of the states \p S (self) and \p P (partner) \p C keeps, given
/// \p ValueOrder: compareValue() of the partner's value with the lane's
/// (the proof looks it up per pair of representatives, and calls this for
/// every pair: inline).
inline Expect expected(const Candidate &C, llvm::ArrayRef<Component> Comps,
                       llvm::ArrayRef<uint64_t> S, llvm::ArrayRef<uint64_t> P,
                       int ValueOrder) {
  if (C.Sentinel) {
    bool SE = S[C.IdxSlot] == *C.Sentinel, PE = P[C.IdxSlot] == *C.Sentinel;
    if (SE || PE)
      return SE && PE ? (S == P ? Expect::Either : Expect::Ambiguous)
             : SE     ? Expect::Partner
                      : Expect::Self;
  }
  if (ValueOrder > 0)
    return Expect::Partner;
  if (ValueOrder < 0)
    return Expect::Self;
  if (S == P)
    return Expect::Either;
  if (!C.IsArg)
    return Expect::Ambiguous; // unreachable for integer min/max
  unsigned IB = Comps[C.IdxSlot].is64() ? 64 : 32;
  int64_t SI = argrec::sext(S[C.IdxSlot], IB),
          PI = argrec::sext(P[C.IdxSlot], IB);
  if (PI != SI) {
    bool PLess = C.UnsignedIdx ? argrec::maskTo(P[C.IdxSlot], IB) <
                                     argrec::maskTo(S[C.IdxSlot], IB)
                               : PI < SI;
    return PLess != C.LargestIdx ? Expect::Partner : Expect::Self;
  }
  return Expect::Ambiguous; // same class, same index, other value bits
}
/// \p C as remarks name it ("argmax f32/i32, ties: smallest index, ...").
std::string describe(const Candidate &C, llvm::ArrayRef<Component> Comps);
/// The semantics a chain over \p Comps may have, in order of preference.
llvm::SmallVector<Candidate, 16>
candidatesFor(llvm::ArrayRef<Component> Comps,
              llvm::ArrayRef<uint64_t> Sentinels, bool UnsignedCompares);

// RecognizeArgStages.cpp
/// The components the first stage \p S's words carry; nullopt, with \p Why,
/// for a state Crosslane does not support.
std::optional<llvm::SmallVector<Component, 2>> componentsOf(const Stage &S,
                                                            std::string &Why);

// RecognizeArgProof.cpp
/// True if \p V is computed from constants and values \p IsLeaf accepts
/// through at most 7 levels of instructions \p Through accepts.
bool computedFrom(llvm::Value *V,
                  llvm::function_ref<bool(llvm::Value *)> IsLeaf,
                  llvm::function_ref<bool(llvm::Instruction *)> Through,
                  unsigned Depth = 0);

// RecognizeArgGuards.cpp
/// True if \p I may run earlier, where its operands are available.
bool canMoveUp(const llvm::Instruction *I);

} // namespace recognize

namespace argrec {
/// Stage proofs by key: a chain's stages, and the same code in other kernels
/// of the module, share one evaluation (RecognizeArgProof.cpp).
class StageCache {
public:
  const recognize::StageOutcome &
  get(const CombineProgram &P, const recognize::StageShape &Sh,
      llvm::ArrayRef<recognize::Candidate> Cands);

private:
  static constexpr unsigned MaxEntries = 4096;
  llvm::StringMap<recognize::StageOutcome> Map;
};
} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_RECOGNIZEARGINTERNAL_H
