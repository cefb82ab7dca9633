//===- Compare.cpp - icmp / fcmp on raw values ----------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/Compare.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace llvm;

namespace crosslane {

bool evalICmp(CmpInst::Predicate Pred, uint64_t A, uint64_t B, unsigned Bits) {
  uint64_t Mask = maskTrailingOnes<uint64_t>(Bits);
  A &= Mask;
  B &= Mask;
  // Flipping the sign bit maps the signed order onto the unsigned one.
  if (ICmpInst::isSigned(Pred)) {
    uint64_t Sign = uint64_t(1) << (Bits - 1);
    A ^= Sign;
    B ^= Sign;
    Pred = ICmpInst::getUnsignedPredicate(Pred);
  }
  switch (Pred) {
  case CmpInst::ICMP_EQ:
    return A == B;
  case CmpInst::ICMP_NE:
    return A != B;
  case CmpInst::ICMP_UGT:
    return A > B;
  case CmpInst::ICMP_UGE:
    return A >= B;
  case CmpInst::ICMP_ULT:
    return A < B;
  case CmpInst::ICMP_ULE:
    return A <= B;
  default:
    return false;
  }
}

bool evalFCmp(CmpInst::Predicate Pred, double X, double Y) {
  bool Uno = std::isnan(X) || std::isnan(Y);
  // A predicate with the U bit (8) holds on unordered operands; otherwise
  // its low three bits are the relation: 1 =, 2 >, 4 <.
  if (Uno)
    return (Pred & CmpInst::FCMP_UNO) != 0;
  unsigned Rel = X == Y ? 1 : X > Y ? 2 : 4;
  return (Pred & Rel) != 0;
}

double halfToDouble(uint64_t Bits) {
  APFloat H(APFloat::IEEEhalf(), APInt(16, Bits & 0xFFFF));
  bool LosesInfo;
  H.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &LosesInfo);
  return H.convertToDouble();
}

} // namespace crosslane
