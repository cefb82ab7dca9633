//===- ExecutorTest.cpp - Wave executor API tests -------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Executor/Executor.h"
#include "crosslane/Executor/Builtins.h"
#include "crosslane/Executor/Engine.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace llvm;
using namespace crosslane::exec;

namespace {

std::unique_ptr<Module> parse(LLVMContext &Ctx, StringRef IR) {
  SMDiagnostic Err;
  auto M = parseAssemblyString(IR, Err, Ctx);
  EXPECT_TRUE(M) << Err.getMessage().str();
  return M;
}

std::unique_ptr<TargetModel> target(StringRef CPU, StringRef Features = "") {
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  std::string Err;
  auto T = createAMDGPUTarget(CPU, Features, Err);
  EXPECT_TRUE(T) << Err;
  return T;
}

const char *Kernel = R"(
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %l, i32 273, i32 15, i32 15, i1 false)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p
  ret void
}
)";

TEST(Executor, RowShrKeepsOldInFirstLaneOfEachRow) {
  LLVMContext Ctx;
  auto M = parse(Ctx, Kernel);
  Executor X(*M, target("gfx942"));
  LaunchConfig Cfg;
  Cfg.Block = {64, 1, 1};
  KernelArg A;
  A.IsBuffer = true;
  Cfg.Args.push_back(A);
  std::vector<std::vector<uint8_t>> Bufs(1, std::vector<uint8_t>(256, 0));
  ASSERT_FALSE(bool(X.run(*M->getFunction("k"), Cfg, Bufs)));
  auto At = [&](unsigned I) {
    int32_t V;
    std::memcpy(&V, &Bufs[0][4 * I], 4);
    return V;
  };
  EXPECT_EQ(At(0), -1);
  EXPECT_EQ(At(1), 0);
  EXPECT_EQ(At(16), -1);
  EXPECT_EQ(At(17), 16);
  EXPECT_EQ(At(63), 62);
  EXPECT_EQ(X.stats().Waves, 1u);
  EXPECT_GT(X.stats().LaneInstructions, 0u);
}

TEST(Executor, OutOfBoundsIsAnError) {
  LLVMContext Ctx;
  auto M = parse(Ctx, Kernel);
  Executor X(*M, target("gfx1100"));
  EXPECT_EQ(X.target().waveSize(), 32u);
  LaunchConfig Cfg;
  Cfg.Block = {32, 1, 1};
  KernelArg A;
  A.IsBuffer = true;
  Cfg.Args.push_back(A);
  std::vector<std::vector<uint8_t>> Bufs(1, std::vector<uint8_t>(64, 0));
  Error E = X.run(*M->getFunction("k"), Cfg, Bufs);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("out-of-bounds store"),
            std::string::npos);
}

TEST(Builtins, LongestPrefixWins) {
  registerBuiltin(
      "__unit_test_",
      [](BuiltinContext &, const CallBase &, ArrayRef<LaneScalars>,
         MutableArrayRef<LaneScalars>) { return Error::success(); });
  const BuiltinFn *Short = lookupBuiltin("__unit_test_x");
  registerBuiltin(
      "__unit_test_x",
      [](BuiltinContext &, const CallBase &, ArrayRef<LaneScalars>,
         MutableArrayRef<LaneScalars>) { return Error::success(); });
  EXPECT_NE(Short, nullptr);
  EXPECT_NE(lookupBuiltin("__unit_test_xy"), Short);
  EXPECT_EQ(lookupBuiltin("__unit_test_y"), Short);
  EXPECT_EQ(lookupBuiltin("__other"), nullptr);
}

} // namespace
