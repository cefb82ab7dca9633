//===- CombineProgramTest.cpp - The recogniser's compiled combines --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// CombineProgram (lib/ArgRecognition/CombineProgram.h), the core of the
// arg-reduction proofs: a butterfly stage's combine compiled once and
// evaluated over blocks of (self, partner) rows. The programs here come
// from small stages written the way clang emits them; their results are
// checked against the combine computed directly, on rows that include
// ties, NaNs, signed zeros and the extreme indices.
//
//===----------------------------------------------------------------------===//

#include "../lib/ArgRecognition/CombineProgram.h"

#include "llvm/ADT/Twine.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <string>

using namespace llvm;
using namespace crosslane::argrec;

namespace {

/// One stage of an argmax butterfly over (f32 value, i32 index): the
/// partner's pair is taken when its value is greater, or equal with an
/// index that compares \p Tie (slt: the smaller index wins) to the lane's.
std::string argmaxStage(StringRef Name, StringRef Tie) {
  return (Twine("define i32 @") + Name + R"IR((ptr addrspace(1) %p, i32 %addr) {
  %w0 = load i32, ptr addrspace(1) %p
  %q = getelementptr i32, ptr addrspace(1) %p, i64 1
  %w1 = load i32, ptr addrspace(1) %q
  %pv = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %w0)
  %pi = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %w1)
  %v = bitcast i32 %w0 to float
  %pf = bitcast i32 %pv to float
  %gt = fcmp ogt float %pf, %v
  %eq = fcmp oeq float %pf, %v
  %lt = icmp )IR" +
          Tie + R"IR( i32 %pi, %w1
  %tie = and i1 %eq, %lt
  %take = or i1 %gt, %tie
  %nv = select i1 %take, i32 %pv, i32 %w0
  %ni = select i1 %take, i32 %pi, i32 %w1
  %s = add i32 %nv, %ni
  ret i32 %s
}
)IR")
      .str();
}

/// The functions the tests read: two identical stages, the stage with the
/// larger index winning ties, and a stage whose taken index goes through an
/// operation the proof does not model.
std::string stagesModule() {
  return "target triple = \"amdgcn-amd-amdhsa\"\n"
         "declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)\n" +
         argmaxStage("smaller_index_wins", "slt") +
         argmaxStage("same_again", "slt") +
         argmaxStage("larger_index_wins", "sgt") + R"IR(
define i32 @udiv_when_taken(ptr addrspace(1) %p, i32 %addr) {
  %w0 = load i32, ptr addrspace(1) %p
  %q = getelementptr i32, ptr addrspace(1) %p, i64 1
  %w1 = load i32, ptr addrspace(1) %q
  %pv = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %w0)
  %pi = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %w1)
  %v = bitcast i32 %w0 to float
  %pf = bitcast i32 %pv to float
  %take = fcmp ogt float %pf, %v
  %odd = udiv i32 %pi, 3
  %ni = select i1 %take, i32 %odd, i32 %w1
  ret i32 %ni
}
)IR";
}

/// A stage's program, compiled from function \p Name: the two
/// ds.bpermute calls are the partners (word 0 the value's bits, a float;
/// word 1 the index), the stage's arithmetic its closure, the selects
/// (or the function's returned select) its outputs.
struct Stage {
  Function *F = nullptr;
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<PostDominatorTree> PDT;
  SmallVector<CallInst *, 2> Partners;
  SmallSetVector<Instruction *, 32> Closure;
  std::unique_ptr<CombineProgram> P;
  SmallVector<unsigned, 2> Out;

  Stage(Module &M, StringRef Name) {
    F = M.getFunction(Name);
    DT = std::make_unique<DominatorTree>(*F);
    PDT = std::make_unique<PostDominatorTree>(*F);
    for (Instruction &I : F->getEntryBlock()) {
      if (auto *CI = dyn_cast<CallInst>(&I))
        Partners.push_back(CI);
      else if (!isa<LoadInst, GetElementPtrInst, ReturnInst>(I))
        Closure.insert(&I);
    }
    WordKinds Kinds;
    Kinds.Float.push_back(0);
    P = std::make_unique<CombineProgram>(Partners, &F->getEntryBlock(), Closure,
                                         Kinds, *DT, *PDT);
    for (StringRef V : {"nv", "ni"})
      for (Instruction &I : F->getEntryBlock())
        if (I.getName() == V)
          Out.push_back(P->addOutput(&I));
  }
};

uint32_t bits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
float value(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}

class CombineProgramTest : public ::testing::Test {
protected:
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  void SetUp() override {
    SMDiagnostic Err;
    M = parseAssemblyString(stagesModule(), Err, Ctx);
    ASSERT_TRUE(M) << Err.getMessage().str();
  }
};

/// Rows of (self value, self index, partner value, partner index).
struct Row {
  float SV;
  int32_t SI;
  float PV;
  int32_t PI;
};
const Row Rows[] = {
    {1.0f, 3, 2.0f, 7},
    {2.0f, 3, 1.0f, 7},
    {1.0f, 3, 1.0f, 7},
    {1.0f, 7, 1.0f, 3},
    {0.0f, 5, -0.0f, 2},
    {-0.0f, 5, 0.0f, 2},
    {NAN, 1, 1.0f, 0},
    {1.0f, 1, NAN, 0},
    {NAN, 4, NAN, 2},
    {-INFINITY, 0, INFINITY, INT32_MAX},
    {1.0f, INT32_MIN, 1.0f, INT32_MAX},
    {1.0f, INT32_MAX, 1.0f, INT32_MIN},
};
constexpr unsigned NumRows = sizeof(Rows) / sizeof(Rows[0]);

/// Evaluates \p S on every row: Val and FailAt as CombineProgram::run.
void evaluate(const Stage &S, std::vector<uint64_t> &Val,
              std::vector<int32_t> &FailAt) {
  std::vector<uint64_t> Self(2 * NumRows), Partner(2 * NumRows);
  for (unsigned R = 0; R < NumRows; ++R) {
    Self[R] = bits(Rows[R].SV);
    Self[NumRows + R] = uint32_t(Rows[R].SI);
    Partner[R] = bits(Rows[R].PV);
    Partner[NumRows + R] = uint32_t(Rows[R].PI);
  }
  Val.assign(S.P->size() * NumRows, 0);
  FailAt.assign(S.P->size() * NumRows, -1);
  S.P->run(Self, Partner, NumRows, Val, FailAt);
}

TEST_F(CombineProgramTest, ComputesTheStage) {
  for (bool SmallerWins : {true, false}) {
    Stage S(*M, SmallerWins ? "smaller_index_wins" : "larger_index_wins");
    ASSERT_EQ(S.Out.size(), 2u);
    std::vector<uint64_t> Val;
    std::vector<int32_t> FailAt;
    evaluate(S, Val, FailAt);
    for (unsigned R = 0; R < NumRows; ++R) {
      const Row &X = Rows[R];
      bool Tie = SmallerWins ? X.PI < X.SI : X.PI > X.SI;
      bool Take = X.PV > X.SV || (X.PV == X.SV && Tie);
      uint32_t V = bits(Take ? X.PV : X.SV);
      int32_t I = Take ? X.PI : X.SI;
      unsigned NV = S.Out[0] * NumRows + R, NI = S.Out[1] * NumRows + R;
      EXPECT_EQ(FailAt[NV], -1) << "row " << R;
      EXPECT_EQ(uint32_t(Val[NV]), V)
          << "row " << R << ": " << value(uint32_t(Val[NV]));
      EXPECT_EQ(int32_t(Val[NI]), I) << "row " << R;
    }
  }
}

TEST_F(CombineProgramTest, EqualCombinesShareAKey) {
  Stage A(*M, "smaller_index_wins"), B(*M, "same_again"),
      C(*M, "larger_index_wins");
  EXPECT_EQ(A.P->key(), B.P->key());
  EXPECT_NE(A.P->key(), C.P->key());
  EXPECT_TRUE(A.P->has(CombineProgram::Op::FCmp));
  EXPECT_TRUE(A.P->has(CombineProgram::Op::ICmp));
  EXPECT_FALSE(A.P->has(CombineProgram::Op::Fail));
  EXPECT_EQ(A.P->foreignInput(), nullptr);
}

/// An operation the program cannot evaluate fails only the rows whose
/// result reaches it (the untaken arm of a select does not).
TEST_F(CombineProgramTest, FailsLazily) {
  Stage S(*M, "udiv_when_taken");
  ASSERT_EQ(S.Out.size(), 1u);
  std::vector<uint64_t> Val;
  std::vector<int32_t> FailAt;
  evaluate(S, Val, FailAt);
  EXPECT_TRUE(S.P->has(CombineProgram::Op::Fail));
  unsigned Failed = 0;
  for (unsigned R = 0; R < NumRows; ++R) {
    bool Take = Rows[R].PV > Rows[R].SV;
    int32_t F = FailAt[S.Out[0] * NumRows + R];
    EXPECT_EQ(F != -1, Take) << "row " << R;
    if (F != -1) {
      ++Failed;
      EXPECT_FALSE(S.P->message(F).empty());
    } else {
      EXPECT_EQ(int32_t(Val[S.Out[0] * NumRows + R]), Rows[R].SI)
          << "row " << R;
    }
  }
  EXPECT_GT(Failed, 0u);
}

} // namespace
