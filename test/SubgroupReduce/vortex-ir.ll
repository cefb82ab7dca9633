; crosslane-expand-subgroup on Vortex code: a uniform branch on the warp's
; thread mask (a ballot) between butterfly steps (vx_shfl_bfly, segment =
; the warp, c = warp size - 1) for a full warp and gather steps for any
; other lane set (vx_shfl_idx from the first active lane of the partner
; subtree, the identity when it has none). Without the warp size, each step
; is skipped at run time when its partner lies past the warp. The
; executor's Vortex model runs these expansions in exec/matrix-vortex-*.
; RUN: opt-22 -load-pass-plugin=%plugin -passes=crosslane-expand-subgroup \
; RUN:   -crosslane-vortex-warp-size=16 -pass-remarks=crosslane-expand-subgroup \
; RUN:   -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; RUN: opt-22 -load-pass-plugin=%plugin -passes=crosslane-expand-subgroup \
; RUN:   -S %s -o - | FileCheck %s --check-prefix=RUNTIME

; REMARK: expanded reduce add i32 cluster 8 stride 1 for Vortex warp16: vx_shfl_bfly, vx_shfl_bfly, vx_shfl_bfly; with lanes off: vx_shfl_idx gather loop
; REMARK: expanded argmax f32/i32 cluster 4 stride 2 for Vortex warp16:

; CHECK-LABEL: define void @reduce(
; CHECK: %[[MASK:.*]] = call i32 asm sideeffect "li $0, $1\0A\09.insn r 0x0b, 3, 1, $0, $0, x0", "=r,i,~{memory}"(i32 1)
; CHECK: %[[FULL:.*]] = icmp eq i32 %[[MASK]], 65535
; CHECK: br i1 %[[FULL]], label %[[BFLY:.*]], label %[[SLOW:.*]]
; CHECK: [[BFLY]]:
; CHECK-NEXT: %[[S1:.*]] = call i32 asm sideeffect "li $0, $2\0A\09.insn r 0x0b, 6, 1, $0, $1, $0", "=&r,r,i"(i32 %v, i32 961)
; CHECK-NEXT: %[[A1:.*]] = add i32 %v, %[[S1]]
; CHECK-NEXT: call i32 asm sideeffect "li $0, $2\0A\09.insn r 0x0b, 6, 1, $0, $1, $0", "=&r,r,i"(i32 %[[A1]], i32 962)
; CHECK: call i32 asm sideeffect "li $0, $2\0A\09.insn r 0x0b, 6, 1, $0, $1, $0", "=&r,r,i"(i32 %{{.*}}, i32 964)
; The gather steps, one loop iteration per step (M = 1, 2, 4).
; CHECK: [[SLOW]]:
; CHECK-NEXT: %[[LANE:.*]] = call i32 asm "csrr $0, 0xcc0"
; CHECK: vx.gather:
; CHECK-NEXT: %vx.m = phi i32 [ 1, %[[SLOW]] ], [ %[[NEXTM:.*]], %vx.gather ]
; CHECK-NEXT: %vx.pat = phi i32 [ 1, %[[SLOW]] ]
; CHECK: xor i32 %[[LANE]], %vx.m
; CHECK: lshr i32 %[[MASK]],
; CHECK: uitofp i32 %{{.*}} to float
; CHECK: call i32 asm sideeffect ".insn r 0x0b, 7, 1, $0, $1, $2", "=r,r,r"(
; CHECK: select i1 %{{.*}}, i32 %{{.*}}, i32 0
; CHECK: %[[NEXTM]] = shl i32 %vx.m, 1
; CHECK: icmp ult i32 %[[NEXTM]], 8
; CHECK: phi i32

; A cluster of one lane is the value itself.
; CHECK-LABEL: define void @one_lane(
; CHECK-NEXT: store i32 %v, ptr %p

; CHECK-LABEL: define void @arg(
; CHECK: icmp eq i32 %{{.*}}, 65535
; CHECK: call i32 asm sideeffect "li $0, $2\0A\09.insn r 0x0b, 6, 1, $0, $1, $0", "=&r,r,i"(i32 %{{.*}}, i32 962)
; CHECK: call i32 asm sideeffect "li $0, $2\0A\09.insn r 0x0b, 6, 1, $0, $1, $0", "=&r,r,i"(i32 %{{.*}}, i32 964)
; CHECK: phi { float, i32 }

; RUNTIME-LABEL: define void @reduce(
; RUNTIME: %[[NT:.*]] = call i32 asm "csrr $0, 0xfc0"
; RUNTIME: call i32 asm sideeffect "li $0, $2\0A\09.insn r 0x0b, 6, 1, $0, $1, $0", "=&r,r,i"(i32 %v, i32 1985)
; RUNTIME: icmp ugt i32 %[[NT]], 1
; RUNTIME: call i32 asm sideeffect "li $0, $2\0A\09.insn r 0x0b, 6, 1, $0, $1, $0", "=&r,r,i"(i32 %{{.*}}, i32 1988)
; RUNTIME: icmp ugt i32 %[[NT]], 4
; RUNTIME: vx.gather:
; RUNTIME: icmp ugt i32 %[[NT]], %vx.m

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-elf"

declare i32 @__crosslane_reduce_add_i32(i32, i32, i32)
declare { float, i32 } @__crosslane_argmax_f32_i32(float, i32, i32, i32, i32)

define void @reduce(ptr %p, i32 %v) #0 {
  %r = call i32 @__crosslane_reduce_add_i32(i32 %v, i32 8, i32 1)
  store i32 %r, ptr %p
  ret void
}

define void @one_lane(ptr %p, i32 %v) #0 {
  %r = call i32 @__crosslane_reduce_add_i32(i32 %v, i32 1, i32 1)
  store i32 %r, ptr %p
  ret void
}

define void @arg(ptr %p, float %v, i32 %i) #0 {
  %r = call { float, i32 } @__crosslane_argmax_f32_i32(float %v, i32 %i, i32 4, i32 2, i32 0)
  store { float, i32 } %r, ptr %p
  ret void
}

; A call whose result is used only where every lane of its cluster was
; active (the recogniser's guarded rewrites mark it): the butterfly alone.
; CHECK-LABEL: define void @full_groups(
; CHECK-NOT: .insn r 0x0b, 3, 1
; CHECK-NOT: br
; CHECK: asm sideeffect "li $0, $2\0A\09.insn r 0x0b, 6, 1, $0, $1, $0", "=&r,r,i"(i32 %v, i32 961)
; CHECK-NOT: 0x0b, 7, 1
; CHECK: ret void
define void @full_groups(ptr %p, i32 %v) #0 {
  %r = call i32 @__crosslane_reduce_add_i32(i32 %v, i32 16, i32 1), !crosslane.full-groups !0
  store i32 %r, ptr %p
  ret void
}

attributes #0 = { "crosslane-vortex" }
!0 = !{}
