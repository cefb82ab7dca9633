//===- CacheHints.cpp - The tile API's cache hints as cache controls ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// block_io.h's *_CACHED operations pass the surface's base through
// __crosslane_xe_cache_controls(base, L1, L3), a function nothing defines:
// clang keeps the call, its constants and the call's line at every
// optimisation level. crosslane-xe-block-io checks the pair against the
// operation that uses the base, moves it onto that operation as metadata
// (which the operation's clones and split pieces keep) and removes the
// call; at the end it decorates what is left of each operation.
//
// The controls are SPV_INTEL_cache_controls' (level 0 is L1, level 1 the
// last-level cache, L3). The pairs a chip takes are the ones its load and
// store messages can encode: IGC's LSC_LDCC and LSC_STCC enumerations
// (visa_igc_common_header.h), the same on Xe-HPC and Xe2.
//
//===----------------------------------------------------------------------===//

#include "BlockCalls.h"
#include "XeUniformity.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "crosslane-xe-block-io"

namespace crosslane {
namespace xe {

namespace {

constexpr StringLiteral HintFunction = "__crosslane_xe_cache_controls";

/// SPV_INTEL_cache_controls' decorations and their controls.
constexpr unsigned LoadDecoration = 6442, StoreDecoration = 6443;
constexpr const char *LoadControls[] = {
    "uncached", "cached", "streaming", "invalidate-after-read", "const-cached"};
constexpr const char *StoreControls[] = {"uncached", "write-through",
                                         "write-back", "streaming"};

/// The (L1, L3) pairs LSC messages encode (LSC_LDCC_L1UC_L3UC ... and
/// LSC_STCC_...), in the extension's numbering.
constexpr std::pair<unsigned, unsigned> LoadPairs[] = {
    {0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 1}};
constexpr std::pair<unsigned, unsigned> StorePairs[] = {
    {0, 0}, {0, 2}, {1, 0}, {1, 2}, {3, 0}, {3, 2}, {2, 2}};

bool isStore(BlockOp Op) { return Op == BlockOp::Store; }

CallInst *hintCall(Value *V) {
  auto *CI = dyn_cast<CallInst>(V->stripPointerCasts());
  Function *Fn = CI ? CI->getCalledFunction() : nullptr;
  if (!Fn || CI->arg_size() != 3 ||
      demangledBase(Fn->getName()) != HintFunction)
    return nullptr;
  return CI;
}

std::string controlName(BlockOp Op, int64_t C) {
  if (isStore(Op))
    return C >= 0 && size_t(C) < std::size(StoreControls) ? StoreControls[C]
                                                          : std::to_string(C);
  return C >= 0 && size_t(C) < std::size(LoadControls) ? LoadControls[C]
                                                       : std::to_string(C);
}

std::string pairName(BlockOp Op, int64_t L1, int64_t L3) {
  return "L1 " + controlName(Op, L1) + ", L3 " + controlName(Op, L3);
}

/// Why (L1, L3) is not a pair \p Op takes, or empty.
std::string checkPair(BlockOp Op, int64_t L1, int64_t L3) {
  ArrayRef<std::pair<unsigned, unsigned>> Pairs =
      isStore(Op) ? ArrayRef(StorePairs) : ArrayRef(LoadPairs);
  if (any_of(Pairs, [&](auto P) {
        return int64_t(P.first) == L1 && int64_t(P.second) == L3;
      }))
    return "";
  std::string Allowed;
  for (auto [A, B] : Pairs)
    Allowed += (Allowed.empty() ? "" : "; ") + pairName(Op, A, B);
  return "the cache controls " + pairName(Op, L1, L3) + " are not a pair " +
         (isStore(Op) ? "a store" : "a load or prefetch") +
         " message encodes (" + Allowed + ")";
}

class Peeler {
public:
  Peeler(Function &F, const XeChip &Chip, bool LowerIGC,
         OptimizationRemarkEmitter *ORE)
      : F(F), Chip(Chip), LowerIGC(LowerIGC), ORE(ORE) {}
  bool run();

private:
  Function &F;
  const XeChip &Chip;
  bool LowerIGC;
  OptimizationRemarkEmitter *ORE;

  void error(const BlockCall &B, const Twine &Rule);
  void peel(const BlockCall &B, CallInst *Hint);
};

void Peeler::error(const BlockCall &B, const Twine &Rule) {
  if (!ORE)
    return;
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F,
      "crosslane-xe-block-io: " + describeBlock(B.Op, B.Shape) + " on " +
          Chip.Name + ": " + Rule,
      userDebugLoc(B.CI)));
}

void Peeler::peel(const BlockCall &B, CallInst *Hint) {
  B.CI->setArgOperand(B.BaseOp, Hint->getArgOperand(0));
  auto *L1 = dyn_cast<ConstantInt>(Hint->getArgOperand(1));
  auto *L3 = dyn_cast<ConstantInt>(Hint->getArgOperand(2));
  if (!L1 || !L3)
    return error(B, "cache controls must be compile-time constants (the " +
                        Twine(!L1 ? "L1" : "L3") + " control is not)");
  int64_t C1 = L1->getSExtValue(), C3 = L3->getSExtValue();
  if (std::string Why = checkPair(B.Op, C1, C3); !Why.empty())
    return error(B, Why);
  if (!Chip.Has2DBlock || LowerIGC) {
    if (ORE)
      ORE->emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "CacheControlsDropped",
                                        userDebugLoc(B.CI), B.CI->getParent())
               << describeBlock(B.Op, B.Shape) << " on " << Chip.Name
               << ": cache controls " << pairName(B.Op, C1, C3) << " dropped: "
               << (LowerIGC ? "with lower=igc no 2D operation carries them"
                            : "per-lane accesses carry none");
      });
    return;
  }
  LLVMContext &Ctx = F.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  B.CI->setMetadata(
      CacheControlsMD,
      MDNode::get(Ctx, {ConstantAsMetadata::get(ConstantInt::get(I32, C1)),
                        ConstantAsMetadata::get(ConstantInt::get(I32, C3))}));
}

bool Peeler::run() {
  SmallVector<CallInst *, 8> Hints;
  for (Instruction &I : instructions(F))
    if (CallInst *H = hintCall(&I); H && H == &I)
      Hints.push_back(H);
  if (Hints.empty())
    return false;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (std::optional<BlockCall> B = decodeBlockCall(CI))
        if (B->Malformed.empty() && B->BaseOp < CI->arg_size())
          if (CallInst *H = hintCall(CI->getArgOperand(B->BaseOp)))
            peel(*B, H);
  for (CallInst *H : Hints)
    if (!H->use_empty() && ORE)
      ORE->emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "CacheControlsUnused",
                                        userDebugLoc(H), H->getParent())
               << "cache controls not applied: the hinted pointer is not "
                  "the base of a 2D block operation";
      });
  stripCacheHints(F);
  return true;
}

/// "{6442:\"0,L1\"}{6442:\"1,L3\"}" as a module string in \p AS.
Constant *annotation(Module &M, unsigned Decoration, uint64_t L1, uint64_t L3,
                     unsigned AS) {
  std::string Text = ("{" + Twine(Decoration) + ":\"0," + Twine(L1) + "\"}{" +
                      Twine(Decoration) + ":\"1," + Twine(L3) + "\"}")
                         .str();
  std::string Name = ("crosslane.xe.cache." + Twine(Decoration) + "." +
                      Twine(L1) + "." + Twine(L3))
                         .str();
  if (GlobalVariable *G = M.getNamedGlobal(Name))
    return G;
  Constant *Init = ConstantDataArray::getString(M.getContext(), Text);
  auto *G = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                               GlobalValue::PrivateLinkage, Init, Name, nullptr,
                               GlobalValue::NotThreadLocal, AS);
  G->setSection("llvm.metadata");
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return G;
}

} // namespace

bool peelCacheHints(Function &F, const XeChip &Chip, bool LowerIGC,
                    OptimizationRemarkEmitter *ORE) {
  return Peeler(F, Chip, LowerIGC, ORE).run();
}

bool stripCacheHints(Function &F) {
  SmallVector<CallInst *, 8> Hints;
  for (Instruction &I : instructions(F))
    if (CallInst *H = hintCall(&I); H && H == &I)
      Hints.push_back(H);
  for (CallInst *H : Hints) {
    H->replaceAllUsesWith(H->getArgOperand(0));
    H->eraseFromParent();
  }
  return !Hints.empty();
}

bool applyCacheHints(Function &F, const XeChip &Chip,
                     OptimizationRemarkEmitter *ORE) {
  SmallVector<CallInst *, 8> Hinted;
  for (Instruction &I : instructions(F))
    if (I.getMetadata(CacheControlsMD))
      Hinted.push_back(cast<CallInst>(&I));
  Module &M = *F.getParent();
  for (CallInst *CI : Hinted) {
    MDNode *MD = CI->getMetadata(CacheControlsMD);
    CI->setMetadata(CacheControlsMD, nullptr);
    std::optional<BlockCall> B = decodeBlockCall(CI);
    if (!B || !B->Malformed.empty())
      continue;
    uint64_t
        L1 = mdconst::extract<ConstantInt>(MD->getOperand(0))->getZExtValue(),
        L3 = mdconst::extract<ConstantInt>(MD->getOperand(1))->getZExtValue();
    IRBuilder<> Bld(CI);
    Value *Base = B->Base;
    auto *PtrTy = cast<PointerType>(Base->getType());
    // A pointer of its own, so that the decoration is this operation's
    // (the back end decorates the value the annotation wraps).
    Value *Own = Bld.Insert(GetElementPtrInst::CreateInBounds(
        Bld.getInt8Ty(), Base, {Bld.getInt64(0)}, "crosslane.xe.cached"));
    unsigned AS = PtrTy->getAddressSpace();
    Constant *Text = annotation(
        M, isStore(B->Op) ? StoreDecoration : LoadDecoration, L1, L3, AS);
    auto *TextTy = cast<PointerType>(Text->getType());
    Value *None = ConstantPointerNull::get(TextTy);
    Value *Annotated =
        Bld.CreateIntrinsic(Intrinsic::ptr_annotation, {PtrTy, TextTy},
                            {Own, Text, None, Bld.getInt32(0), None});
    CI->setArgOperand(B->BaseOp, Annotated);
    if (ORE)
      ORE->emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "CacheControls", userDebugLoc(CI),
                                  CI->getParent())
               << describeBlock(B->Op, B->Shape) << " on " << Chip.Name
               << ": cache controls " << pairName(B->Op, L1, L3)
               << " (SPV_INTEL_cache_controls)";
      });
  }
  return !Hinted.empty();
}

} // namespace xe
} // namespace crosslane
