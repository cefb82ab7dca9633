//===- AMDGPUQuirks.td - AMDGPU facts LLVM 22 does not model --------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The one hand-kept table of per-chip AMDGPU facts: everything else
// ChipInfo asks of LLVM's subtarget. A quirk applies to every chip of its
// ISA major.minor. crosslane-tblgen -gen-table-structs rejects two records
// for one ISA version; llvm-tblgen -gen-searchable-tables gives the lookup.
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
