//===- BlockDominance.h - Dominance as bit sets, for small functions -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The answers of DominatorTree::dominates(const Value *, const Use &) for a
/// function of up to MaxBlocks blocks, computed as the iterative data-flow
/// solution (a reachable block's dominators are itself and those common to
/// all its reachable predecessors) in bit sets. A checker that asks a few
/// hundred dominance questions of a small function once gets them for a
/// fraction of the cost of building a DominatorTree.
///
/// Same semantics as DominatorTree: a use in an unreachable block (a phi's
/// use: at the end of its incoming block) is dominated by anything, a
/// definition in an unreachable block dominates nothing reachable, a phi is
/// dominated by a definition in its incoming block, and within a block
/// order decides. Invoke and callbr definitions (whose values are defined on
/// edges) are not answered: build() refuses a function that has them.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_BLOCKDOMINANCE_H
#define CROSSLANE_SUPPORT_BLOCKDOMINANCE_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace llvm {
class BasicBlock;
class Function;
class Use;
class Value;
} // namespace llvm

namespace crosslane {

class BlockDominance {
public:
  static constexpr unsigned MaxBlocks = 256;

  /// False (and nothing answered) for a function with more than MaxBlocks
  /// blocks or with invoke or callbr instructions.
  bool build(const llvm::Function &F);

  bool dominates(const llvm::Value *Def, const llvm::Use &U) const;
  /// Whether \p A dominates \p B, both blocks of the function.
  bool dominates(const llvm::BasicBlock *A, const llvm::BasicBlock *B) const;
  bool isReachable(const llvm::BasicBlock *BB) const;

private:
  /// The block's index, or ~0u for a block of another function.
  unsigned index(const llvm::BasicBlock *BB) const;
  bool test(const uint64_t *Set, unsigned I) const {
    return (Set[I / 64] >> (I % 64)) & 1;
  }

  const llvm::Function *F = nullptr;
  unsigned Words = 0;
  /// By block number: the block's index, or ~0u.
  llvm::SmallVector<unsigned, 32> IndexOf;
  /// Per index, Words words: the set of its dominators.
  llvm::SmallVector<uint64_t, 32> Dom;
  llvm::SmallVector<uint64_t, 4> Reachable;
};

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_BLOCKDOMINANCE_H
