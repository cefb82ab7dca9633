//===- VortexLanes.cpp - Vortex warp primitives for subgroup expansion ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "VortexLanes.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"

using namespace llvm;

namespace crosslane {
namespace subgroup {

Value *buildVortexBfly(IRBuilderBase &B, Value *Word, unsigned M,
                       unsigned KnownWarpSize, bool OperandInRegister) {
  // Operand (alu_unit.cpp): b = bits 5:0, c = bits 11:6, segment mask =
  // bits 17:12. With mask 0 the segment is the warp and the source lane
  // L ^ b is taken when it is <= c, so c = warp size - 1 (a 12-bit
  // immediate for warps up to 32 lanes).
  unsigned Lanes = KnownWarpSize ? KnownWarpSize : VortexMaxWarpSize;
  if (Lanes <= M)
    Lanes = 2 * M;
  // The operand is loaded inside the asm (vortex::splitLoadPrefix): held in
  // a register, LLVM hoists each step's constant out of loops, and five of
  // them beside the lanes-off path's loop push a warp-sum loop's values
  // into callee-saved registers. Without that path, the hand-written
  // butterfly's form (the constants hoisted) is the cheaper one.
  unsigned Operand = ((Lanes - 1) << 6) | M;
  if (OperandInRegister)
    return vortex::emitAsm(
        B, B.getInt32Ty(), {Word, B.getInt32(Operand)},
        vortex::insnAsm(vortex::insn("vx_shfl_bfly"), "$0", "$1", "$2"),
        "=r,r,r", true);
  return vortex::emitAsm(
      B, B.getInt32Ty(), {Word, B.getInt32(Operand)},
      "li $0, $2\n\t" +
          vortex::insnAsm(vortex::insn("vx_shfl_bfly"), "$0", "$1", "$0"),
      "=&r,r,i", true);
}

Value *buildVortexShflIdx(IRBuilderBase &B, Value *Word, Value *Src) {
  // Segment mask 0 and c = 31: lane b of the warp (alu_unit.cpp IDX).
  Value *Operand = B.CreateOr(Src, B.getInt32(31 << 6));
  return vortex::emitAsm(
      B, B.getInt32Ty(), {Word, Operand},
      vortex::insnAsm(vortex::insn("vx_shfl_idx"), "$0", "$1", "$2"), "=r,r,r",
      true);
}

} // namespace subgroup
} // namespace crosslane
