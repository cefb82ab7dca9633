//===- RecognizeArgStages.cpp - Stages of cross-lane reads ----------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-recognize-arg's stages (RecognizeArgInternal.h): the cross-lane
/// reads of one block with one lane map, split where their words do not
/// belong together; the combine code each one feeds (its closure); the phis
/// a chain inside `if` shares with the lanes that skipped it; the components
/// a first stage's words carry; and reads that are no step of a reduction.
///
//===----------------------------------------------------------------------===//

#include "RecognizeArgInternal.h"

#include "LaneMap.h"
#include "VortexLaneOps.h"
#include "crosslane/SubgroupReduce/SubgroupOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <functional>
#include <map>
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace crosslane::argrec;

namespace crosslane {
namespace recognize {

/// True for an instruction a combine may be made of: compares, selects,
/// phis, casts, bitwise operations, integer and float min/max, fabs, fneg.
static bool isCombineOp(const Instruction &I) {
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
  // arithmetic per shuffle) are one address when their lanes agree: per
  // block and hash of the lanes, the first address with each lane row.
  DenseMap<std::pair<BasicBlock *, unsigned>,
           SmallVector<std::pair<const LaneVector *, Value *>, 1>>
      SameLanes;
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
        if (const LaneVector *A = laneRow(K->first, 0)) {
          auto &Same = SameLanes[{
              BB, unsigned(hash_combine_range(A->begin(), A->end()))}];
          auto It =
              find_if(Same, [&](const auto &E) { return *E.first == *A; });
          if (It != Same.end())
            K->first = It->second;
          else
            Same.push_back({A, K->first});
        }
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
/// false when the bound is reached). What is computed from Call runs after
/// it: in a block reachable from Call's, or later in Call's own block when
/// that block is in no cycle, so the search enters nothing else (blocks
/// unreachable from the entry, where dominance says nothing, are searched).
static bool dependsOn(Value *V, const Instruction *Call,
                      const DominatorTree &DT) {
  const BasicBlock *CallBB = Call->getParent();
  SmallPtrSet<const BasicBlock *, 16> After;
  SmallVector<const BasicBlock *, 16> Blocks(successors(CallBB));
  while (!Blocks.empty())
    if (const BasicBlock *BB = Blocks.pop_back_val(); After.insert(BB).second)
      append_range(Blocks, successors(BB));
  bool Cycle = After.count(CallBB) || !DT.isReachableFromEntry(CallBB);
  After.insert(CallBB);
  SmallPtrSet<Value *, 32> Seen;
  SmallVector<Value *, 32> Work{V};
  while (!Work.empty() && Seen.size() < 4096) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (I == Call)
      return true;
    const BasicBlock *BB = I->getParent();
    if (BB == CallBB && !Cycle && I->comesBefore(Call))
      continue;
    if (After.count(BB) || !DT.isReachableFromEntry(BB))
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

/// The groups of \p S's words (each word's group, named by one of its
/// words). The combine operations each word's partner value flows into: a
/// branch on such a value also decides the phis of the blocks up to where
/// its paths meet again (its immediate post-dominator), not beyond, so two
/// pairs chosen by `if`s one after the other are separate. Words of one
/// \p Layer whose operations meet are one group; a bad branch (or a switch)
/// makes each layer one group. The words' walks take turns, one step each,
/// and a walk stops where another word's walk of its layer passed (what
/// follows is that word's too, bad branches included), so the groups do not
/// depend on the order; the walks end once each layer is one group, where
/// nothing further could change them.
SmallVector<unsigned, 4> Recognizer::groupWords(const Stage &S,
                                                ArrayRef<unsigned> Layer) {
  unsigned N = S.Calls.size();
  SmallVector<unsigned, 4> Group(N);
  for (unsigned K = 0; K < N; ++K)
    Group[K] = K;
  SmallVector<unsigned, 4> Layers(Layer.begin(), Layer.end());
  llvm::sort(Layers);
  unsigned NumLayers =
      std::unique(Layers.begin(), Layers.end()) - Layers.begin();
  unsigned NumGroups = N;
  auto Join = [&](unsigned A, unsigned B) {
    unsigned From = Group[B], To = Group[A];
    if (From == To)
      return;
    for (unsigned &G : Group)
      if (G == From)
        G = To;
    --NumGroups;
  };
  DenseMap<std::pair<unsigned, Instruction *>, unsigned> Owner;
  SmallVector<SmallVector<Instruction *, 16>, 4> Work(N);
  for (unsigned K = 0; K < N; ++K)
    Work[K].push_back(S.Calls[K]);
  bool Whole = false, Walking = NumGroups > NumLayers;
  while (Walking && !Whole && NumGroups > NumLayers) {
    Walking = false;
    for (unsigned K = 0; K < N && !Whole; ++K) {
      if (Work[K].empty())
        continue;
      Walking = true;
      auto Add = [&](Instruction *I) {
        auto [It, New] = Owner.try_emplace({Layer[K], I}, K);
        if (New)
          Work[K].push_back(I);
        else if (It->second != K)
          Join(It->second, K);
      };
      for (User *U : Work[K].pop_back_val()->users()) {
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
  }
  for (unsigned I = 0; I < N && Whole; ++I)
    for (unsigned J = I + 1; J < N; ++J)
      if (Layer[I] == Layer[J])
        Join(I, J);
  return Group;
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
            dependsOn(exchangedWord(S.Calls[K]), S.Calls[J], DT))
          Layer[K] = Layer[J] + 1;
    SmallVector<unsigned, 4> Group = groupWords(S, Layer);
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
std::optional<SmallVector<Component, 2>> componentsOf(const Stage &S,
                                                      std::string &Why) {
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
    bool IsFloat =
        match(W[I], m_BitCast(m_Value(X))) && X->getType()->isFloatTy();
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

} // namespace recognize
} // namespace crosslane
