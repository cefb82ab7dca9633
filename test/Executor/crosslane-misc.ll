; set.inactive + DPP in whole-wave mode under a divergent exec mask,
; strict.wwm, wave.reduce.*, readfirstlane, writelane, ballot /
; inverse.ballot, llvm.amdgcn.icmp, mbcnt, ds.permute, permlane16/32.swap.
; REQUIRES: executor
; RUN: %crosslane-run %s --kernel=wwm --mcpu=gfx942 --block=64 --arg=buf:i32:4:zero | FileCheck %s --check-prefix=WWM
; RUN: %crosslane-run %s --kernel=wwm --mcpu=gfx1100 --block=32 --arg=buf:i32:4:zero | FileCheck %s --check-prefix=WWM
; RUN: not %crosslane-run %s --kernel=no_set_inactive --mcpu=gfx942 --block=64 --arg=buf:i32:4:zero 2>&1 | FileCheck %s --check-prefix=NOSI
; RUN: %crosslane-run %s --kernel=misc --mcpu=gfx942 --block=64 --arg=buf:i32:16:zero | FileCheck %s --check-prefix=MISC
; RUN: %crosslane-run %s --kernel=reduce --mcpu=gfx942 --block=64 --arg=buf:i32:16:zero --arg=buf:f32:4:zero | FileCheck %s --check-prefix=RED
; RUN: %crosslane-run %s --kernel=swap --mcpu=gfx950 --block=64 --arg=buf:i32:128:zero | FileCheck %s --check-prefix=SWAP

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.strict.wwm.i32(i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.writelane.i32(i32, i32, i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i1 @llvm.amdgcn.inverse.ballot.i64(i64)
declare i64 @llvm.amdgcn.icmp.i64.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.amdgcn.ds.permute(i32, i32)
declare i32 @llvm.amdgcn.wave.reduce.umax.i32(i32, i32)
declare i32 @llvm.amdgcn.wave.reduce.add.i32(i32, i32)
declare i32 @llvm.amdgcn.wave.reduce.sub.i32(i32, i32)
declare i32 @llvm.amdgcn.wave.reduce.min.i32(i32, i32)
declare float @llvm.amdgcn.wave.reduce.fmin.f32(float, i32)
declare { i32, i32 } @llvm.amdgcn.permlane16.swap(i32, i32, i1, i1)
declare { i32, i32 } @llvm.amdgcn.permlane32.swap(i32, i32, i1, i1)
declare i32 @llvm.amdgcn.wavefrontsize()

; Lanes 0..9 active: sum of (lane+1) over them = 55 via set.inactive(v, 0),
; row_shr:1/2/4/8 (bound_ctrl 0, old 0) inclusive scan within rows, and
; readlane of lane 15 of row 0 in whole-wave mode.
define amdgpu_kernel void @wwm(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %l, 10
  br i1 %c, label %act, label %done
act:
  %v = add i32 %l, 1
  %s0 = call i32 @llvm.amdgcn.set.inactive.i32(i32 %v, i32 0)
  %d1 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s0, i32 273, i32 15, i32 15, i1 false)
  %s1 = add i32 %s0, %d1
  %d2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s1, i32 274, i32 15, i32 15, i1 false)
  %s2 = add i32 %s1, %d2
  %d3 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s2, i32 276, i32 15, i32 15, i1 false)
  %s3 = add i32 %s2, %d3
  %d4 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s3, i32 280, i32 15, i32 15, i1 false)
  %s4 = add i32 %s3, %d4
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %s4, i32 15)
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %r)
  %first = icmp eq i32 %l, 0
  br i1 %first, label %store, label %done
store:
  store i32 %w, ptr addrspace(1) %out, align 4
  br label %done
done:
  ret void
}
; WWM: arg0[0] = 55

; Without set.inactive the DPP reads inactive lanes: poison, reported.
define amdgpu_kernel void @no_set_inactive(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %l, 10
  br i1 %c, label %act, label %done
act:
  %v = add i32 %l, 1
  %d1 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 273, i32 15, i32 15, i1 false)
  %s1 = add i32 %v, %d1
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %s1, i32 10)
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %r)
  store i32 %w, ptr addrspace(1) %out, align 4
  br label %done
done:
  ret void
}
; NOSI: crosslane-run: error: poison stored (lane 0) at no_set_inactive:act:6

define amdgpu_kernel void @misc(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %odd = and i32 %l, 1
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %div, label %join
div:
  ; in odd lanes only
  %f = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %l)
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  %cnt = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %cnt2 = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %cnt)
  %bl = trunc i64 %b to i32
  %m = call i32 @llvm.amdgcn.mbcnt.lo(i32 %bl, i32 0)
  %bh = lshr i64 %b, 32
  %bh32 = trunc i64 %bh to i32
  %m2 = call i32 @llvm.amdgcn.mbcnt.hi(i32 %bh32, i32 %m)
  %is5 = icmp eq i32 %l, 5
  br i1 %is5, label %s5, label %join
s5:
  %p1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  store i32 %f, ptr addrspace(1) %p1, align 4
  %bt = trunc i64 %b to i32
  %p2 = getelementptr i32, ptr addrspace(1) %out, i32 2
  store i32 %bt, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr i32, ptr addrspace(1) %out, i32 3
  store i32 %cnt2, ptr addrspace(1) %p3, align 4
  %p4 = getelementptr i32, ptr addrspace(1) %out, i32 4
  store i32 %m2, ptr addrspace(1) %p4, align 4
  br label %join
join:
  %wl = call i32 @llvm.amdgcn.writelane.i32(i32 777, i32 7, i32 %l)
  %inv = call i1 @llvm.amdgcn.inverse.ballot.i64(i64 128)
  %ic = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %l, i32 40, i32 35)
  %rot = add i32 %l, 1
  %rot4 = shl i32 %rot, 2
  %perm = call i32 @llvm.amdgcn.ds.permute(i32 %rot4, i32 %l)
  %ws = call i32 @llvm.amdgcn.wavefrontsize()
  %is7 = icmp eq i32 %l, 7
  br i1 %is7, label %s7, label %end
s7:
  %p5 = getelementptr i32, ptr addrspace(1) %out, i32 5
  store i32 %wl, ptr addrspace(1) %p5, align 4
  %iv = zext i1 %inv to i32
  %p6 = getelementptr i32, ptr addrspace(1) %out, i32 6
  store i32 %iv, ptr addrspace(1) %p6, align 4
  %ich = lshr i64 %ic, 32
  %ic32 = trunc i64 %ich to i32
  %p7 = getelementptr i32, ptr addrspace(1) %out, i32 7
  store i32 %ic32, ptr addrspace(1) %p7, align 4
  %p8 = getelementptr i32, ptr addrspace(1) %out, i32 8
  store i32 %perm, ptr addrspace(1) %p8, align 4
  %p9 = getelementptr i32, ptr addrspace(1) %out, i32 9
  store i32 %ws, ptr addrspace(1) %p9, align 4
  br label %end
end:
  ret void
}
; first active odd lane is 1; ballot = 0xAAAAAAAA (low half); lane 5 has 5
; lanes below it; 2 odd lanes below lane 5; writelane put 777 in lane 7;
; bit 7 of 128 is set; icmp uge 40 -> high word bits 8..31
; set (lanes 40..63); ds.permute(lane+1) sends lane 6 to lane 7.
; MISC: arg0[1] = 1
; MISC: arg0[2] = -1431655766
; MISC: arg0[3] = 5
; MISC: arg0[4] = 2
; MISC: arg0[5] = 777
; MISC: arg0[6] = 1
; MISC: arg0[7] = -256
; MISC: arg0[8] = 6
; MISC: arg0[9] = 64

define amdgpu_kernel void @reduce(ptr addrspace(1) %out, ptr addrspace(1) %fout) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %m3 = urem i32 %l, 3
  %c = icmp eq i32 %m3, 0
  br i1 %c, label %act, label %done
act:
  %v = mul i32 %l, 7
  %umax = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %v, i32 0)
  %add = call i32 @llvm.amdgcn.wave.reduce.add.i32(i32 %v, i32 1)
  %sub = call i32 @llvm.amdgcn.wave.reduce.sub.i32(i32 %v, i32 2)
  %neg = sub i32 10, %l
  %min = call i32 @llvm.amdgcn.wave.reduce.min.i32(i32 %neg, i32 0)
  %fv = sitofp i32 %neg to float
  %fmin = call float @llvm.amdgcn.wave.reduce.fmin.f32(float %fv, i32 0)
  %z = icmp eq i32 %l, 0
  br i1 %z, label %st, label %done
st:
  store i32 %umax, ptr addrspace(1) %out, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  store i32 %add, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr i32, ptr addrspace(1) %out, i32 2
  store i32 %sub, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr i32, ptr addrspace(1) %out, i32 3
  store i32 %min, ptr addrspace(1) %p3, align 4
  store float %fmin, ptr addrspace(1) %fout, align 4
  br label %done
done:
  ret void
}
; lanes 0,3,..,63: max 63*7 = 441; sum 7*(0+3+..+63) = 7*693 = 4851.
; RED: arg0[0] = 441
; RED: arg0[1] = 4851
; RED: arg0[2] = -4851
; RED: arg0[3] = -53
; RED: arg1[0] = -53

; permlane16.swap / permlane32.swap (gfx950): new vdst / new vsrc per lane.
define amdgpu_kernel void @swap(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %b = add i32 %l, 100
  %s16 = call { i32, i32 } @llvm.amdgcn.permlane16.swap(i32 %l, i32 %b, i1 false, i1 false)
  %s32 = call { i32, i32 } @llvm.amdgcn.permlane32.swap(i32 %l, i32 %b, i1 false, i1 false)
  %a0 = extractvalue { i32, i32 } %s16, 0
  %a1 = extractvalue { i32, i32 } %s16, 1
  %c0 = extractvalue { i32, i32 } %s32, 0
  %c1 = extractvalue { i32, i32 } %s32, 1
  %sum = add i32 %a0, %c1
  %x = mul i32 %a1, 1000
  %y = add i32 %x, %c0
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  store i32 %sum, ptr addrspace(1) %p, align 4
  %l2 = add i32 %l, 64
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %l2
  store i32 %y, ptr addrspace(1) %q, align 4
  ret void
}
; Lane 0 (row 0): 16.swap new vdst = 0 (even row kept), new vsrc = vdst lane
; 16 = 16; 32.swap new vdst = 0, new vsrc = vdst lane 32 = 32.
; SWAP: arg0[0] = 32
; SWAP: arg0[17] = 150
; SWAP: arg0[40] = 180
; SWAP: arg0[64] = 16000
; SWAP: arg0[81] = 117017
; SWAP: arg0[104] = 56108
