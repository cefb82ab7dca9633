// clang -fpass-plugin (through crosslane-hipcc) runs Crosslane in every
// device compilation, for every chip and wave size, and warpSize is right.
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx90a --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W64 -DCHIP=gfx90a
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W64 -DCHIP=gfx942
// RUN: %hipcc --offload-arch=gfx950 --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W64 -DCHIP=gfx950
// RUN: %hipcc --offload-arch=gfx1030 --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W32 -DCHIP=gfx1030
// RUN: %hipcc --offload-arch=gfx1030 -mwavefrontsize64 --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W64 -DCHIP=gfx1030
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W32 -DCHIP=gfx1100
// RUN: %hipcc --offload-arch=gfx1100 -mwavefrontsize64 --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W64 -DCHIP=gfx1100
// RUN: %hipcc --offload-arch=gfx1201 --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W32 -DCHIP=gfx1201
// RUN: %hipcc --offload-arch=gfx1201 -mwavefrontsize64 --cuda-device-only -O2 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,W64 -DCHIP=gfx1201
//
// At -O0 the pipeline still runs (OptimizerLast + isRequired):
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O0 -S -emit-llvm -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK -DCHIP=gfx942
//
// CHECK: kernel.hip:3:1: remark: kernel _Z5scalePfPKffi targets [[CHIP]]
// W64-SAME: wave64
// W32-SAME: wave32
// W64: fadd{{.*}}6.400000e+01
// W32: fadd{{.*}}3.200000e+01
// REMARK: kernel.hip:3:1: remark: kernel _Z5scalePfPKffi targets [[CHIP]]
