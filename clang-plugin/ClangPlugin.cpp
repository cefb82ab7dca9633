//===- ClangPlugin.cpp - Crosslane as a clang frontend plugin -------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// USAGE:
//   clang-22 -x hip --offload-arch=gfx942 --cuda-device-only -O2 -c \
//     -fplugin=build/lib/CrosslaneClang.so -Rpass-analysis=crosslane k.hip
//
// The plugin runs before the main action and adds Crosslane's pass
// registration to the code generator's PassBuilder callbacks. If the same
// library was also given with -fpass-plugin, it does nothing, so the passes
// never run twice.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Passes.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace clang;

namespace {

/// Path of the shared object this code lives in (for the -fpass-plugin check).
std::string thisLibraryPath() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&thisLibraryPath), &Info) &&
      Info.dli_fname)
    return Info.dli_fname;
  return "";
}

bool samePath(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> RA, RB;
  if (llvm::sys::fs::real_path(A, RA) || llvm::sys::fs::real_path(B, RB))
    return A == B;
  return RA == RB;
}

class CrosslaneAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    CodeGenOptions &CG = CI.getCodeGenOpts();
    std::string Self = thisLibraryPath();
    bool AlreadyLoaded = llvm::any_of(
        CG.PassPlugins, [&](const auto &P) { return samePath(P, Self); });
    if (!AlreadyLoaded)
      CG.PassBuilderCallbacks.push_back(
          [](llvm::PassBuilder &PB) { crosslane::registerPasses(PB); });
    return std::make_unique<ASTConsumer>();
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args) {
      DiagnosticsEngine &D = CI.getDiagnostics();
      unsigned ID = D.getCustomDiagID(
          DiagnosticsEngine::Error,
          "crosslane: unknown plugin argument '%0' (the clang plugin takes "
          "none; pass options with -Xclang -mllvm -Xclang -crosslane-...)");
      D.Report(ID) << Arg;
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<CrosslaneAction>
    X("crosslane", "Crosslane GPU passes in the code generator's pipeline");

// The same library also works as a pass plugin (-fpass-plugin, opt
// -load-pass-plugin): clang loads -fplugin libraries through the pass-plugin
// loader too, and needs this entry point.
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "CrosslaneClang", LLVM_VERSION_STRING,
          [](llvm::PassBuilder &PB) { crosslane::registerPasses(PB); }};
}
