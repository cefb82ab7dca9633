//===- BlockDominance.cpp - Dominance as bit sets, for small functions ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/BlockDominance.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace crosslane {

unsigned BlockDominance::index(const BasicBlock *BB) const {
  if (!BB || BB->getParent() != F || BB->getNumber() >= IndexOf.size())
    return ~0u;
  return IndexOf[BB->getNumber()];
}

bool BlockDominance::build(const Function &Fn) {
  F = &Fn;
  unsigned N = 0;
  for (const BasicBlock &BB : Fn) {
    if (++N > MaxBlocks)
      return false;
    for (const Instruction &I : BB)
      if (isa<InvokeInst, CallBrInst>(I))
        return false;
  }
  Words = (N + 63) / 64;
  IndexOf.assign(Fn.getMaxBlockNumber(), ~0u);
  SmallVector<const BasicBlock *, 32> Blocks;
  for (const BasicBlock &BB : Fn) {
    IndexOf[BB.getNumber()] = Blocks.size();
    Blocks.push_back(&BB);
  }
  // Reachable blocks in reverse post-order (an iterative depth-first walk),
  // the order in which the data flow settles fastest.
  Reachable.assign(Words, 0);
  SmallVector<unsigned, 32> PostOrder;
  SmallVector<std::pair<const BasicBlock *, const_succ_iterator>, 32> Stack;
  const BasicBlock *Entry = &Fn.getEntryBlock();
  Reachable[0] |= 1;
  Stack.push_back({Entry, succ_begin(Entry)});
  while (!Stack.empty()) {
    auto &[BB, It] = Stack.back();
    if (It == succ_end(BB)) {
      PostOrder.push_back(index(BB));
      Stack.pop_back();
      continue;
    }
    const BasicBlock *S = *It++;
    unsigned SI = index(S);
    if (SI != ~0u && !test(Reachable.data(), SI)) {
      Reachable[SI / 64] |= uint64_t(1) << (SI % 64);
      Stack.push_back({S, succ_begin(S)});
    }
  }
  // Every reachable block but the entry starts with all blocks.
  Dom.assign(size_t(N) * Words, ~uint64_t(0));
  std::fill_n(Dom.begin(), Words, 0);
  Dom[0] = 1;
  SmallVector<uint64_t, 4> Meet(Words);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B : reverse(PostOrder)) {
      if (B == 0)
        continue;
      std::fill(Meet.begin(), Meet.end(), ~uint64_t(0));
      for (const BasicBlock *P : predecessors(Blocks[B])) {
        unsigned PI = index(P);
        if (PI == ~0u || !test(Reachable.data(), PI))
          continue;
        for (unsigned W = 0; W != Words; ++W)
          Meet[W] &= Dom[size_t(PI) * Words + W];
      }
      Meet[B / 64] |= uint64_t(1) << (B % 64);
      uint64_t *Set = &Dom[size_t(B) * Words];
      if (!std::equal(Meet.begin(), Meet.end(), Set)) {
        std::copy(Meet.begin(), Meet.end(), Set);
        Changed = true;
      }
    }
  }
  return true;
}

bool BlockDominance::isReachable(const BasicBlock *BB) const {
  unsigned I = index(BB);
  return I != ~0u && test(Reachable.data(), I);
}

bool BlockDominance::dominates(const BasicBlock *A, const BasicBlock *B) const {
  if (!isReachable(B))
    return true;
  if (!isReachable(A))
    return false;
  return test(&Dom[size_t(index(B)) * Words], index(A));
}

bool BlockDominance::dominates(const Value *DefV, const Use &U) const {
  const auto *Def = dyn_cast<Instruction>(DefV);
  if (!Def)
    return true;
  const auto *User = cast<Instruction>(U.getUser());
  const auto *Phi = dyn_cast<PHINode>(User);
  const BasicBlock *UseBB = Phi ? Phi->getIncomingBlock(U) : User->getParent();
  const BasicBlock *DefBB = Def->getParent();
  if (!isReachable(UseBB))
    return true;
  if (!isReachable(DefBB))
    return false;
  if (DefBB != UseBB)
    return test(&Dom[size_t(index(UseBB)) * Words], index(DefBB));
  return Phi || Def->comesBefore(User);
}

} // namespace crosslane
