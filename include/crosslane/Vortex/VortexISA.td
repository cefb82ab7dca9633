//===- VortexISA.td - Vortex v3.0 CSRs, instructions, configurations ------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The Vortex hardware facts Crosslane's passes and executor use. CSR numbers
// and names: Vortex v3.0 VX_types.toml (kernel/include/VX_types.h), checked
// against simx's csr_unit. Instructions: the custom-0 R-type forms of
// kernel/include/vx_intrinsics.h (decoded by simx's decode.cpp).
// Configurations: the VX_CFG_* values of Vortex builds.
//
// crosslane-tblgen -gen-vortex-isa emits the enums and the instruction
// table and rejects a CSR number, CSR name or encoding used twice;
// -gen-table-structs and llvm-tblgen -gen-searchable-tables give the
// lookups by CSR number and configuration name.
//
//===----------------------------------------------------------------------===//

include "llvm/TableGen/SearchableTable.td"

//===----------------------------------------------------------------------===//
// CSRs
//===----------------------------------------------------------------------===//

/// A Vortex CSR. Enumerator: its name in crosslane::vortex::CSR (empty: not
/// named in C++). Divergent: lanes of one warp read different values.
class VortexCSR<string name, bits<12> number, string enumerator, string doc,
                bit divergent = false> {
  string Name = name;
  bits<12> Number = number;
  string Enumerator = enumerator;
  string Doc = doc;
  bit Divergent = divergent;
}

def : VortexCSR<"VX_CSR_MCYCLE", 0xB00, "CSRMCycle",
                "cycle counter, low word">;
def : VortexCSR<"VX_CSR_MCYCLE_H", 0xB80, "CSRMCycleH",
                "cycle counter, high word">;
def : VortexCSR<"cycle", 0xC00, "CSRCycle", "user cycle counter, low word">;
def : VortexCSR<"cycleh", 0xC80, "CSRCycleH",
                "user cycle counter, high word">;
def : VortexCSR<"VX_CSR_THREAD_ID", 0xCC0, "CSRThreadId",
                "lane within the warp", true>;
def : VortexCSR<"VX_CSR_WARP_ID", 0xCC1, "CSRWarpId", "warp within the core">;
def : VortexCSR<"VX_CSR_CORE_ID", 0xCC2, "CSRCoreId", "core">;
def : VortexCSR<"VX_CSR_ACTIVE_WARPS", 0xCC3, "CSRActiveWarps",
                "active-warps mask">;
def : VortexCSR<"VX_CSR_ACTIVE_THREADS", 0xCC4, "CSRActiveThreads",
                "the warp's thread mask">;
def : VortexCSR<"VX_CSR_CTA_ID", 0xCD0, "CSRCtaId",
                "the CTA's slot on its core">;
def : VortexCSR<"VX_CSR_CTA_RANK", 0xCD1, "CSRCtaRank",
                "warp rank inside the CTA">;
def : VortexCSR<"VX_CSR_CTA_SIZE", 0xCD2, "CSRCtaSize", "warps in the CTA">;
def : VortexCSR<"VX_CSR_CTA_THREAD_ID_X", 0xCD3, "CSRThreadIdxX",
                "threadIdx.x", true>;
def : VortexCSR<"VX_CSR_CTA_THREAD_ID_Y", 0xCD4, "CSRThreadIdxY",
                "threadIdx.y", true>;
def : VortexCSR<"VX_CSR_CTA_THREAD_ID_Z", 0xCD5, "CSRThreadIdxZ",
                "threadIdx.z", true>;
def : VortexCSR<"VX_CSR_CTA_BLOCK_ID_X", 0xCD6, "CSRBlockIdxX", "blockIdx.x">;
def : VortexCSR<"VX_CSR_CTA_BLOCK_ID_Y", 0xCD7, "CSRBlockIdxY", "blockIdx.y">;
def : VortexCSR<"VX_CSR_CTA_BLOCK_ID_Z", 0xCD8, "CSRBlockIdxZ", "blockIdx.z">;
def : VortexCSR<"VX_CSR_CTA_BLOCK_DIM_X", 0xCD9, "CSRBlockDimX", "blockDim.x">;
def : VortexCSR<"VX_CSR_CTA_BLOCK_DIM_Y", 0xCDA, "CSRBlockDimY", "blockDim.y">;
def : VortexCSR<"VX_CSR_CTA_BLOCK_DIM_Z", 0xCDB, "CSRBlockDimZ", "blockDim.z">;
def : VortexCSR<"VX_CSR_CTA_GRID_DIM_X", 0xCDC, "CSRGridDimX", "gridDim.x">;
def : VortexCSR<"VX_CSR_CTA_GRID_DIM_Y", 0xCDD, "CSRGridDimY", "gridDim.y">;
def : VortexCSR<"VX_CSR_CTA_GRID_DIM_Z", 0xCDE, "CSRGridDimZ", "gridDim.z">;
def : VortexCSR<"VX_CSR_CTA_LMEM_ADDR", 0xCDF, "CSRCtaLocalMem",
                "the CTA's local-memory base">;
def : VortexCSR<"VX_CSR_MHARTID", 0xF14, "CSRHartId", "global hart id", true>;
def : VortexCSR<"VX_CSR_NUM_THREADS", 0xFC0, "CSRNumThreads",
                "lanes per warp">;
def : VortexCSR<"VX_CSR_NUM_WARPS", 0xFC1, "CSRNumWarps", "warps per core">;
def : VortexCSR<"VX_CSR_NUM_CORES", 0xFC2, "CSRNumCores", "cores">;
def : VortexCSR<"VX_CSR_LOCAL_MEM_BASE", 0xFC3, "CSRLocalMemBase",
                "the core's local-memory base">;
def : VortexCSR<"VX_CSR_NUM_BARRIERS", 0xFC4, "CSRNumBarriers",
                "barriers per CTA slot">;

def VortexCSRTable : GenericTable {
  let FilterClass = "VortexCSR";
  let CppTypeName = "CSRInfo";
  let Fields = ["Number", "Name", "Divergent"];
  let PrimaryKey = ["Number"];
  let PrimaryKeyName = "lookupCSR";
}

//===----------------------------------------------------------------------===//
// What an inline-asm call is (crosslane::vortex::AsmKind, in this order)
//===----------------------------------------------------------------------===//

class VortexAsmKind<string enumerator, string doc> {
  string Enumerator = enumerator;
  string Doc = doc;
}

def KindUnknown : VortexAsmKind<"Unknown",
    "anything else (its results are taken as divergent)">;
def KindCSRRead : VortexAsmKind<"CSRRead", "csrr rd, csr">;
def KindTMC : VortexAsmKind<"TMC", "vx_tmc">;
def KindWSpawn : VortexAsmKind<"WSpawn", "vx_wspawn">;
def KindSplit : VortexAsmKind<"Split", "vx_split (its token is warp-uniform)">;
def KindJoin : VortexAsmKind<"Join", "vx_join">;
def KindBarrier : VortexAsmKind<"Barrier", "vx_barrier">;
def KindPred : VortexAsmKind<"Pred", "vx_pred">;
def KindBarrierAsync : VortexAsmKind<"BarrierAsync",
    "vx_barrier_arrive / wait">;
def KindWSync : VortexAsmKind<"WSync", "vx_wsync">;
def KindVote : VortexAsmKind<"Vote",
    "vx_vote_{all,any,uni,ballot}: one value for the warp">;
def KindShuffle : VortexAsmKind<"Shuffle", "vx_shfl_*: a value per lane">;

//===----------------------------------------------------------------------===//
// Custom instructions: `.insn r Opcode, Funct3, Funct7, rd, rs1, rs2`
//===----------------------------------------------------------------------===//

/// Rd, Rs1, Rs2: the operand's role ("-": x0).
class VortexInsn<string mnemonic, bits<3> funct3, bits<7> funct7,
                 VortexAsmKind kind, string rd, string rs1, string rs2> {
  string Mnemonic = mnemonic;
  bits<7> Opcode = 0x0b; // custom-0
  bits<3> Funct3 = funct3;
  bits<7> Funct7 = funct7;
  VortexAsmKind Kind = kind;
  string Rd = rd;
  string Rs1 = rs1;
  string Rs2 = rs2;
}

def : VortexInsn<"vx_tmc", 0, 0, KindTMC, "-", "thread mask", "-">;
def : VortexInsn<"vx_wspawn", 1, 0, KindWSpawn, "-", "warp count", "start PC">;
def : VortexInsn<"vx_split", 2, 0, KindSplit, "token", "predicate",
                 "x0, or any other register for split.n">;
def : VortexInsn<"vx_join", 3, 0, KindJoin, "-", "token", "-">;
def : VortexInsn<"vx_barrier", 4, 0, KindBarrier, "-", "barrier id",
                 "warp count">;
def : VortexInsn<"vx_pred", 5, 0, KindPred,
                 "x0, or any other register for pred.n", "predicate",
                 "restore mask">;
def : VortexInsn<"vx_barrier_arrive", 6, 0, KindBarrierAsync, "phase",
                 "barrier id", "warp count">;
def : VortexInsn<"vx_wsync", 7, 0, KindWSync, "-", "-", "-">;
def : VortexInsn<"vx_vote_all", 0, 1, KindVote, "result", "predicate", "-">;
def : VortexInsn<"vx_vote_any", 1, 1, KindVote, "result", "predicate", "-">;
def : VortexInsn<"vx_vote_uni", 2, 1, KindVote, "result", "predicate", "-">;
def : VortexInsn<"vx_vote_ballot", 3, 1, KindVote, "result", "predicate", "-">;
def : VortexInsn<"vx_shfl_up", 4, 1, KindShuffle, "result", "value",
                 "(segment mask << 12) | (clamp << 6) | delta">;
def : VortexInsn<"vx_shfl_down", 5, 1, KindShuffle, "result", "value",
                 "(segment mask << 12) | (clamp << 6) | delta">;
def : VortexInsn<"vx_shfl_bfly", 6, 1, KindShuffle, "result", "value",
                 "(segment mask << 12) | (clamp << 6) | lane mask">;
def : VortexInsn<"vx_shfl_idx", 7, 1, KindShuffle, "result", "value",
                 "(segment mask << 12) | (clamp << 6) | source lane">;

//===----------------------------------------------------------------------===//
// Hardware configurations (the prebuilt simx builds: config/cflags.txt)
//===----------------------------------------------------------------------===//

class VortexHWConfig<string name, int threads, int warps, int cores = 1,
                     int lmemLogSize = 14, int barriers = 8> {
  string Name = name;
  bits<8> Threads = threads;         // VX_CFG_NUM_THREADS
  bits<8> Warps = warps;             // VX_CFG_NUM_WARPS
  bits<16> Cores = cores;            // VX_CFG_NUM_CORES x NUM_CLUSTERS
  bits<8> LmemLogSize = lmemLogSize; // VX_CFG_LMEM_LOG_SIZE
  bits<8> Barriers = barriers;       // VX_CFG_NUM_BARRIERS
}

def : VortexHWConfig<"default", 4, 4>;
def : VortexHWConfig<"w16t16a", 16, 16>;
def : VortexHWConfig<"w8t32a", 32, 8>;

def VortexHWConfigTable : GenericTable {
  let FilterClass = "VortexHWConfig";
  let CppTypeName = "HWConfig";
  let Fields = ["Name", "Threads", "Warps", "Cores", "LmemLogSize",
                "Barriers"];
}

def lookupHWConfig : SearchIndex {
  let Table = VortexHWConfigTable;
  let Key = ["Name"];
}
