//===- RecognizeArgRewrite.cpp - Replacing chains by Crosslane operations -===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-recognize-arg's rewrite (RecognizeArgInternal.h): chains that
/// share their exchanges or run in lock step are replaced together, each by
/// one `__crosslane_reduce_*` or `__crosslane_arg*` call before the group's
/// first exchange (the words it needs moved above it), with the encodings
/// of indices and values its orders need, and, where a run-time guard is
/// needed, behind one guard around one region (RecognizeArgGuards.cpp).
///
//===----------------------------------------------------------------------===//

#include "RecognizeArgInternal.h"

#include "LaneMap.h"
#include "VortexLaneOps.h"
#include "crosslane/SubgroupReduce/SubgroupOps.h"
#include "crosslane/Support/Debug.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

#include <functional>

using namespace llvm;
using namespace crosslane::subgroup;
using namespace crosslane::argrec;

#define DEBUG_TYPE "crosslane-recognize-arg"

CROSSLANE_STATISTIC(NumRewritten,
                    "Number of chains replaced by a Crosslane operation");

static cl::opt<bool> ReplaceOnVortex(
    "crosslane-vortex-replace-arg", cl::init(false),
    cl::desc("Replace recognised arg-reductions in Vortex code too (off by "
             "default: on Vortex the replacement is not faster than the "
             "butterfly as written; make bench measures both)"));

namespace crosslane {
namespace recognize {

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
  BeforeRewrite();
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

/// The operation's \p Results as the chain's \p NumWords exchanged words
/// (i32, or the exchanged word's type), per logical slot of \p Comps.
static SmallVector<Value *, 4> resultWords(IRBuilder<> &B,
                                           ArrayRef<Component> Comps,
                                           ArrayRef<Value *> Results,
                                           unsigned NumWords) {
  SmallVector<Value *, 4> Words(NumWords);
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
  return Words;
}

/// The values of \p Outputs made from \p Words (a word, two words of an
/// i64, a zero-extended word, or a word's low bits), in their types.
static SmallVector<Value *, 4>
outputsOf(IRBuilder<> &B, ArrayRef<Output> Outputs, ArrayRef<Value *> Words) {
  SmallVector<Value *, 4> Out;
  for (const Output &O : Outputs) {
    Value *R = Words[O.Lo];
    if (O.Hi >= 0)
      R = B.CreateOr(B.CreateShl(B.CreateZExt(Words[O.Hi], B.getInt64Ty()), 32),
                     B.CreateZExt(R, B.getInt64Ty()));
    else if (O.Hi == -2)
      R = B.CreateZExt(R, B.getInt64Ty());
    else if (unsigned Bits = O.I->getType()->getPrimitiveSizeInBits();
             Bits < 32) // an f16 (or its bits), a narrow integer
      R = B.CreateTrunc(R, B.getIntNTy(Bits));
    Out.push_back(B.CreateBitCast(R, O.I->getType()));
  }
  return Out;
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
  NewOut.assign(outputsOf(B, Outputs,
                          resultWords(B, Comps, Results, First.Calls.size())));
  if (G.EmptyKeepsOwn) {
    // A group without an element: each lane keeps its own pair, the words
    // it sent into the first stage (the guard rules out an element taken
    // for "no element").
    SmallVector<Value *, 4> Own;
    for (CallInst *Call : First.Calls)
      Own.push_back(exchangedWord(Call));
    Value *Nothing = B.CreateICmpEQ(OpIdx, noElementIndex(OpIdx->getType()),
                                    "crosslane.no.element");
    SmallVector<Value *, 4> OwnOut = outputsOf(B, Outputs, Own);
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
  reportRewrite(Pl, Call, Guarded);
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
    FunctionCallee Fn = M.getOrInsertFunction(Name, X->getType(), X->getType(),
                                              B.getInt32Ty(), B.getInt32Ty());
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
    unsigned Policy =
        (C.NaNWins ? PolicyNaNWins : 0) | (C.ZerosEqual ? PolicyZerosEqual : 0);
    Call = B.CreateCall(
        Fn, {V, I, B.getInt32(Cluster), B.getInt32(1), B.getInt32(Policy)});
    Results[C.ValSlot] = B.CreateExtractValue(Call, 0);
    Results[C.IdxSlot] = B.CreateExtractValue(Call, 1);
  }
  Call->setDebugLoc(First.Calls.front()->getDebugLoc());
  return Call;
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

} // namespace recognize
} // namespace crosslane
