//===- FunctionBackupTest.cpp - Restoring a function keeps it valid -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A rewrite that leaves a function invalid is undone by restoring a copy of
// its body. With debug info, the restored body must still be the function's
// own: a copy made by plain CloneFunction has a DISubprogram of its own, and
// after the restore the verifier rejected the function ("!dbg attachment
// points at wrong subprogram"), which a rocPRIM kernel compiled with -g hit.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/FunctionBackup.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace crosslane;

namespace {

// The compile unit, file, subroutine type and `int` every IR below names
// (nodes !0, !1, !3, !5, !6 and !12).
const char *DebugUnit = R"IR(
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !DISubroutineType(types: !6)
!6 = !{}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
)IR";

// A function with a lexical block, an inlined location and a debug record.
const char *IR = R"IR(
define i32 @f(i32 %x) !dbg !4 {
entry:
    #dbg_value(i32 %x, !9, !DIExpression(), !10)
  %a = add i32 %x, 1, !dbg !10
  %b = mul i32 %a, 3, !dbg !11
  ret i32 %b, !dbg !10
}

!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!7 = distinct !DILexicalBlock(scope: !4, file: !1, line: 2, column: 3)
!8 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 20, type: !5, scopeLine: 20, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!9 = !DILocalVariable(name: "x", arg: 1, scope: !4, file: !1, line: 1, type: !12)
!10 = !DILocation(line: 3, column: 5, scope: !7)
!11 = !DILocation(line: 21, column: 7, scope: !8, inlinedAt: !10)
)IR";

std::unique_ptr<Module> parse(LLVMContext &Ctx, const char *Body = IR) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M =
      parseAssemblyString(std::string(Body) + DebugUnit, Err, Ctx);
  EXPECT_TRUE(M) << Err.getMessage().str();
  return M;
}

std::string verifierErrors(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  verifyModule(M, &OS);
  return S;
}

TEST(FunctionBackupTest, RestoreAfterBreakingEditKeepsDebugInfoValid) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parse(Ctx);
  Function &F = *M->getFunction("f");
  ASSERT_EQ(verifierErrors(*M), "");
  {
    FunctionBackup Backup(F);
    Backup.take();
    // Break the function: %b uses a value defined after it.
    Instruction *A = &*F.getEntryBlock().begin();
    Instruction *B = A->getNextNode();
    A->moveAfter(B);
    ASSERT_TRUE(verifyFunction(F));
    Backup.restore();
  }
  EXPECT_EQ(verifierErrors(*M), "");
  EXPECT_EQ(M->getFunction("f.crosslane.backup"), nullptr);
  EXPECT_EQ(F.getEntryBlock().front().getOpcode(), Instruction::Add);
}

TEST(FunctionBackupTest, DiscardedCopyLeavesModuleAsItWas) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parse(Ctx);
  Function &F = *M->getFunction("f");
  {
    FunctionBackup Backup(F);
    Backup.take();
    Backup.take(); // a second take keeps the first copy
    EXPECT_EQ(M->size(), 2u);
  }
  EXPECT_EQ(M->size(), 1u);
  EXPECT_EQ(verifierErrors(*M), "");
}

// A loop: phis, a back edge, loop metadata and a debug record on a phi.
const char *LoopIR = R"IR(
define i32 @g(i32 %n) !dbg !4 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
    #dbg_value(i32 %i, !9, !DIExpression(), !10)
  %next = add i32 %i, 1, !dbg !10
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !13
exit:
  ret i32 %next
}

!4 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!9 = !DILocalVariable(name: "i", scope: !4, file: !1, line: 2, type: !12)
!10 = !DILocation(line: 2, column: 5, scope: !4)
!13 = distinct !{!13, !14}
!14 = !{!"llvm.loop.mustprogress"}
)IR";

TEST(FunctionBackupTest, RestoredLoopIsTheOriginal) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parse(Ctx, LoopIR);
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("g");
  std::string Before;
  raw_string_ostream(Before) << F;
  MDNode *Loop =
      F.getEntryBlock().getSingleSuccessor()->getTerminator()->getMetadata(
          LLVMContext::MD_loop);
  {
    FunctionBackup Backup(F);
    Backup.take();
    // Break the function: the exit block loses its terminator.
    BasicBlock &Exit = F.back();
    Exit.getTerminator()->eraseFromParent();
    ASSERT_TRUE(verifyFunction(F));
    Backup.restore();
  }
  EXPECT_EQ(verifierErrors(*M), "");
  std::string After;
  raw_string_ostream(After) << F;
  EXPECT_EQ(Before, After);
  EXPECT_EQ(
      F.getEntryBlock().getSingleSuccessor()->getTerminator()->getMetadata(
          LLVMContext::MD_loop),
      Loop);
}

} // namespace
