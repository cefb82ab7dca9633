//===- FunctionBackup.cpp - Restore a function a rewrite broke ------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/FunctionBackup.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace crosslane {

void FunctionBackup::take() {
  if (Copy)
    return;
  ValueToValueMapTy VMap;
  // Map every scope the body's locations name (and the subprogram) to
  // itself, so the copy's locations are the body's own.
  auto KeepScopes = [&](const DILocation *L) {
    for (; L; L = L->getInlinedAt())
      for (DIScope *S = L->getScope(); S && !isa<DICompileUnit, DIFile>(S);
           S = S->getScope())
        VMap.MD()[S].reset(S);
  };
  if (DISubprogram *SP = F.getSubprogram())
    VMap.MD()[SP].reset(SP);
  for (Instruction &I : instructions(F)) {
    KeepScopes(I.getDebugLoc());
    for (DbgRecord &R : I.getDbgRecordRange())
      KeepScopes(R.getDebugLoc());
  }
  Copy = CloneFunction(&F, VMap);
  Copy->setName(F.getName() + ".crosslane.backup");
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
