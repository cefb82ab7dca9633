//===- ReductionKernel.cpp - Build the kernel a distribution describes ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The kernel is built the way a front end builds code: accumulators and
/// loop state in allocas, plain loops, then LLVM's O2 pipeline (SROA,
/// unrolling, LICM) and crosslane-expand-subgroup. Every lane of a
/// workgroup runs the same trip counts and masks tails with selects, so the
/// subgroup operations and the barrier are reached by whole waves.
///
//===----------------------------------------------------------------------===//

#include "crosslane/LoweringConfig/ReductionKernel.h"
#include "KernelTarget.h"
#include "ReductionIR.h"

#include "crosslane/SubgroupReduce/ExpandSubgroup.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace crosslane {
namespace lc {

namespace {

/// Per accumulator (one parallel output of the thread): where its inputs
/// start, whether it exists, where it is stored.
struct AccSlot {
  Value *InOffset = nullptr;  ///< input offset of its parallel coordinates
  Value *InBounds = nullptr;  ///< nullptr when always in bounds
  Value *OutOffset = nullptr; ///< output index
  uint64_t LocalOut = 0;      ///< index inside the workgroup tile, minus lanes
  Value *LocalOutV = nullptr; ///< the same with the thread's coordinates
  Value *Val = nullptr, *Idx = nullptr; ///< allocas
};

class KernelBuilder {
public:
  KernelBuilder(const Distribution &D, const KernelTarget &KT, Module &M)
      : D(D), S(D.Spec), KT(KT), Ctx(M.getContext()), M(M), B(Ctx),
        Ops(S, Ctx, B) {}

  Function *build();

private:
  const Distribution &D;
  const ReductionSpec &S;
  const KernelTarget &KT;
  LLVMContext &Ctx;
  Module &M;
  IRBuilder<> B;
  CombineOps Ops;
  Function *F = nullptr;
  Type *IntTy = nullptr; ///< address arithmetic
  Value *In = nullptr, *Out = nullptr, *OutIdx = nullptr;
  SmallVector<Value *, 6> Size, Stride, RedStride, LaneC, SgC, TileBase;
  SmallVector<AccSlot, 8> Acc;
  SmallVector<Value *, 6> Chunk, BatchIV; ///< loop variables per dim
  SmallVector<Value *, 6> ReducePos;      ///< reduction positions of a step

  Value *intConst(uint64_t V) { return ConstantInt::get(IntTy, V); }
  bool masked(unsigned Dim) const;
  void emitIds();
  void emitAccumulators();
  void emitLoop(Value *Count, function_ref<void(Value *)> Body);
  void emitChunkLoops(unsigned R);
  void emitBatchLoops(unsigned R);
  void emitLoads();
  void emitLoadGroup(ArrayRef<unsigned> Red, ArrayRef<uint64_t> E,
                     Value *BaseOff, Value *BaseIdx);
  void emitCrossLane();
  void emitCrossSubgroup();
  void emitStores();
  Value *isRepresentative(bool WithSubgroups);
};

bool KernelBuilder::masked(unsigned Dim) const {
  const DimPlan &P = D.Dims[Dim];
  return P.Dim.isDynamic() || P.Dim.Size % P.Tile;
}

/// Arguments, sizes, strides, the thread's lane / subgroup coordinates and
/// the workgroup's tile.
void KernelBuilder::emitIds() {
  unsigned Rank = S.rank();
  unsigned ArgNo = Ops.isArg() ? 3 : 2;
  SmallVector<Value *, 6> Dyn;
  for (unsigned I = 0; I < Rank; ++I)
    Size.push_back(D.Dims[I].Dim.isDynamic()
                       ? B.CreateTrunc(F->getArg(ArgNo++), IntTy, "n")
                       : intConst(D.Dims[I].Dim.Size));
  Stride.assign(Rank, nullptr);
  RedStride.assign(Rank, nullptr);
  Value *St = intConst(1), *RSt = ConstantInt::get(Ops.IdxTy, 1);
  for (int I = Rank - 1; I >= 0; --I) {
    Stride[I] = St;
    St = B.CreateMul(St, Size[I]);
    if (D.Dims[I].Dim.isReduction()) {
      RedStride[I] = RSt;
      RSt = B.CreateMul(RSt, B.CreateZExtOrTrunc(Size[I], Ops.IdxTy));
    }
  }
  Value *Tid = B.CreateZExtOrTrunc(KT.localId(B), IntTy);
  Value *Lane = B.CreateURem(Tid, intConst(D.SubgroupSize), "lane");
  Value *Sg = B.CreateUDiv(Tid, intConst(D.SubgroupSize), "subgroup");
  auto Coords = [&](Value *Id, const Basis &Bs, SmallVectorImpl<Value *> &C) {
    C.assign(Rank, intConst(0));
    uint64_t P = Bs.product();
    for (unsigned J = 0; J < Rank; ++J) {
      P /= Bs.Counts[J];
      if (Bs.Counts[J] == 1)
        continue;
      C[Bs.Mapping[J]] =
          B.CreateURem(B.CreateUDiv(Id, intConst(P)), intConst(Bs.Counts[J]));
    }
  };
  Coords(Lane, D.Config.Lane, LaneC);
  Coords(Sg, D.Config.Subgroup, SgC);
  // Workgroup id -> tile coordinates over the parallel dims, last fastest.
  Value *Wg = B.CreateZExtOrTrunc(KT.groupId(B), IntTy);
  TileBase.assign(Rank, intConst(0));
  for (int I = Rank - 1; I >= 0; --I) {
    const DimPlan &P = D.Dims[I];
    if (P.Dim.isReduction())
      continue;
    Value *Tiles = B.CreateUDiv(B.CreateAdd(Size[I], intConst(P.Tile - 1)),
                                intConst(P.Tile));
    TileBase[I] = B.CreateMul(B.CreateURem(Wg, Tiles), intConst(P.Tile));
    Wg = B.CreateUDiv(Wg, Tiles);
  }
}

/// One accumulator per combination of parallel batches; its coordinates
/// base + (g*B + b)*L + l.
void KernelBuilder::emitAccumulators() {
  unsigned Rank = S.rank();
  SmallVector<unsigned, 6> Par;
  for (unsigned I = 0; I < Rank; ++I)
    if (!D.Dims[I].Dim.isReduction())
      Par.push_back(I);
  Acc.resize(D.Accumulators);
  unsigned AS = M.getDataLayout().getAllocaAddrSpace();
  for (unsigned A = 0; A < D.Accumulators; ++A) {
    AccSlot &Slot = Acc[A];
    Value *InOff = intConst(0), *OutOff = intConst(0), *Local = intConst(0);
    Value *InB = nullptr;
    uint64_t Rest = A, OutStride = 1, TileStride = 1;
    Value *OutStrideV = intConst(1);
    for (int K = Par.size() - 1; K >= 0; --K) {
      unsigned I = Par[K];
      const DimPlan &P = D.Dims[I];
      uint64_t Bt = Rest % P.Batch;
      Rest /= P.Batch;
      Value *InTile = B.CreateAdd(
          B.CreateMul(
              B.CreateAdd(B.CreateMul(SgC[I], intConst(P.Batch)), intConst(Bt)),
              intConst(P.Lanes)),
          LaneC[I]);
      Value *Pos = B.CreateAdd(TileBase[I], InTile);
      InOff = B.CreateAdd(InOff, B.CreateMul(Pos, Stride[I]));
      OutOff = B.CreateAdd(OutOff, B.CreateMul(Pos, OutStrideV));
      Local = B.CreateAdd(Local, B.CreateMul(InTile, intConst(TileStride)));
      OutStrideV = B.CreateMul(OutStrideV, Size[I]);
      OutStride *= P.Tile;
      TileStride *= P.Tile;
      if (masked(I)) {
        Value *C = B.CreateICmpULT(Pos, Size[I]);
        InB = InB ? B.CreateAnd(InB, C) : C;
      }
    }
    (void)OutStride;
    Slot.InOffset = InOff;
    Slot.OutOffset = OutOff;
    Slot.LocalOutV = Local;
    Slot.InBounds = InB;
    Slot.Val = B.CreateAlloca(Ops.AccTy, AS, nullptr, "acc");
    B.CreateStore(Ops.identity(), Slot.Val);
    if (Ops.isArg()) {
      Slot.Idx = B.CreateAlloca(Ops.IdxTy, AS, nullptr, "acc.index");
      B.CreateStore(Ops.identityIndex(), Slot.Idx);
    }
  }
}

/// for (IV = 0; IV < Count; ++IV) Body(IV); Body(0) alone for a count of 1.
void KernelBuilder::emitLoop(Value *Count, function_ref<void(Value *)> Body) {
  if (auto *C = dyn_cast<ConstantInt>(Count); C && C->isOne()) {
    Body(intConst(0));
    return;
  }
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Header = BasicBlock::Create(Ctx, "loop", F);
  BasicBlock *BodyBB = BasicBlock::Create(Ctx, "loop.body", F);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "loop.exit", F);
  B.CreateBr(Header);
  B.SetInsertPoint(Header);
  PHINode *IV = B.CreatePHI(IntTy, 2, "iv");
  IV->addIncoming(intConst(0), Pre);
  B.CreateCondBr(B.CreateICmpULT(IV, Count), BodyBB, Exit);
  B.SetInsertPoint(BodyBB);
  Body(IV);
  Value *Next = B.CreateAdd(IV, intConst(1), "iv.next", /*HasNUW=*/true);
  IV->addIncoming(Next, B.GetInsertBlock());
  B.CreateBr(Header);
  B.SetInsertPoint(Exit);
}

/// Chunk loops of the reduction dimensions, outermost first.
void KernelBuilder::emitChunkLoops(unsigned R) {
  if (R == S.rank())
    return emitBatchLoops(0);
  const DimPlan &P = D.Dims[R];
  if (!P.Dim.isReduction())
    return emitChunkLoops(R + 1);
  Value *Steps = P.Dim.isDynamic()
                     ? B.CreateUDiv(B.CreateAdd(Size[R], intConst(P.Tile - 1)),
                                    intConst(P.Tile))
                     : intConst(P.Steps);
  emitLoop(Steps, [&](Value *K) {
    Chunk[R] = K;
    emitChunkLoops(R + 1);
  });
}

void KernelBuilder::emitBatchLoops(unsigned R) {
  if (R == S.rank())
    return emitLoads();
  const DimPlan &P = D.Dims[R];
  if (!P.Dim.isReduction())
    return emitBatchLoops(R + 1);
  emitLoop(intConst(P.Batch), [&](Value *Bt) {
    BatchIV[R] = Bt;
    emitBatchLoops(R + 1);
  });
}

/// The loads of one step: every element tuple of the thread tiles, for
/// every accumulator. Reduction position k*S + ((g*B + b)*L + l)*T + e.
void KernelBuilder::emitLoads() {
  SmallVector<unsigned, 6> Red;
  Value *BaseOff = intConst(0);
  Value *BaseIdx = ConstantInt::get(Ops.IdxTy, 0);
  SmallVector<Value *, 6> Pos(S.rank(), nullptr);
  for (unsigned I = 0; I < S.rank(); ++I) {
    const DimPlan &P = D.Dims[I];
    if (!P.Dim.isReduction())
      continue;
    Red.push_back(I);
    Value *InChunk = B.CreateMul(
        B.CreateAdd(
            B.CreateMul(
                B.CreateAdd(B.CreateMul(SgC[I], intConst(P.Batch)), BatchIV[I]),
                intConst(P.Lanes)),
            LaneC[I]),
        intConst(P.Thread));
    Pos[I] =
        B.CreateAdd(B.CreateMul(Chunk[I], intConst(P.Tile)), InChunk, "pos");
    BaseOff = B.CreateAdd(BaseOff, B.CreateMul(Pos[I], Stride[I]));
    BaseIdx =
        B.CreateAdd(BaseIdx, B.CreateMul(B.CreateZExtOrTrunc(Pos[I], Ops.IdxTy),
                                         RedStride[I]));
  }
  ReducePos = Pos;
  // Every element tuple: mixed radix over the thread tiles.
  uint64_t Tuples = 1;
  for (unsigned I : Red)
    Tuples *= D.Dims[I].Thread;
  unsigned Last = S.rank() - 1;
  bool Vector = D.Dims[Last].Dim.isReduction() && D.Dims[Last].Thread > 1 &&
                !masked(Last);
  uint64_t Step = Vector ? D.Dims[Last].Thread : 1;
  for (uint64_t T = 0; T < Tuples; T += Step) {
    SmallVector<uint64_t, 6> E(S.rank(), 0);
    uint64_t Rest = T;
    for (int K = Red.size() - 1; K >= 0; --K) {
      E[Red[K]] = Rest % D.Dims[Red[K]].Thread;
      Rest /= D.Dims[Red[K]].Thread;
    }
    emitLoadGroup(Red, E, BaseOff, BaseIdx);
  }
}

/// Loads the element tuple \p E (a vector of T elements along the last
/// dimension when it is an unmasked reduction dimension) for every
/// accumulator and combines them in order.
void KernelBuilder::emitLoadGroup(ArrayRef<unsigned> Red, ArrayRef<uint64_t> E,
                                  Value *BaseOff, Value *BaseIdx) {
  unsigned Last = S.rank() - 1;
  bool Vector = D.Dims[Last].Dim.isReduction() && D.Dims[Last].Thread > 1 &&
                !masked(Last);
  unsigned Width = Vector ? D.Dims[Last].Thread : 1;
  Value *Off = BaseOff, *Idx = BaseIdx, *InB = nullptr;
  for (unsigned I : Red) {
    if (E[I]) {
      Off = B.CreateAdd(Off, B.CreateMul(intConst(E[I]), Stride[I]));
      Idx = B.CreateAdd(
          Idx, B.CreateMul(ConstantInt::get(Ops.IdxTy, E[I]), RedStride[I]));
    }
    if (masked(I)) {
      Value *C =
          B.CreateICmpULT(B.CreateAdd(ReducePos[I], intConst(E[I])), Size[I]);
      InB = InB ? B.CreateAnd(InB, C) : C;
    }
  }
  for (AccSlot &Slot : Acc) {
    Value *Ok = InB;
    if (Slot.InBounds)
      Ok = Ok ? B.CreateAnd(Ok, Slot.InBounds) : Slot.InBounds;
    Value *Addr = B.CreateAdd(Slot.InOffset, Off);
    if (Ok)
      Addr = B.CreateSelect(Ok, Addr, intConst(0));
    Value *Ptr = B.CreateGEP(Ops.ElemTy, In, Addr);
    Value *V = Ops.load(Ptr, Width, D.Dims[Last]);
    Value *A = B.CreateLoad(Ops.AccTy, Slot.Val);
    Value *AI = Slot.Idx ? B.CreateLoad(Ops.IdxTy, Slot.Idx) : nullptr;
    for (unsigned W = 0; W < Width; ++W) {
      Value *X = Width > 1 ? B.CreateExtractElement(V, W) : V;
      Value *XI =
          AI ? B.CreateAdd(Idx, ConstantInt::get(Ops.IdxTy, W)) : nullptr;
      Ops.combine(A, AI, X, XI, Ok);
    }
    B.CreateStore(A, Slot.Val);
    if (AI)
      B.CreateStore(AI, Slot.Idx);
  }
}

/// One clustered subgroup operation per reduction run of lane_basis.
void KernelBuilder::emitCrossLane() {
  for (AccSlot &Slot : Acc) {
    Value *A = B.CreateLoad(Ops.AccTy, Slot.Val);
    Value *AI = Slot.Idx ? B.CreateLoad(Ops.IdxTy, Slot.Idx) : nullptr;
    for (const LaneStep &St : D.LaneSteps)
      Ops.subgroupReduce(M, A, AI, St.ClusterSize, St.ClusterStride);
    B.CreateStore(A, Slot.Val);
    if (AI)
      B.CreateStore(AI, Slot.Idx);
  }
}

/// True for the lanes at reduction coordinate 0 (of their subgroup, or of
/// the workgroup).
Value *KernelBuilder::isRepresentative(bool WithSubgroups) {
  Value *R = B.getTrue();
  for (unsigned I = 0; I < S.rank(); ++I) {
    if (!D.Dims[I].Dim.isReduction())
      continue;
    R = B.CreateAnd(R, B.CreateICmpEQ(LaneC[I], intConst(0)));
    if (WithSubgroups)
      R = B.CreateAnd(R, B.CreateICmpEQ(SgC[I], intConst(0)));
  }
  return R;
}

/// The reduction subgroups' partial results meet in LDS; subgroup 0 of the
/// reduction coordinates merges them in subgroup order.
void KernelBuilder::emitCrossSubgroup() {
  unsigned RS = D.ReductionSubgroups;
  if (RS == 1)
    return;
  uint64_t N = uint64_t(RS) * D.TileOutputs;
  auto MakeLDS = [&](Type *Ty, StringRef Name) {
    return KT.localArray(M, ArrayType::get(Ty, N), Name);
  };
  GlobalVariable *LV = MakeLDS(Ops.AccTy, "partials");
  GlobalVariable *LI =
      Ops.isArg() ? MakeLDS(Ops.IdxTy, "partials.index") : nullptr;
  // Linear subgroup index over the reduction dims (in dim order).
  Value *SgLin = intConst(0);
  for (unsigned I = 0; I < S.rank(); ++I)
    if (D.Dims[I].Dim.isReduction())
      SgLin = B.CreateAdd(B.CreateMul(SgLin, intConst(D.Dims[I].Subgroups)),
                          SgC[I]);
  auto Slot = [&](Value *Sg, AccSlot &A) {
    return B.CreateAdd(B.CreateMul(Sg, intConst(D.TileOutputs)), A.LocalOutV);
  };
  BasicBlock *Write = BasicBlock::Create(Ctx, "lds.write", F);
  BasicBlock *Sync = BasicBlock::Create(Ctx, "lds.sync", F);
  B.CreateCondBr(isRepresentative(false), Write, Sync);
  B.SetInsertPoint(Write);
  for (AccSlot &A : Acc) {
    Value *I = Slot(SgLin, A);
    B.CreateStore(B.CreateLoad(Ops.AccTy, A.Val),
                  B.CreateGEP(Ops.AccTy, LV, I));
    if (LI)
      B.CreateStore(B.CreateLoad(Ops.IdxTy, A.Idx),
                    B.CreateGEP(Ops.IdxTy, LI, I));
  }
  B.CreateBr(Sync);
  B.SetInsertPoint(Sync);
  KT.barrier(B);
  BasicBlock *Merge = BasicBlock::Create(Ctx, "lds.merge", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "lds.done", F);
  B.CreateCondBr(isRepresentative(true), Merge, Done);
  B.SetInsertPoint(Merge);
  emitLoop(intConst(RS - 1), [&](Value *K) {
    Value *Sg = B.CreateAdd(K, intConst(1));
    for (AccSlot &A : Acc) {
      Value *I = Slot(Sg, A);
      Value *X = B.CreateLoad(Ops.AccTy, B.CreateGEP(Ops.AccTy, LV, I));
      Value *XI =
          LI ? B.CreateLoad(Ops.IdxTy, B.CreateGEP(Ops.IdxTy, LI, I)) : nullptr;
      Value *V = B.CreateLoad(Ops.AccTy, A.Val);
      Value *VI = A.Idx ? B.CreateLoad(Ops.IdxTy, A.Idx) : nullptr;
      Ops.combinePartial(V, VI, X, XI);
      B.CreateStore(V, A.Val);
      if (VI)
        B.CreateStore(VI, A.Idx);
    }
  });
  emitStores();
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
}

/// The representative lanes store their in-bounds outputs.
void KernelBuilder::emitStores() {
  for (AccSlot &A : Acc) {
    BasicBlock *Next = nullptr;
    if (A.InBounds) {
      BasicBlock *St = BasicBlock::Create(Ctx, "store", F);
      Next = BasicBlock::Create(Ctx, "store.next", F);
      B.CreateCondBr(A.InBounds, St, Next);
      B.SetInsertPoint(St);
    }
    Value *V = Ops.finalValue(B.CreateLoad(Ops.AccTy, A.Val));
    B.CreateStore(V, B.CreateGEP(V->getType(), Out, A.OutOffset));
    if (A.Idx)
      B.CreateStore(B.CreateLoad(Ops.IdxTy, A.Idx),
                    B.CreateGEP(Ops.IdxTy, OutIdx, A.OutOffset));
    if (Next) {
      B.CreateBr(Next);
      B.SetInsertPoint(Next);
    }
  }
}

Function *KernelBuilder::build() {
  bool Wide = S.hasDynamicDims();
  uint64_t Total = 1;
  for (const DimPlan &P : D.Dims)
    Total = P.Dim.isDynamic() ? Total : Total * P.Dim.Size;
  Wide |= Total >= (uint64_t(1) << 31);
  IntTy = Wide ? B.getInt64Ty() : B.getInt32Ty();
  PointerType *GPtr = PointerType::get(Ctx, KT.globalAddrSpace());
  SmallVector<Type *, 8> Params = {GPtr, GPtr};
  if (Ops.isArg())
    Params.push_back(GPtr);
  for (const DimPlan &P : D.Dims)
    if (P.Dim.isDynamic())
      Params.push_back(B.getInt64Ty());
  F = Function::Create(FunctionType::get(B.getVoidTy(), Params, false),
                       GlobalValue::ExternalLinkage, KernelName, M);
  KT.setKernelAttributes(*F);
  F->addFnAttr(Attribute::NoUnwind);
  for (unsigned I = 0; I < (Ops.isArg() ? 3u : 2u); ++I) {
    F->addParamAttr(I, Attribute::NoAlias);
    F->addParamAttr(I, Attribute::getWithCaptureInfo(Ctx, CaptureInfo::none()));
  }
  F->addParamAttr(0, Attribute::ReadOnly);
  In = F->getArg(0);
  Out = F->getArg(1);
  OutIdx = Ops.isArg() ? F->getArg(2) : nullptr;
  In->setName("in");
  Out->setName("out");
  if (OutIdx)
    OutIdx->setName("out.index");
  B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", F));
  emitIds();
  emitAccumulators();
  Chunk.assign(S.rank(), nullptr);
  BatchIV.assign(S.rank(), nullptr);
  emitChunkLoops(0);
  emitCrossLane();
  if (D.ReductionSubgroups > 1)
    return emitCrossSubgroup(), F;
  BasicBlock *St = BasicBlock::Create(Ctx, "store.outputs", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", F);
  B.CreateCondBr(isRepresentative(true), St, Done);
  B.SetInsertPoint(St);
  emitStores();
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Expected<std::unique_ptr<TargetMachine>>
makeTargetMachine(const KernelTarget &KT) {
  Triple TT = KT.triple();
  std::string Err;
  const Target *Tgt = TargetRegistry::lookupTarget(TT, Err);
  if (!Tgt)
    return createStringError(inconvertibleErrorCode(),
                             "no " + TT.str() + " target in this LLVM: " + Err);
  TargetOptions Opts;
  std::unique_ptr<TargetMachine> TM(
      Tgt->createTargetMachine(TT, KT.cpu(), KT.features(), Opts, std::nullopt,
                               std::nullopt, CodeGenOptLevel::Default));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for " + TT.str());
  return TM;
}

void runPipeline(Module &M, TargetMachine &TM, const KernelTarget &KT,
                 const KernelOptions &Opts) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  KT.addPipelineStartPasses(MPM);
  if (Opts.Optimize)
    MPM.addPass(PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2));
  // Every lane of every wave reaches the subgroup operations (uniform trip
  // counts, tails masked by selects, whole-wave workgroups), so the
  // expansion needs no whole-wave mode.
  ExpandSubgroupOptions EO;
  EO.AssumeFullWave = true;
  if (Opts.Expand)
    MPM.addPass(createModuleToFunctionPassAdaptor(ExpandSubgroupPass(EO)));
  MPM.run(M, MAM);
}

} // namespace

Expected<std::unique_ptr<Module>>
generateReductionKernel(const Distribution &D, LLVMContext &Ctx,
                        const KernelOptions &Opts) {
  uint64_t Loads = D.Accumulators;
  for (const DimPlan &P : D.Dims)
    if (P.Dim.isReduction())
      Loads *= P.Thread;
  if (Loads > MaxUnrolledLoads)
    return createStringError(
        inconvertibleErrorCode(),
        "thread: a thread would issue " + Twine(Loads) +
            " loads per step (outputs per thread x elements per load); the "
            "generator unrolls at most " +
            Twine(MaxUnrolledLoads));
  std::unique_ptr<KernelTarget> KT =
      KernelTarget::create(D.Target, D.WorkgroupSize);
  Expected<std::unique_ptr<TargetMachine>> TM = makeTargetMachine(*KT);
  if (!TM)
    return TM.takeError();
  auto M = std::make_unique<Module>("crosslane-reduce", Ctx);
  M->setTargetTriple(KT->triple());
  M->setDataLayout((*TM)->createDataLayout());
  KernelBuilder(D, *KT, *M).build();
  std::string Err;
  raw_string_ostream OS(Err);
  if (verifyModule(*M, &OS))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: generated kernel is invalid: " +
                                 Err);
  runPipeline(*M, **TM, *KT, Opts);
  return std::move(M);
}

} // namespace lc
} // namespace crosslane
