//===- LaneMapTest.cpp - Lane-set analysis of cross-lane chains -----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// reductionLanes follows lane maps as a selection reduction would: which
// lanes end with the best of a whole aligned group. The maps come from the
// chip's DPP and ds_swizzle tables (ChipInfo), the ones the executor uses.
//
//===----------------------------------------------------------------------===//

#include "../lib/ArgRecognition/LaneMap.h"
#include "crosslane/Support/ChipInfo.h"

#include "llvm/Support/TargetSelect.h"
#include "gtest/gtest.h"

using namespace crosslane;
using namespace crosslane::argrec;
using llvm::SmallVector;

namespace {

using Map = SmallVector<unsigned, 64>;

class LaneMapTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
  }
  static ChipInfo chip(const char *CPU, const char *FS = "") {
    return ChipInfo::get(CPU, FS).value_or(ChipInfo());
  }
  /// A DPP move with full masks: out-of-range lanes read nothing usable
  /// (bound_ctrl zero fill, or an undefined old).
  static Map dpp(const ChipInfo &C, unsigned Ctrl) {
    Map M(C.WaveSize, NoLane);
    for (unsigned L = 0; L < C.WaveSize; ++L)
      if (int From = C.dppSourceLane(Ctrl, L); From >= 0)
        M[L] = From;
    return M;
  }
  static Map xorMap(unsigned W, unsigned K) {
    Map M(W);
    for (unsigned L = 0; L < W; ++L)
      M[L] = L ^ K;
    return M;
  }
};

TEST_F(LaneMapTest, XorButterflyFillsEveryLane) {
  SmallVector<Map, 8> Maps;
  for (unsigned K = 1; K < 64; K *= 2)
    Maps.push_back(xorMap(64, K));
  auto R = reductionLanes(Maps, 64);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Cluster, 64u);
  EXPECT_EQ(R->Lanes, ~uint64_t(0));
  Maps.pop_back(); // without xor 32: two 32-lane groups
  R = reductionLanes(Maps, 64);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Cluster, 32u);
  EXPECT_EQ(describeLanes(R->Lanes, 64, R->Cluster), "every lane");
}

TEST_F(LaneMapTest, RocprimOrderOnGFX9EndsInTheLastRow) {
  ChipInfo C = chip("gfx942");
  SmallVector<Map, 8> Maps;
  for (unsigned Ctrl : {0xb1u, 0x4eu, 0x124u, 0x128u, 0x142u, 0x143u})
    Maps.push_back(dpp(C, Ctrl));
  auto R = reductionLanes(Maps, 64);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Cluster, 64u);
  EXPECT_EQ(R->Lanes, uint64_t(0xFFFF) << 48);
  EXPECT_EQ(describeLanes(R->Lanes, 64, 64), "lanes 48-63");
}

TEST_F(LaneMapTest, ZeroFilledRowShrScanEndsInLane63Only) {
  ChipInfo C = chip("gfx942");
  SmallVector<Map, 8> Maps;
  for (unsigned Ctrl : {0x111u, 0x112u, 0x114u, 0x118u})
    Maps.push_back(dpp(C, Ctrl));
  // The row totals sit in lane 15 of each row only.
  auto R = reductionLanes(Maps, 64);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Cluster, 16u);
  EXPECT_EQ(describeLanes(R->Lanes, 64, 16), "lane 15 of each 16-lane group");
  Maps.push_back(dpp(C, 0x142));
  Maps.push_back(dpp(C, 0x143));
  R = reductionLanes(Maps, 64);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Cluster, 64u);
  EXPECT_EQ(R->Lanes, uint64_t(1) << 63);
}

TEST_F(LaneMapTest, ReadingAZeroFillPoisonsTheLane) {
  // row_shr:1 alone: lane 0 of each row reads a zero fill (nothing usable);
  // odd lanes read their even neighbour and complete their aligned pair,
  // even lanes cover an unaligned pair.
  ChipInfo C = chip("gfx942");
  SmallVector<Map, 1> Maps{dpp(C, 0x111)};
  auto R = reductionLanes(Maps, 64);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Cluster, 2u);
  EXPECT_EQ(describeLanes(R->Lanes, 64, 2), "lane 1 of each 2-lane group");
  // A map reading nothing usable anywhere covers nothing.
  SmallVector<Map, 1> None{Map(64, NoLane)};
  EXPECT_FALSE(reductionLanes(None, 64));
}

TEST_F(LaneMapTest, SwizzleBroadcastCompletesTheUpperHalfOnWave32) {
  ChipInfo C = chip("gfx1100");
  ASSERT_EQ(C.WaveSize, 32u);
  SmallVector<Map, 8> Maps;
  for (unsigned Ctrl : {0xb1u, 0x4eu, 0x124u, 0x128u})
    Maps.push_back(dpp(C, Ctrl));
  Map Swz(32);
  for (unsigned L = 0; L < 32; ++L)
    Swz[L] = C.swizzleSourceLane(0x1e0, L);
  Maps.push_back(Swz);
  auto R = reductionLanes(Maps, 32);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Cluster, 32u);
  EXPECT_EQ(describeLanes(R->Lanes, 32, 32), "lanes 16-31");
}

} // namespace
