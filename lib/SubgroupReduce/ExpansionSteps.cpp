//===- ExpansionSteps.cpp - Lane-exchange steps per target ----------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One butterfly step (partner = lane xor M) per target: the cheapest DPP /
/// permlane / swizzle / readlane sequence per AMDGPU chip (see
/// docs/SubgroupOps.md §3), Vortex warp shuffles (§7); and active-lane
/// safety: whole-wave mode on AMDGPU, the full-warp / gather split on
/// Vortex.
///
//===----------------------------------------------------------------------===//

#include "SubgroupExpander.h"

#include "llvm/TargetParser/Triple.h"

#define DEBUG_TYPE "crosslane-expand-subgroup"

CROSSLANE_STATISTIC(NumPortableSteps,
                    "Number of butterfly steps served by a portable fallback");
CROSSLANE_STATISTIC(
    NumWWMSkipped, "Number of expansions proven to run with every lane active");

namespace crosslane {
namespace expand {

//===----------------------------------------------------------------------===//
// Butterfly steps
//===----------------------------------------------------------------------===//

bool isXeFunction(const Function &F) {
  return F.getParent() && Triple(F.getParent()->getTargetTriple()).isSPIRV();
}

Step SubgroupExpander::chooseStep(unsigned M, bool Contiguous) {
  if (IsVortex) // (gather steps: emitGatherLoop)
    return {StepKind::VortexBfly, 0, "vx_shfl_bfly"};
  if (IsXe)
    return {StepKind::XeShuffleXor, 0, "sub_group_shuffle_xor"};
  if (M < 16) {
    if (!Chip.HasDPP)
      return {StepKind::Swizzle, 0, "ds_swizzle"};
    if (M == 1)
      return {StepKind::Dpp, DppQuadPermXor1, "quad_perm:[1,0,3,2]"};
    if (M == 2)
      return {StepKind::Dpp, DppQuadPermXor2, "quad_perm:[2,3,0,1]"};
    if (Chip.HasDPPRowXMask)
      return {StepKind::Dpp, DppRowXMask0 + M,
              M == 4 ? "row_xmask:4" : "row_xmask:8"};
    // GFX8/9: once the lower lane bits are reduced (contiguous clusters) a
    // mirror reads a lane of the partner block; otherwise build lane xor M
    // from row_shl:M and row_shr:M under complementary bank masks.
    if (Contiguous)
      return M == 4 ? Step{StepKind::Dpp, DppRowHalfMirror, "row_half_mirror"}
                    : Step{StepKind::Dpp, DppRowMirror, "row_mirror"};
    return {StepKind::DppPair, 0,
            M == 4 ? "row_shl:4+row_shr:4" : "row_shl:8+row_shr:8"};
  }
  if (M == 16) {
    // Contiguous: every lane of a row holds the row's value, so any source
    // lane will do (selects 0,0 are inline constants).
    if (Chip.HasPermLaneX16)
      return {StepKind::PermLaneX16, Contiguous ? 1u : 0u, "permlanex16"};
    if (Chip.HasPermLane16Swap)
      return {StepKind::Swap16, 0, "permlane16.swap"};
    return {StepKind::Swizzle, 0, "ds_swizzle(xor 16)"};
  }
  // M == 32, wave64.
  if (Chip.HasPermLane64)
    return {StepKind::PermLane64, 0, "permlane64"};
  if (Contiguous)
    return {StepKind::ReadlanePair, 0, "readlane 0 + readlane 32"};
  if (Chip.HasPermLane32Swap)
    return {StepKind::Swap32, 0, "permlane32.swap"};
  if (Chip.HasDPP && !Chip.BPermuteWithinHalf)
    return {StepKind::BPermute, 0, "ds_bpermute(xor 32)"};
  return {StepKind::ReadlaneGather, 0, "readlane gather(xor 32)"};
}

Step SubgroupExpander::takeStep(unsigned M, bool Contiguous) {
  Step S = chooseStep(M, Contiguous);
  if (S.Kind == StepKind::Swizzle || S.Kind == StepKind::BPermute ||
      S.Kind == StepKind::ReadlaneGather) {
    ++NumPortableSteps;
    UsedFallback = true;
  }
  addSeq(S.Name);
  return S;
}

CallInst *SubgroupExpander::callIntrinsic(IRBuilder<> &B, Intrinsic::ID ID,
                                          ArrayRef<Type *> Tys,
                                          ArrayRef<Value *> Args) {
  if (Tys.size() > 1)
    return B.CreateIntrinsic(ID, Tys, Args);
  return B.CreateCall(Decls.get(*F.getParent(), ID, Tys), Args);
}

Value *SubgroupExpander::binaryIntrinsic(IRBuilder<> &B, Intrinsic::ID ID,
                                         Value *A, Value *C,
                                         std::optional<FastMathFlags> FMF) {
  // Two constants fold, as B.CreateBinaryIntrinsic folds them.
  if (isa<Constant>(A) && isa<Constant>(C))
    return FMF ? B.CreateBinaryIntrinsic(ID, A, C, *FMF)
               : B.CreateBinaryIntrinsic(ID, A, C);
  CallInst *CI = callIntrinsic(B, ID, {A->getType()}, {A, C});
  if (FMF)
    CI->setFastMathFlags(*FMF);
  return CI;
}

Value *SubgroupExpander::buildDpp(IRBuilder<> &B, Value *Old, Value *W,
                                  unsigned Ctrl, unsigned RowMask,
                                  unsigned BankMask, bool BoundCtrl) {
  return markExpanded(
      callIntrinsic(B, Intrinsic::amdgcn_update_dpp, {W->getType()},
                    {Old, W, B.getInt32(Ctrl), B.getInt32(RowMask),
                     B.getInt32(BankMask), B.getInt1(BoundCtrl)}));
}

/// One 32-bit word. Returns (self, partner) such that combining them in
/// that order is op(lower child, upper child) up to commutativity.
std::pair<Value *, Value *>
SubgroupExpander::buildXorStepWord(IRBuilder<> &B, Value *W, unsigned M,
                                   unsigned Stride, const Step &S) {
  Type *I32 = B.getInt32Ty();
  Value *Poison = PoisonValue::get(I32);
  switch (S.Kind) {
  case StepKind::Dpp:
    // Every source lane is valid for these controls; full masks and
    // bound_ctrl:1 with old = poison is the form GCNDPPCombine fuses.
    return {W, buildDpp(B, Poison, W, S.Ctrl, FullMask, FullMask, true)};
  case StepKind::DppPair: {
    // Lanes with bit M clear read lane + M (row_shl), the others lane - M
    // (row_shr); both sources stay inside the row.
    unsigned LoBanks = M == 4 ? 0x5 : 0x3, HiBanks = M == 4 ? 0xA : 0xC;
    Value *T = buildDpp(B, Poison, W, DppRowShl0 + M, FullMask, LoBanks, false);
    return {W, buildDpp(B, T, W, DppRowShr0 + M, FullMask, HiBanks, false)};
  }
  case StepKind::PermLaneX16: {
    // Exact: lane j of a row reads lane j of the other row of its 32-lane
    // half (selects 0x76543210, 0xFEDCBA98); contiguous: lane 0.
    bool AnyLane = S.Ctrl == 1;
    return {W, markExpanded(callIntrinsic(
                   B, Intrinsic::amdgcn_permlanex16, {I32},
                   {Poison, W, B.getInt32(AnyLane ? 0 : 0x76543210),
                    B.getInt32(AnyLane ? 0 : 0xFEDCBA98), B.getFalse(),
                    B.getFalse()}))};
  }
  case StepKind::PermLane64:
    return {W, markExpanded(
                   callIntrinsic(B, Intrinsic::amdgcn_permlane64, {I32}, {W}))};
  case StepKind::Swap16:
  case StepKind::Swap32: {
    // swap(v, v): the first result holds the lower row (half) of each pair
    // in both, the second the upper one.
    Intrinsic::ID ID = S.Kind == StepKind::Swap16
                           ? Intrinsic::amdgcn_permlane16_swap
                           : Intrinsic::amdgcn_permlane32_swap;
    Value *R = callIntrinsic(B, ID, {}, {W, W, B.getFalse(), B.getFalse()});
    return {B.CreateExtractValue(R, 0), B.CreateExtractValue(R, 1)};
  }
  case StepKind::Swizzle: {
    // Bit mode: and_mask = 0x1F, or_mask = 0, xor_mask = M (offset[14:10]).
    unsigned Offset = (M << 10) | 0x1F;
    return {W, markExpanded(callIntrinsic(B, Intrinsic::amdgcn_ds_swizzle, {},
                                          {W, B.getInt32(Offset)}))};
  }
  case StepKind::BPermute: {
    Value *Addr = B.CreateShl(B.CreateXor(Chip.buildLaneId(B), M), 2);
    return {W, markExpanded(callIntrinsic(B, Intrinsic::amdgcn_ds_bpermute, {},
                                          {Addr, W}))};
  }
  case StepKind::ReadlanePair:
    return {
        callIntrinsic(B, Intrinsic::amdgcn_readlane, {I32}, {W, B.getInt32(0)}),
        callIntrinsic(B, Intrinsic::amdgcn_readlane, {I32},
                      {W, B.getInt32(32)})};
  case StepKind::VortexBfly:
    return {W, markExpanded(buildVortexBfly(B, W, M, VortexLanes,
                                            VortexOperandsInRegisters))};
  case StepKind::VortexGather:
    return {W, markExpanded(buildVortexShflIdx(B, W, GatherSrc))};
  case StepKind::XeShuffleXor:
    // cl_khr_subgroup_shuffle: uint sub_group_shuffle_xor(uint, uint).
    return {W, markExpanded(emitOpenCLCall(B, "_Z21sub_group_shuffle_xorjj",
                                           I32, {W, B.getInt32(M)},
                                           /*Convergent=*/true))};
  case StepKind::ReadlaneGather: {
    // After the lower steps every lane of a half with the same residue
    // mod Stride holds the same value.
    Value *Lane = Chip.buildLaneId(B);
    Value *Res = B.CreateAnd(Lane, Stride - 1);
    Value *InLow = B.CreateICmpULT(Lane, B.getInt32(32));
    Value *Partner = nullptr;
    for (unsigned R = 0; R < Stride; ++R) {
      Value *Lo = callIntrinsic(B, Intrinsic::amdgcn_readlane, {I32},
                                {W, B.getInt32(R)});
      Value *Hi = callIntrinsic(B, Intrinsic::amdgcn_readlane, {I32},
                                {W, B.getInt32(32 + R)});
      Value *P = B.CreateSelect(InLow, Hi, Lo);
      Partner = Partner ? B.CreateSelect(B.CreateICmpEQ(Res, B.getInt32(R)), P,
                                         Partner)
                        : P;
    }
    return {W, Partner};
  }
  }
  return {W, W};
}

/// Splits \p V (16, 32 or 64 bits) into 32-bit words, runs the step on each
/// and reassembles.
std::pair<Value *, Value *> SubgroupExpander::buildXorStep(IRBuilder<> &B,
                                                           Value *V, unsigned M,
                                                           unsigned Stride,
                                                           const Step &S) {
  Type *Ty = V->getType();
  unsigned Bits = Ty->getPrimitiveSizeInBits();
  Type *I32 = B.getInt32Ty();
  if (Bits == 32) {
    auto [A, C] = buildXorStepWord(B, B.CreateBitCast(V, I32), M, Stride, S);
    return {B.CreateBitCast(A, Ty), B.CreateBitCast(C, Ty)};
  }
  if (Bits < 32) {
    Value *W = widenWord(B, B.CreateBitCast(V, B.getIntNTy(Bits)));
    auto [A, C] = buildXorStepWord(B, W, M, Stride, S);
    auto Back = [&](Value *X) {
      return B.CreateBitCast(B.CreateTrunc(X, B.getIntNTy(Bits)), Ty);
    };
    return {Back(A), Back(C)};
  }
  auto *VecTy = FixedVectorType::get(I32, 2);
  Value *Vec = B.CreateBitCast(V, VecTy);
  Value *SelfV = PoisonValue::get(VecTy), *OtherV = PoisonValue::get(VecTy);
  for (unsigned I = 0; I < 2; ++I) {
    auto [A, C] =
        buildXorStepWord(B, B.CreateExtractElement(Vec, I), M, Stride, S);
    SelfV = B.CreateInsertElement(SelfV, A, I);
    OtherV = B.CreateInsertElement(OtherV, C, I);
  }
  return {B.CreateBitCast(SelfV, Ty), B.CreateBitCast(OtherV, Ty)};
}

/// GFX8/9 wave64, whole wave: row_shr:1,2,4,8 then row_bcast:15 and
/// row_bcast:31 (research notes §10). Lane 63 ends with the balanced tree
/// over all 64 lanes; the zero-filled lanes of row_shr/row_bcast never feed
/// it. All six steps fuse into v_<op>_dpp.
Value *SubgroupExpander::buildGFX9BcastChain(IRBuilder<> &B, Value *W,
                                             const Domain &D) {
  static const unsigned Ctrls[] = {DppRowShr0 + 1, DppRowShr0 + 2,
                                   DppRowShr0 + 4, DppRowShr0 + 8,
                                   DppRowBcast15,  DppRowBcast31};
  for (unsigned Ctrl : Ctrls) {
    Step S{StepKind::Dpp, Ctrl, ""};
    auto [Self, Other] = buildXorStep(B, W, 0, 1, S);
    W = buildCombine(B, D, Self, Other);
  }
  addSeq("row_shr:1, row_shr:2, row_shr:4, row_shr:8, row_bcast:15, "
         "row_bcast:31, readlane 63");
  Type *Ty = W->getType();
  if (Ty->getPrimitiveSizeInBits() == 64) {
    // readlane is type-overloaded, but split to keep to 32-bit SGPR moves.
    auto *VecTy = FixedVectorType::get(B.getInt32Ty(), 2);
    Value *Vec = B.CreateBitCast(W, VecTy);
    Value *Out = PoisonValue::get(VecTy);
    for (unsigned I = 0; I < 2; ++I)
      Out = B.CreateInsertElement(
          Out,
          callIntrinsic(B, Intrinsic::amdgcn_readlane, {B.getInt32Ty()},
                        {B.CreateExtractElement(Vec, I), B.getInt32(63)}),
          I);
    return B.CreateBitCast(Out, Ty);
  }
  return callIntrinsic(B, Intrinsic::amdgcn_readlane, {Ty},
                       {W, B.getInt32(63)});
}

Value *SubgroupExpander::buildSteps(IRBuilder<> &B, Value *W, const Domain &D,
                                    unsigned Cluster, unsigned Stride) {
  bool Contiguous = Stride == 1;
  if (Cluster == 64 && Chip.WaveSize == 64 && Chip.HasDPPBroadcasts)
    return buildGFX9BcastChain(B, W, D);
  if (VortexGather) {
    addSeq("vx_shfl_idx gather loop");
    Value *Vals[] = {W};
    emitGatherLoop(B, Cluster, Stride, Vals,
                   [&](IRBuilder<> &B, Value *M, MutableArrayRef<Value *> V) {
                     Step S{StepKind::VortexGather, 0, ""};
                     auto [Self, Other] = buildXorStep(B, V[0], 0, Stride, S);
                     Other = B.CreateSelect(GatherAny, Other, getIdentity(D));
                     V[0] = buildCombine(B, D, Self, Other);
                   });
    return Vals[0];
  }
  for (unsigned M = Stride; M < Cluster * Stride; M <<= 1) {
    Step S = takeStep(M, Contiguous);
    auto [Self, Other] = buildXorStep(B, W, M, Stride, S);
    Value *Next = buildCombine(B, D, Self, Other);
    // Vortex warp size known only at run time: a step whose partner lies
    // past the warp is skipped (the lanes past it are absent, and the
    // identity they would contribute changes nothing).
    if (IsVortex && !VortexLanes)
      Next = B.CreateSelect(B.CreateICmpUGT(vortexNumThreads(B), B.getInt32(M)),
                            Next, W);
    W = Next;
  }
  return W;
}

//===----------------------------------------------------------------------===//
// Active-lane safety
//===----------------------------------------------------------------------===//

Value *SubgroupExpander::buildLaneId(IRBuilder<> &B) {
  if (IsXe)
    return emitOpenCLCall(B, "_Z22get_sub_group_local_idv", B.getInt32Ty(), {},
                          /*Convergent=*/true);
  if (!IsVortex)
    return Chip.buildLaneId(B);
  return VortexLane ? VortexLane : vortex::emitCSRRead(B, vortex::CSRThreadId);
}

Value *SubgroupExpander::vortexNumThreads(IRBuilder<> &B) {
  if (VortexLanes)
    return B.getInt32(VortexLanes);
  return VortexNT ? VortexNT : vortex::emitCSRRead(B, vortex::CSRNumThreads);
}

void SubgroupExpander::emitGatherLoop(
    IRBuilder<> &B, unsigned Cluster, unsigned Stride,
    MutableArrayRef<Value *> Vals,
    function_ref<void(IRBuilder<> &, Value *M, MutableArrayRef<Value *>)>
        Body) {
  if (Cluster <= 1)
    return;
  Type *I32 = B.getInt32Ty();
  // Read here, not before the branch: the full-warp path does not need it.
  if (!VortexLane)
    VortexLane = vortex::emitCSRRead(B, vortex::CSRThreadId);
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Exit = Pre->splitBasicBlock(B.GetInsertPoint(), "vx.gather.end");
  Pre->getTerminator()->eraseFromParent();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "vx.gather", &F, Exit);
  B.SetInsertPoint(Pre);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *M = B.CreatePHI(I32, 2, "vx.m");
  PHINode *Pat = B.CreatePHI(I32, 2, "vx.pat");
  M->addIncoming(B.getInt32(Stride), Pre);
  Pat->addIncoming(B.getInt32(1), Pre);
  SmallVector<PHINode *, 4> Phis;
  for (Value *&V : Vals) {
    Phis.push_back(B.CreatePHI(V->getType(), 2));
    Phis.back()->addIncoming(V, Pre);
    V = Phis.back();
  }
  // After the steps below M, every active lane of a subtree holds the
  // subtree's value, so any of them stands for it. The partner subtree:
  // lanes Base + k * Stride, k < M / Stride (bit pattern Pat). Its first
  // member: the lowest set bit (x & -x) converted to float is exactly 2^k,
  // whose exponent field is k + 127 (without members the lane is unused).
  Value *Base = B.CreateAnd(B.CreateXor(VortexLane, M),
                            B.CreateNot(B.CreateSub(M, B.getInt32(Stride))));
  Value *Members = B.CreateAnd(B.CreateLShr(VortexMask, Base), Pat);
  Value *Low = B.CreateAnd(Members, B.CreateNeg(Members));
  Value *Exp = B.CreateLShr(
      B.CreateBitCast(B.CreateUIToFP(Low, B.getFloatTy()), I32), 23);
  GatherSrc = B.CreateAdd(Base, B.CreateSub(Exp, B.getInt32(127)));
  GatherAny = B.CreateICmpNE(Members, B.getInt32(0));
  Body(B, M, Vals);
  // Lanes past a warp whose size is known only at run time are absent.
  if (!VortexLanes)
    for (auto [V, Phi] : zip(Vals, Phis))
      V = B.CreateSelect(B.CreateICmpUGT(vortexNumThreads(B), M), V, Phi);
  Value *NextM = B.CreateShl(M, 1);
  BasicBlock *Latch = B.GetInsertBlock();
  M->addIncoming(NextM, Latch);
  Pat->addIncoming(B.CreateOr(Pat, B.CreateShl(Pat, M)), Latch);
  for (auto [V, Phi] : zip(Vals, Phis))
    Phi->addIncoming(V, Latch);
  B.CreateCondBr(B.CreateICmpULT(NextM, B.getInt32(Cluster * Stride)), Loop,
                 Exit);
  B.SetInsertPoint(Exit, Exit->begin());
  GatherSrc = GatherAny = nullptr;
}

Value *SubgroupExpander::buildForActiveLanes(
    CallInst *CI, bool Partial, function_ref<Value *(IRBuilder<> &)> Build) {
  IRBuilder<> B(CI);
  if (!IsVortex || !Partial) {
    VortexOperandsInRegisters =
        IsVortex && CI->hasMetadata(subgroup::WholeWarpLaunchMD);
    Value *R = Build(B);
    VortexOperandsInRegisters = false;
    return R;
  }
  // The thread mask (a ballot) is the same in every active lane: the branch
  // on it is uniform and needs no split.
  VortexMask = vortex::emitThreadMask(B);
  Value *NT = VortexNT = vortexNumThreads(B);
  Value *Full = B.CreateSub(B.CreateShl(B.getInt32(1), NT), B.getInt32(1));
  if (!VortexLanes || VortexLanes >= 32)
    Full = B.CreateSelect(B.CreateICmpUGE(NT, B.getInt32(32)), B.getInt32(-1),
                          Full);
  Value *IsFull = B.CreateICmpEQ(VortexMask, Full);
  Instruction *ThenT = nullptr, *ElseT = nullptr;
  SplitBlockAndInsertIfThenElse(IsFull, CI, &ThenT, &ElseT);
  B.SetInsertPoint(ThenT);
  VortexGather = false;
  Value *FullR = Build(B);
  BasicBlock *FullEnd = B.GetInsertBlock();
  Seq += "; with lanes off: ";
  B.SetInsertPoint(ElseT);
  VortexGather = true;
  Value *PartR = Build(B);
  BasicBlock *PartEnd = B.GetInsertBlock();
  VortexGather = false;
  VortexLane = nullptr;
  B.SetInsertPoint(CI);
  PHINode *Phi = B.CreatePHI(FullR->getType(), 2);
  Phi->addIncoming(FullR, FullEnd);
  Phi->addIncoming(PartR, PartEnd);
  return Phi;
}

/// True unless every lane of the wave provably executes \p CI
/// (ChipInfo::runsFullWaves).
bool SubgroupExpander::needsWWM(CallInst *CI, unsigned Cluster) const {
  if (Cluster == 1 || Opts.AssumeFullWave) {
    CROSSLANE_DEBUG(dbgs() << "  no whole-wave mode: "
                           << (Cluster == 1 ? "cluster of one lane"
                                            : "<no-wwm> (every lane assumed "
                                              "active)")
                           << "\n");
    return false;
  }
  if (IsXe) // whole subgroups only (checked by the call handlers)
    return true;
  if (IsVortex && CI->hasMetadata(subgroup::FullGroupsMD)) {
    CROSSLANE_DEBUG(dbgs() << "  no lanes-off path: the result is used only "
                              "where every lane of the cluster was active\n");
    ++NumWWMSkipped;
    return false;
  }
  if (IsVortex || !Chip.runsFullWaves(*CI)) {
    CROSSLANE_DEBUG(dbgs() << "  whole-wave mode: the set of active lanes "
                              "at the call is not known to be full\n");
    return true;
  }
  CROSSLANE_DEBUG(dbgs() << "  no whole-wave mode: the kernel provably runs "
                            "full waves at the call\n");
  ++NumWWMSkipped;
  return false;
}

} // namespace expand
} // namespace crosslane
