//===- IntrinsicDeclCache.cpp - Intrinsic declarations across functions ---===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/IntrinsicDeclCache.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crosslane {

Function *IntrinsicDeclCache::get(Module &M, Intrinsic::ID ID,
                                  ArrayRef<Type *> Tys) {
  if (Tys.size() > 1)
    return Intrinsic::getOrInsertDeclaration(&M, ID, Tys);
  // Another module (or one at a freed module's address, whose functions
  // were deleted with it): start over.
  if (Of != &M) {
    Decls.clear();
    Of = &M;
  }
  WeakVH &Decl = Decls[{unsigned(ID), Tys.empty() ? nullptr : Tys.front()}];
  auto *Fn = cast_or_null<Function>(Decl);
  if (!Fn || Fn->getParent() != &M || Fn->getIntrinsicID() != ID) {
    Fn = Intrinsic::getOrInsertDeclaration(&M, ID, Tys);
    Decl = Fn;
  }
  return Fn;
}

} // namespace crosslane
