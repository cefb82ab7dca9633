; Undefined behaviour the executor detects at run time (bad addresses,
; poison where a value decides something, division by zero, unreachable,
; failed device asserts) and library calls it cannot run: one
; "crosslane-run: error:" line naming the lane and the instruction; exit
; code 1.
; REQUIRES: executor

; Addresses:
; RUN: not %crosslane-run %s --kernel=bad_aperture --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=APERTURE
; APERTURE: crosslane-run: error: flat address 0x3000000000000 is in no aperture (lane 0) at bad_aperture:entry:1
; RUN: not %crosslane-run %s --kernel=null_load --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=NULL
; NULL: crosslane-run: error: null pointer dereference in lane 0 at null_load:entry:1 ('%v = load i32, ptr addrspace(1) null, align 4')
; RUN: not %crosslane-run %s --kernel=bad_lane --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=LANE
; LANE: crosslane-run: error: private address of a non-existent lane at bad_lane:entry:1
; RUN: not %crosslane-run %s --kernel=dead_frame --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=DEAD
; DEAD: crosslane-run: error: access to a dead stack frame (use after return) in lane 0 at dead_frame:entry:2 ('%v = load i32, ptr addrspace(5) %p, align 4')
; RUN: not %crosslane-run %s --kernel=store_constant --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=CONST
; CONST: crosslane-run: error: store to constant memory 'cst' at store_constant:entry:1 ('store i32 1, ptr addrspace(4) @cst, align 4')
; RUN: not %crosslane-run %s --kernel=load_poison --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=LOADP
; LOADP: crosslane-run: error: load through a poison address in lane 0 at load_poison:entry:1
; RUN: not %crosslane-run %s --kernel=store_poison --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=STOREP
; STOREP: crosslane-run: error: store through a poison address in lane 0 at store_poison:entry:1
; RUN: not %crosslane-run %s --kernel=memset_poison --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=MEMSET
; MEMSET: crosslane-run: error: poison operand 2 of a memory intrinsic in lane 0 at memset_poison:entry:1

; Atomics:
; RUN: not %crosslane-run %s --kernel=atomic_poison_address --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=ATOMADDR
; ATOMADDR: crosslane-run: error: atomic through a poison address in lane 0 at atomic_poison_address:entry:1
; RUN: not %crosslane-run %s --kernel=atomic_poison_value --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=ATOMVAL
; ATOMVAL: crosslane-run: error: poison operand of an atomic in lane 0 at atomic_poison_value:entry:1
; RUN: not %crosslane-run %s --kernel=atomic_uninit --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=ATOMINIT
; ATOMINIT: crosslane-run: error: atomic on uninitialised memory in lane 0 at atomic_uninit:entry:1 ('%v = atomicrmw add ptr addrspace(3) @lds, i32 1 monotonic, align 4')

; Arithmetic and control flow (lane 0 of two divides by its id, 0):
; RUN: not %crosslane-run %s --kernel=sdiv_zero --mcpu=gfx942 --block=2 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=SDIV
; SDIV: crosslane-run: error: integer division by zero, overflow or poison divisor in lane 0 at sdiv_zero:entry:2 ('%q = sdiv i32 7, %t')
; RUN: not %crosslane-run %s --kernel=udiv_wide_zero --mcpu=gfx942 --block=2 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=WIDEDIV
; WIDEDIV: crosslane-run: error: division by zero, a poison divisor or signed overflow in lane 0 at udiv_wide_zero:entry:3 ('%q = udiv i128 7, %w')
; RUN: not %crosslane-run %s --kernel=switch_poison --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=SWITCH
; SWITCH: crosslane-run: error: switch on poison in lane 0 at switch_poison:entry:1
; RUN: not %crosslane-run %s --kernel=unreachable --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=UNREACH
; UNREACH: crosslane-run: error: reached 'unreachable' in lane 0 at unreachable:entry:1 ('unreachable')
; RUN: not %crosslane-run %s --kernel=recurse --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=STACK
; STACK: crosslane-run: error: private memory (stack) exhausted in 'rec' (recursion?) at rec:{{.*}}('call void @rec(i32 %m)')

; Library calls:
; RUN: not %crosslane-run %s --kernel=assert --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=ASSERT
; ASSERT: crosslane-run: error: device assertion failed in lane 0: 'x > 0' (k.hip:12, in k) at assert:entry:1
; RUN: not %crosslane-run %s --kernel=printf_descriptor --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=PRINTF
; PRINTF: crosslane-run: error: printf descriptor not from a begin call at printf_descriptor:entry:1
; RUN: not %crosslane-run %s --kernel=ocml_no_suffix --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=OCMLNAME
; OCMLNAME: crosslane-run: error: builtin '__ocml_bad': not modelled at ocml_no_suffix:entry:1
; RUN: not %crosslane-run %s --kernel=ocml_unknown --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=OCMLFN
; OCMLFN: crosslane-run: error: builtin '__ocml_frobnicate_f32': this __ocml_ function is not modelled at ocml_unknown:entry:1
; RUN: not %crosslane-run %s --kernel=ocml_two_results --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=OCMLRES
; OCMLRES: crosslane-run: error: builtin '__ocml_sincos_f32': not modelled at ocml_two_results:entry:1
; RUN: not %crosslane-run %s --kernel=ocml_vector --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=OCMLVEC
; OCMLVEC: crosslane-run: error: builtin '__ocml_fabs_f32' takes a non-scalar argument at ocml_vector:entry:1

; Globals the executor cannot initialise:
; RUN: not %crosslane-run %S/Inputs/exec-wide-initializer.ll --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=WIDEINIT
; WIDEINIT: crosslane-run: error: cannot initialise global 'wide': integer constant wider than 128 bits
; RUN: not %crosslane-run %S/Inputs/exec-blockaddress-initializer.ll --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=BAINIT
; BAINIT: crosslane-run: error: cannot initialise global 'target': unsupported constant ptr blockaddress(@k, %a)

target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
declare void @__assert_fail(ptr, ptr, i32, ptr)
declare i64 @__ockl_printf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32)
declare i64 @__ocml_bad(float)
declare float @__ocml_frobnicate_f32(float)
declare { float, float } @__ocml_sincos_f32(float)
declare float @__ocml_fabs_f32(<2 x float>)

@cst = addrspace(4) constant i32 7
@lds = internal addrspace(3) global i32 poison
@msg = private addrspace(4) constant [6 x i8] c"x > 0\00"
@file = private addrspace(4) constant [6 x i8] c"k.hip\00"
@fn = private addrspace(4) constant [2 x i8] c"k\00"

; Tag 3: no aperture.
define amdgpu_kernel void @bad_aperture(ptr addrspace(1) %out) {
entry:
  %v = load i32, ptr inttoptr (i64 844424930131968 to ptr)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @null_load(ptr addrspace(1) %out) {
entry:
  %v = load i32, ptr addrspace(1) null
  store i32 %v, ptr addrspace(1) %out
  ret void
}

; The private aperture (tag 2) of lane 200.
define amdgpu_kernel void @bad_lane(ptr addrspace(1) %out) {
entry:
  %v = load i32, ptr inttoptr (i64 563808946880512 to ptr)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define ptr addrspace(5) @escape() {
  %a = alloca i32, addrspace(5)
  store i32 1, ptr addrspace(5) %a
  ret ptr addrspace(5) %a
}

define amdgpu_kernel void @dead_frame(ptr addrspace(1) %out) {
entry:
  %p = call ptr addrspace(5) @escape()
  %v = load i32, ptr addrspace(5) %p
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @store_constant(ptr addrspace(1) %out) {
entry:
  store i32 1, ptr addrspace(4) @cst
  ret void
}

define amdgpu_kernel void @load_poison(ptr addrspace(1) %out) {
entry:
  %v = load i32, ptr addrspace(1) poison
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @store_poison(ptr addrspace(1) %out) {
entry:
  store i32 1, ptr addrspace(1) poison
  ret void
}

define amdgpu_kernel void @memset_poison(ptr addrspace(1) %out) {
entry:
  call void @llvm.memset.p1.i64(ptr addrspace(1) %out, i8 0, i64 poison, i1 false)
  ret void
}

define amdgpu_kernel void @atomic_poison_address(ptr addrspace(1) %out) {
entry:
  %v = atomicrmw add ptr addrspace(1) poison, i32 1 monotonic
  ret void
}

define amdgpu_kernel void @atomic_poison_value(ptr addrspace(1) %out) {
entry:
  %v = atomicrmw add ptr addrspace(1) %out, i32 poison monotonic
  ret void
}

define amdgpu_kernel void @atomic_uninit(ptr addrspace(1) %out) {
entry:
  %v = atomicrmw add ptr addrspace(3) @lds, i32 1 monotonic
  ret void
}

define amdgpu_kernel void @sdiv_zero(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %q = sdiv i32 7, %t
  store i32 %q, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @udiv_wide_zero(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %w = zext i32 %t to i128
  %q = udiv i128 7, %w
  %r = trunc i128 %q to i32
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @switch_poison(ptr addrspace(1) %out) {
entry:
  switch i32 poison, label %a [ i32 1, label %b ]
a:
  ret void
b:
  ret void
}

define amdgpu_kernel void @unreachable(ptr addrspace(1) %out) {
entry:
  unreachable
}

define void @rec(i32 %n) {
  %a = alloca [4096 x i32], addrspace(5)
  store volatile i32 %n, ptr addrspace(5) %a
  %m = add i32 %n, 1
  call void @rec(i32 %m)
  ret void
}

define amdgpu_kernel void @recurse(ptr addrspace(1) %out) {
entry:
  call void @rec(i32 0)
  ret void
}

define amdgpu_kernel void @assert(ptr addrspace(1) %out) {
entry:
  call void @__assert_fail(ptr addrspacecast (ptr addrspace(4) @msg to ptr), ptr addrspacecast (ptr addrspace(4) @file to ptr), i32 12, ptr addrspacecast (ptr addrspace(4) @fn to ptr))
  ret void
}

define amdgpu_kernel void @printf_descriptor(ptr addrspace(1) %out) {
entry:
  %r = call i64 @__ockl_printf_append_args(i64 12345, i32 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i32 1)
  ret void
}

define amdgpu_kernel void @ocml_no_suffix(ptr addrspace(1) %out) {
entry:
  %r = call i64 @__ocml_bad(float 1.0)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @ocml_unknown(ptr addrspace(1) %out) {
entry:
  %r = call float @__ocml_frobnicate_f32(float 1.0)
  store float %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @ocml_two_results(ptr addrspace(1) %out) {
entry:
  %r = call { float, float } @__ocml_sincos_f32(float 1.0)
  ret void
}

define amdgpu_kernel void @ocml_vector(ptr addrspace(1) %out) {
entry:
  %r = call float @__ocml_fabs_f32(<2 x float> zeroinitializer)
  store float %r, ptr addrspace(1) %out
  ret void
}
