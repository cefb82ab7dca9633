//===- Compare.h - icmp / fcmp on raw values --------------------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LLVM's compare predicates evaluated on plain integers and doubles, for
/// the code that runs IR without APInt/APFloat in its inner loop: the wave
/// executor (every lane of every compare) and the recogniser's proofs (every
/// representative pair of a combine).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_COMPARE_H
#define CROSSLANE_SUPPORT_COMPARE_H

#include "llvm/IR/InstrTypes.h"

#include <cstdint>

namespace crosslane {

/// The relation of \p X to \p Y as the bit a compare predicate tests: 1
/// equal, 2 greater, 4 less, 8 unordered (an fcmp predicate is the set of
/// relations it holds on). Without branches, so row loops vectorize.
template <typename T> inline unsigned relationOf(T X, T Y) {
  return unsigned(X == Y) | unsigned(X > Y) << 1 | unsigned(X < Y) << 2 |
         unsigned(X != X || Y != Y) << 3;
}

/// The relations (1 =, 2 >, 4 <) an unsigned or equality icmp predicate
/// holds on (0 for any other predicate).
unsigned icmpRelations(llvm::CmpInst::Predicate Pred);

/// `icmp Pred` on \p Bits-bit (1 to 64) values, decoded once for testing
/// many pairs: flipping the sign bit maps a signed order onto the unsigned
/// one.
class ICmpTester {
public:
  ICmpTester(llvm::CmpInst::Predicate Pred, unsigned Bits);
  bool operator()(uint64_t A, uint64_t B) const {
    return (Relations & relationOf((A & Mask) ^ Sign, (B & Mask) ^ Sign)) != 0;
  }

private:
  uint64_t Mask, Sign;
  unsigned Relations;
};

/// `icmp Pred` on the low \p Bits (1 to 64) bits of \p A and \p B.
inline bool evalICmp(llvm::CmpInst::Predicate Pred, uint64_t A, uint64_t B,
                     unsigned Bits) {
  return ICmpTester(Pred, Bits)(A, B);
}

/// `fcmp Pred` on \p X and \p Y. f16 and f32 values are exact as doubles,
/// and the IEEE relations are the same, so one routine serves all widths.
bool evalFCmp(llvm::CmpInst::Predicate Pred, double X, double Y);

/// The IEEE half-precision value with bit pattern \p Bits (low 16 bits),
/// exactly, as a double.
double halfToDouble(uint64_t Bits);

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_COMPARE_H
