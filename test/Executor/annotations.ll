; Annotations (clang's __attribute__((annotate)) on values, variables and
; struct members, e.g. the cache-control route docs/Xe.md describes) change
; no value: llvm.ptr.annotation and llvm.annotation return their operand,
; llvm.var.annotation does nothing.
; RUN: %crosslane-run %s --mcpu=gfx942 --block=4 --arg=buf:f32:4:iota --arg=buf:f32:4:zero --print=1 | FileCheck %s
; CHECK: arg1[0] = 0
; CHECK-NEXT: arg1[1] = 1
; CHECK-NEXT: arg1[2] = 2
; CHECK-NEXT: arg1[3] = 3
target triple = "amdgcn-amd-amdhsa"
@s = private unnamed_addr addrspace(4) constant [5 x i8] c"hint\00"
@f = private unnamed_addr addrspace(4) constant [4 x i8] c"a.c\00"

define amdgpu_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %slot = alloca i32, addrspace(5)
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = call ptr addrspace(1) @llvm.ptr.annotation.p1.p4(ptr addrspace(1) %in, ptr addrspace(4) @s, ptr addrspace(4) @f, i32 3, ptr addrspace(4) null)
  %a = getelementptr float, ptr addrspace(1) %p, i32 %t
  %v = load float, ptr addrspace(1) %a
  call void @llvm.var.annotation.p5.p4(ptr addrspace(5) %slot, ptr addrspace(4) @s, ptr addrspace(4) @f, i32 4, ptr addrspace(4) null)
  %w = call i32 @llvm.annotation.i32.p4(i32 %t, ptr addrspace(4) @s, ptr addrspace(4) @f, i32 4)
  %o = getelementptr float, ptr addrspace(1) %out, i32 %w
  store float %v, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(1) @llvm.ptr.annotation.p1.p4(ptr addrspace(1), ptr addrspace(4), ptr addrspace(4), i32, ptr addrspace(4))
declare i32 @llvm.annotation.i32.p4(i32, ptr addrspace(4), ptr addrspace(4), i32)
declare void @llvm.var.annotation.p5.p4(ptr addrspace(5), ptr addrspace(4), ptr addrspace(4), i32, ptr addrspace(4))
