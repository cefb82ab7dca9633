//===- LaneSerialize.cpp - Run an instruction one Vortex lane at a time ---===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LaneSerialize.h"

#include "crosslane/Vortex/VortexISA.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "crosslane-vortex-divergence"

namespace crosslane {

/// Intrinsics the RISC-V back end lowers without branches (rv32imf +
/// Zicond): everything else with a divergent operand runs lane by lane.
static bool isBranchFreeIntrinsic(const IntrinsicInst &II) {
  Type *Ty = II.getType();
  bool F32 = Ty->getScalarType()->isFloatTy();
  switch (II.getIntrinsicID()) {
  case Intrinsic::fabs:
  case Intrinsic::sqrt:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::copysign:
    return F32;
  case Intrinsic::memcpy:
  case Intrinsic::memmove:
  case Intrinsic::memset: {
    // Small constant sizes are expanded inline into loads and stores.
    auto *Len = dyn_cast<ConstantInt>(II.getArgOperand(2));
    return Len && Len->getZExtValue() <= 64;
  }
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax:
  case Intrinsic::abs:
  case Intrinsic::ctpop:
  case Intrinsic::ctlz:
  case Intrinsic::cttz:
  case Intrinsic::bswap:
  case Intrinsic::bitreverse:
  case Intrinsic::fshl:
  case Intrinsic::fshr:
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::usub_with_overflow:
  case Intrinsic::umul_with_overflow:
  case Intrinsic::smul_with_overflow:
  case Intrinsic::uadd_sat:
  case Intrinsic::usub_sat:
  case Intrinsic::sadd_sat:
  case Intrinsic::ssub_sat:
    return !Ty->getScalarType()->isIntegerTy(64) ||
           II.getIntrinsicID() == Intrinsic::bswap;
  default:
    return II.isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II);
  }
}

/// True if \p Ty is a floating-point type rv32imf has no instructions for.
static bool isSoftFloat(Type *Ty) {
  Type *S = Ty->getScalarType();
  return S->isFloatingPointTy() && !S->isFloatTy();
}

const char *oneLaneReason(const Instruction &I, bool &Always) {
  Always = false;
  if (isa<AtomicCmpXchgInst>(I)) {
    Always = true;
    return "a compare-and-swap is an lr/sc loop";
  }
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    bool AMO = RMW->getType()->isIntegerTy(32) &&
               !RMW->isFloatingPointOperation() &&
               RMW->getOperation() <= AtomicRMWInst::UMin &&
               RMW->getOperation() != AtomicRMWInst::Nand;
    Always = !AMO;
    return AMO ? nullptr : "this atomic is an lr/sc loop on RISC-V";
  }
  if (const auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->isInlineAsm())
      return nullptr;
    if (const auto *II = dyn_cast<IntrinsicInst>(CB))
      return isBranchFreeIntrinsic(*II) ? nullptr
                                        : "the intrinsic may lower to a "
                                          "library call or a branch";
    const Function *Callee = CB->getCalledFunction();
    if (Callee && !Callee->isDeclaration())
      return nullptr; // compiled by this pass too
    return "library code is not divergence-safe";
  }
  if (I.isTerminator() || I.getOpcode() == Instruction::FNeg ||
      isa<PHINode>(I) || isa<SelectInst>(I) || isa<LoadInst>(I) ||
      isa<StoreInst>(I) || isa<BitCastInst>(I) || isa<FreezeInst>(I) ||
      isa<ExtractValueInst>(I) || isa<InsertValueInst>(I) ||
      isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
      isa<ShuffleVectorInst>(I))
    return nullptr;
  if (isSoftFloat(I.getType()) || any_of(I.operands(), [](const Use &U) {
        return isSoftFloat(U->getType());
      }))
    return "soft-float arithmetic is library code";
  switch (I.getOpcode()) {
  case Instruction::SDiv:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::URem:
    if (I.getType()->getScalarSizeInBits() > 32)
      return "64-bit division is library code";
    break;
  case Instruction::SIToFP:
  case Instruction::UIToFP:
    if (I.getOperand(0)->getType()->getScalarSizeInBits() > 32)
      return "a 64-bit conversion is library code";
    break;
  case Instruction::FPToSI:
  case Instruction::FPToUI:
    if (I.getType()->getScalarSizeInBits() > 32)
      return "a 64-bit conversion is library code";
    break;
  default:
    break;
  }
  return nullptr;
}

/// Wraps \p I: Pre -> Head (lane == next active?) -> Do (I) -> Latch (next
/// lane) -> Head or Exit. The `lane == next` branch is divergent and is
/// made safe with split/join later; the loop branch reads only the thread
/// mask and is uniform.
static void wrapOneLane(Instruction &I) {
  BasicBlock *Pre = I.getParent();
  BasicBlock *Do = SplitBlock(Pre, &I);
  BasicBlock *Exit = SplitBlock(Do, I.getNextNode());
  LLVMContext &Ctx = I.getContext();
  Function *F = Pre->getParent();
  BasicBlock *Head = BasicBlock::Create(Ctx, "one.lane.head", F, Do);
  BasicBlock *Latch = BasicBlock::Create(Ctx, "one.lane.next", F, Exit);
  Do->setName("one.lane.do");
  I.setMetadata(vortex::OneLaneMD, MDNode::get(I.getContext(), {}));

  Pre->getTerminator()->eraseFromParent();
  IRBuilder<> B(Pre);
  Value *Mask = vortex::emitThreadMask(B);
  Value *Lane = vortex::emitCSRRead(B, vortex::CSRThreadId);
  B.CreateBr(Head);

  B.SetInsertPoint(Head);
  PHINode *M = B.CreatePHI(B.getInt32Ty(), 2, "one.lane.mask");
  PHINode *Res = nullptr;
  if (!I.getType()->isVoidTy())
    Res = B.CreatePHI(I.getType(), 2, "one.lane.acc");
  Value *Next = B.CreateBinaryIntrinsic(Intrinsic::cttz, M, B.getTrue());
  B.CreateCondBr(B.CreateICmpEQ(Lane, Next), Do, Latch);

  Do->getTerminator()->setSuccessor(0, Latch);
  B.SetInsertPoint(Latch);
  PHINode *Out = nullptr;
  if (Res) {
    Out = B.CreatePHI(I.getType(), 2, I.getName() + ".lane");
    I.replaceUsesWithIf(
        Out, [&](Use &U) { return U.getUser() != Out && U.getUser() != Res; });
    Out->addIncoming(&I, Do);
    Out->addIncoming(Res, Head);
    Res->addIncoming(PoisonValue::get(I.getType()), Pre);
    Res->addIncoming(Out, Latch);
  }
  Value *MNext = B.CreateAnd(M, B.CreateSub(M, B.getInt32(1)));
  B.CreateCondBr(B.CreateICmpNE(MNext, B.getInt32(0)), Head, Exit);
  M->addIncoming(Mask, Pre);
  M->addIncoming(MNext, Latch);
}

unsigned serializeLanes(Function &F,
                        function_ref<bool(const Value *)> IsDivergent,
                        OptimizationRemarkEmitter &ORE) {
  SmallVector<std::pair<Instruction *, const char *>, 8> Todo;
  for (Instruction &I : instructions(F)) {
    bool Always;
    const char *Why = oneLaneReason(I, Always);
    if (!Why || isa<InvokeInst>(I))
      continue;
    if (Always || any_of(I.operands(),
                         [&](const Use &U) { return IsDivergent(U.get()); }))
      Todo.push_back({&I, Why});
  }
  for (auto [I, Why] : Todo) {
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "OneLaneAtATime",
                                        vortex::userLocation(I->getDebugLoc()),
                                        I->getParent())
             << "runs one lane at a time: " << Why
             << " and its operands differ between lanes";
    });
    wrapOneLane(*I);
  }
  return Todo.size();
}

} // namespace crosslane
