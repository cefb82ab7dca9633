// The clang frontend plugin alone (-fplugin) carries the passes; given
// together with -fpass-plugin of the same library they do not run twice.
// REQUIRES: hip-headers
// RUN: %hipcc --no-crosslane --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm -fplugin=%clangplugin -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o /dev/null 2>&1 | FileCheck %s
// RUN: %hipcc --no-crosslane --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm -fplugin=%clangplugin -fpass-plugin=%clangplugin -Rpass-analysis=crosslane %S/Inputs/kernel.hip -o /dev/null 2>&1 | FileCheck %s
// RUN: not %hipcc --no-crosslane --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm -fplugin=%clangplugin -Xclang -plugin-arg-crosslane -Xclang bogus %S/Inputs/kernel.hip -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARG
// CHECK-COUNT-1: remark: kernel _Z5scalePfPKffi targets gfx942
// CHECK-NOT: remark:
// ARG: error: crosslane: unknown plugin argument 'bogus'
