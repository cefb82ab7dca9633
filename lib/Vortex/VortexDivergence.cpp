//===- VortexDivergence.cpp - Divergence-safe control flow on Vortex ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DESCRIPTION: see include/crosslane/Vortex/VortexDivergence.h.
/// USAGE:
///   opt-22 -load-pass-plugin=build/lib/CrosslanePlugin.so \
///     -passes=crosslane-vortex-divergence -S k.ll
/// Inside clang (-fpass-plugin) and llc (-load) it runs after CodeGenPrepare,
/// just before instruction selection, on every function with +xvortex.
///
//===----------------------------------------------------------------------===//

#include "crosslane/Vortex/VortexDivergence.h"

#include "LaneSerialize.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Scalar/StructurizeCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/FixIrreducible.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"
#include "llvm/Transforms/Utils/UnifyFunctionExitNodes.h"
#include "llvm/Transforms/Utils/UnifyLoopExits.h"

using namespace llvm;

#define DEBUG_TYPE "crosslane-vortex-divergence"

STATISTIC(NumSplits, "Divergent branches bracketed by vx_split/vx_join");
STATISTIC(NumPreds, "Divergent loop exits guarded by vx_pred");
STATISTIC(NumSelects, "Divergent selects and min/max made branch-free");
STATISTIC(NumOneLane, "Instructions run one lane at a time");
STATISTIC(NumUnsafe, "Divergent branches left as they are (diagnosed)");

static cl::opt<bool> SplitJoin(
    "crosslane-vortex-split-join",
    cl::desc("Make divergent control flow safe on Vortex (vx_split/vx_join/"
             "vx_pred, branch-free selects, one-lane library code); off "
             "shows what the hardware does without it"),
    cl::init(true));

namespace crosslane {
namespace {

/// The analyses the transformation reads, recomputed after CFG changes.
struct Analyses {
  DominatorTree DT;
  PostDominatorTree PDT;
  LoopInfo LI;
  explicit Analyses(Function &F) : DT(F), PDT(F), LI(DT) {}
};

/// select c, a, b on a divergent c as b ^ ((a ^ b) & sext(c)): the RISC-V
/// back end lowers FP selects (and integer ones without Zicond) to branches.
Value *branchFreeSelect(IRBuilderBase &B, Value *C, Value *T, Value *F) {
  const DataLayout &DL = B.GetInsertBlock()->getDataLayout();
  Type *Ty = T->getType();
  Type *IntTy = B.getIntNTy(DL.getTypeSizeInBits(Ty).getFixedValue());
  auto ToInt = [&](Value *V) -> Value * {
    if (Ty->isPointerTy())
      return B.CreatePtrToInt(V, IntTy);
    return B.CreateBitCast(V, IntTy);
  };
  // Frozen: a select yields a defined value when its other arm is poison
  // (e.g. an `exact` shift of a value the branch excluded); the
  // arithmetic would carry the poison.
  Value *A = ToInt(B.CreateFreeze(T)), *Bv = ToInt(B.CreateFreeze(F));
  Value *Mask = B.CreateSExt(C, IntTy);
  Value *R = B.CreateXor(Bv, B.CreateAnd(B.CreateXor(A, Bv), Mask));
  if (Ty->isPointerTy())
    return B.CreateIntToPtr(R, Ty);
  return B.CreateBitCast(R, Ty);
}

bool hasFeature(const Function &F, StringRef Feature) {
  return F.getFnAttribute("target-features")
      .getValueAsString()
      .contains(Feature);
}

/// Replaces divergent selects and integer min/max (without Zbb) by
/// branch-free arithmetic.
unsigned lowerDivergentSelects(Function &F, const VortexDivergenceInfo &DI) {
  bool Zbb = hasFeature(F, "+zbb");
  SmallVector<Instruction *, 16> Todo;
  for (Instruction &I : instructions(F)) {
    if (auto *S = dyn_cast<SelectInst>(&I)) {
      if (DI.isDivergent(S->getCondition()) && !S->getType()->isVectorTy() &&
          !S->getCondition()->getType()->isVectorTy())
        Todo.push_back(S);
    } else if (auto *MM = dyn_cast<MinMaxIntrinsic>(&I)) {
      if (!Zbb && !MM->getType()->isVectorTy() &&
          (DI.isDivergent(MM->getLHS()) || DI.isDivergent(MM->getRHS())))
        Todo.push_back(MM);
    }
  }
  for (Instruction *I : Todo) {
    IRBuilder<> B(I);
    Value *R;
    if (auto *S = dyn_cast<SelectInst>(I)) {
      R = branchFreeSelect(B, S->getCondition(), S->getTrueValue(),
                           S->getFalseValue());
    } else {
      auto *MM = cast<MinMaxIntrinsic>(I);
      Value *C = B.CreateICmp(MM->getPredicate(), MM->getLHS(), MM->getRHS());
      R = branchFreeSelect(B, C, MM->getLHS(), MM->getRHS());
    }
    R->takeName(I);
    I->replaceAllUsesWith(R);
    I->eraseFromParent();
  }
  NumSelects += Todo.size();
  return Todo.size();
}

/// Runs LLVM's CFG normalisations in the order AMDGPU uses them: one exit,
/// reducible loops with one exit block each, structured regions.
void structurize(Function &F) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  FPM.addPass(UnifyFunctionExitNodesPass());
  FPM.addPass(FixIrreduciblePass());
  FPM.addPass(UnifyLoopExitsPass());
  FPM.addPass(StructurizeCFGPass());
  FPM.run(F, FAM);
}

void lowerSwitches(Function &F) {
  if (none_of(F, [](const BasicBlock &BB) {
        return isa<SwitchInst>(BB.getTerminator());
      }))
    return;
  FunctionAnalysisManager FAM;
  PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);
  LowerSwitchPass().run(F, FAM);
}

/// vx_pred(stay, mask at loop entry) before a divergent loop exit: lanes
/// that leave wait, masked off, until every lane has left.
void guardLoopExit(BranchInst &Br, Loop &L, Analyses &A) {
  BasicBlock *Pre = L.getLoopPreheader();
  if (!Pre)
    Pre = InsertPreheaderForLoop(&L, &A.DT, &A.LI, nullptr, false);
  IRBuilder<> B(Pre->getTerminator());
  Value *Mask = vortex::emitThreadMask(B);
  B.SetInsertPoint(&Br);
  Value *Stay = Br.getCondition();
  if (!L.contains(Br.getSuccessor(0)))
    Stay = B.CreateNot(Stay);
  vortex::emitPred(B, Stay, Mask);
  ++NumPreds;
}

/// vx_split before \p Br, vx_join in a new block in front of \p Join that
/// every path from \p Br reaches.
void bracketBranch(BranchInst &Br, BasicBlock *Join, Analyses &A) {
  IRBuilder<> B(&Br);
  Value *Token = vortex::emitSplit(B, Br.getCondition());
  SmallVector<BasicBlock *, 4> Preds;
  for (BasicBlock *P : predecessors(Join))
    if (A.DT.dominates(Br.getParent(), P))
      Preds.push_back(P);
  BasicBlock *J = SplitBlockPredecessors(Join, Preds, ".vx.join", &A.DT, &A.LI,
                                         nullptr, false);
  B.SetInsertPoint(J->getTerminator());
  vortex::emitJoin(B, Token);
  ++NumSplits;
}

void diagnoseError(Function &F, const Instruction &At, const Twine &Msg) {
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F, Msg, vortex::userLocation(At.getDebugLoc()), DS_Error));
}

void diagnose(Function &F, const Instruction &At, const Twine &Msg) {
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F, Msg, vortex::userLocation(At.getDebugLoc()), DS_Warning));
}

/// The divergent branches in an order where inner regions come first.
SmallVector<BranchInst *, 16> divergentBranches(Function &F,
                                                const VortexDivergenceInfo &DI,
                                                const DominatorTree &DT) {
  SmallVector<BranchInst *, 16> Out;
  for (BasicBlock &BB : F)
    if (auto *Br = dyn_cast<BranchInst>(BB.getTerminator()))
      if (DI.isDivergentBranch(*Br))
        Out.push_back(Br);
  stable_sort(Out, [&](BranchInst *X, BranchInst *Y) {
    return DT.getNode(X->getParent())->getLevel() >
           DT.getNode(Y->getParent())->getLevel();
  });
  return Out;
}

/// Where \p Br's lanes meet again, or nullptr if that is not inside the
/// loop that holds \p Br (a branch that leaves its loop is a loop exit).
BasicBlock *joinBlock(BranchInst &Br, Analyses &A) {
  BasicBlock *Join =
      const_cast<BasicBlock *>(immediatePostDominator(Br.getParent(), A.PDT));
  if (!Join)
    return nullptr;
  Loop *L = A.LI.getLoopFor(Br.getParent());
  if (L && !L->contains(Join))
    return nullptr;
  return Join;
}

/// Blocks between a divergent branch and its join, and loops with a
/// divergent exit: a barrier there is reached by each lane group apart.
void checkBarriers(Function &F, ArrayRef<BranchInst *> Branches, Analyses &A) {
  SmallVector<std::pair<BranchInst *, SmallPtrSet<const BasicBlock *, 16>>, 8>
      Regions;
  for (BranchInst *Br : Branches) {
    Regions.emplace_back(Br, SmallPtrSet<const BasicBlock *, 16>());
    divergentRegion(Br->getParent(), A.PDT, Regions.back().second);
    Loop *L = A.LI.getLoopFor(Br->getParent());
    if (L && any_of(successors(Br->getParent()),
                    [&](BasicBlock *S) { return !L->contains(S); }))
      Regions.back().second.insert(L->block_begin(), L->block_end());
  }
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    auto Info = CB ? vortex::decodeAsm(*CB) : std::nullopt;
    if (!Info || Info->Kind != vortex::AsmKind::Barrier)
      continue;
    for (auto &[Br, Region] : Regions) {
      if (!Region.contains(I.getParent()))
        continue;
      std::string Where;
      if (DebugLoc DL = Br->getDebugLoc())
        Where =
            " (the condition is at line " + std::to_string(DL.getLine()) + ")";
      diagnose(F, I,
               "barrier in divergent control flow: on Vortex each group of "
               "lanes that takes a different path arrives at it separately, "
               "so the block hangs or desynchronizes unless all its threads "
               "take the same path" +
                   Where);
      break;
    }
  }
}

/// Where a remark about \p Br points: its own location, or (for a branch
/// StructurizeCFG made) the nearest located instruction before it in its
/// block or at the start of a successor; always a line of the user's code.
DebugLoc branchLocation(const BranchInst &Br) {
  if (Br.getDebugLoc())
    return vortex::userLocation(Br.getDebugLoc());
  for (const Instruction &I : reverse(*Br.getParent()))
    if (I.getDebugLoc())
      return vortex::userLocation(I.getDebugLoc());
  for (const BasicBlock *S : successors(&Br))
    for (const Instruction &I : *S)
      if (I.getDebugLoc())
        return vortex::userLocation(I.getDebugLoc());
  return DebugLoc();
}

/// Makes every divergent branch of the structurized \p F safe.
bool insertWarpControl(Function &F, OptimizationRemarkEmitter &ORE) {
  Analyses A(F);
  VortexDivergenceInfo DI(F, A.DT, A.PDT, A.LI);
  SmallVector<BranchInst *, 16> Branches = divergentBranches(F, DI, A.DT);
  checkBarriers(F, Branches, A);
  // Decide every branch on the unmodified CFG; splitting blocks keeps the
  // post-dominator relation between the original blocks.
  SmallVector<std::pair<BranchInst *, BasicBlock *>, 16> Plan;
  for (BranchInst *Br : Branches)
    Plan.push_back({Br, joinBlock(*Br, A)});
  for (auto [Br, Join] : Plan) {
    Loop *L = A.LI.getLoopFor(Br->getParent());
    bool Exits = L && any_of(successors(Br->getParent()),
                             [&](BasicBlock *S) { return !L->contains(S); });
    if (Exits) {
      guardLoopExit(*Br, *L, A);
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "LoopExitPred",
                                  branchLocation(*Br), Br->getParent())
               << "divergent loop exit: vx_pred keeps lanes that leave "
                  "waiting until all have left";
      });
      continue;
    }
    if (!Join) {
      ++NumUnsafe;
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NoJoin",
                                        branchLocation(*Br), Br->getParent())
               << "divergent branch towards code that never returns (a "
                  "trap): left without split/join, the warp follows its "
                  "last active lane there";
      });
      continue;
    }
    bracketBranch(*Br, Join, A);
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "SplitJoin", branchLocation(*Br),
                                Br->getParent())
             << "divergent branch bracketed by vx_split/vx_join";
    });
  }
  return !Plan.empty();
}

/// Arguments of a non-kernel function that the analysis found uniform (the
/// programmer's __UNIFORM__) as an attribute the machine check reads.
void recordUniformArguments(Function &F, const VortexDivergenceInfo &DI) {
  if (isVortexKernel(F))
    return;
  std::string List;
  for (const Argument &A : F.args())
    if (!DI.isDivergent(&A))
      List += (List.empty() ? "" : ",") + std::to_string(A.getArgNo());
  if (!List.empty())
    F.addFnAttr("crosslane-vortex-uniform-args", List);
}

/// True if \p Ptr is in the CTA's local memory (its base is CSR 0xCDF).
bool isLocalMemory(const Value *Ptr, unsigned Depth = 0) {
  const Value *Base = getUnderlyingObject(Ptr);
  // -O0 keeps pointers in stack slots: follow what was stored there.
  if (const auto *L = dyn_cast<LoadInst>(Base))
    if (const auto *Slot = dyn_cast<AllocaInst>(L->getPointerOperand());
        Slot && Depth < 4)
      return any_of(Slot->users(), [&](const User *U) {
        const auto *St = dyn_cast<StoreInst>(U);
        return St && St->getPointerOperand() == Slot &&
               isLocalMemory(St->getValueOperand(), Depth + 1);
      });
  if (const auto *I2P = dyn_cast<IntToPtrInst>(Base))
    if (const auto *CB = dyn_cast<CallBase>(I2P->getOperand(0)))
      if (auto Info = vortex::decodeAsm(*CB))
        return Info->Kind == vortex::AsmKind::CSRRead &&
               Info->Csr == vortex::CSRCtaLocalMem;
  return false;
}

/// simx has no atomics on local memory (sim/simx/mem/local_mem_switch.cpp
/// asserts; a release build drops the request and the warp waits forever).
void checkLocalAtomics(Function &F) {
  for (Instruction &I : instructions(F)) {
    const Value *Ptr = nullptr;
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      Ptr = RMW->getPointerOperand();
    else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
      Ptr = CX->getPointerOperand();
    if (Ptr && isLocalMemory(Ptr))
      diagnoseError(F, I,
                    "atomic operation on __shared__ memory: Vortex's simulator "
                    "has no atomics on local memory (the warp would wait "
                    "forever); use a global-memory address");
  }
}

} // namespace

bool makeVortexDivergenceSafe(Function &F) {
  if (F.isDeclaration() || !vortex::isVortexFunction(F))
    return false;
  checkLocalAtomics(F);
  if (!SplitJoin)
    return false;
  OptimizationRemarkEmitter ORE(&F);
  lowerSwitches(F);
  bool Changed = false;
  {
    Analyses A(F);
    VortexDivergenceInfo DI(F, A.DT, A.PDT, A.LI);
    recordUniformArguments(F, DI);
    Changed |= lowerDivergentSelects(F, DI) != 0;
  }
  {
    // Afresh: the branch-free selects are new values the first analysis
    // never saw (a soft-float compare of one would look uniform and run
    // with every lane at once, through libgcc's branches).
    Analyses A(F);
    VortexDivergenceInfo DI(F, A.DT, A.PDT, A.LI);
    unsigned N = serializeLanes(
        F, [&](const Value *V) { return DI.isDivergent(V); }, ORE);
    NumOneLane += N;
    Changed |= N != 0;
    if (!DI.hasDivergentBranch() && N == 0)
      return Changed;
  }
  structurize(F);
  // Structurization introduces flow phis and branches; selects it creates
  // on divergent values are lowered too.
  {
    Analyses A(F);
    VortexDivergenceInfo DI(F, A.DT, A.PDT, A.LI);
    lowerDivergentSelects(F, DI);
  }
  insertWarpControl(F, ORE);
  return true;
}

PreservedAnalyses VortexDivergencePass::run(Function &F,
                                            FunctionAnalysisManager &) {
  return makeVortexDivergenceSafe(F) ? PreservedAnalyses::none()
                                     : PreservedAnalyses::all();
}

namespace {
struct VortexDivergenceLegacy : public FunctionPass {
  static char ID;
  VortexDivergenceLegacy() : FunctionPass(ID) {}
  StringRef getPassName() const override {
    return "Crosslane Vortex divergence";
  }
  bool runOnFunction(Function &F) override {
    return makeVortexDivergenceSafe(F);
  }
};
char VortexDivergenceLegacy::ID = 0;
} // namespace

Pass *createVortexDivergenceLegacyPass() {
  return new VortexDivergenceLegacy();
}

} // namespace crosslane
