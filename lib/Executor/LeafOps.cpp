//===- LeafOps.cpp - Scalar arithmetic on the engine's leaves -------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Scalar leaves: their types, float bit patterns to and from double, NaNs,
/// LLVM's float min/max semantics and float conversions.
///
//===----------------------------------------------------------------------===//

#include "LeafOps.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Type.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crosslane {
namespace exec {

const fltSemantics &semOf(LeafKind K) {
  switch (K) {
  case LeafKind::Half:
    return APFloat::IEEEhalf();
  case LeafKind::BFloat:
    return APFloat::BFloat();
  case LeafKind::Float:
    return APFloat::IEEEsingle();
  default:
    return APFloat::IEEEdouble();
  }
}

unsigned leafBits(Leaf L) {
  switch (L.K) {
  case LeafKind::Half:
  case LeafKind::BFloat:
    return 16;
  case LeafKind::Float:
    return 32;
  case LeafKind::Double:
    return 64;
  default:
    return L.Bits;
  }
}

Leaf scalarLeaf(Type *T, unsigned PtrBits) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    T = VT->getElementType();
  Leaf L;
  if (T->isHalfTy()) {
    L.K = LeafKind::Half;
  } else if (T->isBFloatTy()) {
    L.K = LeafKind::BFloat;
  } else if (T->isFloatTy()) {
    L.K = LeafKind::Float;
  } else if (T->isDoubleTy()) {
    L.K = LeafKind::Double;
  } else if (auto *PT = dyn_cast<PointerType>(T)) {
    L.K = LeafKind::Ptr;
    L.Bits = PtrBits;
    L.AS = PT->getAddressSpace();
  } else {
    L.K = LeafKind::Int;
    L.Bits = T->isIntegerTy() ? T->getIntegerBitWidth() : 64;
  }
  return L;
}

double leafToDouble(Leaf L, uint64_t Bits) {
  switch (L.K) {
  case LeafKind::Float: {
    float F;
    uint32_t B = (uint32_t)Bits;
    std::memcpy(&F, &B, 4);
    return F;
  }
  case LeafKind::Double: {
    double D;
    std::memcpy(&D, &Bits, 8);
    return D;
  }
  case LeafKind::Half:
  case LeafKind::BFloat: {
    // Exact: every half/bfloat value is a double.
    APFloat A(semOf(L.K), APInt(16, Bits & 0xFFFF));
    bool Lost;
    A.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
    return A.convertToDouble();
  }
  default:
    return (double)Bits;
  }
}

uint64_t doubleToLeaf(Leaf L, double D) {
  switch (L.K) {
  case LeafKind::Float: {
    float F = (float)D;
    uint32_t B;
    std::memcpy(&B, &F, 4);
    return B;
  }
  case LeafKind::Double: {
    uint64_t B;
    std::memcpy(&B, &D, 8);
    return B;
  }
  case LeafKind::Half:
  case LeafKind::BFloat: {
    APFloat A(D);
    bool Lost;
    A.convert(semOf(L.K), APFloat::rmNearestTiesToEven, &Lost);
    return A.bitcastToAPInt().getZExtValue();
  }
  default:
    return (uint64_t)D;
  }
}

bool leafIsNaN(Leaf L, uint64_t B) {
  switch (L.K) {
  case LeafKind::Float:
    return (B & 0x7F800000u) == 0x7F800000u && (B & 0x7FFFFFu);
  case LeafKind::Double:
    return (B & 0x7FF0000000000000ULL) == 0x7FF0000000000000ULL &&
           (B & 0xFFFFFFFFFFFFFULL);
  case LeafKind::Half:
    return (B & 0x7C00) == 0x7C00 && (B & 0x3FF);
  case LeafKind::BFloat:
    return (B & 0x7F80) == 0x7F80 && (B & 0x7F);
  default:
    return false;
  }
}

uint64_t quietNaN(Leaf L, uint64_t B) {
  switch (L.K) {
  case LeafKind::Float:
    return B | 0x400000u;
  case LeafKind::Double:
    return B | 0x8000000000000ULL;
  case LeafKind::Half:
    return B | 0x200;
  case LeafKind::BFloat:
    return B | 0x40;
  default:
    return B;
  }
}

uint64_t fMinMaxNum(Leaf L, uint64_t A, uint64_t B, bool Max) {
  bool NA = leafIsNaN(L, A), NB = leafIsNaN(L, B);
  if (NA && NB)
    return quietNaN(L, A);
  if (NA)
    return B;
  if (NB)
    return A;
  double X = leafToDouble(L, A), Y = leafToDouble(L, B);
  if (X == Y) { // ordering of signed zeros
    bool SA = A & signBit(L);
    return Max ? (SA ? B : A) : (SA ? A : B);
  }
  return (Max ? X > Y : X < Y) ? A : B;
}

uint64_t fMinMaxIEEE(Leaf L, uint64_t A, uint64_t B, bool Max) {
  if (leafIsNaN(L, A))
    return quietNaN(L, A);
  if (leafIsNaN(L, B))
    return quietNaN(L, B);
  return fMinMaxNum(L, A, B, Max);
}

uint64_t castFP(Leaf From, Leaf To, uint64_t V, RoundingMode RM) {
  if (From.K == To.K)
    return V;
  if (From.K == LeafKind::Float && To.K == LeafKind::Double)
    return doubleToLeaf(To, leafToDouble(From, V));
  // APFloat for correct single rounding.
  APFloat A(semOf(From.K), APInt(leafBits(From), V));
  bool Lost;
  A.convert(semOf(To.K), RM, &Lost);
  return A.bitcastToAPInt().getZExtValue();
}

uint64_t intToFP(uint64_t V, unsigned Bits, bool Signed, Leaf To,
                 RoundingMode RM) {
  APFloat A(semOf(To.K));
  A.convertFromAPInt(APInt(Bits, V & maskBits(Bits)), Signed, RM);
  return A.bitcastToAPInt().getZExtValue();
}

std::string typeName(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS, /*IsForDebug=*/false, /*NoDetails=*/true);
  return S;
}

bool isWideInt(const Type *T) {
  return T->isIntegerTy() && T->getIntegerBitWidth() > 64;
}

} // namespace exec
} // namespace crosslane
