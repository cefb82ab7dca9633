//===- OpenCLBuiltins.cpp - Calls of OpenCL builtins in spirv64 IR --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/OpenCLBuiltins.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crosslane {

CallInst *emitOpenCLCall(IRBuilderBase &B, StringRef Name, Type *Ret,
                         ArrayRef<Value *> Args, bool Convergent) {
  Module &M = *B.GetInsertBlock()->getModule();
  SmallVector<Type *, 6> Tys;
  for (Value *A : Args)
    Tys.push_back(A->getType());
  FunctionCallee FC =
      M.getOrInsertFunction(Name, FunctionType::get(Ret, Tys, false));
  if (auto *Fn = dyn_cast<Function>(FC.getCallee())) {
    Fn->setCallingConv(CallingConv::SPIR_FUNC);
    if (Convergent)
      Fn->setConvergent();
  }
  CallInst *C = B.CreateCall(FC, Args);
  C->setCallingConv(CallingConv::SPIR_FUNC);
  if (Convergent)
    C->setConvergent();
  return C;
}

} // namespace crosslane
