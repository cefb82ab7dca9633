//===- RewriteJournalTest.cpp - A recorded function checked and put back --===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The edits a chain's replacement makes (new code before an instruction, a
// block split around a region with a guard and merge phis, uses redirected,
// instructions moved) are accepted by the check when they are valid, found
// when they break a rule, and undone exactly: the printed function is the
// one recorded.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/RewriteJournal.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace crosslane;

namespace {

const char *IR = R"IR(
define i32 @f(i32 %x, i1 %c) {
entry:
  %a = add i32 %x, 1
  %b = mul i32 %a, 3
  br i1 %c, label %then, label %join
then:
  %d = sub i32 %b, %a
  br label %join
join:
  %p = phi i32 [ %d, %then ], [ %b, %entry ]
  %q = xor i32 %p, %a
  ret i32 %q
}
)IR";

struct Fixture {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Function *F = nullptr;
  std::string Before;

  Fixture() {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    EXPECT_TRUE(M) << Err.getMessage().str();
    F = M->getFunction("f");
    Before = text();
  }
  std::string text() const {
    std::string S;
    raw_string_ostream OS(S);
    F->print(OS);
    return S;
  }
  Instruction *inst(StringRef Name) const {
    for (Instruction &I : instructions(*F))
      if (I.getName() == Name)
        return &I;
    return nullptr;
  }
};

/// The edits of a guarded replacement of %b's computation: new code before
/// it, the block split around it, a guard, a merge phi taking %b's uses.
void guardedReplacement(Fixture &T) {
  Instruction *B = T.inst("b");
  IRBuilder<> Builder(B);
  Value *Fast = Builder.CreateShl(T.inst("a"), 1, "fast");
  Value *Ok = Builder.CreateICmpSGT(Fast, T.F->getArg(0), "ok");
  BasicBlock *Pre = B->getParent();
  BasicBlock *Orig = SplitBlock(Pre, B);
  BasicBlock *Join = SplitBlock(Orig, B->getNextNode());
  Pre->getTerminator()->eraseFromParent();
  BranchInst::Create(Join, Orig, Ok, Pre);
  IRBuilder<> JB(Join, Join->begin());
  PHINode *Phi = JB.CreatePHI(B->getType(), 2, "b.merged");
  Phi->addIncoming(B, Orig);
  Phi->addIncoming(Fast, Pre);
  B->replaceUsesWithIf(Phi, [&](Use &U) { return U.getUser() != Phi; });
}

TEST(RewriteJournalTest, ValidReplacementPassesAndRollsBack) {
  Fixture T;
  RewriteJournal J(*T.F);
  ASSERT_TRUE(J.begin());
  guardedReplacement(T);
  EXPECT_FALSE(verifyFunction(*T.F, &errs()));
  EXPECT_EQ(J.check(), "");
  J.rollBack();
  EXPECT_FALSE(J.recording());
  EXPECT_EQ(T.text(), T.Before);
  EXPECT_FALSE(verifyFunction(*T.F, &errs()));
}

TEST(RewriteJournalTest, UseBeforeDefinitionIsFoundAndUndone) {
  Fixture T;
  RewriteJournal J(*T.F);
  ASSERT_TRUE(J.begin());
  guardedReplacement(T);
  // %a moved below its first use: what the hoisting bug once did.
  T.inst("a")->moveBefore(T.inst("d")->getIterator());
  std::string Problem = J.check();
  EXPECT_NE(Problem.find("does not dominate"), std::string::npos) << Problem;
  EXPECT_TRUE(verifyFunction(*T.F, nullptr));
  J.rollBack();
  EXPECT_EQ(T.text(), T.Before);
}

TEST(RewriteJournalTest, TypeAndPhiRulesAreChecked) {
  {
    Fixture T;
    RewriteJournal J(*T.F);
    ASSERT_TRUE(J.begin());
    // A merge phi missing the edge from the guard's block.
    guardedReplacement(T);
    cast<PHINode>(T.inst("b.merged"))->removeIncomingValue(1, false);
    EXPECT_NE(J.check().find("predecessors"), std::string::npos);
    J.rollBack();
    EXPECT_EQ(T.text(), T.Before);
  }
  {
    Fixture T;
    RewriteJournal J(*T.F);
    ASSERT_TRUE(J.begin());
    // A new add of an i32 and an i64.
    Instruction *Q = T.inst("q");
    Value *Wide = new ZExtInst(T.inst("p"), Type::getInt64Ty(T.Ctx), "w",
                               Q->getIterator());
    BinaryOperator::CreateAdd(T.inst("p"), Wide, "bad", Q->getIterator());
    EXPECT_NE(J.check().find("type"), std::string::npos);
    J.rollBack();
    EXPECT_EQ(T.text(), T.Before);
  }
}

TEST(RewriteJournalTest, FunctionWithDebugRecordsIsRefused) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(R"IR(
define i32 @g(i32 %x) !dbg !4 {
    #dbg_value(i32 %x, !9, !DIExpression(), !10)
  ret i32 %x, !dbg !10
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!9 = !DILocalVariable(name: "x", arg: 1, scope: !4, file: !1, line: 1, type: !12)
!10 = !DILocation(line: 3, column: 5, scope: !4)
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
)IR",
                                                  Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  RewriteJournal J(*M->getFunction("g"));
  EXPECT_FALSE(J.begin());
  EXPECT_FALSE(J.recording());
}

} // namespace
