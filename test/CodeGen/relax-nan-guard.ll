; crosslane-relax-nan-guard removes the NaN guard of an fmin/fmax reduction
; only when the whole chain is the one crosslane-expand-subgroup emits, and
; only in functions that do not need maxnum's operand quieting elsewhere.
; RUN: opt %loadcrosslane -passes=crosslane-relax-nan-guard -pass-remarks=crosslane-relax-nan-guard -pass-remarks-missed=crosslane-relax-nan-guard -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; A guard is found through its NaN ballot; one whose ballot (and result)
; later optimisation removed is left alone, without a remark, by the opt pass
; and by the code generator's (which indexes the module's ballots).
; RUN: opt %loadcrosslane -passes=crosslane-relax-nan-guard -pass-remarks=crosslane-relax-nan-guard -pass-remarks-missed=crosslane-relax-nan-guard -S %S/Inputs/nan-guard-without-ballot.ll -o - 2>%t.nb.rem | FileCheck %s --check-prefix=NOBALLOT
; RUN: count 0 < %t.nb.rem
; RUN: llc -load=%plugin -O3 -pass-remarks=crosslane-relax-nan-guard -pass-remarks-missed=crosslane-relax-nan-guard %S/Inputs/nan-guard-without-ballot.ll -o /dev/null 2>&1 | count 0
; NOBALLOT: %w = select i1 %ord, float %v, float 0xFFF0000000000000, !crosslane.nan.guard
; NOBALLOT: %s = call nnan float @llvm.maxnum.f32(

target triple = "amdgcn-amd-amdhsa"

; REMARK: remark: {{.*}}fmin/fmax reduction reduces NaNs with llvm.maxnum/minnum itself (guard removed; 1 step)
; CHECK-LABEL: define float @relaxed(
; CHECK-SAME: #[[RELAXED:[0-9]+]]
; CHECK-NOT: fcmp
; CHECK-NOT: ballot
; CHECK: %x = call float @llvm.amdgcn.set.inactive.f32(float %v, float 0x7FF8000000000000)
; CHECK: %s = call float @llvm.maxnum.f32(float %x, float %m)
; CHECK-NOT: select
; CHECK: %out = bitcast i32 %rb to float
; CHECK-NEXT: ret float %out
define float @relaxed(float %v) #0 {
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
  ret float %out
}

; A moved value also stored elsewhere: not the expansion's chain.
; REMARK: remark: {{.*}}fmin/fmax reduction keeps its NaN guard: its chain is not the one crosslane-expand-subgroup emits
; CHECK-LABEL: define float @foreign_user(
; CHECK-SAME: #[[PLAIN:[0-9]+]]
; CHECK: select i1 %ord, float %v, float 0xFFF0000000000000, !crosslane.nan.guard
; CHECK: call nnan float @llvm.maxnum.f32
define float @foreign_user(float %v, ptr addrspace(1) %p) #0 {
  %ord = fcmp ord float %v, %v
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %ord)
  %any = icmp ne i64 %b, 0
  %none = xor i1 %any, true
  %w = select i1 %ord, float %v, float 0xFFF0000000000000, !crosslane.nan.guard !0
  %x = call float @llvm.amdgcn.set.inactive.f32(float %w, float 0xFFF0000000000000)
  %xi = bitcast float %x to i32
  %mi = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %xi, i32 273, i32 15, i32 15, i1 true)
  %m = bitcast i32 %mi to float
  store float %m, ptr addrspace(1) %p
  %s = call nnan float @llvm.maxnum.f32(float %x, float %m)
  %r = call float @llvm.amdgcn.strict.wwm.f32(float %s)
  %rb = bitcast float %r to i32
  %sel = select i1 %none, i32 2143289344, i32 %rb, !crosslane.nan.guard !1
  %out = bitcast i32 %sel to float
  ret float %out
}

; A step that lost its nnan (some pass rewrote it): kept.
; REMARK: remark: {{.*}}keeps its NaN guard
; CHECK-LABEL: define float @step_without_nnan(
; CHECK: !crosslane.nan.guard
define float @step_without_nnan(float %v) #0 {
  %ord = fcmp ord float %v, %v
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %ord)
  %any = icmp ne i64 %b, 0
  %none = xor i1 %any, true
  %w = select i1 %ord, float %v, float 0xFFF0000000000000, !crosslane.nan.guard !0
  %x = call float @llvm.amdgcn.set.inactive.f32(float %w, float 0xFFF0000000000000)
  %xi = bitcast float %x to i32
  %mi = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %xi, i32 273, i32 15, i32 15, i1 true)
  %m = bitcast i32 %mi to float
  %s = call float @llvm.maxnum.f32(float %x, float %m)
  %r = call float @llvm.amdgcn.strict.wwm.f32(float %s)
  %rb = bitcast float %r to i32
  %sel = select i1 %none, i32 2143289344, i32 %rb, !crosslane.nan.guard !1
  %out = bitcast i32 %sel to float
  ret float %out
}

; The function canonicalizes a value itself: its lowering relies on the
; quieting, so the whole function keeps its guards (and its attributes).
; REMARK: remark: {{.*}}fmin/fmax reductions keep their NaN guards: the function is strictfp or calls llvm.canonicalize or llvm.maximumnum/minimumnum
; CHECK-LABEL: define float @calls_canonicalize(
; CHECK: !crosslane.nan.guard
define float @calls_canonicalize(float %v, float %u) #0 {
  %c = call float @llvm.canonicalize.f32(float %u)
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

; CHECK-DAG: attributes #[[RELAXED]] = { "crosslane-relaxed-minmax" "target-cpu"="gfx942" }
; CHECK-DAG: attributes #[[PLAIN]] = { "target-cpu"="gfx942" }

attributes #0 = { "target-cpu"="gfx942" }

!0 = !{!"entry"}
!1 = !{!"result"}
