; clang -fpass-plugin loads the pass into host compilations too: non-AMDGPU
; modules are skipped silently (no error for the undefined operation).
; RUN: opt %loadcrosslane -passes=crosslane-expand-subgroup -S %s 2>&1 | FileCheck %s
; CHECK-NOT: error
; CHECK: call i32 @__crosslane_reduce_add_i32(i32 %v, i32 64, i32 1)
target triple = "x86_64-unknown-linux-gnu"
declare i32 @__crosslane_reduce_add_i32(i32, i32, i32)
define i32 @f(i32 %v) {
  %r = call i32 @__crosslane_reduce_add_i32(i32 %v, i32 64, i32 1)
  ret i32 %r
}
