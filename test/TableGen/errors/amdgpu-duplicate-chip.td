// A second quirk record for an ISA version the table already has, and a
// second product record for a chip (names compare ignoring case, as the
// lookup does): TableGen errors at the records, with the first one's
// location.
// RUN: not %crosslane-tblgen -gen-table-structs -I %llvm_include \
// RUN:   -I %crosslane_src/include %s 2>&1 | FileCheck %s

include "crosslane/Support/AMDGPUChips.td"

// CHECK: amdgpu-duplicate-chip.td:[[@LINE+2]]:5: error: 'GFX11_0_again' has the same AMDGPUQuirkTable key Major, Minor (0xB, 0x0) as 'GFX11_0'
// CHECK: AMDGPUChips.td:{{[0-9]+}}:5: note: 'GFX11_0' is defined here
def GFX11_0_again : AMDGPUQuirk<11, 0, "a copy">;

// CHECK: amdgpu-duplicate-chip.td:[[@LINE+1]]:1: error: 'GFX942' has the same AMDGPUProductTable key Name (searched by lookupAMDGPUProduct) ("GFX942") as 'gfx942'
def : AMDGPUProduct<"GFX942", 1, "a copy">;
