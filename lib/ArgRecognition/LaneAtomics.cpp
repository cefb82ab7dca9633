//===- LaneAtomics.cpp - One atomic per wave for per-lane atomics ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LaneAtomics.h"

#include "crosslane/SubgroupReduce/SubgroupOps.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "crosslane-recognize-arg"

using namespace llvm;

CROSSLANE_STATISTIC(NumAtomicsCombined,
                    "Number of per-lane atomics combined into one per wave");

namespace crosslane {
namespace argrec {
using namespace subgroup;
namespace {

/// The Crosslane reduction that combines the lanes' values of \p Op.
std::optional<ReduceOp> reductionOf(AtomicRMWInst::BinOp Op) {
  switch (Op) {
  case AtomicRMWInst::Add:
    return ReduceOp::Add;
  case AtomicRMWInst::And:
    return ReduceOp::And;
  case AtomicRMWInst::Or:
    return ReduceOp::Or;
  case AtomicRMWInst::Xor:
    return ReduceOp::Xor;
  case AtomicRMWInst::Min:
    return ReduceOp::SMin;
  case AtomicRMWInst::Max:
    return ReduceOp::SMax;
  case AtomicRMWInst::UMin:
    return ReduceOp::UMin;
  case AtomicRMWInst::UMax:
    return ReduceOp::UMax;
  default:
    return std::nullopt; // sub (not associative as written), xchg, nand, FP
  }
}

/// The reduction of \p I, if it is an atomic this file looks at: an i32 or
/// i64 `atomicrmw` whose operation lanes can combine.
std::optional<ReduceOp> laneAtomicOp(const Instruction &I) {
  auto *RMW = dyn_cast<AtomicRMWInst>(&I);
  if (!RMW ||
      !(RMW->getType()->isIntegerTy(32) || RMW->getType()->isIntegerTy(64)))
    return std::nullopt;
  return reductionOf(RMW->getOperation());
}

/// Why \p RMW cannot be combined, or empty.
std::string whyNot(AtomicRMWInst *RMW, const UniformityInfo &UI) {
  if (RMW->isVolatile())
    return "the atomic is volatile";
  if (!RMW->use_empty())
    return "each lane reads the value the atomic returned";
  if (!UI.isUniform(RMW->getPointerOperand()))
    return "the lanes may target different addresses";
  return "";
}

/// True for a whole-wave Crosslane operation's result, or bit manipulation
/// of such results (the recogniser rebuilds an i64 from the operation's
/// words): the same in every lane, though the uniformity analysis sees an
/// opaque call.
bool isWaveResult(Value *V, unsigned WaveSize, unsigned Depth = 0) {
  if (isa<Constant>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return false;
  if (auto *Call = dyn_cast<CallInst>(I)) {
    // reduce_*(x, cluster, stride); argmax/argmin_*(v, i, cluster, ...).
    Function *Callee = Call->getCalledFunction();
    std::optional<OpName> N =
        Callee ? parseOpName(Callee->getName()) : std::nullopt;
    if (!N || (N->IsArg && N->Kind == ArgKind::Custom))
      return false;
    unsigned ClusterArg = N->IsArg ? 2 : 1;
    auto *Cluster = ClusterArg < Call->arg_size()
                        ? dyn_cast<ConstantInt>(Call->getArgOperand(ClusterArg))
                        : nullptr;
    return Cluster && Cluster->getZExtValue() == WaveSize;
  }
  if (!isa<CastInst>(I) && !isa<ExtractValueInst>(I) && !isa<BinaryOperator>(I))
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return isWaveResult(Op, WaveSize, Depth + 1);
  });
}

/// True in the first active lane (mbcnt of the active mask is 0).
Value *firstActiveLane(IRBuilder<> &B, unsigned WaveSize) {
  Type *MaskTy = B.getIntNTy(WaveSize);
  Value *Active =
      B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {MaskTy}, {B.getTrue()});
  Value *Lo = B.CreateTrunc(Active, B.getInt32Ty());
  Value *Below =
      B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {}, {Lo, B.getInt32(0)});
  if (WaveSize == 64)
    Below = B.CreateIntrinsic(
        Intrinsic::amdgcn_mbcnt_hi, {},
        {B.CreateTrunc(B.CreateLShr(Active, 32), B.getInt32Ty()), Below});
  return B.CreateICmpEQ(Below, B.getInt32(0), "crosslane.first");
}

/// The Crosslane reduction that combines \p RMW's values.
OpName reductionName(const AtomicRMWInst &RMW, ReduceOp Op) {
  OpName N;
  N.Op = Op;
  N.Ty = RMW.getType()->isIntegerTy(64) ? ElemType::I64 : ElemType::I32;
  return N;
}

void combine(AtomicRMWInst *RMW, ReduceOp Op, const ChipInfo &Chip) {
  Module &M = *RMW->getModule();
  Value *V = RMW->getValOperand();
  IRBuilder<> B(RMW);
  FunctionCallee Fn =
      M.getOrInsertFunction(reductionName(*RMW, Op).str(), V->getType(),
                            V->getType(), B.getInt32Ty(), B.getInt32Ty());
  CallInst *R = B.CreateCall(Fn, {V, B.getInt32(Chip.WaveSize), B.getInt32(1)});
  R->setDebugLoc(RMW->getDebugLoc());
  Instruction *Then =
      SplitBlockAndInsertIfThen(firstActiveLane(B, Chip.WaveSize), RMW,
                                /*Unreachable=*/false);
  RMW->moveBefore(Then->getIterator());
  RMW->getOperandUse(1).set(R); // the value operand
}

} // namespace

bool hasLaneAtomics(Function &F) {
  return any_of(instructions(F), [](const Instruction &I) {
    return laneAtomicOp(I).has_value();
  });
}

bool combineLaneAtomics(Function &F, const ChipInfo &Chip,
                        const UniformityInfo &UI,
                        OptimizationRemarkEmitter &ORE) {
  SmallVector<std::pair<AtomicRMWInst *, ReduceOp>, 4> Atomics;
  for (Instruction &I : instructions(F))
    if (std::optional<ReduceOp> Op = laneAtomicOp(I))
      Atomics.push_back({cast<AtomicRMWInst>(&I), *Op});

  bool Changed = false;
  for (auto &Entry : Atomics) {
    AtomicRMWInst *RMW = Entry.first; // (lambdas below capture these)
    ReduceOp Op = Entry.second;
    // A uniform value (a reduction's result, a constant) gains nothing; LLVM's
    // atomic optimizer already issues it once.
    if (UI.isUniform(RMW->getValOperand()) ||
        isWaveResult(RMW->getValOperand(), Chip.WaveSize))
      continue;
    std::string Why = whyNot(RMW, UI);
    StringRef OpName = AtomicRMWInst::getOperationName(RMW->getOperation());
    unsigned Bits = RMW->getType()->getIntegerBitWidth();
    CROSSLANE_DEBUG(
        dbgs() << "crosslane-recognize-arg: per-lane atomic " << *RMW << ": "
               << (Why.empty() ? "combined" : "kept, " + Why) << "\n");
    if (!Why.empty()) {
      ORE.emit([&]() {
        return OptimizationRemarkMissed(DEBUG_TYPE, "LaneAtomic",
                                        userDebugLoc(RMW), RMW->getParent())
               << "per-lane atomic " << OpName << " i" << std::to_string(Bits)
               << " not combined across the wave: " << Why;
      });
      continue;
    }
    DebugLoc Loc = userDebugLoc(RMW);
    BasicBlock *BB = RMW->getParent();
    combine(RMW, Op, Chip);
    ++NumAtomicsCombined;
    Changed = true;
    ORE.emit([&]() {
      return OptimizationRemark(DEBUG_TYPE, "LaneAtomic", Loc, BB)
             << "per-lane atomic " << OpName << " i" << std::to_string(Bits)
             << " to one address combined across the wave: "
             << reductionName(*RMW, Op).str()
             << " over the active lanes, then one "
             << "atomic from the first active lane (its result was unused)";
    });
  }
  return Changed;
}

} // namespace argrec
} // namespace crosslane
