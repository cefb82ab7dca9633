; A host module (clang -fpass-plugin also loads the plugin into the host
; cc1) is left exactly as it was.
; RUN: opt -load-pass-plugin=%plugin -passes=crosslane-device-pipeline -pass-remarks-analysis=crosslane -S %s 2>&1 | FileCheck %s
; CHECK-NOT: remark
; CHECK: define void @f()
target triple = "x86_64-pc-linux-gnu"
define void @f() { ret void }
