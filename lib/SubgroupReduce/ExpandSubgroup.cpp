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

#include "crosslane/SubgroupReduce/ExpandSubgroup.h"
#include "VortexLanes.h"
#include "crosslane/CodeGen/RelaxNaNGuard.h"
#include "crosslane/SubgroupReduce/SubgroupOps.h"
#include "crosslane/Support/ChipInfo.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/SourceLocation.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "crosslane-expand-subgroup"

using namespace llvm;
using namespace crosslane::subgroup;

CROSSLANE_STATISTIC(NumReduce, "Number of __crosslane_reduce_* calls expanded");
CROSSLANE_STATISTIC(NumArg, "Number of __crosslane_arg* calls expanded");
CROSSLANE_STATISTIC(NumWaveReduce,
                    "Number of llvm.amdgcn.wave.reduce.* expanded");
CROSSLANE_STATISTIC(NumPortableSteps,
                    "Number of butterfly steps served by a portable fallback");
CROSSLANE_STATISTIC(
    NumWWMSkipped, "Number of expansions proven to run with every lane active");
CROSSLANE_STATISTIC(NumErrors, "Number of malformed calls diagnosed");

namespace crosslane {

namespace {

// DPP control encodings (dpp_ctrl field). Source: LLVM's
// llvm/docs/AMDGPUModifierSyntax.rst ("DPP16 Modifiers") and the DppCtrl enum
// of llvm/lib/Target/AMDGPU/SIDefines.h; AMD "Vega ISA" / "RDNA ISA" manuals,
// section "DPP". Row = 16 lanes, bank = 4 lanes.
enum DppCtrl : unsigned {
  DppQuadPermXor1 = 0xB1, ///< quad_perm:[1,0,3,2]
  DppQuadPermXor2 = 0x4E, ///< quad_perm:[2,3,0,1]
  DppRowShl0 = 0x100,     ///< row_shl:n = 0x100 + n
  DppRowShr0 = 0x110,     ///< row_shr:n = 0x110 + n
  DppRowMirror = 0x140,   ///< lane j of a row reads 15 - j
  DppRowHalfMirror = 0x141, ///< lane j reads 8*(j/8) + 7 - j%8
  DppRowBcast15 = 0x142,  ///< GFX8/9: lane 15 of the previous row
  DppRowBcast31 = 0x143,  ///< GFX8/9: lane 31, rows 2 and 3
  DppRowXMask0 = 0x160,   ///< GFX10+: row_xmask:n reads lane j xor n
};
constexpr unsigned FullMask = 0xF;

/// How one butterfly step (partner = lane xor M) is served.
enum class StepKind {
  Dpp,            ///< one DPP move (fusable into v_<op>_dpp)
  DppPair,        ///< row_shl + row_shr under complementary bank masks
  PermLaneX16,    ///< v_permlanex16_b32 (GFX10+)
  PermLane64,     ///< v_permlane64_b32 (GFX11+ wave64)
  Swap16,         ///< v_permlane16_swap (GFX950)
  Swap32,         ///< v_permlane32_swap (GFX950)
  Swizzle,        ///< ds_swizzle bit mode (LDS crossbar, every chip)
  BPermute,       ///< ds_bpermute (GFX8/9 wave-wide)
  ReadlanePair,   ///< readlane 0 / readlane 32: uniform halves
  ReadlaneGather, ///< readlane per residue + select (no cross-half insn)
  VortexBfly,     ///< vx_shfl_bfly (Vortex, every lane active)
  VortexGather,   ///< vx_shfl_idx from the partner's first active lane
};

struct Step {
  StepKind Kind;
  unsigned Ctrl = 0; ///< Dpp
  const char *Name;
};

/// The value to reduce in the working domain: 16-bit types widen to 32 bits
/// (sext/zext for integers, fpext for floats); 32/64-bit types stay.
struct Domain {
  ReduceOp Op;
  ElemType Ty;
  Type *SrcTy;
  Type *WorkTy;
};

class SubgroupExpander {
public:
  SubgroupExpander(Function &F, const ChipInfo &Chip,
                   OptimizationRemarkEmitter &ORE,
                   const ExpandSubgroupOptions &Opts,
                   FunctionAnalysisManager &FAM)
      : F(F), Chip(Chip), ORE(ORE), Opts(Opts), FAM(FAM), Ctx(F.getContext()),
        IsVortex(vortex::isVortexFunction(F)),
        VortexLanes(IsVortex ? vortex::knownWarpSize(F) : 0) {}

  bool run();

private:
  Function &F;
  const ChipInfo &Chip;
  OptimizationRemarkEmitter &ORE;
  const ExpandSubgroupOptions &Opts;
  FunctionAnalysisManager &FAM;
  LLVMContext &Ctx;
  /// Vortex code: warp shuffles; VortexLanes is 0 when the warp size is
  /// only known at run time. Where the active lanes are not known to be the
  /// whole warp, the call branches (uniformly) between butterfly steps for
  /// a full warp and gather steps (VortexGather) for any other lane set.
  bool IsVortex;
  unsigned VortexLanes;
  bool VortexGather = false;
  /// The current call's thread mask, lane index and warp size; inside a
  /// gather loop, the partner subtree's first active lane and whether it
  /// has one.
  Value *VortexMask = nullptr, *VortexLane = nullptr, *VortexNT = nullptr;
  Value *GatherSrc = nullptr, *GatherAny = nullptr;
  SmallVector<CallInst *, 8> ComparatorCalls;
  /// Each user comparator's straight-line copy (purifyComparator); erased
  /// once inlined.
  DenseMap<Function *, Function *> PureComparators;
  std::string Seq; ///< description of the current expansion for remarks
  bool UsedFallback = false;
  /// The current call promises no NaN inputs (nnan call-site flag or
  /// "no-nans-fp-math"): NaN handling is skipped.
  bool NoNaNs = false;

  // Call handlers.
  void expandReduce(CallInst *CI, const OpName &N);
  void expandArg(CallInst *CI, const OpName &N);
  void expandWaveReduce(IntrinsicInst *II);
  void diagnose(CallInst *CI, const Twine &Msg);
  void remarkExpanded(CallInst *CI, StringRef What);

  // Validation.
  Type *getLLVMType(ElemType T) const;
  bool checkCluster(CallInst *CI, unsigned ArgNo, unsigned &Cluster,
                    unsigned &Stride);
  bool checkComparator(CallInst *CI, Value *V, Type *Ty, Function *&Cmp);
  Function *purifyComparator(Function *Cmp);
  void inlineComparators();
  static bool canCoerce(Type *From, Type *To);

  // Builders.
  bool needsWWM(CallInst *CI, unsigned Cluster) const;
  Value *buildLaneId(IRBuilder<> &B);
  /// Lanes per Vortex warp (read at run time when not known).
  Value *vortexNumThreads(IRBuilder<> &B);
  /// Builds the result of \p CI with \p Build: on Vortex, when the lanes
  /// may not be the whole warp, twice behind a uniform branch on the thread
  /// mask (butterfly steps for a full warp, gather steps otherwise).
  Value *buildForActiveLanes(CallInst *CI, bool Partial,
                             function_ref<Value *(IRBuilder<> &)> Build);
  /// The gather steps M = Stride, 2 Stride, ... < Cluster * Stride as a
  /// loop (one step's values live at a time): \p Body updates \p Vals
  /// (loop-carried) with GatherSrc/GatherAny set for step \p M.
  void emitGatherLoop(
      IRBuilder<> &B, unsigned Cluster, unsigned Stride,
      MutableArrayRef<Value *> Vals,
      function_ref<void(IRBuilder<> &, Value *M, MutableArrayRef<Value *>)>
          Body);
  Value *buildReduce(IRBuilder<> &B, Value *V, ReduceOp Op, ElemType Ty,
                     unsigned Cluster, unsigned Stride, bool WWM);
  Value *buildSteps(IRBuilder<> &B, Value *W, const Domain &D,
                    unsigned Cluster, unsigned Stride);
  Value *buildGFX9BcastChain(IRBuilder<> &B, Value *W, const Domain &D);
  Value *buildCombine(IRBuilder<> &B, const Domain &D, Value *A, Value *C);
  Value *toWork(IRBuilder<> &B, Value *V, const Domain &D);
  Value *fromWork(IRBuilder<> &B, Value *V, const Domain &D);
  Constant *getIdentity(const Domain &D);
  Value *restoreZeroSign(IRBuilder<> &B, Value *V, Value *Idx, Value *RV,
                         Value *RI, unsigned Cluster, unsigned Stride);
  Value *buildClusterAny(IRBuilder<> &B, Value *Cond, unsigned Cluster,
                         unsigned Stride);
  Value *buildCustomArg(IRBuilder<> &B, Value *V, Value *Idx, Function *Cmp,
                        unsigned Cluster, unsigned Stride, bool WWM,
                        Value *&OutIdx);
  Value *buildHybridArg(IRBuilder<> &B, Value *V, Value *Idx, ReduceOp Op,
                        ElemType Ty, ElemType IdxTy, NaNPolicy NaN,
                        unsigned Cluster, unsigned Stride, bool WWM,
                        Value *&OutIdx);
  Domain makeDomain(IRBuilder<> &B, ReduceOp Op, ElemType Ty) const;

  // Butterfly steps.
  Step chooseStep(unsigned M, bool Contiguous);
  /// chooseStep, plus the statistics and sequence log of the step taken.
  Step takeStep(unsigned M, bool Contiguous);
  std::pair<Value *, Value *> buildXorStep(IRBuilder<> &B, Value *V,
                                           unsigned M, unsigned Stride,
                                           const Step &S);
  std::pair<Value *, Value *> buildXorStepWord(IRBuilder<> &B, Value *W,
                                               unsigned M, unsigned Stride,
                                               const Step &S);
  Value *buildDpp(IRBuilder<> &B, Value *Old, Value *W, unsigned Ctrl,
                  unsigned RowMask, unsigned BankMask, bool BoundCtrl);
  void addSeq(StringRef S) {
    if (!Seq.empty() && !StringRef(Seq).ends_with(": "))
      Seq += ", ";
    Seq += S.str();
  }
};

Type *SubgroupExpander::getLLVMType(ElemType T) const {
  switch (T) {
  case ElemType::I16: return Type::getInt16Ty(Ctx);
  case ElemType::I32: return Type::getInt32Ty(Ctx);
  case ElemType::I64: return Type::getInt64Ty(Ctx);
  case ElemType::F16: return Type::getHalfTy(Ctx);
  case ElemType::BF16: return Type::getBFloatTy(Ctx);
  case ElemType::F32: return Type::getFloatTy(Ctx);
  case ElemType::F64: return Type::getDoubleTy(Ctx);
  }
  return nullptr;
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

void SubgroupExpander::remarkExpanded(CallInst *CI, StringRef What) {
  std::string Sequence = Seq;
  bool Fallback = UsedFallback;
  CROSSLANE_DEBUG(dbgs() << "  expanded " << What << ": " << Sequence
                         << (Fallback ? " (portable steps used)" : "") << "\n");
  ORE.emit([&] {
    OptimizationRemark R(DEBUG_TYPE, "Expanded", userDebugLoc(CI),
                         CI->getParent());
    R << "expanded " << What << " for ";
    if (IsVortex && !VortexLanes)
      R << "Vortex (warp size read at run time)";
    else if (IsVortex)
      R << "Vortex warp" << ore::NV("WaveSize", VortexLanes);
    else
      R << Chip.CPU << " wave" << ore::NV("WaveSize", Chip.WaveSize);
    return R << ": " << ore::NV("Sequence", Sequence);
  });
  if (Fallback) {
    ORE.emit([&] {
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

/// The declaration a call names. A call site whose type differs from the
/// declaration's (two modules' declarations linked together, or the
/// recogniser's call next to crosslane.h's) has no getCalledFunction() but
/// is still a direct call; its own operand and result types are what the
/// expansion checks and uses.
static Function *calledDeclaration(const CallBase *CB) {
  return dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

bool SubgroupExpander::checkCluster(CallInst *CI, unsigned ArgNo,
                                    unsigned &Cluster, unsigned &Stride) {
  auto *CC = dyn_cast<ConstantInt>(CI->getArgOperand(ArgNo));
  auto *SC = dyn_cast<ConstantInt>(CI->getArgOperand(ArgNo + 1));
  unsigned W = Chip.WaveSize;
  if (!CC || !CC->getValue().isPowerOf2() || CC->getZExtValue() > W) {
    diagnose(CI, Twine("crosslane: cluster size of '") +
                     calledDeclaration(CI)->getName() +
                     "' must be a constant power of two no larger than the "
                     "wave size (" +
                     Twine(W) + ")");
    return false;
  }
  if (!SC || !SC->getValue().isPowerOf2() ||
      SC->getZExtValue() * CC->getZExtValue() > W) {
    diagnose(CI, Twine("crosslane: cluster stride of '") +
                     calledDeclaration(CI)->getName() +
                     "' must be a constant power of two with cluster size "
                     "* stride <= the wave size (" +
                     Twine(W) + ")");
    return false;
  }
  Cluster = CC->getZExtValue();
  Stride = SC->getZExtValue();
  return true;
}

bool SubgroupExpander::canCoerce(Type *From, Type *To) {
  if (From == To)
    return true;
  unsigned FB = From->getPrimitiveSizeInBits(), TB = To->getPrimitiveSizeInBits();
  if (!FB || !TB)
    return false;
  if (FB == TB)
    return true;
  return To->isIntegerTy() && TB > FB;
}

/// Widens the bits \p I (fewer than 32) to the 32-bit word a lane move or
/// strict.wwm takes; the caller truncates the result, so the high bits are
/// free. A sign extension is one instruction (v_bfe_i32) that defines the
/// whole register. A zero extension on true16 targets (gfx11) is a register
/// built from two halves, the high one a shared v_mov 0; the coalescer then
/// joins it with the user's own zero extensions, and LLVM 22's
/// SIWholeQuadMode pulls the user's code into whole-wave mode
/// (see buildClusterAny).
static Value *widenWord(IRBuilder<> &B, Value *I) {
  return B.CreateSExt(I, B.getInt32Ty());
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
      return Fail("'" + Cmp->getName() +
                  "' may trap or have side effects (" + I.getOpcodeName() +
                  ")");
  }
  Cmp = Pure;
  return true;
}

//===----------------------------------------------------------------------===//
// Domain helpers
//===----------------------------------------------------------------------===//

static bool isFPMinMax(ReduceOp Op) { return isFloatOnly(Op); }
static bool isMaxLike(ReduceOp Op) {
  return Op == ReduceOp::FMax || Op == ReduceOp::FMaximum;
}

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

Value *SubgroupExpander::buildCombine(IRBuilder<> &B, const Domain &D,
                                      Value *A, Value *C) {
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
  case ReduceOp::SMin: return B.CreateBinaryIntrinsic(Intrinsic::smin, A, C);
  case ReduceOp::SMax: return B.CreateBinaryIntrinsic(Intrinsic::smax, A, C);
  case ReduceOp::UMin: return B.CreateBinaryIntrinsic(Intrinsic::umin, A, C);
  case ReduceOp::UMax: return B.CreateBinaryIntrinsic(Intrinsic::umax, A, C);
  case ReduceOp::And: return B.CreateAnd(A, C);
  case ReduceOp::Or: return B.CreateOr(A, C);
  case ReduceOp::Xor: return B.CreateXor(A, C);
  case ReduceOp::FMin:
  case ReduceOp::FMax:
  case ReduceOp::FMinimum:
  case ReduceOp::FMaximum: {
    // Operands are never NaN here (replaced by the identity up front), so
    // nnan is exact and lets GCNDPPCombine fuse v_max_f32_dpp. On ±0 both
    // llvm.maxnum (APFloat) and v_max_f32 order -0 < +0.
    Intrinsic::ID ID =
        isMaxLike(D.Op) ? Intrinsic::maxnum : Intrinsic::minnum;
    FastMathFlags FMF;
    FMF.setNoNaNs();
    return B.CreateBinaryIntrinsic(ID, A, C, FMF);
  }
  }
  return nullptr;
}

/// True in a lane when \p Cond holds in some active lane of its cluster.
Value *SubgroupExpander::buildClusterAny(IRBuilder<> &B, Value *Cond,
                                         unsigned Cluster, unsigned Stride) {
  // Vortex ballots are 32-bit lane masks whatever the warp size.
  unsigned W = IsVortex ? VortexMaxWarpSize : Chip.WaveSize;
  Type *MaskTy = B.getIntNTy(W);
  Value *Mask = IsVortex ? buildVortexBallot(B, Cond)
                         : B.CreateIntrinsic(Intrinsic::amdgcn_ballot,
                                             {MaskTy}, {Cond});
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
// Butterfly steps
//===----------------------------------------------------------------------===//

Step SubgroupExpander::chooseStep(unsigned M, bool Contiguous) {
  if (IsVortex)
    return VortexGather ? Step{StepKind::VortexGather, 0, "vx_shfl_idx gather"}
                        : Step{StepKind::VortexBfly, 0, "vx_shfl_bfly"};
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
    return {StepKind::DppPair, 0, M == 4 ? "row_shl:4+row_shr:4"
                                         : "row_shl:8+row_shr:8"};
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

/// Marks a lane move as Crosslane's own (ExpandedLaneMoveMD).
static Value *markExpanded(Value *Move) {
  if (auto *I = dyn_cast<Instruction>(Move))
    I->setMetadata(ExpandedLaneMoveMD, MDNode::get(I->getContext(), {}));
  return Move;
}

Value *SubgroupExpander::buildDpp(IRBuilder<> &B, Value *Old, Value *W,
                                  unsigned Ctrl, unsigned RowMask,
                                  unsigned BankMask, bool BoundCtrl) {
  return markExpanded(
      B.CreateIntrinsic(Intrinsic::amdgcn_update_dpp, {W->getType()},
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
    return {W, markExpanded(B.CreateIntrinsic(
                   Intrinsic::amdgcn_permlanex16, {I32},
                   {Poison, W, B.getInt32(AnyLane ? 0 : 0x76543210),
                    B.getInt32(AnyLane ? 0 : 0xFEDCBA98), B.getFalse(),
                    B.getFalse()}))};
  }
  case StepKind::PermLane64:
    return {W, markExpanded(B.CreateIntrinsic(Intrinsic::amdgcn_permlane64,
                                              {I32}, {W}))};
  case StepKind::Swap16:
  case StepKind::Swap32: {
    // swap(v, v): the first result holds the lower row (half) of each pair
    // in both, the second the upper one.
    Intrinsic::ID ID = S.Kind == StepKind::Swap16
                           ? Intrinsic::amdgcn_permlane16_swap
                           : Intrinsic::amdgcn_permlane32_swap;
    Value *R = B.CreateIntrinsic(ID, {}, {W, W, B.getFalse(), B.getFalse()});
    return {B.CreateExtractValue(R, 0), B.CreateExtractValue(R, 1)};
  }
  case StepKind::Swizzle: {
    // Bit mode: and_mask = 0x1F, or_mask = 0, xor_mask = M (offset[14:10]).
    unsigned Offset = (M << 10) | 0x1F;
    return {W, markExpanded(B.CreateIntrinsic(Intrinsic::amdgcn_ds_swizzle, {},
                                              {W, B.getInt32(Offset)}))};
  }
  case StepKind::BPermute: {
    Value *Addr = B.CreateShl(B.CreateXor(Chip.buildLaneId(B), M), 2);
    return {W, markExpanded(B.CreateIntrinsic(Intrinsic::amdgcn_ds_bpermute, {},
                                              {Addr, W}))};
  }
  case StepKind::ReadlanePair:
    return {B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {I32},
                              {W, B.getInt32(0)}),
            B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {I32},
                              {W, B.getInt32(32)})};
  case StepKind::VortexBfly:
    return {W, markExpanded(buildVortexBfly(B, W, M, VortexLanes))};
  case StepKind::VortexGather:
    return {W, markExpanded(buildVortexShflIdx(B, W, GatherSrc))};
  case StepKind::ReadlaneGather: {
    // After the lower steps every lane of a half with the same residue
    // mod Stride holds the same value.
    Value *Lane = Chip.buildLaneId(B);
    Value *Res = B.CreateAnd(Lane, Stride - 1);
    Value *InLow = B.CreateICmpULT(Lane, B.getInt32(32));
    Value *Partner = nullptr;
    for (unsigned R = 0; R < Stride; ++R) {
      Value *Lo = B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {I32},
                                    {W, B.getInt32(R)});
      Value *Hi = B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {I32},
                                    {W, B.getInt32(32 + R)});
      Value *P = B.CreateSelect(InLow, Hi, Lo);
      Partner = Partner ? B.CreateSelect(B.CreateICmpEQ(Res, B.getInt32(R)),
                                         P, Partner)
                        : P;
    }
    return {W, Partner};
  }
  }
  return {W, W};
}

/// Splits \p V (16, 32 or 64 bits) into 32-bit words, runs the step on each
/// and reassembles.
std::pair<Value *, Value *>
SubgroupExpander::buildXorStep(IRBuilder<> &B, Value *V, unsigned M,
                               unsigned Stride, const Step &S) {
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
    auto [A, C] = buildXorStepWord(B, B.CreateExtractElement(Vec, I), M,
                                   Stride, S);
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
          B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {B.getInt32Ty()},
                            {B.CreateExtractElement(Vec, I), B.getInt32(63)}),
          I);
    return B.CreateBitCast(Out, Ty);
  }
  return B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {Ty},
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
  if (!IsVortex)
    return Chip.buildLaneId(B);
  return VortexLane ? VortexLane : buildVortexLaneId(B);
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
    VortexLane = buildVortexLaneId(B);
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
  if (!IsVortex || !Partial)
    return Build(B);
  // The thread mask (a ballot) is the same in every active lane: the branch
  // on it is uniform and needs no split.
  VortexMask = vortex::emitThreadMask(B);
  Value *NT = VortexNT = vortexNumThreads(B);
  Value *Full = B.CreateSub(B.CreateShl(B.getInt32(1), NT), B.getInt32(1));
  if (!VortexLanes || VortexLanes >= 32)
    Full = B.CreateSelect(B.CreateICmpUGE(NT, B.getInt32(32)),
                          B.getInt32(-1), Full);
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
    W = B.CreateIntrinsic(Intrinsic::amdgcn_set_inactive, {D.WorkTy},
                          {W, getIdentity(D)});
    addSeq("set.inactive");
  }
  Value *R = buildSteps(B, W, D, Cluster, Stride);
  if (WWM) {
    R = B.CreateIntrinsic(Intrinsic::amdgcn_strict_wwm, {D.WorkTy}, {R});
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

void SubgroupExpander::expandReduce(CallInst *CI, const OpName &N) {
  Type *Ty = getLLVMType(N.Ty);
  if (CI->arg_size() != 3 || CI->getArgOperand(0)->getType() != Ty ||
      CI->getType() != Ty || !CI->getArgOperand(1)->getType()->isIntegerTy(32) ||
      !CI->getArgOperand(2)->getType()->isIntegerTy(32))
    return diagnose(CI, Twine("crosslane: '") + N.str() +
                            "' must have type " + getName(N.Ty) + " (" +
                            getName(N.Ty) + ", i32, i32)");
  unsigned Cluster, Stride;
  if (!checkCluster(CI, 1, Cluster, Stride))
    return;
  bool Partial = needsWWM(CI, Cluster);
  Value *R = buildForActiveLanes(CI, Partial, [&](IRBuilder<> &B) {
    return buildReduce(B, CI->getArgOperand(0), N.Op, N.Ty, Cluster, Stride,
                       Partial && !IsVortex);
  });
  ++NumReduce;
  remarkExpanded(CI, (Twine("reduce ") + getName(N.Op) + " " + getName(N.Ty) +
                      " cluster " + Twine(Cluster) + " stride " +
                      Twine(Stride))
                         .str());
  CI->replaceAllUsesWith(R);
  CI->eraseFromParent();
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
    Valid = B.CreateIntrinsic(Intrinsic::amdgcn_set_inactive, {B.getInt32Ty()},
                              {Valid, B.getInt32(0)});
    // Inactive lanes carry zeros (never poison, which would poison the
    // comparator result the selects depend on). set.inactive takes the
    // value at its own width: a 16-bit value widened before it is, on
    // true16 targets, a register pair of halves that the coalescer may
    // share with whole-wave code (see buildClusterAny).
    Value *VB = B.CreateIntrinsic(
        Intrinsic::amdgcn_set_inactive, {VBitsTy},
        {B.CreateBitCast(V, VBitsTy), ConstantInt::get(VBitsTy, 0)});
    V = B.CreateBitCast(VB, Ty);
    Idx = B.CreateIntrinsic(Intrinsic::amdgcn_set_inactive, {ITy},
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
    Value *Take =
        B.CreateSelect(SValid, B.CreateSelect(OValid, Pref, B.getFalse()),
                       B.getTrue());
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
    VB = B.CreateIntrinsic(Intrinsic::amdgcn_strict_wwm, {VB->getType()},
                           {VB});
    V = B.CreateBitCast(B.CreateTrunc(VB, VBitsTy), Ty);
    Idx = B.CreateIntrinsic(Intrinsic::amdgcn_strict_wwm, {ITy}, {Idx});
    addSeq("strict.wwm");
  }
  OutIdx = Idx;
  return V;
}

/// Takes \p Vals out of whole-wave mode through a single
/// llvm.amdgcn.strict.wwm on the vector of their 32-bit words: with one
/// call per value the scheduler may put the first value's copy between the
/// two, which costs an extra WWM exit and re-entry.
static void leaveWWM(IRBuilder<> &B, MutableArrayRef<Value *> Vals) {
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
  Vec = B.CreateIntrinsic(Intrinsic::amdgcn_strict_wwm, {VecTy}, {Vec});
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
    W = B.CreateIntrinsic(Intrinsic::amdgcn_set_inactive, {D.WorkTy},
                          {W, Absent});
    Idx = B.CreateIntrinsic(Intrinsic::amdgcn_set_inactive, {DI.WorkTy},
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
    leaveWWM(B, Out);
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
                                         Value *RV, Value *RI,
                                         unsigned Cluster, unsigned Stride) {
  Type *Ty = V->getType();
  Type *BitsTy = B.getIntNTy(Ty->getPrimitiveSizeInBits());
  Value *NegZero = B.CreateBitCast(ConstantFP::getNegativeZero(Ty), BitsTy);
  Value *LaneNeg = B.CreateAnd(
      B.CreateICmpEQ(B.CreateBitCast(V, BitsTy), NegZero),
      B.CreateICmpEQ(Idx, RI));
  Value *RBits = B.CreateBitCast(RV, BitsTy);
  Value *Neg =
      B.CreateAnd(B.CreateICmpEQ(RBits, ConstantInt::get(BitsTy, 0)),
                  buildClusterAny(B, LaneNeg, Cluster, Stride));
  addSeq("zero sign");
  return B.CreateBitCast(B.CreateSelect(Neg, NegZero, RBits), Ty);
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
  } else if (auto *AT = dyn_cast<ArrayType>(RT); AT && AT->getNumElements() == 2) {
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
  case Intrinsic::amdgcn_wave_reduce_umin: Op = ReduceOp::UMin; break;
  case Intrinsic::amdgcn_wave_reduce_min: Op = ReduceOp::SMin; break;
  case Intrinsic::amdgcn_wave_reduce_umax: Op = ReduceOp::UMax; break;
  case Intrinsic::amdgcn_wave_reduce_max: Op = ReduceOp::SMax; break;
  case Intrinsic::amdgcn_wave_reduce_add:
  case Intrinsic::amdgcn_wave_reduce_fadd: Op = ReduceOp::Add; break;
  case Intrinsic::amdgcn_wave_reduce_sub:
  case Intrinsic::amdgcn_wave_reduce_fsub:
    Op = ReduceOp::Add;
    Negate = true;
    break;
  case Intrinsic::amdgcn_wave_reduce_and: Op = ReduceOp::And; break;
  case Intrinsic::amdgcn_wave_reduce_or: Op = ReduceOp::Or; break;
  case Intrinsic::amdgcn_wave_reduce_xor: Op = ReduceOp::Xor; break;
  case Intrinsic::amdgcn_wave_reduce_fmin: Op = ReduceOp::FMin; break;
  case Intrinsic::amdgcn_wave_reduce_fmax: Op = ReduceOp::FMax; break;
  default: return;
  }
  Type *Ty = II->getType();
  std::optional<ElemType> ET;
  if (Ty->isIntegerTy(16)) ET = ElemType::I16;
  else if (Ty->isIntegerTy(32)) ET = ElemType::I32;
  else if (Ty->isIntegerTy(64)) ET = ElemType::I64;
  else if (Ty->isHalfTy()) ET = ElemType::F16;
  else if (Ty->isBFloatTy()) ET = ElemType::BF16;
  else if (Ty->isFloatTy()) ET = ElemType::F32;
  else if (Ty->isDoubleTy()) ET = ElemType::F64;
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
  remarkExpanded(II, (Twine(II->getCalledFunction()->getName()) +
                      " (wave.reduce " + getName(*Op) + " " + getName(*ET) +
                      ")")
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
      expandArg(CI, *N);
    else
      expandReduce(CI, *N);
  }
  inlineComparators();
  return true;
}

} // namespace

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
  bool Vortex = vortex::isVortexFunction(F);
  if (!Vortex && !isAMDGPUModule(*F.getParent()))
    return PreservedAnalyses::all();
  noteStatisticsCounted();
  diagnoseGlobalReferences(F);
  std::optional<ChipInfo> Chip = Vortex ? vortexChip(F) : ChipInfo::get(F);
  if (!Chip) {
    // No target-cpu: the generic gfx9 facts would be a guess. Diagnose the
    // calls that need a chip and leave the rest alone.
    bool Any = false;
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = calledDeclaration(CI))
          if (Callee->isDeclaration() &&
              Callee->getName().starts_with(subgroup::Prefix)) {
            Any = true;
            Twine Msg = "crosslane: cannot expand a subgroup operation in a "
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
  SubgroupExpander Impl(F, *Chip, ORE, Opts, FAM);
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
