; The Vortex model's refusals: kernel records and entries it cannot use,
; configurations it cannot run, Vortex instructions it does not model and
; uses of them that make simx abort or hang. Each is one
; "crosslane-run: error:" line naming the instruction (the kernels are
; written as crosslane-vortex-divergence leaves them, inline assembly for
; the Vortex instructions; a configuration VortexISA.td records runs
; without a Vortex installation).
; REQUIRES: executor
; DEFINE: %{run} = %crosslane-run %s --block=4 --arg=buf:i32:4:zero

; Kernel records, entries and arguments:
; RUN: not %{run} 2>&1 | FileCheck %s --check-prefix=WHICH
; WHICH: crosslane-run: error: '{{.*}}exec-vortex.ll': the module has 23 kernels: choose one with --kernel
; WHICH-NEXT: {{^}}  poison_barrier{{$}}
; RUN: not %{run} --kernel=ghost 2>&1 | FileCheck %s --check-prefix=GHOST
; GHOST: crosslane-run: error: '{{.*}}exec-vortex.ll': kernel 'ghost' has no entry __crosslane_vx_entry.ghost in the module
; RUN: not %{run} --kernel=pair 2>&1 | FileCheck %s --check-prefix=SEVERAL
; SEVERAL: crosslane-run: error: '{{.*}}exec-vortex.ll': several kernels match 'pair'; the module's kernels:
; SEVERAL: {{^}}  pair(int)  [_Z4pairi]{{$}}
; SEVERAL: {{^}}  pair(float)  [_Z4pairf]{{$}}
; RUN: not %{run} --kernel=two_args 2>&1 | FileCheck %s --check-prefix=ENTRY
; ENTRY: crosslane-run: error: kernel entry '__crosslane_vx_entry.two_args' does not take one pointer (the argument blob)
; RUN: not %{run} --kernel=outside_blob 2>&1 | FileCheck %s --check-prefix=BLOB
; BLOB: crosslane-run: error: parameter 0 of 'outside_blob' lies outside the argument blob in the kernel meta
; RUN: not %{run} --kernel=scalar 2>&1 | FileCheck %s --check-prefix=NOTPTR
; NOTPTR: crosslane-run: error: parameter 0 (int) of 'scalar(int)' is not a pointer but a buffer was given
; RUN: not %crosslane-run %S/Inputs/vortex-meta-not-string.ll --kernel=k --arg=null 2>&1 | FileCheck %s --check-prefix=NOTSTRING
; NOTSTRING: crosslane-run: error: '{{.*}}vortex-meta-not-string.ll': @__crosslane_vx_meta is not a string
; RUN: not %crosslane-run %S/Inputs/vortex-meta-malformed.ll --kernel=k --arg=null 2>&1 | FileCheck %s --check-prefix=MALFORMED
; MALFORMED: crosslane-run: error: '{{.*}}vortex-meta-malformed.ll': malformed @__crosslane_vx_meta line 'kernel k x'

; Configurations:
; RUN: rm -rf %t && mkdir -p %t/unreadable/config/cflags.txt %t/incomplete/config
; RUN: echo "-DVX_CFG_NUM_CORES=1" > %t/incomplete/config/cflags.txt
; RUN: not %{run} --kernel=outside_blob --vortex-config=%t/unreadable 2>&1 | FileCheck %s --check-prefix=CFGREAD
; CFGREAD: crosslane-run: error: cannot read Vortex configuration '{{.*}}unreadable/config/cflags.txt'
; RUN: not %{run} --kernel=outside_blob --vortex-config=%t/incomplete 2>&1 | FileCheck %s --check-prefix=CFGKEYS
; CFGKEYS: crosslane-run: error: '{{.*}}incomplete/config/cflags.txt' does not set VX_CFG_NUM_THREADS and VX_CFG_NUM_WARPS
; RUN: not %{run} --kernel=outside_blob --vortex-threads=64 2>&1 | FileCheck %s --check-prefix=CFGTHREADS
; CFGTHREADS: crosslane-run: error: unsupported Vortex configuration: 4 warps of 64 threads (1 to 32 threads per warp)

; Instructions the model does not read or run:
; RUN: not %{run} --kernel=unknown_csr 2>&1 | FileCheck %s --check-prefix=CSR
; CSR: crosslane-run: error: Vortex CSR 0x123 is not modelled at __crosslane_vx_entry.unknown_csr:entry:1
; RUN: not %{run} --kernel=seven_fields 2>&1 | FileCheck %s --check-prefix=FIELDS
; FIELDS: crosslane-run: error: a Vortex .insn whose fields the executor cannot read at __crosslane_vx_entry.seven_fields:entry:1
; RUN: not %{run} --kernel=named_register 2>&1 | FileCheck %s --check-prefix=REGISTER
; REGISTER: crosslane-run: error: a Vortex .insn that names a register other than x0 directly at __crosslane_vx_entry.named_register:entry:1
; RUN: not %{run} --kernel=wspawn 2>&1 | FileCheck %s --check-prefix=WSPAWN
; WSPAWN: crosslane-run: error: vx_wspawn is not modelled (KMU kernels start with all warps) at __crosslane_vx_entry.wspawn:entry:1
; RUN: not %{run} --kernel=barrier_arrive 2>&1 | FileCheck %s --check-prefix=ARRIVE
; ARRIVE: crosslane-run: error: vx_barrier_arrive / vx_barrier_wait are not modelled at __crosslane_vx_entry.barrier_arrive:entry:1
; RUN: not %{run} --kernel=join_in_callee 2>&1 | FileCheck %s --check-prefix=FRAME
; FRAME: crosslane-run: error: warp control jumps into another function's frame, which is not modelled at join_token:entry:1

; Barriers:
; RUN: not %{run} --kernel=poison_barrier 2>&1 | FileCheck %s --check-prefix=BARPOISON
; BARPOISON: crosslane-run: error: the barrier id is poison in lane 3 (the warp's last active lane, whose value counts) at __crosslane_vx_entry.poison_barrier:entry:1
; RUN: not %{run} --kernel=global_barrier 2>&1 | FileCheck %s --check-prefix=GLOBAL
; GLOBAL: crosslane-run: error: global barriers (id bit 31) are not modelled at __crosslane_vx_entry.global_barrier:entry:1
; RUN: not %{run} --kernel=cta_slot 2>&1 | FileCheck %s --check-prefix=SLOT
; SLOT: crosslane-run: error: barrier id 0x1 names CTA slot 1, not this CTA's (CSR 0xCD0 reads 0) at __crosslane_vx_entry.cta_slot:entry:1
; RUN: not %{run} --kernel=barrier_number 2>&1 | FileCheck %s --check-prefix=NUMBER
; NUMBER: crosslane-run: error: barrier number 8 >= VX_CFG_NUM_BARRIERS (8) at __crosslane_vx_entry.barrier_number:entry:1
; RUN: not %{run} --kernel=no_warps 2>&1 | FileCheck %s --check-prefix=NOWARPS
; NOWARPS: crosslane-run: error: barrier with a warp count of 0: simx aborts at __crosslane_vx_entry.no_warps:entry:1

; Thread masks and the IPDOM stack:
; RUN: not %{run} --kernel=poison_split 2>&1 | FileCheck %s --check-prefix=SPLITPOISON
; SPLITPOISON: crosslane-run: error: the condition is poison in lane 0 at __crosslane_vx_entry.poison_split:entry:1
; RUN: not %{run} --kernel=branch_poison 2>&1 | FileCheck %s --check-prefix=BRANCH
; BRANCH: crosslane-run: error: branch on poison in lane 3 (the warp's last active lane, which decides) at __crosslane_vx_entry.branch_poison:entry:1 ('br i1 poison, label %a, label %b')
; RUN: not %{run} --kernel=ipdom_full 2>&1 | FileCheck %s --check-prefix=FULL
; FULL: crosslane-run: error: the IPDOM stack is full (3 entries, NUM_THREADS - 1): simx aborts at __crosslane_vx_entry.ipdom_full:entry:9
; RUN: not %{run} --kernel=join_empty 2>&1 | FileCheck %s --check-prefix=JOIN
; JOIN: crosslane-run: error: vx_join with an empty IPDOM stack: simx aborts at __crosslane_vx_entry.join_empty:entry:1
; RUN: not %{run} --kernel=split_no_join 2>&1 | FileCheck %s --check-prefix=NOJOIN
; NOJOIN: crosslane-run: error: the warp leaves the kernel with 1 IPDOM stack entry (a vx_split without its vx_join) at __crosslane_vx_entry.split_no_join:entry:4 ('ret void')
; A block of 3 threads: lane 3 of the warp does not exist.
; RUN: not %crosslane-run %s --kernel=mask_without_lanes --block=3 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=MASK
; MASK: crosslane-run: error: the thread mask 0x8 holds no lane of the wave at __crosslane_vx_entry.mask_without_lanes:next:1 ('ret void')

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

; One record per kernel: "kernel NAME ARGS_SIZE ARGS_ALIGN 0 PARAMS" and
; "param INDEX OFFSET SIZE" (outside_blob's parameter lies past its 4 bytes;
; ghost has no entry function; the mangled names give the types of
; scalar(int), pair(int) and pair(float)).
@__crosslane_vx_meta = internal constant [901 x i8] c"kernel poison_barrier 4 4 0 1\0Aparam 0 0 4\0Akernel poison_split 4 4 0 1\0Aparam 0 0 4\0Akernel unknown_csr 4 4 0 1\0Aparam 0 0 4\0Akernel two_args 4 4 0 1\0Aparam 0 0 4\0Akernel seven_fields 4 4 0 1\0Aparam 0 0 4\0Akernel named_register 4 4 0 1\0Aparam 0 0 4\0Akernel wspawn 4 4 0 1\0Aparam 0 0 4\0Akernel barrier_arrive 4 4 0 1\0Aparam 0 0 4\0Akernel global_barrier 4 4 0 1\0Aparam 0 0 4\0Akernel cta_slot 4 4 0 1\0Aparam 0 0 4\0Akernel barrier_number 4 4 0 1\0Aparam 0 0 4\0Akernel no_warps 4 4 0 1\0Aparam 0 0 4\0Akernel ipdom_full 4 4 0 1\0Aparam 0 0 4\0Akernel join_empty 4 4 0 1\0Aparam 0 0 4\0Akernel split_no_join 4 4 0 1\0Aparam 0 0 4\0Akernel branch_poison 4 4 0 1\0Aparam 0 0 4\0Akernel join_in_callee 4 4 0 1\0Aparam 0 0 4\0Akernel mask_without_lanes 4 4 0 1\0Aparam 0 0 4\0Akernel _Z6scalari 4 4 0 1\0Aparam 0 0 4\0Akernel _Z4pairi 4 4 0 1\0Aparam 0 0 4\0Akernel _Z4pairf 4 4 0 1\0Aparam 0 0 4\0Akernel outside_blob 4 4 0 1\0Aparam 0 8 4\0Akernel ghost 4 4 0 1\0Aparam 0 0 4\0A\00"

define void @__crosslane_vx_entry.poison_barrier(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 4, 0, x0, $0, $1", "r,r,~{memory}"(i32 poison, i32 1)
  ret void
}

define void @__crosslane_vx_entry.poison_split(ptr %args) #0 {
entry:
  %t = call i32 asm sideeffect ".insn r 0x0b, 2, 0, $0, $1, x0", "=r,r,~{memory}"(i32 poison)
  ret void
}

define void @__crosslane_vx_entry.unknown_csr(ptr %args) #0 {
entry:
  %v = call i32 asm "csrr $0, 0x123", "=r"()
  ret void
}

define void @__crosslane_vx_entry.two_args(ptr %args, i32 %x) #0 {
entry:
  ret void
}

define void @__crosslane_vx_entry.seven_fields(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 4, 0, x0, $0, $1, x0", "r,r,~{memory}"(i32 0, i32 1)
  ret void
}

define void @__crosslane_vx_entry.named_register(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 4, 0, x0, a0, $0", "r,~{memory}"(i32 1)
  ret void
}

define void @__crosslane_vx_entry.wspawn(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 1, 0, x0, $0, $1", "r,r,~{memory}"(i32 1, i32 0)
  ret void
}

define void @__crosslane_vx_entry.barrier_arrive(ptr %args) #0 {
entry:
  %p = call i32 asm sideeffect ".insn r 0x0b, 6, 0, $0, $1, $2", "=r,r,r,~{memory}"(i32 0, i32 1)
  ret void
}

define void @__crosslane_vx_entry.global_barrier(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 4, 0, x0, $0, $1", "r,r,~{memory}"(i32 -2147483648, i32 1)
  ret void
}

define void @__crosslane_vx_entry.cta_slot(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 4, 0, x0, $0, $1", "r,r,~{memory}"(i32 1, i32 1)
  ret void
}

define void @__crosslane_vx_entry.barrier_number(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 4, 0, x0, $0, $1", "r,r,~{memory}"(i32 2048, i32 1)
  ret void
}

define void @__crosslane_vx_entry.no_warps(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 4, 0, x0, $0, $1", "r,r,~{memory}"(i32 0, i32 0)
  ret void
}

; Four divergent splits, the mask restored after each: the fourth finds the
; IPDOM stack full (NUM_THREADS - 1 = 3 entries).
define void @__crosslane_vx_entry.ipdom_full(ptr %args) #0 {
entry:
  %tid = call i32 asm "csrr $0, 0xcc0", "=r"()
  %odd = and i32 %tid, 1
  %t0 = call i32 asm sideeffect ".insn r 0x0b, 2, 0, $0, $1, x0", "=r,r,~{memory}"(i32 %odd)
  call void asm sideeffect ".insn r 0x0b, 0, 0, x0, $0, x0", "r,~{memory}"(i32 15)
  %t1 = call i32 asm sideeffect ".insn r 0x0b, 2, 0, $0, $1, x0", "=r,r,~{memory}"(i32 %odd)
  call void asm sideeffect ".insn r 0x0b, 0, 0, x0, $0, x0", "r,~{memory}"(i32 15)
  %t2 = call i32 asm sideeffect ".insn r 0x0b, 2, 0, $0, $1, x0", "=r,r,~{memory}"(i32 %odd)
  call void asm sideeffect ".insn r 0x0b, 0, 0, x0, $0, x0", "r,~{memory}"(i32 15)
  %t3 = call i32 asm sideeffect ".insn r 0x0b, 2, 0, $0, $1, x0", "=r,r,~{memory}"(i32 %odd)
  call void asm sideeffect ".insn r 0x0b, 0, 0, x0, $0, x0", "r,~{memory}"(i32 15)
  ret void
}

define void @__crosslane_vx_entry.join_empty(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 3, 0, x0, $0, x0", "r,~{memory}"(i32 5)
  ret void
}

define void @__crosslane_vx_entry.split_no_join(ptr %args) #0 {
entry:
  %tid = call i32 asm "csrr $0, 0xcc0", "=r"()
  %odd = and i32 %tid, 1
  %t = call i32 asm sideeffect ".insn r 0x0b, 2, 0, $0, $1, x0", "=r,r,~{memory}"(i32 %odd)
  ret void
}

define void @__crosslane_vx_entry.branch_poison(ptr %args) #0 {
entry:
  br i1 poison, label %a, label %b
a:
  ret void
b:
  ret void
}

; The join of a split made in the caller.
define void @join_token(i32 %t) #1 {
entry:
  call void asm sideeffect ".insn r 0x0b, 3, 0, x0, $0, x0", "r,~{memory}"(i32 %t)
  ret void
}
define void @__crosslane_vx_entry.join_in_callee(ptr %args) #0 {
entry:
  %tid = call i32 asm "csrr $0, 0xcc0", "=r"()
  %odd = and i32 %tid, 1
  %t = call i32 asm sideeffect ".insn r 0x0b, 2, 0, $0, $1, x0", "=r,r,~{memory}"(i32 %odd)
  call void @join_token(i32 %t)
  ret void
}

define void @__crosslane_vx_entry.mask_without_lanes(ptr %args) #0 {
entry:
  call void asm sideeffect ".insn r 0x0b, 0, 0, x0, $0, x0", "r,~{memory}"(i32 8)
  br label %next
next:
  ret void
}

define void @__crosslane_vx_entry.outside_blob(ptr %args) #0 {
entry:
  ret void
}

define void @__crosslane_vx_entry._Z6scalari(ptr %args) #0 {
entry:
  ret void
}

define void @__crosslane_vx_entry._Z4pairi(ptr %args) #0 {
entry:
  ret void
}

define void @__crosslane_vx_entry._Z4pairf(ptr %args) #0 {
entry:
  ret void
}

attributes #0 = { "crosslane-vortex" "crosslane-vortex-kernel" }
attributes #1 = { "crosslane-vortex" }
