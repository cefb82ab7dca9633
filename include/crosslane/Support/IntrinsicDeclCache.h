//===- IntrinsicDeclCache.h - Intrinsic declarations across functions -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finding an overloaded intrinsic's declaration (Intrinsic::
/// getOrInsertDeclaration: mangle its name, build its type, look it up) costs
/// more than the call that uses it, and a pass that emits the same few
/// intrinsics in every function of a module pays it per call. A pass keeps
/// one IntrinsicDeclCache for its lifetime: it holds the declarations of the
/// module it last saw, by (intrinsic, overloaded type), through weak handles,
/// so a declaration another pass deletes is looked up again, never reused.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_INTRINSICDECLCACHE_H
#define CROSSLANE_SUPPORT_INTRINSICDECLCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/ValueHandle.h"

#include <utility>

namespace llvm {
class Function;
class Module;
class Type;
} // namespace llvm

namespace crosslane {

class IntrinsicDeclCache {
public:
  /// The declaration of \p ID in \p M for \p Tys (at most one overloaded
  /// type is cached; more are looked up every time).
  llvm::Function *get(llvm::Module &M, llvm::Intrinsic::ID ID,
                      llvm::ArrayRef<llvm::Type *> Tys);

private:
  const llvm::Module *Of = nullptr;
  llvm::DenseMap<std::pair<unsigned, llvm::Type *>, llvm::WeakVH> Decls;
};

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_INTRINSICDECLCACHE_H
