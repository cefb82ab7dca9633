//===- CodeGenHooks.cpp - Crosslane's passes in LLVM's code generator -----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Loading a library that holds this file (CrosslanePlugin.so,
/// CrosslaneClang.so) registers crosslane::addCodeGenPasses with LLVM's
/// registry of target pass config callbacks: every code generator created
/// afterwards in the process (clang's backend, llc -load, ld.lld's LTO
/// back end) calls it before adding its own passes. If both libraries are
/// loaded, the passes run twice; the second run finds nothing to do.
///
//===----------------------------------------------------------------------===//

#include "crosslane/CodeGen/DropMinMaxQuieting.h"

#include "llvm/Target/TargetMachine.h"

#include <functional>

namespace llvm {
// LLVM 22 exports this registry (lib/Target/RegisterTargetPassConfigCallback
// .cpp) but does not install its header
// (llvm/Target/RegisterTargetPassConfigCallback.h); the declaration is
// repeated here as it is there.
using PassConfigCallback =
    std::function<void(TargetMachine &, PassManagerBase &, TargetPassConfig *)>;
class RegisterTargetPassConfigCallback {
public:
  PassConfigCallback Callback;
  explicit RegisterTargetPassConfigCallback(PassConfigCallback &&C);
  ~RegisterTargetPassConfigCallback();
};
} // namespace llvm

static llvm::RegisterTargetPassConfigCallback
    CodeGenHook(crosslane::addCodeGenPasses);
