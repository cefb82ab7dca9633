//===- ChipInfoTest.cpp - ChipInfo facts per chip -------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The facts below are the ISA-manual ones the lowering depends on
// (../shared/research/amdgpu-dpp.md §2). They are asked of LLVM's AMDGPU
// subtarget; this test pins that LLVM 22 still answers the same.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/ChipInfo.h"

#include "llvm/Support/TargetSelect.h"
#include "gtest/gtest.h"

using namespace crosslane;

namespace {

class ChipInfoTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
  }
  static ChipInfo get(const char *CPU, const char *FS = "") {
    std::optional<ChipInfo> C = ChipInfo::get(CPU, FS);
    EXPECT_TRUE(C.has_value()) << CPU;
    return C.value_or(ChipInfo());
  }
};

TEST_F(ChipInfoTest, GFX9HasRowBroadcastsAndIsWave64) {
  for (const char *CPU : {"gfx900", "gfx90a", "gfx942", "gfx950"}) {
    ChipInfo C = get(CPU);
    EXPECT_EQ(C.Major, 9u) << CPU;
    EXPECT_EQ(C.WaveSize, 64u) << CPU;
    EXPECT_TRUE(C.HasDPP) << CPU;
    EXPECT_TRUE(C.HasDPPBroadcasts) << CPU;
    EXPECT_FALSE(C.HasDPPRowXMask) << CPU;
    EXPECT_FALSE(C.HasPermLaneX16) << CPU;
    EXPECT_FALSE(C.BPermuteWithinHalf) << CPU;
  }
  EXPECT_FALSE(get("gfx900").HasDPPNewBcast);
  EXPECT_TRUE(get("gfx90a").HasDPPNewBcast);
  EXPECT_TRUE(get("gfx942").HasDPP64);
  EXPECT_TRUE(get("gfx950").HasPermLane32Swap);
  EXPECT_TRUE(get("gfx950").HasPermLane16Swap);
  EXPECT_FALSE(get("gfx942").HasPermLane32Swap);
}

TEST_F(ChipInfoTest, GFX10PlusDefaultsToWave32) {
  for (const char *CPU : {"gfx1030", "gfx1100", "gfx1201"}) {
    ChipInfo C = get(CPU);
    EXPECT_EQ(C.WaveSize, 32u) << CPU;
    EXPECT_TRUE(C.HasDPPRowXMask) << CPU;
    EXPECT_TRUE(C.HasPermLaneX16) << CPU;
    EXPECT_FALSE(C.HasDPPBroadcasts) << CPU;
    EXPECT_FALSE(C.BPermuteWithinHalf) << CPU;
    EXPECT_EQ(get(CPU, "+wavefrontsize64").WaveSize, 64u) << CPU;
    EXPECT_TRUE(get(CPU, "+wavefrontsize64").BPermuteWithinHalf) << CPU;
  }
  EXPECT_FALSE(get("gfx1030").HasPermLane64);
  EXPECT_TRUE(get("gfx1100").HasPermLane64);
  EXPECT_TRUE(get("gfx1201").HasIEEEMinMax);
  EXPECT_FALSE(get("gfx1100").HasIEEEMinMax);
  EXPECT_TRUE(get("gfx1100").DPPCombineSub32ImmBug);
  EXPECT_FALSE(get("gfx1201").DPPCombineSub32ImmBug);
}

TEST_F(ChipInfoTest, UnknownCPUIsRejected) {
  EXPECT_FALSE(ChipInfo::get("gfx9999").has_value());
  EXPECT_FALSE(ChipInfo::get("").has_value());
}

} // namespace
