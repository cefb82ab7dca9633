//===- LadderLoops.cpp - Shuffle ladders in loops with run-time trip counts
//===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// See LadderLoops.h. The steps for one loop:
///   1. the loop's control: the header phis that its exit condition and its
///      ds_bpermute addresses read (through integer arithmetic, compares
///      and selects only), each with a constant start or, for a phi that
///      doubles or halves, a start pinned to 1 or W/2 by the guard;
///   2. the iterations, simulated on those phis: the exit condition of each
///      becomes a constant or a condition on loop-invariant values (the
///      trip count, as a guard); with a run-time condition the copy has
///      log2(W) iterations, which take the offsets of a doubling or halving
///      ladder through every bit of the lane id;
///   3. the guard: conditions `icmp pred x, C` on one value are merged into
///      one range check; if it reads a value the uniformity analysis does
///      not show to be wave-uniform, it is replaced by "every active lane
///      agrees" (ballot(g) == ballot(true)), since the copy runs its
///      shuffles with the lanes that take it;
///   4. the copy: the loop body cloned once per iteration, header phis
///      replaced by the previous iteration's values, constants folded; the
///      last latch leads to the exit, whose phis take the copy's values.
///
//===----------------------------------------------------------------------===//

#include "LadderLoops.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/LoopIterator.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace llvm::PatternMatch;

static cl::opt<unsigned> LadderSpans(
    "crosslane-ladder-spans", cl::init(1),
    cl::desc("Unrolled copies of a shuffle ladder loop with a run-time trip "
             "count: for the whole wave, then for each smaller power-of-two "
             "span of lanes (default 1: the whole wave only; each copy keeps "
             "its unrolled fallback and is proven on its own)"));

namespace crosslane {
namespace argrec {

/// Instructions a trip count or an address may be computed with: pure
/// functions of their operands, so also uniform when those are (no phi: a
/// phi also depends on the branches into its block).
bool isFoldable(const Instruction &I) {
  return isa<BinaryOperator, CmpInst, SelectInst, CastInst, FreezeInst>(I);
}

/// The work-group queries of the HIP headers (device-library calls when no
/// device library is linked; the uniformity analysis sees only a call).
bool isUniformQuery(const Value *V) {
  auto *CB = dyn_cast<CallBase>(V);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  if (!Callee ||
      !all_of(CB->args(), [](const Use &A) { return isa<Constant>(A.get()); }))
    return false;
  return StringSwitch<bool>(Callee->getName())
      .Cases({"__ockl_get_local_size", "__ockl_get_group_id",
              "__ockl_get_num_groups", "__ockl_get_global_size",
              "__ockl_get_enqueued_local_size", "__ockl_get_work_dim"},
             true)
      .Default(false);
}

namespace {

/// Copies larger than this many instructions are not made.
constexpr unsigned MaxCopyInstructions = 4000;

bool isBPermute(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->getIntrinsicID() == Intrinsic::amdgcn_ds_bpermute;
}

/// The start a guard may pin a non-constant start of \p P to, for a copy
/// whose shuffles span \p Span lanes: 1 for a phi that doubles, Span/2 for
/// one that halves.
std::optional<uint64_t> pinnedStart(PHINode *P, BasicBlock *Latch,
                                    unsigned Span) {
  auto *Step = dyn_cast<BinaryOperator>(P->getIncomingValueForBlock(Latch));
  if (!Step || Step->getOperand(0) != P)
    return std::nullopt;
  auto *C = dyn_cast<ConstantInt>(Step->getOperand(1));
  if (Step->getOpcode() == Instruction::Add && Step->getOperand(1) == P)
    return 1;
  if (!C)
    return std::nullopt;
  switch (Step->getOpcode()) {
  case Instruction::Shl:
    return C->isOne() ? std::optional<uint64_t>(1) : std::nullopt;
  case Instruction::Mul:
    return C->equalsInt(2) ? std::optional<uint64_t>(1) : std::nullopt;
  case Instruction::LShr:
  case Instruction::AShr:
    return C->isOne() ? std::optional<uint64_t>(Span / 2) : std::nullopt;
  case Instruction::SDiv:
  case Instruction::UDiv:
    return C->equalsInt(2) ? std::optional<uint64_t>(Span / 2) : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// A condition the guard requires: \p Cond == \p Want.
struct Term {
  Value *Cond;
  bool Want;
};

class LoopVersioner {
public:
  LoopVersioner(Function &F, Loop &L, LoopInfo &LI, DominatorTree &DT,
                unsigned WaveSize, function_ref<const UniformityInfo &()> GetUI,
                function_ref<void()> BeforeChange)
      : F(F), L(L), LI(LI), DT(DT), WaveSize(WaveSize), GetUI(GetUI),
        BeforeChange(BeforeChange), DL(F.getDataLayout()) {}

  void run(SmallVectorImpl<LadderVersion> &Versions);

private:
  Function &F;
  Loop &L;
  LoopInfo &LI;
  DominatorTree &DT;
  unsigned WaveSize;
  function_ref<const UniformityInfo &()> GetUI;
  function_ref<void()> BeforeChange;
  const DataLayout &DL;
  BasicBlock *Pre = nullptr, *Header = nullptr, *Latch = nullptr,
             *Exit = nullptr;
  unsigned Size = 0; ///< instructions in the loop
  SmallSetVector<PHINode *, 4> Control;
  DenseMap<PHINode *, Constant *> Env;
  SmallVector<std::pair<Value *, ConstantInt *>, 2> Pins;
  SmallVector<Term, 8> Terms;
  SmallSetVector<Instruction *, 16> Created; ///< guard code made here

  bool hasShape();
  bool walkControl(Value *V, SmallSetVector<PHINode *, 4> &Out,
                   unsigned Depth = 0);
  bool findControl();
  bool pinStarts(unsigned Span, BasicBlock *From);
  Value *materialize(Value *V, DenseMap<Value *, Value *> &Memo,
                     unsigned Depth = 0);
  std::optional<unsigned> simulate(unsigned Steps);
  Value *buildGuard(bool &Ballot);
  void discardGuard();
  LadderVersion clone(unsigned Iterations, Value *Guard, BasicBlock *From);
};

bool LoopVersioner::hasShape() {
  Pre = L.getLoopPreheader();
  Header = L.getHeader();
  Latch = L.getLoopLatch();
  Exit = L.getExitBlock();
  if (!Pre || !Latch || !Exit || L.getExitingBlock() != Latch)
    return false;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  bool HasLadderCall = false;
  Size = 0;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      ++Size;
      auto *CB = dyn_cast<CallBase>(&I);
      if (I.getType()->isTokenTy() ||
          (CB && (CB->cannotDuplicate() ||
                  CB->getOperandBundle(LLVMContext::OB_convergencectrl))))
        return false;
      HasLadderCall |= isBPermute(I);
    }
  return HasLadderCall && Size * Log2_32(WaveSize) <= MaxCopyInstructions;
}

/// Adds to \p Out the header phis \p V reads inside the loop; false if it
/// reads anything but foldable instructions, header phis and invariants.
bool LoopVersioner::walkControl(Value *V, SmallSetVector<PHINode *, 4> &Out,
                                unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return true;
  if (auto *P = dyn_cast<PHINode>(I)) {
    if (P->getParent() != Header || !P->getType()->isIntegerTy())
      return false;
    Out.insert(P);
    return true;
  }
  if (!isFoldable(*I) || Depth > 32)
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return walkControl(Op, Out, Depth + 1); });
}

/// The control phis: those the exit condition and the shuffle addresses read.
bool LoopVersioner::findControl() {
  auto *Br = cast<BranchInst>(Latch->getTerminator());
  if (!walkControl(Br->getCondition(), Control))
    return false;
  // A ladder: some shuffle address changes with the iteration.
  bool Ladder = false;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (isBPermute(I)) {
        SmallSetVector<PHINode *, 4> Read;
        if (!walkControl(I.getOperand(0), Read))
          return false;
        Ladder |= !Read.empty();
        Control.insert_range(Read);
      }
  if (!Ladder)
    return false;
  for (unsigned K = 0; K < Control.size(); ++K)
    if (!walkControl(Control[K]->getIncomingValueForBlock(Latch), Control))
      return false;
  return true;
}

/// The control phis' starts (their values from \p From) for a copy whose
/// shuffles span \p Span lanes: constant, or pinned by the guard.
bool LoopVersioner::pinStarts(unsigned Span, BasicBlock *From) {
  Env.clear();
  Pins.clear();
  for (PHINode *P : Control) {
    Value *Start = P->getIncomingValueForBlock(From);
    if (auto *C = dyn_cast<ConstantInt>(Start)) {
      Env[P] = C;
      continue;
    }
    std::optional<uint64_t> Pin = pinnedStart(P, Latch, Span);
    if (!Pin)
      return false;
    auto *C = ConstantInt::get(cast<IntegerType>(P->getType()), *Pin);
    Pins.push_back({Start, C});
    Env[P] = C;
  }
  return true;
}

/// \p V at the iteration described by Env, as a constant or as an
/// instruction in the preheader; nullptr if it is not computable there.
Value *LoopVersioner::materialize(Value *V, DenseMap<Value *, Value *> &Memo,
                                  unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return V;
  if (auto *P = dyn_cast<PHINode>(I))
    return Env.lookup(P);
  if (auto It = Memo.find(V); It != Memo.end())
    return It->second;
  if (!isFoldable(*I) || Depth > 32)
    return nullptr;
  Instruction *C = I->clone();
  // Poison flags held for the loop's own iterations; the preheader
  // evaluates every iteration up front.
  C->dropPoisonGeneratingFlags();
  for (unsigned N = 0; N < I->getNumOperands(); ++N) {
    Value *Op = materialize(I->getOperand(N), Memo, Depth + 1);
    if (!Op) {
      C->deleteValue();
      return nullptr;
    }
    C->setOperand(N, Op);
  }
  Value *R = ConstantFoldInstruction(C, DL);
  if (R) {
    C->deleteValue();
    if (isa<UndefValue>(R))
      return nullptr;
  } else {
    C->insertBefore(Pre->getTerminator()->getIterator());
    C->setName(I->getName() + ".ladder");
    Created.insert(C);
    R = C;
  }
  Memo[V] = R;
  return R;
}

/// The copy's iteration count, with Terms the run-time conditions for it:
/// \p Steps when the exit condition is a run-time value.
std::optional<unsigned> LoopVersioner::simulate(unsigned Steps) {
  auto *Br = cast<BranchInst>(Latch->getTerminator());
  bool ContinueOnTrue = Br->getSuccessor(0) == Header;
  unsigned WholeWave = Log2_32(WaveSize);
  Terms.clear();
  for (unsigned T = 0; T < 2 * WholeWave + 4; ++T) {
    DenseMap<Value *, Value *> Memo;
    Value *Cond = materialize(Br->getCondition(), Memo);
    if (!Cond)
      return std::nullopt;
    if (auto *C = dyn_cast<ConstantInt>(Cond)) {
      if (C->isOne() != ContinueOnTrue)
        return T + 1;
    } else if (T + 1 >= Steps) {
      Terms.push_back({Cond, !ContinueOnTrue});
      return T + 1;
    } else {
      Terms.push_back({Cond, ContinueOnTrue});
    }
    DenseMap<PHINode *, Constant *> Next;
    for (PHINode *P : Control) {
      auto *V = dyn_cast_or_null<ConstantInt>(
          materialize(P->getIncomingValueForBlock(Latch), Memo));
      if (!V)
        return std::nullopt;
      Next[P] = V;
    }
    Env = std::move(Next);
  }
  return std::nullopt;
}

/// One condition from Pins and Terms: conditions `icmp pred x, C` on one
/// x merge into one range check. Null if they cannot all hold.
Value *LoopVersioner::buildGuard(bool &Ballot) {
  IRBuilder<ConstantFolder, IRBuilderCallbackInserter> B(
      Pre->getContext(), ConstantFolder(),
      IRBuilderCallbackInserter([&](Instruction *I) { Created.insert(I); }));
  B.SetInsertPoint(Pre->getTerminator());
  MapVector<Value *, ConstantRange> Ranges;
  auto Restrict = [&](Value *X, const ConstantRange &R) {
    auto [It, New] = Ranges.try_emplace(X, R);
    if (!New)
      It->second = It->second.intersectWith(R);
  };
  for (auto [Start, C] : Pins)
    Restrict(Start, ConstantRange(C->getValue()));
  SmallVector<Value *, 4> Others;
  for (const Term &T : Terms) {
    CmpPredicate Pred;
    Value *X;
    const APInt *C;
    bool Swapped = match(T.Cond, m_ICmp(Pred, m_APInt(C), m_Value(X)));
    if (Swapped || match(T.Cond, m_ICmp(Pred, m_Value(X), m_APInt(C)))) {
      CmpInst::Predicate P = Pred;
      if (Swapped)
        P = CmpInst::getSwappedPredicate(P);
      if (!T.Want)
        P = CmpInst::getInversePredicate(P);
      Restrict(X, ConstantRange::makeExactICmpRegion(P, *C));
    } else {
      Others.push_back(T.Want ? T.Cond : B.CreateNot(T.Cond));
    }
  }
  Value *G = nullptr;
  auto And = [&](Value *C) { G = G ? B.CreateAnd(G, C) : C; };
  for (auto &[X, R] : Ranges) {
    if (R.isEmptySet())
      return nullptr;
    if (R.isFullSet())
      continue;
    CmpInst::Predicate Pred;
    APInt RHS, Offset;
    R.getEquivalentICmp(Pred, RHS, Offset);
    Value *V = X;
    if (!Offset.isZero())
      V = B.CreateAdd(V, B.getInt(Offset));
    And(B.CreateICmp(Pred, V, B.getInt(RHS)));
  }
  for (Value *O : Others)
    And(O);
  if (!G)
    G = B.getTrue();
  if (isa<Constant>(G))
    return G;
  // Uniform if every value the guard reads from outside is.
  SmallVector<Value *, 8> Work{G};
  SmallPtrSet<Value *, 16> Seen;
  bool Uniform = true;
  while (!Work.empty() && Uniform) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second || isa<Constant>(V))
      continue;
    auto *I = dyn_cast<Instruction>(V);
    if (I && Created.count(I))
      append_range(Work, I->operands()); // not known to the analysis
    else if (GetUI().isUniform(V))
      continue;
    else if (I && isFoldable(*I))
      append_range(Work, I->operands());
    else
      Uniform = isUniformQuery(V);
  }
  Ballot = !Uniform;
  if (Ballot) {
    Type *MaskTy = B.getIntNTy(WaveSize);
    Value *Agree = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {MaskTy}, {G});
    Value *Active =
        B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {MaskTy}, {B.getTrue()});
    G = B.CreateICmpEQ(Agree, Active);
  }
  return G;
}

/// Deletes the guard code that ended up unused (all of it on failure).
void LoopVersioner::discardGuard() {
  for (Instruction *I : reverse(Created))
    if (I->use_empty())
      I->eraseFromParent();
  Created.clear();
}

LadderVersion LoopVersioner::clone(unsigned Iterations, Value *Guard,
                                   BasicBlock *From) {
  LadderVersion V;
  V.LoopHeader = Header;
  V.Iterations = Iterations;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (isBPermute(I))
        V.LoopCalls.push_back(&I);
  LoopBlocksRPO RPO(&L);
  RPO.perform(&LI);
  SmallVector<BasicBlock *, 16> Order(RPO.begin(), RPO.end());
  SmallVector<BasicBlock *, 4> Heads, Latches;
  SmallVector<BasicBlock *, 32> AllNew;
  // Per iteration: original value -> its value in that iteration's copy.
  SmallVector<std::unique_ptr<ValueToValueMapTy>, 8> Maps;
  auto InPrevious = [&](Value *In) {
    Value *M = Maps.empty() ? nullptr : Maps.back()->lookup(In);
    return M ? M : In;
  };
  for (unsigned T = 0; T < Iterations; ++T) {
    auto VMPtr = std::make_unique<ValueToValueMapTy>();
    ValueToValueMapTy &VM = *VMPtr;
    SmallVector<BasicBlock *, 16> New;
    for (BasicBlock *BB : Order) {
      BasicBlock *NB = CloneBasicBlock(BB, VM, ".ladder" + Twine(T), &F);
      VM[BB] = NB;
      New.push_back(NB);
    }
    // Header phis: the start, then the previous iteration's latch values.
    for (PHINode &P : Header->phis()) {
      auto *NP = cast<PHINode>(VM[&P]);
      Value *In;
      if (T == 0) {
        In = P.getIncomingValueForBlock(From);
        if (auto It = find_if(Pins, [&](auto &Pin) { return Pin.first == In; });
            It != Pins.end() && Control.count(&P))
          In = It->second;
      } else {
        In = InPrevious(P.getIncomingValueForBlock(Latch));
      }
      VM[&P] = In;
      NP->eraseFromParent();
    }
    remapInstructionsInBlocks(New, VM);
    Heads.push_back(cast<BasicBlock>(VM[Header]));
    Latches.push_back(cast<BasicBlock>(VM[Latch]));
    append_range(AllNew, New);
    Maps.push_back(std::move(VMPtr));
  }
  // Latches: straight on to the next copy, the last one to the exit.
  for (unsigned T = 0; T < Iterations; ++T) {
    Instruction *Term = Latches[T]->getTerminator();
    BasicBlock *To = T + 1 < Iterations ? Heads[T + 1] : Exit;
    BranchInst::Create(To, Term->getIterator());
    Term->eraseFromParent();
  }
  for (PHINode &P : Exit->phis())
    P.addIncoming(InPrevious(P.getIncomingValueForBlock(Latch)),
                  Latches.back());
  // Offsets become constants; what the last iteration computes for an
  // iteration that does not come is dead.
  for (BasicBlock *BB : AllNew)
    for (Instruction &I : make_early_inc_range(*BB))
      if (Constant *C = ConstantFoldInstruction(&I, DL)) {
        I.replaceAllUsesWith(C);
        I.eraseFromParent();
      }
  for (BasicBlock *BB : reverse(AllNew))
    for (Instruction &I : make_early_inc_range(reverse(*BB)))
      if (isInstructionTriviallyDead(&I))
        I.eraseFromParent();
  for (BasicBlock *BB : AllNew)
    for (Instruction &I : *BB)
      if (isBPermute(I))
        V.CopyCalls.push_back(&I);
  Instruction *Old = From->getTerminator();
  V.Entry =
      BranchInst::Create(Heads.front(), Header, Guard, Old->getIterator());
  Old->eraseFromParent();
  return V;
}

/// Copies for the whole wave's trip count, then for each smaller span of
/// lanes (a ladder over threadIdx.x in a block narrower than the wave),
/// each entered from the previous one's "no" edge; the last one's leads to
/// the loop. A trip count the loop's constants fix gets one copy.
void LoopVersioner::run(SmallVectorImpl<LadderVersion> &Versions) {
  if (!hasShape() || !findControl())
    return;
  unsigned Budget = MaxCopyInstructions;
  BasicBlock *From = Pre; // the block whose branch enters the next copy
  bool Cloned = false;
  unsigned WholeWave = Log2_32(WaveSize);
  for (unsigned Steps = WholeWave;
       Steps >= 1 && WholeWave - Steps < LadderSpans; --Steps) {
    std::optional<unsigned> Iterations;
    if (pinStarts(1u << Steps, From))
      Iterations = simulate(Steps);
    if (!Iterations || Size * *Iterations > Budget) {
      discardGuard();
      return;
    }
    bool Fixed = Pins.empty() && Terms.empty();
    bool Ballot = false;
    BeforeChange();
    Value *Guard = buildGuard(Ballot);
    if (!Guard || match(Guard, m_Zero())) {
      discardGuard();
      if (Fixed)
        return;
      continue;
    }
    if (Cloned) {
      From = SplitEdge(From, Header, &DT, &LI);
      From->setName(""); // dropLadderVersion may merge it into the preheader
    } else
      formLCSSA(L, DT, &LI, nullptr);
    LadderVersion V = clone(*Iterations, Guard, From);
    discardGuard(); // conditions merged into range checks
    V.BallotGuard = Ballot;
    V.Secondary = Cloned;
    Cloned = true;
    Budget -= Size * *Iterations;
    DT.recalculate(F);
    Versions.push_back(std::move(V));
    if (Fixed)
      return;
  }
}

} // namespace

SmallVector<LadderVersion, 2>
versionLadderLoops(Function &F, LoopInfo &LI, DominatorTree &DT,
                   unsigned WaveSize,
                   function_ref<const UniformityInfo &()> GetUI,
                   function_ref<void()> BeforeChange) {
  SmallVector<LadderVersion, 2> Versions;
  SmallVector<Loop *, 4> Innermost;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost())
      Innermost.push_back(L);
  for (Loop *L : Innermost)
    LoopVersioner(F, *L, LI, DT, WaveSize, GetUI, BeforeChange).run(Versions);
  return Versions;
}

bool fallsToLoop(const LadderVersion &V) {
  BasicBlock *BB = V.Entry->getSuccessor(1);
  while (BB != V.LoopHeader) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || Br->isConditional())
      return false;
    BB = Br->getSuccessor(0);
  }
  return true;
}

void dropLadderVersion(const LadderVersion &V) {
  Value *Guard = V.Entry->getCondition();
  BasicBlock *Next = V.Entry->getSuccessor(1);
  BranchInst::Create(Next, V.Entry->getIterator());
  V.Entry->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(Guard);
  // The block the next copy's guard was given joins this one (not the loop
  // header, which the latch also enters).
  MergeBlockIntoPredecessor(Next);
}

} // namespace argrec
} // namespace crosslane
