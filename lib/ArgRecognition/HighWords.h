//===- HighWords.h - Exchanges whose high word LLVM folded away -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// HIP's `__shfl*` on a 64-bit value exchanges two words. When InstCombine
/// proves the high word zero (an int64 index made from an unsigned or
/// non-negative int), it folds the high word's exchange to 0 and leaves
/// `zext (ds_bpermute (trunc nuw X))`. Known bits have a depth limit, so
/// this happens in the first stages of a ladder and not in later ones, and
/// a chain would change its word count half-way (PyTorch-style argmax with
/// `(int64_t)i`). restoreHighWords puts the exchange of the high word back,
/// as `trunc (lshr X, 32)`, where the state meets a stage that exchanges
/// two words, so every stage exchanges the same words; this is the same
/// value in every lane that reads an active lane (an inactive lane's words
/// both read as 0). Whatever the recogniser does not replace is folded back
/// by foldHighWords, so a function without a rewrite keeps its code.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_HIGHWORDS_H
#define CROSSLANE_LIB_ARGRECOGNITION_HIGHWORDS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/ValueHandle.h"

namespace llvm {
class DominatorTree;
class Function;
} // namespace llvm

namespace crosslane {
namespace argrec {

/// One restored exchange: \p Join, `(zext hi' << 32) | Ext`, stands for
/// \p Ext, the zero extension of \p Read, the low word's exchange, whose
/// word was \p Word.
struct RestoredHighWord {
  llvm::WeakVH Join;
  llvm::WeakVH Ext;
  llvm::WeakVH Read;
  llvm::WeakVH Word;
};

/// Restores the high-word exchanges of \p F's cross-lane reads (without an
/// `old` operand) whose word is `trunc X` with X's high word known zero,
/// whose result is zero-extended to i64, and whose state meets a two-word
/// stage. \p BeforeChange is called before the first edit.
llvm::SmallVector<RestoredHighWord, 4>
restoreHighWords(llvm::Function &F, const llvm::DominatorTree &DT,
                 llvm::function_ref<void()> BeforeChange);

/// Undoes each restoration whose join is still in the code: its users read
/// the zero extension again, the high word's exchange is deleted, and the
/// low word's exchange reads its word as before.
void foldHighWords(llvm::ArrayRef<RestoredHighWord> Restored);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_HIGHWORDS_H
