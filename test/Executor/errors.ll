; Everything the executor does not model, and every undefined behaviour it
; detects, is one "crosslane-run: error:" line naming the instruction and
; its location (function:block:instruction-number), exit code 1.
; REQUIRES: executor
; RUN: not %crosslane-run %s --kernel=unknown_intrinsic --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=INTR
; RUN: not %crosslane-run %s --kernel=oob --mcpu=gfx942 --block=64 --arg=buf:i32:63:zero 2>&1 | FileCheck %s --check-prefix=OOB
; RUN: not %crosslane-run %s --kernel=poison_dpp --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=POISON
; RUN: %crosslane-run %s --kernel=poison_dpp_bc --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero | FileCheck %s --check-prefix=BC
; RUN: not %crosslane-run %s --kernel=inactive_read --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=INACTIVE
; RUN: not %crosslane-run %s --kernel=divergent_barrier --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=BARRIER
; RUN: not %crosslane-run %s --kernel=wave_barrier_deadlock --mcpu=gfx942 --block=128 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=DEADLOCK
; RUN: not %crosslane-run %s --kernel=crosslane_builtin --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=BUILTIN
; RUN: not %crosslane-run %s --kernel=misaligned --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=ALIGN
; RUN: not %crosslane-run %s --kernel=poison_branch --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=BRANCH
; RUN: not %crosslane-run %s --kernel=readlane_poison --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=RLIDX
; RUN: not %crosslane-run %s --kernel=lds_uninit --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=LDS
; RUN: not %crosslane-run %s --kernel=nope --mcpu=gfx942 2>&1 | FileCheck %s --check-prefix=NOKERNEL
; RUN: not %crosslane-run %s --kernel=oob --mcpu=gfx9999 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=CHIP
; RUN: not %crosslane-run %s --kernel=oob --mcpu=gfx942 --arg=buf:q32:64:zero 2>&1 | FileCheck %s --check-prefix=SPEC
; RUN: not %crosslane-run %s --kernel=oob --mcpu=gfx942 2>&1 | FileCheck %s --check-prefix=NARGS
; RUN: not %crosslane-run %s --kernel=oob --mcpu=gfx942 --grid=0 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=GRID
; RUN: not %crosslane-run %s --kernel=undefined_constant --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero 2>&1 | FileCheck %s --check-prefix=UNDEF
; RUN: not %crosslane-run %s --bogus-flag 2>&1 | FileCheck %s --check-prefix=FLAG
; RUN: not %crosslane-run %t.missing.ll 2>&1 | FileCheck %s --check-prefix=MISSING

; INTR: crosslane-run: error: unsupported intrinsic 'llvm.amdgcn.s.sethalt' at unknown_intrinsic:entry:1
; OOB: crosslane-run: error: out-of-bounds store of 4 bytes at offset 252 of 'buffer 0' (size 252) in lane 63 at oob:entry:3 ('store i32 %l, ptr addrspace(1) %p, align 4') in workgroup (0,0,0) wave 0
; POISON: crosslane-run: error: poison stored (lane 0) at poison_dpp:entry:4 ('store i32 %r, ptr addrspace(1) %p, align 4')
; BC: arg0[0] = 0
; BC: arg0[1] = 0
; BC: arg0[2] = 1
; BC: arg0[17] = 16
; INACTIVE: crosslane-run: error: poison stored (lane 1) at inactive_read:odd:3
; BARRIER: crosslane-run: error: barrier reached by only part of the wave (lanes {{[0-9A-F]+}} here, lanes {{[0-9A-F]+}} elsewhere): deadlock at divergent_barrier:{{low|high}}:1
; DEADLOCK: crosslane-run: error: barrier deadlock: 1 wave(s) of the workgroup finished while 1 wait at this barrier at wave_barrier_deadlock:bar:1
; BUILTIN: crosslane-run: error: call to '__crosslane_subgroup_reduce_add_i32', which has no body and no registered builtin at crosslane_builtin:entry:2
; ALIGN: crosslane-run: error: misaligned access (address 0x{{[0-9A-F]+}}00000002, alignment 4) in lane 0 at misaligned:entry:2
; BRANCH: crosslane-run: error: branch on poison in lane 0 at poison_branch:entry:2
; RLIDX: crosslane-run: error: readlane lane index is not uniform across the active lanes at readlane_poison:entry:2
; LDS: crosslane-run: error: poison stored (lane 0) at lds_uninit:entry:5
; NOKERNEL: crosslane-run: error: no kernel 'nope' in
; CHIP: crosslane-run: error: unknown AMDGPU processor 'gfx9999'
; SPEC: crosslane-run: error: unknown element type 'q32' in 'buf:q32:64:zero'
; NARGS: crosslane-run: error: kernel 'oob' takes 1 argument value, 0 given
; GRID: crosslane-run: error: bad --grid dimension '0'
; UNDEF: crosslane-run: error: load from '__oclc_daz_opt', a constant this module declares but does not define (a device-library constant that was not linked?) in lane 0 at undefined_constant:entry:1
; FLAG: crosslane-run: Unknown command line argument '--bogus-flag'
; MISSING: crosslane-run: error: cannot load
; A kernel that never ends: stopped by the lane-instruction budget.
; RUN: not %crosslane-run %s --kernel=spin --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero --max-lane-instructions=100000 2>&1 | FileCheck %s --check-prefix=SPIN
; SPIN: crosslane-run: error: lane-instruction budget exhausted (infinite loop?) at spin:loop:
; A file that is not IR: the parser's error at its line, named once.
; RUN: echo 'define void @k( {' > %t.bad.ll
; RUN: not %crosslane-run %t.bad.ll --kernel=k 2>&1 | FileCheck %s --check-prefix=PARSE
; PARSE: crosslane-run: error: cannot load '{{[^']*}}.bad.ll': {{[^ ]*}}.bad.ll:2:1: error: expected type

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.sethalt(i32)
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @__crosslane_subgroup_reduce_add_i32(i32)

@lds = internal addrspace(3) global [64 x i32] poison, align 4

define amdgpu_kernel void @unknown_intrinsic(ptr addrspace(1) %out) {
entry:
  call void @llvm.amdgcn.s.sethalt(i32 1)
  ret void
}

define amdgpu_kernel void @oob(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %l, ptr addrspace(1) %p, align 4
  ret void
}

; update.dpp with old = poison and row_shr:1, bound_ctrl = 0: lane 0 of
; each row keeps old, i.e. poison, and storing it is reported.
define amdgpu_kernel void @poison_dpp(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %l, i32 273, i32 15, i32 15, i1 false)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

; Same with bound_ctrl = 1: invalid lanes read 0, no poison.
define amdgpu_kernel void @poison_dpp_bc(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %l, i32 273, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

; DPP in odd lanes only: row_shr:1 reads the (inactive) even neighbour.
define amdgpu_kernel void @inactive_read(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %bit = and i32 %l, 1
  %c = icmp ne i32 %bit, 0
  br i1 %c, label %odd, label %done
odd:
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %l, i32 273, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p, align 4
  br label %done
done:
  ret void
}

@__oclc_daz_opt = external addrspace(4) constant i8

define amdgpu_kernel void @undefined_constant(ptr addrspace(1) %out) {
entry:
  %v = load i8, ptr addrspace(4) @__oclc_daz_opt
  %w = zext i8 %v to i32
  store i32 %w, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @divergent_barrier(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %l, 32
  br i1 %c, label %low, label %high
low:
  call void @llvm.amdgcn.s.barrier()
  br label %done
high:
  call void @llvm.amdgcn.s.barrier()
  br label %done
done:
  ret void
}

define amdgpu_kernel void @wave_barrier_deadlock(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %l, 64
  br i1 %c, label %bar, label %done
bar:
  call void @llvm.amdgcn.s.barrier()
  br label %done
done:
  ret void
}

define amdgpu_kernel void @crosslane_builtin(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @__crosslane_subgroup_reduce_add_i32(i32 %l)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @misaligned(ptr addrspace(1) %out) {
entry:
  %p = getelementptr i8, ptr addrspace(1) %out, i32 2
  store i32 1, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @poison_branch(ptr addrspace(1) %out) {
entry:
  %c = icmp eq i32 poison, 0
  br i1 %c, label %a, label %b
a:
  ret void
b:
  ret void
}

define amdgpu_kernel void @readlane_poison(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %l, i32 %l)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

; LDS starts uninitialised: loading it gives poison.
define amdgpu_kernel void @lds_uninit(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %l
  %v = load i32, ptr addrspace(3) %q, align 4
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @spin(ptr addrspace(1) %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %loop ]
  %j = add i32 %i, 1
  br label %loop
}
