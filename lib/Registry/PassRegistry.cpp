//===- PassRegistry.cpp - Crosslane pass names and device pipeline --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/ArgRecognition/RecognizeArgPhase.h"
#include "crosslane/ArgRecognition/RecognizeArgReduce.h"
#include "crosslane/CodeGen/RelaxNaNGuard.h"
#include "crosslane/Passes.h"
#include "crosslane/SubgroupReduce/ExpandSubgroup.h"
#include "crosslane/Support/TargetInfoPrinter.h"
#include "crosslane/Vortex/VortexDivergence.h"
#include "crosslane/Vortex/VortexFullWarps.h"
#include "crosslane/Vortex/VortexKernelABI.h"
#include "crosslane/Xe/XeBlockIO.h"
#include "crosslane/Xe/XeFormBlocks.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

#include <cstdlib>

using namespace llvm;

namespace crosslane {

static cl::opt<bool>
    AutoInsert("crosslane-auto",
               cl::desc("Run Crosslane's device pipeline at the end of the "
                        "default optimisation pipelines (clang "
                        "-fpass-plugin, opt -passes='default<O2>', LTO)"),
               cl::init(true));

static cl::opt<bool> Recognize(
    "crosslane-recognize",
    cl::desc("In the device pipeline, replace hand-written cross-lane "
             "butterflies by Crosslane operations where proven exact "
             "(crosslane-recognize-arg)"),
    cl::init(true));

namespace {

/// crosslane-device-pipeline: runs exactly what clang -fpass-plugin runs, so
/// `opt -passes=crosslane-device-pipeline` reproduces a device compilation.
struct DevicePipelinePass : PassInfoMixin<DevicePipelinePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    ModulePassManager MPM;
    addDevicePipeline(MPM, OptimizationLevel::O2);
    return MPM.run(M, MAM);
  }
  static bool isRequired() { return true; }
};

/// A pipeline callback can only say "not mine", after which the pass
/// builder adds "unknown pass name" to the real error. A bad parameter of a
/// Crosslane pass is therefore reported here, once, and ends the tool, as a
/// bad command-line option does.
[[noreturn]] static void reportBadParameters(Error E) {
  errs() << "error: " << toString(std::move(E)) << '\n';
  errs().flush();
  std::exit(1);
}

bool parseFunctionPassName(StringRef Name, FunctionPassManager &FPM) {
#define CROSSLANE_FUNCTION_PASS(NAME, CREATE)                                  \
  if (Name == NAME) {                                                          \
    FPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#define CROSSLANE_FUNCTION_PASS_WITH_PARAMS(NAME, CREATE, PARSER)              \
  if (PassBuilder::checkParametrizedPassName(Name, NAME)) {                    \
    auto ParamsOrErr = PassBuilder::parsePassParameters(PARSER, Name, NAME);   \
    if (!ParamsOrErr)                                                          \
      reportBadParameters(ParamsOrErr.takeError());                            \
    auto Params = *ParamsOrErr;                                                \
    FPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#include "crosslane/Passes.def"
  return false;
}

bool parseModulePassName(StringRef Name, ModulePassManager &MPM) {
#define CROSSLANE_MODULE_PASS(NAME, CREATE)                                    \
  if (Name == NAME) {                                                          \
    MPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#include "crosslane/Passes.def"
  return false;
}

void registerClassNames(PassBuilder &PB) {
  // Lets -print-pipeline-passes print names opt can parse back.
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  PIC->addClassToPassName(TargetRemarksPass::name(),
                          "crosslane-target-remarks");
  PIC->addClassToPassName(RecognizeArgReducePass::name(),
                          "crosslane-recognize-arg");
  PIC->addClassToPassName(RecognizeArgPhasePass::name(),
                          "crosslane-recognize-arg-phase");
  PIC->addClassToPassName(ExpandSubgroupPass::name(),
                          "crosslane-expand-subgroup");
  PIC->addClassToPassName(RelaxNaNGuardPass::name(),
                          "crosslane-relax-nan-guard");
  PIC->addClassToPassName(DevicePipelinePass::name(),
                          "crosslane-device-pipeline");
  PIC->addClassToPassName(VortexKernelABIPass::name(), "crosslane-vortex-abi");
  PIC->addClassToPassName(VortexFullWarpsPass::name(),
                          "crosslane-vortex-full-warps");
  PIC->addClassToPassName(VortexDivergencePass::name(),
                          "crosslane-vortex-divergence");
  PIC->addClassToPassName(XeFormBlocksPass::name(), "crosslane-xe-form-blocks");
  PIC->addClassToPassName(XeBlockIOPass::name(), "crosslane-xe-block-io");
}

} // namespace

void addDevicePipeline(ModulePassManager &MPM, OptimizationLevel Level) {
  // Vortex: kernel copies for whole-warp launches, whose subgroup
  // operations outside divergent code need no path for lanes that are off
  // (before the expansion; other targets: no-op).
  if (Level != OptimizationLevel::O0)
    MPM.addPass(VortexFullWarpsPass());
  FunctionPassManager FPM;
  FPM.addPass(TargetRemarksPass());
  // Hand-written butterflies become Crosslane operations where that is
  // proven exact; the abandoned shuffles and their diamonds are then dead.
  if (Level != OptimizationLevel::O0 && Recognize) {
    FPM.addPass(RecognizeArgReducePass());
    FPM.addPass(ADCEPass());
    FPM.addPass(SimplifyCFGPass());
  }
  // Crosslane's subgroup operations have no definition: expand them at
  // every optimisation level (the pass is isRequired()).
  FPM.addPass(ExpandSubgroupPass());
  // spirv64: tiles loaded row by row, lane by lane, become 2D block loads
  // where the chip has them; then the 2D block IO rules for
  // -crosslane-xe-chip (other targets: no-op).
  if (Level != OptimizationLevel::O0)
    FPM.addPass(XeFormBlocksPass());
  FPM.addPass(XeBlockIOPass());
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
}

void registerPasses(PassBuilder &PB) {
  registerClassNames(PB);
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseFunctionPassName(Name, FPM);
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseModulePassName(Name, MPM);
      });
  // Vortex kernels get their entries before optimisation, so each HIP
  // kernel is inlined into the entry that unpacks its arguments. The pass
  // leaves modules without +xvortex code alone.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        if (AutoInsert)
          MPM.addPass(VortexKernelABIPass());
      });
  // OptimizerLast runs at -O0 too, where only isRequired() passes run; every
  // Crosslane pass that must lower its operations is required.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level, ThinOrFullLTOPhase) {
        if (AutoInsert)
          addDevicePipeline(MPM, Level);
      });
  // -fgpu-rdc / LTO: the device link runs in lld, where only the LTO
  // extension points fire.
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (AutoInsert)
          addDevicePipeline(MPM, Level);
      });
}

} // namespace crosslane
