; Pass parameters, printing, and the device pipeline (also at -O0).
; RUN: not opt %loadcrosslane -passes='crosslane-expand-subgroup<bogus>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: opt %loadcrosslane -passes='crosslane-expand-subgroup<no-wwm;no-wave-reduce>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PRINT
; RUN: opt %loadcrosslane -passes='default<O0>' -S %s | FileCheck %s --check-prefix=O0
; RUN: opt %loadcrosslane -passes=crosslane-device-pipeline -S %s | FileCheck %s --check-prefix=O0
; RUN: opt %loadcrosslane -passes='crosslane-expand-subgroup<no-wave-reduce>' -S %s | FileCheck %s --check-prefix=NOWR
; BAD: error: invalid crosslane-expand-subgroup parameter 'bogus' (expected no-wwm, wwm, no-wave-reduce or wave-reduce)
; One error, not a second one from the pass builder:
; BAD-NOT: unknown pass name
; PRINT: crosslane-expand-subgroup<no-wwm;no-wave-reduce>
; O0-NOT: call i32 @__crosslane
; O0: llvm.amdgcn.update.dpp
; O0-NOT: call i32 @llvm.amdgcn.wave.reduce
; NOWR: call i32 @llvm.amdgcn.wave.reduce.umax.i32(
; Host code is left alone (see host.ll).
target triple = "amdgcn-amd-amdhsa"
declare i32 @__crosslane_reduce_add_i32(i32, i32, i32)
define i32 @f(i32 %v) #0 {
  %r = call i32 @__crosslane_reduce_add_i32(i32 %v, i32 64, i32 1)
  %w = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %v, i32 0)
  %s = add i32 %r, %w
  ret i32 %s
}
attributes #0 = { "target-cpu"="gfx942" }
