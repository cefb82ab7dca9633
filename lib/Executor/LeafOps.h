//===- LeafOps.h - Scalar arithmetic on the engine's leaves -----*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Helpers on single scalar leaves (bit patterns of integers, half, bfloat,
/// float, double) shared by the engine's files: widths and masks, sign
/// extension, NaN handling, float arithmetic through the host, IEEE and
/// LLVM min/max, float-to-float conversion. The public ones
/// (leafToDouble, doubleToLeaf, leafIsNaN, scalarLeaf) are declared in
/// crosslane/Executor/Engine.h for the target models.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_EXECUTOR_LEAFOPS_H
#define CROSSLANE_LIB_EXECUTOR_LEAFOPS_H

#include "crosslane/Executor/Engine.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Instructions.h"

#include <cstring>
#include <string>

namespace llvm {
class Type;
} // namespace llvm

namespace crosslane {
namespace exec {

/// The APFloat semantics of a float leaf kind (double for the others).
const llvm::fltSemantics &semOf(LeafKind K);

/// Bits of a leaf: 16/32/64 for floats, the width for integers/pointers.
unsigned leafBits(Leaf L);

inline uint64_t maskBits(unsigned Bits) {
  return Bits >= 64 ? ~0ULL : ((1ULL << Bits) - 1);
}

inline int64_t sext(uint64_t V, unsigned Bits) {
  if (Bits >= 64)
    return (int64_t)V;
  return (int64_t)(V << (64 - Bits)) >> (64 - Bits);
}

/// Sets the quiet bit of a NaN bit pattern.
uint64_t quietNaN(Leaf L, uint64_t B);

/// What atomicrmw \p Op stores where memory holds \p Old and the operand
/// is \p V (a leaf of type \p LT, \p Bits wide); clears \p Known for
/// operations that are not modelled (Memory.cpp).
uint64_t atomicRMWValue(llvm::AtomicRMWInst::BinOp Op, Leaf LT, unsigned Bits,
                        uint64_t Old, uint64_t V, bool &Known);

inline uint64_t signBit(Leaf L) { return 1ULL << (leafBits(L) - 1); }

/// Float arithmetic on leaves of kind K (half/bfloat through float: exact,
/// since float has >= 2p+2 bits for both). A NaN operand gives that NaN,
/// quieted, the first one if both are (as APFloat folds it): left to the
/// host, which NaN survives would depend on how the compiler that built
/// the executor ordered the operands (a sanitizer build showed it).
template <typename FnF, typename FnD>
uint64_t fpBinary(Leaf L, uint64_t A, uint64_t B, FnF OpF, FnD OpD) {
  if (leafIsNaN(L, A))
    return quietNaN(L, A);
  if (leafIsNaN(L, B))
    return quietNaN(L, B);
  if (L.K == LeafKind::Double) {
    double X, Y;
    std::memcpy(&X, &A, 8);
    std::memcpy(&Y, &B, 8);
    double R = OpD(X, Y);
    uint64_t Bits;
    std::memcpy(&Bits, &R, 8);
    return Bits;
  }
  float X, Y;
  if (L.K == LeafKind::Float) {
    uint32_t A32 = A, B32 = B;
    std::memcpy(&X, &A32, 4);
    std::memcpy(&Y, &B32, 4);
  } else {
    X = (float)leafToDouble(L, A);
    Y = (float)leafToDouble(L, B);
  }
  float R = OpF(X, Y);
  if (L.K == LeafKind::Float) {
    uint32_t Bits;
    std::memcpy(&Bits, &R, 4);
    return Bits;
  }
  return doubleToLeaf(L, R);
}

/// IEEE-754 maxNum/minNum as LLVM's llvm.maxnum/minnum: a NaN operand yields
/// the other operand; -0 < +0 is honoured for determinism.
uint64_t fMinMaxNum(Leaf L, uint64_t A, uint64_t B, bool Max);

/// llvm.maximum/minimum: NaN propagating, -0 < +0.
uint64_t fMinMaxIEEE(Leaf L, uint64_t A, uint64_t B, bool Max);

/// One step of llvm.vector.reduce.<op> (\p IID) on integer leaves of
/// \p Bits, and on float leaves of kind \p L (Intrinsics.cpp).
uint64_t reduceIntStep(unsigned IID, uint64_t A, uint64_t B, unsigned Bits);
uint64_t reduceFPStep(unsigned IID, Leaf L, uint64_t A, uint64_t B);

/// Float-to-float conversion (fptrunc/fpext), correctly rounded in
/// rounding mode \p RM (IEEE 754: an overflow rounded toward zero, or away
/// from the overflow's infinity, gives the largest finite value).
uint64_t castFP(Leaf From, Leaf To, uint64_t V,
                llvm::RoundingMode RM = llvm::RoundingMode::NearestTiesToEven);

/// The \p Bits-bit integer \p V, \p Signed or not, as a float of kind
/// \p To, correctly rounded in rounding mode \p RM.
uint64_t intToFP(uint64_t V, unsigned Bits, bool Signed, Leaf To,
                 llvm::RoundingMode RM);

/// \p T as LLVM prints it, for messages.
std::string typeName(llvm::Type *T);

/// An integer of more than 64 bits (two leaves up to 128 bits).
bool isWideInt(const llvm::Type *T);

} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_LIB_EXECUTOR_LEAFOPS_H
