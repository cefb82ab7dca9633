//===- AMDGPUChips.td - AMDGPU facts LLVM 22 does not model ---------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The AMDGPU facts Crosslane keeps itself: everything else ChipInfo asks of
// LLVM's subtarget. A quirk applies to every chip of its ISA major.minor; a
// product fact to one chip. crosslane-tblgen -gen-table-structs rejects two
// records for one ISA version or one chip name; llvm-tblgen
// -gen-searchable-tables gives the lookups.
//
//===----------------------------------------------------------------------===//

include "llvm/TableGen/SearchableTable.td"

class AMDGPUQuirk<bits<8> major, bits<8> minor, string why> {
  bits<8> Major = major;
  bits<8> Minor = minor;
  string Why = why;
  /// GCNDPPCombine forms VOP3-DPP with an immediate src1 the assembler
  /// rejects when a sub-32-bit DPP result is extended; Crosslane widens
  /// 16-bit values before DPP everywhere.
  bit DPPCombineSub32ImmBug = false;
}

def GFX11_0 : AMDGPUQuirk<11, 0, "triton-lang/triton PRs #10449/#10452"> {
  let DPPCombineSub32ImmBug = true;
}

def AMDGPUQuirkTable : GenericTable {
  let FilterClass = "AMDGPUQuirk";
  let CppTypeName = "ChipQuirk";
  let Fields = ["Major", "Minor", "DPPCombineSub32ImmBug"];
  let PrimaryKey = ["Major", "Minor"];
  let PrimaryKeyName = "lookupChipQuirk";
}

/// What LLVM's subtarget does not say about a chip's products: the compute
/// units of its largest part (public product specifications), which the
/// lowering-config heuristic and cost measure spread workgroups over.
class AMDGPUProduct<string name, bits<16> computeUnits, string part> {
  string Name = name;
  bits<16> ComputeUnits = computeUnits;
  string Part = part;
}

def : AMDGPUProduct<"gfx908", 120, "Instinct MI100">;
def : AMDGPUProduct<"gfx90a", 110, "Instinct MI250X (one die)">;
def : AMDGPUProduct<"gfx942", 304, "Instinct MI300X">;
def : AMDGPUProduct<"gfx950", 256, "Instinct MI355X">;
def : AMDGPUProduct<"gfx1030", 80, "Radeon RX 6900 XT">;
def : AMDGPUProduct<"gfx1100", 96, "Radeon RX 7900 XTX">;
def : AMDGPUProduct<"gfx1101", 60, "Radeon RX 7800 XT">;
def : AMDGPUProduct<"gfx1200", 32, "Radeon RX 9060 XT">;
def : AMDGPUProduct<"gfx1201", 64, "Radeon RX 9070 XT">;

def AMDGPUProductTable : GenericTable {
  let FilterClass = "AMDGPUProduct";
  let CppTypeName = "AMDGPUProduct";
  let Fields = ["Name", "ComputeUnits"];
}

def lookupAMDGPUProduct : SearchIndex {
  let Table = AMDGPUProductTable;
  let Key = ["Name"];
}
