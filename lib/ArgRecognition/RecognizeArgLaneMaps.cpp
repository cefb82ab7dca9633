//===- RecognizeArgLaneMaps.cpp - Lane maps of stages and chains ----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-recognize-arg's lane maps (RecognizeArgInternal.h): what each
/// lane of a stage reads, evaluated for every lane of the chip's wave (also
/// through threadIdx.x); the shapes a chain's lane maps may take (an xor
/// butterfly, a shfl_down ladder, or any maps after which some lanes hold
/// the best of a group); valid-prefix gates; and which lanes read a chain's
/// results.
///
//===----------------------------------------------------------------------===//

#include "RecognizeArgInternal.h"

#include "LaneMap.h"
#include "VortexLaneOps.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/PatternMatch.h"

#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace crosslane::argrec;

namespace crosslane {
namespace recognize {

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
  if (const LaneVector *Row = laneRow(V, Depth))
    return *Row;
  return std::nullopt;
}

/// lanes() without a copy: the memo's row (nullptr when \p V is not a lane
/// expression), valid until the memo is cleared.
const LaneVector *Recognizer::laneRow(Value *V, unsigned Depth) {
  auto &Memo = TidWave ? TidMemo : LaneMemo;
  if (auto It = Memo.find(V); It != Memo.end())
    return It->second.get();
  unsigned W = Chip.WaveSize;
  std::unique_ptr<LaneVector> R;
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    R = std::make_unique<LaneVector>(W, C->getSExtValue());
  } else if (TidWave && (isWorkItemIdX(V) || isLinearThreadId(V))) {
    UsedTidLeaves.insert(V);
    R = std::make_unique<LaneVector>(W);
    for (unsigned L = 0; L < W; ++L)
      (*R)[L] = L + *TidWave * W;
  } else if (auto *I = dyn_cast<Instruction>(V);
             I && Depth <= 24 && !isa<PHINode>(I)) {
    auto *CB = dyn_cast<CallBase>(I);
    unsigned NOps = CB ? CB->arg_size() : I->getNumOperands();
    SmallVector<const LaneVector *, 3> Ops;
    for (unsigned N = 0; N < NOps; ++N)
      Ops.push_back(laneRow(I->getOperand(N), Depth + 1));
    R = std::make_unique<LaneVector>();
    if (!evalLaneRow(decodeLaneOp(I), Ops, W, *R))
      R.reset();
  }
  const LaneVector *Row = R.get();
  Memo[V] = std::move(R);
  return Row;
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

} // namespace recognize
} // namespace crosslane
