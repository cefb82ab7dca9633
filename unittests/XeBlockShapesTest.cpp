//===- XeBlockShapesTest.cpp - Xe 2D block shape rules
//----------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The validator's shape rules (lib/Xe/BlockShapes.cpp, from IGC's hardware
// constraint table) against tables written by others:
//  - every shape the OpenCL SPIR-V environment guarantees
//    (cl_intel_subgroup_2d_block_io 1.1.0) and every shape of MLIR 22's
//    XeGPU uArch tables (IntelGpuXe2.h, pvc and bmg) must be accepted;
//  - shapes MLIR's XeVM verifier or IGC reject must be rejected;
//  - per-lane sizes match the OpenCL function signatures' private types
//    (e.g. read_16b_8r16x2c takes 16 ushorts, transform_16b_16r16x2c 16
//    uints, transpose_32b_16r8x1c 8 uints).
//
//===----------------------------------------------------------------------===//

#include "../lib/Xe/BlockShapes.h"

#include "gtest/gtest.h"

using namespace crosslane::xe;

namespace {

struct Row {
  BlockOp Op;
  unsigned Es, W;
  std::vector<unsigned> Hs, Cs;
};

/// The OpenCL SPIR-V environment table (research/xe-block-io.md §2.4) and
/// MLIR's uArch table (§3.4).
const Row Guaranteed[] = {
    {BlockOp::Load, 1, 32, {1, 2, 4, 8, 16, 32}, {1, 2}},
    {BlockOp::Load, 1, 16, {8, 16, 32}, {4}},
    {BlockOp::Load, 2, 16, {1, 2, 4, 8, 16, 32}, {1, 2}},
    {BlockOp::Load, 4, 8, {1, 2, 4, 8, 16, 32}, {1, 2}},
    {BlockOp::Load, 4, 16, {1, 2, 4, 8, 16, 32}, {1}},
    {BlockOp::LoadTransform, 1, 16, {32}, {1, 2, 4}},
    {BlockOp::LoadTransform, 2, 16, {16, 32}, {1, 2}},
    {BlockOp::LoadTranspose, 4, 8, {16, 32}, {1}},
    {BlockOp::Store, 1, 16, {1, 2, 4, 8}, {1}},
    {BlockOp::Store, 1, 32, {1, 2, 4, 8}, {1}},
    {BlockOp::Store, 2, 16, {1, 2, 4, 8}, {1}},
    {BlockOp::Store, 4, 16, {1, 2, 4, 8}, {1}},
    {BlockOp::Prefetch, 1, 32, {1, 2, 4, 8, 16, 32}, {1, 2}},
    {BlockOp::Prefetch, 1, 16, {32}, {1, 2}},
    {BlockOp::Prefetch, 1, 16, {8, 16, 32}, {4}},
    {BlockOp::Prefetch, 2, 16, {1, 2, 4, 8, 16, 32}, {1, 2}},
    {BlockOp::Prefetch, 4, 8, {1, 2, 4, 8, 16, 32}, {1, 2}},
    {BlockOp::Prefetch, 4, 16, {1, 2, 4, 8, 16, 32}, {1}},
};

TEST(XeBlockShapes, GuaranteedShapesAreValidOnEveryXeChip) {
  for (const char *Name : {"pvc", "bmg", "lnl"}) {
    const XeChip *Chip = lookupXeChip(Name);
    ASSERT_TRUE(Chip);
    for (const Row &R : Guaranteed)
      for (unsigned H : R.Hs)
        for (unsigned C : R.Cs) {
          BlockShape S{R.Es, R.W, H, C};
          EXPECT_EQ(checkShape(*Chip, R.Op, S, 16), "")
              << Name << " " << opName(R.Op).str() << " " << R.Es << "B " << H
              << "r" << R.W << "x" << C << "c";
        }
  }
}

TEST(XeBlockShapes, RejectsWhatXeVMAndIGCReject) {
  const XeChip &Pvc = *lookupXeChip("pvc");
  struct Bad {
    BlockOp Op;
    BlockShape S;
  } Cases[] = {
      {BlockOp::Load, {2, 12, 8, 1}},           // W not a power of two
      {BlockOp::Load, {2, 16, 64, 1}},          // rows > 32
      {BlockOp::Load, {2, 32, 8, 2}},           // 128 bytes per row
      {BlockOp::Load, {4, 16, 8, 2}},           // 32-bit W=16 only with C=1
      {BlockOp::Load, {8, 8, 8, 2}},            // 64-bit: C = 1
      {BlockOp::Load, {3, 16, 8, 1}},           // element size
      {BlockOp::LoadTransform, {4, 16, 8, 1}},  // 32-bit VNNI
      {BlockOp::LoadTransform, {2, 32, 16, 1}}, // W 32: Xe2 only
      {BlockOp::LoadTransform, {1, 16, 2, 1}},  // 8-bit VNNI needs 4 rows
      {BlockOp::LoadTranspose, {2, 16, 8, 1}},  // 16-bit transpose
      {BlockOp::LoadTranspose, {4, 16, 8, 1}},  // W 16: Xe3P only
      {BlockOp::LoadTranspose, {4, 8, 16, 2}},  // C = 1
      {BlockOp::Store, {2, 16, 16, 1}},         // store H <= 8
      {BlockOp::Store, {2, 16, 8, 2}},          // store C = 1
      {BlockOp::Load, {1, 2, 8, 1}},            // 8-bit W multiple of 4
  };
  for (const Bad &B : Cases)
    EXPECT_NE(checkShape(Pvc, B.Op, B.S, 16), "")
        << opName(B.Op).str() << " " << B.S.ElemBytes << "B " << B.S.H << "r"
        << B.S.W << "x" << B.S.C << "c";
  // Xe2's wide VNNI (IGC: supports2dBlockTransform64ElementsWidth).
  EXPECT_EQ(checkShape(*lookupXeChip("bmg"), BlockOp::LoadTransform,
                       {2, 32, 16, 1}, 16),
            "");
  EXPECT_EQ(checkShape(*lookupXeChip("lnl"), BlockOp::LoadTransform,
                       {1, 64, 32, 1}, 16),
            "");
  EXPECT_FALSE(lookupXeChip("dg2")->Has2DBlock);
}

TEST(XeBlockShapes, LaneBytesMatchTheOpenCLSignatures) {
  // intel_sub_group_2d_block_read_16b_8r16x2c(..., private ushort *): 16.
  EXPECT_EQ(laneBytes(BlockOp::Load, {2, 16, 8, 2}, 16), 16u * 2);
  // read_8b_32r16x4c: 128 uchar (research/xe-block-io.md §2.5).
  EXPECT_EQ(laneBytes(BlockOp::Load, {1, 16, 32, 4}, 16), 128u);
  // read_32b_1r8x1c: one uint (lanes 8-15 get nothing).
  EXPECT_EQ(laneBytes(BlockOp::Load, {4, 8, 1, 1}, 16), 4u);
  // read_transform_16b_16r16x2c: 16 uint.
  EXPECT_EQ(laneBytes(BlockOp::LoadTransform, {2, 16, 16, 2}, 16), 64u);
  // read_transform_8b_32r16x1c: 8 uint.
  EXPECT_EQ(laneBytes(BlockOp::LoadTransform, {1, 16, 32, 1}, 16), 32u);
  // read_transpose_32b_16r8x1c: 8 uint.
  EXPECT_EQ(laneBytes(BlockOp::LoadTranspose, {4, 8, 16, 1}, 16), 32u);
  // write_32b_8r16x1c: 8 uint.
  EXPECT_EQ(laneBytes(BlockOp::Store, {4, 16, 8, 1}, 16), 32u);
  EXPECT_EQ(laneBytes(BlockOp::Prefetch, {2, 16, 8, 1}, 16), 0u);
}

TEST(XeBlockShapes, SurfaceRules) {
  EXPECT_NE(checkWidth(32, 2), "");
  EXPECT_NE(checkWidth(66, 2), ""); // multiple of 4 for 2-byte elements
  EXPECT_NE(checkWidth(68, 8), ""); // multiple of the element size
  EXPECT_EQ(checkWidth(64, 1), "");
  EXPECT_NE(checkHeight(0), "");
  EXPECT_NE(checkPitch(100), "");
  EXPECT_EQ(checkPitch(128), "");
  EXPECT_NE(checkPitchVsWidth(64, 128), "");
  EXPECT_NE(checkX(2, 1), "");
  EXPECT_EQ(checkX(4, 1), "");
  EXPECT_NE(checkX(3, 2), "");
  EXPECT_EQ(checkX(3, 4), "");
}

} // namespace
