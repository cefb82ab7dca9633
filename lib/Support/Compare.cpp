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

ICmpTester::ICmpTester(CmpInst::Predicate Pred, unsigned Bits)
    : Mask(maskTrailingOnes<uint64_t>(Bits)), Sign(0) {
  if (ICmpInst::isSigned(Pred)) {
    Sign = uint64_t(1) << (Bits - 1);
    Pred = ICmpInst::getUnsignedPredicate(Pred);
  }
  Relations = icmpRelations(Pred);
}

unsigned icmpRelations(CmpInst::Predicate Pred) {
  switch (Pred) {
  case CmpInst::ICMP_EQ:
    return 1;
  case CmpInst::ICMP_NE:
    return 2 | 4;
  case CmpInst::ICMP_UGT:
    return 2;
  case CmpInst::ICMP_UGE:
    return 2 | 1;
  case CmpInst::ICMP_ULT:
    return 4;
  case CmpInst::ICMP_ULE:
    return 4 | 1;
  default:
    return 0;
  }
}

bool evalFCmp(CmpInst::Predicate Pred, double X, double Y) {
  // A predicate's low four bits are the relations it holds on.
  return (Pred & relationOf(X, Y)) != 0;
}

double halfToDouble(uint64_t Bits) {
  APFloat H(APFloat::IEEEhalf(), APInt(16, Bits & 0xFFFF));
  bool LosesInfo;
  H.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &LosesInfo);
  return H.convertToDouble();
}

} // namespace crosslane
