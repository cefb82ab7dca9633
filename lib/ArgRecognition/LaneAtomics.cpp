//===- LaneAtomics.cpp - One atomic per wave for per-lane atomics ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LaneAtomics.h"

#include "crosslane/SubgroupReduce/SubgroupOps.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "crosslane-recognize-arg"

using namespace llvm;

STATISTIC(NumAtomicsCombined,
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

/// Why \p RMW cannot be combined, or empty.
std::string whyNot(AtomicRMWInst *RMW, const UniformityInfo &UI) {
  if (!reductionOf(RMW->getOperation()))
    return "";
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
    Function *Callee = Call->getCalledFunction();
    if (!Callee || !Callee->getName().starts_with(Prefix) ||
        Call->arg_size() < 3)
      return false;
    unsigned ClusterArg = Callee->getName().contains("reduce_") ? 1 : 2;
    auto *Cluster = dyn_cast<ConstantInt>(Call->getArgOperand(ClusterArg));
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

void combine(AtomicRMWInst *RMW, ReduceOp Op, const ChipInfo &Chip) {
  Module &M = *RMW->getModule();
  Value *V = RMW->getValOperand();
  IRBuilder<> B(RMW);
  std::string Name = std::string(Prefix) + "reduce_" + getName(Op) + "_" +
                     (V->getType()->isIntegerTy(64) ? "i64" : "i32");
  FunctionCallee Fn = M.getOrInsertFunction(Name, V->getType(), V->getType(),
                                            B.getInt32Ty(), B.getInt32Ty());
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
  for (Instruction &I : instructions(F))
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      if (reductionOf(RMW->getOperation()) &&
          (RMW->getType()->isIntegerTy(32) || RMW->getType()->isIntegerTy(64)))
        return true;
  return false;
}

bool combineLaneAtomics(Function &F, const ChipInfo &Chip,
                        const UniformityInfo &UI,
                        OptimizationRemarkEmitter &ORE) {
  SmallVector<AtomicRMWInst *, 4> Atomics;
  for (Instruction &I : instructions(F))
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      if (RMW->getType()->isIntegerTy(32) || RMW->getType()->isIntegerTy(64))
        Atomics.push_back(RMW);

  bool Changed = false;
  for (AtomicRMWInst *RMW : Atomics) {
    std::optional<ReduceOp> Op = reductionOf(RMW->getOperation());
    // A uniform value (a reduction's result, a constant) gains nothing; LLVM's
    // atomic optimizer already issues it once.
    if (!Op || UI.isUniform(RMW->getValOperand()) ||
        isWaveResult(RMW->getValOperand(), Chip.WaveSize))
      continue;
    std::string Why = whyNot(RMW, UI);
    StringRef OpName = AtomicRMWInst::getOperationName(RMW->getOperation());
    unsigned Bits = RMW->getType()->getIntegerBitWidth();
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
    combine(RMW, *Op, Chip);
    ++NumAtomicsCombined;
    Changed = true;
    ORE.emit([&]() {
      return OptimizationRemark(DEBUG_TYPE, "LaneAtomic", Loc, BB)
             << "per-lane atomic " << OpName << " i" << std::to_string(Bits)
             << " to one address combined across the wave: "
             << "__crosslane_reduce_" << getName(*Op) << "_i"
             << std::to_string(Bits) << " over the active lanes, then one "
             << "atomic from the first active lane (its result was unused)";
    });
  }
  return Changed;
}

} // namespace argrec
} // namespace crosslane
