//===- SubgroupExpander.h - crosslane-expand-subgroup internals -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The expander behind crosslane-expand-subgroup, shared by its three
/// files: ExpandSubgroup.cpp (the pass, validation, the calls),
/// ExpansionBuilders.cpp (reductions and arg-compare over a butterfly) and
/// ExpansionSteps.cpp (the lane-exchange steps per target and active-lane
/// safety). Internal to lib/SubgroupReduce.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_SUBGROUPREDUCE_SUBGROUPEXPANDER_H
#define CROSSLANE_LIB_SUBGROUPREDUCE_SUBGROUPEXPANDER_H

#include "VortexLanes.h"
#include "crosslane/CodeGen/RelaxNaNGuard.h"
#include "crosslane/SubgroupReduce/ExpandSubgroup.h"
#include "crosslane/SubgroupReduce/SubgroupOps.h"
#include "crosslane/Support/ChipInfo.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Support/OpenCLBuiltins.h"
#include "crosslane/Support/RemarkCoalescer.h"
#include "crosslane/Support/SourceLocation.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace crosslane {
namespace expand {

using namespace llvm;
using namespace subgroup;

// DPP control encodings (dpp_ctrl field). Source: LLVM's
// llvm/docs/AMDGPUModifierSyntax.rst ("DPP16 Modifiers") and the DppCtrl enum
// of llvm/lib/Target/AMDGPU/SIDefines.h; AMD "Vega ISA" / "RDNA ISA" manuals,
// section "DPP". Row = 16 lanes, bank = 4 lanes.
enum DppCtrl : unsigned {
  DppQuadPermXor1 = 0xB1,   ///< quad_perm:[1,0,3,2]
  DppQuadPermXor2 = 0x4E,   ///< quad_perm:[2,3,0,1]
  DppRowShl0 = 0x100,       ///< row_shl:n = 0x100 + n
  DppRowShr0 = 0x110,       ///< row_shr:n = 0x110 + n
  DppRowMirror = 0x140,     ///< lane j of a row reads 15 - j
  DppRowHalfMirror = 0x141, ///< lane j reads 8*(j/8) + 7 - j%8
  DppRowBcast15 = 0x142,    ///< GFX8/9: lane 15 of the previous row
  DppRowBcast31 = 0x143,    ///< GFX8/9: lane 31, rows 2 and 3
  DppRowXMask0 = 0x160,     ///< GFX10+: row_xmask:n reads lane j xor n
};
constexpr unsigned FullMask = 0xF;

/// How one butterfly step (partner = lane xor M) is served.
enum class StepKind {
  Dpp,            ///< one DPP move (fusable into v_<op>_dpp)
  DppPair,        ///< row_shl + row_shr under complementary bank masks
  PermLaneX16,    ///< v_permlanex16_b32 (GFX10+)
  PermLane64,     ///< v_permlane64_b32 (GFX11+ wave64)
  Swap16,         ///< v_permlane16_swap (GFX950)
  Swap32,         ///< v_permlane32_swap (GFX950)
  Swizzle,        ///< ds_swizzle bit mode (LDS crossbar, every chip)
  BPermute,       ///< ds_bpermute (GFX8/9 wave-wide)
  ReadlanePair,   ///< readlane 0 / readlane 32: uniform halves
  ReadlaneGather, ///< readlane per residue + select (no cross-half insn)
  VortexBfly,     ///< vx_shfl_bfly (Vortex, every lane active)
  VortexGather,   ///< vx_shfl_idx from the partner's first active lane
  XeShuffleXor,   ///< sub_group_shuffle_xor (Intel Xe, whole subgroups)
};

struct Step {
  StepKind Kind;
  unsigned Ctrl = 0; ///< Dpp
  const char *Name;
};

/// The value to reduce in the working domain: 16-bit types widen to 32 bits
/// (sext/zext for integers, fpext for floats); 32/64-bit types stay.
struct Domain {
  ReduceOp Op;
  ElemType Ty;
  Type *SrcTy;
  Type *WorkTy;
};

/// True for functions of a spirv64 module (Intel Xe).
bool isXeFunction(const Function &F);

class SubgroupExpander {
public:
  SubgroupExpander(Function &F, const ChipInfo &Chip,
                   OptimizationRemarkEmitter &ORE,
                   const ExpandSubgroupOptions &Opts,
                   FunctionAnalysisManager &FAM, IntrinsicDeclCache &Decls)
      : F(F), Chip(Chip), ORE(ORE), Remarks(F, ORE), Opts(Opts), FAM(FAM),
        Decls(Decls), Ctx(F.getContext()),
        IsVortex(vortex::isVortexFunction(F)), IsXe(isXeFunction(F)),
        VortexLanes(IsVortex ? vortex::knownWarpSize(F) : 0) {}

  bool run();

private:
  Function &F;
  const ChipInfo &Chip;
  OptimizationRemarkEmitter &ORE;
  /// Expansion remarks, one per distinct remark with the copies counted.
  RemarkCoalescer Remarks;
  const ExpandSubgroupOptions &Opts;
  FunctionAnalysisManager &FAM;
  /// The pass's declarations, kept across the module's functions.
  IntrinsicDeclCache &Decls;
  LLVMContext &Ctx;
  /// Vortex code: warp shuffles; VortexLanes is 0 when the warp size is
  /// only known at run time. Where the active lanes are not known to be the
  /// whole warp, the call branches (uniformly) between butterfly steps for
  /// a full warp and gather steps (VortexGather) for any other lane set.
  bool IsVortex;
  /// Intel Xe (spirv64) code: OpenCL subgroup shuffles, for calls that run
  /// with the whole subgroup (the subgroup size is the kernel's
  /// intel_reqd_sub_group_size).
  bool IsXe;
  unsigned VortexLanes;
  bool VortexGather = false;
  /// Vortex: the current call runs in a whole-warp launch's copy without a
  /// lanes-off path, so its shuffle operands may live in registers
  /// (buildVortexBfly, subgroup::WholeWarpLaunchMD).
  bool VortexOperandsInRegisters = false;
  /// The current call's thread mask, lane index and warp size; inside a
  /// gather loop, the partner subtree's first active lane and whether it
  /// has one.
  Value *VortexMask = nullptr, *VortexLane = nullptr, *VortexNT = nullptr;
  Value *GatherSrc = nullptr, *GatherAny = nullptr;
  SmallVector<CallInst *, 8> ComparatorCalls;
  /// Each user comparator's straight-line copy (purifyComparator); erased
  /// once inlined.
  DenseMap<Function *, Function *> PureComparators;
  std::string Seq; ///< description of the current expansion for remarks
  bool UsedFallback = false;
  /// The current call promises no NaN inputs (nnan call-site flag or
  /// "no-nans-fp-math"): NaN handling is skipped.
  bool NoNaNs = false;

  // Call handlers.
  void expandReduce(CallInst *CI, const OpName &N);
  void expandArg(CallInst *CI, const OpName &N);
  CallInst *returnDirectly(CallInst *CI);
  void expandWaveReduce(IntrinsicInst *II);
  void diagnose(CallInst *CI, const Twine &Msg);
  void diagnoseXePartial(CallInst *CI);
  void remarkExpanded(CallInst *CI, StringRef What);

  // Validation.
  Type *getLLVMType(ElemType T) const;
  bool checkCluster(CallInst *CI, unsigned ArgNo, unsigned &Cluster,
                    unsigned &Stride);
  bool checkComparator(CallInst *CI, Value *V, Type *Ty, Function *&Cmp);
  Function *purifyComparator(Function *Cmp);
  void inlineComparators();
  static bool canCoerce(Type *From, Type *To);

  // Builders.
  bool needsWWM(CallInst *CI, unsigned Cluster) const;
  Value *buildLaneId(IRBuilder<> &B);
  /// Lanes per Vortex warp (read at run time when not known).
  Value *vortexNumThreads(IRBuilder<> &B);
  /// Builds the result of \p CI with \p Build: on Vortex, when the lanes
  /// may not be the whole warp, twice behind a uniform branch on the thread
  /// mask (butterfly steps for a full warp, gather steps otherwise).
  Value *buildForActiveLanes(CallInst *CI, bool Partial,
                             function_ref<Value *(IRBuilder<> &)> Build);
  /// The gather steps M = Stride, 2 Stride, ... < Cluster * Stride as a
  /// loop (one step's values live at a time): \p Body updates \p Vals
  /// (loop-carried) with GatherSrc/GatherAny set for step \p M.
  void emitGatherLoop(
      IRBuilder<> &B, unsigned Cluster, unsigned Stride,
      MutableArrayRef<Value *> Vals,
      function_ref<void(IRBuilder<> &, Value *M, MutableArrayRef<Value *>)>
          Body);
  Value *buildReduce(IRBuilder<> &B, Value *V, ReduceOp Op, ElemType Ty,
                     unsigned Cluster, unsigned Stride, bool WWM);
  Value *buildSteps(IRBuilder<> &B, Value *W, const Domain &D, unsigned Cluster,
                    unsigned Stride);
  Value *buildGFX9BcastChain(IRBuilder<> &B, Value *W, const Domain &D);
  Value *buildCombine(IRBuilder<> &B, const Domain &D, Value *A, Value *C);
  Value *toWork(IRBuilder<> &B, Value *V, const Domain &D);
  Value *fromWork(IRBuilder<> &B, Value *V, const Domain &D);
  Constant *getIdentity(const Domain &D);
  Value *restoreZeroSign(IRBuilder<> &B, Value *V, Value *Idx, Value *RV,
                         Value *RI, unsigned Cluster, unsigned Stride);
  Value *buildClusterAny(IRBuilder<> &B, Value *Cond, unsigned Cluster,
                         unsigned Stride);
  Value *buildCustomArg(IRBuilder<> &B, Value *V, Value *Idx, Function *Cmp,
                        unsigned Cluster, unsigned Stride, bool WWM,
                        Value *&OutIdx);
  Value *buildHybridArg(IRBuilder<> &B, Value *V, Value *Idx, ReduceOp Op,
                        ElemType Ty, ElemType IdxTy, NaNPolicy NaN,
                        unsigned Cluster, unsigned Stride, bool WWM,
                        Value *&OutIdx);
  Domain makeDomain(IRBuilder<> &B, ReduceOp Op, ElemType Ty) const;

  // Butterfly steps.
  Step chooseStep(unsigned M, bool Contiguous);
  /// chooseStep, plus the statistics and sequence log of the step taken.
  Step takeStep(unsigned M, bool Contiguous);
  std::pair<Value *, Value *> buildXorStep(IRBuilder<> &B, Value *V, unsigned M,
                                           unsigned Stride, const Step &S);
  std::pair<Value *, Value *> buildXorStepWord(IRBuilder<> &B, Value *W,
                                               unsigned M, unsigned Stride,
                                               const Step &S);
  /// B.CreateIntrinsic with the declaration from Decls (an expansion emits
  /// dozens of calls to a few intrinsics; naming and finding the
  /// declaration is most of CreateIntrinsic's cost).
  CallInst *callIntrinsic(IRBuilder<> &B, Intrinsic::ID ID,
                          ArrayRef<Type *> Tys, ArrayRef<Value *> Args);
  /// B.CreateBinaryIntrinsic through callIntrinsic's declarations; \p FMF,
  /// when given, replaces the builder's flags.
  Value *binaryIntrinsic(IRBuilder<> &B, Intrinsic::ID ID, Value *A, Value *C,
                         std::optional<FastMathFlags> FMF = std::nullopt);
  Value *buildDpp(IRBuilder<> &B, Value *Old, Value *W, unsigned Ctrl,
                  unsigned RowMask, unsigned BankMask, bool BoundCtrl);
  void addSeq(StringRef S) {
    if (!Seq.empty() && !StringRef(Seq).ends_with(": "))
      Seq += ", ";
    Seq += S.str();
  }
};

/// The declaration a call names. A call site whose type differs from the
/// declaration's (two modules' declarations linked together, or the
/// recogniser's call next to crosslane.h's) has no getCalledFunction() but
/// is still a direct call; its own operand and result types are what the
/// expansion checks and uses.
inline Function *calledDeclaration(const CallBase *CB) {
  return dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
}

/// Widens the bits \p I (fewer than 32) to the 32-bit word a lane move or
/// strict.wwm takes; the caller truncates the result, so the high bits are
/// free. A sign extension is one instruction (v_bfe_i32) that defines the
/// whole register. A zero extension on true16 targets (gfx11) is a register
/// built from two halves, the high one a shared v_mov 0; the coalescer then
/// joins it with the user's own zero extensions, and LLVM 22's
/// SIWholeQuadMode pulls the user's code into whole-wave mode
/// (see buildClusterAny).
inline Value *widenWord(IRBuilder<> &B, Value *I) {
  return B.CreateSExt(I, B.getInt32Ty());
}

/// Marks a lane move as Crosslane's own (ExpandedLaneMoveMD).
inline Value *markExpanded(Value *Move) {
  if (auto *I = dyn_cast<Instruction>(Move))
    I->setMetadata(ExpandedLaneMoveMD, MDNode::get(I->getContext(), {}));
  return Move;
}

inline bool isFPMinMax(ReduceOp Op) { return isFloatOnly(Op); }
inline bool isMaxLike(ReduceOp Op) {
  return Op == ReduceOp::FMax || Op == ReduceOp::FMaximum;
}

} // namespace expand
} // namespace crosslane

#endif // CROSSLANE_LIB_SUBGROUPREDUCE_SUBGROUPEXPANDER_H
