//===- Plugin.cpp - Crosslane as an LLVM pass plugin ----------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// USAGE:
//   opt-22 -load-pass-plugin=build/lib/CrosslanePlugin.so \
//          -passes='print<crosslane-target>' -disable-output in.ll
//   clang-22 -x hip --offload-arch=gfx942 --cuda-device-only \
//          -fpass-plugin=build/lib/CrosslanePlugin.so ...
//
//   llc-22 -load=build/lib/CrosslanePlugin.so ...
//          (code-generation passes, lib/CodeGen/CodeGenHooks.cpp)
//
//===----------------------------------------------------------------------===//

#include "crosslane/Passes.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Crosslane", LLVM_VERSION_STRING,
          [](llvm::PassBuilder &PB) { crosslane::registerPasses(PB); }};
}
