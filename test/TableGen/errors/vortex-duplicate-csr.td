// A CSR number used twice, a CSR name used twice, an encoding used twice
// and a configuration Vortex cannot build: TableGen errors at the records.
// RUN: not %crosslane-tblgen -gen-vortex-isa -I %llvm_include \
// RUN:   -I %crosslane_src/include %s 2>&1 | FileCheck %s
// The configuration names are a SearchIndex key: unique, ignoring case.
// RUN: not %crosslane-tblgen -gen-table-structs -I %llvm_include \
// RUN:   -I %crosslane_src/include %s 2>&1 | FileCheck %s --check-prefix=INDEX

include "crosslane/Vortex/VortexISA.td"

// CHECK: vortex-duplicate-csr.td:[[@LINE+1]]:5: error: 'LaneAgain' has the same CSR number (0xCC0) as
def LaneAgain : VortexCSR<"VX_CSR_LANE", 0xCC0, "CSRLane", "a copy">;
// CHECK: vortex-duplicate-csr.td:[[@LINE+1]]:5: error: 'NameAgain' has the same CSR name (VX_CSR_WARP_ID) as
def NameAgain : VortexCSR<"VX_CSR_WARP_ID", 0xCEE, "CSRWarpId2", "a copy">;
// CHECK: vortex-duplicate-csr.td:[[@LINE+1]]:5: error: 'SplitAgain' has the same encoding (opcode, funct3, funct7) (0xB, 2, 0) as
def SplitAgain : VortexInsn<"vx_split2", 2, 0, KindSplit, "token", "p", "-">;
// CHECK: vortex-duplicate-csr.td:[[@LINE+2]]:5: error: 'Odd': Threads = 12 is not a power of two in [1, 32]
// CHECK: vortex-duplicate-csr.td:[[@LINE+1]]:5: error: 'Odd': LmemLogSize = 40 is not in [10, 24]
def Odd : VortexHWConfig<"odd", 12, 4, 1, 40>;
// INDEX: vortex-duplicate-csr.td:[[@LINE+1]]:5: error: 'Default2' has the same VortexHWConfigTable key Name (searched by lookupHWConfig) ("DEFAULT") as
def Default2 : VortexHWConfig<"Default", 4, 4>;
