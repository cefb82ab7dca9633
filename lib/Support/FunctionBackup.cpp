//===- FunctionBackup.cpp - Restore a function a rewrite broke ------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/FunctionBackup.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace crosslane {

void FunctionBackup::take() {
  if (Copy)
    return;
  // A copy by hand rather than CloneFunction: the copy keeps every metadata
  // node the body names (its scopes, loop and alias metadata are the
  // function's own, which is what a restored body needs), so nothing is
  // mapped but the body's values and blocks, in a plain map. CloneFunction's
  // value-handle map and metadata mapper made the copy most of the safety
  // net's cost (docs/ArgRecognition.md, compile time).
  Copy =
      Function::Create(F.getFunctionType(), F.getLinkage(), F.getAddressSpace(),
                       F.getName() + ".crosslane.backup", F.getParent());
  DenseMap<const Value *, Value *> Map;
  for (auto [A, CA] : zip(F.args(), Copy->args())) {
    CA.setName(A.getName());
    Map[&A] = &CA;
  }
  for (BasicBlock &BB : F) {
    BasicBlock *CB = BasicBlock::Create(F.getContext(), BB.getName(), Copy);
    Map[&BB] = CB;
    for (Instruction &I : BB) {
      Instruction *CI = I.clone();
      CI->setName(I.getName());
      CI->insertInto(CB, CB->end());
      CI->cloneDebugInfoFrom(&I);
      Map[&I] = CI;
    }
  }
  auto Mapped = [&](Value *V) {
    auto It = Map.find(V);
    return It == Map.end() ? V : It->second;
  };
  for (BasicBlock &CB : *Copy)
    for (Instruction &CI : CB) {
      for (Use &U : CI.operands())
        U.set(Mapped(U.get()));
      if (auto *Phi = dyn_cast<PHINode>(&CI))
        for (unsigned K = 0, E = Phi->getNumIncomingValues(); K != E; ++K)
          Phi->setIncomingBlock(
              K, cast<BasicBlock>(Mapped(Phi->getIncomingBlock(K))));
      for (DbgVariableRecord &R : filterDbgVars(CI.getDbgRecordRange())) {
        for (Value *Op : SmallVector<Value *, 2>(R.location_ops()))
          if (Value *New = Mapped(Op); New != Op)
            R.replaceVariableLocationOp(Op, New);
        if (R.isDbgAssign())
          if (Value *Addr = R.getAddress(); Addr && Mapped(Addr) != Addr)
            R.setAddress(Mapped(Addr));
      }
    }
}

void FunctionBackup::restore() {
  for (BasicBlock &BB : F)
    BB.dropAllReferences();
  while (!F.empty())
    F.begin()->eraseFromParent();
  F.splice(F.end(), Copy);
  for (auto [A, CA] : zip(F.args(), Copy->args()))
    CA.replaceAllUsesWith(&A);
  discard();
}

void FunctionBackup::discard() {
  if (Copy)
    Copy->eraseFromParent();
  Copy = nullptr;
}

} // namespace crosslane
