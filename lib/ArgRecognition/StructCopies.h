//===- StructCopies.h - Copies of a struct chosen by a select ---*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A combine that takes its pairs by `const&` and returns one of them
/// (`return better(a, b) ? b : a;`, thrust/hipCUB style) copies the chosen
/// struct out of a select of two stack slots: `memcpy(dst, select(c, &a,
/// &b), sizeof)`. InstCombine turns copies of up to 8 bytes into one load,
/// which SROA speculates through the select; a larger struct (`{float,
/// int64}`: 16 bytes with padding) stays a memcpy, SROA cannot split the
/// slots, and the butterfly's state lives in memory where the recogniser
/// cannot follow it.
///
/// splitSelectedStructCopies rewrites each such copy, where both sources
/// are allocas of one struct type whose size the copy moves, into loads of
/// every field of both slots, selects, and stores. The padding is not
/// moved, so every slot involved must be of the one struct type and one
/// whose padding never holds a value: written only by stores inside fields and
/// by such copies among themselves (a slot filled by a copy from memory holds
/// the source's padding bytes; those functions are left alone). SROA can then
/// promote the slots.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_STRUCTCOPIES_H
#define CROSSLANE_LIB_ARGRECOGNITION_STRUCTCOPIES_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
} // namespace llvm

namespace crosslane {
namespace argrec {

/// Splits every `memcpy(D, select(C, A, B), N)` of \p F whose sources are
/// allocas of one struct type of N bytes into per-field loads, selects and
/// stores, when no slot involved ever holds a value in its padding. Returns
/// true if \p F changed; \p BeforeChange is called before the first edit.
bool splitSelectedStructCopies(llvm::Function &F,
                               llvm::function_ref<void()> BeforeChange);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_STRUCTCOPIES_H
