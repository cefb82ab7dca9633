; A function whose NaN guard crosslane-relax-nan-guard removed (it called no
; quieting intrinsic then) can gain one afterwards: the code generator's
; always-inliner runs after it. The machine pass that drops maxnum's operand
; quieting must then leave the function alone (llvm.canonicalize of a lane
; move lowers to the same v_max_f32 x, x it drops). With the callee's
; canonicalize inlined, no quieting is dropped; the control function (the
; same guard, no such callee) has its quieting dropped.
; RUN: llc -load=%plugin -O3 -stats %s -o /dev/null 2>&1 | FileCheck %s
; RUN: sed -e 's/call float @canon(float %u)/fadd float %u, 1.0/' %s | llc -load=%plugin -O3 -stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONTROL

; CHECK: 1 crosslane-relax-nan-guard {{ *}}- Number of fmin/fmax NaN guards removed
; CHECK-NOT: quietings dropped
; CONTROL-DAG: 1 crosslane-relax-nan-guard {{ *}}- Number of fmin/fmax NaN guards removed
; CONTROL-DAG: {{[1-9][0-9]*}} crosslane-drop-minmax-quieting {{ *}}- Number of maxnum/minnum operand quietings dropped

target triple = "amdgcn-amd-amdhsa"

define internal float @canon(float %u) #1 {
  %c = call float @llvm.canonicalize.f32(float %u)
  ret float %c
}

define float @relaxed_then_inlined(float %v, float %u) #0 {
  %c = call float @canon(float %u)
  %ord = fcmp ord float %v, %v
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %ord)
  %any = icmp ne i64 %b, 0
  %none = xor i1 %any, true
  %w = select i1 %ord, float %v, float 0xFFF0000000000000, !crosslane.nan.guard !0
  %x = call float @llvm.amdgcn.set.inactive.f32(float %w, float 0xFFF0000000000000)
  %xi = bitcast float %x to i32
  %mi = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %xi, i32 273, i32 15, i32 15, i1 true)
  %m = bitcast i32 %mi to float
  %s = call nnan float @llvm.maxnum.f32(float %x, float %m)
  %r = call float @llvm.amdgcn.strict.wwm.f32(float %s)
  %rb = bitcast float %r to i32
  %sel = select i1 %none, i32 2143289344, i32 %rb, !crosslane.nan.guard !1
  %out = bitcast i32 %sel to float
  %sum = fadd float %out, %c
  ret float %sum
}

declare i64 @llvm.amdgcn.ballot.i64(i1)
declare float @llvm.amdgcn.set.inactive.f32(float, float)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.amdgcn.strict.wwm.f32(float)
declare float @llvm.canonicalize.f32(float)

attributes #0 = { "target-cpu"="gfx942" }
attributes #1 = { alwaysinline "target-cpu"="gfx942" }

!0 = !{!"entry"}
!1 = !{!"result"}
