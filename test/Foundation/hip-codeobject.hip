// Full compilation to a code object, with the device libraries linked
// (Debian's ROCm 5.2 bitcode + generated ISA-version files), per chip.
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx950 --cuda-device-only -O2 -c %S/Inputs/kernel.hip -o %t.o
// RUN: %hipcc --offload-arch=gfx1030 --offload-arch=gfx1100 --offload-arch=gfx1201 --cuda-device-only -O2 -c %S/Inputs/kernel.hip -o %t.o
// RUN: %hipcc --offload-arch=gfx1030 --offload-arch=gfx1100 -mwavefrontsize64 --cuda-device-only -O2 -c %S/Inputs/kernel.hip -o %t.o
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -c --no-gpu-bundle-output %S/Inputs/kernel.hip -o %t.942.o
// RUN: llvm-objdump -d %t.942.o | FileCheck %s
// CHECK: <_Z5scalePfPKffi>:
// CHECK: s_endpgm
