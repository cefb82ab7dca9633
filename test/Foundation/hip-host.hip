// A host+device compile: the plugin runs in the device cc1 only; the host
// side gets no remark and compiles as usual.
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx942 -O2 -c -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o %t.o 2>&1 | FileCheck %s
// CHECK-COUNT-1: remark: kernel _Z5scalePfPKffi targets gfx942
// CHECK-NOT: remark:
