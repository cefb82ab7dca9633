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

/// `icmp Pred` on the low \p Bits (1 to 64) bits of \p A and \p B.
bool evalICmp(llvm::CmpInst::Predicate Pred, uint64_t A, uint64_t B,
              unsigned Bits);

/// `fcmp Pred` on \p X and \p Y. f16 and f32 values are exact as doubles,
/// and the IEEE relations are the same, so one routine serves all widths.
bool evalFCmp(llvm::CmpInst::Predicate Pred, double X, double Y);

/// The IEEE half-precision value with bit pattern \p Bits (low 16 bits),
/// exactly, as a double.
double halfToDouble(uint64_t Bits);

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_COMPARE_H
