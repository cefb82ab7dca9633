// A second quirk record for an ISA version the table already has: a
// TableGen error at the record, with the first one's location.
// RUN: not %crosslane-tblgen -gen-table-structs -I %llvm_include \
// RUN:   -I %crosslane_src/include %s 2>&1 | FileCheck %s

include "crosslane/Support/AMDGPUQuirks.td"

// CHECK: amdgpu-duplicate-chip.td:[[@LINE+2]]:5: error: 'GFX11_0_again' has the same AMDGPUQuirkTable key Major, Minor (0xB, 0x0) as 'GFX11_0'
// CHECK: AMDGPUQuirks.td:{{[0-9]+}}:5: note: 'GFX11_0' is defined here
def GFX11_0_again : AMDGPUQuirk<11, 0, "a copy">;
