//===- ExpansionBuilders.cpp - Reductions and arg-compare -----------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The values a subgroup operation carries through its butterfly: the
/// working domain and identity of each reduction, the combine, NaN
/// handling, and the arg-compare builders (built-in argmax/argmin and a
/// custom comparator). The steps themselves are ExpansionSteps.cpp's.
///
//===----------------------------------------------------------------------===//

#include "SubgroupExpander.h"

#define DEBUG_TYPE "crosslane-expand-subgroup"

namespace crosslane {
namespace expand {

//===----------------------------------------------------------------------===//
// Domain helpers
//===----------------------------------------------------------------------===//

Value *SubgroupExpander::toWork(IRBuilder<> &B, Value *V, const Domain &D) {
  if (D.SrcTy == D.WorkTy)
    return V;
  if (D.WorkTy->isFloatingPointTy())
    return B.CreateFPExt(V, D.WorkTy);
  if (D.Op == ReduceOp::SMin || D.Op == ReduceOp::SMax)
    return B.CreateSExt(V, D.WorkTy);
  return B.CreateZExt(V, D.WorkTy);
}

Value *SubgroupExpander::fromWork(IRBuilder<> &B, Value *V, const Domain &D) {
  if (D.SrcTy == D.WorkTy)
    return V;
  if (D.WorkTy->isFloatingPointTy())
    return B.CreateFPTrunc(V, D.SrcTy);
  return B.CreateTrunc(V, D.SrcTy);
}

Constant *SubgroupExpander::getIdentity(const Domain &D) {
  Type *T = D.WorkTy;
  unsigned Bits = T->getScalarSizeInBits();
  switch (D.Op) {
  case ReduceOp::Add:
    // x + -0.0 == x for every x, including +0.0.
    return T->isFloatingPointTy() ? ConstantFP::getNegativeZero(T)
                                  : ConstantInt::get(T, 0);
  case ReduceOp::Mul:
    return T->isFloatingPointTy() ? ConstantFP::get(T, 1.0)
                                  : ConstantInt::get(T, 1);
  case ReduceOp::SMin:
    return ConstantInt::get(T, APInt::getSignedMaxValue(Bits));
  case ReduceOp::SMax:
    return ConstantInt::get(T, APInt::getSignedMinValue(Bits));
  case ReduceOp::UMin:
  case ReduceOp::And:
    return ConstantInt::get(T, APInt::getAllOnes(Bits));
  case ReduceOp::UMax:
  case ReduceOp::Or:
  case ReduceOp::Xor:
    return ConstantInt::get(T, 0);
  case ReduceOp::FMin:
  case ReduceOp::FMinimum:
    // NaN inputs are replaced before the reduction (see buildReduce), so
    // +inf is an identity.
    return ConstantFP::getInfinity(T, /*Negative=*/false);
  case ReduceOp::FMax:
  case ReduceOp::FMaximum:
    return ConstantFP::getInfinity(T, /*Negative=*/true);
  }
  return nullptr;
}

Value *SubgroupExpander::buildCombine(IRBuilder<> &B, const Domain &D, Value *A,
                                      Value *C) {
  bool Narrow = D.SrcTy != D.WorkTy && D.WorkTy->isFloatingPointTy();
  switch (D.Op) {
  case ReduceOp::Add:
  case ReduceOp::Mul: {
    if (!D.WorkTy->isFloatingPointTy())
      return D.Op == ReduceOp::Add ? B.CreateAdd(A, C) : B.CreateMul(A, C);
    Value *R = D.Op == ReduceOp::Add ? B.CreateFAdd(A, C) : B.CreateFMul(A, C);
    // f16/bf16 through f32: the f32 result of two 16-bit operands rounded
    // once to 16 bits is the correctly rounded 16-bit result (24 >= 2p+2).
    if (Narrow)
      R = B.CreateFPExt(B.CreateFPTrunc(R, D.SrcTy), D.WorkTy);
    return R;
  }
  case ReduceOp::SMin:
    return binaryIntrinsic(B, Intrinsic::smin, A, C);
  case ReduceOp::SMax:
    return binaryIntrinsic(B, Intrinsic::smax, A, C);
  case ReduceOp::UMin:
    return binaryIntrinsic(B, Intrinsic::umin, A, C);
  case ReduceOp::UMax:
    return binaryIntrinsic(B, Intrinsic::umax, A, C);
  case ReduceOp::And:
    return B.CreateAnd(A, C);
  case ReduceOp::Or:
    return B.CreateOr(A, C);
  case ReduceOp::Xor:
    return B.CreateXor(A, C);
  case ReduceOp::FMin:
  case ReduceOp::FMax:
  case ReduceOp::FMinimum:
  case ReduceOp::FMaximum: {
    // Operands are never NaN here (replaced by the identity up front), so
    // nnan is exact and lets GCNDPPCombine fuse v_max_f32_dpp. On ±0 both
    // llvm.maxnum (APFloat) and v_max_f32 order -0 < +0.
    Intrinsic::ID ID = isMaxLike(D.Op) ? Intrinsic::maxnum : Intrinsic::minnum;
    FastMathFlags FMF;
    FMF.setNoNaNs();
    return binaryIntrinsic(B, ID, A, C, FMF);
  }
  }
  return nullptr;
}

/// True in a lane when \p Cond holds in some active lane of its cluster.
Value *SubgroupExpander::buildClusterAny(IRBuilder<> &B, Value *Cond,
                                         unsigned Cluster, unsigned Stride) {
  // Vortex ballots are 32-bit lane masks whatever the warp size, and so is
  // the first word of an OpenCL ballot (Xe subgroups have 16 or 32 lanes).
  unsigned W = IsVortex ? VortexMaxWarpSize : IsXe ? 32 : Chip.WaveSize;
  Type *MaskTy = B.getIntNTy(W);
  Value *Mask;
  if (IsXe) // cl_khr_subgroup_ballot: uint4 sub_group_ballot(int)
    Mask = B.CreateExtractElement(
        emitOpenCLCall(B, "_Z16sub_group_balloti",
                       FixedVectorType::get(B.getInt32Ty(), 4),
                       {B.CreateZExt(Cond, B.getInt32Ty())},
                       /*Convergent=*/true),
        uint64_t(0));
  else
    Mask = IsVortex
               ? vortex::emitBallot(B, Cond)
               : callIntrinsic(B, Intrinsic::amdgcn_ballot, {MaskTy}, {Cond});
  if (Cluster == W)
    return B.CreateICmpNE(Mask, ConstantInt::get(MaskTy, 0));
  // Members of lane L's cluster: base(L) + k*Stride, k < Cluster, with
  // base(L) = (L & ~(Cluster*Stride-1)) | (L & (Stride-1)).
  APInt Pat(W, 0);
  for (unsigned K = 0; K < Cluster; ++K)
    Pat.setBit(K * Stride);
  Value *Lane = buildLaneId(B);
  Value *Base = B.CreateOr(B.CreateAnd(Lane, ~(Cluster * Stride - 1)),
                           B.CreateAnd(Lane, Stride - 1));
  Value *Sh = B.CreateLShr(Mask, B.CreateZExtOrTrunc(Base, MaskTy));
  if (W == 32)
    return B.CreateICmpNE(B.CreateAnd(Sh, B.getInt(Pat)), B.getInt32(0));
  // Wave64: test the two 32-bit halves and never build a 64-bit value from
  // halves. LLVM 22 runs SIWholeQuadMode after register coalescing; when the
  // coalescer merges two such REG_SEQUENCEs (say, the zero high half of this
  // call's mask and of a later call's mask in whole-wave code), its markDefs
  // also marks the earlier, dead partial definition of the shared register,
  // which drags this call's ballot and the load feeding it into the later
  // call's whole-wave region (llvm-patches/README.md, SIWholeQuadMode).
  Type *I32 = B.getInt32Ty();
  Value *Any = B.CreateAnd(B.CreateTrunc(Sh, I32), B.getInt(Pat.trunc(32)));
  APInt PatHi = Pat.lshr(32).trunc(32);
  if (!PatHi.isZero()) {
    Value *Hi = B.CreateTrunc(B.CreateLShr(Sh, 32), I32);
    Any = B.CreateOr(Any, B.CreateAnd(Hi, B.getInt(PatHi)));
  }
  return B.CreateICmpNE(Any, B.getInt32(0));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Domain SubgroupExpander::makeDomain(IRBuilder<> &B, ReduceOp Op,
                                    ElemType Ty) const {
  Domain D;
  D.Op = Op;
  D.Ty = Ty;
  D.SrcTy = getLLVMType(Ty);
  D.WorkTy = getBits(Ty) == 16 ? (isFloat(Ty) ? B.getFloatTy() : B.getInt32Ty())
                               : D.SrcTy;
  return D;
}

/// Reduces \p V (of the source type of \p Ty) over its cluster; the result
/// is in every lane of the cluster (a uniform value for whole-wave clusters
/// where the sequence ends in readlane).
Value *SubgroupExpander::buildReduce(IRBuilder<> &B, Value *V, ReduceOp Op,
                                     ElemType Ty, unsigned Cluster,
                                     unsigned Stride, bool WWM) {
  Domain D = makeDomain(B, Op, Ty);

  // NaN handling for fmin/fmax/fminimum/fmaximum: reduce NaN-free values
  // (NaN -> identity) and decide NaN-ness of the result with a ballot over
  // the active lanes of the cluster.
  Value *NaNResult = nullptr;
  SelectInst *GuardEntry = nullptr;
  Value *W = toWork(B, V, D);
  if (isFPMinMax(Op) && !NoNaNs) {
    // One compare serves the ballot and the select (W is V, or V widened,
    // so it is NaN exactly where V is).
    if (Op == ReduceOp::FMax || Op == ReduceOp::FMin) {
      Value *Ord = B.CreateFCmpORD(V, V);
      NaNResult = B.CreateNot(buildClusterAny(B, Ord, Cluster, Stride));
      W = B.CreateSelect(Ord, W, getIdentity(D));
      // On f32 steps the guard can go when Crosslane also runs in the code
      // generator (RelaxNaNGuard.h): maxnum ignores NaNs by itself.
      if (D.WorkTy->isFloatTy())
        GuardEntry = dyn_cast<SelectInst>(W);
    } else {
      Value *Uno = B.CreateFCmpUNO(V, V);
      NaNResult = buildClusterAny(B, Uno, Cluster, Stride);
      W = B.CreateSelect(Uno, getIdentity(D), W);
    }
  }

  if (WWM) {
    W = callIntrinsic(B, Intrinsic::amdgcn_set_inactive, {D.WorkTy},
                      {W, getIdentity(D)});
    addSeq("set.inactive");
  }
  Value *R = buildSteps(B, W, D, Cluster, Stride);
  if (WWM) {
    R = callIntrinsic(B, Intrinsic::amdgcn_strict_wwm, {D.WorkTy}, {R});
    addSeq("strict.wwm");
  }
  R = fromWork(B, R, D);

  // A min/max NaN result is the canonical quiet NaN of the type. The select
  // is on the integer bits so a uniform result stays on the SALU
  // (s_cselect). add/mul leave the payload of a NaN result unspecified, as
  // LLVM's fadd/fmul and llvm.vector.reduce.fadd do (docs/SubgroupOps.md).
  if (NaNResult) {
    Type *BitsTy = B.getIntNTy(getBits(Ty));
    Value *QNaN = B.CreateBitCast(ConstantFP::getQNaN(D.SrcTy), BitsTy);
    Value *Sel = B.CreateSelect(NaNResult, QNaN, B.CreateBitCast(R, BitsTy));
    if (auto *ResultSel = dyn_cast<SelectInst>(Sel); ResultSel && GuardEntry) {
      tagNaNGuard(*GuardEntry, NaNGuardRole::Entry);
      tagNaNGuard(*ResultSel, NaNGuardRole::Result);
    }
    R = B.CreateBitCast(Sel, D.SrcTy);
  }
  return R;
}

//===----------------------------------------------------------------------===//
// Arg-compare
//===----------------------------------------------------------------------===//

/// Custom comparator: carry (value, index, valid) through the butterfly with
/// the comparator inlined. The combine is symmetric, so both lanes of a pair
/// agree: the preferred candidate wins; when neither is preferred (or both
/// are) the smaller index wins; on equal indices the smaller value bits.
Value *SubgroupExpander::buildCustomArg(IRBuilder<> &B, Value *V, Value *Idx,
                                        Function *Cmp, unsigned Cluster,
                                        unsigned Stride, bool WWM,
                                        Value *&OutIdx) {
  Type *Ty = V->getType();
  Type *ITy = Idx->getType();
  Type *VBitsTy = B.getIntNTy(Ty->getPrimitiveSizeInBits());
  Value *Valid = B.getInt32(1);
  if (WWM) {
    Valid = callIntrinsic(B, Intrinsic::amdgcn_set_inactive, {B.getInt32Ty()},
                          {Valid, B.getInt32(0)});
    // Inactive lanes carry zeros (never poison, which would poison the
    // comparator result the selects depend on). set.inactive takes the
    // value at its own width: a 16-bit value widened before it is, on
    // true16 targets, a register pair of halves that the coalescer may
    // share with whole-wave code (see buildClusterAny).
    Value *VB = callIntrinsic(
        B, Intrinsic::amdgcn_set_inactive, {VBitsTy},
        {B.CreateBitCast(V, VBitsTy), ConstantInt::get(VBitsTy, 0)});
    V = B.CreateBitCast(VB, Ty);
    Idx = callIntrinsic(B, Intrinsic::amdgcn_set_inactive, {ITy},
                        {Idx, ConstantInt::get(ITy, 0)});
    addSeq("set.inactive");
  }
  // One step: lane xor M, or (gather loop) the partner's first active lane.
  auto OneStep = [&](IRBuilder<> &B, unsigned M, const Step &S) {
    auto [SV, OV] = buildXorStep(B, V, M, Stride, S);
    auto [SI, OI] = buildXorStep(B, Idx, M, Stride, S);
    auto [SF, OF] = buildXorStep(B, Valid, M, Stride, S);
    if (S.Kind == StepKind::VortexGather)
      OF = B.CreateSelect(GatherAny, OF, B.getInt32(0));
    CallInst *AB = B.CreateCall(Cmp, {SV, OV});
    CallInst *BA = B.CreateCall(Cmp, {OV, SV});
    ComparatorCalls.push_back(AB);
    ComparatorCalls.push_back(BA);
    Value *SValid = B.CreateICmpNE(SF, B.getInt32(0));
    Value *OValid = B.CreateICmpNE(OF, B.getInt32(0));
    // Tie (neither or both preferred): smaller index, then smaller bits.
    Value *IdxLess = B.CreateICmpSLT(OI, SI);
    Value *IdxEq = B.CreateICmpEQ(OI, SI);
    Value *BitsLess = B.CreateICmpULT(B.CreateBitCast(OV, VBitsTy),
                                      B.CreateBitCast(SV, VBitsTy));
    Value *TieTake = B.CreateSelect(IdxEq, BitsLess, IdxLess);
    Value *Pref = B.CreateSelect(B.CreateXor(AB, BA), BA, TieTake);
    Value *Take = B.CreateSelect(
        SValid, B.CreateSelect(OValid, Pref, B.getFalse()), B.getTrue());
    V = B.CreateSelect(Take, OV, SV);
    Idx = B.CreateSelect(Take, OI, SI);
    Valid = B.CreateOr(SF, OF);
  };
  if (VortexGather) {
    addSeq("vx_shfl_idx gather loop");
    Value *Vals[] = {V, Idx, Valid};
    emitGatherLoop(B, Cluster, Stride, Vals,
                   [&](IRBuilder<> &B, Value *, MutableArrayRef<Value *> X) {
                     V = X[0], Idx = X[1], Valid = X[2];
                     OneStep(B, 0, Step{StepKind::VortexGather, 0, ""});
                     X[0] = V, X[1] = Idx, X[2] = Valid;
                   });
    V = Vals[0], Idx = Vals[1], Valid = Vals[2];
  } else {
    bool Contiguous = Stride == 1;
    for (unsigned M = Stride; M < Cluster * Stride; M <<= 1)
      OneStep(B, M, takeStep(M, Contiguous));
  }
  if (WWM) {
    // Through integer bits: strict.wwm selects on 16-bit FP are not legal
    // everywhere.
    Value *VB = B.CreateBitCast(V, VBitsTy);
    if (VBitsTy->getIntegerBitWidth() < 32)
      VB = widenWord(B, VB);
    VB = callIntrinsic(B, Intrinsic::amdgcn_strict_wwm, {VB->getType()}, {VB});
    V = B.CreateBitCast(B.CreateTrunc(VB, VBitsTy), Ty);
    Idx = callIntrinsic(B, Intrinsic::amdgcn_strict_wwm, {ITy}, {Idx});
    addSeq("strict.wwm");
  }
  OutIdx = Idx;
  return V;
}

/// Takes \p Vals out of whole-wave mode through a single
/// llvm.amdgcn.strict.wwm on the vector of their 32-bit words: with one
/// call per value the scheduler may put the first value's copy between the
/// two, which costs an extra WWM exit and re-entry.
static void leaveWWM(IRBuilder<> &B, IntrinsicDeclCache &Decls,
                     MutableArrayRef<Value *> Vals) {
  Type *I32 = B.getInt32Ty();
  auto WordsOf = [](Value *V) {
    return std::max<unsigned>(V->getType()->getPrimitiveSizeInBits() / 32, 1);
  };
  SmallVector<Value *, 4> Words;
  for (Value *V : Vals) {
    unsigned Bits = V->getType()->getPrimitiveSizeInBits();
    Value *I = B.CreateBitCast(V, B.getIntNTy(Bits));
    if (Bits < 32)
      I = widenWord(B, I);
    for (unsigned K = 0; K < WordsOf(V); ++K)
      Words.push_back(B.CreateTrunc(K ? B.CreateLShr(I, 32 * K) : I, I32));
  }
  auto *VecTy = FixedVectorType::get(I32, Words.size());
  Value *Vec = PoisonValue::get(VecTy);
  for (auto [K, W] : enumerate(Words))
    Vec = B.CreateInsertElement(Vec, W, K);
  Vec = B.CreateCall(Decls.get(*B.GetInsertBlock()->getModule(),
                               Intrinsic::amdgcn_strict_wwm, {VecTy}),
                     {Vec});
  unsigned Next = 0;
  for (Value *&V : Vals) {
    unsigned Bits = V->getType()->getPrimitiveSizeInBits();
    Type *IntTy = B.getIntNTy(std::max(Bits, 32u));
    Value *I = nullptr;
    for (unsigned K = 0; K < WordsOf(V); ++K) {
      Value *W = B.CreateZExt(B.CreateExtractElement(Vec, Next++), IntTy);
      I = I ? B.CreateOr(I, B.CreateShl(W, 32 * K)) : W;
    }
    V = B.CreateBitCast(B.CreateTrunc(I, B.getIntNTy(Bits)), V->getType());
  }
}

/// Built-in argmax/argmin, hybrid as the seed recommends: reduce the value,
/// then take the smallest index among the lanes holding the result (lane
/// order need not be index order). One branch-free min reduction: a
/// single-winner fast path (s_ff1 + readlane behind a uniform branch) saves
/// 6 instructions when the maximum is unique but costs 14 more when it is
/// not and splits the caller's block (docs/SubgroupOps.md).
///
/// Under WWM, value, winners and index all stay in one whole-wave region:
/// inactive lanes enter with the index identity (they never win the index
/// reduction, so the winners need no exec mask) and a value the NaN rule
/// treats as absent (a NaN when NaNs are ignored, the value identity
/// otherwise), so the cluster's NaN test may run over the whole wave.
Value *SubgroupExpander::buildHybridArg(IRBuilder<> &B, Value *V, Value *Idx,
                                        ReduceOp Op, ElemType Ty,
                                        ElemType IdxTy, NaNPolicy NaN,
                                        unsigned Cluster, unsigned Stride,
                                        bool WWM, Value *&OutIdx) {
  Domain D = makeDomain(B, Op, Ty), DI = makeDomain(B, ReduceOp::SMin, IdxTy);
  Constant *Id = getIdentity(D), *IdxId = getIdentity(DI);
  bool NaNs = D.WorkTy->isFloatingPointTy() && !NoNaNs;
  bool Ignore = NaN == NaNPolicy::Ignore;
  Value *W = toWork(B, V, D);
  if (WWM) {
    Constant *Absent = NaNs && Ignore ? ConstantFP::getQNaN(D.WorkTy) : Id;
    W = callIntrinsic(B, Intrinsic::amdgcn_set_inactive, {D.WorkTy},
                      {W, Absent});
    Idx = callIntrinsic(B, Intrinsic::amdgcn_set_inactive, {DI.WorkTy},
                        {Idx, IdxId});
    addSeq("set.inactive");
  }
  // NaN: reduce NaN-free values (NaN -> identity); the result is NaN when
  // every lane of the cluster is (NaN ignored) or some lane is (NaN wins).
  Value *Chain = W, *IsNaN = nullptr, *LaneNaN = nullptr;
  if (NaNs && Ignore) {
    Value *Ord = B.CreateFCmpORD(W, W);
    IsNaN = B.CreateNot(buildClusterAny(B, Ord, Cluster, Stride));
    Chain = B.CreateSelect(Ord, W, Id);
  } else if (NaNs) {
    LaneNaN = B.CreateFCmpUNO(W, W);
    IsNaN = buildClusterAny(B, LaneNaN, Cluster, Stride);
    Chain = B.CreateSelect(LaneNaN, Id, W);
  }
  Value *R = buildSteps(B, Chain, D, Cluster, Stride);

  // Winners: the lanes holding exactly the result's bits (-0 and +0
  // differ); when the result is NaN, the NaN lanes, which with NaN ignored
  // is every lane of the cluster. With NaN winning, the compare is against
  // the NaN result so that no number matches it (an i1 select of the two
  // lane masks compiles to 16-bit VALU code on GFX11).
  addSeq("compare; min-index reduction");
  Type *BitsTy = B.getIntNTy(D.WorkTy->getPrimitiveSizeInBits());
  Value *Best = R;
  if (IsNaN && !Ignore)
    Best = B.CreateSelect(IsNaN, ConstantFP::getQNaN(D.WorkTy), R);
  Value *Win =
      B.CreateICmpEQ(B.CreateBitCast(W, BitsTy), B.CreateBitCast(Best, BitsTy));
  if (IsNaN)
    Win = B.CreateOr(Win, Ignore ? IsNaN : B.CreateAnd(LaneNaN, IsNaN));
  Value *RI =
      buildSteps(B, B.CreateSelect(Win, Idx, IdxId), DI, Cluster, Stride);

  Value *RV = fromWork(B, R, D);
  if (IsNaN) {
    Type *SrcBitsTy = B.getIntNTy(getBits(Ty));
    Value *QNaN = B.CreateBitCast(ConstantFP::getQNaN(D.SrcTy), SrcBitsTy);
    RV = B.CreateBitCast(
        B.CreateSelect(IsNaN, QNaN, B.CreateBitCast(RV, SrcBitsTy)), D.SrcTy);
  }
  if (WWM) {
    Value *Out[] = {RV, RI};
    leaveWWM(B, Decls, Out);
    RV = Out[0];
    RI = Out[1];
    addSeq("strict.wwm");
  }
  OutIdx = RI;
  return RV;
}

/// Zeros-equal argmax/argmin: the reduction ranked -0 as +0, so a zero
/// result takes the sign of the winning lane, i.e. -0 when a lane holding -0
/// has the winning index.
Value *SubgroupExpander::restoreZeroSign(IRBuilder<> &B, Value *V, Value *Idx,
                                         Value *RV, Value *RI, unsigned Cluster,
                                         unsigned Stride) {
  Type *Ty = V->getType();
  Type *BitsTy = B.getIntNTy(Ty->getPrimitiveSizeInBits());
  Value *NegZero = B.CreateBitCast(ConstantFP::getNegativeZero(Ty), BitsTy);
  Value *LaneNeg =
      B.CreateAnd(B.CreateICmpEQ(B.CreateBitCast(V, BitsTy), NegZero),
                  B.CreateICmpEQ(Idx, RI));
  Value *RBits = B.CreateBitCast(RV, BitsTy);
  Value *Neg = B.CreateAnd(B.CreateICmpEQ(RBits, ConstantInt::get(BitsTy, 0)),
                           buildClusterAny(B, LaneNeg, Cluster, Stride));
  addSeq("zero sign");
  return B.CreateBitCast(B.CreateSelect(Neg, NegZero, RBits), Ty);
}

} // namespace expand
} // namespace crosslane
