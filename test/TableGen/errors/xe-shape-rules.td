// Xe shape limits that break the rules every 2D block message obeys, a
// chip defined twice, an operation without limits and two generations of
// one rank: TableGen errors at the records.
// RUN: not %crosslane-tblgen -gen-xe-block-io -I %crosslane_src/include \
// RUN:   -I %llvm_include %s 2>&1 | FileCheck %s

include "crosslane/Xe/XeBlockIO.td"

// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'PVCAgain' has the same chip name (pvc) as 'XeChipPVC'
def PVCAgain : XeChip<"pvc", "Xe-HPC", true, XeHPCBlocks>;

// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'TooWide': a block row of 32 x 4 bytes exceeds 64 bytes
def TooWide : XeBlockLimit<XeLoad, 4, 1, 32, 1, 32, 1, 32, Xe2Blocks>;
// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'TooNarrow': a block row of 1 x 2 bytes is narrower than a dword
def TooNarrow : XeBlockLimit<XeStore, 2, 1, 8, 1, 16, 1, 16, Xe2Blocks>;
// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'TooTall': more than 32 rows (64)
def TooTall : XeBlockLimit<XePrefetch, 1, 1, 64, 4, 64, 4, 64, Xe2Blocks>;
// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'OddBound': bound 24 is not a power of two
def OddBound : XeBlockLimit<XeLoadTranspose, 4, 1, 24, 1, 8, 1, 8, Xe2Blocks>;
// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'OddElem': element size 3 is not 1, 2, 4 or 8 bytes
def OddElem : XeBlockLimit<XeLoad, 3, 1, 32, 4, 16, 1, 16>;
// A prefetch row as wide as its generation allows, no wider; other rows
// 64 bytes on every generation.
// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'PrefetchTooWide': a block row of 256 x 2 bytes exceeds 256 bytes
def PrefetchTooWide : XeBlockLimit<XePrefetch, 2, 1, 32, 2, 256, 1, 256, Xe3PBlocks>;
// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'LoadTooWide': a block row of 128 x 1 bytes exceeds 64 bytes
def LoadTooWide : XeBlockLimit<XeLoad, 1, 1, 32, 4, 128, 1, 128, Xe3PBlocks>;
// CHECK: xe-shape-rules.td:[[@LINE+2]]:5: error: 'XeGather' has no XeBlockLimit
// CHECK: xe-shape-rules.td:[[@LINE+2]]:5: error: 'WideAlone' adds to no limit that every chip has
def XeGather : XeBlockOp<"Gather", "gather">;
def WideAlone : XeBlockLimit<XeLoadTransform, 4, 1, 32, 1, 16, 1, 16, Xe2Blocks>;
// CHECK: xe-shape-rules.td:[[@LINE+1]]:5: error: 'SameRank': rank 1 is not unique or leaves a gap
def SameRank : XeBlockGen<1, "Xe2 again">;
