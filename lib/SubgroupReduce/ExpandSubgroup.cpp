//===- ExpandSubgroup.cpp - Expand subgroup reductions to DPP -------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every reduction is a butterfly over the lane bits of its cluster: for
/// M = stride, 2*stride, ..., (cluster*stride)/2 each lane combines its value
/// with the value of lane (L xor M). The combine is always op(lower-half
/// child, upper-half child) up to commutativity, so every sequence computes
/// the same balanced binary tree over the cluster positions, which is the
/// tree the reference (Reference.cpp) evaluates. Each xor step is served by
/// the cheapest primitive the chip has (see chooseStep and
/// docs/SubgroupOps.md). The full-wave contiguous case on GFX8/9 instead uses
/// the row_shr + row_bcast chain that leaves the total in lane 63; it
/// computes the same tree in that lane.
///
/// Active-lane safety: unless every lane provably executes the call, the
/// value enters whole-wave mode through llvm.amdgcn.set.inactive with the
/// operation's identity and leaves it through llvm.amdgcn.strict.wwm, so
/// inactive lanes contribute the identity and DPP/permlane never read an
/// undefined lane.
///
//===----------------------------------------------------------------------===//

#include "SubgroupExpander.h"

#define DEBUG_TYPE "crosslane-expand-subgroup"

using namespace llvm;
using namespace crosslane::subgroup;

CROSSLANE_STATISTIC(NumReduce, "Number of __crosslane_reduce_* calls expanded");
CROSSLANE_STATISTIC(NumArg, "Number of __crosslane_arg* calls expanded");
CROSSLANE_STATISTIC(NumWaveReduce,
                    "Number of llvm.amdgcn.wave.reduce.* expanded");
CROSSLANE_STATISTIC(NumErrors, "Number of malformed calls diagnosed");

namespace crosslane {
namespace expand {

Type *SubgroupExpander::getLLVMType(ElemType T) const {
  return subgroup::getLLVMType(T, Ctx);
}

//===----------------------------------------------------------------------===//
// Diagnostics and remarks
//===----------------------------------------------------------------------===//

void SubgroupExpander::diagnose(CallInst *CI, const Twine &Msg) {
  ++NumErrors;
  std::string Text = Msg.str();
  DebugLoc Loc = userDebugLoc(CI);
  // Without debug locations the frontend can only name the function (as
  // clang's own note for remarks says).
  if (!Loc)
    Text += " (the call's own line is shown with -gline-tables-only)";
  Ctx.diagnose(DiagnosticInfoUnsupported(F, Text, Loc));
  // Leave a valid module: the call's result becomes poison.
  if (!CI->getType()->isVoidTy())
    CI->replaceAllUsesWith(PoisonValue::get(CI->getType()));
  CI->eraseFromParent();
}

void SubgroupExpander::diagnoseXePartial(CallInst *CI) {
  diagnose(CI, "crosslane: on Intel Xe, subgroup operations are expanded for "
               "whole subgroups only, and this call is not known to run with "
               "every work-item of its subgroup "
               "(crosslane-expand-subgroup<no-wwm> asserts that it does)");
}

void SubgroupExpander::remarkExpanded(CallInst *CI, StringRef What) {
  std::string Sequence = Seq;
  bool Fallback = UsedFallback;
  CROSSLANE_DEBUG(dbgs() << "  expanded " << What << ": " << Sequence
                         << (Fallback ? " (portable steps used)" : "") << "\n");
  Remarks.emit([&] {
    OptimizationRemark R(DEBUG_TYPE, "Expanded", userDebugLoc(CI),
                         CI->getParent());
    R << "expanded " << What << " for ";
    if (IsXe)
      R << "Intel Xe subgroup" << ore::NV("WaveSize", Chip.WaveSize);
    else if (IsVortex && !VortexLanes)
      R << "Vortex (warp size read at run time)";
    else if (IsVortex)
      R << "Vortex warp" << ore::NV("WaveSize", VortexLanes);
    else
      R << Chip.CPU << " wave" << ore::NV("WaveSize", Chip.WaveSize);
    R << ": " << ore::NV("Sequence", Sequence);
    // crosslane-vortex-full-warps' copy of a kernel entry.
    if (IsVortex && F.getName().ends_with(".fullwarps"))
      R << " (the kernel's copy for launches of whole warps)";
    return R;
  });
  if (Fallback) {
    Remarks.emit([&] {
      OptimizationRemarkMissed R(DEBUG_TYPE, "PortableFallback",
                                 userDebugLoc(CI), CI->getParent());
      if (!Chip.HasDPP)
        return R << What << ": " << Chip.CPU
                 << " has no DPP; used the portable ds_swizzle/readlane "
                    "sequence";
      return R << What << ": DPP cannot serve every step of this cluster on "
               << Chip.CPU << " (lane xor across rows or halves); used "
               << "ds_swizzle/ds_bpermute/readlane for those steps";
    });
  }
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

/// How a cluster operand reads in a diagnostic: its value, or "a value
/// known only at run time".
static std::string describeOperand(const ConstantInt *C) {
  return C ? "is " + std::to_string(C->getSExtValue())
           : "is not a constant (known only at run time)";
}

bool SubgroupExpander::checkCluster(CallInst *CI, unsigned ArgNo,
                                    unsigned &Cluster, unsigned &Stride) {
  auto *CC = dyn_cast<ConstantInt>(CI->getArgOperand(ArgNo));
  auto *SC = dyn_cast<ConstantInt>(CI->getArgOperand(ArgNo + 1));
  unsigned W = Chip.WaveSize;
  StringRef Wave = IsVortex ? "warp" : IsXe ? "subgroup" : "wave";
  if (!CC || !CC->getValue().isPowerOf2() || CC->getZExtValue() > W) {
    diagnose(CI, Twine("crosslane: cluster size of '") +
                     calledDeclaration(CI)->getName() + "' " +
                     describeOperand(CC) +
                     ": it must be a constant power of two no larger than "
                     "the " +
                     Wave + " size (" + Twine(W) + ")");
    return false;
  }
  if (!SC || !SC->getValue().isPowerOf2() ||
      SC->getZExtValue() * CC->getZExtValue() > W) {
    diagnose(CI, Twine("crosslane: cluster stride of '") +
                     calledDeclaration(CI)->getName() + "' " +
                     describeOperand(SC) + " (cluster size " +
                     Twine(CC->getZExtValue()) +
                     "): it must be a constant power of two with cluster "
                     "size * stride <= the " +
                     Wave + " size (" + Twine(W) + ")");
    return false;
  }
  Cluster = CC->getZExtValue();
  Stride = SC->getZExtValue();
  return true;
}

bool SubgroupExpander::canCoerce(Type *From, Type *To) {
  if (From == To)
    return true;
  unsigned FB = From->getPrimitiveSizeInBits(),
           TB = To->getPrimitiveSizeInBits();
  if (!FB || !TB)
    return false;
  if (FB == TB)
    return true;
  return To->isIntegerTy() && TB > FB;
}

static Value *coerce(IRBuilder<> &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  unsigned FB = From->getPrimitiveSizeInBits();
  unsigned TB = To->getPrimitiveSizeInBits();
  if (FB == TB)
    return B.CreateBitCast(V, To);
  Value *I = B.CreateBitCast(V, B.getIntNTy(FB));
  return B.CreateZExt(I, To);
}

/// Whether the intrinsic computes its result from its operands alone, the
/// same in every lane: LLVM's generic intrinsics (math, bit operations) and
/// the AMDGPU math ones; not work-item ids, lane masks or lane moves.
static bool isLaneIndependent(const IntrinsicInst &II) {
  if (II.isConvergent())
    return false;
  if (!II.getCalledFunction()->getName().starts_with("llvm.amdgcn."))
    return true;
  switch (II.getIntrinsicID()) {
  case Intrinsic::amdgcn_class:
  case Intrinsic::amdgcn_cos:
  case Intrinsic::amdgcn_cvt_pkrtz:
  case Intrinsic::amdgcn_exp2:
  case Intrinsic::amdgcn_fma_legacy:
  case Intrinsic::amdgcn_fmed3:
  case Intrinsic::amdgcn_fmul_legacy:
  case Intrinsic::amdgcn_fract:
  case Intrinsic::amdgcn_frexp_exp:
  case Intrinsic::amdgcn_frexp_mant:
  case Intrinsic::amdgcn_log:
  case Intrinsic::amdgcn_rcp:
  case Intrinsic::amdgcn_rsq:
  case Intrinsic::amdgcn_sin:
  case Intrinsic::amdgcn_sqrt:
    return true;
  default:
    return false;
  }
}

/// The first instruction of \p BB (phis and the terminator aside) that is
/// not safe to run when the block is not reached, or null.
static Instruction *firstUnspeculatable(BasicBlock &BB) {
  for (Instruction &I : BB)
    if (!I.isTerminator() && !isa<PHINode>(I) &&
        !isSafeToSpeculativelyExecute(&I))
      return &I;
  return nullptr;
}

/// Turns an acyclic function whose blocks hold only speculatable code into
/// one block of selects (SimplifyCFG folds two-way diamonds, not the
/// three-way joins clang -O0 leaves for `a || (b && c)` or early returns).
/// Each block's "reached" flag and each edge's "taken" flag are built with
/// logical and/or (selects), so a branch condition computed in a block
/// that is not reached, possibly poison, never decides anything. Returns
/// false, leaving \p F unchanged, if \p F has a cycle, a terminator other
/// than br/switch/ret/unreachable, or an instruction that is not safe to
/// speculate outside a block ending in unreachable.
static bool flattenToSelects(Function &F) {
  ReversePostOrderTraversal<Function *> RPOT(&F);
  SmallVector<BasicBlock *, 8> Order(RPOT.begin(), RPOT.end());
  if (Order.size() != F.size())
    return false;
  DenseMap<BasicBlock *, unsigned> Pos;
  for (auto [K, BB] : enumerate(Order))
    Pos[BB] = K;
  for (BasicBlock *BB : Order) {
    Instruction *T = BB->getTerminator();
    // A block ending in unreachable (SimplifyCFG's default of a switch
    // that covers every value) is never reached: its code is dropped.
    if (isa<UnreachableInst>(T))
      continue;
    if (!isa<BranchInst>(T) && !isa<SwitchInst>(T) && !isa<ReturnInst>(T))
      return false;
    for (BasicBlock *Succ : successors(BB))
      if (Pos.lookup(Succ) <= Pos[BB])
        return false;
    if (firstUnspeculatable(*BB))
      return false;
  }
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Flat = BasicBlock::Create(Ctx, "flat", &F, Order.front());
  IRBuilder<> B(Flat);
  auto And = [&](Value *X, Value *Y) { return B.CreateLogicalAnd(X, Y); };
  auto Or = [&](Value *X, Value *Y) { return B.CreateLogicalOr(X, Y); };
  DenseMap<BasicBlock *, Value *> Reached;
  // Whether the edge From -> To is taken (From reached and branching there).
  auto Taken = [&](BasicBlock *From, BasicBlock *To) -> Value * {
    Value *R = Reached[From];
    if (auto *SI = dyn_cast<SwitchInst>(From->getTerminator())) {
      // Some case leading to To matches; or none matches and To is the
      // default.
      Value *Edge = B.getFalse(), *AnyCase = B.getFalse();
      for (auto &Case : SI->cases()) {
        Value *Eq = B.CreateICmpEQ(SI->getCondition(), Case.getCaseValue());
        AnyCase = Or(AnyCase, Eq);
        if (Case.getCaseSuccessor() == To)
          Edge = Or(Edge, Eq);
      }
      if (SI->getDefaultDest() == To)
        Edge = Or(Edge, B.CreateNot(AnyCase));
      return And(R, Edge);
    }
    auto *Br = cast<BranchInst>(From->getTerminator());
    if (Br->isUnconditional())
      return R;
    Value *C = Br->getCondition();
    Value *Edge = nullptr;
    if (Br->getSuccessor(0) == To)
      Edge = C;
    if (Br->getSuccessor(1) == To)
      Edge = Edge ? B.getTrue() : B.CreateNot(C);
    return And(R, Edge);
  };
  Value *Result = nullptr;
  for (BasicBlock *BB : Order) {
    if (isa<UnreachableInst>(BB->getTerminator()))
      continue;
    Value *R = BB == Order.front() ? B.getTrue() : nullptr;
    for (BasicBlock *Pred :
         SmallSetVector<BasicBlock *, 4>(pred_begin(BB), pred_end(BB))) {
      Value *E = Taken(Pred, BB);
      R = R ? Or(R, E) : E;
    }
    Reached[BB] = R;
    for (PHINode &Phi : make_early_inc_range(BB->phis())) {
      Value *V = Phi.getIncomingValue(0);
      for (unsigned K = 1; K < Phi.getNumIncomingValues(); ++K)
        V = B.CreateSelect(Taken(Phi.getIncomingBlock(K), BB),
                           Phi.getIncomingValue(K), V);
      Phi.replaceAllUsesWith(V);
      Phi.eraseFromParent();
    }
    for (Instruction &I : make_early_inc_range(*BB))
      if (!I.isTerminator())
        I.moveBefore(*Flat, Flat->end());
    if (auto *Ret = dyn_cast<ReturnInst>(BB->getTerminator()))
      Result = Result ? B.CreateSelect(R, Ret->getReturnValue(), Result)
                      : Ret->getReturnValue();
  }
  B.SetInsertPoint(Flat);
  B.CreateRet(Result);
  for (BasicBlock *BB : Order)
    BB->dropAllReferences();
  for (BasicBlock *BB : Order)
    BB->eraseFromParent();
  return true;
}

/// A copy of \p Cmp reduced to what is inlined into whole-wave code: the
/// functions it calls inlined (a lambda's __invoke calls its operator()),
/// local memory promoted to registers (SROA: arrays, structs, bit casts
/// through memory, and clang -O0's flat pointers to its allocas), and small
/// branches folded into selects. Cached.
Function *SubgroupExpander::purifyComparator(Function *Cmp) {
  Function *&Pure = PureComparators[Cmp];
  if (Pure)
    return Pure;
  ValueToValueMapTy VMap;
  Pure = CloneFunction(Cmp, VMap);
  Pure->setName(Cmp->getName() + ".crosslane.pure");
  Pure->setLinkage(GlobalValue::InternalLinkage);
  Pure->removeFnAttr(Attribute::OptimizeNone);
  Pure->removeFnAttr(Attribute::NoInline);
  // Calls to defined functions, a bounded number of rounds (a recursive
  // comparator's calls to itself stay calls, and are refused).
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallVector<CallBase *, 4> Calls;
    for (Instruction &I : instructions(*Pure))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && Callee != Cmp)
            Calls.push_back(CB);
    if (Calls.empty())
      break;
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      (void)InlineFunction(*CB, IFI);
    }
  }
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(SimplifyCFGPass(SimplifyCFGOptions().speculateBlocks(true)));
  FPM.addPass(InstSimplifyPass());
  FPM.addPass(ADCEPass());
  FPM.run(*Pure, FAM);
  FAM.clear(*Pure, Pure->getName());
  // Assumptions (also SimplifyCFG's, from unreachable paths) hold for the
  // lanes that call the comparator, not for the inactive lanes whole-wave code
  // also runs it on (their operands are placeholders): keeping them would make
  // that code undefined.
  for (Instruction &I : make_early_inc_range(instructions(*Pure)))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::assume ||
          II->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl)
        II->eraseFromParent();
  if (Pure->size() > 1)
    (void)flattenToSelects(*Pure);
  FunctionPassManager Tidy;
  Tidy.addPass(EarlyCSEPass());
  Tidy.addPass(InstSimplifyPass());
  Tidy.addPass(ADCEPass());
  Tidy.run(*Pure, FAM);
  FAM.clear(*Pure, Pure->getName());
  return Pure;
}

bool SubgroupExpander::checkComparator(CallInst *CI, Value *V, Type *Ty,
                                       Function *&Cmp) {
  Cmp = dyn_cast<Function>(V->stripPointerCasts());
  auto Fail = [&](const Twine &Why) {
    diagnose(CI, Twine("crosslane: comparator of '") +
                     calledDeclaration(CI)->getName() + "' " + Why);
    return false;
  };
  if (!Cmp)
    return Fail("must be a known function");
  if (Cmp->isDeclaration())
    return Fail("'" + Cmp->getName() + "' has no body in this module");
  FunctionType *FT = Cmp->getFunctionType();
  if (FT->isVarArg() || FT->getNumParams() != 2 ||
      !FT->getReturnType()->isIntegerTy(1) || FT->getParamType(0) != Ty ||
      FT->getParamType(1) != Ty)
    return Fail("'" + Cmp->getName() + "' must have type i1 (T, T)");
  // Checked on a copy reduced to straight-line register code, which is
  // what is inlined: clang -O0 keeps parameters and locals in memory, calls
  // lambdas' operator() and branches for ?:.
  Function *Pure = purifyComparator(Cmp);
  if (Pure->size() != 1) {
    for (BasicBlock &BB : *Pure)
      if (Instruction *I = firstUnspeculatable(BB))
        return Fail("'" + Cmp->getName() + "' guards code that may trap or " +
                    "have side effects (" + I->getOpcodeName() +
                    ") by a branch; it is inlined into whole-wave code as "
                    "straight-line code, which would run both sides");
    return Fail("'" + Cmp->getName() +
                "' must reduce to straight-line code (it is inlined into "
                "whole-wave code; a loop or a path that never returns "
                "remains)");
  }
  for (Instruction &I : Pure->getEntryBlock()) {
    if (I.isTerminator())
      continue;
    if (isa<AllocaInst>(I))
      return Fail("'" + Cmp->getName() +
                  "' keeps local memory that cannot live in registers (it "
                  "would be read in whole-wave code where inactive lanes "
                  "never stored it)");
    if (auto *Asm = dyn_cast<CallBase>(&I); Asm && Asm->isInlineAsm())
      return Fail("'" + Cmp->getName() +
                  "' contains inline assembly, which cannot be shown to "
                  "compute from its operands only");
    if (I.mayReadOrWriteMemory())
      return Fail("'" + Cmp->getName() +
                  "' must not access memory (it may run for inactive lanes)");
    auto *CB = dyn_cast<CallBase>(&I);
    if (CB && !isa<IntrinsicInst>(CB))
      return Fail("'" + Cmp->getName() + "' calls '" +
                  (CB->getCalledFunction() ? CB->getCalledFunction()->getName()
                                           : StringRef("an unknown function")) +
                  "', which could not be inlined");
    if (CB && !isLaneIndependent(*cast<IntrinsicInst>(CB)))
      return Fail("'" + Cmp->getName() +
                  "' must compute from its two "
                  "operands only, but reads lane or work-item state ('" +
                  CB->getCalledFunction()->getName() +
                  "'); every lane of a cluster must get the same answer");
    if (!isSafeToSpeculativelyExecute(&I))
      return Fail("'" + Cmp->getName() + "' may trap or have side effects (" +
                  I.getOpcodeName() + ")");
  }
  Cmp = Pure;
  return true;
}

void SubgroupExpander::expandReduce(CallInst *CI, const OpName &N) {
  Type *Ty = getLLVMType(N.Ty);
  if (CI->arg_size() != 3 || CI->getArgOperand(0)->getType() != Ty ||
      CI->getType() != Ty ||
      !CI->getArgOperand(1)->getType()->isIntegerTy(32) ||
      !CI->getArgOperand(2)->getType()->isIntegerTy(32))
    return diagnose(CI, Twine("crosslane: '") + N.str() + "' must have type " +
                            getName(N.Ty) + " (" + getName(N.Ty) +
                            ", i32, i32)");
  unsigned Cluster, Stride;
  if (!checkCluster(CI, 1, Cluster, Stride))
    return;
  bool Partial = needsWWM(CI, Cluster);
  if (IsXe && Partial)
    return diagnoseXePartial(CI);
  Value *R = buildForActiveLanes(CI, Partial, [&](IRBuilder<> &B) {
    return buildReduce(B, CI->getArgOperand(0), N.Op, N.Ty, Cluster, Stride,
                       Partial && !IsVortex);
  });
  ++NumReduce;
  remarkExpanded(CI, (Twine("reduce ") + getName(N.Op) + " " + getName(N.Ty) +
                      " cluster " + Twine(Cluster) + " stride " + Twine(Stride))
                         .str());
  CI->replaceAllUsesWith(R);
  CI->eraseFromParent();
}

/// An arg operation whose (value, index) result the ABI returns through a
/// hidden pointer (`sret`: rv32 returns {double, int} in memory) as a call
/// that returns it, stored to that pointer.
CallInst *SubgroupExpander::returnDirectly(CallInst *CI) {
  if (!CI->getType()->isVoidTy() || CI->arg_size() == 0 ||
      !CI->paramHasAttr(0, Attribute::StructRet))
    return CI;
  Type *RT = CI->getParamStructRetType(0);
  SmallVector<Value *, 6> Args(drop_begin(CI->args()));
  SmallVector<Type *, 6> Tys;
  for (Value *A : Args)
    Tys.push_back(A->getType());
  IRBuilder<> B(CI);
  CallInst *New = B.CreateCall(FunctionType::get(RT, Tys, false),
                               CI->getCalledOperand(), Args);
  New->setDebugLoc(CI->getDebugLoc());
  B.CreateStore(New, CI->getArgOperand(0));
  CI->eraseFromParent();
  return New;
}

void SubgroupExpander::expandArg(CallInst *CI, const OpName &N) {
  Type *Ty = getLLVMType(N.Ty);
  Type *ITy = getLLVMType(N.IndexTy);
  bool Custom = N.Kind == ArgKind::Custom;
  auto BadType = [&]() {
    diagnose(CI, Twine("crosslane: '") + N.str() + "' must have type {" +
                     getName(N.Ty) + ", " + getName(N.IndexTy) + "} (" +
                     getName(N.Ty) + ", " + getName(N.IndexTy) +
                     (Custom ? ", ptr comparator" : "") +
                     ", i32 cluster, i32 stride" +
                     (Custom ? "" : ", i32 nan_policy") + ")");
  };
  if (CI->arg_size() != 5 || CI->getArgOperand(0)->getType() != Ty ||
      CI->getArgOperand(1)->getType() != ITy)
    return BadType();
  unsigned FirstCluster = Custom ? 3 : 2;
  for (unsigned I = FirstCluster; I < 5; ++I)
    if (!Custom || I != 2)
      if (!CI->getArgOperand(I)->getType()->isIntegerTy(32))
        return BadType();
  if (Custom && !CI->getArgOperand(2)->getType()->isPointerTy())
    return BadType();
  // The result: a two-element aggregate holding (value, index), possibly
  // ABI-coerced by clang (e.g. [2 x i32] for {float, int}).
  Type *RT = CI->getType();
  Type *E0 = nullptr, *E1 = nullptr;
  if (auto *ST = dyn_cast<StructType>(RT); ST && ST->getNumElements() == 2) {
    E0 = ST->getElementType(0);
    E1 = ST->getElementType(1);
  } else if (auto *AT = dyn_cast<ArrayType>(RT);
             AT && AT->getNumElements() == 2) {
    E0 = E1 = AT->getElementType();
  }
  if (!E0 || !canCoerce(Ty, E0) || !canCoerce(ITy, E1))
    return BadType();

  unsigned Cluster, Stride;
  if (!checkCluster(CI, FirstCluster, Cluster, Stride))
    return;
  ArgPolicy Policy;
  Function *Cmp = nullptr;
  if (Custom) {
    if (!checkComparator(CI, CI->getArgOperand(2), Ty, Cmp))
      return;
  } else {
    auto *P = dyn_cast<ConstantInt>(CI->getArgOperand(4));
    std::optional<ArgPolicy> D =
        P ? decodeArgPolicy(P->getZExtValue(), N.Ty) : std::nullopt;
    if (!D)
      return diagnose(CI, Twine("crosslane: nan_policy of '") + N.str() +
                              "' must be a constant: 0 (NaN ignored) or 1 "
                              "(NaN wins), plus 2 for -0 == +0");
    Policy = *D;
  }
  bool ZerosEqual = Policy.ZerosEqual;

  // Vortex has no whole-wave mode: a partial lane set takes gather steps.
  bool Partial = needsWWM(CI, Cluster);
  if (IsXe && Partial)
    return diagnoseXePartial(CI);
  bool WWM = Partial && !IsVortex;
  auto Build = [&](IRBuilder<> &B) -> Value * {
    Value *V = CI->getArgOperand(0), *Idx = CI->getArgOperand(1);
    Value *OrigV = V;
    if (ZerosEqual) {
      // Rank both zeros as +0; the sign of a zero result is restored below.
      V = B.CreateSelect(B.CreateFCmpOEQ(V, ConstantFP::getZero(Ty)),
                         ConstantFP::getZero(Ty), V);
      addSeq("zeros equal");
    }
    Value *RV, *RI;
    if (Custom) {
      RV = buildCustomArg(B, V, Idx, Cmp, Cluster, Stride, WWM, RI);
    } else {
      ReduceOp Op = getArgValueOp(N.Kind, N.Ty, Policy.NaN);
      RV = buildHybridArg(B, V, Idx, Op, N.Ty, N.IndexTy, Policy.NaN, Cluster,
                          Stride, WWM, RI);
      if (ZerosEqual)
        RV = restoreZeroSign(B, OrigV, Idx, RV, RI, Cluster, Stride);
    }
    Value *Agg = PoisonValue::get(RT);
    Agg = B.CreateInsertValue(Agg, coerce(B, RV, E0), 0);
    return B.CreateInsertValue(Agg, coerce(B, RI, E1), 1);
  };
  Value *Agg = buildForActiveLanes(CI, Partial, Build);
  ++NumArg;
  remarkExpanded(CI, (Twine(getName(N.Kind)) + " " + getName(N.Ty) + "/" +
                      getName(N.IndexTy) + " cluster " + Twine(Cluster) +
                      " stride " + Twine(Stride))
                         .str());
  CI->replaceAllUsesWith(Agg);
  CI->eraseFromParent();
}

//===----------------------------------------------------------------------===//
// llvm.amdgcn.wave.reduce.*
//===----------------------------------------------------------------------===//

void SubgroupExpander::expandWaveReduce(IntrinsicInst *II) {
  std::optional<ReduceOp> Op;
  bool Negate = false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::amdgcn_wave_reduce_umin:
    Op = ReduceOp::UMin;
    break;
  case Intrinsic::amdgcn_wave_reduce_min:
    Op = ReduceOp::SMin;
    break;
  case Intrinsic::amdgcn_wave_reduce_umax:
    Op = ReduceOp::UMax;
    break;
  case Intrinsic::amdgcn_wave_reduce_max:
    Op = ReduceOp::SMax;
    break;
  case Intrinsic::amdgcn_wave_reduce_add:
  case Intrinsic::amdgcn_wave_reduce_fadd:
    Op = ReduceOp::Add;
    break;
  case Intrinsic::amdgcn_wave_reduce_sub:
  case Intrinsic::amdgcn_wave_reduce_fsub:
    Op = ReduceOp::Add;
    Negate = true;
    break;
  case Intrinsic::amdgcn_wave_reduce_and:
    Op = ReduceOp::And;
    break;
  case Intrinsic::amdgcn_wave_reduce_or:
    Op = ReduceOp::Or;
    break;
  case Intrinsic::amdgcn_wave_reduce_xor:
    Op = ReduceOp::Xor;
    break;
  case Intrinsic::amdgcn_wave_reduce_fmin:
    Op = ReduceOp::FMin;
    break;
  case Intrinsic::amdgcn_wave_reduce_fmax:
    Op = ReduceOp::FMax;
    break;
  default:
    return;
  }
  Type *Ty = II->getType();
  std::optional<ElemType> ET;
  if (Ty->isIntegerTy(16))
    ET = ElemType::I16;
  else if (Ty->isIntegerTy(32))
    ET = ElemType::I32;
  else if (Ty->isIntegerTy(64))
    ET = ElemType::I64;
  else if (Ty->isHalfTy())
    ET = ElemType::F16;
  else if (Ty->isBFloatTy())
    ET = ElemType::BF16;
  else if (Ty->isFloatTy())
    ET = ElemType::F32;
  else if (Ty->isDoubleTy())
    ET = ElemType::F64;
  if (!ET || !isLegal(*Op, *ET))
    return; // Leave it to LLVM (which diagnoses what it cannot select).
  IRBuilder<> B(II);
  Value *V = II->getArgOperand(0);
  if (Negate)
    V = Ty->isFloatingPointTy() ? B.CreateFNeg(V)
                                : B.CreateSub(ConstantInt::get(Ty, 0), V);
  bool WWM = needsWWM(II, Chip.WaveSize);
  Value *R = buildReduce(B, V, *Op, *ET, Chip.WaveSize, 1, WWM);
  ++NumWaveReduce;
  remarkExpanded(II,
                 (Twine(II->getCalledFunction()->getName()) + " (wave.reduce " +
                  getName(*Op) + " " + getName(*ET) + ")")
                     .str());
  II->replaceAllUsesWith(R);
  II->eraseFromParent();
}

/// Inlines the comparators' straight-line copies into the whole-wave code
/// and erases the copies.
void SubgroupExpander::inlineComparators() {
  for (CallInst *CI : ComparatorCalls) {
    InlineFunctionInfo IFI;
    (void)InlineFunction(*CI, IFI);
  }
  ComparatorCalls.clear();
  for (Function *Pure : make_second_range(PureComparators))
    if (Pure->use_empty()) {
      FAM.clear(*Pure, Pure->getName());
      Pure->eraseFromParent();
    }
  PureComparators.clear();
}

bool SubgroupExpander::run() {
  SmallVector<CallInst *, 16> Calls;
  for (Instruction &I : instructions(F)) {
    // An operation used other than as a direct callee (through a function
    // pointer) cannot be expanded: an error here rather than an undefined
    // symbol at link time.
    for (const Use &U : I.operands()) {
      // A function is a constant (or behind a constant cast).
      if (!isa<Constant>(U.get()))
        continue;
      auto *Fn = dyn_cast<Function>(U.get()->stripPointerCasts());
      auto *CB = dyn_cast<CallBase>(&I);
      if (Fn && Fn->isDeclaration() && Fn->getName().starts_with(Prefix) &&
          !(CB && CB->isCallee(&U))) {
        ++NumErrors;
        std::string Text =
            ("crosslane: '" + Fn->getName() +
             "' is used other than in a direct call (e.g. through a function "
             "pointer); only direct calls are expanded")
                .str();
        Ctx.diagnose(DiagnosticInfoUnsupported(F, Text, userDebugLoc(&I)));
      }
    }
    auto *CI = dyn_cast<CallInst>(&I);
    Function *Callee = CI ? calledDeclaration(CI) : nullptr;
    if (!Callee)
      continue;
    StringRef Name = Callee->getName();
    if (Name.starts_with(Prefix) && Callee->isDeclaration())
      Calls.push_back(CI);
    else if (Opts.WaveReduce && isa<IntrinsicInst>(CI) &&
             Name.starts_with("llvm.amdgcn.wave.reduce."))
      Calls.push_back(CI);
  }
  if (Calls.empty())
    return false;
  CROSSLANE_DEBUG({
    dbgs() << "crosslane-expand-subgroup: function '" << F.getName() << "' on ";
    Chip.print(dbgs());
    dbgs() << "\n";
  });
  for (CallInst *CI : Calls) {
    Seq.clear();
    VortexMask = VortexLane = VortexNT = nullptr;
    UsedFallback = false;
    NoNaNs = (isa<FPMathOperator>(CI) && CI->hasNoNaNs()) ||
             F.getFnAttribute("no-nans-fp-math").getValueAsBool();
    CROSSLANE_DEBUG(dbgs() << " " << *CI << "\n");
    if (auto *II = dyn_cast<IntrinsicInst>(CI)) {
      expandWaveReduce(II);
      continue;
    }
    StringRef Name = calledDeclaration(CI)->getName();
    std::optional<OpName> N = parseOpName(Name);
    if (!N) {
      diagnose(CI, Twine("crosslane: unknown subgroup operation '") + Name +
                       "' (see docs/SubgroupOps.md for the name scheme)");
      continue;
    }
    if (N->IsArg)
      expandArg(returnDirectly(CI), *N);
    else
      expandReduce(CI, *N);
  }
  inlineComparators();
  return true;
}

} // namespace expand

using expand::calledDeclaration;
using expand::SubgroupExpander;

/// An operation whose address is taken outside any function (a `__device__`
/// table of function pointers) can never be expanded and would be an
/// undefined symbol at link time: an error, reported once per module (when
/// the pass runs on the module's first definition).
static void diagnoseGlobalReferences(Function &F) {
  Module &M = *F.getParent();
  auto FirstDef = find_if(M, [](Function &G) { return !G.isDeclaration(); });
  if (&*FirstDef != &F)
    return;
  for (Function &Op : M) {
    if (!Op.isDeclaration() || !Op.getName().starts_with(subgroup::Prefix))
      continue;
    SmallPtrSet<const GlobalVariable *, 4> Seen;
    SmallVector<const User *, 8> Work(Op.users());
    while (!Work.empty()) {
      const User *U = Work.pop_back_val();
      if (auto *GV = dyn_cast<GlobalVariable>(U)) {
        if (!Seen.insert(GV).second)
          continue;
        F.getContext().diagnose(DiagnosticInfoGeneric(
            Twine("crosslane: '") + Op.getName() +
                "' is referenced by the "
                "global '" +
                GV->getName() +
                "'; only direct calls are expanded (no function pointers to "
                "Crosslane operations)",
            DS_Error));
      } else if (isa<Constant>(U)) {
        Work.append(U->user_begin(), U->user_end());
      }
    }
  }
}

/// The facts the expansion reads for a Vortex function: its warp size when
/// known (the largest a configuration has otherwise), and no AMDGPU
/// instruction.
/// Intel Xe: the kernel's required subgroup size (16 or 32), if it has
/// one.
static std::optional<ChipInfo> xeChip(const Function &F) {
  MDNode *MD = F.getMetadata("intel_reqd_sub_group_size");
  auto *C = MD && MD->getNumOperands() == 1
                ? mdconst::dyn_extract<ConstantInt>(MD->getOperand(0))
                : nullptr;
  if (!C || (C->getZExtValue() != 16 && C->getZExtValue() != 32))
    return std::nullopt;
  ChipInfo Chip;
  Chip.CPU = "xe";
  Chip.WaveSize = C->getZExtValue();
  return Chip;
}

static ChipInfo vortexChip(const Function &F) {
  ChipInfo C;
  C.CPU = "vortex";
  unsigned Known = vortex::knownWarpSize(F);
  C.WaveSize = Known ? Known : VortexMaxWarpSize;
  return C;
}

PreservedAnalyses ExpandSubgroupPass::run(Function &F,
                                          FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !F.getParent())
    return PreservedAnalyses::all();
  bool Vortex = vortex::isVortexFunction(F), Xe = expand::isXeFunction(F);
  if (!Vortex && !Xe && !isAMDGPUModule(*F.getParent()))
    return PreservedAnalyses::all();
  noteStatisticsCounted();
  diagnoseGlobalReferences(F);
  std::optional<ChipInfo> Chip = Vortex ? vortexChip(F)
                                 : Xe   ? xeChip(F)
                                        : ChipInfo::get(F);
  if (!Chip) {
    // No target-cpu (Xe: no required subgroup size): the generic facts
    // would be a guess. Diagnose the calls that need them and leave the
    // rest alone.
    bool Any = false;
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = calledDeclaration(CI))
          if (Callee->isDeclaration() &&
              Callee->getName().starts_with(subgroup::Prefix)) {
            Any = true;
            Twine Msg =
                Xe ? "crosslane: cannot expand a subgroup operation in a "
                     "function without intel_reqd_sub_group_size(16 or 32)"
                   : "crosslane: cannot expand a subgroup operation in a "
                     "function without a \"target-cpu\" attribute";
            F.getContext().diagnose(
                DiagnosticInfoUnsupported(F, Msg, userDebugLoc(CI)));
            if (!CI->getType()->isVoidTy())
              CI->replaceAllUsesWith(PoisonValue::get(CI->getType()));
            CI->eraseFromParent();
          }
    return Any ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  SubgroupExpander Impl(F, *Chip, ORE, Opts, FAM, Decls);
  if (!Impl.run())
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

void ExpandSubgroupPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << MapClassName2PassName(name());
  SmallVector<StringRef, 2> Params;
  if (Opts.AssumeFullWave)
    Params.push_back("no-wwm");
  if (!Opts.WaveReduce)
    Params.push_back("no-wave-reduce");
  if (!Params.empty())
    OS << '<' << join(Params, ";") << '>';
}

Expected<ExpandSubgroupOptions> parseExpandSubgroupOptions(StringRef Params) {
  ExpandSubgroupOptions Opts;
  while (!Params.empty()) {
    StringRef P;
    std::tie(P, Params) = Params.split(';');
    if (P == "no-wwm")
      Opts.AssumeFullWave = true;
    else if (P == "wwm")
      Opts.AssumeFullWave = false;
    else if (P == "no-wave-reduce")
      Opts.WaveReduce = false;
    else if (P == "wave-reduce")
      Opts.WaveReduce = true;
    else
      return make_error<StringError>(
          formatv("invalid crosslane-expand-subgroup parameter '{0}' "
                  "(expected no-wwm, wwm, no-wave-reduce or wave-reduce)",
                  P)
              .str(),
          inconvertibleErrorCode());
  }
  return Opts;
}

} // namespace crosslane
