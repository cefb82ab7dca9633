; crosslane-vortex-divergence on IR: divergent if-regions get vx_split before
; the branch and vx_join before the join, divergent loop exits vx_pred with
; the mask at loop entry, divergent selects become branch-free arithmetic,
; soft-float arithmetic on lane-dependent values runs one lane at a time, and
; uniform control flow is left alone.
; RUN: opt-22 -load-pass-plugin=%plugin -passes=crosslane-vortex-divergence \
; RUN:   -pass-remarks=crosslane-vortex-divergence \
; RUN:   -pass-remarks-analysis=crosslane-vortex-divergence -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REM < %t.rem

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

; CHECK-LABEL: define void @if_then(
; CHECK: %[[C:.*]] = icmp slt i32 %t, %n
; CHECK: %[[Z:.*]] = zext i1 %[[C]] to i32
; CHECK: %[[TOK:.*]] = call i32 asm sideeffect ".insn r 0x0b, 2, 0, $0, $1, x0", "=r,r,~{memory}"(i32 %[[Z]])
; CHECK-NEXT: br i1 %[[C]], label %then, label %[[J:.*]]
; CHECK: [[J]]:
; CHECK-NEXT: call void asm sideeffect ".insn r 0x0b, 3, 0, x0, $0, x0", "r,~{memory}"(i32 %[[TOK]])
define void @if_then(ptr %p, i32 %n) #0 {
entry:
  %t = call i32 asm "csrr $0, 0xcd3", "=r"()
  %c = icmp slt i32 %t, %n
  br i1 %c, label %then, label %exit
then:
  %q = getelementptr i32, ptr %p, i32 %t
  store i32 1, ptr %q
  br label %exit
exit:
  ret void
}

; CHECK-LABEL: define void @uniform(
; CHECK-NOT: .insn
; CHECK: ret void
; (a kernel: its arguments are the same in every lane)
define void @uniform(ptr %p, i32 %n) #1 {
entry:
  %b = call i32 asm "csrr $0, 0xcd6", "=r"()
  %c = icmp slt i32 %b, %n
  br i1 %c, label %then, label %exit
then:
  store i32 1, ptr %p
  br label %exit
exit:
  ret void
}

; CHECK-LABEL: define void @loop_exit(
; CHECK: [[PRE:.*]]:
; CHECK: %[[MASK:.*]] = call i32 asm sideeffect "li $0, $1\0A\09.insn r 0x0b, 3, 1, $0, $0, x0", "=r,i,~{memory}"(i32 1)
; CHECK: call void asm sideeffect ".insn r 0x0b, 5, 0, x0, $0, $1", "r,r,~{memory}"(i32 %{{.*}}, i32 %[[MASK]])
; CHECK-NEXT: br i1
define void @loop_exit(ptr %p) #0 {
entry:
  %t = call i32 asm "csrr $0, 0xcd3", "=r"()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %t
  br i1 %c, label %loop, label %exit
exit:
  %q = getelementptr i32, ptr %p, i32 %t
  store i32 %i1, ptr %q
  ret void
}

; CHECK-LABEL: define float @select(
; CHECK-NOT: select
; CHECK: %[[M:.*]] = sext i1 %c to i32
; CHECK: xor i32
; CHECK: and i32 %{{.*}}, %[[M]]
; CHECK: xor i32
; CHECK: bitcast i32 %{{.*}} to float
define float @select(float %a, float %b) #0 {
  %t = call i32 asm "csrr $0, 0xcc0", "=r"()
  %c = icmp eq i32 %t, 0
  %r = select i1 %c, float %a, float %b
  ret float %r
}

; CHECK-LABEL: define double @soft_double(
; CHECK: one.lane.head:
; CHECK: call i32 @llvm.cttz.i32
; CHECK: one.lane.do:
; CHECK-NEXT: %r = fadd double %a, %b
; CHECK: one.lane.next:
; CHECK: ret double %r.lane
define double @soft_double(double %a, double %b) #0 {
  %r = fadd double %a, %b
  ret double %r
}

; A divergent select of doubles becomes branch-free arithmetic; the double
; compare of its result is a libgcc call that must still run one lane at a
; time (the analysis is redone after the selects are rewritten).
; CHECK-LABEL: define i32 @select_then_soft_compare(
; CHECK-NOT: select
; CHECK: one.lane.do:
; CHECK-NEXT: %n = fcmp uno double %s, 0.000000e+00
; CHECK: ret i32
define i32 @select_then_soft_compare(double %a, double %b) #0 {
  %t = call i32 asm "csrr $0, 0xcc0", "=r"()
  %c = icmp ult i32 %t, 2
  %s = select i1 %c, double %a, double %b
  %n = fcmp uno double %s, 0.0
  %z = zext i1 %n to i32
  ret i32 %z
}

; REM: remark: <unknown>:0:0: divergent branch bracketed by vx_split/vx_join
; REM: remark: <unknown>:0:0: divergent loop exit: vx_pred keeps lanes that leave waiting until all have left
; REM: remark: <unknown>:0:0: runs one lane at a time: soft-float arithmetic is library code and its operands differ between lanes

attributes #0 = { "crosslane-vortex" "target-features"="+m,+f,+zicond" }
attributes #1 = { "crosslane-vortex" "crosslane-vortex-kernel" "target-features"="+m,+f,+zicond" }
