//===- IGCFlatReads.cpp - 2D block reads as IGC 1.0.12504's builtins ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Debian 12's offline compiler (ocloc 22.43, IGC 1.0.12504) rejects the
// SPV_INTEL_2d_block_io opcodes and leaves cl_intel_subgroup_2d_block_io
// calls unresolved, but it has eleven 2D read builtins of its own
// (IGCBiF_Intrinsics.cl; research/xe-referees.md §1.3):
//
//   __builtin_IB_subgroup_block_read_flat_u8_m{1,2,4,8}k32v2   d8  W32 C2
//   __builtin_IB_subgroup_block_read_flat_u16_m{1,2,4,8}k16v2  d16 W16 C2
//   __builtin_IB_subgroup_block_read_flat_transform_u8_k32     d8  VNNI W16 H32
//   __builtin_IB_subgroup_block_read_flat_transform_u16_k16    d16 VNNI W16 H16
//   __builtin_IB_subgroup_block_read_flat_transpose_u32_k8     d32 transposed
//   W8 H16
//
// with operands (i64 base, width - 1, height - 1, pitch - 1, int2 coord)
// and the block in the lane's vector: element k of lane i is word k * 16 +
// i of the registers the message writes. That is the spec's layout when a
// block fills whole 64-byte registers, so the one-row C2 shapes (a 32-byte
// block, which the hardware pads to a register) are left alone.
//
// It has no 2D store or prefetch, so every other operation becomes the
// per-lane accesses of PlainFallback.cpp (prefetches are dropped) before
// the alignment guards run: the module it gets holds no 2D operation it
// cannot compile (subgroups of 16; those of 32 keep theirs).
//
//===----------------------------------------------------------------------===//

#include "BlockCalls.h"
#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <cstring>

using namespace llvm;

namespace crosslane {
namespace xe {

namespace {
struct FlatRead {
  std::string Name;
  unsigned Lanes;   ///< elements per lane
  unsigned EltBits; ///< 16 (ushort) or 32 (uint)
};
} // namespace

/// IGC's builtin for \p Op of \p S on 16 lanes, if it has one.
static std::optional<FlatRead> flatRead(BlockOp Op, const BlockShape &S) {
  const std::string P = "__builtin_IB_subgroup_block_read_flat_";
  unsigned H = S.H;
  switch (Op) {
  case BlockOp::Load:
    if (S.C != 2 || (H != 2 && H != 4 && H != 8))
      return std::nullopt;
    if (S.ElemBytes == 1 && S.W == 32)
      return FlatRead{P + "u8_m" + std::to_string(H) + "k32v2", 2 * H, 16};
    if (S.ElemBytes == 2 && S.W == 16)
      return FlatRead{P + "u16_m" + std::to_string(H) + "k16v2", 2 * H, 16};
    return std::nullopt;
  case BlockOp::LoadTransform:
    if (S.C == 1 && S.W == 16 && S.ElemBytes == 1 && H == 32)
      return FlatRead{P + "transform_u8_k32", 8, 32};
    if (S.C == 1 && S.W == 16 && S.ElemBytes == 2 && H == 16)
      return FlatRead{P + "transform_u16_k16", 8, 32};
    return std::nullopt;
  case BlockOp::LoadTranspose:
    if (S.C == 1 && S.W == 8 && S.ElemBytes == 4 && H == 16)
      return FlatRead{P + "transpose_u32_k8", 8, 32};
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

static std::string shapeName(const BlockCall &B) {
  return describeBlock(B.Op, B.Shape).substr(strlen("2D block "));
}

/// The call of \p R replacing \p B: the result is stored to the buffer.
static void replace(const BlockCall &B, const FlatRead &R) {
  CallInst *CI = B.CI;
  Module &M = *CI->getModule();
  IRBuilder<> Bld(CI);
  auto *VTy = FixedVectorType::get(Bld.getIntNTy(R.EltBits), R.Lanes);
  Type *I32 = Bld.getInt32Ty();
  FunctionCallee Fn = M.getOrInsertFunction(
      R.Name,
      FunctionType::get(
          VTy, {Bld.getInt64Ty(), I32, I32, I32, FixedVectorType::get(I32, 2)},
          false));
  if (auto *F = dyn_cast<Function>(Fn.getCallee())) {
    F->setCallingConv(CallingConv::SPIR_FUNC);
    F->setConvergent();
  }
  auto Minus1 = [&](Value *V) { return Bld.CreateSub(V, Bld.getInt32(1)); };
  CallInst *New = Bld.CreateCall(
      Fn, {Bld.CreatePtrToInt(B.Base, Bld.getInt64Ty()), Minus1(B.Width),
           Minus1(B.Height), Minus1(B.Pitch), B.Coord});
  New->setCallingConv(CallingConv::SPIR_FUNC);
  New->setConvergent();
  New->setDebugLoc(CI->getDebugLoc());
  Bld.CreateAlignedStore(New, B.Private, Align(B.Shape.ElemBytes));
  CI->eraseFromParent();
}

static StringRef missingBuiltin(BlockOp Op) {
  switch (Op) {
  case BlockOp::Store:
    return "IGC 1.0.12504 has no 2D block store";
  case BlockOp::Prefetch:
    return "IGC 1.0.12504 has no 2D block prefetch";
  default:
    return "IGC 1.0.12504 has no flat 2D read builtin of this shape";
  }
}

bool lowerWithoutIGCBuiltin(SmallVectorImpl<BlockCall> &Valid,
                            OptimizationRemarkEmitter *ORE, StringRef Chip) {
  bool Changed = false;
  auto Lowered = [&](const BlockCall &B) {
    if (flatRead(B.Op, B.Shape))
      return false;
    if (ORE)
      ORE->emit([&] {
        OptimizationRemarkMissed R("crosslane-xe-block-io", "NoIGCBuiltin",
                                   userDebugLoc(B.CI), B.CI->getParent());
        R << "2D block " << shapeName(B) << " on " << Chip << ": "
          << missingBuiltin(B.Op);
        if (B.Op == BlockOp::Prefetch)
          return R << ": dropped (a prefetch has no effect on results)";
        return R << ": lowered to per-lane "
                 << (B.Op == BlockOp::Store ? "stores" : "loads");
      });
    expandToPlainAccesses(B);
    B.CI->eraseFromParent();
    Changed = true;
    return true;
  };
  erase_if(Valid, Lowered);
  return Changed;
}

bool lowerToIGCFlatReads(ArrayRef<BlockCall> Valid,
                         OptimizationRemarkEmitter *ORE, StringRef Chip) {
  bool Changed = false;
  for (const BlockCall &B : Valid) {
    std::optional<FlatRead> R = flatRead(B.Op, B.Shape);
    // lowerWithoutIGCBuiltin reported the others.
    if (!R)
      continue;
    std::string What = shapeName(B);
    if (ORE)
      ORE->emit([&] {
        return OptimizationRemark("crosslane-xe-block-io", "IGCFlatRead",
                                  userDebugLoc(B.CI), B.CI->getParent())
               << "2D block " << What << " on " << Chip << " lowered to "
               << R->Name;
      });
    replace(B, *R);
    Changed = true;
  }
  return Changed;
}

} // namespace xe
} // namespace crosslane
