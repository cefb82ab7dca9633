//===- VectorState.h - State the SLP vectorizer packed into vectors -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The SLP vectorizer may pack a butterfly's {float, int} state into a
/// `<2 x i32>` (`insertelement` of the value's bits and the index) and carry
/// it through the combine's phis as one vector; each cross-lane read then
/// takes its word with `extractelement`. The recogniser follows scalar
/// words, so scalarizeExchangedElements rebuilds each such element as
/// scalars: an inserted element is the inserted value, an element of a
/// bitcast between vectors of one length is the bitcast element (to
/// narrower elements: the piece of the wider one), an element of an
/// element-wise operation (compare, binary or unary operation, cast,
/// shuffle, select) is that operation on the elements, and an element of a
/// vector phi is a new phi of the incoming elements, or the one value they
/// all are (an element another pair's `if` passes through). The
/// vector code left without users is deleted; it computed nothing else.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_VECTORSTATE_H
#define CROSSLANE_LIB_ARGRECOGNITION_VECTORSTATE_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
} // namespace llvm

namespace crosslane {
namespace argrec {

/// Replaces each `extractelement V, K` (constant K) that is the word of one
/// of \p F's cross-lane reads by the element rebuilt from scalars. Returns
/// true if \p F changed; \p BeforeChange is called before the first edit.
bool scalarizeExchangedElements(llvm::Function &F,
                                llvm::function_ref<void()> BeforeChange);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_VECTORSTATE_H
