//===- RecognizeArgGuards.cpp - Run-time guards of rewrites ---------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-recognize-arg's guards (RecognizeArgInternal.h): what a guarded
/// rewrite checks at run time (docs/ArgRecognition.md, "Guarded rewrites"),
/// the refusal when no guard is possible, the guard's code, and the region
/// of the chain's code it branches around: found, cleared of values used
/// after it (hoisted above it or sunk below it), and kept as the fallback.
///
//===----------------------------------------------------------------------===//

#include "RecognizeArgInternal.h"

#include "LaneMap.h"
#include "VortexLaneOps.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace crosslane::argrec;

namespace crosslane {
namespace recognize {

/// The guard's conditions, for remarks and debug output.
std::string Guard::describe() const {
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
    // value (-0 == +0, or both NaN) holds its bits. With one: a lane holding
    // the winning index and a value that ties with the winner's (-0 == +0, or
    // both NaN); a lane holding that index with a worse value loses in the
    // original and is not read by the operation (moeTopK's `(0, -1.f)` start
    // when expert 0 wins). A NaN ties with a NaN result: a selection keeps a
    // NaN's bits while Crosslane's fminimum/fmaximum return the canonical NaN,
    // so the fast path is taken only when every NaN lane holds the result's
    // bits.
    Value *Ties = B.CreateFCmpOEQ(Val, ResVal);
    if (Float)
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

//===----------------------------------------------------------------------===//
// The guarded region
//===----------------------------------------------------------------------===//

/// True for a fence that orders memory only against the thread itself
/// (`__atomic_signal_fence`, `fence syncscope("singlethread")`): a compiler
/// barrier that no other lane or thread can observe. Kokkos puts one after
/// the shuffles of each exchange; skipping it with the region's code on the
/// fast path changes nothing another thread can see.
static bool isSignalFence(const Instruction &I) {
  auto *Fence = dyn_cast<FenceInst>(&I);
  return Fence && Fence->getSyncScopeID() == SyncScope::SingleThread;
}

/// The region's blocks from \p R.Begin's to the results' last block \p
/// EndBB, and \p R.End: single entry, single exit, acyclic. False (and
/// \p Why) when the chain's code is not such a region.
bool Recognizer::regionBlocks(ChainRegion &R, ArrayRef<Output> Outputs,
                              std::string &Why) {
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
      return false;
    }
    if (O.I->getParent() == EndBB && !isa<PHINode>(O.I) &&
        (!Last || Last->comesBefore(O.I)))
      Last = O.I;
  }
  R.End = Last ? Last->getNextNode() : &*EndBB->getFirstNonPHIIt();
  BasicBlock *BeginBB = R.Begin->getParent();
  if (BeginBB == EndBB && !R.Begin->comesBefore(R.End)) {
    Why = "the chain's results come before its first stage";
    return false;
  }
  R.Blocks.insert(BeginBB);
  SmallVector<BasicBlock *, 8> Work;
  if (BeginBB != EndBB)
    Work.push_back(BeginBB);
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (succ_empty(BB)) {
      Why = "the chain's code can leave the function";
      return false;
    }
    for (BasicBlock *S : successors(BB)) {
      if (DT.dominates(S, BB)) {
        Why = "the chain's code contains a loop";
        return false;
      }
      if (R.Blocks.insert(S).second && S != EndBB)
        Work.push_back(S);
    }
  }
  if (!R.Blocks.count(EndBB)) {
    Why = "the chain's results are not reached from its first stage";
    return false;
  }
  for (BasicBlock *BB : R.Blocks)
    if (BB != BeginBB)
      for (BasicBlock *P : predecessors(BB))
        if (!R.Blocks.count(P)) {
          Why = "the chain's code has another entry";
          return false;
        }
  return true;
}

/// Fills \p R.Results and \p R.ChainCode: what the results are computed
/// from inside the region that depends on a lane exchange (so not, e.g.,
/// the lane addresses, which may move).
static void collectChainCode(ChainRegion &R, ArrayRef<Output> Outputs) {
  SmallPtrSet<Instruction *, 8> Back;
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
  if (!regionBlocks(R, Outputs, Why))
    return std::nullopt;
  collectChainCode(R, Outputs);
  // Side effects, and values that escape.
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
bool canMoveUp(const Instruction *I) {
  auto *CB = dyn_cast<CallBase>(I);
  return !isa<PHINode>(I) && !I->mayReadFromMemory() &&
         !(CB && CB->isConvergent()) && isSafeToSpeculativelyExecute(I);
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

} // namespace recognize
} // namespace crosslane
