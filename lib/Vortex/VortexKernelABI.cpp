//===- VortexKernelABI.cpp - Vortex kernel entries and local memory -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DESCRIPTION: see include/crosslane/Vortex/VortexKernelABI.h.
/// USAGE:
///   opt-22 -load-pass-plugin=build/lib/CrosslanePlugin.so \
///     -passes=crosslane-vortex-abi -S k.ll
///
//===----------------------------------------------------------------------===//

#include "crosslane/Vortex/VortexKernelABI.h"

#include "EntryStub.h"
#include "KernelParams.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

#define DEBUG_TYPE "crosslane-vortex-abi"

STATISTIC(NumEntries, "Kernel entries emitted");
STATISTIC(NumSharedVars, "__shared__ variables placed in local memory");

namespace crosslane {
namespace {

/// Functions and variables by the annotation string clang attached.
struct Annotated {
  SmallVector<Function *, 8> VortexKernels; ///< "vortex.kernel"
  SmallVector<Function *, 8> HipKernels;    ///< "crosslane.vortex.kernel"
  SmallVector<GlobalVariable *, 8> Shared;  ///< "crosslane.vortex.shared"
};

Annotated readAnnotations(Module &M) {
  Annotated A;
  GlobalVariable *GA = M.getGlobalVariable("llvm.global.annotations");
  auto *Arr = GA ? dyn_cast<ConstantArray>(GA->getInitializer()) : nullptr;
  if (!Arr)
    return A;
  for (Value *Op : Arr->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op);
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    Value *Target = Entry->getOperand(0)->stripPointerCasts();
    StringRef Text;
    if (auto *S =
            dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts()))
      if (auto *D = dyn_cast<ConstantDataArray>(S->getInitializer()))
        Text = D->getAsCString();
    auto AddOnce = [](auto &Vec, auto *X) {
      if (X && !is_contained(Vec, X))
        Vec.push_back(X);
    };
    if (Text == "vortex.kernel")
      AddOnce(A.VortexKernels, dyn_cast<Function>(Target));
    else if (Text == "crosslane.vortex.kernel")
      AddOnce(A.HipKernels, dyn_cast<Function>(Target));
    else if (Text == "crosslane.vortex.shared")
      AddOnce(A.Shared, dyn_cast<GlobalVariable>(Target));
  }
  return A;
}

void error(Function &F, const Twine &Msg) {
  DebugLoc Loc;
  if (DISubprogram *SP = F.getSubprogram())
    Loc = DILocation::get(F.getContext(), SP->getLine(), 0, SP);
  F.getContext().diagnose(DiagnosticInfoUnsupported(F, Msg, Loc, DS_Error));
}

bool isBuiltinOrPointer(StringRef T) {
  if (T.ends_with("*") || T.ends_with("&") || T.ends_with("const") ||
      T.ends_with("volatile"))
    return true;
  static const char *Builtins[] = {
      "bool",          "char",           "signed char",
      "unsigned char", "short",          "unsigned short",
      "int",           "unsigned int",   "long",
      "unsigned long", "long long",      "unsigned long long",
      "float",         "double",         "wchar_t",
      "char8_t",       "char16_t",       "char32_t",
      "_Float16",      "std::nullptr_t", "decltype(nullptr)"};
  return is_contained(Builtins, T);
}

/// Checks that every parameter of \p K can be copied from the host's value
/// as its low bytes; diagnoses the others. Returns false on error.
bool checkParams(Function &K) {
  SmallVector<std::string, 8> Src = vortex::demangledParams(K.getName());
  bool Mangled = !Src.empty() || K.arg_empty();
  if (Mangled && Src.size() != K.arg_size()) {
    error(K, "kernel '" + demangle(K.getName()) +
                 "': a struct parameter "
                 "that the RISC-V ABI splits into several registers is not "
                 "supported on Vortex yet; pass it through a pointer");
    return false;
  }
  for (Argument &A : K.args()) {
    Type *Ty = A.getType();
    StringRef SrcTy = Mangled ? StringRef(Src[A.getArgNo()]) : "";
    bool Indirect = A.hasAttribute(Attribute::DeadOnReturn) ||
                    A.hasByValAttr() || A.hasByRefAttr();
    bool Scalar = (Ty->isIntegerTy() && Ty->getIntegerBitWidth() <= 64) ||
                  Ty->isFloatTy() || Ty->isDoubleTy() || Ty->isPointerTy() ||
                  Ty->isHalfTy();
    bool Aggregate = Mangled && !isBuiltinOrPointer(SrcTy);
    bool Ok = !Indirect && Scalar &&
              (!Aggregate || Ty->isPointerTy() || Ty->isFloatTy() ||
               (Ty->isIntegerTy() && Ty->getIntegerBitWidth() <= 32));
    if (Ok && SrcTy == "long double")
      Ok = false;
    if (Ok)
      continue;
    error(K, "kernel '" + demangle(K.getName()) + "': parameter " +
                 Twine(A.getArgNo() + 1) +
                 (SrcTy.empty() ? Twine("") : " of type '" + SrcTy + "'") +
                 " cannot be passed from an x86-64 host to rv32 Vortex yet "
                 "(structs larger than a register and long double are not "
                 "marshalled); pass a pointer to device memory instead");
    return false;
  }
  return true;
}

/// How one source parameter reaches the kernel's IR arguments under the
/// RISC-V calling convention.
struct ParamPlan {
  enum Kind { Direct, Indirect, Expanded } How = Direct;
  unsigned FirstArg = 0;
};

/// The source parameters of \p K: from its debug info, or (without it)
/// one scalar per IR argument, as checkParams allows.
bool sourceParams(Function &K, SmallVectorImpl<SourceParam> &Src) {
  std::string Why;
  if (describeKernelParams(K, Src, Why))
    return true;
  if (K.getSubprogram() && Why.find("parameter ") == 0) {
    error(K, "kernel '" + demangle(K.getName()) + "': " + Why +
                 ": cannot be passed from an x86-64 host to rv32 Vortex; "
                 "pass a pointer to device memory instead");
    return false;
  }
  Src.clear();
  if (!checkParams(K))
    return false;
  const DataLayout &DL = K.getDataLayout();
  for (Argument &A : K.args()) {
    SourceParam P;
    P.DevSize = DL.getTypeAllocSize(A.getType());
    P.DevAlign = DL.getABITypeAlign(A.getType()).value();
    Src.push_back(P);
  }
  return true;
}

/// Pairs source parameters with IR arguments: an aggregate is a pointer to
/// a copy (indirect), one coerced register, or its two scalars (a struct
/// with a float the hard-float ABI flattens).
bool planParams(Function &K, ArrayRef<SourceParam> Src,
                SmallVectorImpl<ParamPlan> &Plan) {
  unsigned A = 0, N = K.arg_size();
  int Extra = int(N) - int(Src.size());
  for (const SourceParam &P : Src) {
    ParamPlan PP;
    PP.FirstArg = A;
    if (A >= N)
      break;
    Argument *Arg = K.getArg(A);
    bool Indirect = Arg->hasAttribute(Attribute::DeadOnReturn) ||
                    Arg->hasByValAttr() || Arg->hasByRefAttr();
    if (P.IsAggregate && Indirect) {
      PP.How = ParamPlan::Indirect;
    } else if (P.IsAggregate && Extra > 0 && P.Leaves.size() == 2 &&
               A + 1 < N &&
               K.getArg(A)->getType()->isFloatingPointTy() ==
                   P.Leaves[0].IsFloat &&
               K.getArg(A + 1)->getType()->isFloatingPointTy() ==
                   P.Leaves[1].IsFloat) {
      PP.How = ParamPlan::Expanded;
      --Extra;
    }
    A += PP.How == ParamPlan::Expanded ? 2 : 1;
    Plan.push_back(PP);
  }
  if (A == N && Plan.size() == Src.size())
    return true;
  error(K, "kernel '" + demangle(K.getName()) +
               "': its parameters do not match the RISC-V calling "
               "convention Crosslane expects; pass a pointer to device "
               "memory instead");
  return false;
}

/// The meta record of one parameter at \p Offset of the blob.
std::string paramRecord(unsigned I, uint64_t Offset, uint64_t Slot,
                        const SourceParam &P) {
  std::string R =
      "param " + std::to_string(I) + " " + std::to_string(Offset) + " ";
  if (!P.IsAggregate || P.sameLayout())
    return R + std::to_string(P.IsAggregate ? P.DevSize : Slot) + "\n";
  SmallVector<ParamLeaf, 4> Copies = P.copies();
  R += std::to_string(P.DevSize) + " " + std::to_string(Copies.size()) + " " +
       std::to_string(P.HostSize) + "\n";
  for (const ParamLeaf &L : Copies)
    R += "field " + std::to_string(L.HostOffset) + " " +
         std::to_string(L.DevOffset) + " " + std::to_string(L.Size) + "\n";
  return R;
}

/// The IR arguments of parameter \p P, read from the blob at \p At.
void loadParam(IRBuilder<> &B, Function &K, const ParamPlan &PP,
               const SourceParam &P, Value *At,
               SmallVectorImpl<Value *> &Args) {
  Argument *First = K.getArg(PP.FirstArg);
  if (PP.How == ParamPlan::Indirect) {
    // The callee may write its copy; every CTA reads the same blob.
    IRBuilder<> Entry(
        &*B.GetInsertBlock()->getParent()->getEntryBlock().begin());
    AllocaInst *Copy = Entry.CreateAlloca(
        ArrayType::get(B.getInt8Ty(), P.DevSize), nullptr, First->getName());
    Copy->setAlignment(Align(P.DevAlign));
    B.CreateMemCpy(Copy, Align(P.DevAlign), At, Align(P.DevAlign), P.DevSize);
    Args.push_back(Copy);
    return;
  }
  unsigned Count = PP.How == ParamPlan::Expanded ? 2 : 1;
  for (unsigned J = 0; J < Count; ++J) {
    Argument *Arg = K.getArg(PP.FirstArg + J);
    uint64_t Off = PP.How == ParamPlan::Expanded ? P.Leaves[J].DevOffset : 0;
    Value *Ptr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), At, Off);
    Align Al = K.getDataLayout().getABITypeAlign(Arg->getType());
    if (P.IsAggregate)
      Al = std::min(Al, Align(P.DevAlign));
    Args.push_back(
        B.CreateAlignedLoad(Arg->getType(), Ptr, Al, Arg->getName()));
  }
}

/// Emits the entry that unpacks \p K's arguments from the blob in a0, and
/// returns the meta record describing the blob ("" after an error).
std::string emitHipEntry(Function &K, uint64_t LocalMem) {
  SmallVector<SourceParam, 8> Src;
  SmallVector<ParamPlan, 8> Plan;
  if (!sourceParams(K, Src) || !planParams(K, Src, Plan))
    return "";
  Module &M = *K.getParent();
  const DataLayout &DL = M.getDataLayout();
  LLVMContext &Ctx = M.getContext();
  auto *Ty = FunctionType::get(Type::getVoidTy(Ctx), {PointerType::get(Ctx, 0)},
                               false);
  Function *E = Function::Create(Ty, GlobalValue::ExternalLinkage,
                                 "__crosslane_vx_entry." + K.getName(), M);
  E->addFnAttrs(AttrBuilder(Ctx, K.getAttributes().getFnAttrs()));
  E->addFnAttr("crosslane-vortex-kernel");
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", E));
  std::string Params;
  uint64_t Offset = 0, MaxAlign = 4;
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < Src.size(); ++I) {
    const SourceParam &P = Src[I];
    Type *ArgTy = K.getArg(Plan[I].FirstArg)->getType();
    uint64_t Align = P.DevAlign, Slot = P.DevSize;
    if (Plan[I].How == ParamPlan::Direct) {
      Align = std::max<uint64_t>(Align, DL.getABITypeAlign(ArgTy).value());
      Slot = std::max<uint64_t>(Slot, DL.getTypeAllocSize(ArgTy));
    }
    Offset = alignTo(Offset, Align);
    MaxAlign = std::max(MaxAlign, Align);
    Value *At =
        B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), E->getArg(0), Offset);
    loadParam(B, K, Plan[I], P, At, Args);
    Params += paramRecord(I, Offset, Slot, P);
    Offset += Slot;
  }
  B.CreateCall(&K, Args);
  B.CreateRetVoid();
  vortex::emitKernelEntryStub(M, vortex::kernelEntrySymbol(K.getName()),
                              E->getName(), vortex::knownWarpSize(K));
  // For launches without partial warps (EntryStub.cpp).
  GlobalAlias::create(GlobalValue::ExternalLinkage,
                      vortex::fullWarpsEntrySymbol(K.getName()), E);
  appendToUsed(M, {E});
  ++NumEntries;
  return "kernel " + K.getName().str() + " " +
         std::to_string(alignTo(Offset, MaxAlign)) + " " +
         std::to_string(MaxAlign) + " " + std::to_string(LocalMem) + " " +
         std::to_string(Src.size()) + "\n" + Params;
}

/// HIP without -fgpu-rdc: a translation unit's device functions are its
/// own (no other unit calls them), so they become internal. The optimiser
/// may then inline or drop them, and the divergence analysis sees every
/// call of a function (uniform arguments stay uniform).
void internalizeDeviceFunctions(Module &M) {
  SmallVector<GlobalValue *, 8> UsedList;
  collectUsedGlobalVariables(M, UsedList, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, UsedList, /*CompilerUsed=*/true);
  SmallPtrSet<const GlobalValue *, 8> Used(UsedList.begin(), UsedList.end());
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasExternalLinkage() && !Used.contains(&F) &&
        !F.hasFnAttribute("crosslane-vortex-kernel") &&
        vortex::isVortexFunction(F) && F.getName() != "main")
      F.setLinkage(GlobalValue::InternalLinkage);
}

/// Marks a HIP kernel so the optimiser folds it into its entry.
void prepareHipKernel(Function &K) {
  K.addFnAttr("crosslane-vortex-kernel");
  if (!K.hasFnAttribute(Attribute::NoInline)) {
    K.addFnAttr(Attribute::AlwaysInline);
    K.setLinkage(GlobalValue::InternalLinkage);
  }
}

void emitVortexKernelAlias(Function &K) {
  K.addFnAttr("crosslane-vortex-kernel");
  std::string Name = vortex::kernelEntrySymbol(K.getName());
  if (!K.getParent()->getNamedValue(Name))
    GlobalAlias::create(GlobalValue::ExternalLinkage, Name, &K);
  ++NumEntries;
}

/// Dynamic shared memory: `extern __shared__ T a[];` (a declaration of an
/// array of unknown bound; HIP gives every such array the same address).
bool isDynamicShared(const GlobalVariable &G) {
  auto *AT = dyn_cast<ArrayType>(G.getValueType());
  return G.isDeclaration() && AT && AT->getNumElements() == 0;
}

/// Replaces every use of \p G inside functions by CTA local memory base +
/// \p Offset.
void rebaseToLocalMemory(GlobalVariable &G, uint64_t Offset) {
  convertUsersOfConstantsToInstructions({&G});
  DenseMap<Function *, Value *> Base;
  for (Use &U : make_early_inc_range(G.uses())) {
    auto *I = dyn_cast<Instruction>(U.getUser());
    if (!I)
      continue;
    Function *F = I->getFunction();
    Value *&P = Base[F];
    if (!P) {
      IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
      Value *Lmem = vortex::emitCSRRead(B, vortex::CSRCtaLocalMem);
      P = B.CreateIntToPtr(Lmem, G.getType(), G.getName() + ".lmem.base");
      P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), P, Offset,
                                       G.getName() + ".lmem");
    }
    U.set(P);
  }
}

/// Lays out the module's __shared__ variables; returns the static size.
uint64_t placeSharedMemory(Module &M, ArrayRef<GlobalVariable *> Static) {
  const DataLayout &DL = M.getDataLayout();
  uint64_t Offset = 0;
  for (GlobalVariable *G : Static) {
    uint64_t Align = DL.getPreferredAlign(G).value();
    Offset = alignTo(Offset, Align);
    rebaseToLocalMemory(*G, Offset);
    Offset += DL.getTypeAllocSize(G->getValueType());
    ++NumSharedVars;
  }
  uint64_t Dynamic = alignTo(Offset, 16);
  for (GlobalVariable &G : M.globals())
    if (isDynamicShared(G) && !G.use_empty()) {
      rebaseToLocalMemory(G, Dynamic);
      ++NumSharedVars;
    }
  for (GlobalVariable *G : Static)
    if (G->use_empty())
      G->eraseFromParent();
  return Offset;
}

/// __device__ / __constant__ variables the host may name (hipMemcpyToSymbol).
std::string deviceVariables(Module &M) {
  std::string Out;
  SmallVector<GlobalValue *, 8> Keep;
  for (GlobalVariable &G : M.globals())
    if (G.isExternallyInitialized() && !G.isDeclaration() &&
        !G.getName().starts_with("__crosslane_")) {
      // The host writes these (hipMemcpyToSymbol), and Crosslane's runtime
      // reaches only the image's writable pages: a __constant__ variable
      // goes to .data, which Vortex's link script starts on a new page,
      // not to .rodata beside the code.
      G.setConstant(false);
      G.setSection((".data.crosslane." + G.getName()).str());
      Out +=
          "var " + G.getName().str() + " " +
          std::to_string(M.getDataLayout().getTypeAllocSize(G.getValueType())) +
          "\n";
      Keep.push_back(&G);
    }
  if (!Keep.empty())
    appendToUsed(M, Keep);
  return Out;
}

void emitMeta(Module &M, StringRef Text) {
  if (Text.empty())
    return;
  Constant *Init = ConstantDataArray::getString(M.getContext(), Text, true);
  auto *G =
      new GlobalVariable(M, Init->getType(), true, GlobalValue::InternalLinkage,
                         Init, "__crosslane_vx_meta");
  G->setSection(".crosslane.vortex.meta");
  G->setAlignment(Align(1));
  appendToUsed(M, {G});
}

/// Atomics need the A extension, which not every Vortex build has. This
/// runs before inlining: an atomic inside hip_runtime.h's atomicAdd & co. is
/// reported at each call of that function.
void checkAtomics(Module &M) {
  const char *Msg = "atomic operation on a Vortex target without the A "
                    "extension (atomics abort on such a build): use a "
                    "configuration with atomics, e.g. "
                    "--vortex-config=w16t16a";
  for (Function &F : M) {
    if (F.isDeclaration() || !vortex::isVortexFunction(F) ||
        F.getFnAttribute("target-features").getValueAsString().contains("+a"))
      continue;
    auto It = find_if(instructions(F), [](const Instruction &I) {
      return I.isAtomic() && !isa<FenceInst>(I);
    });
    if (It == instructions(F).end())
      continue;
    SmallVector<Instruction *, 4> Sites;
    if (vortex::isInOurHeaders(It->getDebugLoc().get()))
      for (User *U : F.users())
        if (auto *CB = dyn_cast<CallBase>(U))
          Sites.push_back(CB);
    if (Sites.empty())
      Sites.push_back(&*It);
    for (Instruction *Site : Sites)
      M.getContext().diagnose(DiagnosticInfoUnsupported(
          *Site->getFunction(), Msg, vortex::userLocation(Site->getDebugLoc()),
          DS_Error));
  }
}

} // namespace

PreservedAnalyses VortexKernelABIPass::run(Module &M, ModuleAnalysisManager &) {
  if (none_of(M, [](const Function &F) {
        return !F.isDeclaration() && vortex::isVortexFunction(F);
      }))
    return PreservedAnalyses::all();
  for (Function &F : M)
    if (!F.isDeclaration() && vortex::isVortexFunction(F))
      vortex::markVortexFunction(F);
  Annotated A = readAnnotations(M);
  // Crosslane's hip_runtime.h is the only reader of these annotations; the
  // list would keep every inlined kernel's body alive.
  if (GlobalVariable *GA = M.getGlobalVariable("llvm.global.annotations"))
    GA->eraseFromParent();
  checkAtomics(M);
  uint64_t LocalMem = placeSharedMemory(M, A.Shared);
  std::string Meta;
  for (Function *K : A.VortexKernels)
    emitVortexKernelAlias(*K);
  for (Function *K : A.HipKernels) {
    std::string Record = emitHipEntry(*K, LocalMem);
    if (Record.empty())
      continue;
    Meta += Record;
    prepareHipKernel(*K);
  }
  if (!A.HipKernels.empty())
    internalizeDeviceFunctions(M);
  Meta += deviceVariables(M);
  emitMeta(M, Meta);
  return PreservedAnalyses::none();
}

} // namespace crosslane
