; Executor limits that used to crash: a vector of integers wider than 64
; bits (a segfault in the load, then a wrong size for the store) and a
; global too large to model (std::bad_alloc). Both are now errors naming
; the value and the limit.
; REQUIRES: executor
; RUN: rm -rf %t && split-file-22 %s %t
; RUN: not %crosslane-run %t/vec.ll --mcpu=gfx942 --arg=buf:i32:16:zero 2>&1 | FileCheck %s --check-prefix=VEC
; VEC: crosslane-run: error: vectors of integers wider than 64 bits are not modelled at k:%0:1 ('%v = load <2 x i128>, ptr addrspace(1) %out, align 32')
; RUN: not %crosslane-run %t/vecstore.ll --mcpu=gfx942 --arg=buf:i32:16:zero 2>&1 | FileCheck %s --check-prefix=VST
; VST: crosslane-run: error: vectors of integers wider than 64 bits are not modelled at k:%0:1 ('store <2 x i128> <i128 1, i128 2>, ptr addrspace(1) %out
; RUN: not %crosslane-run %t/big.ll --mcpu=gfx942 --arg=buf:f32:4:zero 2>&1 | FileCheck %s --check-prefix=BIG
; BIG: crosslane-run: error: global 'big' needs 5368709120 bytes; the executor models globals of up to 1 GiB

;--- vec.ll
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %v = load <2 x i128>, ptr addrspace(1) %out
  ret void
}
;--- vecstore.ll
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  store <2 x i128> <i128 1, i128 2>, ptr addrspace(1) %out
  ret void
}
;--- big.ll
@big = addrspace(1) global [5368709120 x i8] zeroinitializer
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %p = getelementptr i8, ptr addrspace(1) @big, i64 5
  %v = load i8, ptr addrspace(1) %p
  store i8 %v, ptr addrspace(1) %out
  ret void
}
