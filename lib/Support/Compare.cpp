//===- Compare.cpp - icmp / fcmp on raw values ----------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/Compare.h"

#include <cmath>

using namespace llvm;

namespace crosslane {

bool evalICmp(CmpInst::Predicate Pred, uint64_t A, uint64_t B, unsigned Bits) {
  uint64_t Mask = Bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
  uint64_t UA = A & Mask, UB = B & Mask;
  unsigned Shift = 64 - (Bits >= 64 ? 64 : Bits);
  int64_t SA = int64_t(UA << Shift) >> Shift,
          SB = int64_t(UB << Shift) >> Shift;
  switch (Pred) {
  case CmpInst::ICMP_EQ:
    return UA == UB;
  case CmpInst::ICMP_NE:
    return UA != UB;
  case CmpInst::ICMP_UGT:
    return UA > UB;
  case CmpInst::ICMP_UGE:
    return UA >= UB;
  case CmpInst::ICMP_ULT:
    return UA < UB;
  case CmpInst::ICMP_ULE:
    return UA <= UB;
  case CmpInst::ICMP_SGT:
    return SA > SB;
  case CmpInst::ICMP_SGE:
    return SA >= SB;
  case CmpInst::ICMP_SLT:
    return SA < SB;
  case CmpInst::ICMP_SLE:
    return SA <= SB;
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

} // namespace crosslane
