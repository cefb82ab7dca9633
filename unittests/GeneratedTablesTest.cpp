//===- GeneratedTablesTest.cpp - Queries of the TableGen'erated tables ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The tables crosslane-tblgen and llvm-tblgen generate from
// include/crosslane/**/*.td, queried through the APIs the passes use, and
// the Vortex hardware configurations compared with the Vortex builds they
// describe (config/cflags.txt of each prebuilt configuration).
//
//===----------------------------------------------------------------------===//

#include "../lib/Xe/BlockShapes.h"
#include "crosslane/Executor/VortexTarget.h"
#include "crosslane/Support/ChipInfo.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace crosslane;
using namespace llvm;

namespace {

TEST(GeneratedTables, VortexCSRs) {
  const vortex::CSRInfo *Lane = vortex::lookupCSR(vortex::CSRThreadId);
  ASSERT_TRUE(Lane);
  EXPECT_STREQ(Lane->Name, "VX_CSR_THREAD_ID");
  EXPECT_TRUE(Lane->Divergent);
  EXPECT_EQ(unsigned(vortex::CSRThreadIdxZ), 0xCD5u);
  EXPECT_EQ(unsigned(vortex::CSRCtaLocalMem), 0xCDFu);
  EXPECT_TRUE(vortex::isDivergentCSR(0xCD4));  // threadIdx.y
  EXPECT_TRUE(vortex::isDivergentCSR(0xF14));  // mhartid
  EXPECT_FALSE(vortex::isDivergentCSR(0xCD6)); // blockIdx.x
  EXPECT_FALSE(vortex::isDivergentCSR(0xFC0)); // lanes per warp
  EXPECT_FALSE(vortex::lookupCSR(0xCE0));
  EXPECT_FALSE(vortex::isDivergentCSR(0x12345));
}

TEST(GeneratedTables, VortexInstructions) {
  const vortex::InsnInfo &Split = vortex::insn("vx_split");
  EXPECT_EQ(Split.Opcode, 0x0bu);
  EXPECT_EQ(Split.Funct3, 2u);
  EXPECT_EQ(Split.Funct7, 0u);
  EXPECT_EQ(vortex::insnAsm(Split, "$0", "$1", "x0"),
            ".insn r 0x0b, 2, 0, $0, $1, x0");
  const vortex::InsnInfo *Ballot = vortex::lookupInsn(0x0b, 3, 1);
  ASSERT_TRUE(Ballot);
  EXPECT_STREQ(Ballot->Mnemonic, "vx_vote_ballot");
  EXPECT_EQ(Ballot->Kind, vortex::AsmKind::Vote);
  EXPECT_EQ(vortex::lookupInsn(0x0b, 6, 1)->Kind, vortex::AsmKind::Shuffle);
  EXPECT_FALSE(vortex::lookupInsn(0x0b, 0, 2));
  EXPECT_FALSE(vortex::lookupInsn(0x2b, 0, 0));
  // The decoder reads the same table.
  EXPECT_EQ(vortex::decodeAsmText(".insn r 0x0b, 4, 0, x0, a0, a1").Kind,
            vortex::AsmKind::Barrier);
  EXPECT_EQ(vortex::decodeAsmText(".insn r 11, 7, 1, a0, a0, a1").Kind,
            vortex::AsmKind::Shuffle);
}

TEST(GeneratedTables, VortexConfigurations) {
  const vortex::HWConfig *C = vortex::lookupHWConfig("w8t32a");
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Threads, 32u);
  EXPECT_EQ(C->Warps, 8u);
  EXPECT_EQ(vortex::lookupHWConfig("DEFAULT"),
            vortex::lookupHWConfig("default"));
  EXPECT_FALSE(vortex::lookupHWConfig("w64t64"));
  EXPECT_EQ(vortex::hwConfigs().size(), 3u);
}

/// Each configuration of the table against the Vortex build of that name
/// (../shared/vortex/prebuilt/<name>/config/cflags.txt, or
/// $CROSSLANE_VORTEX_HOME's).
TEST(GeneratedTables, VortexConfigurationsMatchTheVortexBuilds) {
  const char *Home = std::getenv("CROSSLANE_VORTEX_HOME");
  if (!Home || !sys::fs::is_directory(Home))
    GTEST_SKIP() << "*** no Vortex installation (CROSSLANE_VORTEX_HOME): the "
                    "configurations were not compared ***";
  for (const vortex::HWConfig &C : vortex::hwConfigs()) {
    SmallString<128> Dir(Home);
    sys::path::append(Dir, "prebuilt", C.Name);
    exec::VortexConfig Built;
    std::string Err;
    ASSERT_TRUE(exec::readVortexConfig(Dir, Built, Err)) << Err;
    EXPECT_EQ(Built.Threads, C.Threads) << C.Name;
    EXPECT_EQ(Built.Warps, C.Warps) << C.Name;
    EXPECT_EQ(Built.Cores, C.Cores) << C.Name;
    EXPECT_EQ(Built.LmemLogSize, C.LmemLogSize) << C.Name;
    EXPECT_EQ(Built.Barriers, C.Barriers) << C.Name;
  }
}

TEST(GeneratedTables, XeChipsAndOperations) {
  EXPECT_EQ(xe::xeChipNames(), "bmg, cri, dg2, lnl, ptl, pvc");
  EXPECT_FALSE(xe::lookupXeChip("dg2")->Has2DBlock);
  EXPECT_EQ(xe::lookupXeChip("lnl")->BlockGen, 1u);
  EXPECT_TRUE(xe::lookupXeChip("ptl")->Has2DBlock);
  EXPECT_EQ(xe::lookupXeChip("ptl")->BlockGen, 1u);
  EXPECT_EQ(xe::lookupXeChip("pvc")->BlockGen, 0u);
  EXPECT_EQ(xe::lookupXeChip("cri")->BlockGen, 2u);
  EXPECT_EQ(xe::widestXeChip(), xe::lookupXeChip("cri"));
  EXPECT_EQ(xe::opName(xe::BlockOp::LoadTransform), "load-transform (VNNI)");
  // The wide VNNI limit applies only where the chip has it.
  xe::BlockShape S{1, 64, 32, 1};
  EXPECT_EQ(xe::checkShape(*xe::lookupXeChip("bmg"), xe::BlockOp::LoadTransform,
                           S, 16),
            "");
  EXPECT_NE(xe::checkShape(*xe::lookupXeChip("pvc"), xe::BlockOp::LoadTransform,
                           S, 16),
            "");
  // Xe3P's shapes on Xe3P only: a 16-wide transpose, a 256-byte prefetch
  // row (but not one of 128 bytes, which no generation has).
  for (const char *Chip : {"pvc", "bmg", "ptl", "cri"}) {
    bool Xe3P = xe::lookupXeChip(Chip)->BlockGen == 2;
    const xe::XeChip &C = *xe::lookupXeChip(Chip);
    EXPECT_EQ(xe::checkShape(C, xe::BlockOp::LoadTranspose, {4, 16, 16, 1}, 16)
                  .empty(),
              Xe3P)
        << Chip;
    EXPECT_EQ(
        xe::checkShape(C, xe::BlockOp::LoadTranspose, {8, 8, 8, 1}, 16).empty(),
        Xe3P)
        << Chip;
    EXPECT_EQ(
        xe::checkShape(C, xe::BlockOp::Prefetch, {1, 256, 8, 1}, 16).empty(),
        Xe3P)
        << Chip;
    EXPECT_EQ(
        xe::checkShape(C, xe::BlockOp::Prefetch, {4, 16, 2, 4}, 16).empty(),
        Xe3P)
        << Chip;
    EXPECT_NE(xe::checkShape(C, xe::BlockOp::Prefetch, {1, 128, 8, 1}, 16), "")
        << Chip;
  }
  EXPECT_EQ(xe::checkShape(*xe::lookupXeChip("cri"), xe::BlockOp::Prefetch,
                           {1, 128, 8, 1}, 16),
            "the block width must be 4 to 64 elements for 1-byte elements; "
            "Xe3P also has 1-32 rows of 64-256 elements, up to 4 blocks, "
            "width x count 256");
  // Xe2's 32-wide VNNI loads of words reach 16 rows.
  EXPECT_EQ(xe::checkShape(*xe::lookupXeChip("bmg"), xe::BlockOp::LoadTransform,
                           {2, 32, 16, 1}, 16),
            "");
  EXPECT_NE(xe::checkShape(*xe::lookupXeChip("bmg"), xe::BlockOp::LoadTransform,
                           {2, 32, 32, 1}, 16),
            "");
  // An element size without limits gets the operation's reason.
  xe::BlockShape T{2, 16, 8, 1};
  EXPECT_EQ(xe::checkShape(*xe::lookupXeChip("pvc"), xe::BlockOp::LoadTranspose,
                           T, 16)
                .find("load-transpose takes 4- or 8-byte elements"),
            0u);
}

TEST(GeneratedTables, XeGuaranteedShapes) {
  // cl_intel_subgroup_2d_block_io 1.1.0's table, expanded (research
  // xe-block-io.md §2.4): 45 loads, 7 VNNI loads, 2 transposed loads, 16
  // stores, 47 prefetches.
  EXPECT_EQ(xe::guaranteedShapes().size(), 117u);
  for (const char *Name : {"pvc", "bmg", "lnl"})
    for (const xe::GuaranteedShape &G : xe::guaranteedShapes()) {
      xe::BlockShape S{G.ElemBytes, G.W, G.H, G.C};
      EXPECT_EQ(xe::checkShape(*xe::lookupXeChip(Name), G.Op, S, 16), "")
          << Name << " " << xe::opName(G.Op).str() << " " << G.H << "r" << G.W
          << "x" << G.C << "c";
    }
  EXPECT_TRUE(xe::isGuaranteed(xe::BlockOp::LoadTransform, {2, 16, 32, 2}));
  // Xe2's wide VNNI load is valid on bmg but not guaranteed.
  EXPECT_FALSE(xe::isGuaranteed(xe::BlockOp::LoadTransform, {2, 32, 32, 1}));
  EXPECT_FALSE(xe::isGuaranteed(xe::BlockOp::Load, {8, 8, 8, 1}));
}

TEST(GeneratedTables, AMDGPUQuirks) {
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  EXPECT_TRUE(ChipInfo::get("gfx1100", "")->DPPCombineSub32ImmBug);
  EXPECT_TRUE(ChipInfo::get("gfx1103", "")->DPPCombineSub32ImmBug);
  EXPECT_FALSE(ChipInfo::get("gfx1150", "")->DPPCombineSub32ImmBug);
  EXPECT_FALSE(ChipInfo::get("gfx942", "")->DPPCombineSub32ImmBug);
  EXPECT_EQ(ChipInfo::computeUnits("gfx942"), 304u);
  EXPECT_EQ(ChipInfo::computeUnits("gfx1201"), 64u);
  EXPECT_EQ(ChipInfo::computeUnits("gfx1150"), 0u);
}

} // namespace
