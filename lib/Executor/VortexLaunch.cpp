//===- VortexLaunch.cpp - Vortex configurations, kernels, argument blobs --===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "VortexLaunch.h"

#include "crosslane/Executor/VortexTarget.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstring>

using namespace llvm;

namespace crosslane {
namespace exec {

bool parseVortexSemantics(StringRef S, VortexSemantics &Out) {
  if (S == "hardware")
    Out = VortexSemantics::Hardware;
  else if (S == "structured")
    Out = VortexSemantics::Structured;
  else
    return false;
  return true;
}

bool readVortexConfig(StringRef Dir, VortexConfig &C, std::string &Err) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, "config", "cflags.txt");
  auto MB = MemoryBuffer::getFile(Path);
  if (!MB) {
    Err = "cannot read Vortex configuration '" + Path.str().str() + "'";
    return false;
  }
  SmallVector<StringRef, 256> Flags;
  (*MB)->getBuffer().split(Flags, ' ', -1, false);
  bool HaveThreads = false, HaveWarps = false;
  unsigned Clusters = 1;
  for (StringRef F : Flags) {
    F = F.trim();
    if (!F.consume_front("-DVX_CFG_"))
      continue;
    auto [Key, Val] = F.split('=');
    unsigned V;
    if (Val.getAsInteger(0, V))
      continue;
    if (Key == "NUM_THREADS")
      C.Threads = V, HaveThreads = true;
    else if (Key == "NUM_WARPS")
      C.Warps = V, HaveWarps = true;
    else if (Key == "LMEM_LOG_SIZE")
      C.LmemLogSize = V;
    else if (Key == "NUM_CORES")
      C.Cores = V;
    else if (Key == "NUM_CLUSTERS")
      Clusters = V;
    else if (Key == "NUM_BARRIERS")
      C.Barriers = V;
  }
  if (!HaveThreads || !HaveWarps) {
    Err = "'" + Path.str().str() +
          "' does not set VX_CFG_NUM_THREADS and VX_CFG_NUM_WARPS";
    return false;
  }
  C.Cores *= Clusters;
  C.Name =
      sys::path::filename(sys::path::remove_leading_dotslash(Dir.rtrim("/")))
          .str();
  return true;
}

bool tableVortexConfig(StringRef Name, VortexConfig &C) {
  const vortex::HWConfig *HW = vortex::lookupHWConfig(Name);
  if (!HW)
    return false;
  C.Threads = HW->Threads;
  C.Warps = HW->Warps;
  C.Cores = HW->Cores;
  C.LmemLogSize = HW->LmemLogSize;
  C.Barriers = HW->Barriers;
  C.Name = (Name + " (" + Twine(C.Warps) + " warps x " + Twine(C.Threads) +
            " threads, from VortexISA.td)")
               .str();
  return true;
}

bool isVortexModule(const Module &M) {
  Triple T(M.getTargetTriple());
  if (T.getArch() != Triple::riscv32)
    return false;
  return any_of(M, [](const Function &F) {
    return !F.isDeclaration() && vortex::isVortexFunction(F);
  });
}

/// True if RISC-V instruction selection turns a select of \p T in \p F
/// into a branch: there is no conditional move for FP registers (Zicond's
/// czero works on integer registers), so a select of a value held in an FP
/// register becomes a branch diamond (RISCVISelLowering's Select_FPR*
/// pseudos; `llc -mattr=+f,+zicond` shows `bnez` + `fmv.s`).
static bool selectIsBranch(const Function &F, Type *T) {
  StringRef Feat = F.getFnAttribute("target-features").getValueAsString();
  auto Has = [&](StringRef X) {
    SmallVector<StringRef, 64> Fs;
    Feat.split(Fs, ',');
    return is_contained(Fs, X);
  };
  return (T->isFloatTy() && Has("+f")) || (T->isDoubleTy() && Has("+d")) ||
         (T->isHalfTy() && Has("+zfh"));
}

void prepareVortexModule(Module &M, VortexSemantics S) {
  if (S != VortexSemantics::Hardware)
    return;
  SmallVector<SelectInst *, 16> FPSelects;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        I.dropPoisonGeneratingAnnotations();
        auto *Sel = dyn_cast<SelectInst>(&I);
        if (Sel && !Sel->getCondition()->getType()->isVectorTy() &&
            selectIsBranch(F, Sel->getType()))
          FPSelects.push_back(Sel);
      }
  // What the machine runs: a branch the warp's last active lane decides.
  for (SelectInst *Sel : FPSelects) {
    Instruction *Then, *Else;
    SplitBlockAndInsertIfThenElse(Sel->getCondition(), Sel->getIterator(),
                                  &Then, &Else);
    PHINode *Phi = PHINode::Create(Sel->getType(), 2, "", Sel->getIterator());
    Phi->addIncoming(Sel->getTrueValue(), Then->getParent());
    Phi->addIncoming(Sel->getFalseValue(), Else->getParent());
    Phi->takeName(Sel);
    Phi->setDebugLoc(Sel->getDebugLoc());
    Sel->replaceAllUsesWith(Phi);
    Sel->eraseFromParent();
  }
}

/// One record line: "kernel <name> <args_size> <args_align> <lmem_static>
/// <nparams>" or "param <index> <offset> <size>".
static bool readRecord(StringRef Line, std::vector<VortexKernelMeta> &Out) {
  SmallVector<StringRef, 6> F;
  Line.split(F, ' ', -1, false);
  if (F.empty() || F[0] == "var")
    return true;
  if (F[0] == "kernel" && F.size() == 6) {
    VortexKernelMeta K;
    unsigned N;
    K.Name = F[1].str();
    K.Demangled = demangle(K.Name);
    if (F[2].getAsInteger(10, K.ArgsSize) ||
        F[3].getAsInteger(10, K.ArgsAlign) ||
        F[4].getAsInteger(10, K.LmemStatic) || F[5].getAsInteger(10, N))
      return false;
    K.Params.resize(N);
    SmallVector<std::string, 8> Types = vortex::demangledParams(K.Name);
    if (Types.size() == N)
      for (unsigned I = 0; I < N; ++I)
        K.Params[I].Type = Types[I];
    Out.push_back(std::move(K));
    return true;
  }
  unsigned I;
  if (F[0] != "param" || F.size() != 4 || Out.empty() ||
      F[1].getAsInteger(10, I) || I >= Out.back().Params.size())
    return false;
  VortexParamMeta &P = Out.back().Params[I];
  return !F[2].getAsInteger(10, P.Offset) && !F[3].getAsInteger(10, P.Size);
}

bool readVortexMeta(const Module &M, std::vector<VortexKernelMeta> &Out,
                    std::string &Err) {
  const GlobalVariable *G =
      M.getGlobalVariable("__crosslane_vx_meta", /*AllowInternal=*/true);
  if (!G || !G->hasInitializer())
    return true;
  auto *D = dyn_cast<ConstantDataArray>(G->getInitializer());
  if (!D || !D->isString()) {
    Err = "@__crosslane_vx_meta is not a string";
    return false;
  }
  SmallVector<StringRef, 16> Lines;
  D->getAsString().rtrim('\0').split(Lines, '\n', -1, false);
  for (StringRef L : Lines)
    if (!readRecord(L.trim(), Out)) {
      Err = "malformed @__crosslane_vx_meta line '" + L.str() + "'";
      return false;
    }
  return true;
}

/// "kNested(int const*, int*, int)" and its kernels' names, for errors.
static std::string kernelList(ArrayRef<VortexKernelMeta> Ks) {
  std::string S;
  for (const VortexKernelMeta &K : Ks)
    S += "\n  " + K.Demangled +
         (K.Demangled != K.Name ? "  [" + K.Name + "]" : std::string());
  return S.empty() ? " (the module has no HIP kernel records)" : S;
}

Function *findVortexKernel(Module &M, StringRef Name, std::string &Err) {
  std::vector<VortexKernelMeta> Ks;
  if (!readVortexMeta(M, Ks, Err))
    return nullptr;
  std::vector<const VortexKernelMeta *> Hits;
  for (const VortexKernelMeta &K : Ks)
    if (K.Name == Name)
      Hits = {&K};
  // A demangled name, then a prefix of one (`kNested` for `kNested(...)`).
  for (int Pass = 0; Hits.empty() && Pass < 3; ++Pass)
    for (const VortexKernelMeta &K : Ks) {
      StringRef D = K.Demangled;
      if (Pass == 0   ? D == Name
          : Pass == 1 ? D.starts_with((Name + "(").str())
                      : D.starts_with(Name))
        Hits.push_back(&K);
    }
  if (Hits.size() == 1) {
    Function *F = M.getFunction((VortexEntryPrefix + Hits[0]->Name).str());
    if (F && !F->isDeclaration())
      return F;
    Err = "kernel '" + Hits[0]->Demangled + "' has no entry " +
          (VortexEntryPrefix + Hits[0]->Name).str() + " in the module";
    return nullptr;
  }
  if (Function *F = Name.empty() ? nullptr : M.getFunction(Name))
    if (!F->isDeclaration())
      return F;
  if (Name.empty())
    Err = "the module has " + std::to_string(Ks.size()) +
          " kernels: choose one with --kernel" + kernelList(Ks);
  else
    Err = std::string(Hits.empty() ? "no kernel matches '"
                                   : "several kernels match '") +
          Name.str() + "'; the module's kernels:" + kernelList(Ks);
  return nullptr;
}

bool packVortexArgs(const VortexKernelMeta &K, const LaunchConfig &C,
                    ArrayRef<uint64_t> BufAddr, std::vector<uint8_t> &Blob,
                    std::string &Err) {
  if (C.Args.size() != K.Params.size()) {
    std::string Types;
    for (const VortexParamMeta &P : K.Params)
      Types += (Types.empty() ? "" : ", ") +
               (P.Type.empty() ? std::to_string(P.Size) + " bytes" : P.Type);
    Err = "kernel '" + K.Demangled + "' takes " +
          std::to_string(K.Params.size()) + " parameter(s) (" + Types + "), " +
          std::to_string(C.Args.size()) + " --arg given";
    return false;
  }
  Blob.assign(K.ArgsSize, 0);
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const VortexParamMeta &P = K.Params[I];
    const KernelArg &A = C.Args[I];
    std::string Which = "parameter " + std::to_string(I) +
                        (P.Type.empty() ? "" : " (" + P.Type + ")") + " of '" +
                        K.Demangled + "'";
    if (!P.Type.empty() && A.IsBuffer && !P.isPointer()) {
      Err = Which + " is not a pointer but a buffer was given";
      return false;
    }
    if (!P.Type.empty() && !A.IsBuffer && A.Bits && P.isPointer()) {
      Err = Which + " is a pointer: give a buffer (or null)";
      return false;
    }
    if (P.Offset + P.Size > Blob.size() || P.Size > 8) {
      Err = Which + " lies outside the argument blob in the kernel meta";
      return false;
    }
    uint64_t V = A.IsBuffer ? BufAddr[A.Buffer] : A.Bits;
    std::memcpy(&Blob[P.Offset], &V, P.Size); // little-endian, like rv32
  }
  return true;
}

} // namespace exec
} // namespace crosslane
