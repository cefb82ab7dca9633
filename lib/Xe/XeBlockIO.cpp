//===- XeBlockIO.cpp - Validate Intel Xe 2D block IO ----------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Xe/XeBlockIO.h"
#include "BlockCalls.h"
#include "XeUniformity.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/Regex.h"
#include "llvm/TargetParser/Triple.h"

#define DEBUG_TYPE "crosslane-xe-block-io"

using namespace llvm;
using namespace crosslane::xe;

CROSSLANE_STATISTIC(NumValid, "Number of 2D block operations validated");
CROSSLANE_STATISTIC(NumErrors, "Number of 2D block rules broken");
CROSSLANE_STATISTIC(NumSplit,
                    "Number of 2D block operations split into legal pieces");

static cl::opt<std::string>
    XeChipOpt("crosslane-xe-chip",
              cl::desc("Intel chip the 2D block IO rules are checked for when "
                       "crosslane-xe-block-io has no chip= (pvc, bmg, lnl, "
                       "ptl, cri, dg2)"),
              cl::init("pvc"));

static cl::opt<bool> XeAssumeAlignedOpt(
    "crosslane-xe-assume-aligned-base",
    cl::desc("crosslane-xe-block-io trusts that 2D block bases are 64-byte "
             "aligned and x is aligned (as base=assume) instead of adding "
             "run-time guards"),
    cl::init(false));

static cl::opt<bool> XeLowerIGCOpt(
    "crosslane-xe-lower-igc",
    cl::desc("crosslane-xe-block-io lowers for Debian 12's IGC 1.0.12504 (as "
             "lower=igc): its flat 2D read builtins where it has one, "
             "per-lane accesses for other operations"),
    cl::init(false));

namespace crosslane {
namespace xe {
namespace {

std::optional<BlockOp> spirvOp(StringRef Base) {
  return StringSwitch<std::optional<BlockOp>>(Base)
      .Case("__spirv_Subgroup2DBlockLoadINTEL", BlockOp::Load)
      .Case("__spirv_Subgroup2DBlockLoadTransformINTEL", BlockOp::LoadTransform)
      .Case("__spirv_Subgroup2DBlockLoadTransposeINTEL", BlockOp::LoadTranspose)
      .Case("__spirv_Subgroup2DBlockPrefetchINTEL", BlockOp::Prefetch)
      .Case("__spirv_Subgroup2DBlockStoreINTEL", BlockOp::Store)
      .Default(std::nullopt);
}

/// The SPIR-V spelling: (ElemSize, W, H, C, [Src,] Base, Width, Height,
/// Pitch, Coord[, Dst]) (research/xe-block-io.md §1.2).
bool decodeSpirv(CallInst *CI, BlockOp Op, BlockCall &B) {
  unsigned N = Op == BlockOp::Prefetch ? 9 : 10;
  if (CI->arg_size() != N) {
    B.Malformed = (Twine("the SPIR-V spelling takes ") + Twine(N) +
                   " operands, this call has " + Twine(CI->arg_size()))
                      .str();
    return true;
  }
  unsigned *Fields[] = {&B.Shape.ElemBytes, &B.Shape.W, &B.Shape.H, &B.Shape.C};
  static const char *Names[] = {"element size", "block width", "block height",
                                "block count"};
  for (unsigned K = 0; K < 4; ++K) {
    auto *C = dyn_cast<ConstantInt>(CI->getArgOperand(K));
    if (!C) {
      B.NonConstant.push_back(Names[K]);
    } else if (C->isNegative()) {
      // The operands are signed: say so rather than print 2^32 - 1.
      B.Malformed = (Twine("the ") + Names[K] + " is " +
                     Twine(C->getSExtValue()) + "; it must be positive")
                        .str();
      return true;
    } else {
      *Fields[K] = unsigned(C->getLimitedValue(~0u));
    }
  }
  unsigned A = 4;
  if (Op == BlockOp::Store)
    B.Private = CI->getArgOperand(A++);
  B.BaseOp = A;
  B.Base = CI->getArgOperand(A++);
  B.Width = CI->getArgOperand(A++);
  B.Height = CI->getArgOperand(A++);
  B.Pitch = CI->getArgOperand(A++);
  B.Coord = CI->getArgOperand(A++);
  if (Op != BlockOp::Store && Op != BlockOp::Prefetch)
    B.Private = CI->getArgOperand(A++);
  return true;
}

/// The OpenCL spelling: intel_sub_group_2d_block_<op>_<bits>b_<H>r<W>x<C>c
/// (base, width, height, pitch, coord[, private]).
bool decodeOpenCL(CallInst *CI, StringRef Name, BlockCall &B) {
  static const Regex Re("^intel_sub_group_2d_block_(read_transform|read_"
                        "transpose|read|write|prefetch)_([0-9]+)b_([0-9]+)r(["
                        "0-9]+)x([0-9]+)c$");
  SmallVector<StringRef, 6> M;
  if (!Re.match(Name, &M))
    return false;
  B.Op = StringSwitch<BlockOp>(M[1])
             .Case("read_transform", BlockOp::LoadTransform)
             .Case("read_transpose", BlockOp::LoadTranspose)
             .Case("read", BlockOp::Load)
             .Case("write", BlockOp::Store)
             .Default(BlockOp::Prefetch);
  unsigned Bits = 0;
  M[2].getAsInteger(10, Bits);
  M[3].getAsInteger(10, B.Shape.H);
  M[4].getAsInteger(10, B.Shape.W);
  M[5].getAsInteger(10, B.Shape.C);
  B.Shape.ElemBytes = Bits % 8 ? 0 : Bits / 8;
  unsigned N = B.Op == BlockOp::Prefetch ? 5 : 6;
  if (CI->arg_size() != N) {
    B.Malformed = (Twine("the OpenCL function takes ") + Twine(N) +
                   " arguments, this call has " + Twine(CI->arg_size()))
                      .str();
    return true;
  }
  B.Base = CI->getArgOperand(0);
  B.Width = CI->getArgOperand(1);
  B.Height = CI->getArgOperand(2);
  B.Pitch = CI->getArgOperand(3);
  B.Coord = CI->getArgOperand(4);
  if (N == 6)
    B.Private = CI->getArgOperand(5);
  B.OpenCLName = true;
  return true;
}

} // namespace

StringRef defaultXeChip() { return XeChipOpt; }

std::optional<BlockCall> decodeBlockCall(CallInst *CI) {
  Function *Callee = CI->getCalledFunction();
  if (!Callee)
    return std::nullopt;
  StringRef Name = demangledBase(Callee->getName());
  BlockCall B;
  B.CI = CI;
  if (std::optional<BlockOp> Op = spirvOp(Name)) {
    B.Op = *Op;
    if (!decodeSpirv(CI, *Op, B))
      return std::nullopt;
    return B;
  }
  if (Name.starts_with("intel_sub_group_2d_block_") &&
      decodeOpenCL(CI, Name, B))
    return B;
  return std::nullopt;
}

namespace {

/// Checks one function's 2D block calls for one chip.
class Validator {
public:
  /// With no \p ORE the validator is quiet: no remarks, no errors (a copy
  /// of a body checked where it runs), but it still splits and collects.
  Validator(Function &F, const XeChip &Chip, OptimizationRemarkEmitter *ORE,
            const PostDominatorTree &PDT, AssumptionCache &AC,
            const DominatorTree &DT, bool AssumeAlignedBase)
      : F(F), Chip(Chip), ORE(ORE), U(F, PDT), AC(AC), DT(DT),
        AssumeAlignedBase(AssumeAlignedBase) {}
  bool run(ArrayRef<BlockCall> Calls);
  /// The calls that broke no rule.
  SmallVector<BlockCall, 8> Valid;
  /// Valid calls of a shape this 2D chip lacks and cannot split, which
  /// another chip has: for per-lane accesses.
  SmallVector<BlockCall, 4> PerLane;

private:
  Function &F;
  const XeChip &Chip;
  OptimizationRemarkEmitter *ORE;
  XeUniformity U;
  AssumptionCache &AC;
  const DominatorTree &DT;
  bool AssumeAlignedBase;
  unsigned Broken = 0;

  void error(const BlockCall &B, const Twine &Rule);
  void missed(const BlockCall &B, StringRef Name, const Twine &Why);
  std::string describe(const BlockCall &B) const;
  unsigned subgroupSize(const BlockCall &B, bool &Changed);
  void checkShapeRules(const BlockCall &B, unsigned SG,
                       std::optional<SplitPlan> &Split, bool &Lacks);
  bool split(const BlockCall &B, const SplitPlan &P, unsigned SG);
  void remarkValid(const BlockCall &B, unsigned SG);
  void checkGeometry(const BlockCall &B);
  void checkBase(const BlockCall &B);
  void checkPrivate(const BlockCall &B, unsigned SG);
  /// The shapes the chip's operations take: without 2D block hardware the
  /// per-lane fallback runs any shape the extension defines, and the first
  /// 2D chip's table bounds them (a shape beyond it is split as there).
  const XeChip &shapeTable() const {
    return Chip.Has2DBlock ? Chip : *lookupXeChip("pvc");
  }
  void checkUniform(const BlockCall &B);
};

std::string Validator::describe(const BlockCall &B) const {
  return describeBlock(B.Op, B.Shape);
}

void Validator::error(const BlockCall &B, const Twine &Rule) {
  ++Broken;
  if (!ORE)
    return;
  ++NumErrors;
  std::string Text = ("crosslane-xe-block-io: " + describe(B) + " on " +
                      Chip.Name + ": " + Rule)
                         .str();
  DebugLoc Loc = userDebugLoc(B.CI);
  if (!Loc)
    Text += " (the call's own line is shown with -gline-tables-only)";
  F.getContext().diagnose(DiagnosticInfoUnsupported(F, Text, Loc));
}

void Validator::missed(const BlockCall &B, StringRef Name, const Twine &Why) {
  if (ORE)
    ORE->emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, Name, userDebugLoc(B.CI),
                                      B.CI->getParent())
             << describe(B) << " on " << Chip.Name << ": " << Why.str();
    });
}

/// The kernel's required subgroup size; a kernel without one gets 16.
unsigned Validator::subgroupSize(const BlockCall &B, bool &Changed) {
  // (clang copies a kernel's attribute to its body's copy.)
  if (MDNode *MD = F.getMetadata("intel_reqd_sub_group_size"))
    if (MD->getNumOperands() == 1)
      if (auto *C = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0)))
        return unsigned(C->getZExtValue());
  if (F.getCallingConv() != CallingConv::SPIR_KERNEL) {
    missed(B, "SubgroupSizeUnknown",
           "in a function that is not a kernel: the kernel's subgroup size "
           "(16) is assumed, not checked");
    return 16;
  }
  LLVMContext &Ctx = F.getContext();
  MDNode *Sixteen = MDNode::get(Ctx, ConstantAsMetadata::get(ConstantInt::get(
                                         Type::getInt32Ty(Ctx), 16)));
  F.setMetadata("intel_reqd_sub_group_size", Sixteen);
  // clang's copy of a kernel's body (-O0): the kernel gets it too.
  StringRef Name = F.getName();
  if (Name.consume_front("__clang_ocl_kern_imp_"))
    if (Function *K = F.getParent()->getFunction(Name))
      K->setMetadata("intel_reqd_sub_group_size", Sixteen);
  Changed = true;
  if (ORE)
    ORE->emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "SubgroupSizeSet",
                                userDebugLoc(B.CI), B.CI->getParent())
             << "kernel '" << F.getName()
             << "' gets intel_reqd_sub_group_size(16): 2D block operations "
                "need a known subgroup size";
    });
  return 16;
}

/// The shape rules; a shape the chip lacks that splits into pieces it has
/// is not an error: \p Split receives the plan. Nor is one another chip
/// has (the latest generation's table holds every other chip's shapes), on a 2D
/// chip with subgroups of 16: \p Lacks is set, for per-lane accesses.
void Validator::checkShapeRules(const BlockCall &B, unsigned SG,
                                std::optional<SplitPlan> &Split, bool &Lacks) {
  std::string Rule = checkShape(shapeTable(), B.Op, B.Shape, SG);
  if (Rule.empty())
    return;
  auto *CoordTy = dyn_cast<FixedVectorType>(B.Coord->getType());
  if (CoordTy && CoordTy->getNumElements() == 2 &&
      CoordTy->getElementType()->isIntegerTy())
    Split = planSplit(shapeTable(), B.Op, B.Shape, SG);
  if (Split)
    return;
  const XeChip *Widest = widestXeChip();
  Lacks = SG == 16 && Widest && checkShape(*Widest, B.Op, B.Shape, SG).empty();
  if (Lacks && Chip.Has2DBlock && B.Private &&
      (Split = planWidthSplit(shapeTable(), B.Op, B.Shape, SG))) {
    Lacks = false;
    return;
  }
  // Blocks Xe2 would split off that are then split by their width here
  // (split() does the second step).
  if (!Lacks && Widest && B.Private && CoordTy)
    if (std::optional<SplitPlan> Blocks = planSplit(*Widest, B.Op, B.Shape, SG))
      if (planWidthSplit(shapeTable(), B.Op, Blocks->Piece, SG)) {
        Split = Blocks;
        return;
      }
  if (!Lacks)
    error(B, Rule);
  else
    missed(B, "ShapeLacking",
           Rule + ": " + Chip.Name + " lacks this shape (" + Widest->Name +
               " has it); lowered to per-lane " +
               (B.Op == BlockOp::Store      ? "stores"
                : B.Op == BlockOp::Prefetch ? "accesses: dropped"
                                            : "loads"));
}

/// Replaces \p B by the pieces of \p P, which join the valid calls.
bool Validator::split(const BlockCall &B, const SplitPlan &P, unsigned SG) {
  ++NumSplit;
  if (ORE)
    ORE->emit([&] {
      BlockCall Piece = B;
      Piece.Shape = P.Piece;
      return OptimizationRemark(DEBUG_TYPE, "Split", userDebugLoc(B.CI),
                                B.CI->getParent())
             << describe(B) << " on " << Chip.Name << " split into "
             << ore::NV("Pieces", P.Pieces) << " x "
             << describe(Piece).substr(strlen("2D block ")) << " ("
             << checkShape(shapeTable(), B.Op, B.Shape, SG) << ")"
             << (P.Columns > 1 ? ", each lane's dwords put back in the wide "
                                 "load's order"
                               : "");
    });
  for (CallInst *CI : splitBlockCall(B, P))
    if (std::optional<BlockCall> Piece = decodeBlockCall(CI)) {
      // A piece's x is x plus whole blocks: x's alignment carries over.
      Piece->BaseAlign = B.BaseAlign;
      Piece->XA = B.XA;
      if (!CI->isConvergent())
        CI->setConvergent();
      // A piece of a shape only Xe2 has: split again, by its width.
      if (!checkShape(shapeTable(), Piece->Op, Piece->Shape, SG).empty())
        if (std::optional<SplitPlan> Width =
                planWidthSplit(shapeTable(), Piece->Op, Piece->Shape, SG)) {
          split(*Piece, *Width, SG);
          continue;
        }
      Valid.push_back(*Piece);
    }
  return true;
}

void Validator::remarkValid(const BlockCall &B, unsigned SG) {
  uint64_t Bytes = laneBytes(B.Op, B.Shape, SG);
  if (ORE)
    ORE->emit([&] {
      OptimizationRemark R(DEBUG_TYPE, "Valid", userDebugLoc(B.CI),
                           B.CI->getParent());
      R << "valid " << describe(B) << " on " << Chip.Name << " (subgroup "
        << ore::NV("SubgroupSize", SG) << ")";
      if (Bytes)
        R << ": each lane " << (B.Op == BlockOp::Store ? "writes " : "gets ")
          << ore::NV("LaneBytes", Bytes) << " bytes";
      if (!isGuaranteed(B.Op, B.Shape))
        R << "; not a shape OpenCL guarantees on every device with "
             "cl_intel_subgroup_2d_block_io";
      return R;
    });
}

/// The constant value of \p V, if any.
static std::optional<uint64_t> constant(Value *V) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getZExtValue();
  return std::nullopt;
}

void Validator::checkGeometry(const BlockCall &B) {
  for (auto [V, What] : {std::pair<Value *, const char *>{B.Width, "width"},
                         {B.Height, "height"},
                         {B.Pitch, "pitch"}})
    if (!V->getType()->isIntegerTy(32))
      error(B, Twine("the surface ") + What +
                   " must be a 32-bit integer (OpenCL environment)");
  auto *VT = dyn_cast<FixedVectorType>(B.Coord->getType());
  if (!VT || VT->getNumElements() != 2 ||
      !VT->getElementType()->isIntegerTy(32))
    error(B, "the coordinate must be a vector of two 32-bit integers");
  std::optional<uint64_t> W = constant(B.Width), P = constant(B.Pitch),
                          H = constant(B.Height);
  unsigned Es = B.Shape.ElemBytes;
  std::string Rule;
  if (W && !(Rule = checkWidth(*W, Es)).empty())
    error(B, Rule + " (it is " + Twine(*W) + ")");
  if (H && !(Rule = checkHeight(*H)).empty())
    error(B, Rule + " (it is " + Twine(*H) + ")");
  if (P && !(Rule = checkPitch(*P)).empty())
    error(B, Rule + " (it is " + Twine(*P) + ")");
  if (W && P && !(Rule = checkPitchVsWidth(*P, *W)).empty())
    error(B, Rule + " (pitch " + Twine(*P) + ", width " + Twine(*W) + ")");
  uint64_t Residue = 0;
  XAlign XA = xAlignment(B, &AC, &DT, &Residue);
  if (XA == XAlign::Broken)
    error(B, checkX(1, Es) + " (x is " + Twine(Residue) + " modulo " +
                 Twine(Es == 1 ? 4 : 2) + ")");
  else if (XA == XAlign::Unproven && AssumeAlignedBase)
    missed(B, "XAlignmentUnproven",
           checkX(1, Es) + ": not proven for this x; the caller must "
                           "guarantee it");
}

void Validator::checkBase(const BlockCall &B) {
  auto *PT = dyn_cast<PointerType>(B.Base->getType());
  if (!PT || PT->getAddressSpace() != 1) {
    error(B, "the base must be a global (CrossWorkgroup, addrspace(1)) "
             "pointer");
    return;
  }
  const DataLayout &DL = F.getDataLayout();
  KnownBits K = computeKnownBits(B.Base, DL, &AC, B.CI, &DT);
  APInt Low = APInt::getLowBitsSet(K.getBitWidth(), 6);
  // A base known to be misaligned is a mistake worth an error even though
  // normalisation could serve it; an unproven one is normalised at run
  // time (BaseAlignment.cpp) unless the user vouches for it.
  if ((K.One & Low) != 0)
    error(B, "the base address must be 64-byte aligned (it is " +
                 Twine((K.One & Low).getZExtValue()) + " modulo 64)");
  else if (AssumeAlignedBase && B.BaseAlign < 64)
    missed(B, "BaseAlignmentUnproven",
           "the base address must be 64-byte aligned, which is not proven "
           "here (known alignment " +
               Twine(B.BaseAlign) + " bytes); the caller must guarantee it");
}

void Validator::checkPrivate(const BlockCall &B, unsigned SG) {
  if (!B.Private)
    return;
  auto *PT = dyn_cast<PointerType>(B.Private->getType());
  if (!PT || PT->getAddressSpace() != 0) {
    error(B, "the per-lane buffer must be private (Function storage, "
             "addrspace(0))");
    return;
  }
  uint64_t Need = laneBytes(B.Op, B.Shape, SG);
  const DataLayout &DL = F.getDataLayout();
  auto *AI = dyn_cast<AllocaInst>(privateObject(B.Private));
  std::optional<TypeSize> Size = AI ? AI->getAllocationSize(DL) : std::nullopt;
  if (!Size || Size->isScalable())
    return;
  // The constant offset into it, also through -O0's pointer slots.
  APInt Off(DL.getIndexTypeSizeInBits(PT), 0);
  const Value *Stripped =
      B.Private->stripAndAccumulateConstantOffsets(DL, Off, true);
  for (unsigned Depth = 0; Stripped != AI && Depth < 4; ++Depth) {
    const Value *Stored = slotValue(Stripped);
    if (!Stored || Stored->getType() != B.Private->getType())
      return;
    Stripped = Stored->stripAndAccumulateConstantOffsets(DL, Off, true);
  }
  if (Stripped != AI)
    return;
  int64_t Have = int64_t(Size->getFixedValue()) - Off.getSExtValue();
  if (Off.isNegative() || Have <= 0) {
    error(B, "the per-lane buffer pointer is " + Twine(Off.getSExtValue()) +
                 " bytes into a " + Twine(Size->getFixedValue()) +
                 "-byte private buffer, outside it");
    return;
  }
  if (uint64_t(Have) < Need)
    error(B,
          "the per-lane buffer holds " + Twine(Have) + " bytes but each lane " +
              (B.Op == BlockOp::Store ? "writes " : "receives ") + Twine(Need));
}

void Validator::checkUniform(const BlockCall &B) {
  const Instruction *Branch = nullptr;
  Lanes C = U.control(B.CI->getParent(), &Branch);
  if (C == Lanes::Divergent) {
    std::string At;
    if (DebugLoc L = userDebugLoc(Branch))
      At = (" (the branch at line " + Twine(L.getLine()) + ")").str();
    error(B, "the whole subgroup must execute it in uniform control flow, but "
             "it is under a branch on a value that differs between lanes" +
                 At);
  } else if (C == Lanes::Unknown) {
    missed(B, "UniformityUnproven",
           "uniform control flow is not proven: a branch here depends on "
           "this function's arguments");
  }
  for (auto [V, What] : {std::pair<Value *, const char *>{B.Base, "base"},
                         {B.Width, "width"},
                         {B.Height, "height"},
                         {B.Pitch, "pitch"},
                         {B.Coord, "coordinate"}}) {
    Lanes L = U.of(V);
    if (L == Lanes::Divergent)
      error(B, Twine("the ") + What +
                   " must be the same in every lane of the subgroup, but it "
                   "is computed from a work-item id (or private memory)");
    else if (L == Lanes::Unknown)
      missed(B, "UniformityUnproven",
             Twine("the ") + What +
                 " comes from this function's arguments: its uniformity "
                 "is not proven");
  }
}

bool Validator::run(ArrayRef<BlockCall> Calls) {
  bool Changed = false;
  for (BlockCall B : Calls) {
    unsigned Before = Broken;
    CROSSLANE_DEBUG(dbgs() << "crosslane-xe-block-io: " << *B.CI << "\n");
    if (!B.Malformed.empty()) {
      error(B, B.Malformed);
      continue;
    }
    if (!B.NonConstant.empty()) {
      error(B, "the element size, block width, height and count must be "
               "compile-time constants (the " +
                   join(B.NonConstant, ", ") + " is not)");
      continue;
    }
    unsigned SG = subgroupSize(B, Changed);
    if (SG != 16 && (SG != 32 || B.OpenCLName)) {
      error(B, Twine(B.OpenCLName ? "cl_intel_subgroup_2d_block_io functions "
                                    "need a subgroup size of 16"
                                  : "2D block operations need a subgroup size "
                                    "of 16 (or 32)") +
                   " (the kernel requires " + Twine(SG) + ")");
      continue;
    }
    if (!Chip.Has2DBlock && SG != 16)
      error(B, Twine(Chip.Name) +
                   " has no 2D block hardware, and its "
                   "per-lane fallback needs a subgroup size of "
                   "16 (the kernel requires " +
                   Twine(SG) + ")");
    std::optional<SplitPlan> Split;
    bool Lacks = false;
    checkShapeRules(B, SG, Split, Lacks);
    // Alignment facts for the guards, while the dominator tree is valid.
    if (B.Base->getType()->isPointerTy())
      B.BaseAlign = provenBaseAlign(B, &AC, &DT);
    B.XA = xAlignment(B, &AC, &DT);
    checkBase(B);
    checkGeometry(B);
    checkPrivate(B, SG);
    checkUniform(B);
    // Code motion must not move a subgroup operation across control flow.
    if (!B.CI->isConvergent()) {
      B.CI->setConvergent();
      B.CI->getCalledFunction()->setConvergent();
      Changed = true;
    }
    if (Broken != Before)
      continue;
    ++NumValid;
    if (Split) {
      Changed |= split(B, *Split, SG);
      continue;
    }
    if (Lacks) {
      PerLane.push_back(B);
      continue;
    }
    if (SG == 16)
      Valid.push_back(B);
    else if (B.BaseAlign < 64 || B.XA == XAlign::Unproven)
      missed(B, "AlignmentUnguarded",
             Twine(B.BaseAlign < 64 ? "the base is not proven 64-byte aligned"
                                    : "x is not proven a multiple of " +
                                          Twine(4 / B.Shape.ElemBytes)) +
                 " and nothing checks it at run time: the guard's per-lane "
                 "fallback runs subgroups of 16, and this kernel requires " +
                 Twine(SG) + " (the hardware ignores the base's low 6 bits)");
    remarkValid(B, SG);
  }
  return Changed;
}

} // namespace
} // namespace xe

PreservedAnalyses XeBlockIOPass::run(Function &F,
                                     FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !Triple(F.getParent()->getTargetTriple()).isSPIRV())
    return PreservedAnalyses::all();
  // clang's OpenCL copy of a kernel's body: reported once, where the body
  // runs (in the kernel once inlined, at -O1 and up; in the copy at -O0),
  // but split and lowered in both, so the module holds no shape the chip
  // lacks.
  bool Quiet = false;
  StringRef Name = F.getName();
  if (Name.consume_front("__clang_ocl_kern_imp_"))
    if (Function *K = F.getParent()->getFunction(Name))
      Quiet = K->getCallingConv() == CallingConv::SPIR_KERNEL &&
              none_of(F.users(), [&](const User *U) {
                const auto *CB = dyn_cast<CallBase>(U);
                return CB && CB->getFunction() == K;
              });
  auto Collect = [&] {
    SmallVector<BlockCall, 8> Calls;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I))
          if (std::optional<BlockCall> B = xe::decodeBlockCall(CI))
            Calls.push_back(*B);
    return Calls;
  };
  SmallVector<BlockCall, 8> Calls = Collect();
  if (Calls.empty()) {
    // The tile API's hint wrapper has no definition: it goes, with or
    // without a 2D operation to carry the hint.
    if (!xe::stripCacheHints(F))
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }
  noteStatisticsCounted();
  StringRef ChipName = Opts.Chip.empty() ? StringRef(XeChipOpt) : Opts.Chip;
  const XeChip *Chip = lookupXeChip(ChipName);
  if (!Chip) {
    // Once per module, not once per function with block calls.
    static const Module *ReportedFor = nullptr;
    if (!Quiet && ReportedFor != F.getParent()) {
      ReportedFor = F.getParent();
      F.getContext().diagnose(DiagnosticInfoGeneric(
          Twine("crosslane-xe-block-io: unknown chip '") + ChipName +
              "' (known: " + xeChipNames() + ")",
          DS_Error));
    }
    return PreservedAnalyses::all();
  }
  OptimizationRemarkEmitter *ORE =
      Quiet ? nullptr : &FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  bool Assume = Opts.AssumeAlignedBase || XeAssumeAlignedOpt;
  bool LowerIGC = Opts.LowerIGC || XeLowerIGCOpt;
  bool Hinted = xe::peelCacheHints(F, *Chip, LowerIGC, ORE);
  if (Hinted)
    Calls = Collect();
  xe::Validator V(F, *Chip, ORE, PDT, AC, DT, Assume);
  bool Changed = V.run(Calls) || Hinted;
  // The per-lane fallback's stores and the alignment guards are branches:
  // new blocks.
  if (!Chip->Has2DBlock && xe::lowerToPlainAccesses(V.Valid, ORE, Chip->Name))
    return PreservedAnalyses::none();
  // (Reported by the validator.)
  for (const xe::BlockCall &B : V.PerLane) {
    xe::expandToPlainAccesses(B);
    B.CI->eraseFromParent();
  }
  bool NewBlocks =
      LowerIGC && xe::lowerWithoutIGCBuiltin(V.Valid, ORE, Chip->Name);
  if (!Opts.AssumeAlignedBase)
    NewBlocks |= xe::guardAlignment(V.Valid, ORE, Chip->Name);
  if (LowerIGC)
    Changed |= xe::lowerToIGCFlatReads(V.Valid, ORE, Chip->Name);
  Changed |= xe::applyCacheHints(F, *Chip, ORE);
  if (NewBlocks || !V.PerLane.empty())
    return PreservedAnalyses::none();
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

void XeBlockIOPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << MapClassName2PassName(name());
  SmallVector<std::string, 2> Params;
  if (!Opts.Chip.empty())
    Params.push_back("chip=" + Opts.Chip);
  if (Opts.LowerIGC)
    Params.push_back("lower=igc");
  if (Opts.AssumeAlignedBase)
    Params.push_back("base=assume");
  if (!Params.empty())
    OS << "<" << join(Params, ";") << ">";
}

Expected<XeBlockIOOptions> parseXeBlockIOOptions(StringRef Params) {
  XeBlockIOOptions Opts;
  while (!Params.empty()) {
    StringRef P;
    std::tie(P, Params) = Params.split(';');
    if (P == "lower=igc") {
      Opts.LowerIGC = true;
      continue;
    }
    if (P == "base=assume") {
      Opts.AssumeAlignedBase = true;
      continue;
    }
    if (P.consume_front("chip=") && lookupXeChip(P)) {
      Opts.Chip = P.str();
      continue;
    }
    return make_error<StringError>(
        formatv("invalid crosslane-xe-block-io parameter '{0}' (expected "
                "chip=NAME with NAME one of {1}, lower=igc or base=assume)",
                P, xeChipNames())
            .str(),
        inconvertibleErrorCode());
  }
  return Opts;
}

} // namespace crosslane
