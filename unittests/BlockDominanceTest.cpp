//===- BlockDominanceTest.cpp - Bit-set dominance against DominatorTree ---===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Random functions (loops, irreducible edges, unreachable blocks, self
// loops, phis) and, in each, every use of every instruction value by every
// instruction: BlockDominance answers as DominatorTree does.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/BlockDominance.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "gtest/gtest.h"

#include <random>

using namespace llvm;
using namespace crosslane;

namespace {

/// A function of \p N blocks with random branches; every block defines a
/// value and uses values of random blocks (in a phi or an add), valid IR
/// or not: dominance is asked of every use either way.
Function *randomFunction(Module &M, unsigned N, std::mt19937 &Rng) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  auto *FT = FunctionType::get(I32, {I32, Type::getInt1Ty(Ctx)}, false);
  Function *F = Function::Create(FT, Function::ExternalLinkage, "f", M);
  SmallVector<BasicBlock *, 64> BBs;
  for (unsigned I = 0; I != N; ++I)
    BBs.push_back(BasicBlock::Create(Ctx, "b" + Twine(I), F));
  SmallVector<Instruction *, 64> Defs;
  IRBuilder<> B(Ctx);
  for (BasicBlock *BB : BBs) {
    B.SetInsertPoint(BB);
    B.CreatePHI(I32, 0, "p");
    Defs.push_back(
        cast<Instruction>(B.CreateAdd(F->getArg(0), B.getInt32(1), "d", true)));
  }
  std::uniform_int_distribution<unsigned> Pick(0, N - 1), Kind(0, 9);
  for (unsigned I = 0; I != N; ++I) {
    B.SetInsertPoint(BBs[I]);
    B.CreateAdd(Defs[Pick(Rng)], Defs[Pick(Rng)], "u");
    unsigned K = Kind(Rng);
    // Never back to the entry (it has no predecessors in valid IR).
    auto Target = [&] { return BBs[1 + Pick(Rng) % (N - 1)]; };
    if (K < 2 || N == 1)
      B.CreateRet(Defs[I]);
    else if (K < 5)
      B.CreateBr(Target());
    else
      B.CreateCondBr(F->getArg(1), Target(), Target());
  }
  // Each phi takes a random value from each predecessor edge.
  for (BasicBlock *BB : BBs) {
    auto *Phi = cast<PHINode>(&BB->front());
    for (BasicBlock *Pred : predecessors(BB))
      Phi->addIncoming(Defs[Pick(Rng)], Pred);
  }
  return F;
}

TEST(BlockDominanceTest, AgreesWithDominatorTreeOnRandomFunctions) {
  std::mt19937 Rng(20261129);
  unsigned Uses = 0, Dominated = 0;
  for (unsigned Round = 0; Round != 300; ++Round) {
    LLVMContext Ctx;
    Module M("m", Ctx);
    unsigned N = 1 + Round % 90; // some past 64 blocks: two words per set
    Function *F = randomFunction(M, N, Rng);
    DominatorTree DT(*F);
    BlockDominance BD;
    ASSERT_TRUE(BD.build(*F));
    for (BasicBlock &A : *F) {
      EXPECT_EQ(BD.isReachable(&A), DT.isReachableFromEntry(&A));
      for (BasicBlock &Bl : *F)
        EXPECT_EQ(BD.dominates(&A, &Bl), DT.dominates(&A, &Bl))
            << A.getName().str() << " " << Bl.getName().str();
    }
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB)
        for (Use &U : I.operands()) {
          ++Uses;
          bool Expected = DT.dominates(U.get(), U);
          Dominated += Expected;
          EXPECT_EQ(BD.dominates(U.get(), U), Expected)
              << U.get()->getName().str() << " in " << I.getName().str();
        }
  }
  // Both answers occur often: the comparison can fail.
  EXPECT_GT(Dominated, Uses / 10);
  EXPECT_LT(Dominated, Uses - Uses / 10);
}

TEST(BlockDominanceTest, RefusesLargeFunctions) {
  std::mt19937 Rng(7);
  LLVMContext Ctx;
  Module M("m", Ctx);
  Function *F = randomFunction(M, BlockDominance::MaxBlocks + 1, Rng);
  BlockDominance BD;
  EXPECT_FALSE(BD.build(*F));
}

} // namespace
