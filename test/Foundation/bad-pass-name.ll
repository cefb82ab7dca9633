; Unknown pass names and parameters get LLVM's one-line error, not a crash.
; RUN: not opt -load-pass-plugin=%plugin -passes=crosslane-bogus -disable-output %s 2>&1 | FileCheck %s --check-prefix=NAME
; RUN: not opt -load-pass-plugin=%plugin -passes='print<crosslane-target' -disable-output %s 2>&1 | FileCheck %s --check-prefix=SYNTAX
; RUN: not opt -load-pass-plugin=%plugin -crosslane-no-such-option -disable-output %s 2>&1 | FileCheck %s --check-prefix=OPT
; RUN: not opt -load-pass-plugin=%t.missing.so -passes=crosslane-device-pipeline -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOAD
; NAME: unknown pass name 'crosslane-bogus'
; SYNTAX: unknown pass name 'print<crosslane-target'
; OPT: Unknown command line argument '-crosslane-no-such-option'
; LOAD: Could not load library '{{.*}}missing.so'
target triple = "amdgcn-amd-amdhsa"
define void @f() { ret void }
