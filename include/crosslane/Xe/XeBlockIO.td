//===- XeBlockIO.td - Intel Xe 2D block IO: chips and shape limits --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Facts: ../shared/research/xe-block-io.md (§4: IGC's Constraints records
// for the 2D block messages; §2: which chips advertise
// cl_intel_subgroup_2d_block_io). crosslane-tblgen -gen-xe-block-io emits
// the BlockOp enum, the chips and the limits, after checking every limit
// against the rules all 2D block messages obey and that no chip, operation
// or (operation, element size, chip class) is defined twice.
//
//===----------------------------------------------------------------------===//

include "llvm/TableGen/SearchableTable.td"

/// A 2D block operation (crosslane::xe::BlockOp, in this order).
/// NoElemWhy: the diagnostic for an element size it has no limit for.
class XeBlockOp<string enumerator, string name, string noElemWhy = ""> {
  string Enumerator = enumerator;
  string Name = name;
  string NoElemWhy = noElemWhy;
}

def XeLoad : XeBlockOp<"Load", "load">;
def XeLoadTransform : XeBlockOp<"LoadTransform", "load-transform (VNNI)",
    "load-transform (VNNI) packs 1- or 2-byte elements into dwords">;
def XeLoadTranspose : XeBlockOp<"LoadTranspose", "load-transpose",
    "load-transpose takes 4- or 8-byte elements (transpose narrower data as "
    "32-bit elements, with x and the width scaled)">;
def XePrefetch : XeBlockOp<"Prefetch", "prefetch">;
def XeStore : XeBlockOp<"Store", "store">;

/// A generation of 2D block messages. Each has every shape of the one
/// before it and adds some (IGC's supported-variants tables: "XE HPC+",
/// "XE2+", "XE3P+"). Rank orders them; PrefetchRowBytes bounds a
/// prefetched block row (width x count x element size).
class XeBlockGen<int rank, string name, int prefetchRowBytes = 64> {
  int Rank = rank;
  string Name = name;
  int PrefetchRowBytes = prefetchRowBytes;
}
def XeHPCBlocks : XeBlockGen<0, "Xe-HPC">;
// Xe2 (BMG, LNL) and later: VNNI rows of up to 64 bytes.
def Xe2Blocks : XeBlockGen<1, "Xe2">;
// Xe3P (NVL-P, CRI): 16-wide 4-byte and 8-wide 8-byte transposes,
// prefetch rows of 256 bytes.
def Xe3PBlocks : XeBlockGen<2, "Xe3P", 256>;

/// A chip the validator knows. Has2DBlock: advertises
/// cl_intel_subgroup_2d_block_io; Blocks: the generation of its 2D block
/// messages (BlockGen is its rank).
/// LocalMemBytes and MaxWorkGroupSize: the shared local memory one
/// work-group may use and its largest size, as kernel generators
/// (crosslane-reduce) must assume them: 64 KiB, which every one of these
/// chips provides at least (PVC's Xe-cores have more), and 1024 work-items
/// (a kernel's register use can lower both at run time).
class XeChip<string name, string family, bit has2DBlock, XeBlockGen blocks,
             int localMemBytes = 65536, int maxWorkGroupSize = 1024> {
  string Name = name;
  string Family = family;
  bit Has2DBlock = has2DBlock;
  bits<8> BlockGen = blocks.Rank;
  bits<32> LocalMemBytes = localMemBytes;
  bits<32> MaxWorkGroupSize = maxWorkGroupSize;
}

def XeChipPVC : XeChip<"pvc", "Xe-HPC", true, XeHPCBlocks>;
def XeChipBMG : XeChip<"bmg", "Xe2", true, Xe2Blocks>;
def XeChipLNL : XeChip<"lnl", "Xe2", true, Xe2Blocks>;
// Xe3 (Panther Lake) has Xe2's 2D block messages: IGC's supported-variants
// list names PTL with the Xe-HPC rules for loads, stores and transposes and
// with the Xe2 ones for wide VNNI rows (research/xe-block-io.md §4.1).
def XeChipPTL : XeChip<"ptl", "Xe3", true, Xe2Blocks>;
// Crescent Island: IGC's supported-variants list (XE3P+) and its platform
// bits supports2dBlockTranspose64ByteWidth and
// supports2dBlockPrefetch256Bytes.
def XeChipCRI : XeChip<"cri", "Xe3P", true, Xe3PBlocks>;
def XeChipDG2 : XeChip<"dg2", "Xe-HPG", false, XeHPCBlocks>;

def XeChipTable : GenericTable {
  let FilterClass = "XeChip";
  let CppTypeName = "XeChip";
  let Fields = ["Name", "Family", "Has2DBlock", "BlockGen",
                "LocalMemBytes", "MaxWorkGroupSize"];
}

def lookupXeChip : SearchIndex {
  let Table = XeChipTable;
  let Key = ["Name"];
}

/// Inclusive bounds of one operation for one element size: block height
/// (rows), width (elements), count, and width x count (at least MinWC when
/// set). A limit of a later generation adds shapes to those of the limits
/// of earlier ones, on the chips of that generation and later.
class XeBlockLimit<XeBlockOp op, int elemBytes, int minH, int maxH, int minW,
                   int maxW, int maxC, int maxWC,
                   XeBlockGen gen = XeHPCBlocks, int minWC = 0> {
  XeBlockOp Op = op;
  int ElemBytes = elemBytes;
  int MinH = minH;
  int MaxH = maxH;
  int MinW = minW;
  int MaxW = maxW;
  int MaxC = maxC;
  int MaxWC = maxWC;
  int MinWC = !if(!eq(minWC, 0), minW, minWC);
  XeBlockGen Gen = gen;
}

// Reads and prefetches.
multiclass XeReadLimits<XeBlockOp op> {
  def _1B : XeBlockLimit<op, 1, 1, 32, 4, 64, 4, 64>;
  def _2B : XeBlockLimit<op, 2, 1, 32, 2, 32, 4, 32>;
  def _4B : XeBlockLimit<op, 4, 1, 32, 1, 16, 2, 16>;
  def _8B : XeBlockLimit<op, 8, 1, 32, 1, 8, 1, 8>;
}
defm XeLoadLimit : XeReadLimits<XeLoad>;
defm XePrefetchLimit : XeReadLimits<XePrefetch>;

// VNNI: 4 rows of bytes or 2 rows of words per dword. Xe2 adds rows of
// 32 and 64 bytes, and of 32 words up to 16 rows high.
def XeTransformLimit_1B : XeBlockLimit<XeLoadTransform, 1, 4, 32, 4, 16, 4, 64>;
def XeTransformLimit_2B : XeBlockLimit<XeLoadTransform, 2, 2, 32, 2, 16, 4, 32>;
def XeTransformLimit_1B_Xe2
    : XeBlockLimit<XeLoadTransform, 1, 4, 32, 32, 64, 2, 64, Xe2Blocks>;
def XeTransformLimit_2B_Xe2
    : XeBlockLimit<XeLoadTransform, 2, 2, 16, 32, 32, 1, 32, Xe2Blocks>;

// Xe3P adds 16-wide 4-byte and 8-wide 8-byte transposes.
def XeTransposeLimit_4B : XeBlockLimit<XeLoadTranspose, 4, 1, 32, 1, 8, 1, 8>;
def XeTransposeLimit_8B : XeBlockLimit<XeLoadTranspose, 8, 8, 8, 1, 4, 1, 4>;
def XeTransposeLimit_4B_Xe3P
    : XeBlockLimit<XeLoadTranspose, 4, 1, 32, 16, 16, 1, 16, Xe3PBlocks>;
def XeTransposeLimit_8B_Xe3P
    : XeBlockLimit<XeLoadTranspose, 8, 8, 8, 8, 8, 1, 8, Xe3PBlocks>;

// Xe3P prefetches rows of exactly 256 bytes (one to four blocks).
def XePrefetchLimit_1B_Xe3P
    : XeBlockLimit<XePrefetch, 1, 1, 32, 64, 256, 4, 256, Xe3PBlocks, 256>;
def XePrefetchLimit_2B_Xe3P
    : XeBlockLimit<XePrefetch, 2, 1, 32, 32, 128, 4, 128, Xe3PBlocks, 128>;
def XePrefetchLimit_4B_Xe3P
    : XeBlockLimit<XePrefetch, 4, 1, 32, 16, 64, 4, 64, Xe3PBlocks, 64>;
def XePrefetchLimit_8B_Xe3P
    : XeBlockLimit<XePrefetch, 8, 1, 32, 8, 32, 4, 32, Xe3PBlocks, 32>;

// Stores write one block of at most 8 rows.
def XeStoreLimit_1B : XeBlockLimit<XeStore, 1, 1, 8, 4, 64, 1, 64>;
def XeStoreLimit_2B : XeBlockLimit<XeStore, 2, 1, 8, 2, 32, 1, 32>;
def XeStoreLimit_4B : XeBlockLimit<XeStore, 4, 1, 8, 1, 16, 1, 16>;
def XeStoreLimit_8B : XeBlockLimit<XeStore, 8, 1, 8, 1, 8, 1, 8>;

/// Shapes the OpenCL SPIR-V environment guarantees on every device with
/// cl_intel_subgroup_2d_block_io 1.1.0 (research/xe-block-io.md §2.4),
/// subgroup size 16: every combination of the listed widths, heights and
/// counts. -gen-xe-block-io checks each against the limits every chip has.
/// Heights are the powers of two (the table's "1..32" for prefetches).
class XeGuaranteedShape<XeBlockOp op, int elemBytes, list<int> widths,
                        list<int> heights, list<int> counts> {
  XeBlockOp Op = op;
  int ElemBytes = elemBytes;
  list<int> Widths = widths;
  list<int> Heights = heights;
  list<int> Counts = counts;
}

defvar XeAllHeights = [1, 2, 4, 8, 16, 32];
def : XeGuaranteedShape<XeLoad, 1, [32], XeAllHeights, [1, 2]>;
def : XeGuaranteedShape<XeLoad, 1, [16], [8, 16, 32], [4]>;
def : XeGuaranteedShape<XeLoad, 2, [16], XeAllHeights, [1, 2]>;
def : XeGuaranteedShape<XeLoad, 4, [8], XeAllHeights, [1, 2]>;
def : XeGuaranteedShape<XeLoad, 4, [16], XeAllHeights, [1]>;
def : XeGuaranteedShape<XeLoadTransform, 1, [16], [32], [1, 2, 4]>;
def : XeGuaranteedShape<XeLoadTransform, 2, [16], [16, 32], [1, 2]>;
def : XeGuaranteedShape<XeLoadTranspose, 4, [8], [16, 32], [1]>;
def : XeGuaranteedShape<XeStore, 1, [16, 32], [1, 2, 4, 8], [1]>;
def : XeGuaranteedShape<XeStore, 2, [16], [1, 2, 4, 8], [1]>;
def : XeGuaranteedShape<XeStore, 4, [16], [1, 2, 4, 8], [1]>;
def : XeGuaranteedShape<XePrefetch, 1, [32], XeAllHeights, [1, 2]>;
def : XeGuaranteedShape<XePrefetch, 1, [16], [32], [1, 2]>;
def : XeGuaranteedShape<XePrefetch, 1, [16], [8, 16, 32], [4]>;
def : XeGuaranteedShape<XePrefetch, 2, [16], XeAllHeights, [1, 2]>;
def : XeGuaranteedShape<XePrefetch, 4, [8], XeAllHeights, [1, 2]>;
def : XeGuaranteedShape<XePrefetch, 4, [16], XeAllHeights, [1]>;
