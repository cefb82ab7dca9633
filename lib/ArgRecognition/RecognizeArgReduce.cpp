//===- RecognizeArgReduce.cpp - Recognise hand-written reductions --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// See RecognizeArgReduce.h and docs/ArgRecognition.md. Vocabulary:
///   stage    ds.bpermute calls in one block sharing one address operand;
///   word     an i32 data operand of a stage's ds.bpermute (the lane state);
///   partner  the ds.bpermute result for a word (the partner lane's word);
///   slot     a logical component of the lane state: an f32 or i32 word, or
///            an i64 split into (lo, hi) words;
///   closure  the compare/select instructions fed by a stage's partners;
///   side     which of (self, partner) a combine keeps, per input.
///
//===----------------------------------------------------------------------===//

#include "crosslane/ArgRecognition/RecognizeArgReduce.h"
#include "CombineProgram.h"
#include "HalfExchanges.h"
#include "HighWords.h"
#include "LadderLoops.h"
#include "LaneAtomics.h"
#include "LaneMap.h"
#include "StructCopies.h"
#include "VectorState.h"
#include "VortexLaneOps.h"
#include "crosslane/SubgroupReduce/SubgroupOps.h"
#include "crosslane/Support/ChipInfo.h"
#include "crosslane/Support/Compare.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/FunctionBackup.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace crosslane::subgroup;
using namespace crosslane::argrec;

#define DEBUG_TYPE "crosslane-recognize-arg"

CROSSLANE_STATISTIC(NumChains, "Number of cross-lane chains examined");
CROSSLANE_STATISTIC(NumRewritten,
                    "Number of chains replaced by a Crosslane operation");
CROSSLANE_STATISTIC(NumRefused,
                    "Number of chains left alone (see the remarks)");
CROSSLANE_STATISTIC(NumStageProofsReused,
                    "Number of stage proofs reused from an identical combine");

// For measurement only (tools/count-recognition.py): the code a guarded
// rewrite runs when its guard holds, without the original code it keeps for
// the inputs the guard sends back. Never for real compilations.
static cl::opt<bool> ReplaceOnVortex(
    "crosslane-vortex-replace-arg", cl::init(false),
    cl::desc("Replace recognised arg-reductions in Vortex code too (off by "
             "default: on Vortex the replacement is not faster than the "
             "butterfly as written; make bench measures both)"));

static cl::opt<bool> FallbackTrap(
    "crosslane-fallback-trap", cl::Hidden, cl::init(false),
    cl::desc("Measurement only: replace the fallback path of every guarded "
             "rewrite (and of every kept ladder-loop copy) by a trap, so the "
             "kernel holds only the code that runs when the guards hold"));

namespace crosslane {
namespace {

/// What a slot holds; decides its order representatives.
enum class SlotKind { Int32, Float32, Int64Lo, Int64Hi, Float64, Float16 };

/// One exchange between lanes: the cross-lane reads (one per 32-bit word)
/// of one block with one lane map: ds_bpermute with one address, or DPP /
/// ds_swizzle with one set of controls.
struct Stage {
  BasicBlock *BB = nullptr;
  SmallVector<CallInst *, 2> Calls; ///< in program order
  /// The stage this one was split from (splitUnrelatedWords): chains whose
  /// first stages share it run in one guarded region.
  unsigned Origin = 0;
  /// The lane map, evaluated once (Recognizer::classify): the lane each
  /// lane reads (argrec::NoLane: nothing usable), if it is known; lane ^
  /// Offset, or with Down lane + Offset (lane 0's source), or -1 for
  /// neither shape.
  bool Classified = false;
  std::optional<SmallVector<unsigned, 64>> Sources;
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
  SmallVector<Value *, 2> words() const {
    SmallVector<Value *, 2> W;
    for (CallInst *C : Calls)
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
  ReduceOp Op = ReduceOp::UMin; ///< single-component chains
  bool Max = true;              ///< argmax (else argmin)
  bool NaNWins = false;         ///< float values: NaN is the best class
  bool ZerosEqual = false;      ///< float values: -0 == +0
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
    return Kind == SlotKind::Float64 ? bit_cast<double>(V)
                                     : double(bit_cast<float>(uint32_t(V)));
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
static Constant *noElementIndex(Type *Ty) {
  return ConstantInt::get(Ty,
                          APInt::getSignedMaxValue(Ty->getIntegerBitWidth()));
}

//===----------------------------------------------------------------------===//
// Order representatives
//===----------------------------------------------------------------------===//

/// Adds each float constant of \p Consts (bits of \p FloatT) and its two
/// neighbours through \p Add; also negated when \p Negated (under fabs or
/// fneg a constant meets the values of the other sign).
template <typename FloatT, typename BitsT, typename AddFn>
static void addFloatConstants(ArrayRef<uint64_t> Consts, bool Negated,
                              AddFn Add) {
  for (uint64_t C : Consts)
    for (bool Neg : {false, true}) {
      if (Neg && !Negated)
        continue;
      FloatT F = bit_cast<FloatT>(BitsT(C));
      if (Neg)
        F = -F;
      Add(bit_cast<BitsT>(F));
      if (!std::isnan(F)) {
        Add(bit_cast<BitsT>(std::nextafter(F, FloatT(INFINITY))));
        Add(bit_cast<BitsT>(std::nextafter(F, -FloatT(INFINITY))));
      }
    }
}

/// Values that realise every order type of a compare/select function whose
/// constants are \p Consts: the constants, their neighbours, and two points in
/// each interval between them and the extremes (docs/ArgRecognition.md).
SmallVector<uint64_t, 32>
representatives(SlotKind K, ArrayRef<uint64_t> Consts, bool Negated = false,
                bool Words = false,
                int64_t Least = std::numeric_limits<int64_t>::min(),
                int64_t Most = std::numeric_limits<int64_t>::max()) {
  SmallVector<uint64_t, 32> R;
  auto Add = [&](uint64_t V) {
    if (!is_contained(R, V))
      R.push_back(V);
  };
  if (K == SlotKind::Float32) {
    for (float F : {-INFINITY, -FLT_MAX, -2.5f, -1.0f, -FLT_TRUE_MIN, -0.0f,
                    0.0f, FLT_TRUE_MIN, 1.0f, 2.5f, FLT_MAX, INFINITY})
      Add(bit_cast<uint32_t>(F));
    Add(0x7FC00000); // qNaN
    Add(0xFFC00001); // a negative NaN with a payload
    addFloatConstants<float, uint32_t>(Consts, Negated, Add);
    return R;
  }
  if (K == SlotKind::Float16) {
    // -inf, -65504, -2.5, -1, -min subnormal, -0, +0, min subnormal, 1, 2.5,
    // 65504, +inf, a quiet NaN, a negative NaN with a payload.
    for (uint64_t H : {0xFC00, 0xFBFF, 0xC100, 0xBC00, 0x8001, 0x8000, 0x0000,
                       0x0001, 0x3C00, 0x4100, 0x7BFF, 0x7C00, 0x7E00, 0xFE01})
      Add(H);
    for (uint64_t C : Consts) {
      Add(C & 0xFFFF);
      // Neighbours in the order of half values (bit patterns step by one
      // within a sign; zero and the infinities are already present).
      if (!std::isnan(halfToDouble(C)))
        for (int D : {-1, 1})
          if (uint64_t N = (C + D) & 0xFFFF; !std::isnan(halfToDouble(N)))
            Add(N);
    }
    return R;
  }
  if (K == SlotKind::Float64) {
    const double Inf = std::numeric_limits<double>::infinity();
    for (double F :
         {-Inf, -DBL_MAX, double(-FLT_MAX), -2.5, -1.0, -DBL_TRUE_MIN, -0.0,
          0.0, DBL_TRUE_MIN, 1.0, 2.5, double(FLT_MAX), DBL_MAX, Inf})
      Add(bit_cast<uint64_t>(F));
    Add(0x7FF8000000000000ull); // qNaN
    Add(0xFFF8000000000001ull); // a negative NaN with a payload
    addFloatConstants<double, uint64_t>(Consts, Negated, Add);
    return R;
  }
  unsigned Bits = K == SlotKind::Int32 ? 32 : 64;
  int64_t Min = Bits == 32 ? INT32_MIN : INT64_MIN;
  int64_t Max = Bits == 32 ? INT32_MAX : INT64_MAX;
  for (int64_t V : {Min, Min + 1, int64_t(-2), int64_t(-1), int64_t(0),
                    int64_t(1), int64_t(2), int64_t(3), Max - 1, Max})
    Add(maskTo(uint64_t(V), Bits));
  if (Bits == 64)
    for (uint64_t V : {0xFFFFFFFFull, 0x100000000ull, 0x100000001ull,
                       0x7FC0000000000005ull, 0x8000000100000000ull})
      Add(V);
  for (uint64_t C : Consts)
    for (int D : {-1, 0, 1}) {
      Add(maskTo(C + uint64_t(int64_t(D)), Bits));
      // A narrow word meets an 8- or 16-bit constant as its signed value
      // too (`icmp ne i8 %v, -100` compares with 0x9C).
      if (Most < Max)
        for (unsigned W : {8u, 16u})
          if (C == maskTo(C, W))
            Add(maskTo(uint64_t(sext(C, W) + D), Bits));
    }
  // A program that reads an i64's words apart compares each word on its
  // own: the constants and their neighbours as the low word under several
  // high words, and as the high word.
  if (Bits == 64 && Words)
    for (uint64_t C : Consts)
      for (int D : {-1, 0, 1}) {
        uint64_t W = maskTo(C + uint64_t(int64_t(D)), 32);
        for (uint64_t Hi :
             {uint64_t(1), uint64_t(0x80000000), uint64_t(0xFFFFFFFF)})
          Add(Hi << 32 | W);
        for (uint64_t Lo : {uint64_t(0), uint64_t(1), uint64_t(0xFFFFFFFF)})
          Add(W << 32 | Lo);
      }
  // Words holding a narrow integer: the range's ends, and the 8- and 16-bit
  // types' ends inside it (a combine may compare the truncated value).
  if (Most < Max)
    for (int64_t V :
         {Least, Least + 1, Most - 1, Most, int64_t(INT8_MIN) - 1,
          int64_t(INT8_MIN), int64_t(INT8_MAX), int64_t(UINT8_MAX),
          int64_t(UINT8_MAX) + 1, int64_t(INT16_MIN) - 1, int64_t(INT16_MIN),
          int64_t(INT16_MAX), int64_t(INT16_MAX) + 1})
      Add(maskTo(uint64_t(V), Bits));
  erase_if(R, [&](uint64_t V) {
    return sext(V, Bits) < Least || sext(V, Bits) > Most;
  });
  return R;
}

//===----------------------------------------------------------------------===//
// Candidate semantics
//===----------------------------------------------------------------------===//

enum class Expect { Self, Partner, Either, Ambiguous };

/// -1, 0, +1: how \p A compares with \p B in "goodness" for the candidate's
/// value order (0: the same class).
int compareValue(const Candidate &C, const Component &VC, uint64_t A,
                 uint64_t B) {
  if (VC.isFloat()) {
    double X = VC.toDouble(A), Y = VC.toDouble(B);
    bool NX = std::isnan(X), NY = std::isnan(Y);
    if (NX || NY) {
      if (NX && NY)
        return 0;
      int NaNGood = C.NaNWins ? 1 : -1; // how a NaN ranks against numbers
      return NX ? NaNGood : -NaNGood;
    }
    int Ord;
    if (X == 0 && Y == 0)
      Ord = C.ZerosEqual ? 0 : int(!std::signbit(X)) - int(!std::signbit(Y));
    else
      Ord = X < Y ? -1 : X > Y ? 1 : 0;
    return C.Max ? Ord : -Ord;
  }
  unsigned Bits = VC.is64() ? 64 : 32;
  int64_t X = sext(A, Bits), Y = sext(B, Bits);
  uint64_t UX = maskTo(A, Bits), UY = maskTo(B, Bits);
  if (!C.IsArg) {
    switch (C.Op) {
    case ReduceOp::UMin: return UX < UY ? 1 : UX > UY ? -1 : 0;
    case ReduceOp::UMax: return UX > UY ? 1 : UX < UY ? -1 : 0;
    case ReduceOp::SMin: return X < Y ? 1 : X > Y ? -1 : 0;
    default: return X > Y ? 1 : X < Y ? -1 : 0;
    }
  }
  int Ord = C.UnsignedVal ? (UX < UY   ? -1
                             : UX > UY ? 1
                                       : 0)
                          : (X < Y   ? -1
                             : X > Y ? 1
                                     : 0);
  return C.Max ? Ord : -Ord;
}

Expect expected(const Candidate &C, ArrayRef<Component> Comps,
                ArrayRef<uint64_t> S, ArrayRef<uint64_t> P) {
  if (C.Sentinel) {
    bool SE = S[C.IdxSlot] == *C.Sentinel, PE = P[C.IdxSlot] == *C.Sentinel;
    if (SE || PE)
      return SE && PE ? (S == P ? Expect::Either : Expect::Ambiguous)
             : SE     ? Expect::Partner
                      : Expect::Self;
  }
  unsigned VI = C.IsArg ? C.ValSlot : 0;
  int V = compareValue(C, Comps[VI], P[VI], S[VI]);
  if (V > 0)
    return Expect::Partner;
  if (V < 0)
    return Expect::Self;
  if (S == P)
    return Expect::Either;
  if (!C.IsArg)
    return Expect::Ambiguous; // unreachable for integer min/max
  unsigned IB = Comps[C.IdxSlot].is64() ? 64 : 32;
  int64_t SI = sext(S[C.IdxSlot], IB), PI = sext(P[C.IdxSlot], IB);
  if (PI != SI) {
    bool PLess = C.UnsignedIdx
                     ? maskTo(P[C.IdxSlot], IB) < maskTo(S[C.IdxSlot], IB)
                     : PI < SI;
    return PLess != C.LargestIdx ? Expect::Partner : Expect::Self;
  }
  return Expect::Ambiguous; // same class, same index, other value bits
}

std::string describe(const Candidate &C, ArrayRef<Component> Comps) {
  if (!C.IsArg && Comps[0].isFloat())
    return std::string(getName(C.Op)) + " " + Comps[0].typeName() +
           (C.ZerosEqual ? ", -0 == +0" : ", -0 < +0");
  if (!C.IsArg)
    return std::string(getName(C.Op)) + (Comps[0].is64() ? " i64" : " i32");
  std::string S = C.Max ? "argmax" : "argmin";
  const Component &V = Comps[C.ValSlot];
  S += std::string(" ") + V.typeName() + (C.UnsignedVal ? " (unsigned)" : "");
  if (const char *N = V.narrowName())
    S += std::string(" (") + N + " values)";
  S += Comps[C.IdxSlot].is64() ? "/i64" : "/i32";
  if (C.TiesByLane)
    S += ", ties: by lane order";
  else
    S += std::string(", ties: ") +
         (C.LargestIdx ? "largest index" : "smallest index") +
         (C.UnsignedIdx ? " (unsigned)" : "");
  if (V.isFloat())
    S += std::string(C.NaNWins ? ", NaN wins" : ", NaN ignored") +
         (C.ZerosEqual ? ", -0 == +0" : ", -0 < +0");
  if (C.Sentinel)
    S += ", index " +
         std::to_string(sext(*C.Sentinel, Comps[C.IdxSlot].is64() ? 64 : 32)) +
         " = no element";
  return S;
}

//===----------------------------------------------------------------------===//
// Chains
//===----------------------------------------------------------------------===//

bool isCombineOp(const Instruction &I) {
  if (isa<PHINode, SelectInst, CmpInst, BitCastInst, ZExtInst, SExtInst,
          TruncInst>(I))
    return true;
  if (I.getOpcode() == Instruction::FNeg)
    return true;
  if (auto *BO = dyn_cast<BinaryOperator>(&I))
    switch (BO->getOpcode()) {
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor:
    case Instruction::Shl:
    case Instruction::LShr:
    case Instruction::AShr:
      return true;
    default:
      return false;
    }
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    switch (II->getIntrinsicID()) {
    case Intrinsic::umin:
    case Intrinsic::umax:
    case Intrinsic::smin:
    case Intrinsic::smax:
    case Intrinsic::fabs:
      return true;
    default:
      return argrec::isFloatMinMax(II->getIntrinsicID());
    }
  return false;
}

/// One output of the last stage: the value and the words it is made of.
struct Output {
  Instruction *I;
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
  SmallVector<Value *, 2> TidLeaves;
  bool HasIndex = true;    ///< an arg reduction (else value only)
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
  SmallVector<unsigned, 1> AtLeastMinusOne;
  bool BoundIsIndex = false; ///< AtLeastMinusOne is the index slot alone
  /// Conditions (and the value that opens them) that must let every lane's
  /// combine run (ChainProof::OpenGates).
  SmallVector<std::pair<Value *, bool>, 1> OpenGates;
  /// The lanes of the groups whose result is read: the conditions on
  /// values and groups are checked there only (no lane elsewhere reads what
  /// they protect).
  uint64_t ReadGroups = ~uint64_t(0);
  bool needed() const {
    return NaNFree || SameBitsAtIndex || SameBitsAtValue || NoTies ||
           LaneIsTid || Sentinel || FullGroups || EmptyLanes ||
           !AtLeastMinusOne.empty() || !OpenGates.empty();
  }
  std::string describe() const {
    SmallVector<StringRef, 3> Parts;
    std::string Full;
    if (FullGroups) {
      Full = "every lane of the " + std::to_string(FullGroups) +
             "-lane group is active";
      Parts.push_back(Full);
    }
    if (NaNFree)
      Parts.push_back("no value is NaN");
    if (NoTies)
      Parts.push_back("no other index holds the winning value");
    if (SameBitsAtValue)
      Parts.push_back("lanes holding the winning value hold its bits");
    else if (SameBitsAtIndex)
      Parts.push_back(
          HasIndex ? "lanes holding the winning index hold its value's bits"
                   : "lanes holding the result's value hold its bits");
    if (LaneIsTid)
      Parts.push_back(TidLeaves.empty()
                          ? "threadIdx.x % wave size is the lane id"
                          : "the linear thread id % wave size is the lane "
                            "id");
    if (EmptyLanes)
      Parts.push_back("no lane past the valid prefix wins");
    if (!AtLeastMinusOne.empty())
      Parts.push_back(BoundIsIndex ? "no index is below -1"
                                   : "no integer input is below -1");
    std::string Open;
    if (!OpenGates.empty()) {
      raw_string_ostream OS(Open);
      OS << "every lane's combine runs (";
      for (auto [I, Gate] : enumerate(OpenGates)) {
        OS << (I ? ", " : "") << (Gate.second ? "" : "!");
        Gate.first->printAsOperand(OS, false);
      }
      OS << ")";
      Parts.push_back(Open);
    }
    std::string Some;
    if (Sentinel) {
      Some = EmptyKeepsOwn ? "no element has index " + std::to_string(Largest)
                           : "some lane holds an index other than " +
                                 std::to_string(*Sentinel);
      Parts.push_back(Some);
    }
    return join(Parts, ", ");
  }
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
  Instruction *Begin = nullptr; ///< the first stage's first call
  Instruction *End = nullptr;   ///< the first instruction after the results
  SmallPtrSet<BasicBlock *, 8> Blocks;  ///< blocks with code in the region
  SmallPtrSet<Instruction *, 8> Hoist; ///< used later; moved above it
  /// Used later and computed from the results (a broadcast of the first
  /// result between the two results): moved below them, in program order.
  SmallVector<Instruction *, 4> Sink;
  SmallPtrSet<Instruction *, 4> Results;
  /// The chain itself: the region's code that depends on a lane exchange
  /// and feeds a result (it never moves out of the region).
  SmallPtrSet<Instruction *, 32> ChainCode;
  bool contains(const Instruction *I) const {
    const BasicBlock *BB = I->getParent();
    if (!Blocks.count(BB))
      return false;
    if (BB == Begin->getParent() && I->comesBefore(Begin))
      return false;
    return !(BB == End->getParent() && !I->comesBefore(End));
  }
};

/// The semantics a chain over \p Comps may have, in order of preference:
/// for (value, index) pairs, with indices ordered as signed numbers, then
/// (\p UnsignedCompares) as unsigned ones, then signed with each index in
/// \p Sentinels marking "no element".
SmallVector<Candidate, 16> candidatesFor(ArrayRef<Component> Comps,
                                         ArrayRef<uint64_t> Sentinels,
                                         bool UnsignedCompares) {
  SmallVector<Candidate, 16> Cands;
  if (Comps.size() == 1 && Comps[0].isFloat()) {
    // fmax/fmin (NaN ignored) or fmaximum/fminimum (NaN wins), -0 < +0
    // first; with -0 == +0 the zero's sign is checked at run time.
    for (bool Zeros : {false, true})
      for (bool NaNWins : {false, true})
        for (bool Max : {true, false}) {
          Candidate C;
          C.Op = NaNWins ? (Max ? ReduceOp::FMaximum : ReduceOp::FMinimum)
                         : (Max ? ReduceOp::FMax : ReduceOp::FMin);
          C.Max = Max;
          C.NaNWins = NaNWins;
          C.ZerosEqual = Zeros;
          Cands.push_back(C);
        }
  } else if (Comps.size() == 1) {
    // Signed orders first unless the combine compares unsigned (on values
    // proven non-negative both orders agree; the remark names the code's).
    SmallVector<ReduceOp, 4> Ops = {ReduceOp::SMin, ReduceOp::SMax,
                                    ReduceOp::UMin, ReduceOp::UMax};
    if (UnsignedCompares)
      std::rotate(Ops.begin(), Ops.begin() + 2, Ops.end());
    for (ReduceOp Op : Ops) {
      Candidate C;
      C.Op = Op;
      Cands.push_back(C);
    }
  } else {
    for (unsigned V = 0; V < 2; ++V) {
      if (Comps[1 - V].isFloat())
        continue;
      for (bool Max : {true, false})
        for (bool NaNWins : {false, true})
          for (bool Zeros : {false, true}) {
            if (!Comps[V].isFloat() && (NaNWins || Zeros))
              continue;
            Candidate C;
            C.IsArg = true;
            C.Max = Max;
            C.NaNWins = NaNWins;
            C.ZerosEqual = Zeros;
            C.ValSlot = V;
            C.IdxSlot = 1 - V;
            Cands.push_back(C);
          }
    }
    unsigned NSigned = Cands.size();
    for (unsigned K = 0; UnsignedCompares && K < NSigned; ++K) {
      Candidate C = Cands[K];
      C.UnsignedIdx = true;
      Cands.push_back(C);
    }
    // Indices proven not negative are ordered alike as signed and unsigned
    // numbers: the order the code compares in comes first.
    if (UnsignedCompares && any_of(Comps, [](const Component &C) {
          return !C.isFloat() && C.Least >= 0;
        }))
      std::rotate(Cands.begin(), Cands.begin() + NSigned, Cands.end());
    // The last occurrence wins ties, in either index order.
    for (unsigned K = 0, N = Cands.size(); K < N; ++K) {
      Candidate C = Cands[K];
      C.LargestIdx = true;
      Cands.push_back(C);
    }
    // Unsigned integer values, with either index order.
    for (unsigned K = 0, N = Cands.size(); UnsignedCompares && K < N; ++K) {
      if (Comps[Cands[K].ValSlot].isFloat())
        continue;
      Candidate C = Cands[K];
      C.UnsignedVal = true;
      Cands.push_back(C);
    }
    // "No element" in any index order but the last occurrence's.
    for (uint64_t S : Sentinels)
      for (unsigned K = 0, N = Cands.size(); K < N; ++K) {
        if (Cands[K].LargestIdx)
          continue;
        Candidate C = Cands[K];
        C.Sentinel = S;
        Cands.push_back(C);
      }
  }
  return Cands;
}

/// A stage that combines only where its partner's lane lies in a prefix of
/// its segment: `if (lane + offset < valid_items)` (CUB's and rocPRIM's
/// partial warps). Lanes past the prefix hold nothing the segment's first
/// lane reads (docs/ArgRecognition.md, "Valid prefixes").
struct StageGate {
  Value *LaneSide = nullptr; ///< lane + offset (+ a constant)
  Value *Valid = nullptr;    ///< wave-uniform
  /// The stage combines where Pred(LaneSide, Valid) holds: slt, ult, sle or
  /// ule once the condition's polarity is known.
  CmpInst::Predicate Pred = CmpInst::ICMP_SLT;
  int64_t Offset = 0; ///< the stage's lane offset
  /// Per threadIdx.x wave K (one entry when the lane side does not read
  /// threadIdx.x): LaneSide - Offset - the lane's place in its segment.
  SmallVector<int64_t, 16> Base;
  bool UsesTid = false;
  argrec::TidLeafSet Leaves;
  /// The same lanes as a strict (signed) or non-strict (unsigned) compare,
  /// for comparing stages: clang writes `p + 1 <= n` as `p < n`.
  bool sameLanes(const StageGate &O) const {
    auto Norm = [](const StageGate &G) {
      std::pair<CmpInst::Predicate, SmallVector<int64_t, 16>> N{G.Pred, G.Base};
      int Adj = G.Pred == CmpInst::ICMP_SLE   ? -1
                : G.Pred == CmpInst::ICMP_ULT ? 1
                                              : 0;
      if (G.Pred == CmpInst::ICMP_SLE)
        N.first = CmpInst::ICMP_SLT;
      if (G.Pred == CmpInst::ICMP_ULT)
        N.first = CmpInst::ICMP_ULE;
      for (int64_t &B : N.second)
        B += Adj;
      return N;
    };
    return Valid == O.Valid && Norm(*this) == Norm(O);
  }
  /// True when the lanes it lets through, by their place P in a segment of
  /// \p Cluster lanes (Pred(P + Base, Valid)), are a prefix for any bound.
  bool isPrefix(unsigned Cluster) const {
    if (Pred == CmpInst::ICMP_SLT || Pred == CmpInst::ICMP_SLE)
      return true;
    if (Pred != CmpInst::ICMP_ULT && Pred != CmpInst::ICMP_ULE)
      return false;
    // Unsigned: P + Base must not cross zero within the segment.
    return all_of(Base, [&](int64_t B) { return B >= 0 || B + Cluster <= 0; });
  }
};

/// What proving a chain's stages found.
struct ChainProof {
  /// Per candidate: pairs disagreeing with it (all; NaN-free; NaN-free with
  /// values that differ in its order), summed over the stages.
  SmallVector<unsigned, 16> Mismatch, NumberMismatch, OrderMismatch;
  bool TieKeepsSelf[2][2][2] = {}; ///< [value slot][unsigned][lower]
  /// Some stage mixes two zeros (see StageOutcome::MixedZeros).
  bool MixedZeros = false;
  SmallVector<Output, 4> Outputs; ///< the chain's results
  std::string LastWhy;            ///< why a last-stage value is not a result
  /// The first stage's gate when the stages combine only within a valid
  /// prefix (every stage that moves data then has the same one).
  std::optional<StageGate> Gate;
  unsigned GatedStages = 0;
  /// Conditions computed before the chain that gate some stages' combines
  /// (RAFT's `if (active) redOp(...)`), with the value that lets the
  /// combine run: the stages are proven with them open, and the rewrite is
  /// guarded by every lane's being open.
  SmallVector<std::pair<Value *, bool>, 1> OpenGates;
  /// The (index slot, sentinel) pairs of the candidates for which every
  /// stage keeps the lane's own state when both lanes hold no element: a
  /// group without an element leaves each lane its own pair.
  SmallVector<EmptyPair, 4> EmptyKeepsOwn;
};

/// A chain proved and ready to replace (Recognizer::planChain), before any
/// edit: chains that share their exchanges are replaced together.
struct ChainPlan {
  SmallVector<unsigned, 8> Chain;
  SmallVector<Component, 2> Comps;
  ChainLanes CL;
  ChainProof P;
  Candidate C;
  bool Proven = false;
  Guard G;           ///< what a run-time guard must check (needed() or not)
  bool Done = false; ///< replaced
};

class Recognizer {
public:
  Recognizer(Function &F, const ChipInfo &Chip, DominatorTree &DT,
             PostDominatorTree &PDT, OptimizationRemarkEmitter &ORE,
             argrec::StageCache &Cache, ArrayRef<LadderVersion> Versions,
             function_ref<void()> BeforeChange)
      : F(F), Chip(Chip), DT(DT), PDT(PDT), ORE(ORE), Cache(Cache),
        BeforeChange(BeforeChange), Versions(Versions) {
    for (const LadderVersion &V : Versions) {
      for (Instruction *I : V.CopyCalls)
        CopyOf[I] = &V;
      for (Instruction *I : V.LoopCalls)
        LoopOf[I] = &V;
    }
  }
  bool run();
  /// Whether the chain holding \p Call was replaced (a guarded rewrite
  /// keeps it as the fallback).
  bool rewritten(const Instruction *Call) const {
    return RewrittenCalls.count(Call);
  }
  bool rewroteAny() const { return !RewrittenCalls.empty(); }

private:
  Function &F;
  const ChipInfo &Chip;
  DominatorTree &DT;
  PostDominatorTree &PDT;
  OptimizationRemarkEmitter &ORE;
  argrec::StageCache &Cache;
  function_ref<void()> BeforeChange; ///< called before the first edit
  ArrayRef<LadderVersion> Versions;
  SmallVector<Stage, 8> Stages;
  SmallVector<SmallSetVector<Instruction *, 32>, 8> Closures;
  /// Ladder loops (LadderLoops.h): shuffles of an unrolled copy, with its
  /// iteration count, and the loop's own, which the copy's remark covers.
  DenseMap<const Instruction *, const LadderVersion *> CopyOf, LoopOf;
  /// Which ladder loop a stage belongs to: its unrolled copy, the loop
  /// itself, or neither. A chain stays within one.
  std::pair<const LadderVersion *, bool> ladderOf(const Stage &S) const {
    const Instruction *I = S.Calls.front();
    if (const LadderVersion *V = CopyOf.lookup(I))
      return {V, true};
    return {LoopOf.lookup(I), false};
  }
  SmallPtrSet<const Instruction *, 16> RewrittenCalls;
  std::string loopNote(const Stage &S) const;
  template <typename RemarkT>
  void emitRemark(const Stage &S, Instruction *At, StringRef Name,
                  StringRef CopyName, const std::string &Msg);

  void collectStages();
  void splitUnrelatedWords();
  bool forEachControlledPhi(BranchInst *Br,
                            function_ref<void(Instruction *)> Add);
  void computeClosures();
  bool splitMixedPhis();
  Stage &classify(unsigned SI);
  void printStage(raw_ostream &OS, unsigned SI);
  int namedXorOffset(const Stage &S);
  const char *arithmeticUse(const Stage &S) const;
  /// Exchanges whose values are summed or multiplied (stage, opcode),
  /// reported together at the end of run().
  SmallVector<std::pair<unsigned, const char *>, 8> ArithmeticStages;
  std::optional<SmallVector<unsigned, 64>> sourceLanes(Value *Addr,
                                                       bool &UsesTid);
  std::optional<SmallVector<unsigned, 64>> callSources(CallInst *CI,
                                                       bool &UsesTid);
  std::optional<LaneVector> lanes(Value *V, unsigned Depth = 0);
  std::optional<LaneVector> lanesOrTid(Value *V, bool &UsesTid);
  std::optional<SmallVector<LaneVector, 32>> lanesPerTidWave(Value *V);
  DenseMap<Value *, std::optional<LaneVector>> LaneMemo, TidMemo;
  /// While set, lanes() takes threadIdx.x to be lane + TidWave * wave size.
  std::optional<unsigned> TidWave;
  /// Thread ids lane maps and conditions were evaluated on since the
  /// chain's result checks began (classify keeps a stage's own).
  argrec::TidLeafSet UsedTidLeaves;
  unsigned CFGEdits = 0; ///< guarded rewrites and phi splits (new blocks)
  SmallVector<WeakVH, 4> Guards;

  std::optional<ChainPlan> planChain(ArrayRef<unsigned> Chain);
  unsigned applyPlans(MutableArrayRef<ChainPlan> Plans);
  bool isPlainRead(unsigned SI);
  SmallVector<uint64_t, 2> sentinelsOf(unsigned SI, ArrayRef<Component> Comps);
  bool checkLaneMaps(ArrayRef<unsigned> Chain, unsigned NWords, ChainLanes &CL);
  std::pair<unsigned, std::string> checkXorOrDown(ArrayRef<unsigned> Chain,
                                                  ChainLanes &CL);
  bool proveStages(ArrayRef<unsigned> Chain, ArrayRef<Component> Comps,
                   ArrayRef<Candidate> Cands, const ChainLanes &CL,
                   ChainProof &P);
  bool isWaveUniform(Value *V, unsigned Depth = 0);
  std::optional<StageGate> gateOf(const Stage &S, Value *Cond,
                                  unsigned Cluster);
  bool checkGate(ArrayRef<unsigned> Chain, const ChainProof &P,
                 const ChainLanes &CL, const Candidate &C);
  Value *buildEmptyLane(IRBuilder<> &B, const StageGate &G, unsigned Cluster);
  bool pickCandidate(ArrayRef<unsigned> Chain, unsigned NComps,
                     ArrayRef<Candidate> Cands, const ChainProof &P,
                     Candidate &C, bool &Proven);
  bool checkResults(const Stage &First, const ChainProof &P, ChainLanes &CL,
                    bool &UsesTid);
  void fillGuard(ChainPlan &Pl, bool UsesTid);
  void refuseUnguardable(const ChainPlan &Pl, const Twine &Why);
  Value *rewrite(const ChainPlan &Pl, Instruction *At, unsigned Guarded,
                 SmallVectorImpl<Value *> &NewOut);
  void refuse(const Stage &S, StringRef Reason, const Twine &Why);
  /// While set, refuse() keeps its first refusal here instead of reporting
  /// it (a proof tried again under an assumption).
  struct Refusal {
    const Stage *S;
    std::string Reason, Why;
  };
  std::optional<Refusal> *Deferred = nullptr;
  bool proveWithIndexBound(ArrayRef<unsigned> Chain,
                           MutableArrayRef<Component> Comps, bool Unsigned,
                           const ChainLanes &CL, ChainProof &P, Candidate &C,
                           bool &Proven, SmallVectorImpl<unsigned> &Assumed);
  Value *compValue(IRBuilder<> &B, const Stage &First, const Component &Cm);
  CallInst *emitOperation(IRBuilder<> &B, const Stage &First,
                          ArrayRef<Component> Comps, const Candidate &C,
                          unsigned Cluster, ArrayRef<Value *> In,
                          MutableArrayRef<Value *> Results);
  void encodeSentinel(IRBuilder<> &B, const Candidate &C, Value *None,
                      Value *&Val, Value *&Idx);
  Value *emitGuard(IRBuilder<> &B, const Guard &G, Value *Val, Value *ResVal,
                   Value *Idx, Value *ResIdx, Value *RawVal, Value *None,
                   Value *BelowBound);
  Value *buildPartialGroup(IRBuilder<> &B, unsigned Group,
                           function_ref<Value *()> LaneId);
  std::optional<ChainRegion> findRegion(Instruction *Begin,
                                        ArrayRef<Output> Outputs,
                                        std::string &Why);
  bool collectHoist(Instruction *I, ChainRegion &R);
  bool tryHoist(Instruction *I, ChainRegion &R);
  bool trySink(Instruction *I, ChainRegion &R);
  bool wordsAvailableAt(const Stage &First, Instruction *At,
                        SmallSetVector<Instruction *, 8> &Move);
  bool hoistWords(const Stage &First, Instruction *At);
  using ChainGroup = SmallVector<SmallVector<unsigned, 8>, 2>;
  Instruction *firstExchange(ArrayRef<Instruction *> Starts);
  bool interleaves(ArrayRef<SmallVector<unsigned, 8>> Earlier,
                   ArrayRef<SmallVector<unsigned, 8>> Later);
  void mergeInterleaved(SmallVectorImpl<ChainGroup> &Groups);
  bool hoistOutputs(Instruction *LastCall, ArrayRef<Output> Outputs);
  bool hoistOutputsTo(Instruction *Start, ArrayRef<Output> Outputs,
                      bool Early = false);
  bool isNeverNaN(Value *V, SmallPtrSetImpl<const PHINode *> &Assumed,
                  const Instruction *At, unsigned Depth = 0);
  bool isAtLeast(Value *V, int64_t Least,
                 SmallPtrSetImpl<const PHINode *> &Assumed,
                 const Instruction *At, unsigned Depth = 0);
  void boundIntegers(ArrayRef<unsigned> Chain,
                     MutableArrayRef<Component> Comps);
  void narrowRange(Value *V, const Instruction *At, Component &C);
  bool readOnlyInLanes(ArrayRef<Output> Outputs, uint64_t Lanes, bool &UsesTid,
                       std::string &Why);
  uint64_t readGroups(ArrayRef<Output> Outputs, const ChainLanes &CL,
                      bool UsesTid);
  bool onlyInLanes(BasicBlock *BB, uint64_t Lanes, bool &UsesTid);
  void insertFallback(const ChainRegion &R, Value *Fast,
                      ArrayRef<Output> Outputs, ArrayRef<Value *> NewOut);

public:
  bool cfgChanged() const { return CFGEdits; }
  /// The guards' branches; successor 1 is the fallback.
  ArrayRef<WeakVH> guards() const { return Guards; }
};

/// For a stage of a ladder loop's unrolled copy: what the remark is about.
std::string Recognizer::loopNote(const Stage &S) const {
  const LadderVersion *V = CopyOf.lookup(S.Calls.front());
  if (!V)
    return "";
  std::string Others;
  if (!V->Secondary) {
    for (const LadderVersion &O : Versions)
      if (O.Secondary && O.LoopHeader == V->LoopHeader)
        Others += (Others.empty() ? "" : ", ") + std::to_string(O.Iterations);
    if (!Others.empty())
      Others =
          "; copies for " + Others + " iterations: -Rpass-analysis=" DEBUG_TYPE;
  }
  return " [a loop with a run-time trip count, unrolled for its " +
         std::to_string(V->Iterations) + "-iteration case" +
         (V->BallotGuard ? " (entered when every active lane's count is "
                           "that one)"
                         : "") +
         Others + "; the loop runs for other counts]";
}

void Recognizer::refuse(const Stage &S, StringRef Reason, const Twine &Why) {
  if (Deferred) {
    if (!*Deferred)
      *Deferred = Refusal{&S, Reason.str(), Why.str()};
    return;
  }
  ++NumRefused;
  CROSSLANE_DEBUG(dbgs() << "  refused (" << Reason << "): " << Why << "\n");
  // A ladder loop's own chain is reported through its unrolled copies.
  if (LoopOf.count(S.Calls.front()))
    return;
  emitRemark<OptimizationRemarkMissed>(S, S.Calls.front(), Reason, Reason,
                                       ("cross-lane butterfly not replaced (" +
                                        Reason + "): " + Why + loopNote(S))
                                           .str());
}

/// Emits \p Msg about the chain starting at \p S, at \p At: as a \p RemarkT
/// named \p Name, or, for a ladder loop's copy for fewer lanes than its first
/// copy, as an analysis remark named \p CopyName (-Rpass gives one line per
/// loop; the first copy's remark names the others).
template <typename RemarkT>
void Recognizer::emitRemark(const Stage &S, Instruction *At, StringRef Name,
                            StringRef CopyName, const std::string &Msg) {
  const LadderVersion *Copy = CopyOf.lookup(S.Calls.front());
  if (Copy && Copy->Secondary)
    ORE.emit([&]() {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, CopyName, userDebugLoc(At),
                                        At->getParent())
             << Msg;
    });
  else
    ORE.emit([&]() {
      return RemarkT(DEBUG_TYPE, Name, userDebugLoc(At), At->getParent())
             << Msg;
    });
}

/// The key of the stage \p CI belongs to in its block: ds_bpermute by
/// address; 32-bit DPP, ds_swizzle and permlane moves by the intrinsic and
/// their constant controls; Vortex shuffles by the instruction and its
/// constant operand.
static std::optional<std::pair<Value *, uint64_t>> stageKey(CallInst *CI) {
  if (auto VS = argrec::decodeVortexShuffle(CI))
    return std::make_pair(CI->getCalledOperand(), uint64_t(VS->Bc));
  auto *II = dyn_cast<IntrinsicInst>(CI);
  if (!II)
    return std::nullopt;
  Intrinsic::ID IID = II->getIntrinsicID();
  if (IID == Intrinsic::amdgcn_ds_bpermute)
    return std::make_pair(II->getArgOperand(0), uint64_t(0));
  // The control operands and their widths: dpp_ctrl, row_mask, bank_mask,
  // bound_ctrl; the swizzle offset; permlane's sel_lo, sel_hi.
  unsigned First = 0;
  SmallVector<unsigned, 4> Width;
  switch (IID) {
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_mov_dpp:
    First = IID == Intrinsic::amdgcn_update_dpp ? 2 : 1;
    Width = {16, 4, 4, 1};
    break;
  case Intrinsic::amdgcn_ds_swizzle:
    First = 1, Width = {16};
    break;
  case Intrinsic::amdgcn_permlane16:
  case Intrinsic::amdgcn_permlanex16:
    First = 2, Width = {32, 32};
    break;
  case Intrinsic::amdgcn_permlane64:
    break;
  default:
    return std::nullopt;
  }
  if (!II->getType()->isIntegerTy(32))
    return std::nullopt;
  uint64_t Code = 0;
  for (auto [K, Bits] : enumerate(Width)) {
    auto *C = dyn_cast<ConstantInt>(II->getArgOperand(First + K));
    if (!C)
      return std::nullopt;
    Code = (Code << Bits) | maskTo(C->getZExtValue(), Bits);
  }
  return std::make_pair(II->getCalledFunction(), Code);
}

void Recognizer::collectStages() {
  MapVector<std::tuple<Value *, uint64_t, BasicBlock *>, unsigned> Index;
  DenseMap<const Instruction *, unsigned> Order;
  // ds_bpermute addresses computed twice (clang may repeat the bounds
  // arithmetic per shuffle) are one address when their lanes agree.
  std::map<std::pair<BasicBlock *, std::vector<int64_t>>, Value *> SameLanes;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB) {
      auto *CI = dyn_cast<CallInst>(&I);
      // Crosslane's own expansions (a second device pipeline, -fgpu-rdc)
      // are not hand-written stages.
      if (!CI || CI->hasMetadata(subgroup::ExpandedLaneMoveMD))
        continue;
      auto K = stageKey(CI);
      if (!K)
        continue;
      if (CI->getIntrinsicID() == Intrinsic::amdgcn_ds_bpermute)
        if (std::optional<LaneVector> A = lanes(K->first))
          K->first =
              SameLanes
                  .try_emplace({BB, std::vector<int64_t>(A->begin(), A->end())},
                               K->first)
                  .first->second;
      Order[CI] = Order.size();
      auto [It, New] = Index.try_emplace(
          std::make_tuple(K->first, K->second, BB), Stages.size());
      if (New) {
        Stages.emplace_back();
        Stages.back().BB = BB;
      }
      Stages[It->second].Calls.push_back(CI);
    }
  splitUnrelatedWords();
  // Stages are numbered in program order (computeClosures relies on it); a
  // part split off a stage starts later.
  llvm::stable_sort(Stages, [&](const Stage &A, const Stage &B) {
    return Order[A.Calls.front()] < Order[B.Calls.front()];
  });
}

/// Whether \p V is computed from \p Call (a bounded search of its operands;
/// false when the bound is reached).
static bool dependsOn(Value *V, const Instruction *Call) {
  SmallPtrSet<Value *, 32> Seen;
  SmallVector<Value *, 32> Work{V};
  while (!Work.empty() && Seen.size() < 4096) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (I == Call)
      return true;
    append_range(Work, I->operands());
  }
  return false;
}

/// Calls \p Add on each phi whose incoming edge \p Br may decide: the
/// phis of the blocks reached from \p Br up to and including its immediate
/// post-dominator. False when that block is not known (several exits) or
/// the region is large.
bool Recognizer::forEachControlledPhi(BranchInst *Br,
                                      function_ref<void(Instruction *)> Add) {
  if (Br->isUnconditional())
    return true;
  DomTreeNode *N = PDT.getNode(Br->getParent());
  BasicBlock *Join = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
  if (!Join)
    return false;
  SmallPtrSet<BasicBlock *, 16> Seen;
  SmallVector<BasicBlock *, 16> Work(successors(Br->getParent()));
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    if (Seen.size() > 64)
      return false;
    for (PHINode &Phi : BB->phis())
      Add(&Phi);
    if (BB != Join)
      append_range(Work, successors(BB));
  }
  return true;
}

/// Splits a stage whose reads do not belong together: a read of a word
/// computed from another read of the stage comes from a later exchange (an
/// index butterfly over what a value butterfly chose, both with the same
/// lane addresses in one block), and words that feed disjoint combines (two
/// butterflies with the same offsets, e.g. softmax's max and sum
/// interleaved, or two (value, index) pairs chosen one after the other) are
/// separate. Each group becomes a stage of its own, which remembers the
/// stage it was split from (its siblings are rewritten together).
void Recognizer::splitUnrelatedWords() {
  SmallVector<Stage, 8> Out;
  // Parts of one layer of one stage share an origin (a later layer's words
  // come from an earlier one's results: it is replaced after it).
  std::map<std::pair<unsigned, unsigned>, unsigned> Origins;
  for (auto [SI, S] : enumerate(Stages)) {
    unsigned N = S.Calls.size();
    // Layer: how many reads of the stage precede this one's word.
    SmallVector<unsigned, 4> Layer(N, 0);
    for (unsigned K = 1; K < N; ++K)
      for (unsigned J = 0; J < K; ++J)
        if (Layer[J] >= Layer[K] &&
            dependsOn(exchangedWord(S.Calls[K]), S.Calls[J]))
          Layer[K] = Layer[J] + 1;
    // The combine operations each word's partner value flows into. A
    // branch on such a value also decides the phis of the blocks up to
    // where its paths meet again (its immediate post-dominator), not
    // beyond: two pairs chosen by `if`s one after the other are separate.
    bool Whole = false;
    SmallVector<SmallPtrSet<Instruction *, 16>, 4> Slice(N);
    for (unsigned K = 0; K < N && !Whole; ++K) {
      SmallVector<Instruction *, 16> Work{S.Calls[K]};
      auto Add = [&](Instruction *I) {
        if (Slice[K].insert(I).second)
          Work.push_back(I);
      };
      while (!Work.empty() && !Whole)
        for (User *U : Work.pop_back_val()->users()) {
          auto *UI = dyn_cast<Instruction>(U);
          if (auto *Br = dyn_cast_or_null<BranchInst>(UI)) {
            Whole |= !forEachControlledPhi(Br, Add);
          } else if (UI && UI->isTerminator()) {
            Whole = true; // a switch: not followed
          } else if (UI && isCombineOp(*UI)) {
            Add(UI);
          }
        }
    }
    SmallVector<unsigned, 4> Group(N);
    for (unsigned K = 0; K < N; ++K)
      Group[K] = K;
    for (unsigned I = 0; I < N; ++I)
      for (unsigned J = I + 1; J < N; ++J)
        if (Layer[I] == Layer[J] &&
            (Whole || any_of(Slice[I], [&](Instruction *X) {
               return Slice[J].count(X);
             })))
          for (unsigned &G : Group)
            if (G == Group[J])
              G = Group[I];
    SmallVector<unsigned, 4> Roots(Group.begin(), Group.end());
    llvm::sort(Roots);
    Roots.erase(llvm::unique(Roots), Roots.end());
    for (unsigned R : Roots) {
      Stage Part;
      Part.BB = S.BB;
      Part.Origin =
          Origins.try_emplace({unsigned(SI), Layer[R]}, Origins.size())
              .first->second;
      for (unsigned K = 0; K < N; ++K)
        if (Group[K] == R)
          Part.Calls.push_back(S.Calls[K]);
      Out.push_back(std::move(Part));
    }
  }
  Stages = std::move(Out);
}

/// Assigns every compare/select instruction fed by partners to the latest
/// stage it depends on (program order = RPO, so stages are numbered in it).
void Recognizer::computeClosures() {
  Closures.resize(Stages.size());
  DenseMap<Value *, unsigned> Level;
  for (auto [SI, S] : enumerate(Stages))
    for (CallInst *C : S.Calls)
      Level[C] = SI;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB) {
      if (Level.count(&I) || !isCombineOp(I))
        continue;
      std::optional<unsigned> L;
      for (Value *Op : I.operands())
        if (auto It = Level.find(Op); It != Level.end())
          L = L ? std::max(*L, It->second) : It->second;
      if (!L)
        continue;
      Level[&I] = *L;
      Closures[*L].insert(&I);
    }
}

/// The lane each lane's ds_bpermute with address \p Addr reads on the chip,
/// if the address is a lane expression (\p UsesTid: of threadIdx.x).
std::optional<SmallVector<unsigned, 64>>
Recognizer::sourceLanes(Value *Addr, bool &UsesTid) {
  std::optional<LaneVector> A = lanesOrTid(Addr, UsesTid);
  if (!A)
    return std::nullopt;
  SmallVector<unsigned, 64> Src;
  for (auto [L, Bytes] : enumerate(*A))
    Src.push_back(Chip.bpermuteSourceLane(L, uint64_t(Bytes)));
  return Src;
}

/// The lane each lane of \p CI (a cross-lane read) reads on the chip, or
/// NoLane where it gets a zero fill or an old value other than its own
/// source word; nullopt when not known. \p UsesTid: the map holds where
/// threadIdx.x % wave size is the lane id.
std::optional<SmallVector<unsigned, 64>>
Recognizer::callSources(CallInst *CI, bool &UsesTid) {
  UsesTid = false;
  unsigned W = Chip.WaveSize;
  if (auto VS = argrec::decodeVortexShuffle(CI)) {
    SmallVector<unsigned, 64> Src;
    for (unsigned L = 0; L < W; ++L)
      Src.push_back(argrec::vortexShuffleSource(*VS, L, W));
    return Src;
  }
  auto *II = dyn_cast<IntrinsicInst>(CI);
  if (!II)
    return std::nullopt;
  auto ConstArg = [&](unsigned K) -> std::optional<uint64_t> {
    if (auto *C = dyn_cast<ConstantInt>(II->getArgOperand(K)))
      return C->getZExtValue();
    return std::nullopt;
  };
  SmallVector<unsigned, 64> Src(W, NoLane);
  switch (II->getIntrinsicID()) {
  case Intrinsic::amdgcn_ds_bpermute:
    return sourceLanes(II->getArgOperand(0), UsesTid);
  case Intrinsic::amdgcn_readlane: {
    auto L = ConstArg(1);
    if (!L)
      return std::nullopt;
    Src.assign(W, unsigned(*L % W));
    return Src;
  }
  case Intrinsic::amdgcn_ds_swizzle: {
    auto Off = ConstArg(1);
    if (!Off || Chip.swizzleSourceLane(*Off, 0) < 0)
      return std::nullopt;
    for (unsigned L = 0; L < W; ++L)
      Src[L] = Chip.swizzleSourceLane(*Off, L);
    return Src;
  }
  case Intrinsic::amdgcn_permlane16:
  case Intrinsic::amdgcn_permlanex16: {
    // Lane j of a row reads lane sel[j] (a nibble of sel_hi:sel_lo) of its
    // row, or for permlanex16 of the other row of its 32 (research §1.4).
    auto Lo = ConstArg(2), Hi = ConstArg(3);
    if (!Lo || !Hi || !Chip.HasPermLaneX16)
      return std::nullopt;
    uint64_t Sel = (*Hi << 32) | maskTo(*Lo, 32);
    bool Cross = II->getIntrinsicID() == Intrinsic::amdgcn_permlanex16;
    for (unsigned L = 0; L < W; ++L)
      Src[L] = ChipInfo::permlaneSourceLane(L, Sel >> (4 * (L % 16)), Cross);
    return Src;
  }
  case Intrinsic::amdgcn_permlane64:
    if (!Chip.HasPermLane64)
      return std::nullopt;
    for (unsigned L = 0; L < W; ++L)
      Src[L] = Chip.permlane64SourceLane(L);
    return Src;
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_mov_dpp: {
    bool HasOld = II->getIntrinsicID() == Intrinsic::amdgcn_update_dpp;
    unsigned B = HasOld ? 1 : 0;
    auto Ctrl = ConstArg(B + 1), RowMask = ConstArg(B + 2),
         BankMask = ConstArg(B + 3), BC = ConstArg(B + 4);
    if (!Ctrl || !RowMask || !BankMask || !BC ||
        !Chip.checkDPPCtrl(*Ctrl).empty())
      return std::nullopt;
    // A lane not written, or whose source is out of range without
    // bound_ctrl, keeps old: its own word when old is the source.
    bool OldIsOwn = HasOld && II->getArgOperand(0) == II->getArgOperand(1);
    for (unsigned L = 0; L < W; ++L) {
      int From = Chip.dppRead(*Ctrl, *RowMask, *BankMask, *BC, L);
      if (From >= 0)
        Src[L] = From;
      else if (From == ChipInfo::DPPKeepsOld && OldIsOwn)
        Src[L] = L;
    }
    return Src;
  }
  default:
    return std::nullopt;
  }
}

Stage &Recognizer::classify(unsigned SI) {
  Stage &S = Stages[SI];
  if (!S.Classified) {
    S.Classified = true;
    // The stage keeps the thread ids its own map reads (planChain
    // gathers its stages'); what was being collected is left as it was.
    argrec::TidLeafSet Outer = std::move(UsedTidLeaves);
    UsedTidLeaves.clear();
    scope_exit KeepLeaves([&] {
      S.TidLeaves = std::move(UsedTidLeaves);
      UsedTidLeaves = std::move(Outer);
    });
    // The stage's map: where its reads agree (a lane with NoLane in one
    // word has nothing usable).
    for (CallInst *C : S.Calls) {
      bool Tid;
      auto Src = callSources(C, Tid);
      S.UsesTid |= Tid;
      if (!Src) {
        S.Sources.reset();
        break;
      }
      if (!S.Sources)
        S.Sources = std::move(Src);
      else
        for (auto [L, From] : enumerate(*Src))
          if ((*S.Sources)[L] != From)
            (*S.Sources)[L] = NoLane;
    }
    if (S.Sources) {
      S.Offset = xorOffsetOf(*S.Sources);
      if (S.Offset == 0)
        S.NamedOffset = namedXorOffset(S);
      unsigned From0 = (*S.Sources)[0];
      if (S.Offset < 0 && From0 > 0 && From0 < Chip.WaveSize) {
        S.Offset = From0;
        S.Down = true;
      }
    }
  }
  return S;
}

/// The xor offset the addresses of \p S's ds_bpermute calls name, before
/// the chip confines the read to the lane's 32-lane half; -1 if none.
int Recognizer::namedXorOffset(const Stage &S) {
  auto *II = dyn_cast<IntrinsicInst>(S.Calls.front());
  if (!II || II->getIntrinsicID() != Intrinsic::amdgcn_ds_bpermute)
    return -1;
  bool UsesTid;
  std::optional<LaneVector> A = lanesOrTid(II->getArgOperand(0), UsesTid);
  if (!A)
    return -1;
  SmallVector<unsigned, 64> Named;
  for (uint64_t Bytes : *A)
    Named.push_back(unsigned(Bytes / 4) % Chip.WaveSize);
  return xorOffsetOf(Named);
}

/// \p V's value in every lane of the wave, if it is a lane expression;
/// memoised per function (cleared when a rewrite deletes code).
std::optional<LaneVector> Recognizer::lanes(Value *V, unsigned Depth) {
  auto &Memo = TidWave ? TidMemo : LaneMemo;
  if (auto It = Memo.find(V); It != Memo.end())
    return It->second;
  unsigned W = Chip.WaveSize;
  std::optional<LaneVector> R;
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    R = LaneVector(W, C->getSExtValue());
  } else if (TidWave && (isWorkItemIdX(V) || isLinearThreadId(V))) {
    UsedTidLeaves.insert(V);
    R = LaneVector(W);
    for (unsigned L = 0; L < W; ++L)
      (*R)[L] = L + *TidWave * W;
  } else if (auto *I = dyn_cast<Instruction>(V);
             I && Depth <= 24 && !isa<PHINode>(I)) {
    auto *CB = dyn_cast<CallBase>(I);
    unsigned NOps = CB ? CB->arg_size() : I->getNumOperands();
    SmallVector<std::optional<LaneVector>, 3> Ops;
    for (unsigned N = 0; N < NOps; ++N)
      Ops.push_back(lanes(I->getOperand(N), Depth + 1));
    LaneVector Out(W);
    SmallVector<LaneValue, 3> At(NOps);
    bool Ok = true;
    for (unsigned L = 0; L < W && Ok; ++L) {
      for (unsigned N = 0; N < NOps; ++N)
        At[N] = Ops[N] ? LaneValue((*Ops[N])[L]) : std::nullopt;
      LaneValue X = evalLaneOp(I, At, L, W);
      Ok = X.has_value();
      if (Ok)
        Out[L] = *X;
    }
    if (Ok)
      R = std::move(Out);
  }
  Memo[V] = R;
  return R;
}

/// \p V in every lane, also when it reads threadIdx.x: then it must be the
/// same for threadIdx.x = lane + K * wave size for each K a 1024-thread
/// block allows, so it holds where threadIdx.x % wave size is the lane id
/// (1-D blocks; the guard checks it), and \p UsesTid is set.
std::optional<LaneVector> Recognizer::lanesOrTid(Value *V, bool &UsesTid) {
  UsesTid = false;
  if (std::optional<LaneVector> R = lanes(V))
    return R;
  unsigned LeavesBefore = UsedTidLeaves.size();
  std::optional<LaneVector> Common;
  if (auto Waves = lanesPerTidWave(V);
      Waves &&
      all_of(*Waves, [&](const LaneVector &R) { return R == Waves->front(); }))
    Common = Waves->front();
  UsesTid = Common.has_value();
  while (!UsesTid && UsedTidLeaves.size() > LeavesBefore)
    UsedTidLeaves.pop_back();
  return Common;
}

/// \p V in every lane with threadIdx.x = lane + K * wave size, one vector
/// per K a 1024-thread block allows; nullopt if some K cannot be evaluated.
/// The thread ids read are added to UsedTidLeaves.
std::optional<SmallVector<LaneVector, 32>>
Recognizer::lanesPerTidWave(Value *V) {
  SmallVector<LaneVector, 32> Waves;
  for (unsigned K = 0; K < 1024 / Chip.WaveSize; ++K) {
    TidWave = K;
    TidMemo.clear();
    std::optional<LaneVector> R = lanes(V);
    if (!R)
      break;
    Waves.push_back(std::move(*R));
  }
  TidWave.reset();
  TidMemo.clear();
  if (Waves.size() != 1024 / Chip.WaveSize)
    return std::nullopt;
  return Waves;
}

/// A chain inside `if (...)` ends in phis that also merge the values of the
/// lanes that skipped it (`phi [result, chain], [v, outside]`), so no value
/// is the chain's result. Gives the chain's edges a block of their own,
/// whose phis are.
bool Recognizer::splitMixedPhis() {
  SmallVector<std::pair<BasicBlock *, SmallVector<BasicBlock *, 4>>, 4> Splits;
  for (auto [SI, Closure] : enumerate(Closures))
    for (Instruction *I : Closure) {
      auto *Phi = dyn_cast<PHINode>(I);
      if (!Phi || any_of(Splits, [&](const auto &Sp) {
            return Sp.first == Phi->getParent();
          }))
        continue;
      SmallVector<BasicBlock *, 4> Inside;
      bool Outside = false;
      for (BasicBlock *Pred : predecessors(Phi->getParent())) {
        if (DT.dominates(Stages[SI].BB, Pred))
          Inside.push_back(Pred);
        else
          Outside = true;
      }
      if (Outside && !Inside.empty() && !Phi->getParent()->isEHPad())
        Splits.push_back({Phi->getParent(), Inside});
    }
  if (!Splits.empty())
    BeforeChange();
  for (auto &[BB, Inside] : Splits)
    SplitBlockPredecessors(BB, Inside, ".crosslane.out");
  CFGEdits += Splits.size();
  return !Splits.empty();
}

/// True if the partner words \p LoCall and \p HiCall are joined into one
/// i64 as `(zext hi << 32) | zext lo` (or `sext hi`: the same bits once
/// shifted; InstCombine's choice for a signed int64) that the combine
/// compares as a number
/// (a packed key). A join that is only selected is a struct of two words
/// (clang selects a {float, int} as one i64).
static bool joinedAsI64(Instruction *LoCall, Instruction *HiCall) {
  for (User *U : LoCall->users()) {
    if (!match(U, m_ZExt(m_Specific(LoCall))) || !U->getType()->isIntegerTy(64))
      continue;
    for (User *Or : U->users())
      if (match(Or,
                m_c_Or(m_Specific(U), m_Shl(m_ZExtOrSExt(m_Specific(HiCall)),
                                            m_SpecificInt(32)))) &&
          any_of(Or->users(),
                 [](User *K) { return isa<ICmpInst, MinMaxIntrinsic>(K); }))
        return true;
  }
  return false;
}

/// True if the word \p W carries an f16 value's bits zero-extended: `zext
/// (bitcast half)`, or `zext i16` bits that the partner's side (\p Call's
/// result) reads back as a half (a `__half` exchanged as its raw bits).
static bool travelsAsHalf(Value *W, Instruction *Call) {
  Value *X;
  if (match(W, m_ZExt(m_BitCast(m_Value(X)))) && X->getType()->isHalfTy())
    return true;
  if (!match(W, m_ZExt(m_Value(X))) || !X->getType()->isIntegerTy(16))
    return false;
  auto ReadAsHalf = [](User *U) {
    return isa<BitCastInst>(U) && U->getType()->isHalfTy();
  };
  return any_of(Call->users(), [&](User *T) {
    return isa<TruncInst>(T) && T->getType()->isIntegerTy(16) &&
           any_of(T->users(), ReadAsHalf);
  });
}

/// Slot kinds from the first stage's words: f32 bits, an i64 split into two
/// words, or an i32.
std::optional<SmallVector<Component, 2>>
componentsOf(const Stage &S, std::string &Why) {
  SmallVector<Value *, 2> W = S.words();
  SmallVector<Component, 2> Comps;
  SmallVector<bool, 4> Used(W.size(), false);
  for (unsigned I = 0; I < W.size(); ++I) {
    if (Used[I])
      continue;
    Value *X;
    // An i64 exchanged as two words: trunc X and trunc (lshr X, 32). A
    // truncated i64 whose high word is not exchanged is a 32-bit value
    // (`(int)threadIdx.x` from an i64 work-item id).
    // The low word may be cut from the value before a widening that keeps
    // it (`long long i = t`: trunc t, beside trunc (lshr (sext t), 32)).
    Value *Hi = nullptr;
    auto HighOf = [&](Value *Word, Value *Of) {
      Value *Y;
      return match(Word, m_Trunc(m_LShr(m_Value(Y), m_SpecificInt(32)))) &&
             lowWordSource(Y) == lowWordSource(Of);
    };
    if (match(W[I], m_Trunc(m_Value(X))) && X->getType()->isIntegerTy(64))
      for (unsigned J = 0; J < W.size(); ++J)
        if (J != I && !Used[J] && HighOf(W[J], X))
          Hi = W[J];
    // An `int` sign-extended to an int64 index: InstCombine exchanges its
    // low word as the `int` itself and its high word as `ashr int, 31`.
    bool SignExtended = false;
    if (!Hi && W[I]->getType()->isIntegerTy(32))
      for (unsigned J = 0; J < W.size() && !Hi; ++J)
        if (J != I && !Used[J] &&
            match(W[J], m_AShr(m_Specific(W[I]), m_SpecificInt(31)))) {
          Hi = W[J];
          SignExtended = true;
        }
    if (!Hi && match(W[I], m_Trunc(m_LShr(m_Value(X), m_SpecificInt(32)))) &&
        X->getType()->isIntegerTy(64) &&
        any_of(W, [&](Value *L) { return match(L, m_Trunc(m_Specific(X))); })) {
      Why = "a 64-bit value whose two halves are not both exchanged";
      return std::nullopt;
    }
    // Or two 32-bit words the combine joins into one i64 (a packed key
    // whose halves were exchanged as computed: `(hi << 32) | lo`).
    if (!Hi) {
      auto Joined = [&](unsigned J) {
        return J != I && !Used[J] && joinedAsI64(S.Calls[I], S.Calls[J]);
      };
      auto Js = seq<unsigned>(0, W.size());
      if (auto It = find_if(Js, Joined); It != Js.end()) {
        Used[I] = Used[*It] = true;
        Comps.push_back({SlotKind::Int64Lo, I, *It});
        continue;
      }
    }
    if (Hi) {
      Value *Src = nullptr;
      bool IsF64 = !SignExtended && match(X, m_BitCast(m_Value(Src)));
      if (IsF64 && !Src->getType()->isDoubleTy()) {
        Why = "a 64-bit value type other than i64 and f64";
        return std::nullopt;
      }
      unsigned HiIdx = find(W, Hi) - W.begin();
      Used[I] = Used[HiIdx] = true;
      Comps.push_back(
          {IsF64 ? SlotKind::Float64 : SlotKind::Int64Lo, I, HiIdx});
      continue;
    }
    if (travelsAsHalf(W[I], S.Calls[I])) {
      Used[I] = true;
      Comps.push_back({SlotKind::Float16, I, I});
      continue;
    }
    bool IsFloat = match(W[I], m_BitCast(m_Value(X))) && X->getType()->isFloatTy();
    for (User *U : S.Calls[I]->users())
      IsFloat |= isa<BitCastInst>(U) && U->getType()->isFloatTy();
    if (match(W[I], m_BitCast(m_Value(X))) && !X->getType()->isFloatTy()) {
      Why = "a value type other than i32, i64, f16 and f32";
      return std::nullopt;
    }
    Used[I] = true;
    Comps.push_back({IsFloat ? SlotKind::Float32 : SlotKind::Int32, I, I});
  }
  return Comps;
}

/// Every (self, partner) tuple over the components' representatives, as
/// rows of 2 * Comps.size() values (self's components, then partner's).
std::vector<uint64_t> allRepPairs(ArrayRef<SmallVector<uint64_t, 32>> Reps) {
  unsigned N = Reps.size();
  size_t Rows = 1;
  for (const auto &R : Reps)
    Rows *= R.size() * R.size();
  std::vector<uint64_t> Out(Rows * 2 * N);
  SmallVector<unsigned, 4> Ctr(2 * N, 0);
  for (size_t Row = 0; Row < Rows; ++Row) {
    uint64_t *T = Out.data() + Row * 2 * N;
    for (unsigned K = 0; K < 2 * N; ++K)
      T[K] = Reps[K % N][Ctr[K]];
    for (unsigned K = 0; K < 2 * N; ++K) {
      if (++Ctr[K] < Reps[K % N].size())
        break;
      Ctr[K] = 0;
    }
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// One stage's proof
//===----------------------------------------------------------------------===//

/// What a stage's proof depends on besides its combine program.
struct StageShape {
  ArrayRef<Component> Comps;
  ArrayRef<unsigned> WordOfSlot; ///< logical slot -> this stage's word
  bool Last;
  SmallVector<unsigned, 8> OutNodes; ///< program node of each output
  SmallVector<unsigned, 8> OutBits;  ///< 32 or 64
};

/// A way to read an output as the lane state: a word, or a (lo, hi) pair.
struct OutputMap {
  int Lo, Hi; ///< Hi: -1 for a 32-bit output, -2 for a zero-extended word
};

/// Per output, the words it may be: any word for 32 bits, an f16 word for
/// 16 bits (the half value itself), an i64 component's (lo, hi) words, an
/// i32 zero-extended, or two 32-bit components packed, for 64 bits.
SmallVector<SmallVector<OutputMap, 4>, 8> outputMaps(const StageShape &Sh) {
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

/// The result of evaluating one stage on every representative pair.
struct StageOutcome {
  StringRef Reason; ///< a refusal, or empty
  std::string Why;
  SmallVector<int, 8> Chosen; ///< per output: its map, or -1 (not a result)
  /// Per candidate, the pairs where the stage disagrees with it: all; those
  /// without NaN; those without NaN whose values differ in its order.
  SmallVector<unsigned, 16> Mismatch, NumberMismatch, OrderMismatch;
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

/// True if some output of the stage is one of the lanes' states.
static bool hasResult(const StageOutcome &R) {
  return any_of(R.Chosen, [](int C) { return C >= 0; });
}

StageOutcome refusal(StringRef Reason, const Twine &Why) {
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
static bool computedFrom(Value *V, function_ref<bool(Value *)> IsLeaf,
                         function_ref<bool(Instruction *)> Through,
                         unsigned Depth = 0) {
  if (isa<Constant>(V) || IsLeaf(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 6 || !Through(I))
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return computedFrom(Op, IsLeaf, Through, Depth + 1);
  });
}

/// Every (self, partner) pair of representative states for \p P's combine
/// (the constants it compares with among them), 2 x components per row;
/// with \p Empty, only pairs of two "no element" states.
std::vector<uint64_t> repTuples(const CombineProgram &P, const StageShape &Sh,
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
  return allRepPairs(Reps);
}

/// The words of \p Rows tuples from row \p First, word-major (word W of
/// row R at W * Rows + R), for the self (\p SW) and partner (\p PW) lanes.
void loadRows(const StageShape &Sh, ArrayRef<uint64_t> Tuples, unsigned First,
              unsigned Rows, std::vector<uint64_t> &SW,
              std::vector<uint64_t> &PW) {
  unsigned NComp = Sh.Comps.size();
  for (auto [CI, C] : enumerate(Sh.Comps)) {
    unsigned Lo = Sh.WordOfSlot[C.Lo] * Rows, Hi = Sh.WordOfSlot[C.Hi] * Rows;
    for (unsigned R = 0; R < Rows; ++R) {
      const uint64_t *T = Tuples.data() + size_t(First + R) * 2 * NComp;
      SW[Lo + R] = maskTo(T[CI], 32);
      PW[Lo + R] = maskTo(T[NComp + CI], 32);
      if (C.is64()) {
        SW[Hi + R] = T[CI] >> 32;
        PW[Hi + R] = T[NComp + CI] >> 32;
      }
    }
  }
}

/// True when \p P gives each output the lane's own words it is read as
/// (\p Chosen, the maps the stage's proof picked) on every representative
/// pair (with \p Empty, every pair of two "no element" states): the stage
/// keeps the lane's state (a gated stage's program with its gate closed).
bool keepsOwnState(const CombineProgram &P, const StageShape &Sh,
                   ArrayRef<int> Chosen, std::optional<EmptyPair> Empty = {}) {
  auto Maps = outputMaps(Sh);
  std::vector<uint64_t> Tuples = repTuples(P, Sh, Empty);
  unsigned NAll = Tuples.size() / (2 * Sh.Comps.size());
  unsigned NW = Sh.WordOfSlot.size();
  constexpr unsigned Block = 256;
  std::vector<uint64_t> SW(NW * Block), PW(NW * Block), Val(P.size() * Block);
  std::vector<int32_t> FailAt(P.size() * Block);
  for (unsigned First = 0; First < NAll; First += Block) {
    unsigned Rows = std::min(Block, NAll - First);
    loadRows(Sh, Tuples, First, Rows, SW, PW);
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

/// Evaluates \p P on every (self, partner) representative pair, finds which
/// of the two lanes each output copies, and counts, per candidate semantics,
/// the pairs where the stage disagrees with it.
StageOutcome evaluateStage(const CombineProgram &P, const StageShape &Sh,
                           ArrayRef<Candidate> Cands) {
  ArrayRef<Component> Comps = Sh.Comps;
  auto Maps = outputMaps(Sh);
  unsigned NOut = Maps.size(), NComp = Comps.size();
  SmallVector<unsigned, 9> Col(NOut + 1, 0); // first side column per output
  for (unsigned OI = 0; OI < NOut; ++OI)
    Col[OI + 1] = Col[OI] + Maps[OI].size();
  // Pass 1: evaluate every pair; keep the tuples and, per (output, map),
  // which side the output equals. Rows go through the program in blocks.
  std::vector<uint64_t> Tuples = repTuples(P, Sh);
  unsigned NAll = Tuples.size() / (2 * NComp), NW = Sh.WordOfSlot.size();
  // Sides[column][row]: which of the pair's states output column (an
  // output read through one of its maps) equals.
  std::vector<uint8_t> Sides(size_t(NAll) * Col[NOut], 0);
  SmallVector<bool, 16> Viable(Col[NOut], true);
  constexpr unsigned Block = 256;
  std::vector<uint64_t> SW(NW * Block), PW(NW * Block);
  std::vector<uint64_t> Val(P.size() * Block);
  std::vector<int32_t> FailAt(P.size() * Block);
  std::optional<StageOutcome> Failed;
  int32_t LastWhyMsg = -1; // why a last-stage value is not a result
  for (unsigned First = 0; First < NAll && !Failed; First += Block) {
    unsigned Rows = std::min(Block, NAll - First);
    loadRows(Sh, Tuples, First, Rows, SW, PW);
    P.run(ArrayRef(SW).take_front(NW * Rows),
          ArrayRef(PW).take_front(NW * Rows), Rows, Val, FailAt);
    // Failures, in row order: a stage's output must not fail; a last
    // stage's failing value is just not a result.
    for (unsigned R = 0; R < Rows && !Failed; ++R)
      for (unsigned OI = 0; OI < NOut; ++OI) {
        int32_t Fail = FailAt[Sh.OutNodes[OI] * Rows + R];
        if (!Maps[OI].empty() && Fail < 0)
          continue;
        if (!Sh.Last) {
          Failed = refusal(
              "NotAStage",
              Fail >= 0 ? "" : "a result is not made of the lane's words");
          Failed->WhyMsg = Fail;
          break;
        }
        if (Fail >= 0 && LastWhyMsg < 0)
          LastWhyMsg = Fail;
      }
    if (Failed)
      break;
    for (unsigned OI = 0; OI < NOut; ++OI) {
      const uint64_t *V = Val.data() + Sh.OutNodes[OI] * Rows;
      const int32_t *F = FailAt.data() + Sh.OutNodes[OI] * Rows;
      uint64_t Mask = Sh.OutBits[OI] >= 64
                          ? ~uint64_t(0)
                          : (uint64_t(1) << Sh.OutBits[OI]) - 1;
      for (auto [MI, M] : enumerate(Maps[OI])) {
        uint8_t *Sd = Sides.data() + size_t(Col[OI] + MI) * NAll + First;
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
          Viable[Col[OI] + MI] = false;
      }
    }
  }
  if (Failed)
    return *Failed;
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

  SmallVector<uint64_t, 2> Sentinels;
  for (const Candidate &C : Cands)
    if (C.Sentinel && !is_contained(Sentinels, *C.Sentinel))
      Sentinels.push_back(*C.Sentinel);

  // Pass 3: the side all outputs agree on, against each candidate.
  R.Mismatch.assign(Cands.size(), 0);
  R.NumberMismatch.assign(Cands.size(), 0);
  R.OrderMismatch.assign(Cands.size(), 0);
  SmallVector<const uint8_t *, 8> ChosenCols;
  for (unsigned OI = 0; OI < NOut; ++OI)
    if (R.Chosen[OI] >= 0)
      ChosenCols.push_back(&Sides[size_t(Col[OI] + R.Chosen[OI]) * NAll]);
  for (unsigned Row = 0; Row < NAll; ++Row) {
    const uint64_t *T = Tuples.data() + size_t(Row) * 2 * NComp;
    ArrayRef<uint64_t> S(T, NComp), Pt(T + NComp, NComp);
    uint8_t Sd = 3;
    for (const uint8_t *C : ChosenCols)
      Sd &= C[Row];
    if (!Sd) {
      if (!mixesZeros(Comps, S, Pt))
        return refusal("NotASelection",
                       "the outputs take the value and the index from "
                       "different lanes");
      R.MixedZeros = true;
      for (auto [CI, C] : enumerate(Cands))
        if (!C.IsArg || !C.ZerosEqual ||
            !mixesZeros(Comps[C.ValSlot], S[C.ValSlot], Pt[C.ValSlot])) {
          ++R.Mismatch[CI];
          ++R.NumberMismatch[CI];
          ++R.OrderMismatch[CI];
        }
      continue;
    }
    bool HasNaN = false;
    for (auto [I, Cm] : enumerate(Comps))
      HasNaN |= Cm.isNaN(S[I]) || Cm.isNaN(Pt[I]);
    for (auto [CI, C] : enumerate(Cands)) {
      // Only zero / non-zero counts matter; a mismatch on ordered values
      // implies the other two, so nothing more can change for C.
      if (R.OrderMismatch[CI])
        continue;
      Expect E = expected(C, Comps, S, Pt);
      bool Ok = E == Expect::Either || E == Expect::Ambiguous ||
                (E == Expect::Self && (Sd & uint8_t(Side::Self))) ||
                (E == Expect::Partner && (Sd & uint8_t(Side::Partner)));
      if (!Ok) {
        ++R.Mismatch[CI];
        R.NumberMismatch[CI] += !HasNaN;
        unsigned VI = C.IsArg ? C.ValSlot : 0;
        R.OrderMismatch[CI] +=
            !HasNaN && compareValue(C, Comps[VI], S[VI], Pt[VI]) != 0;
      }
    }
    // A butterfly without an index tie-break keeps self on equal values
    // (a "no element" index is no tie: it loses).
    auto AnySentinel = [&] {
      auto IsSentinel = [&](uint64_t I) { return is_contained(Sentinels, I); };
      for (unsigned K = 0; K < NComp; ++K)
        if (!Comps[K].isFloat() && (IsSentinel(S[K]) || IsSentinel(Pt[K])))
          return true;
      return false;
    };
    if (NComp == 2 && Sd == uint8_t(Side::Self) && !AnySentinel())
      for (unsigned V = 0; V < 2; ++V)
        if (S[V] == Pt[V] && S[1 - V] != Pt[1 - V] && !Comps[1 - V].isFloat() &&
            !Comps[V].isNaN(S[V])) {
          unsigned IB = Comps[1 - V].is64() ? 64 : 32;
          bool Lower = sext(Pt[1 - V], IB) < sext(S[1 - V], IB);
          R.TieKeepsSelf[V][0][Lower ? 0 : 1] = true;
          bool ULower = maskTo(Pt[1 - V], IB) < maskTo(S[1 - V], IB);
          R.TieKeepsSelf[V][1][ULower ? 0 : 1] = true;
        }
  }
  return R;
}

} // namespace

namespace argrec {
/// Stage proofs by key: a chain's stages, and the same code in other kernels
/// of the module, share one evaluation.
class StageCache {
public:
  const StageOutcome &get(const CombineProgram &P, const StageShape &Sh,
                          ArrayRef<Candidate> Cands) {
    std::string Key = P.key();
    raw_string_ostream OS(Key);
    OS << "|last" << Sh.Last << "|slots";
    for (unsigned W : Sh.WordOfSlot)
      OS << ' ' << W;
    for (const Component &C : Sh.Comps)
      OS << "|c" << unsigned(C.Kind) << ',' << C.Lo << ',' << C.Hi << ','
         << C.Least << ',' << C.Most;
    for (unsigned B : Sh.OutBits)
      OS << "|b" << B;
    // The candidate list (the outcome is indexed by it).
    OS << "|n" << Cands.size();
    for (const Candidate &C : Cands) {
      if (C.Sentinel)
        OS << "|s" << *C.Sentinel;
      if (C.UnsignedIdx)
        OS << "|u";
      if (C.LargestIdx)
        OS << "|l";
      if (C.UnsignedVal)
        OS << "|v";
    }
    if (auto It = Map.find(Key); It != Map.end()) {
      ++NumStageProofsReused;
      return It->second;
    }
    if (Map.size() >= MaxEntries)
      Map.clear();
    return Map.try_emplace(Key, evaluateStage(P, Sh, Cands)).first->second;
  }

private:
  static constexpr unsigned MaxEntries = 4096;
  StringMap<StageOutcome> Map;
};
} // namespace argrec

namespace {

/// Checks \p Chain's lane maps for the two shapes of hand-written
/// shuffles: an xor butterfly (distinct power-of-two offsets 1 .. C/2; the
/// result in every lane) or a __shfl_down ladder (lane + M within C-lane
/// segments; the result in each segment's first lane). Returns why not, with
/// the stage to blame, or an empty reason.
std::pair<unsigned, std::string>
Recognizer::checkXorOrDown(ArrayRef<unsigned> Chain, ChainLanes &CL) {
  // Identity stages (e.g. offset 32 on GFX10+ wave64) are allowed: a
  // selection keeps self.
  unsigned OffsetMask = 0;
  std::optional<bool> Down;
  for (unsigned SI : Chain) {
    const Stage &S = classify(SI);
    if (S.Offset < 0 || (S.Offset & (S.Offset - 1)))
      return {SI, "the lane read is neither lane ^ M nor lane + M for a "
                  "constant M on " +
                      Chip.CPU};
    if (S.Offset && Down && *Down != S.Down)
      return {SI, "xor and shfl_down steps are mixed"};
    if (S.Offset)
      Down = S.Down;
    if (S.Offset && (OffsetMask & S.Offset))
      return {SI, "an offset is used twice"};
    OffsetMask |= S.Offset;
  }
  unsigned Cluster = OffsetMask + 1;
  if (OffsetMask == 0 || (Cluster & OffsetMask))
    return {Chain.front(), "the offsets are not 1, 2, ..., C/2 for a cluster "
                           "of C lanes"};
  for (unsigned SI : Chain)
    if (Stages[SI].Down &&
        !isDownMap(*Stages[SI].Sources, Stages[SI].Offset, Cluster))
      return {SI, "a shfl_down step's in-range lanes do not read lane + " +
                      std::to_string(Stages[SI].Offset) + " within " +
                      std::to_string(Cluster) + "-lane segments on " +
                      Chip.CPU};
  bool IsDown = Down.value_or(false);
  unsigned W = Chip.WaveSize;
  CL.Shape = IsDown ? ChainShape::Down : ChainShape::Xor;
  CL.Cluster = Cluster;
  CL.Lanes = IsDown ? segmentStarts(W, Cluster) : argrec::allLanes(W);
  return {0, ""};
}

/// Checks that \p Chain's stages form one reduction run by the lanes of
/// the previous stage: an xor butterfly or __shfl_down ladder, or any
/// evaluable lane maps (DPP, ds_swizzle, shuffles) after which some lanes
/// hold the best of a whole aligned group of lanes (\p CL).
bool Recognizer::checkLaneMaps(ArrayRef<unsigned> Chain, unsigned NWords,
                               ChainLanes &CL) {
  for (unsigned SI : Chain)
    if (classify(SI).Calls.size() != NWords) {
      refuse(Stages[SI], "NotAnXorButterfly",
             "the stages do not exchange the same words");
      return false;
    }
  auto [Blame, Why] = checkXorOrDown(Chain, CL);
  if (!Why.empty() && all_of(Chain, [&](unsigned SI) {
        return Stages[SI].Sources.has_value();
      })) {
    SmallVector<SmallVector<unsigned, 64>, 8> Maps;
    for (unsigned SI : Chain)
      Maps.push_back(*Stages[SI].Sources);
    if (auto R = reductionLanes(Maps, Chip.WaveSize)) {
      CL = {ChainShape::General, R->Cluster, R->Lanes};
      Why.clear();
    } else {
      Blame = Chain.front();
      Why += ", and followed lane by lane, no lane ends with the best of a "
             "whole aligned group of lanes";
    }
  }
  if (!Why.empty()) {
    refuse(Stages[Blame], "NotAnXorButterfly", Why);
    return false;
  }
  for (unsigned K = 0; K + 1 < Chain.size(); ++K) {
    BasicBlock *A = Stages[Chain[K]].BB, *B = Stages[Chain[K + 1]].BB;
    if (!DT.dominates(A, B) || !PDT.dominates(B, A)) {
      refuse(Stages[Chain[K + 1]], "DivergentStage",
             "a stage is not executed by the lanes of the previous one");
      return false;
    }
  }
  return true;
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
    auto Prog = std::make_unique<CombineProgram>(S.Calls, S.BB, Closures[SI],
                                                 Kinds, DT, PDT);
    // Outputs: the next stage's words, or the last stage's selections.
    SmallVector<Instruction *, 8> Outs;
    if (!Shape.Last) {
      for (Value *W : Stages[Chain[K + 1]].words())
        Outs.push_back(cast<Instruction>(W));
    } else {
      // An intermediate select (or min/max: clang's `smin(ib, ia)` for a
      // tie) that only feeds further selects of the combine, or phis
      // merging only the combine's values (a branch's arm), may take the
      // other lane's state where the final one keeps the lane's own
      // (`a < b ? a : (c ? b : a)`): not a result. A phi may also merge it
      // with the lane's own state (the select runs only on some paths).
      auto InStage = [&](Value *V) {
        auto *VI = dyn_cast<Instruction>(V);
        return (VI && (Closures[SI].count(VI) || is_contained(S.Calls, VI))) ||
               Prog->isOwnState(V);
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
    }
    auto AddOutputs = [&](CombineProgram &Pr, StageShape &Sh) {
      for (Instruction *O : Outs) {
        Sh.OutNodes.push_back(Pr.addOutput(O));
        Sh.OutBits.push_back(O->getType()->getPrimitiveSizeInBits());
      }
    };
    AddOutputs(*Prog, Shape);
    StageOutcome R = Cache.get(*Prog, Shape, Cands);
    // A combine that reads a condition on lanes alone: a stage gated by a
    // valid prefix (`if (lane + offset < valid_items)`). Proven with the
    // gate open; closed, the stage must keep the lane's state. (A last
    // stage proves without it, its phis just not being results.)
    // Any other condition computed before the chain that the stage cannot
    // be proven (or, the last, give a result) without (RAFT's `if
    // (active)`): proven open; the guard checks that it is open in every
    // lane, so the closed side never runs on the fast path.
    Value *Cond = Prog->foreignInput();
    std::optional<StageGate> Gate;
    bool Gated = false, OpenOn = true;
    bool MayGate = (!R.Reason.empty() || Shape.Last) && Cond &&
                   Cond->getType()->isIntegerTy(1);
    bool LaneGate =
        MayGate && (S.Offset == 0 || (Gate = gateOf(S, Cond, CL.Cluster)));
    bool Unproven = !R.Reason.empty() || !hasResult(R);
    bool Assumed = MayGate && !LaneGate && Unproven &&
                   DT.dominates(Cond, Stages[Chain.front()].Calls.front());
    if (LaneGate || Assumed) {
      for (bool On : {true, false}) {
        StageShape OpenSh{Comps, WordOfSlot, Shape.Last, {}, {}},
            ClosedSh = OpenSh;
        auto Open = std::make_unique<CombineProgram>(
            S.Calls, S.BB, Closures[SI], Kinds, DT, PDT, Cond, On);
        AddOutputs(*Open, OpenSh);
        StageOutcome RO = Cache.get(*Open, OpenSh, Cands);
        // The open side must combine: a last stage whose outputs all keep
        // the lane's state has no result (it is the closed side).
        if (!RO.Reason.empty() || !hasResult(RO) ||
            keepsOwnState(*Open, OpenSh, RO.Chosen))
          continue;
        if (!Assumed) {
          CombineProgram Closed(S.Calls, S.BB, Closures[SI], Kinds, DT, PDT,
                                Cond, !On);
          AddOutputs(Closed, ClosedSh);
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
                 "the stages combine within different prefixes of lanes (" +
                     Str + ")");
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
    if (!R.Reason.empty()) {
      refuse(S, R.Reason, R.WhyMsg >= 0 ? Prog->message(R.WhyMsg) : R.Why);
      return false;
    }
    erase_if(P.EmptyKeepsOwn, [&](const EmptyPair &E) {
      return Gated || !keepsOwnState(*Prog, Shape, R.Chosen, E);
    });
    for (unsigned CI = 0; CI < Cands.size(); ++CI) {
      P.Mismatch[CI] += R.Mismatch[CI];
      P.NumberMismatch[CI] += R.NumberMismatch[CI];
      P.OrderMismatch[CI] += R.OrderMismatch[CI];
    }
    P.MixedZeros |= R.MixedZeros;
    for (unsigned V = 0; V < 2; ++V)
      for (unsigned H = 0; H < 2; ++H)
        for (unsigned U = 0; U < 2; ++U)
          P.TieKeepsSelf[V][U][H] |= R.TieKeepsSelf[V][U][H];
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

/// True if \p V is the same in every lane of a wave: constants, kernel
/// arguments, work-group ids and sizes, and what pure arithmetic and loads
/// from such addresses make of them.
bool Recognizer::isWaveUniform(Value *V, unsigned Depth) {
  if (isa<Constant>(V))
    return true;
  if (isa<Argument>(V))
    return F.getCallingConv() == CallingConv::AMDGPU_KERNEL;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 12)
    return false;
  auto Operands = [&](ArrayRef<Use> Ops) {
    return all_of(
        Ops, [&](const Use &U) { return isWaveUniform(U.get(), Depth + 1); });
  };
  if (argrec::isFoldable(*I) || isa<GetElementPtrInst>(I))
    return Operands(I->operands());
  if (auto *LI = dyn_cast<LoadInst>(I))
    return LI->isSimple() && isWaveUniform(LI->getPointerOperand(), Depth + 1);
  auto *CB = dyn_cast<CallBase>(I);
  if (!CB)
    return false;
  switch (CB->getIntrinsicID()) {
  case Intrinsic::amdgcn_workgroup_id_x:
  case Intrinsic::amdgcn_workgroup_id_y:
  case Intrinsic::amdgcn_workgroup_id_z:
  case Intrinsic::amdgcn_dispatch_ptr:
  case Intrinsic::amdgcn_implicitarg_ptr:
  case Intrinsic::amdgcn_kernarg_segment_ptr:
  case Intrinsic::amdgcn_readfirstlane:
    return true;
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax:
    return Operands(CB->args());
  default:
    return argrec::isUniformQuery(CB);
  }
}

/// \p S's condition \p Cond when it compares lane + the stage's offset (+ a
/// constant) with a wave-uniform bound; the predicate is the condition's,
/// with the lane side on the left.
std::optional<StageGate> Recognizer::gateOf(const Stage &S, Value *Cond,
                                            unsigned Cluster) {
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !S.Down)
    return std::nullopt;
  unsigned W = Chip.WaveSize;
  // Lane side - offset - place in the segment: one constant, small enough
  // that the lane side never wraps (clang folds `+ 1 <= n` into `< n`).
  auto BaseOf = [&](const LaneVector &R) -> std::optional<int64_t> {
    int64_t B = R[0] - S.Offset;
    for (unsigned L = 0; L < W; ++L)
      if (R[L] - S.Offset - int64_t(L % Cluster) != B)
        return std::nullopt;
    if (B <= -(int64_t(1) << 30) || B >= (int64_t(1) << 30))
      return std::nullopt;
    return B;
  };
  for (unsigned LO = 0; LO < 2; ++LO) {
    StageGate G;
    G.LaneSide = Cmp->getOperand(LO);
    G.Valid = Cmp->getOperand(1 - LO);
    G.Pred = LO ? Cmp->getSwappedPredicate() : Cmp->getPredicate();
    G.Offset = S.Offset;
    if (!isWaveUniform(G.Valid))
      continue;
    SmallVector<LaneVector, 32> Waves;
    if (std::optional<LaneVector> R = lanes(G.LaneSide)) {
      Waves.push_back(std::move(*R));
    } else {
      // threadIdx.x itself (`tid + offset < n`): a prefix in every wave of
      // a 1-D block, at its own place (the guard checks tid % W is the
      // lane). The ids read go with the gate, not the chain's results.
      unsigned LeavesBefore = UsedTidLeaves.size();
      auto PerWave = lanesPerTidWave(G.LaneSide);
      for (unsigned I = LeavesBefore; I < UsedTidLeaves.size(); ++I)
        G.Leaves.insert(UsedTidLeaves[I]);
      while (UsedTidLeaves.size() > LeavesBefore)
        UsedTidLeaves.pop_back();
      if (!PerWave)
        continue;
      Waves = std::move(*PerWave);
      G.UsesTid = true;
    }
    for (const LaneVector &R : Waves) {
      std::optional<int64_t> B = BaseOf(R);
      if (!B)
        break;
      G.Base.push_back(*B);
    }
    if (G.Base.size() == Waves.size())
      return G;
  }
  return std::nullopt;
}

/// A gated chain (\p P.Gate) is rewritten as the operation over the lanes
/// of the valid prefix and each segment's first lane: only a shfl_down
/// ladder leaves exactly that in the first lane (an xor butterfly's lanes
/// past the prefix combine with lanes inside it), and the empty lanes are
/// encoded as pairs that lose, which needs an index.
bool Recognizer::checkGate(ArrayRef<unsigned> Chain, const ChainProof &P,
                           const ChainLanes &CL, const Candidate &C) {
  const Stage &First = Stages[Chain.front()];
  if (CL.Shape != ChainShape::Down) {
    refuse(First, "NotAStage",
           "the stages combine only within a prefix of lanes, which Crosslane "
           "replaces in shfl_down ladders only");
    return false;
  }
  if (!C.IsArg) {
    refuse(First, "NotAStage",
           "a value-only reduction combines only within a prefix of lanes: "
           "not replaced yet (arg reductions are)");
    return false;
  }
  if (!DT.dominates(P.Gate->Valid, First.Calls.front())) {
    refuse(First, "NotAStage",
           "the bound of the valid lanes is computed after the first "
           "exchange");
    return false;
  }
  return true;
}

/// True in a lane whose pair the gated chain never reads: past the valid
/// prefix and not the first lane of its \p Cluster-lane segment.
Value *Recognizer::buildEmptyLane(IRBuilder<> &B, const StageGate &G,
                                  unsigned Cluster) {
  Instruction *At = &*B.GetInsertPoint();
  // The lane side, at the first exchange (pure lane arithmetic).
  std::function<Value *(Value *)> Clone = [&](Value *V) -> Value * {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || DT.dominates(I, At))
      return V;
    Instruction *C = I->clone();
    for (Use &U : C->operands())
      U.set(Clone(U.get()));
    return B.Insert(C);
  };
  Value *Side = Clone(G.LaneSide);
  Value *Own = B.CreateSub(Side, ConstantInt::get(Side->getType(), G.Offset));
  Value *Valid = B.CreateICmp(G.Pred, Own, G.Valid);
  Value *Lane = argrec::buildLaneIndex(B, Chip);
  Value *Start = B.CreateICmpEQ(B.CreateAnd(Lane, Cluster - 1), B.getInt32(0));
  return B.CreateNot(B.CreateOr(Valid, Start), "crosslane.empty.lane");
}

/// Drops the results computed from other results (the packed key or value
/// bits clang builds from the state where the result is used, often in
/// another block): they read the replaced results.
static void dropDerivedOutputs(SmallVectorImpl<Output> &Outputs) {
  SmallPtrSet<Instruction *, 8> All;
  for (const Output &O : Outputs)
    All.insert(O.I);
  erase_if(Outputs, [&](const Output &O) {
    auto IsOther = [&](Value *V) {
      auto *I = dyn_cast<Instruction>(V);
      return I && I != O.I && All.count(I);
    };
    auto IsArith = [](Instruction *I) {
      return isa<CastInst, BinaryOperator>(I);
    };
    return any_of(O.I->operands(),
                  [&](Value *Op) { return !isa<Constant>(Op); }) &&
           computedFrom(O.I, IsOther, IsArith);
  });
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

/// Fills in what the run-time guard must check for \p Pl's candidate
/// (\p UsesTid: the lane maps or result reads need lane == threadIdx.x);
/// applyPlans finds the region it branches around.
void Recognizer::fillGuard(ChainPlan &Pl, bool UsesTid) {
  const Stage &First = Stages[Pl.Chain.front()];
  const Candidate &C = Pl.C;
  ArrayRef<Component> Comps = Pl.Comps;
  Guard &G = Pl.G;
  // A float value result's bits are not determined by the order alone:
  // -0/+0 at one index and NaN payloads meet in a lane-order-dependent way,
  // and the operation returns the canonical NaN. A guard checks at run time
  // what the proof could not (docs/ArgRecognition.md).
  bool FloatValue = Comps[C.IsArg ? C.ValSlot : 0].isFloat();
  bool ValueRead = any_of(Pl.P.Outputs, [&](const Output &O) {
    return !C.IsArg || O.Lo == int(Comps[C.ValSlot].Lo);
  });
  // A value-only fmax/fmin returns some NaN only when all are NaN, whose
  // payload LLVM leaves open, so it needs no NaN check once proven.
  // Every state of the chain is one of its inputs (each stage is proven a
  // selection), so inputs that are never NaN (a scan seeded with -inf that
  // takes `x > best`) need no NaN check.
  Value *VIn = exchangedWord(First.Calls[Comps[C.IsArg ? C.ValSlot : 0].Lo]);
  if (auto *BC = dyn_cast<BitCastInst>(VIn))
    VIn = BC->getOperand(0);
  SmallPtrSet<const PHINode *, 8> Assumed;
  bool InputNeverNaN = FloatValue && VIn->getType()->isFloatTy() &&
                       isNeverNaN(VIn, Assumed, First.Calls.front());
  G.NaNFree = FloatValue && !InputNeverNaN &&
              (!Pl.Proven || (C.IsArg && ValueRead) || C.TiesByLane);
  G.SameBitsAtIndex = FloatValue && ValueRead && C.ZerosEqual;
  // Two zeros mixed into one state are never the winner when every lane
  // holding the winning value holds its bits (the index result too).
  G.SameBitsAtValue = Pl.P.MixedZeros;
  G.NoTies = C.TiesByLane;
  G.ZerosEqual = C.ZerosEqual;
  G.LaneIsTid = UsesTid;
  G.HasIndex = C.IsArg;
  if (C.Sentinel)
    G.Sentinel = sext(*C.Sentinel, Comps[C.IdxSlot].is64() ? 64 : 32);
  if (!Chip.runsFullWaves(*First.Calls.front()))
    G.FullGroups = Pl.CL.Cluster;
  G.ReadGroups = Pl.CL.ReadGroups;
  G.OpenGates = Pl.P.OpenGates;
}

/// Refuses a chain that needs a run-time guard when no region for one
/// exists (\p Why), naming what the guard would have checked.
void Recognizer::refuseUnguardable(const ChainPlan &Pl, const Twine &Why) {
  const Stage &First = Stages[Pl.Chain.front()];
  const Guard &G = Pl.G;
  std::string What = describe(Pl.C, Pl.Comps);
  if (G.EmptyLanes)
    refuse(First, "NoGuardRegion",
           Twine("recognised ") + What +
               " over the lanes of a valid prefix, but the run-time "
               "check that no lane past it wins is not possible: " +
               Why);
  else if (G.FullGroups &&
           !(G.NaNFree || G.SameBitsAtIndex || G.SameBitsAtValue || G.NoTies ||
             G.LaneIsTid || G.Sentinel))
    refuse(First, "MayReadInactiveLanes",
           Twine("recognised ") + What +
               ", but lanes of a group may be inactive here (a "
               "ds_bpermute from an inactive lane reads 0, which the "
               "original combines), and a run-time guard is not "
               "possible: " +
               Why);
  else if (Pl.C.TiesByLane)
    refuse(First, "TieDependsOnLanes",
           Twine("recognised ") + What +
               ": on equal values the combine keeps a lane's own index "
               "whichever is smaller, so ties are decided by lane order, "
               "and a run-time guard is not possible: " +
               Why);
  else if (!Pl.Proven)
    refuse(First, "NaNOrderDependsOnLanes",
           Twine("recognised ") + What +
               " on NaN-free inputs, but the combine is not a total "
               "order with NaN (a NaN is kept or skipped depending on "
               "which lane holds it), and a run-time guard is not "
               "possible: " +
               Why);
  else if (G.SameBitsAtIndex || G.SameBitsAtValue)
    refuse(First, "ValueBitsDependOnLanes",
           Twine("recognised ") + What +
               ", but its value result is read, its bits depend on the "
               "lane order for -0/+0 at one index and NaN payloads, and "
               "a run-time guard is not possible: " +
               Why);
  else
    refuse(First, "NoGuardRegion",
           Twine("recognised ") + What + ", but the run-time guard it needs (" +
               G.describe() + ") is not possible: " + Why);
}

/// Checks that the chain has results the rewrite can replace: values after
/// the last stage, dominated by the first, and, when only some lanes hold
/// the complete result (a shfl_down ladder: the first lane of each
/// segment), read only in those lanes (\p UsesTid: by a test on
/// threadIdx.x that the guard must confirm).
bool Recognizer::checkResults(const Stage &First, const ChainProof &P,
                              ChainLanes &CL, bool &UsesTid) {
  if (P.Outputs.empty()) {
    refuse(First, "NoResult",
           P.LastWhy.empty()
               ? Twine("no lane reads the butterfly's result")
               : Twine("no value after the last stage is one lane's state (") +
                     P.LastWhy + ")");
    return false;
  }
  for (const Output &O : P.Outputs)
    if (!DT.dominates(First.Calls.front(), O.I)) {
      refuse(First, "NotAStage", "a result is not dominated by the butterfly");
      return false;
    }
  UsesTid = false;
  unsigned W = Chip.WaveSize;
  uint64_t All = argrec::allLanes(W);
  std::string Why;
  if (CL.Lanes != All && !readOnlyInLanes(P.Outputs, CL.Lanes, UsesTid, Why)) {
    refuse(First, "ResultInOtherLanes",
           Twine(CL.Shape == ChainShape::Down ? "a shfl_down ladder leaves"
                                              : "the lane maps leave") +
               " the result of each " + Twine(CL.Cluster) + "-lane group in " +
               describeLanes(CL.Lanes, W, CL.Cluster) + " only, but " + Why);
    return false;
  }
  if (CL.Lanes != All)
    CL.ReadGroups = readGroups(P.Outputs, CL, UsesTid);
  return true;
}

/// The lanes of the groups whose result lanes some use reads: a group is
/// left out when the results are read only in the other groups' result
/// lanes (rocBLAS's second stage reads lane 0 of four 16-lane groups). Each
/// test is sound alone, so the groups left out are the union. A test that
/// needs threadIdx.x to be the lane id where the first did not is not used.
uint64_t Recognizer::readGroups(ArrayRef<Output> Outputs, const ChainLanes &CL,
                                bool UsesTid) {
  unsigned W = Chip.WaveSize;
  uint64_t Read = CL.Lanes;
  for (unsigned G = 0; G < W; G += CL.Cluster) {
    uint64_t Group = argrec::groupOf(G, CL.Cluster);
    if (!(Read & Group))
      continue;
    argrec::TidLeafSet Saved = UsedTidLeaves;
    bool Tid = false;
    std::string Why;
    if (readOnlyInLanes(Outputs, Read & ~Group, Tid, Why) &&
        (!Tid || UsesTid) && UsedTidLeaves.size() == Saved.size())
      Read &= ~Group;
    UsedTidLeaves = std::move(Saved);
  }
  uint64_t Lanes = 0;
  for (unsigned G = 0; G < W; G += CL.Cluster)
    if (Read & argrec::groupOf(G, CL.Cluster))
      Lanes |= argrec::groupOf(G, CL.Cluster);
  return Lanes;
}

/// True if \p A carries the state \p B carries: the same value through
/// casts and shifts (a word is cut from it, or it is built from words), or
/// phis of one block whose incoming values do (a float or i64 state carried
/// beside its words).
static bool carriesState(Value *A, Value *B) {
  auto Strip = [](Value *V) {
    for (unsigned D = 0; D < 3; ++D) {
      auto *I = dyn_cast<Instruction>(V);
      if (!I || !(isa<CastInst>(I) || I->getOpcode() == Instruction::LShr))
        break;
      V = I->getOperand(0);
    }
    return V;
  };
  // X is built from Y (`or (shl (zext hi), 32), (zext lo)` from a word).
  std::function<bool(Value *, Value *, unsigned)> BuiltFrom =
      [&](Value *X, Value *Y, unsigned Depth) {
        if (X == Y)
          return true;
        auto *I = dyn_cast<Instruction>(X);
        if (!I || Depth > 4 ||
            !(isa<CastInst>(I) || I->getOpcode() == Instruction::Shl ||
              I->getOpcode() == Instruction::LShr ||
              I->getOpcode() == Instruction::Or))
          return false;
        return any_of(I->operands(),
                      [&](Value *Op) { return BuiltFrom(Op, Y, Depth + 1); });
      };
  return argrec::relatedThroughPhis(A, B, [&](Value *X, Value *Y) {
    X = Strip(X);
    Y = Strip(Y);
    return BuiltFrom(X, Y, 0) || BuiltFrom(Y, X, 0);
  });
}

/// True if nothing combines what stage \p SI reads with the lane's own
/// state: a read of the chain's result (`__shfl(v, 0)` after a ladder, a
/// `__shfl_up` of the maximum), not a step.
/// The arithmetic opcode ("fadd", ...) that combines what \p S reads with
/// other values, if any: the exchange is a step of a sum or product.
const char *Recognizer::arithmeticUse(const Stage &S) const {
  for (CallInst *C : S.Calls) {
    SmallVector<Value *, 4> Work{C};
    for (unsigned D = 0; D < 4 && !Work.empty(); ++D) {
      Value *V = Work.pop_back_val();
      for (User *U : V->users()) {
        auto *I = dyn_cast<Instruction>(U);
        if (!I)
          continue;
        if (isa<CastInst>(I)) {
          Work.push_back(I);
          continue;
        }
        switch (I->getOpcode()) {
        case Instruction::FAdd:
        case Instruction::Add:
        case Instruction::FSub:
        case Instruction::Sub:
        case Instruction::FMul:
        case Instruction::Mul:
          return I->getOpcodeName();
        default:
          break;
        }
      }
    }
  }
  return nullptr;
}

/// The function, not inlined, that receives what stage \p S read (through
/// casts and word splits), or null: a combine hidden in a call.
static Function *opaqueCombine(const Stage &S) {
  SmallVector<const Value *, 8> Work(S.Calls.begin(), S.Calls.end());
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second || Seen.size() > 64)
      continue;
    for (const User *U : V->users()) {
      if (auto *CB = dyn_cast<CallBase>(U)) {
        Function *Callee = CB->getCalledFunction();
        if (Callee && !Callee->isIntrinsic() && !is_contained(S.Calls, CB))
          return Callee;
        continue;
      }
      if (isa<CastInst>(U) || isa<InsertValueInst>(U) ||
          isa<ExtractValueInst>(U) || isa<InsertElementInst>(U) ||
          isa<ExtractElementInst>(U) || isa<BinaryOperator>(U))
        Work.push_back(U);
    }
  }
  return nullptr;
}

bool Recognizer::isPlainRead(unsigned SI) {
  const Stage &S = Stages[SI];
  // The lane's own state: the words and what they are cut or cast from.
  SmallPtrSet<Value *, 8> Own;
  for (Value *W : S.words())
    for (unsigned D = 0; D < 3 && W; ++D) {
      Own.insert(W);
      auto *I = dyn_cast<Instruction>(W);
      W = I && (isa<CastInst>(I) || I->getOpcode() == Instruction::LShr)
              ? I->getOperand(0)
              : nullptr;
    }
  // ... and phis carried beside the word phis (`phi float` next to the
  // `phi i32` of its bits, `phi i64` next to the word of a zero-extended
  // index).
  auto IsOwn = [&](Value *Op) {
    if (Own.count(Op))
      return true;
    auto *P = dyn_cast<PHINode>(Op);
    return P && any_of(S.words(), [&](Value *W) {
             auto *WP = dyn_cast<PHINode>(W);
             return WP && WP->getParent() == P->getParent() &&
                    carriesState(P, WP);
           });
  };
  return none_of(Closures[SI],
                 [&](Instruction *I) { return any_of(I->operands(), IsOwn); });
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

/// For -debug-only: the stage's exchange, words, block and lane map.
void Recognizer::printStage(raw_ostream &OS, unsigned SI) {
  const Stage &S = classify(SI);
  const CallInst *C = S.Calls.front();
  OS << "stage " << SI << ": "
     << (C->getCalledFunction() ? C->getCalledFunction()->getName()
                                : StringRef("asm"))
     << " x" << S.Calls.size() << " in ";
  S.BB->printAsOperand(OS, false);
  OS << ", ";
  if (!S.Sources)
    OS << "lane map unknown";
  else if (S.Down)
    OS << "down " << S.Offset;
  else if (S.Offset > 0)
    OS << "xor " << S.Offset;
  else if (S.Offset == 0)
    OS << "identity (names xor " << S.NamedOffset << ")";
  else
    OS << "general lane map";
  if (S.UsesTid)
    OS << ", from threadIdx.x";
  if (const LadderVersion *V = CopyOf.lookup(S.Calls.front()))
    OS << ", unrolled copy of a " << V->Iterations << "-iteration loop";
}

std::optional<ChainPlan> Recognizer::planChain(ArrayRef<unsigned> Chain) {
  // Last reads whose results are not combined with the lane's own state
  // read the result (checked with the other uses); they are not steps.
  while (Chain.size() > 1 && isPlainRead(Chain.back()))
    Chain = Chain.drop_back();
  ++NumChains;
  CROSSLANE_DEBUG({
    dbgs() << "  chain of " << Chain.size() << " stage(s):\n";
    for (unsigned SI : Chain) {
      dbgs() << "    ";
      printStage(dbgs(), SI);
      dbgs() << "\n";
    }
  });
  const Stage &First = Stages[Chain.front()];
  if (Chain.size() == 1 && isPlainRead(Chain.front())) {
    // Sums and products (softmax's denominator) are reported once per
    // function, not once per exchange.
    if (const char *Op = arithmeticUse(First)) {
      // A ladder loop's own exchange is covered by its unrolled copy's.
      if (!LoopOf.count(First.Calls.front()))
        ArithmeticStages.push_back({Chain.front(), Op});
      return std::nullopt;
    }
    if (Function *Callee = opaqueCombine(First))
      refuse(First, "NotAReduction",
             "what the lanes read is passed to '" +
                 demangle(Callee->getName()) +
                 "', which is not inlined: the combine must be visible here "
                 "(drop noinline, or use __forceinline__)");
    else
      refuse(First, "NotAReduction",
             "what the lanes read is not combined with their own values");
    return std::nullopt;
  }
  std::string Why;
  auto CompsOr = componentsOf(First, Why);
  if (!CompsOr) {
    refuse(First, "UnsupportedType", Why);
    return std::nullopt;
  }
  SmallVector<Component, 2> Comps = *CompsOr;
  if (Comps.size() > 2) {
    refuse(First, "UnsupportedState",
           "the lanes exchange more than a value and an index");
    return std::nullopt;
  }
  boundIntegers(Chain, Comps);
  ChainLanes CL;
  if (!checkLaneMaps(Chain, First.Calls.size(), CL))
    return std::nullopt;
  // Unsigned index orders are candidates only when the combine compares
  // integers unsigned (they double the candidates to check).
  bool Unsigned = any_of(Closures[Chain.front()], [](Instruction *I) {
    auto *Cmp = dyn_cast<ICmpInst>(I);
    return (Cmp && Cmp->isUnsigned()) ||
           match(I, m_CombineOr(m_UMin(m_Value(), m_Value()),
                                m_UMax(m_Value(), m_Value())));
  });
  ChainProof P;
  Candidate C;
  bool Proven;
  SmallVector<unsigned, 1> AssumedBound;
  if (!proveWithIndexBound(Chain, Comps, Unsigned, CL, P, C, Proven,
                           AssumedBound))
    return std::nullopt;
  if (P.Gate && !checkGate(Chain, P, CL, C))
    return std::nullopt;
  dropDerivedOutputs(P.Outputs);
  bool UsesTid;
  UsedTidLeaves.clear();
  if (!checkResults(First, P, CL, UsesTid))
    return std::nullopt;
  UsesTid |= any_of(Chain, [&](unsigned SI) { return Stages[SI].UsesTid; });
  argrec::TidLeafSet Leaves = UsedTidLeaves;
  for (unsigned SI : Chain)
    Leaves.insert_range(Stages[SI].TidLeaves);
  if (P.Gate) {
    UsesTid |= P.Gate->UsesTid;
    Leaves.insert_range(P.Gate->Leaves);
  }
  // threadIdx.x is read afresh by the guard; a linear id is the kernel's.
  bool TidX = any_of(Leaves, isWorkItemIdX);
  Leaves.remove_if(isWorkItemIdX);
  for (Value *T : Leaves)
    if (!DT.dominates(T, First.Calls.front())) {
      refuse(First, "UnsupportedLaneMap",
             "the linear thread id the lane map is computed from is computed "
             "after the first exchange, where the run-time check that it "
             "names the lane must run");
      return std::nullopt;
    }
  ChainPlan Pl;
  Pl.Chain.assign(Chain.begin(), Chain.end());
  Pl.Comps = std::move(Comps);
  Pl.CL = CL;
  Pl.C = C;
  Pl.Proven = Proven;
  Guard &G = Pl.G;
  G.TidLeaves.assign(Leaves.begin(), Leaves.end());
  G.TidX = TidX || Leaves.empty();
  G.EmptyLanes = P.Gate.has_value();
  G.EmptyKeepsOwn =
      C.Sentinel && !P.Gate &&
      is_contained(P.EmptyKeepsOwn, EmptyPair(C.IdxSlot, *C.Sentinel));
  if (G.EmptyKeepsOwn) {
    // The code's index that the operation's order encodes as INT_MAX.
    unsigned Bits = Pl.Comps[C.IdxSlot].is64() ? 64 : 32;
    APInt Largest = APInt::getSignedMaxValue(Bits);
    if (C.LargestIdx)
      Largest.flipAllBits();
    if (C.UnsignedIdx)
      Largest ^= APInt::getSignMask(Bits);
    G.Largest = C.UnsignedIdx ? int64_t(Largest.getZExtValue())
                              : Largest.getSExtValue();
  }
  G.BoundIsIndex =
      C.IsArg && AssumedBound.size() == 1 && AssumedBound.front() == C.IdxSlot;
  G.AtLeastMinusOne = std::move(AssumedBound);
  Pl.P = std::move(P);
  fillGuard(Pl, UsesTid);
  return Pl;
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

/// Replaces the chains of \p Plans (one chain, the (value, index) pairs one
/// set of exchanges carries, or chains in lock step, mergeInterleaved):
/// each by one Crosslane operation placed before the group's first
/// exchange; those
/// that need a run-time guard behind one guard (the conjunction of theirs)
/// around one region, since each one's code lies inside the others'.
/// Returns how many were replaced, marking them Done.
unsigned Recognizer::applyPlans(MutableArrayRef<ChainPlan> Plans) {
  if (argrec::isVortexChip(Chip) && !ReplaceOnVortex) {
    for (const ChainPlan &Pl : Plans)
      refuse(Stages[Pl.Chain.front()], "NotProfitable",
             Twine("recognised ") + describe(Pl.C, Pl.Comps) + " over " +
                 Twine(Pl.CL.Cluster) + " lanes on " +
                 argrec::describeTarget(Chip) +
                 ", kept as written: a Vortex lane exchange is one vx_shfl "
                 "whatever the lane map, so Crosslane's operation needs as "
                 "many exchanges as this butterfly, plus its run-time guard "
                 "(-mllvm -crosslane-vortex-replace-arg replaces it)");
    return 0;
  }
  SmallVector<Instruction *, 2> Starts;
  for (const ChainPlan &Pl : Plans)
    Starts.push_back(Stages[Pl.Chain.front()].Calls.front());
  Instruction *At = firstExchange(Starts);
  if (!At) {
    // Not met: a group's chains start in one block, or inside each other.
    for (const ChainPlan &Pl : Plans)
      refuse(Stages[Pl.Chain.front()], "UnsupportedState",
             "the reductions replaced together have no first exchange that "
             "comes before all the others");
    return 0;
  }
  BeforeChange();
  SmallVector<ChainPlan *, 2> Live;
  for (ChainPlan &Pl : Plans) {
    if (!hoistWords(Stages[Pl.Chain.front()], At)) {
      refuse(Stages[Pl.Chain.front()], "UnsupportedState",
             "a word the lanes exchange is computed after the first exchange "
             "by code that cannot move above it");
      continue;
    }
    // The guard reads the gates at the group's first exchange.
    if (!all_of(Pl.P.OpenGates,
                [&](auto Gate) { return DT.dominates(Gate.first, At); })) {
      refuse(Stages[Pl.Chain.front()], "UnsupportedState",
             "a condition gating the combine is computed after the first "
             "exchange of the reductions replaced with it");
      continue;
    }
    Live.push_back(&Pl);
  }
  unsigned Done = 0;
  SmallVector<Value *, 4> NewOut;
  // Proven outright: the results are replaced in place.
  SmallVector<ChainPlan *, 2> Guarded;
  for (ChainPlan *Pl : Live) {
    if (Pl->G.needed()) {
      Guarded.push_back(Pl);
      continue;
    }
    rewrite(*Pl, At, 0, NewOut);
    Pl->Done = true;
    ++Done;
  }
  if (Guarded.empty())
    return Done;
  SmallVector<Output, 8> Outputs;
  for (ChainPlan *Pl : Guarded)
    append_range(Outputs, Pl->P.Outputs);
  std::string Why;
  std::optional<ChainRegion> Region = findRegion(At, Outputs, Why);
  // clang sinks a last combine used only under `if (lane == 0)` into that
  // block; moved back to the last stage, the chain can be a region.
  bool Moved = false;
  if (!Region)
    for (ChainPlan *Pl : Guarded)
      Moved |=
          hoistOutputs(Stages[Pl->Chain.back()].Calls.back(), Pl->P.Outputs);
  if (Moved)
    Region = findRegion(At, Outputs, Why);
  if (!Region) {
    for (ChainPlan *Pl : Guarded)
      refuseUnguardable(*Pl, Why);
    return Done;
  }
  IRBuilder<> B(At);
  Value *Fast = nullptr;
  SmallVector<Value *, 8> AllNew;
  for (ChainPlan *Pl : Guarded) {
    NewOut.clear();
    Value *F = rewrite(*Pl, At, Guarded.size(), NewOut);
    Fast = Fast ? B.CreateAnd(Fast, F) : F;
    append_range(AllNew, NewOut);
    Pl->Done = true;
    ++Done;
  }
  insertFallback(*Region, Fast, Outputs, AllNew);
  return Done;
}

/// Emits the Crosslane operation that replaces \p Pl's chain before \p At.
/// Unguarded (\p Guarded == 0), its results replace the chain's; otherwise
/// returns its run-time guard (true: the operation's results hold) and
/// leaves the replacements, per output, in \p NewOut for the caller's
/// fallback region, shared by \p Guarded chains.
Value *Recognizer::rewrite(const ChainPlan &Pl, Instruction *At,
                           unsigned Guarded, SmallVectorImpl<Value *> &NewOut) {
  const Stage &First = Stages[Pl.Chain.front()];
  ArrayRef<Component> Comps = Pl.Comps;
  const Candidate &C = Pl.C;
  const ChainLanes &CL = Pl.CL;
  ArrayRef<Output> Outputs = Pl.P.Outputs;
  const Guard &G = Pl.G;
  const StageGate *Gate = Pl.P.Gate ? &*Pl.P.Gate : nullptr;
  // Rewrite: one call before the first exchange; the outputs read its
  // result.
  IRBuilder<> B(At);
  SmallVector<Value *, 2> In, Results(Comps.size());
  // Frozen: a lane that never wins may hold undef or poison (an index left
  // unset where a lane had no element), which the guard's ballot must not
  // branch on; the original only ever selects such a state away.
  for (const Component &Cm : Comps)
    In.push_back(B.CreateFreeze(compValue(B, First, Cm)));
  // Inputs the proof took to be -1 or more, before any encoding.
  Value *BelowBound = nullptr;
  for (unsigned Slot : G.AtLeastMinusOne) {
    Value *Below = B.CreateICmpSLT(
        In[Slot], Constant::getAllOnesValue(In[Slot]->getType()));
    BelowBound = BelowBound ? B.CreateOr(BelowBound, Below) : Below;
  }
  // The operation orders integers as signed numbers; flipping the sign bit
  // maps the unsigned order onto it (and back for the result).
  auto Flip = [&](Value *I) {
    unsigned Bits = I->getType()->getIntegerBitWidth();
    return B.CreateXor(
        I, ConstantInt::get(I->getType(), APInt::getSignMask(Bits)));
  };
  if (C.UnsignedVal)
    In[C.ValSlot] = Flip(In[C.ValSlot]);
  // The value before a "no element" pair is encoded (as NaN, when NaN is
  // the worst value): the guard's NaN check reads this one.
  Value *RawVal = In[C.IsArg ? C.ValSlot : 0];
  Value *None = nullptr;
  if (C.Sentinel)
    None = B.CreateICmpEQ(
        In[C.IdxSlot], ConstantInt::get(In[C.IdxSlot]->getType(), *C.Sentinel));
  if (Gate) {
    // Lanes past the valid prefix hold anything (often nothing defined):
    // "no element" for the operation, and not looked at by the NaN check.
    Value *Empty = buildEmptyLane(B, *Gate, CL.Cluster);
    None = None ? B.CreateOr(None, Empty) : Empty;
    if (RawVal->getType()->isFloatingPointTy())
      RawVal =
          B.CreateSelect(Empty, ConstantFP::getZero(RawVal->getType()), RawVal);
  }
  if (C.UnsignedIdx)
    In[C.IdxSlot] = Flip(In[C.IdxSlot]);
  // ~i reverses the (signed) order: the smallest ~i is the largest i.
  if (C.LargestIdx)
    In[C.IdxSlot] = B.CreateNot(In[C.IdxSlot]);
  // Last, so "no element" is encoded in the operation's orders.
  if (None)
    encodeSentinel(B, C, None, In[C.ValSlot], In[C.IdxSlot]);
  CallInst *Call = emitOperation(B, First, Comps, C, CL.Cluster, In, Results);
  // Vortex: the guard (or a proof) has every lane of the cluster active
  // wherever the result is used, so the expansion needs no lanes-off path.
  if (argrec::isVortexChip(Chip) && (!Guarded || G.FullGroups))
    Call->setMetadata(subgroup::FullGroupsMD, MDNode::get(F.getContext(), {}));
  Value *OpIdx = C.IsArg ? Results[C.IdxSlot] : nullptr;
  Value *OpVal = Results[C.IsArg ? C.ValSlot : 0];
  if (C.LargestIdx)
    Results[C.IdxSlot] = B.CreateNot(Results[C.IdxSlot]);
  if (C.UnsignedIdx)
    Results[C.IdxSlot] = Flip(Results[C.IdxSlot]);
  if (C.UnsignedVal)
    Results[C.ValSlot] = Flip(Results[C.ValSlot]);
  // Words of the result, per logical slot.
  SmallVector<Value *, 4> Words(First.Calls.size());
  for (auto [CI, Cm] : enumerate(Comps)) {
    Value *R = Results[CI];
    if (Cm.Kind == SlotKind::Float16)
      R = B.CreateZExt(B.CreateBitCast(R, B.getInt16Ty()), B.getInt32Ty());
    else if (Cm.isFloat())
      R = B.CreateBitCast(R, Cm.is64() ? B.getInt64Ty() : B.getInt32Ty());
    if (Cm.is64()) {
      Words[Cm.Lo] = B.CreateTrunc(R, B.getInt32Ty());
      Words[Cm.Hi] = B.CreateTrunc(B.CreateLShr(R, 32), B.getInt32Ty());
    } else {
      Words[Cm.Lo] = R;
    }
  }
  auto OutputsOf = [&](ArrayRef<Value *> Words) {
    SmallVector<Value *, 4> Out;
    for (const Output &O : Outputs) {
      Value *R = Words[O.Lo];
      if (O.Hi >= 0)
        R = B.CreateOr(
            B.CreateShl(B.CreateZExt(Words[O.Hi], B.getInt64Ty()), 32),
            B.CreateZExt(R, B.getInt64Ty()));
      else if (O.Hi == -2)
        R = B.CreateZExt(R, B.getInt64Ty());
      else if (unsigned Bits = O.I->getType()->getPrimitiveSizeInBits();
               Bits < 32) // an f16 (or its bits), a narrow integer
        R = B.CreateTrunc(R, B.getIntNTy(Bits));
      Out.push_back(B.CreateBitCast(R, O.I->getType()));
    }
    return Out;
  };
  NewOut.assign(OutputsOf(Words));
  if (G.EmptyKeepsOwn) {
    // A group without an element: each lane keeps its own pair, the words
    // it sent into the first stage (the guard rules out an element taken
    // for "no element").
    SmallVector<Value *, 4> Own;
    for (CallInst *Call : First.Calls)
      Own.push_back(exchangedWord(Call));
    Value *Nothing = B.CreateICmpEQ(OpIdx, noElementIndex(OpIdx->getType()),
                                    "crosslane.no.element");
    SmallVector<Value *, 4> OwnOut = OutputsOf(Own);
    for (unsigned K = 0; K < NewOut.size(); ++K)
      NewOut[K] = B.CreateSelect(Nothing, OwnOut[K], NewOut[K]);
  }
  Value *Fast = nullptr;
  if (Guarded) {
    Value *Idx = nullptr, *ResIdx = nullptr;
    if (C.IsArg) {
      Idx = In[C.IdxSlot]; // both in the operation's index order
      ResIdx = OpIdx;
    }
    unsigned VI = C.IsArg ? C.ValSlot : 0;
    // Both in the operation's value order.
    Fast =
        emitGuard(B, G, In[VI], OpVal, Idx, ResIdx, RawVal, None, BelowBound);
  } else {
    for (auto [O, R] : zip(Outputs, NewOut))
      O.I->replaceAllUsesWith(R);
  }
  ++NumRewritten;
  CROSSLANE_DEBUG({
    dbgs() << "  replaced: " << describe(C, Comps) << " -> "
           << Call->getCalledOperand()->getName();
    if (Guarded)
      dbgs() << ", guarded (" << G.describe() << G.where(Chip.WaveSize) << ")";
    dbgs() << "\n";
  });
  std::string Msg;
  raw_string_ostream R(Msg);
  R << "recognised " << describe(C, Comps) << " over " << CL.Cluster
    << (CL.Shape == ChainShape::Down  ? " lanes (shfl_down ladder, "
        : CL.Shape == ChainShape::Xor ? " lanes (xor butterfly, "
                                      : " lanes (lane maps, ")
    << Pl.Chain.size() << (Pl.Chain.size() == 1 ? " stage on " : " stages on ")
    << argrec::describeTarget(Chip) << "): replaced by "
    << Call->getCalledOperand()->getName();
  if (Guarded)
    R << ", guarded at run time (" << G.describe() << G.where(Chip.WaveSize)
      << (Guarded > 1
              ? ", and the same for the " + std::to_string(Guarded - 1) +
                    " other reduction(s) in its region"
              : "")
      << "; otherwise the original code runs)";
  R << loopNote(First);
  emitRemark<OptimizationRemark>(First, Call, "Recognized", "RecognizedCopy",
                                 Msg);
  return Fast;
}

Value *Recognizer::compValue(IRBuilder<> &B, const Stage &First,
                             const Component &Cm) {
  Value *Lo = exchangedWord(First.Calls[Cm.Lo]);
  if (Cm.Kind == SlotKind::Float16)
    return B.CreateBitCast(B.CreateTrunc(Lo, B.getInt16Ty()), B.getHalfTy());
  if (!Cm.is64())
    return Cm.isFloat() ? B.CreateBitCast(Lo, B.getFloatTy()) : Lo;
  Value *Hi = exchangedWord(First.Calls[Cm.Hi]);
  Value *V = B.CreateOr(B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32),
                        B.CreateZExt(Lo, B.getInt64Ty()));
  return Cm.isFloat() ? B.CreateBitCast(V, B.getDoubleTy()) : V;
}

/// Maps a "no element" pair (where \p None holds) to one that loses to every
/// element under \p C and the operation's tie rule (smallest index): the
/// worst value and the largest index, in the operation's orders. Only an
/// element holding both ties with it; the guard (a result index other than
/// the largest) sends that case to the original.
void Recognizer::encodeSentinel(IRBuilder<> &B, const Candidate &C, Value *None,
                                Value *&Val, Value *&Idx) {
  auto *ITy = cast<IntegerType>(Idx->getType());
  Type *VTy = Val->getType();
  Constant *Worst;
  if (VTy->isFloatingPointTy())
    Worst = !C.NaNWins ? ConstantFP::getQNaN(VTy)
                       : ConstantFP::getInfinity(VTy, /*Negative=*/C.Max);
  else
    Worst = ConstantInt::get(
        VTy, C.Max ? APInt::getSignedMinValue(VTy->getIntegerBitWidth())
                   : APInt::getSignedMaxValue(VTy->getIntegerBitWidth()));
  Val = B.CreateSelect(None, Worst, Val, "crosslane.none.value");
  Idx = B.CreateSelect(None, noElementIndex(ITy), Idx, "crosslane.none.index");
}

CallInst *Recognizer::emitOperation(IRBuilder<> &B, const Stage &First,
                                    ArrayRef<Component> Comps,
                                    const Candidate &C, unsigned Cluster,
                                    ArrayRef<Value *> In,
                                    MutableArrayRef<Value *> Results) {
  Module &M = *F.getParent();
  auto TyName = [](const Component &Cm) { return Cm.typeName(); };
  CallInst *Call;
  if (!C.IsArg) {
    Value *X = In[0];
    std::string Name = std::string(Prefix) + "reduce_" + getName(C.Op) + "_" +
                       TyName(Comps[0]);
    FunctionCallee Fn = M.getOrInsertFunction(
        Name, X->getType(), X->getType(), B.getInt32Ty(), B.getInt32Ty());
    Call = B.CreateCall(Fn, {X, B.getInt32(Cluster), B.getInt32(1)});
    Results[0] = Call;
  } else {
    const Component &VC = Comps[C.ValSlot], &IC = Comps[C.IdxSlot];
    Value *V = In[C.ValSlot], *I = In[C.IdxSlot];
    std::string Name = std::string(Prefix) + (C.Max ? "argmax_" : "argmin_") +
                       TyName(VC) + "_" + TyName(IC);
    StructType *RT = StructType::get(V->getType(), I->getType());
    FunctionCallee Fn =
        M.getOrInsertFunction(Name, RT, V->getType(), I->getType(),
                              B.getInt32Ty(), B.getInt32Ty(), B.getInt32Ty());
    unsigned Policy = (C.NaNWins ? PolicyNaNWins : 0) |
                      (C.ZerosEqual ? PolicyZerosEqual : 0);
    Call = B.CreateCall(Fn, {V, I, B.getInt32(Cluster), B.getInt32(1),
                             B.getInt32(Policy)});
    Results[C.ValSlot] = B.CreateExtractValue(Call, 0);
    Results[C.IdxSlot] = B.CreateExtractValue(Call, 1);
  }
  Call->setDebugLoc(First.Calls.front()->getDebugLoc());
  return Call;
}

/// True (an i1, the same in every lane) when no active lane fails the
/// guard's conditions: its value is not NaN; it does not hold the winning
/// value at another index; a lane holding the winning index (with no index
/// (\p Idx null): the winning value) holds the winning value's bits.
/// \p Val is the operation's input, \p RawVal the lane's value before a
/// "no element" pair was encoded, \p None (null without a "no element"
/// encoding) true in a lane holding no element.
Value *Recognizer::emitGuard(IRBuilder<> &B, const Guard &G, Value *Val,
                             Value *ResVal, Value *Idx, Value *ResIdx,
                             Value *RawVal, Value *None, Value *BelowBound) {
  Value *Lane = nullptr;
  auto LaneId = [&] {
    if (!Lane)
      Lane = argrec::buildLaneIndex(B, Chip);
    return Lane;
  };
  bool Float = Val->getType()->isFloatingPointTy();
  Type *BitsTy = B.getIntNTy(Val->getType()->getPrimitiveSizeInBits());
  Value *Bits = Float ? B.CreateBitCast(Val, BitsTy) : Val;
  Value *ResBits = Float ? B.CreateBitCast(ResVal, BitsTy) : ResVal;
  Value *Bad = B.getFalse();
  if (G.NaNFree)
    Bad = B.CreateOr(Bad, B.CreateFCmpUNO(RawVal, RawVal));
  if (G.NoTies) {
    // Without NaN, one value class is one bit pattern unless -0 == +0.
    Value *Same = Float && G.ZerosEqual ? B.CreateFCmpOEQ(Val, ResVal)
                                        : B.CreateICmpEQ(Bits, ResBits);
    Bad = B.CreateOr(Bad, B.CreateAnd(Same, B.CreateICmpNE(Idx, ResIdx)));
  }
  if (G.SameBitsAtIndex || G.SameBitsAtValue) {
    // Without an index (a value-only reduction): a lane holding the result's
    // value (-0 == +0) holds its bits. With one: a lane holding the winning
    // index and a value that ties with the winner's (-0 == +0, or both NaN);
    // a lane holding that index with a worse value loses in the original
    // and is not read by the operation (moeTopK's `(0, -1.f)` start when
    // expert 0 wins).
    Value *Ties = B.CreateFCmpOEQ(Val, ResVal);
    if (Idx && Float)
      Ties = B.CreateOr(Ties, B.CreateAnd(B.CreateFCmpUNO(Val, Val),
                                          B.CreateFCmpUNO(ResVal, ResVal)));
    Value *Here = Idx ? B.CreateAnd(B.CreateICmpEQ(Idx, ResIdx), Ties) : Ties;
    if (Idx && G.SameBitsAtValue)
      Here = B.CreateOr(Here, B.CreateFCmpOEQ(Val, ResVal));
    Bad = B.CreateOr(Bad, B.CreateAnd(Here, B.CreateICmpNE(Bits, ResBits)));
  }
  if (G.Sentinel || G.EmptyLanes) {
    Constant *Largest = noElementIndex(ResIdx->getType());
    if (G.EmptyKeepsOwn)
      // An element encoded like "no element" (whose pair it may tie).
      Bad = B.CreateOr(
          Bad, B.CreateAnd(B.CreateNot(None), B.CreateICmpEQ(Idx, Largest)));
    else
      // The result is "no element" or ties with it: decided by lane order.
      Bad = B.CreateOr(Bad, B.CreateICmpEQ(ResIdx, Largest));
  }
  if (BelowBound)
    Bad = B.CreateOr(Bad, BelowBound);
  // A lane whose combine a gate keeps from running.
  for (auto [Cond, On] : G.OpenGates)
    Bad = B.CreateOr(Bad, On ? B.CreateNot(Cond) : Cond);
  Type *MaskTy = B.getIntNTy(Chip.WaveSize);
  if (G.FullGroups)
    Bad = B.CreateOr(Bad, buildPartialGroup(B, G.FullGroups, LaneId));
  if (uint64_t All = argrec::allLanes(Chip.WaveSize);
      (G.ReadGroups & All) != All) {
    Value *Shift = B.CreateZExtOrTrunc(LaneId(), MaskTy);
    Value *Bit = B.CreateLShr(ConstantInt::get(MaskTy, G.ReadGroups), Shift);
    Bad = B.CreateAnd(Bad, B.CreateTrunc(Bit, B.getInt1Ty()));
  }
  if (G.LaneIsTid) {
    if (G.TidX) {
      Value *Tid = argrec::buildThreadIdX(B, Chip);
      Bad = B.CreateOr(
          Bad, B.CreateICmpNE(LaneId(), B.CreateAnd(Tid, Chip.WaveSize - 1)));
    }
    // A linear thread id: its other term is unknown, so also check the
    // range the proof tried.
    for (Value *T : G.TidLeaves) {
      Value *Low = B.CreateZExtOrTrunc(T, B.getInt32Ty());
      Bad = B.CreateOr(
          Bad, B.CreateICmpNE(LaneId(), B.CreateAnd(Low, Chip.WaveSize - 1)));
      Bad = B.CreateOr(
          Bad, B.CreateICmpUGE(T, ConstantInt::get(T->getType(), 1024)));
    }
  }
  Value *Ballot = argrec::buildBallot(B, Chip, Bad);
  return B.CreateICmpEQ(Ballot, ConstantInt::get(MaskTy, 0), "crosslane.fast");
}

/// True in a lane whose aligned group of \p Group lanes has an inactive lane
/// (\p LaneId: the lane id, built once per guard).
Value *Recognizer::buildPartialGroup(IRBuilder<> &B, unsigned Group,
                                     function_ref<Value *()> LaneId) {
  unsigned W = Chip.WaveSize;
  Type *MaskTy = B.getIntNTy(W);
  Value *Active = argrec::buildBallot(B, Chip, B.getTrue());
  APInt Ones = APInt::getLowBitsSet(W, Group);
  if (Group >= W)
    return B.CreateICmpNE(Active, ConstantInt::get(MaskTy, Ones));
  Value *Base =
      B.CreateZExtOrTrunc(B.CreateAnd(LaneId(), ~(Group - 1)), MaskTy);
  Value *Mine =
      B.CreateAnd(B.CreateLShr(Active, Base), ConstantInt::get(MaskTy, Ones));
  return B.CreateICmpNE(Mine, ConstantInt::get(MaskTy, Ones));
}

/// True for a fence that orders memory only against the thread itself
/// (`__atomic_signal_fence`, `fence syncscope("singlethread")`): a compiler
/// barrier that no other lane or thread can observe. Kokkos puts one after
/// the shuffles of each exchange; skipping it with the region's code on the
/// fast path changes nothing another thread can see.
static bool isSignalFence(const Instruction &I) {
  auto *Fence = dyn_cast<FenceInst>(&I);
  return Fence && Fence->getSyncScopeID() == SyncScope::SingleThread;
}

/// The chain's code from \p Begin to just after its results, when it can be
/// skipped as a unit: single entry, single exit, acyclic, without side
/// effects, and read afterwards only through the results (other values it
/// computes that are used later must be hoistable above it).
std::optional<ChainRegion> Recognizer::findRegion(Instruction *Begin,
                                                  ArrayRef<Output> Outputs,
                                                  std::string &Why) {
  ChainRegion R;
  R.Begin = Begin;
  // The region ends in the results' last block; results in blocks before
  // it (a first pair chosen before a second) must dominate it.
  BasicBlock *EndBB = Outputs.front().I->getParent();
  for (const Output &O : Outputs)
    if (DT.dominates(EndBB, O.I->getParent()))
      EndBB = O.I->getParent();
  Instruction *Last = nullptr;
  for (const Output &O : Outputs) {
    if (!DT.dominates(O.I->getParent(), EndBB)) {
      Why = "the chain's results are in different blocks";
      return std::nullopt;
    }
    if (O.I->getParent() == EndBB && !isa<PHINode>(O.I) &&
        (!Last || Last->comesBefore(O.I)))
      Last = O.I;
  }
  R.End = Last ? Last->getNextNode() : &*EndBB->getFirstNonPHIIt();
  BasicBlock *BeginBB = Begin->getParent();
  if (BeginBB == EndBB && !Begin->comesBefore(R.End)) {
    Why = "the chain's results come before its first stage";
    return std::nullopt;
  }
  R.Blocks.insert(BeginBB);
  SmallVector<BasicBlock *, 8> Work;
  if (BeginBB != EndBB)
    Work.push_back(BeginBB);
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (succ_empty(BB)) {
      Why = "the chain's code can leave the function";
      return std::nullopt;
    }
    for (BasicBlock *S : successors(BB)) {
      if (DT.dominates(S, BB)) {
        Why = "the chain's code contains a loop";
        return std::nullopt;
      }
      if (R.Blocks.insert(S).second && S != EndBB)
        Work.push_back(S);
    }
  }
  if (!R.Blocks.count(EndBB)) {
    Why = "the chain's results are not reached from its first stage";
    return std::nullopt;
  }
  for (BasicBlock *BB : R.Blocks)
    if (BB != BeginBB)
      for (BasicBlock *P : predecessors(BB))
        if (!R.Blocks.count(P)) {
          Why = "the chain's code has another entry";
          return std::nullopt;
        }
  // Side effects, and values that escape.
  // The chain's code: what the results are computed from that depends on
  // a lane exchange (so not, e.g., the lane addresses, which may move).
  SmallPtrSet<Instruction *, 32> Back;
  SmallVector<Instruction *, 16> Slice;
  for (const Output &O : Outputs) {
    R.Results.insert(O.I);
    Slice.push_back(O.I);
  }
  while (!Slice.empty()) {
    Instruction *I = Slice.pop_back_val();
    if (!R.contains(I) || !Back.insert(I).second)
      continue;
    for (Value *Op : I->operands())
      if (auto *OI = dyn_cast<Instruction>(Op))
        Slice.push_back(OI);
  }
  for (Instruction *I : Back)
    if (auto *CI = dyn_cast<CallInst>(I);
        CI && exchangedWordOperand(CI) != NoLane)
      Slice.push_back(CI);
  while (!Slice.empty()) {
    Instruction *I = Slice.pop_back_val();
    if (!R.ChainCode.insert(I).second)
      continue;
    for (User *U : I->users())
      if (Back.count(cast<Instruction>(U)))
        Slice.push_back(cast<Instruction>(U));
  }
  for (BasicBlock *BB : R.Blocks)
    for (Instruction &I : *BB) {
      if (!R.contains(&I))
        continue;
      // A Vortex shuffle is `asm volatile` in hip_runtime.h but only reads
      // the warp's registers.
      auto *CI = dyn_cast<CallInst>(&I);
      if (I.mayHaveSideEffects() && !isSignalFence(I) &&
          !(CI && argrec::decodeVortexShuffle(CI))) {
        Why = "the chain's code has side effects";
        return std::nullopt;
      }
      if (R.Results.count(&I))
        continue;
      bool Escapes = any_of(I.users(), [&](User *U) {
        return !R.contains(cast<Instruction>(U));
      });
      if (Escapes && !tryHoist(&I, R) && !trySink(&I, R)) {
        Why = "a value the chain's code computes is used after it";
        return std::nullopt;
      }
    }
  return R;
}

/// Adds \p I to \p R.Sink when it can run just after the results instead:
/// in the results' block (a move within one block keeps even a convergent
/// call's control dependence), used only after the region, and computed
/// from results, values before the region, hoistable values or other
/// sunk values.
bool Recognizer::trySink(Instruction *I, ChainRegion &R) {
  if (I->getParent() != R.End->getParent() || isa<PHINode>(I) ||
      any_of(I->users(),
             [&](User *U) { return R.contains(cast<Instruction>(U)); }))
    return false;
  for (Value *Op : I->operands()) {
    auto *OI = dyn_cast<Instruction>(Op);
    if (!OI || !R.contains(OI) || R.Results.count(OI) ||
        is_contained(R.Sink, OI))
      continue;
    if (!tryHoist(OI, R))
      return false;
  }
  R.Sink.push_back(I);
  return true;
}

/// collectHoist, leaving \p R.Hoist as it was when \p I cannot move up.
bool Recognizer::tryHoist(Instruction *I, ChainRegion &R) {
  SmallPtrSet<Instruction *, 8> Before = R.Hoist;
  if (collectHoist(I, R))
    return true;
  R.Hoist = std::move(Before);
  return false;
}

/// True if \p I may run earlier, where its operands are available: not a
/// phi, speculatable, not convergent, no memory access.
static bool canMoveUp(const Instruction *I) {
  auto *CB = dyn_cast<CallBase>(I);
  return !isa<PHINode>(I) && !I->mayReadFromMemory() &&
         !(CB && CB->isConvergent()) && isSafeToSpeculativelyExecute(I);
}

/// True if \p I, a simple load after \p At in its block, may run at \p At
/// instead: nothing between them may write memory (a second pair's values
/// loaded after the first pair's exchanges).
static bool isLoadMovableUp(Instruction *I, Instruction *At) {
  auto *LI = dyn_cast<LoadInst>(I);
  if (!LI || !LI->isSimple() || LI->getParent() != At->getParent())
    return false;
  for (Instruction *X = At; X != LI; X = X->getNextNode())
    if (X->mayWriteToMemory())
      return false;
  return true;
}

/// Collects in \p Move (operands first) what must move above \p At, the
/// first exchange of \p First's group, for \p First's words to be
/// available there: a word computed after \p At (an i64 index split after
/// the value's exchange, a second pair's words, a later pair's bitcast) with
/// what it is computed from after \p At. False if one cannot move (a phi,
/// memory, a convergent call; a load moves only within \p At's block,
/// with nothing writing memory in between).
bool Recognizer::wordsAvailableAt(const Stage &First, Instruction *At,
                                  SmallSetVector<Instruction *, 8> &Move) {
  std::function<bool(Value *)> Need = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Move.count(I) || DT.dominates(I, At))
      return true;
    // Not available at At, which therefore dominates I and its users: I
    // may move up to At if it can run there (a later pair's bitcast).
    if (I == At || !(canMoveUp(I) || isLoadMovableUp(I, At)))
      return false;
    if (!all_of(I->operands(), Need))
      return false;
    Move.insert(I);
    return true;
  };
  return all_of(First.Calls,
                [&](CallInst *C) { return Need(exchangedWord(C)); });
}

/// The operation goes before \p At; moves \p First's words above it
/// (wordsAvailableAt).
bool Recognizer::hoistWords(const Stage &First, Instruction *At) {
  SmallSetVector<Instruction *, 8> Move;
  if (!wordsAvailableAt(First, At, Move))
    return false;
  for (Instruction *I : Move)
    I->moveBefore(At->getIterator());
  return true;
}

/// The first of a group's first exchanges \p Starts: the one that dominates
/// the others (null if none does).
Instruction *Recognizer::firstExchange(ArrayRef<Instruction *> Starts) {
  if (Starts.empty())
    return nullptr;
  Instruction *At = Starts.front();
  for (Instruction *I : Starts.drop_front())
    if (DT.dominates(I, At))
      At = I;
  for (Instruction *I : Starts)
    if (I != At && !DT.dominates(At, I))
      return nullptr;
  return At;
}

/// Whether a chain of \p Later starts inside a chain of \p Earlier: after
/// its first exchange and before (dominating) its last, so that neither is
/// a region without the other, and whenever that first exchange runs (its
/// block post-dominates it: no exit in between, where the later
/// operation's lanes would differ); and the words of every chain of \p
/// Later can be available at \p Earlier's first exchange.
bool Recognizer::interleaves(ArrayRef<SmallVector<unsigned, 8>> Earlier,
                             ArrayRef<SmallVector<unsigned, 8>> Later) {
  SmallVector<Instruction *, 2> Starts;
  for (ArrayRef<unsigned> A : Earlier)
    Starts.push_back(Stages[A.front()].Calls.front());
  Instruction *At = firstExchange(Starts);
  if (!At)
    return false;
  bool Inside = any_of(Earlier, [&](ArrayRef<unsigned> A) {
    Instruction *Last = Stages[A.back()].Calls.front();
    return any_of(Later, [&](ArrayRef<unsigned> B) {
      Instruction *Start = Stages[B.front()].Calls.front();
      return Start != Last && DT.dominates(At, Start) &&
             DT.dominates(Start, Last) &&
             PDT.dominates(Start->getParent(), At->getParent());
    });
  });
  SmallSetVector<Instruction *, 8> Move;
  return Inside && all_of(Later, [&](ArrayRef<unsigned> B) {
           return wordsAvailableAt(Stages[B.front()], At, Move);
         });
}

/// Chains that run in lock step, each pair exchanged right before its own
/// combine (`for k: v = shfl(acc[k]); if (better) acc[k] = v;`, unrolled),
/// interleave: neither is a region alone (each one's code lies inside the
/// other's), so they are planned and replaced as one group, like the pairs
/// one set of exchanges carries.
void Recognizer::mergeInterleaved(SmallVectorImpl<ChainGroup> &Groups) {
  for (unsigned I = 0; I < Groups.size(); ++I)
    for (unsigned J = I + 1; J < Groups.size();) {
      if (!interleaves(Groups[I], Groups[J])) {
        ++J;
        continue;
      }
      append_range(Groups[I], Groups[J]);
      Groups.erase(Groups.begin() + J);
    }
}

/// Adds \p I and what it needs to \p R.Hoist when all of it can run before
/// the region instead (speculatable, not convergent, no memory access).
bool Recognizer::collectHoist(Instruction *I, ChainRegion &R) {
  if (!R.contains(I) || R.Hoist.count(I))
    return true;
  // Never the chain itself (what the results are computed from), nor a
  // value that moves below it.
  if (R.ChainCode.count(I) || is_contained(R.Sink, I))
    return false;
  // A call with no memory access that returns and does not unwind (say
  // `__ockl_get_local_id` without device libraries) may move too when the
  // region runs it anyway: in the region's first block (a move within one
  // block, which keeps even a convergent call's control dependence), or,
  // not convergent, in a block that post-dominates it.
  auto *CB = dyn_cast<CallBase>(I);
  BasicBlock *BeginBB = R.Begin->getParent();
  bool RunsAnyway =
      CB && CB->doesNotAccessMemory() && CB->willReturn() &&
      CB->doesNotThrow() &&
      (I->getParent() == BeginBB ||
       (!CB->isConvergent() && PDT.dominates(I->getParent(), BeginBB)));
  if (!canMoveUp(I) && !RunsAnyway)
    return false;
  R.Hoist.insert(I);
  for (Value *Op : I->operands())
    if (auto *OI = dyn_cast<Instruction>(Op); OI && !collectHoist(OI, R))
      return false;
  return true;
}

/// True if \p V is never NaN: a non-NaN constant, an integer conversion, a
/// value LLVM knows is not NaN, or a select/phi of such values, where a
/// select's arm also counts when the arm is an operand of the ordered
/// compare that picks it (`x > best ? x : best`). A phi is assumed not NaN
/// while its own incoming values are checked: an induction over the loop
/// that scans with `if (x > best) best = x` from best = -inf. Every check
/// is part of one conjunction, so an assumption never hides a failure.
bool Recognizer::isNeverNaN(Value *V, SmallPtrSetImpl<const PHINode *> &Assumed,
                            const Instruction *At, unsigned Depth) {
  if (Depth > 12)
    return false;
  if (auto *CF = dyn_cast<ConstantFP>(V))
    return !CF->isNaN();
  if (isa<SIToFPInst, UIToFPInst>(V))
    return true;
  if (auto *Phi = dyn_cast<PHINode>(V)) {
    if (!Assumed.insert(Phi).second)
      return true;
    return all_of(Phi->incoming_values(), [&](Value *In) {
      return isNeverNaN(In, Assumed, At, Depth + 1);
    });
  }
  if (auto *Sel = dyn_cast<SelectInst>(V)) {
    auto *Cmp = dyn_cast<FCmpInst>(Sel->getCondition());
    // Taken: the arm is picked when the compare is true.
    auto ArmOk = [&](Value *Arm, bool Taken) {
      if (Cmp && (Cmp->getOperand(0) == Arm || Cmp->getOperand(1) == Arm) &&
          Cmp->getPredicate() != CmpInst::FCMP_FALSE &&
          Cmp->getPredicate() != CmpInst::FCMP_TRUE &&
          (Taken ? CmpInst::isOrdered(Cmp->getPredicate())
                 : CmpInst::isUnordered(Cmp->getPredicate())))
        return true;
      return isNeverNaN(Arm, Assumed, At, Depth + 1);
    };
    return ArmOk(Sel->getTrueValue(), true) &&
           ArmOk(Sel->getFalseValue(), false);
  }
  return isKnownNeverNaN(V, SimplifyQuery(F.getDataLayout(), &DT, nullptr, At));
}

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
  if (std::optional<LaneVector> L = lanes(V))
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

/// Moves the code computing \p Outputs that lies below the chain's last
/// read \p LastCall's first later side effect (or its block's end), to
/// there, when all of it is speculatable and its other operands are
/// available there; false (changing nothing) when there is nothing to move
/// or some of it cannot move.
bool Recognizer::hoistOutputs(Instruction *LastCall, ArrayRef<Output> Outputs) {
  if (hoistOutputsTo(LastCall->getNextNode(), Outputs))
    return true;
  // Sunk below the last combine's merge (`if (threadIdx.x == 0) out =
  // best;`): into the block that immediately dominates theirs.
  DomTreeNode *Node = DT.getNode(Outputs.front().I->getParent());
  if (!Node || !Node->getIDom())
    return false;
  BasicBlock *Up = Node->getIDom()->getBlock();
  return DT.dominates(LastCall->getParent(), Up) &&
         hoistOutputsTo(&*Up->getFirstNonPHIIt(), Outputs, /*Early=*/true);
}

/// Moves \p Outputs and what they compute from (pure, speculatable code)
/// to \p Start's block, before its first side effect from \p Start on
/// (\p Early: right after the last of that block's values they read, so the
/// code that follows them, such as the branch's condition, stays out of the
/// chain's region).
bool Recognizer::hoistOutputsTo(Instruction *Start, ArrayRef<Output> Outputs,
                                bool Early) {
  // Before the first side effect (a fence, a store), or at the end of the
  // block.
  BasicBlock *Into = Start->getParent();
  Instruction *At = Start;
  while (!At->isTerminator() && !At->mayHaveSideEffects())
    At = At->getNextNode();
  SmallPtrSet<Instruction *, 16> Move;
  SmallVector<Instruction *, 16> Work;
  for (const Output &O : Outputs)
    Work.push_back(O.I);
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (DT.dominates(I, At) || Move.count(I))
      continue;
    if (!canMoveUp(I) || !DT.dominates(Into, I->getParent()))
      return false;
    Move.insert(I);
    for (Value *Op : I->operands())
      if (auto *OI = dyn_cast<Instruction>(Op))
        Work.push_back(OI);
  }
  if (Move.empty())
    return false;
  if (Early) {
    Instruction *Limit = At;
    At = Start;
    for (Instruction *I : Move)
      for (Value *Op : I->operands())
        if (auto *OI = dyn_cast<Instruction>(Op);
            OI && !Move.count(OI) && OI->getParent() == Into &&
            !isa<PHINode>(OI) && !OI->comesBefore(At) && OI != Limit)
          At = OI->getNextNode();
  }
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    for (Instruction &I : make_early_inc_range(*BB))
      if (Move.count(&I))
        I.moveBefore(At->getIterator());
  return true;
}

/// True if only lanes in \p Lanes reach \p BB: a dominating branch on a
/// lane expression (`__lane_id() == 0`) or on threadIdx.x (\p UsesTid).
bool Recognizer::onlyInLanes(BasicBlock *BB, uint64_t Lanes, bool &UsesTid) {
  for (DomTreeNode *N = DT.getNode(BB); N && N->getIDom(); N = N->getIDom()) {
    BasicBlock *Dom = N->getIDom()->getBlock();
    auto *Br = dyn_cast<BranchInst>(Dom->getTerminator());
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    for (unsigned SI = 0; SI < 2; ++SI)
      if (DT.dominates(BasicBlockEdge(Dom, Br->getSuccessor(SI)), BB) &&
          impliesLaneIn(Br->getCondition(), SI == 0, Chip.WaveSize, Lanes,
                        UsesTid, &UsedTidLeaves))
        return true;
  }
  return false;
}

/// True if every use of \p Outputs reads them only in \p Lanes: in code
/// only such lanes reach, through a cross-lane read from such lanes
/// (`__shfl(v, 0)`, readlane, DPP, ds_swizzle), or through an `and` with a
/// lane test true only there (pure computations in between are followed).
bool Recognizer::readOnlyInLanes(ArrayRef<Output> Outputs, uint64_t Lanes,
                                 bool &UsesTid, std::string &Why) {
  // The results, and the phis that merge them with other values (a loop's
  // exit): what reads those reads the results.
  SmallVector<Instruction *, 8> Work;
  SmallPtrSet<Instruction *, 8> Seen;
  for (const Output &O : Outputs) {
    Seen.insert(O.I);
    Work.push_back(O.I);
  }
  while (!Work.empty()) {
    Instruction *V = Work.pop_back_val();
    for (Use &U : V->uses()) {
      auto *User = cast<Instruction>(U.getUser());
      if (any_of(Outputs, [&](const Output &P) { return P.I == User; }))
        continue;
      // And-ed with a lane test true only in those lanes (clang evaluates
      // `lane == 0 && best.index != -1` in every lane): elsewhere the value
      // does not depend on the result.
      Value *A, *B;
      if (match(User, m_LogicalAnd(m_Value(A), m_Value(B))) &&
          impliesLaneIn(A == V ? B : A, true, Chip.WaveSize, Lanes, UsesTid,
                        &UsedTidLeaves))
        continue;
      // Phis and pure computations: what reads them reads the result.
      if (isa<PHINode>(User) ||
          (!isa<CallBase>(User) && !User->isTerminator() &&
           !User->mayHaveSideEffects() && !User->mayReadFromMemory())) {
        if (Seen.insert(User).second)
          Work.push_back(User);
        continue;
      }
      auto *CB = dyn_cast<CallBase>(User);
      auto *CI = dyn_cast<CallInst>(User);
      if (CI && U.getOperandNo() == exchangedWordOperand(CI)) {
        bool Tid;
        auto Src = callSources(CI, Tid);
        if (Src && all_of(*Src, [&](unsigned From) {
              return From == NoLane || ((Lanes >> From) & 1);
            })) {
          UsesTid |= Tid;
          continue;
        }
        Why = "a cross-lane read takes it from other lanes";
        return false;
      }
      if (CB && CB->isConvergent()) {
        Why = "a convergent call reads it";
        return false;
      }
      if (!onlyInLanes(User->getParent(), Lanes, UsesTid)) {
        Why = "it is read where other lanes run (only a branch on the lane "
              "id, e.g. `__lane_id() == 0`, a read from those lanes, or a "
              "value and-ed with such a lane test is recognised as "
              "restricting it)";
        return false;
      }
    }
  }
  return true;
}

/// Branches around the region: the guard's fast path reads \p NewOut, the
/// slow path runs the original chain; the results meet in phis.
void Recognizer::insertFallback(const ChainRegion &R, Value *Fast,
                                ArrayRef<Output> Outputs,
                                ArrayRef<Value *> NewOut) {
  // Hoisted values keep their order (RPO keeps definitions first).
  SmallVector<Instruction *, 8> ToHoist;
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    if (R.Blocks.count(BB))
      for (Instruction &I : *BB)
        if (R.Hoist.count(&I))
          ToHoist.push_back(&I);
  for (Instruction *I : ToHoist)
    I->moveBefore(R.Begin->getIterator());
  // Sunk values start the code after the region.
  Instruction *End = R.End;
  for (Instruction *I : R.Sink)
    I->moveBefore(R.End->getIterator());
  if (!R.Sink.empty())
    End = R.Sink.front();
  BasicBlock *Pre = R.Begin->getParent();
  BasicBlock *Orig = SplitBlock(Pre, R.Begin);
  BasicBlock *Tail = End->getParent();
  BasicBlock *Join = SplitBlock(Tail, End);
  Pre->getTerminator()->eraseFromParent();
  Guards.push_back(BranchInst::Create(Join, Orig, Fast, Pre));
  // The region's blocks after the splits: Orig for the first, Tail's head
  // (Join took what follows the results).
  SmallPtrSet<BasicBlock *, 8> Inside(R.Blocks.begin(), R.Blocks.end());
  Inside.erase(Pre);
  Inside.insert(Orig);
  IRBuilder<> B(Join, Join->begin());
  for (auto [O, New] : zip(Outputs, NewOut)) {
    PHINode *Phi = B.CreatePHI(O.I->getType(), 2, O.I->getName() + ".merged");
    Phi->addIncoming(O.I, Tail);
    Phi->addIncoming(New, Pre);
    O.I->replaceUsesWithIf(Phi, [&](Use &U) {
      auto *UI = cast<Instruction>(U.getUser());
      return UI != Phi && !Inside.count(UI->getParent());
    });
  }
  ++CFGEdits;
}

bool Recognizer::run() {
  collectStages();
  if (Stages.empty())
    return false;
  CROSSLANE_DEBUG({
    dbgs() << "crosslane-recognize-arg: function '" << F.getName() << "' on ";
    Chip.print(dbgs());
    dbgs() << ": " << Stages.size() << " cross-lane stage(s)\n";
  });
  computeClosures();
  if (splitMixedPhis()) {
    DT.recalculate(F);
    PDT.recalculate(F);
    for (Stage &S : Stages)
      S.BB = S.Calls.front()->getParent();
    Closures.clear();
    computeClosures();
  }
  // Link stage K to the stage whose words all come from K's combine and
  // that exchanges as many words.
  SmallVector<int, 8> Next(Stages.size(), -1), Prev(Stages.size(), -1);
  for (unsigned K = 0; K < Stages.size(); ++K)
    for (unsigned J = 0; J < Stages.size(); ++J) {
      if (J == K || Prev[J] >= 0 ||
          Stages[J].Calls.size() != Stages[K].Calls.size() ||
          ladderOf(Stages[J]) != ladderOf(Stages[K]))
        continue;
      bool All = true;
      for (Value *W : Stages[J].words()) {
        auto *I = dyn_cast<Instruction>(W);
        All &= I && Closures[K].count(I);
      }
      if (All) {
        Next[K] = J;
        Prev[J] = K;
        break;
      }
    }
  // A stage repeating an xor offset starts a new reduction (a value
  // butterfly, then one over indices chosen by its result). An identity
  // stage counts with the offset its source names: `__shfl_xor(v, 32)`
  // starts both butterflies on GFX10+ wave64 too.
  for (unsigned K = 0; K < Stages.size(); ++K) {
    if (Prev[K] >= 0)
      continue;
    unsigned Seen = 0;
    for (int S = K; S >= 0; S = Next[S]) {
      const Stage &St = classify(S);
      int Off = St.Down ? -1 : St.Offset ? St.Offset : St.NamedOffset;
      if (Off > 0 && (Seen & Off)) {
        Next[Prev[S]] = -1;
        Prev[S] = -1;
        break;
      }
      if (Off > 0)
        Seen |= Off;
    }
  }
  // Chains whose first stages were split from one stage (several pairs on
  // one set of exchanges) are planned first and replaced together.
  SmallVector<ChainGroup, 4> Groups;
  DenseMap<unsigned, unsigned> GroupOf;
  for (unsigned K = 0; K < Stages.size(); ++K) {
    if (Prev[K] >= 0)
      continue;
    auto [It, New] = GroupOf.try_emplace(Stages[K].Origin, Groups.size());
    if (New)
      Groups.emplace_back();
    SmallVector<unsigned, 8> &Chain = Groups[It->second].emplace_back();
    for (int S = K; S >= 0; S = Next[S])
      Chain.push_back(S);
  }
  mergeInterleaved(Groups);
  bool Changed = false;
  bool Stale = false;
  for (auto &Group : Groups) {
    if (Stale) {
      // A guarded rewrite split blocks: refresh what this chain reads (only
      // when another chain follows; most kernels have one or two).
      DT.recalculate(F);
      PDT.recalculate(F);
      for (Stage &S : Stages)
        S.BB = S.Calls.front()->getParent();
      Stale = false;
    }
    SmallVector<ChainPlan, 2> Plans;
    for (ArrayRef<unsigned> Chain : Group)
      if (std::optional<ChainPlan> Pl = planChain(Chain))
        Plans.push_back(std::move(*Pl));
    if (Plans.empty())
      continue;
    unsigned Edits = CFGEdits;
    if (applyPlans(Plans)) {
      for (const ChainPlan &Pl : Plans)
        if (Pl.Done)
          for (unsigned SI : Pl.Chain)
            RewrittenCalls.insert_range(Stages[SI].Calls);
      Changed = true;
      LaneMemo.clear(); // the rewrite changed the code
    }
    Stale |= CFGEdits != Edits;
  }
  if (!ArithmeticStages.empty()) {
    auto [SI, Op] = ArithmeticStages.front();
    NumRefused += ArithmeticStages.size();
    ORE.emit([&]() {
      const Stage &S = Stages[SI];
      return OptimizationRemarkMissed(DEBUG_TYPE, "NotAReduction",
                                      userDebugLoc(S.Calls.front()),
                                      S.Calls.front()->getParent())
             << "cross-lane butterfly not replaced (NotAReduction): "
             << std::to_string(ArithmeticStages.size())
             << " exchange(s) in this function combine what the lanes read "
                "by arithmetic ('"
             << Op
             << "'), not by choosing a lane's value: a sum or product, not "
                "an arg-reduction (call __crosslane_reduce_* for those)";
    });
  }
  return Changed;
}

/// -crosslane-fallback-trap: sends each guard's fallback edge to a trap.
static void trapFallbacks(Function &F, ArrayRef<BranchInst *> Guards) {
  for (BranchInst *Br : Guards) {
    BasicBlock *Trap =
        BasicBlock::Create(F.getContext(), "crosslane.fallback.trap", &F);
    IRBuilder<> B(Trap);
    B.CreateIntrinsic(Intrinsic::trap, {});
    B.CreateUnreachable();
    Br->setSuccessor(1, Trap);
  }
}

} // namespace

RecognizeArgReducePass::RecognizeArgReducePass()
    : Cache(std::make_shared<argrec::StageCache>()) {}

/// Splits the copies of a struct a combine chooses through a select of two
/// stack slots, and loads the pair a branchy combine chooses through a phi
/// of slots from each slot (StructCopies.h), in a function with cross-lane
/// reads, and lets SROA promote the slots and InstCombine fold what that
/// leaves, as the pipeline would have had the copies been scalar.
static bool prepareStructCopies(Function &F, FunctionAnalysisManager &FAM,
                                function_ref<void()> BeforeChange) {
  bool Exchanges = any_of(instructions(F), [](Instruction &I) {
    auto *CI = dyn_cast<CallInst>(&I);
    return CI && exchangedWordOperand(CI) != NoLane;
  });
  if (!Exchanges)
    return false;
  bool Speculated = argrec::speculateSlotLoads(F, BeforeChange);
  if (!argrec::splitSelectedStructCopies(F, BeforeChange) && !Speculated)
    return false;
  FAM.invalidate(F, PreservedAnalyses::none());
  FAM.invalidate(F, SROAPass(SROAOptions::PreserveCFG).run(F, FAM));
  FAM.invalidate(F, InstCombinePass().run(F, FAM));
  return true;
}

PreservedAnalyses RecognizeArgReducePass::run(Function &F,
                                              FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  noteStatisticsCounted();
  // A rewrite that leaves the function invalid must not reach the backend:
  // before its first edit the function is copied; the copy is kept until the
  // result verifies, and restored (with a remark) if it does not.
  FunctionBackup Backup(F);
  auto BeforeChange = [&]() { Backup.take(); };
  // Vector state scalarized, or pairs in stack slots promoted, for chains
  // no rewrite took: put back.
  bool UndoPrepared = false;
  PreservedAnalyses PA = [&]() -> PreservedAnalyses {
    // Vortex code: the lane maps need the warp size, which the driver
    // passes; ladder loops and lane atomics are AMDGPU's only so far.
    std::optional<ChipInfo> Chip = argrec::vortexRecognitionChip(F);
    bool Vortex = Chip.has_value();
    if (!Chip)
      Chip = ChipInfo::get(F);
    if (!Chip)
      return PreservedAnalyses::all();
    bool Split = prepareStructCopies(F, FAM, BeforeChange);
    bool Scalarized = argrec::scalarizeExchangedElements(F, BeforeChange);
    bool Narrowed = argrec::narrowHalfExchanges(F, BeforeChange);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    SmallVector<LadderVersion, 2> Versions;
    if (!Vortex)
      Versions = versionLadderLoops(
          F, FAM.getResult<LoopAnalysis>(F), DT, Chip->WaveSize,
          [&]() -> const UniformityInfo & {
            return FAM.getResult<UniformityInfoAnalysis>(F);
          },
          BeforeChange);
    if (!Versions.empty())
      PDT.recalculate(F);
    SmallVector<argrec::RestoredHighWord, 4> HighWords =
        argrec::restoreHighWords(F, DT, BeforeChange);
    Recognizer R(F, *Chip, DT, PDT, ORE, *Cache, Versions, BeforeChange);
    bool Changed =
        R.run() || !HighWords.empty() || Scalarized || Narrowed || Split;
    // What no rewrite took over is folded back.
    argrec::foldHighWords(HighWords);
    // A copy is kept only if every chain in it was replaced. The fallback
    // of the copies of one loop is the loop, after the last copy kept.
    SmallVector<const LadderVersion *, 4> Kept;
    for (const LadderVersion &V : Versions) {
      if (!all_of(V.CopyCalls, [&](Instruction *I) { return R.rewritten(I); }))
        dropLadderVersion(V);
      else
        Kept.push_back(&V);
    }
    SmallVector<BranchInst *, 4> Guards;
    for (const LadderVersion *V : Kept)
      if (fallsToLoop(*V))
        Guards.push_back(V->Entry);
    if (FallbackTrap) {
      for (const WeakVH &G : R.guards())
        if (auto *Br = dyn_cast_or_null<BranchInst>(G))
          Guards.push_back(Br);
      trapFallbacks(F, Guards);
    }
    if (!Versions.empty() || (FallbackTrap && !Guards.empty()))
      removeUnreachableBlocks(F);
    // Per-lane atomics to one address: one per wave (after the chains, whose
    // whole-wave results then count as uniform values). Uniformity is asked
    // for the function as it is now.
    bool Atomics = false;
    if (!Vortex && argrec::hasLaneAtomics(F)) {
      BeforeChange();
      if (Changed || R.cfgChanged() || !Versions.empty())
        FAM.invalidate(F, PreservedAnalyses::none());
      Atomics = argrec::combineLaneAtomics(
          F, *Chip, FAM.getResult<UniformityInfoAnalysis>(F),
          FAM.getResult<OptimizationRemarkEmitterAnalysis>(F));
    }
    UndoPrepared =
        (Scalarized || Narrowed || Split) && !R.rewroteAny() && !Atomics;
    if (R.cfgChanged() || !Versions.empty() || Atomics)
      return PreservedAnalyses::none();
    if (!Changed)
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }();
  if (!Backup.taken())
    return PA;
  if (UndoPrepared) {
    Backup.restore();
    return PreservedAnalyses::none();
  }
  std::string Problem;
  raw_string_ostream OS(Problem);
  if (!verifyFunction(F, &OS))
    return PA;
  Backup.restore();
  CROSSLANE_DEBUG(dbgs() << "crosslane-recognize-arg: '" << F.getName()
                         << "' failed to verify after the rewrites, restored: "
                         << Problem << "\n");
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&]() {
    return OptimizationRemarkMissed(DEBUG_TYPE, "InternalError", &F)
           << "internal error: a rewrite left the function invalid ("
           << StringRef(Problem).split('\n').first.trim()
           << "); the function is left unchanged, and any rewrite reported "
              "for it above is undone (please report this kernel)";
  });
  return PreservedAnalyses::none();
}

} // namespace crosslane
