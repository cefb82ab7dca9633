//===- StructCopies.h - Pairs chosen through stack slots --------*- C++ -*-===//
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
/// A combine with early returns or a short-circuit condition (`if (a < b)
/// return a; ...`, FAISS's `a < b ? a : b` on a lexicographic `operator<`)
/// chooses through a phi of slot pointers instead, which SROA does not
/// speculate through. speculateSlotLoads loads from every slot where the
/// original loads, and picks the loaded value by an index that a copy of
/// the phis and selects computes; a copy (16-byte pairs) reads from a select
/// of the two slots, for splitSelectedStructCopies.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_STRUCTCOPIES_H
#define CROSSLANE_LIB_ARGRECOGNITION_STRUCTCOPIES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/PassManager.h"

namespace crosslane {
namespace argrec {

/// Splits every `memcpy(D, select(C, A, B), N)` of \p F whose sources are
/// allocas of one struct type of N bytes into per-field loads, selects and
/// stores, when no slot involved ever holds a value in its padding. Returns
/// true if \p F changed; \p BeforeChange is called before the first edit.
bool splitSelectedStructCopies(llvm::Function &F,
                               llvm::function_ref<void()> BeforeChange);

/// Replaces every simple load through a tree of phis and selects whose
/// leaves are allocas (`load <2 x i32>, phi [%a, ..], [%b, ..], [select(c,
/// %a, %b), ..]`, a branchy combine's choice of its pair) by a load from
/// each slot at the load and selects on an index the tree computes, and
/// erases the tree, so that SROA can promote the slots. The loads read what
/// the original load read from the slot it chose. Returns true if \p F
/// changed; \p BeforeChange is called before the first edit.
bool speculateSlotLoads(llvm::Function &F,
                        llvm::function_ref<void()> BeforeChange);
/// Both of the above (for a function with cross-lane reads; the caller
/// knows), then SROA and InstCombine on \p F (as the pipeline would have run
/// them had the copies been scalar). Returns true if \p F changed; \p
/// BeforeChange is called before the first edit.
bool prepareStructCopies(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                         llvm::function_ref<void()> BeforeChange);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_STRUCTCOPIES_H
