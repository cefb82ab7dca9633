; The device pipeline runs by name, at the end of default<O2> and at -O0
; (OptimizerLast fires there too; every Crosslane pass is isRequired), and
; -crosslane-auto=false takes it out of the default pipelines.
; RUN: opt -load-pass-plugin=%plugin -passes=crosslane-device-pipeline -pass-remarks-analysis=crosslane -disable-output %s 2>&1 | FileCheck %s
; RUN: opt -load-pass-plugin=%plugin -passes='default<O2>' -pass-remarks-analysis=crosslane -disable-output %s 2>&1 | FileCheck %s
; RUN: opt -load-pass-plugin=%plugin -passes='default<O0>' -pass-remarks-analysis=crosslane -disable-output %s 2>&1 | FileCheck %s
; RUN: opt -load-pass-plugin=%plugin -passes='default<O2>' -crosslane-auto=false -pass-remarks-analysis=crosslane -disable-output %s 2>&1 | count 0
; RUN: opt -load-pass-plugin=%plugin -passes='default<O2>' -debug-pass-manager -disable-output %s 2>&1 | FileCheck %s --check-prefix=PM
; RUN: opt -load-pass-plugin=%plugin -passes='crosslane-device-pipeline' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=NAMES

; CHECK: remark: <unknown>:0:0: kernel k targets gfx942 (9.4.2) wave64
; CHECK-NOT: kernel helper
; PM: Running pass: crosslane::TargetRemarksPass on k
; NAMES: crosslane-device-pipeline

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k() #0 {
  call void @helper()
  ret void
}
define void @helper() #0 { ret void }

attributes #0 = { "target-cpu"="gfx942" }
