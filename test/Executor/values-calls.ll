; Vectors (<2 x half>, <4 x float>, <2 x i32>, i1 vectors), bitcasts,
; shufflevector, structs from intrinsics, and calls to defined functions
; under a divergent exec mask (with divergent loops and early returns inside
; the callee, and recursion).
; REQUIRES: executor
; RUN: %crosslane-run %s --kernel=vec --mcpu=gfx942 --block=4 --arg=buf:i32:16:zero --arg=buf:f32:16:iota | FileCheck %s --check-prefix=VEC
; RUN: %crosslane-run %s --kernel=calls --mcpu=gfx1100 --block=32 --arg=buf:i32:32:zero | FileCheck %s --check-prefix=CALL

declare i32 @llvm.amdgcn.workitem.id.x()
declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare i32 @llvm.amdgcn.ballot.i32(i1)

define amdgpu_kernel void @vec(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %base = mul i32 %l, 4
  %p = getelementptr float, ptr addrspace(1) %in, i32 %base
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %w = fadd <4 x float> %v, <float 0.5, float 0.5, float 0.5, float 0.5>
  %s = shufflevector <4 x float> %w, <4 x float> poison, <2 x i32> <i32 3, i32 0>
  %h = fptrunc <2 x float> %s to <2 x half>
  %h2 = fmul <2 x half> %h, <half 2.0, half 2.0>
  %bits = bitcast <2 x half> %h2 to i32
  %c = fcmp ogt <4 x float> %v, <float 5.0, float 5.0, float 5.0, float 5.0>
  %ci = bitcast <4 x i1> %c to i4
  %cz = zext i4 %ci to i32
  %iv = bitcast <4 x float> %v to <2 x i64>
  %e = extractelement <2 x i64> %iv, i32 1
  %et = trunc i64 %e to i32
  %ov = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 -1, i32 %l)
  %ob = extractvalue { i32, i1 } %ov, 1
  %o32 = zext i1 %ob to i32
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %base
  store i32 %bits, ptr addrspace(1) %q, align 4
  %q1 = getelementptr i32, ptr addrspace(1) %q, i32 1
  store i32 %cz, ptr addrspace(1) %q1, align 4
  %q2 = getelementptr i32, ptr addrspace(1) %q, i32 2
  store i32 %et, ptr addrspace(1) %q2, align 4
  %q3 = getelementptr i32, ptr addrspace(1) %q, i32 3
  store i32 %o32, ptr addrspace(1) %q3, align 4
  ret void
}
; lane 0: v = 0,1,2,3 -> s = (3.5, 0.5) -> half*2 = (7.0 = 0x4700, 1.0 =
; 0x3C00) -> 0x3C004700; no element > 5; element 2 bits = 2.0f; 0 + -1 does
; not overflow. lane 1: v = 4..7: 5 < 6,7 -> bits 2,3; -1 + 1 overflows.
; VEC: arg0[0] = 1006651136
; VEC: arg0[1] = 0
; VEC: arg0[2] = 1073741824
; VEC: arg0[3] = 0
; VEC: arg0[5] = 12
; VEC: arg0[7] = 1

; Collatz step count, recursively, only for odd lanes; even lanes skip.
define internal i32 @steps(i32 %n) {
entry:
  %one = icmp ule i32 %n, 1
  br i1 %one, label %base, label %rec
base:
  ret i32 0
rec:
  %odd = and i32 %n, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %o, label %e
o:
  %t = mul i32 %n, 3
  %t1 = add i32 %t, 1
  br label %join
e:
  %h = lshr i32 %n, 1
  br label %join
join:
  %nx = phi i32 [ %t1, %o ], [ %h, %e ]
  %r = call i32 @steps(i32 %nx)
  %r1 = add i32 %r, 1
  ret i32 %r1
}

; Loop with a divergent trip count and a data-dependent early exit.
define internal i32 @sumto(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %cont ]
  %s = phi i32 [ 0, %entry ], [ %s1, %cont ]
  %big = icmp ugt i32 %s, 100
  br i1 %big, label %early, label %cont
cont:
  %s1 = add i32 %s, %i
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, %n
  br i1 %more, label %loop, label %done
early:
  ret i32 -1
done:
  ret i32 %s1
}

define amdgpu_kernel void @calls(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %odd = and i32 %l, 1
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %a, label %b
a:
  %st = call i32 @steps(i32 %l)
  br label %join
b:
  %sm = call i32 @sumto(i32 %l)
  br label %join
join:
  %r = phi i32 [ %st, %a ], [ %sm, %b ]
  %bal = call i32 @llvm.amdgcn.ballot.i32(i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  %x = add i32 %r, %bal
  %y = sub i32 %x, -1
  store i32 %y, ptr addrspace(1) %p, align 4
  ret void
}
; ballot(true) after reconvergence is all 32 lanes (-1), so out = r.
; steps: 1 -> 0, 3 -> 7, 27 -> 111; sumto(n) = 0+..+(n-1) until > 100.
; CALL: arg0[0] = 0
; CALL: arg0[1] = 0
; CALL: arg0[3] = 7
; CALL: arg0[4] = 6
; CALL: arg0[14] = 91
; CALL: arg0[16] = -1
; CALL: arg0[27] = 111

; Flat (generic) pointers into LDS, private memory and global memory.
; RUN: %crosslane-run %s --kernel=flat --mcpu=gfx942 --block=64 --arg=buf:i32:64:zero | FileCheck %s --check-prefix=FLAT
@slm = internal addrspace(3) global [64 x i32] poison, align 4
declare i1 @llvm.amdgcn.is.shared(ptr)
declare i1 @llvm.amdgcn.is.private(ptr)
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @flat(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %priv = alloca i32, align 4, addrspace(5)
  %pf = addrspacecast ptr addrspace(5) %priv to ptr
  store i32 %l, ptr %pf, align 4
  %q = getelementptr [64 x i32], ptr addrspace(3) @slm, i32 0, i32 %l
  %qf = addrspacecast ptr addrspace(3) %q to ptr
  %v = load i32, ptr %pf, align 4
  %v2 = mul i32 %v, 2
  store i32 %v2, ptr %qf, align 4
  call void @llvm.amdgcn.s.barrier()
  %r = sub i32 63, %l
  %q2 = getelementptr [64 x i32], ptr addrspace(3) @slm, i32 0, i32 %r
  %q2f = addrspacecast ptr addrspace(3) %q2 to ptr
  %w = load i32, ptr %q2f, align 4
  %sh = call i1 @llvm.amdgcn.is.shared(ptr %q2f)
  %pr = call i1 @llvm.amdgcn.is.private(ptr %pf)
  %shi = zext i1 %sh to i32
  %pri = zext i1 %pr to i32
  %t = add i32 %shi, %pri
  %t1 = mul i32 %t, 1000
  %x = add i32 %w, %t1
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %l
  %of = addrspacecast ptr addrspace(1) %o to ptr
  store i32 %x, ptr %of, align 4
  ret void
}
; FLAT: arg0[0] = 2126
; FLAT: arg0[63] = 2000
