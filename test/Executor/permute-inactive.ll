; ds.bpermute / ds.permute with inactive lanes, as the instructions are
; published (e.g. Rust's core::arch::amdgpu docs for ds_bpermute and
; ds_permute): EXEC applies to the source reads, so a lane reading an
; inactive lane gets 0; a destination no active lane writes is 0; of
; several writers to one lane the highest lane wins.
; REQUIRES: executor
; RUN: %crosslane-run %s --kernel=bperm --mcpu=gfx942 --block=64 --arg=buf:i32:64:const=-1 | FileCheck %s --check-prefix=BPERM
; RUN: %crosslane-run %s --kernel=perm --mcpu=gfx942 --block=64 --arg=buf:i32:64:const=-1 | FileCheck %s --check-prefix=PERM
; RUN: %crosslane-run %s --kernel=bperm --mcpu=gfx1100 --mattr=+wavefrontsize64 --block=64 --arg=buf:i32:64:const=-1 | FileCheck %s --check-prefix=HALVES
; ds.swizzle too (the ISA guides' "thread_valid[j] ? thread_in[j] : 0"):
; RUN: %crosslane-run %s --kernel=swz --mcpu=gfx942 --block=64 --arg=buf:i32:64:const=-1 | FileCheck %s --check-prefix=SWZ
; RUN: %crosslane-run %s --kernel=swz --mcpu=gfx1201 --block=32 --arg=buf:i32:64:const=-1 | FileCheck %s --check-prefix=SWZ

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.ds.permute(i32, i32)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)

; Even lanes active; xor-1 (bit mode 0x041F) and rotate-up-by-1 (0xC420)
; swizzles read odd, inactive lanes: 0; FFT with 0xE01F keeps every bit
; (lane reads itself).
define amdgpu_kernel void @swz(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %odd = and i32 %l, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %act, label %end
act:
  %v = add i32 %l, 100
  %x = call i32 @llvm.amdgcn.ds.swizzle(i32 %v, i32 1055)
  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %v, i32 50208)
  %f = call i32 @llvm.amdgcn.ds.swizzle(i32 %v, i32 57375)
  %s0 = add i32 %x, %r
  %s = add i32 %s0, %f
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %s, ptr addrspace(1) %p, align 4
  br label %end
end:
  ret void
}
; SWZ: arg0[0] = 100
; SWZ-NEXT: arg0[1] = -1
; SWZ-NEXT: arg0[2] = 102

; Lanes 0..39 active; lane L reads lane 63 - L, i.e. lanes 24..63:
; lanes 24..39 read active lanes (value 100 + source), lanes 0..23 read
; inactive lanes 40..63 (0).
define amdgpu_kernel void @bperm(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %l, 40
  br i1 %c, label %act, label %end
act:
  %src = sub i32 63, %l
  %addr = shl i32 %src, 2
  %v = add i32 %l, 100
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %v)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p, align 4
  br label %end
end:
  ret void
}
; BPERM: arg0[0] = 0
; BPERM: arg0[23] = 0
; BPERM: arg0[24] = 139
; BPERM: arg0[39] = 124
; BPERM: arg0[40] = -1
; GFX10+ wave64: the source lane is taken within the reading lane's 32-lane
; half: lane L < 32 reads lane (63 - L) mod 32 = 31 - L of its own half,
; lanes 32..39 read lane 95 - L of the high half (56..63, inactive: 0).
; HALVES: arg0[0] = 131
; HALVES: arg0[31] = 100
; HALVES: arg0[32] = 0
; HALVES: arg0[39] = 0

; Lanes 0..39 active; lane L writes to lane L / 2 (two writers per
; destination 0..19, the odd, higher lane wins); destinations 20..39 are
; written by no lane and read 0.
define amdgpu_kernel void @perm(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %l, 40
  br i1 %c, label %act, label %end
act:
  %dst = lshr i32 %l, 1
  %addr = shl i32 %dst, 2
  %v = add i32 %l, 100
  %r = call i32 @llvm.amdgcn.ds.permute(i32 %addr, i32 %v)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %r, ptr addrspace(1) %p, align 4
  br label %end
end:
  ret void
}
; PERM: arg0[0] = 101
; PERM: arg0[19] = 139
; PERM: arg0[20] = 0
; PERM: arg0[39] = 0
; PERM: arg0[40] = -1
