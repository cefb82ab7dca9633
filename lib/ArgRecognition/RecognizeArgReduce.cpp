//===- RecognizeArgReduce.cpp - Recognise hand-written reductions --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// See RecognizeArgReduce.h and docs/ArgRecognition.md. The pass, and the
/// recogniser's driver: it collects a function's stages, links them into
/// chains, plans each chain (lane maps, proof, results, guard) and applies
/// the plans; it emits the remarks. The phases are in the RecognizeArg*.cpp
/// files beside this one (RecognizeArgInternal.h lists them).
///
//===----------------------------------------------------------------------===//

#include "crosslane/ArgRecognition/RecognizeArgReduce.h"
#include "HalfExchanges.h"
#include "HighWords.h"
#include "LadderLoops.h"
#include "LaneAtomics.h"
#include "LaneMap.h"
#include "RecognizeArgInternal.h"
#include "StructCopies.h"
#include "VectorState.h"
#include "VortexLaneOps.h"
#include "crosslane/Support/ChipInfo.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/FunctionBackup.h"
#include "crosslane/Support/RewriteJournal.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>
#include <string>

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace crosslane::argrec;

#define DEBUG_TYPE "crosslane-recognize-arg"

CROSSLANE_STATISTIC(NumChains, "Number of cross-lane chains examined");
CROSSLANE_STATISTIC(NumRefused,
                    "Number of chains left alone (see the remarks)");
CROSSLANE_STATISTIC(NumJournaled,
                    "Number of functions whose rewrites were checked from "
                    "their recorded layout");
CROSSLANE_STATISTIC(NumCopied, "Number of functions copied before an edit");
CROSSLANE_STATISTIC(NumUndone,
                    "Number of functions put back after a broken rewrite");

// For measurement only (tools/count-recognition.py): the code a guarded
// rewrite runs when its guard holds, without the original code it keeps for
// the inputs the guard sends back. Never for real compilations.
static cl::opt<bool> FallbackTrap(
    "crosslane-fallback-trap", cl::Hidden, cl::init(false),
    cl::desc("Measurement only: replace the fallback path of every guarded "
             "rewrite (and of every kept ladder-loop copy) by a trap, so the "
             "kernel holds only the code that runs when the guards hold"));

static cl::opt<bool> VerifyRewrites(
    "crosslane-verify-rewrites", cl::Hidden, cl::init(false),
    cl::desc("Also run LLVM's verifier on each function whose chains were "
             "replaced (the pass checks what a replacement can break)"));

static cl::opt<bool> CopyBeforeRewrites(
    "crosslane-copy-before-rewrites", cl::Hidden, cl::init(false),
    cl::desc("Copy each function before its chains are replaced and verify "
             "it with LLVM's verifier, instead of recording its layout"));

static cl::opt<bool> InjectRewriteFault(
    "crosslane-inject-rewrite-fault", cl::Hidden, cl::init(false),
    cl::desc("Testing only: take every rewritten function to be broken, so "
             "that it is put back as it was"));

namespace crosslane {
namespace recognize {

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
    Remarks.emit([&]() {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, CopyName, userDebugLoc(At),
                                        At->getParent())
             << Msg;
    });
  else
    Remarks.emit([&]() {
      return RemarkT(DEBUG_TYPE, Name, userDebugLoc(At), At->getParent())
             << Msg;
    });
}
/// Reports the replacement of \p Pl's chain by \p Call (\p Guarded: as in
/// rewrite): a remark, and a line for -debug-only.
void Recognizer::reportRewrite(const ChainPlan &Pl, CallInst *Call,
                               unsigned Guarded) {
  const Stage &First = Stages[Pl.Chain.front()];
  ArrayRef<Component> Comps = Pl.Comps;
  const Candidate &C = Pl.C;
  const ChainLanes &CL = Pl.CL;
  const Guard &G = Pl.G;
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

/// The remark for a chain that is one read whose result is not combined
/// with the lane's own state (stage \p SI). Sums and products (softmax's
/// denominator) are reported once per function, not once per exchange.
void Recognizer::refuseLoneRead(unsigned SI) {
  const Stage &First = Stages[SI];
  if (const char *Op = arithmeticUse(First)) {
    // A ladder loop's own exchange is covered by its unrolled copy's.
    if (!LoopOf.count(First.Calls.front()))
      ArithmeticStages.push_back({SI, Op});
    return;
  }
  if (Function *Callee = opaqueCombine(First))
    refuse(First, "NotAReduction",
           "what the lanes read is passed to '" + demangle(Callee->getName()) +
               "', which is not inlined: the combine must be visible here "
               "(drop noinline, or use __forceinline__)");
  else
    refuse(First, "NotAReduction",
           "what the lanes read is not combined with their own values");
}

/// What \p Pl's guard knows of lanes without a value: a gated chain has
/// some; with a sentinel index, an empty lane may keep its own state, whose
/// index the operation's order encodes as INT_MAX (\p Pl.G.Largest).
static void setEmptyLanes(ChainPlan &Pl, const ChainProof &P) {
  Guard &G = Pl.G;
  const Candidate &C = Pl.C;
  G.EmptyLanes = P.Gate.has_value();
  G.EmptyKeepsOwn =
      C.Sentinel && !P.Gate &&
      is_contained(P.EmptyKeepsOwn, EmptyPair(C.IdxSlot, *C.Sentinel));
  if (!G.EmptyKeepsOwn)
    return;
  unsigned Bits = Pl.Comps[C.IdxSlot].is64() ? 64 : 32;
  APInt Largest = APInt::getSignedMaxValue(Bits);
  if (C.LargestIdx)
    Largest.flipAllBits();
  if (C.UnsignedIdx)
    Largest ^= APInt::getSignMask(Bits);
  G.Largest =
      C.UnsignedIdx ? int64_t(Largest.getZExtValue()) : Largest.getSExtValue();
}

/// Checks and proves \p Chain (lane maps, stages, results) and plans its
/// replacement; nullopt, with a remark, when it is not replaced.
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
    refuseLoneRead(Chain.front());
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
  setEmptyLanes(Pl, P);
  G.BoundIsIndex =
      C.IsArg && AssumedBound.size() == 1 && AssumedBound.front() == C.IdxSlot;
  G.AtLeastMinusOne = std::move(AssumedBound);
  Pl.P = std::move(P);
  fillGuard(Pl, UsesTid);
  return Pl;
}

/// The chains of stages: a stage is linked to the stage whose words all
/// come from its combine and that exchanges as many words; a stage
/// repeating an xor offset starts a new chain. Chains whose first stages
/// were split from one stage (several pairs on one set of exchanges) are
/// one group, planned first and replaced together.
SmallVector<Recognizer::ChainGroup, 4> Recognizer::linkChains() {
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
  return Groups;
}

/// The missed remark for the stages that combine by arithmetic.
void Recognizer::reportArithmeticStages() {
  if (ArithmeticStages.empty())
    return;
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
  bool Changed = false;
  bool Stale = false;
  for (auto &Group : linkChains()) {
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
  reportArithmeticStages();
  return Changed;
}

} // namespace recognize

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

RecognizeArgReducePass::RecognizeArgReducePass()
    : Cache(std::make_shared<argrec::StageCache>()) {}

namespace {
/// What a function holds that the recogniser's phases look for, from one
/// scan: a phase whose kind of code is absent is not run (each would scan
/// the function again to find nothing), and a function without cross-lane
/// reads or atomics is left at once, before any analysis.
struct FunctionFacts {
  bool Exchanges = false;   ///< cross-lane reads
  bool SlotChoices = false; ///< pointer phis or memcpys (StructCopies.h)
  bool Elements = false;    ///< extractelement of a fixed vector
  bool Atomics = false;     ///< atomicrmw (LaneAtomics.h decides)
  /// The blocks of the cross-lane reads (a block once per run of reads).
  SmallVector<BasicBlock *, 8> ExchangeBlocks;
  /// A call under convergence control, whose tokens a rewrite's own
  /// convergent calls would need as well.
  const CallInst *Controlled = nullptr;

  explicit FunctionFacts(Function &F) {
    for (Instruction &I : instructions(F)) {
      if (auto *CI = dyn_cast<CallInst>(&I)) {
        if (exchangedWordOperand(CI) != NoLane) {
          Exchanges = true;
          if (ExchangeBlocks.empty() ||
              ExchangeBlocks.back() != CI->getParent())
            ExchangeBlocks.push_back(CI->getParent());
        }
        SlotChoices |= isa<MemCpyInst>(CI);
        if (!Controlled &&
            CI->getOperandBundle(LLVMContext::OB_convergencectrl))
          Controlled = CI;
      } else if (auto *Phi = dyn_cast<PHINode>(&I)) {
        SlotChoices |= Phi->getType()->isPointerTy();
      } else if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
        Elements |= isa<FixedVectorType>(EE->getVectorOperandType());
      } else {
        Atomics |= isa<AtomicRMWInst>(I);
      }
    }
  }
};

/// Whether one of \p Blocks lies on a cycle of \p F's control flow (is
/// reached again from its successors): a ladder loop's cross-lane reads do,
/// so without one the loops need not be looked at.
bool anyOnCycle(Function &F, ArrayRef<BasicBlock *> Blocks) {
  BitVector Seen(F.getMaxBlockNumber());
  SmallVector<BasicBlock *, 16> Work;
  for (BasicBlock *Start : Blocks) {
    Seen.reset();
    Work.assign(succ_begin(Start), succ_end(Start));
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == Start)
        return true;
      if (Seen.test(BB->getNumber()))
        continue;
      Seen.set(BB->getNumber());
      append_range(Work, successors(BB));
    }
  }
  return false;
}
} // namespace

/// Functions under convergence control are left as they are: the rewrite's
/// cross-lane calls would need the function's convergence tokens.
static void refuseControlledConvergence(Function &F, const CallInst &At) {
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&]() {
    return OptimizationRemarkMissed(DEBUG_TYPE, "ConvergenceControlled",
                                    userDebugLoc(&At), At.getParent())
           << "cross-lane code in '" << F.getName()
           << "' not rewritten: the function uses convergence control "
              "tokens (llvm.experimental.convergence.*), which the "
              "replacement's calls do not take yet";
  });
}

/// The remark for a function whose rewrites broke it and were undone.
static void reportUndone(Function &F, StringRef Problem) {
  CROSSLANE_DEBUG(dbgs() << "crosslane-recognize-arg: '" << F.getName()
                         << "' was left invalid by the rewrites, restored: "
                         << Problem << "\n");
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&]() {
    return OptimizationRemarkMissed(DEBUG_TYPE, "InternalError", &F)
           << "internal error: a rewrite left the function invalid ("
           << Problem.split('\n').first.trim()
           << "); the function is left unchanged, and any rewrite reported "
              "for it above is undone (please report this kernel)";
  });
}

/// What is wrong with \p F after its rewrites, or an empty string: from
/// the journal's check when \p J recorded them, else from LLVM's verifier.
static std::string rewriteProblem(Function &F, const RewriteJournal *J) {
  if (InjectRewriteFault)
    return "a fault injected by -crosslane-inject-rewrite-fault";
  std::string Problem = J ? J->check() : "";
  if (Problem.empty() && (!J || VerifyRewrites)) {
    raw_string_ostream OS(Problem);
    verifyFunction(F, &OS);
  }
  return Problem;
}

namespace {
/// A rewrite that leaves a function invalid must not reach the backend.
/// Before a chain's replacement (which only adds code, moves it, splits
/// blocks and redirects uses) the function's layout is recorded; the result
/// is checked, and put back (with a remark) if it is broken. Before any
/// other edit the function is copied; the copy is kept until the result
/// verifies, and restored if it does not.
class RewriteNet {
public:
  explicit RewriteNet(Function &F) : F(F), Backup(F), Journal(F) {}

  /// Before an edit a record cannot undo: what was recorded is settled.
  void beforeChange() {
    settle();
    copy();
  }
  /// Before a chain's replacement. Measurement runs (FallbackTrap) delete
  /// the original code: copied.
  void beforeRewrite() {
    if (Backup.taken() || Journal.recording())
      return;
    if (CopyBeforeRewrites || FallbackTrap || !Journal.begin())
      copy();
    else
      ++NumJournaled;
  }
  /// The analyses \p PA preserves, once the net has checked the function
  /// (and put back what broke it, or, with \p UndoPrepared, preparations
  /// no rewrite took).
  PreservedAnalyses finish(PreservedAnalyses PA, bool UndoPrepared);

private:
  void copy() {
    NumCopied += !Backup.taken();
    Backup.take();
  }
  /// Checks the recorded edits, and undoes them if they are broken.
  void settle();

  Function &F;
  FunctionBackup Backup;
  RewriteJournal Journal;
  bool Undone = false;
};
} // namespace

void RewriteNet::settle() {
  if (!Journal.recording())
    return;
  std::string Problem = rewriteProblem(F, &Journal);
  if (Problem.empty())
    return Journal.end();
  Journal.rollBack();
  Undone = true;
  ++NumUndone;
  reportUndone(F, Problem);
}

PreservedAnalyses RewriteNet::finish(PreservedAnalyses PA, bool UndoPrepared) {
  settle();
  if (Backup.taken() && UndoPrepared) {
    Backup.restore();
    return PreservedAnalyses::none();
  }
  std::string Problem = Backup.taken() ? rewriteProblem(F, nullptr) : "";
  if (Problem.empty())
    return Undone ? PreservedAnalyses::none() : PA;
  Backup.restore();
  ++NumUndone;
  reportUndone(F, Problem);
  return PreservedAnalyses::none();
}

PreservedAnalyses RecognizeArgReducePass::run(Function &F,
                                              FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  noteStatisticsCounted();
  RewriteNet Net(F);
  auto BeforeChange = [&]() { Net.beforeChange(); };
  auto BeforeRewrite = [&]() { Net.beforeRewrite(); };
  // Vector state scalarized, or pairs in stack slots promoted, for chains
  // no rewrite took: put back.
  bool UndoPrepared = false;
  PreservedAnalyses PA = [&]() -> PreservedAnalyses {
    // Vortex code: the lane maps need the warp size, which the driver
    // passes; ladder loops and lane atomics are AMDGPU's only so far.
    std::optional<ChipInfo> Chip = argrec::recognitionChip(F);
    if (!Chip)
      return PreservedAnalyses::all();
    bool Vortex = argrec::isVortexChip(*Chip);
    FunctionFacts Facts(F);
    if (!Facts.Exchanges && (Vortex || !Facts.Atomics))
      return PreservedAnalyses::all();
    if (Facts.Controlled) {
      refuseControlledConvergence(F, *Facts.Controlled);
      return PreservedAnalyses::all();
    }
    bool Split = Facts.Exchanges && Facts.SlotChoices &&
                 argrec::prepareStructCopies(F, FAM, BeforeChange);
    if (Split) // InstCombine may have made or removed vector code
      Facts = FunctionFacts(F);
    bool Scalarized =
        Facts.Elements && argrec::scalarizeExchangedElements(F, BeforeChange);
    bool Narrowed =
        Facts.Exchanges && argrec::narrowHalfExchanges(F, BeforeChange);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    SmallVector<LadderVersion, 2> Versions;
    if (!Vortex && anyOnCycle(F, Facts.ExchangeBlocks))
      Versions = versionLadderLoops(
          F, FAM.getResult<LoopAnalysis>(F), DT, Chip->WaveSize,
          [&]() -> const UniformityInfo & {
            return FAM.getResult<UniformityInfoAnalysis>(F);
          },
          BeforeChange);
    if (!Versions.empty())
      PDT.recalculate(F);
    SmallVector<argrec::RestoredHighWord, 4> HighWords;
    if (Facts.Exchanges)
      HighWords = argrec::restoreHighWords(F, DT, BeforeChange);
    recognize::Recognizer R(F, *Chip, DT, PDT, ORE, *Cache, Versions,
                            BeforeChange, BeforeRewrite);
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
    if (!Vortex && Facts.Atomics && argrec::hasLaneAtomics(F)) {
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
  return Net.finish(std::move(PA), UndoPrepared);
}

} // namespace crosslane
