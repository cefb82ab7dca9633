// -mllvm -debug-only / -stats through crosslane-hipcc on a whole HIP compile
// (host, device, device link): the plugin's options reach the compiler
// only, since the device linker does not know them.
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx942 -O2 -c %S/../../examples/greedy_argmax.hip -o %t.o -mllvm -debug-only=crosslane-recognize-arg -mllvm -stats 2>&1 | FileCheck %s
// CHECK: crosslane-recognize-arg: function 'greedy_argmax' on gfx942
// CHECK: replaced: argmax f32/i32
// CHECK: ... Statistics Collected ...
// CHECK: 2 crosslane-recognize-arg {{ *}}- Number of chains replaced by a Crosslane operation
// RUN: %hipcc --offload-arch=gfx942 -O2 -c %S/../../examples/greedy_argmax.hip -o %t.o -mllvm -crosslane-recognize=false -mllvm -debug-only=crosslane-recognize-arg 2>&1 | count 0
