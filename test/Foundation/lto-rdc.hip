// -fgpu-rdc: the device link runs in ld.lld, where only the LTO extension
// points fire; the plugin loaded into lld runs the device pipeline there.
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -fgpu-rdc -O2 -c %S/Inputs/kernel.hip -o %t.bc
// RUN: ld.lld -m elf64_amdgpu -shared --load-pass-plugin=%plugin -plugin-opt=mcpu=gfx942 -mllvm -pass-remarks-analysis=crosslane %t.bc -o %t.out 2>&1 | FileCheck %s
// RUN: ld.lld -m elf64_amdgpu -shared -plugin-opt=mcpu=gfx942 %t.bc -o %t.out 2>&1 | count 0
// CHECK: {{.*}}: kernel _Z5scalePfPKffi targets gfx942
