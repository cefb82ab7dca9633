// crosslane.h from HIP: clang -fpass-plugin (crosslane-hipcc) expands every
// call, at -O2 and -O0, for wave64 and wave32 chips.
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S -emit-llvm -Rpass=crosslane-expand-subgroup %S/Inputs/reduce.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only -nogpulib -O2 -S -emit-llvm -Rpass=crosslane-expand-subgroup %S/Inputs/reduce.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: %hipcc --offload-arch=gfx1030 -mwavefrontsize64 --cuda-device-only -nogpulib -O2 -S -emit-llvm -Rpass=crosslane-expand-subgroup %S/Inputs/reduce.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,GFX1030
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O0 -S -emit-llvm -Rpass=crosslane-expand-subgroup %S/Inputs/reduce.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,GFX942
// And the whole pipeline down to the ISA.
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S %S/Inputs/reduce.hip -o - | FileCheck %s --check-prefix=ISA
//
// GFX942: remark: expanded reduce fmax f32 cluster 64 stride 1 for gfx942 wave64: set.inactive, row_shr:1, row_shr:2, row_shr:4, row_shr:8, row_bcast:15, row_bcast:31, readlane 63, strict.wwm
// GFX1100: remark: expanded reduce fmax f32 cluster 32 stride 1 for gfx1100 wave32: set.inactive, quad_perm:[1,0,3,2], quad_perm:[2,3,0,1], row_xmask:4, row_xmask:8, permlanex16, strict.wwm
// GFX1030: remark: expanded reduce fmax f32 cluster 64 stride 1 for gfx1030 wave64: set.inactive, quad_perm:[1,0,3,2], quad_perm:[2,3,0,1], row_xmask:4, row_xmask:8, permlanex16, readlane 0 + readlane 32, strict.wwm
// CHECK: remark: expanded reduce add i32 cluster 16 stride 1
// CHECK: remark: expanded argmax f32/i32 cluster {{32|64}} stride 1
// CHECK: remark: expanded argcmp f32/i64 cluster 8 stride 1
// CHECK: remark: expanded reduce fmin f16 cluster 4 stride 2
// CHECK-NOT: call {{.*}}@__crosslane_
// CHECK: define {{.*}}wave_max
// CHECK: llvm.amdgcn.set.inactive
// CHECK: llvm.amdgcn.update.dpp
// CHECK-NOT: call {{.*}}@__crosslane_
//
// ISA-LABEL: _Z8wave_maxPKfPf:
// ISA: v_max_f32_dpp {{.*}} row_bcast:31
// ISA: v_readlane_b32 {{.*}}, 63
// ISA-LABEL: _Z7row_sumPKiPi:
// ISA: v_add_u32_dpp {{.*}} row_mirror
// ISA-NOT: __crosslane_
