; IR the executor does not model: one "crosslane-run: error:" line that
; says what is not modelled and names the instruction (function:block:
; instruction-number and its text); exit code 1, no crash.
; REQUIRES: executor
; RUN: not %crosslane-run %s --kernel=dyn_alloca --mcpu=gfx942 --arg=buf:i32:4:zero --arg=i32:1 2>&1 | FileCheck %s --check-prefix=ALLOCA
; ALLOCA: crosslane-run: error: dynamic alloca is not modelled at dyn_alloca:entry:1 ('%a = alloca i32, i32 %n, align 4, addrspace(5)')
; RUN: not %crosslane-run %s --kernel=agg_leaf --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=AGG
; AGG: crosslane-run: error: aggregate access with a leaf that is not a byte-sized scalar is not modelled at agg_leaf:entry:1 ('%v = load %nibbles, ptr addrspace(1) %out, align 4')
; RUN: not %crosslane-run %s --kernel=wide_vec --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=WIDEVEC
; WIDEVEC: crosslane-run: error: vectors of integers wider than 64 bits are not modelled at wide_vec:entry:1 ('%v = insertelement <2 x i128> poison, i128 1, i32 0')
; RUN: not %crosslane-run %s --kernel=wide_op --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=WIDEOP
; WIDEOP: crosslane-run: error: this operation on an integer wider than 64 bits is not modelled at wide_op:entry:2 ('%f = uitofp i128 %v to float')
; RUN: not %crosslane-run %s --kernel=asm_untied --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=ASM
; ASM: crosslane-run: error: inline assembly (a comment) whose result is not an input tied to it is not modelled at asm_untied:entry:1
; RUN: not %crosslane-run %s --kernel=load_i4 --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=LOADI4
; LOADI4: crosslane-run: error: loads of non-byte-sized elements are not modelled at load_i4:entry:1 ('%v = load i4, ptr addrspace(1) %out, align 1')
; RUN: not %crosslane-run %s --kernel=store_i4 --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=STOREI4
; STOREI4: crosslane-run: error: stores of non-byte-sized elements are not modelled at store_i4:entry:1 ('store i4 1, ptr addrspace(1) %out, align 1')
; RUN: not %crosslane-run %s --kernel=vec_atomic --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=VECATOMIC
; VECATOMIC: crosslane-run: error: vector atomics are not modelled at vec_atomic:entry:1
; RUN: not %crosslane-run %s --kernel=indirect --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=INDIRECT
; INDIRECT: crosslane-run: error: indirect calls are not modelled at indirect:entry:2 ('call void %f()')
; RUN: not %crosslane-run %s --kernel=vec_gep --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=VECGEP
; VECGEP: crosslane-run: error: vector GEPs are not modelled at vec_gep:entry:1
; RUN: not %crosslane-run %s --kernel=va_arg --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=VAARG
; VAARG: crosslane-run: error: unsupported instruction 'va_arg' at va_arg:entry:2 ('%v = va_arg ptr addrspace(5) %p, i32')
; RUN: not %crosslane-run %s --kernel=indirectbr --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=TERM
; TERM: crosslane-run: error: unsupported terminator 'indirectbr' at indirectbr:entry:2 ('indirectbr ptr %p, [label %a]')

; Types and constants:
; RUN: not %crosslane-run %s --kernel=wide_type --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=WIDETYPE
; WIDETYPE: crosslane-run: error: integer type wider than 128 bits at wide_type:entry:1 ('%v = load i256, ptr addrspace(1) %out, align 4')
; RUN: not %crosslane-run %s --kernel=big_array --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=ARRAY
; ARRAY: crosslane-run: error: array value too large at big_array:entry:1 ('%v = load [300 x i8], ptr addrspace(1) %out, align 1')
; RUN: not %crosslane-run %s --kernel=fp80 --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=TYPE
; TYPE: crosslane-run: error: unsupported type x86_fp80 at fp80:entry:1 ('%v = load x86_fp80, ptr addrspace(1) %out, align 16')
; RUN: not %crosslane-run %s --kernel=blockaddr --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=CONST
; CONST: crosslane-run: error: unsupported constant ptr blockaddress(@blockaddr, %a) at blockaddr:entry:1
; RUN: not %crosslane-run %s --kernel=flat_global --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=STORAGE
; STORAGE: crosslane-run: error: global 'flatg' has no storage at flat_global:entry:1 ('%v = load i32, ptr @flatg, align 4')
; RUN: not %crosslane-run %s --kernel=gep_expr --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=GEPEXPR
; GEPEXPR: crosslane-run: error: non-constant GEP expression at gep_expr:entry:1
; A function whose parameter cannot be held:
; RUN: not %crosslane-run %s --kernel=wide_callee --mcpu=gfx942 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=CALLEE
; CALLEE: crosslane-run: error: integer type wider than 128 bits at wide_callee:entry:1 ('call void @takes_wide(i256 0)')

; Kernel arguments and the launch:
; RUN: not %crosslane-run %s --kernel=wide_arg --mcpu=gfx942 --arg=i32:1 2>&1 | FileCheck %s --check-prefix=WIDEARG
; WIDEARG: crosslane-run: error: kernel argument 0 is an aggregate, a vector or an integer wider than 64 bits passed by value, which the executor does not pass
; RUN: not %crosslane-run %s --kernel=byref_nibbles --mcpu=gfx942 --arg=i32:1 2>&1 | FileCheck %s --check-prefix=BYREF
; BYREF: crosslane-run: error: kernel argument 0 holds a type the executor does not pass
; RUN: not %crosslane-run %s --kernel=scalar --mcpu=gfx942 --arg=local:16 2>&1 | FileCheck %s --check-prefix=LOCAL
; LOCAL: crosslane-run: error: kernel argument value 0 (i32) is not a local-memory pointer but local memory was given
; RUN: not %crosslane-run %s --kernel=dyn_alloca --mcpu=gfx942 --arg=i64:5 --arg=i32:1 2>&1 | FileCheck %s --check-prefix=NOTBUF
; NOTBUF: crosslane-run: error: kernel argument value 0 (ptr addrspace(1)) is a pointer: give a buffer
; RUN: not %crosslane-run %s --kernel=scalar --mcpu=gfx942 --block=32,32,2 --arg=i32:1 2>&1 | FileCheck %s --check-prefix=BLOCK
; BLOCK: crosslane-run: error: workgroup larger than 1024 work-items

target triple = "amdgcn-amd-amdhsa"

%nibbles = type { <2 x i4>, i32 }

@flatg = global i32 5
@g = addrspace(1) global [4 x i32] zeroinitializer

define amdgpu_kernel void @dyn_alloca(ptr addrspace(1) %out, i32 %n) {
entry:
  %a = alloca i32, i32 %n, align 4, addrspace(5)
  store i32 1, ptr addrspace(5) %a
  ret void
}

define amdgpu_kernel void @agg_leaf(ptr addrspace(1) %out) {
entry:
  %v = load %nibbles, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @wide_vec(ptr addrspace(1) %out) {
entry:
  %v = insertelement <2 x i128> poison, i128 1, i32 0
  %e = extractelement <2 x i128> %v, i32 0
  %t = trunc i128 %e to i32
  store i32 %t, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @wide_op(ptr addrspace(1) %out) {
entry:
  %v = load i128, ptr addrspace(1) %out
  %f = uitofp i128 %v to float
  store float %f, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @asm_untied(ptr addrspace(1) %out) {
entry:
  %v = call i32 asm sideeffect "; comment", "=v"()
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @load_i4(ptr addrspace(1) %out) {
entry:
  %v = load i4, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @store_i4(ptr addrspace(1) %out) {
entry:
  store i4 1, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @vec_atomic(ptr addrspace(1) %out) {
entry:
  %v = atomicrmw fadd ptr addrspace(1) %out, <2 x half> <half 1.0, half 1.0> monotonic
  ret void
}

define amdgpu_kernel void @indirect(ptr addrspace(1) %out) {
entry:
  %f = load ptr, ptr addrspace(1) %out
  call void %f()
  ret void
}

define amdgpu_kernel void @vec_gep(ptr addrspace(1) %out) {
entry:
  %p = getelementptr i32, ptr addrspace(1) %out, <2 x i32> <i32 0, i32 1>
  %q = extractelement <2 x ptr addrspace(1)> %p, i32 0
  store i32 1, ptr addrspace(1) %q
  ret void
}

define amdgpu_kernel void @va_arg(ptr addrspace(1) %out) {
entry:
  %p = alloca ptr, addrspace(5)
  %v = va_arg ptr addrspace(5) %p, i32
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @indirectbr(ptr addrspace(1) %out) {
entry:
  %p = load ptr, ptr addrspace(1) %out
  indirectbr ptr %p, [label %a]
a:
  ret void
}

define amdgpu_kernel void @wide_type(ptr addrspace(1) %out) {
entry:
  %v = load i256, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @big_array(ptr addrspace(1) %out) {
entry:
  %v = load [300 x i8], ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @fp80(ptr addrspace(1) %out) {
entry:
  %v = load x86_fp80, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @blockaddr(ptr addrspace(1) %out) {
entry:
  indirectbr ptr blockaddress(@blockaddr, %a), [label %a]
a:
  ret void
}

define amdgpu_kernel void @flat_global(ptr addrspace(1) %out) {
entry:
  %v = load i32, ptr @flatg
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @gep_expr(ptr addrspace(1) %out) {
entry:
  %v = load i32, ptr addrspace(1) getelementptr (i8, ptr addrspace(1) @g, i64 ptrtoint (ptr addrspace(1) @g to i64))
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define void @takes_wide(i256 %x) {
  ret void
}

define amdgpu_kernel void @wide_callee(ptr addrspace(1) %out) {
entry:
  call void @takes_wide(i256 0)
  ret void
}

define amdgpu_kernel void @wide_arg(i256 %x) {
  ret void
}

define amdgpu_kernel void @byref_nibbles(ptr addrspace(4) byref(%nibbles) align 4 %s) {
  ret void
}

define amdgpu_kernel void @scalar(i32 %x) {
  ret void
}
