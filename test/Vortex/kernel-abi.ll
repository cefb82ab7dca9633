; crosslane-vortex-abi: a HIP kernel (annotated by hip_runtime.h) gets an
; entry that unpacks its rv32 argument blob, a __vx_kentry_ stub that gives
; every lane of a partial warp its stack, thread and global pointers (from
; its hart id and the configuration's stack layout) before calling it, and a
; __vx_kentry_<name>.fullwarps alias for launches of whole warps; a Vortex __kernel
; gets a __vx_kentry_ alias alone; __shared__ variables move to the
; CTA's local memory (CSR 0xCDF), the dynamic array after the statics; the
; meta section describes the blob for the host runtime; +xvortex becomes
; the crosslane-vortex attribute.
; RUN: opt-22 -load-pass-plugin=%plugin -passes=crosslane-vortex-abi -S %s | FileCheck %s
; RUN: opt-22 -load-pass-plugin=%plugin -passes=crosslane-vortex-abi -S %s \
; RUN:   -crosslane-vortex-stack-base=0x7fff0000 -crosslane-vortex-stack-log2-size=12 \
; RUN:   | FileCheck %s --check-prefix=STACK
; RUN: opt-22 -load-pass-plugin=%plugin -passes=crosslane-vortex-abi -S %s \
; RUN:   -crosslane-vortex-warp-size=16 | FileCheck %s --check-prefix=WARP16

; The stub's shared slow path, once per module (weak: one per image): every
; lane on, lane 0's mask broadcast, sp/tp/gp from the hart id, mask back.
; CHECK: module asm "__crosslane_vx_lane_setup:"
; CHECK-NEXT: module asm "\09.insn r 0x0b, 0, 0, x0, t3, x0"
; CHECK-NEXT: module asm "\09li\09t2, 0x7c0"
; CHECK-NEXT: module asm "\09.insn r 0x0b, 7, 1, t0, t0, t2"
; CHECK-NEXT: module asm "\09csrr\09t2, 0xf14"
; CHECK-NEXT: module asm "\09li\09t4, 0xffff0000"
; CHECK-NEXT: module asm "\09slli\09t5, t2, 13"
; CHECK-NEXT: module asm "\09sub\09sp, t4, t5"
; CHECK: module asm "\09call\09__init_tls"
; CHECK: module asm "\09.insn r 0x0b, 0, 0, x0, t0, x0"
; CHECK-NEXT: module asm "\09jr\09t1"
; The stub: a full warp jumps to the entry (warp size unknown here: the
; full mask from CSR 0xFC0).
; CHECK: module asm "__vx_kentry__Z4kernPfidx:"
; CHECK-NEXT: module asm "\09li\09t0, 1"
; CHECK-NEXT: module asm "\09.insn r 0x0b, 3, 1, t0, t0, x0"
; CHECK-NEXT: module asm "\09csrr\09t3, 0xfc0"
; CHECK: module asm "\09bne\09t0, t3, 1f"
; CHECK-NEXT: module asm "\09j\09__crosslane_vx_entry._Z4kernPfidx"
; CHECK-NEXT: module asm "1:"
; CHECK-NEXT: module asm "\09lui\09t1, %hi(__crosslane_vx_entry._Z4kernPfidx)"
; CHECK-NEXT: module asm "\09addi\09t1, t1, %lo(__crosslane_vx_entry._Z4kernPfidx)"
; CHECK-NEXT: module asm "\09j\09__crosslane_vx_lane_setup"
; CHECK-NOT: __crosslane_vx_lane_setup:
; STACK: module asm "\09li\09t4, 0x7fff0000"
; STACK-NEXT: module asm "\09slli\09t5, t2, 12"
; WARP16: module asm "\09li\09t3, 65535"
; WARP16-NEXT: module asm "\09bne\09t0, t3, 1f"

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

@tile = internal global [16 x float] undef, align 4
@count = internal global i32 undef, align 4
@dyn = external global [0 x float], align 4
@g = externally_initialized global i32 0, align 4
@.k = private unnamed_addr constant [24 x i8] c"crosslane.vortex.kernel\00", section "llvm.metadata"
@.s = private unnamed_addr constant [24 x i8] c"crosslane.vortex.shared\00", section "llvm.metadata"
@.v = private unnamed_addr constant [14 x i8] c"vortex.kernel\00", section "llvm.metadata"
@.f = private unnamed_addr constant [4 x i8] c"k.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @_Z4kernPfidx, ptr @.k, ptr @.f, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @tile, ptr @.s, ptr @.f, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @count, ptr @.s, ptr @.f, i32 3, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @kernel_main, ptr @.v, ptr @.f, i32 4, ptr null }], section "llvm.metadata"

; CHECK: @__crosslane_vx_meta = internal constant {{.*}} c"kernel _Z4kernPfidx 24 8 68 4\0Aparam 0 0 4\0Aparam 1 4 4\0Aparam 2 8 8\0Aparam 3 16 8\0Avar g 4\0A\00", section ".crosslane.vortex.meta"
; CHECK-DAG: @__vx_kentry_kernel_main = alias void (ptr), ptr @kernel_main
; CHECK-DAG: @__vx_kentry__Z4kernPfidx.fullwarps = alias void (ptr), ptr @__crosslane_vx_entry._Z4kernPfidx

; CHECK-LABEL: define internal void @_Z4kernPfidx(
; CHECK-DAG: %tile.lmem = getelementptr inbounds i8, ptr %tile.lmem.base, i64 0
; CHECK-DAG: %count.lmem = getelementptr inbounds i8, ptr %count.lmem.base, i64 64
; CHECK-DAG: %dyn.lmem = getelementptr inbounds i8, ptr %dyn.lmem.base, i64 80
; CHECK-DAG: %tile.lmem.base = inttoptr i32 %{{.*}} to ptr
; CHECK: store float 1.000000e+00, ptr %tile.lmem
define void @_Z4kernPfidx(ptr %p, i32 %n, double %d, i64 %x) #0 {
  store float 1.0, ptr @tile
  store i32 %n, ptr @count
  %q = getelementptr float, ptr @dyn, i32 %n
  store float 2.0, ptr %q
  ret void
}

; CHECK-LABEL: define void @__crosslane_vx_entry._Z4kernPfidx(ptr %0)
; CHECK: %p = load ptr, ptr %{{.*}}, align 4
; CHECK: %n = load i32, ptr %{{.*}}, align 4
; CHECK: %d = load double, ptr %{{.*}}, align 8
; CHECK: %x = load i64, ptr %{{.*}}, align 8
; CHECK: call void @_Z4kernPfidx(ptr %p, i32 %n, double %d, i64 %x)
; CHECK: attributes #0 = { alwaysinline "crosslane-vortex" "crosslane-vortex-kernel" "target-features"="+m,+f" }
define void @kernel_main(ptr %args) #0 {
  ret void
}

attributes #0 = { "target-features"="+m,+f,+xvortex" }
