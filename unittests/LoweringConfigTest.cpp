//===- LoweringConfigTest.cpp - IREE lowering configs ---------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The parser (both spellings, printing round trip, errors naming the
// attribute), delinearize as the seed defines it, planDistribution on the
// seed's Example 2, and the heuristic: its config is valid for every shape
// and target tried, and fills the wave.
//
//===----------------------------------------------------------------------===//

#include "crosslane/LoweringConfig/LoweringConfig.h"
#include "crosslane/LoweringConfig/ConfigHeuristic.h"

#include "llvm/Support/TargetSelect.h"
#include "gtest/gtest.h"

using namespace crosslane::lc;
using llvm::SmallVector;

namespace {

const char *SeedExample2 =
    "{workgroup = [16, 0], thread = [0, 1], partial_reduction = [0, 32], "
    "lane_basis = [[16, 4], [1, 0]], subgroup_basis = [[1, 2], [0, 1]]}";

std::string errorText(llvm::Error E) { return llvm::toString(std::move(E)); }

ReductionSpec spec(llvm::StringRef Dims, llvm::StringRef Op = "add",
                   llvm::StringRef Type = "f32") {
  ReductionSpec S;
  auto D = parseDims(Dims);
  EXPECT_TRUE(bool(D)) << Dims.str();
  if (!D) {
    llvm::consumeError(D.takeError());
    return S;
  }
  S.Dims = *D;
  EXPECT_FALSE(bool(parseCombiner(Op, S)));
  EXPECT_FALSE(bool(parseTypes(Type, S)));
  return S;
}

class LoweringConfigTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
  }
  static TargetDesc target(llvm::StringRef S) {
    auto T = parseTarget(S);
    EXPECT_TRUE(bool(T)) << S.str();
    if (!T) {
      llvm::consumeError(T.takeError());
      return TargetDesc();
    }
    return *T;
  }
};

TEST_F(LoweringConfigTest, DelinearizeAsTheSeed) {
  // Thread 42 of [16, 4]: c0 = 0 (outer bound), c1 = 10, c2 = 2.
  EXPECT_EQ(delinearize(42, {16, 4}), (SmallVector<uint64_t, 5>{0, 10, 2}));
  // Past the product, the outer bound counts whole bases.
  EXPECT_EQ(delinearize(130, {16, 4}), (SmallVector<uint64_t, 5>{2, 0, 2}));
  EXPECT_EQ(delinearize(5, {1, 1, 8}), (SmallVector<uint64_t, 5>{0, 0, 0, 5}));
}

TEST_F(LoweringConfigTest, BothSpellingsParseTheSame) {
  auto Bare = parseLoweringConfig(SeedExample2);
  auto Wrapped = parseLoweringConfig(std::string("#iree_gpu.lowering_config<") +
                                     SeedExample2 + ">");
  ASSERT_TRUE(bool(Bare));
  ASSERT_TRUE(bool(Wrapped));
  EXPECT_EQ(Bare->str(), Wrapped->str());
  EXPECT_EQ(Bare->Lane.Counts, (SmallVector<int64_t, 4>{16, 4}));
  EXPECT_EQ(Bare->Lane.Mapping, (SmallVector<int64_t, 4>{1, 0}));
  EXPECT_EQ(Bare->PartialReduction, (SmallVector<int64_t, 4>{0, 32}));
  // Printing gives IREE's syntax, which parses back to the same config.
  auto Again = parseLoweringConfig(Bare->str());
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(Again->str(), Bare->str());
}

TEST_F(LoweringConfigTest, ParseErrorsNameTheAttribute) {
  auto Missing = parseLoweringConfig(
      "{workgroup = [16, 0], thread = [0, 1], partial_reduction = [0, 32], "
      "lane_basis = [[16, 4], [1, 0]]}");
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(errorText(Missing.takeError()).rfind("subgroup_basis", 0), 0u);
  auto Twice = parseLoweringConfig(
      "{thread = [0, 1], thread = [0, 2], workgroup = [1, 0]}");
  ASSERT_FALSE(bool(Twice));
  EXPECT_NE(errorText(Twice.takeError()).find("thread"), std::string::npos);
  auto Garbage = parseLoweringConfig("{workgroup = [16, x]}");
  ASSERT_FALSE(bool(Garbage));
  EXPECT_NE(errorText(Garbage.takeError()).find("workgroup"),
            std::string::npos);
}

TEST_F(LoweringConfigTest, SeedExample2Distribution) {
  auto C = parseLoweringConfig(SeedExample2);
  ASSERT_TRUE(bool(C));
  auto D = planDistribution(spec("p1152,r384"), *C, target("gfx942"));
  ASSERT_TRUE(bool(D)) << errorText(D.takeError());
  EXPECT_EQ(D->WorkgroupSize, 128u);
  EXPECT_EQ(D->ReductionSubgroups, 2u);
  EXPECT_EQ(D->Accumulators, 4u);     // 16 / (1 subgroup x 4 lanes)
  EXPECT_EQ(D->Dims[1].Steps, 12u);   // 384 / 32, not the seed's 36
  EXPECT_EQ(D->Dims[1].Batch, 1u);    // 32 / (2 x 16 x 1)
  EXPECT_EQ(D->numWorkgroups(), 72u); // 1152 / 16
  EXPECT_EQ(D->LDSBytes, 2u * 16 * 4);
  ASSERT_EQ(D->LaneSteps.size(), 1u);
  EXPECT_EQ(D->LaneSteps[0].ClusterSize, 16u);
  EXPECT_EQ(D->LaneSteps[0].ClusterStride, 4u);
}

TEST_F(LoweringConfigTest, RulesNameTheAttribute) {
  auto C = parseLoweringConfig(SeedExample2);
  ASSERT_TRUE(bool(C));
  LoweringConfig Wide = *C;
  Wide.Lane.Counts = {16, 8};
  auto D = planDistribution(spec("p1152,r384"), Wide, target("gfx942"));
  ASSERT_FALSE(bool(D));
  EXPECT_EQ(errorText(D.takeError()).rfind("lane_basis:", 0), 0u);
  // wave32: the same lane_basis no longer fills exactly one subgroup.
  D = planDistribution(spec("p1152,r384"), *C, target("gfx1100:w32"));
  ASSERT_FALSE(bool(D));
  EXPECT_EQ(errorText(D.takeError()).rfind("lane_basis:", 0), 0u);
  LoweringConfig Short = *C;
  Short.PartialReduction = {0, 24};
  D = planDistribution(spec("p1152,r384"), Short, target("gfx942"));
  ASSERT_FALSE(bool(D));
  EXPECT_EQ(errorText(D.takeError()).rfind("partial_reduction:", 0), 0u);
}

TEST_F(LoweringConfigTest, HeuristicConfigsAreValid) {
  const char *Targets[] = {"gfx942",      "gfx90a",  "gfx1100",
                           "gfx1100:w64", "gfx1201", "gfx950"};
  const char *Shapes[] = {"p1152,r384", "p4,r4096",   "p4096,r64", "p64,r61440",
                          "r100000",    "p7,r3",      "p3,r5,r7",  "r?,p16",
                          "p?,r?",      "p2,p3,r1000"};
  const char *Ops[][2] = {{"add", "f16:f32"},
                          {"max", "f32"},
                          {"argmax:i64", "f32"},
                          {"xor", "i32"}};
  for (const char *T : Targets)
    for (const char *Shape : Shapes)
      for (auto &Op : Ops) {
        ReductionSpec S = spec(Shape, Op[0], Op[1]);
        TargetDesc TD = target(T);
        LoweringConfig C = chooseConfig(S, TD);
        auto D = planDistribution(S, C, TD);
        ASSERT_TRUE(bool(D)) << T << " " << Shape << " " << Op[0] << ": "
                             << C.str() << ": " << errorText(D.takeError());
        EXPECT_EQ(D->SubgroupSize, TD.WaveSize);
        EXPECT_LE(D->WorkgroupSize, TD.MaxWorkgroupSize);
      }
}

} // namespace
