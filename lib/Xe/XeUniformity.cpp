//===- XeUniformity.cpp - Divergence of OpenCL/SPIR-V device code ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "XeUniformity.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace crosslane {
namespace xe {

StringRef demangledBase(StringRef Name) {
  StringRef S = Name;
  if (!S.consume_front("_Z"))
    return Name;
  size_t Len = 0;
  if (S.consumeInteger(10, Len) || Len > S.size())
    return Name;
  return S.take_front(Len);
}

/// Work-item ids: a different value in each lane of a subgroup.
static bool isLaneIdBuiltin(StringRef Base) {
  return StringSwitch<bool>(Base)
      .Cases("get_local_id", "get_global_id", "get_sub_group_local_id", true)
      .Cases("get_local_linear_id", "get_global_linear_id", true)
      .Default(false);
}

static bool isLaneIdVariable(const Value *Ptr) {
  const auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  if (!GV)
    return false;
  StringRef N = GV->getName();
  return N.starts_with("__spirv_BuiltIn") &&
         (N.contains("InvocationId") || N.contains("InvocationIndex") ||
          N.contains("GlobalLinearId"));
}

Lanes XeUniformity::seed(const Instruction &I) const {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *Callee = CB->getCalledFunction())
      if (isLaneIdBuiltin(demangledBase(Callee->getName())) ||
          isLaneIdVariable(Callee))
        return Lanes::Divergent;
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
    return Lanes::Divergent;
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    if (isLaneIdVariable(L->getPointerOperand()))
      return Lanes::Divergent;
    // Private memory: what was stored there (-O0 keeps every variable in
    // an alloca).
    if (const auto *A =
            dyn_cast<AllocaInst>(getUnderlyingObject(L->getPointerOperand())))
      return memory(A);
  }
  return Lanes::Uniform;
}

bool XeUniformity::update(const Value *V, Lanes L) {
  Lanes &S = State[V];
  if (L <= S)
    return false;
  S = L;
  return true;
}

Lanes XeUniformity::of(const Value *V) const {
  if (isa<Constant>(V))
    return Lanes::Uniform;
  auto It = State.find(V);
  return It == State.end() ? Lanes::Uniform : It->second;
}

Lanes XeUniformity::control(const BasicBlock *BB,
                            const Instruction **Branch) const {
  auto It = Control.find(BB);
  if (It == Control.end())
    return Lanes::Uniform;
  if (Branch)
    *Branch = It->second.second;
  return It->second.first;
}

Lanes XeUniformity::memory(const AllocaInst *A) const {
  auto It = Memory.find(A);
  return It == Memory.end() ? Lanes::Uniform : It->second;
}

/// What \p I puts in private memory: a stored value's state, or (an alloca
/// passed to a call, such as a 2D load's buffer) each lane's own data.
bool XeUniformity::noteMemory(const Instruction &I) {
  auto Raise = [&](const Value *Ptr, Lanes L) {
    const auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
    if (!A)
      return false;
    Lanes &M = Memory[A];
    if (L <= M)
      return false;
    M = L;
    return true;
  };
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return Raise(S->getPointerOperand(), std::max(of(S->getValueOperand()),
                                                  of(S->getPointerOperand())));
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || CB->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(CB))
    return false;
  bool Changed = false;
  for (const Value *Arg : CB->args())
    if (Arg->getType()->isPointerTy())
      Changed |= Raise(Arg, Lanes::Divergent);
  return Changed;
}

/// One round over the function; true if some state grew.
bool XeUniformity::propagate(Function &F, const PostDominatorTree &PDT) {
  bool Changed = false;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT) {
    for (Instruction &I : *BB) {
      Changed |= noteMemory(I);
      Lanes L = seed(I);
      for (const Use &Op : I.operands())
        if (!isa<BasicBlock>(Op.get()))
          L = std::max(L, of(Op.get()));
      Changed |= update(&I, L);
    }
    // A branch on a non-uniform condition: the blocks it controls, and the
    // phis where their paths join.
    Instruction *T = BB->getTerminator();
    Value *Cond = nullptr;
    if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
      Cond = Br->getCondition();
    else if (auto *Sw = dyn_cast<SwitchInst>(T))
      Cond = Sw->getCondition();
    Lanes CL = Cond ? of(Cond) : Lanes::Uniform;
    if (CL == Lanes::Uniform)
      continue;
    const DomTreeNode *N = PDT.getNode(BB);
    BasicBlock *Join = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
    SmallVector<BasicBlock *, 8> Work(successors(BB));
    SmallPtrSet<BasicBlock *, 16> Region;
    while (!Work.empty()) {
      BasicBlock *S = Work.pop_back_val();
      if (S == Join || !Region.insert(S).second)
        continue;
      append_range(Work, successors(S));
    }
    for (BasicBlock *R : Region) {
      auto &C = Control[R];
      if (CL > C.first) {
        C = {CL, T};
        Changed = true;
      }
    }
    // (Loop-exit values in LCSSA form are phis there too.)
    if (Join)
      for (PHINode &P : Join->phis())
        Changed |= update(&P, CL);
  }
  return Changed;
}

XeUniformity::XeUniformity(Function &F, const PostDominatorTree &PDT)
    // clang's copy of an OpenCL kernel's body is called with the kernel's
    // own arguments.
    : IsKernel(F.getCallingConv() == CallingConv::SPIR_KERNEL ||
               F.getName().starts_with("__clang_ocl_kern_imp_")) {
  if (!IsKernel)
    for (Argument &A : F.args())
      State[&A] = Lanes::Unknown;
  while (propagate(F, PDT)) {
  }
}

} // namespace xe
} // namespace crosslane
