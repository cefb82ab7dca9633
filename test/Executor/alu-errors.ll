; ALU intrinsics outside what the executor models exactly are errors naming
; them: types their instruction does not exist for, the ISA cases whose
; result the guides leave undefined, and the intrinsics whose pseudocode is
; incomplete or undefined (div.scale, cvt.pknorm.*). Poison operands give
; poison results; permlane16.var is GFX12-only and its inactive-lane reads
; and poison selectors are poison; fmed3's NaN rule depends on the chip.
; REQUIRES: executor
; RUN: not %crosslane-run %s --kernel=bfe64 --mcpu=gfx942 --block=1 --arg=buf:i64:1:zero 2>&1 | FileCheck %s --check-prefix=BFE64
; RUN: not %crosslane-run %s --kernel=preop32 --mcpu=gfx942 --block=1 --arg=buf:i64:1:zero 2>&1 | FileCheck %s --check-prefix=PREOP32
; RUN: not %crosslane-run %s --kernel=fixup_underflow --mcpu=gfx942 --block=1 --arg=buf:i64:1:zero 2>&1 | FileCheck %s --check-prefix=FIXUP
; RUN: not %crosslane-run %s --kernel=fmas_underflow --mcpu=gfx942 --block=1 --arg=buf:i64:1:zero 2>&1 | FileCheck %s --check-prefix=FMAS
; RUN: %crosslane-run %s --kernel=fmas_exact --mcpu=gfx942 --block=1 --arg=buf:i64:1:zero | FileCheck %s --check-prefix=FMASOK
; RUN: not %crosslane-run %s --kernel=div_scale --mcpu=gfx942 --block=1 --arg=buf:i64:1:zero 2>&1 | FileCheck %s --check-prefix=SCALE
; RUN: not %crosslane-run %s --kernel=pknorm --mcpu=gfx942 --block=1 --arg=buf:i64:1:zero 2>&1 | FileCheck %s --check-prefix=PKNORM
; RUN: not %crosslane-run %s --kernel=poison_operand --mcpu=gfx942 --block=1 --arg=buf:i64:1:zero 2>&1 | FileCheck %s --check-prefix=POISON
; RUN: not %crosslane-run %s --kernel=var_gfx11 --mcpu=gfx1100 --block=32 --arg=buf:i64:32:zero 2>&1 | FileCheck %s --check-prefix=VAR11
; RUN: not %crosslane-run %s --kernel=var_inactive --mcpu=gfx1200 --block=32 --arg=buf:i64:32:zero 2>&1 | FileCheck %s --check-prefix=VARINACTIVE
; RUN: not %crosslane-run %s --kernel=var_poison_sel --mcpu=gfx1200 --block=32 --arg=buf:i64:32:zero 2>&1 | FileCheck %s --check-prefix=VARPOISON
; RUN: %crosslane-run %s --kernel=var_active --mcpu=gfx1200 --block=32 --arg=buf:i64:32:zero --print=0 | FileCheck %s --check-prefix=VARACTIVE
; RUN: %crosslane-run %s --kernel=med3_snan --mcpu=gfx942 --block=1 --arg=buf:f32:1:zero --print=0 | FileCheck %s --check-prefix=MED3IEEE
; RUN: %crosslane-run %s --kernel=med3_snan --mcpu=gfx1200 --block=1 --arg=buf:f32:1:zero --print=0 | FileCheck %s --check-prefix=MED3NUM

; BFE64: crosslane-run: error: llvm.amdgcn.[us]bfe is only modelled for i32 (the only width with a v_bfe instruction) at bfe64:entry:1
; PREOP32: error: llvm.amdgcn.trig.preop is only modelled for double (the only type with a v_trig_preop instruction) at preop32:entry:1
; FIXUP: error: llvm.amdgcn.div.fixup with exponent(numerator) - exponent(denominator) < -150 is not modelled (the ISA's UNDERFLOW result is not specified) at fixup_underflow:entry:1
; FMAS: error: llvm.amdgcn.div.fmas with vcc set and an underflowing fma is not modelled (the ISA leaves the order of rounding and scaling open) at fmas_underflow:entry:1
; 2^-140 is exact, so scaling by 2^32 gives 2^-108 either way.
; FMASOK: arg0[0] = 159383552
; SCALE: error: unsupported intrinsic 'llvm.amdgcn.div.scale.f32' at div_scale:entry:1
; PKNORM: error: unsupported intrinsic 'llvm.amdgcn.cvt.pknorm.i16' at pknorm:entry:1
; POISON: error: poison stored (lane 0) at poison_operand:entry:3
; VAR11: error: permlane16.var is only available on GFX12+ (not gfx1100) at var_gfx11:entry:2
; VARINACTIVE: error: poison stored (lane 0) at var_inactive:even:5
; VARPOISON: error: poison stored (lane 1) at var_poison_sel:entry:8
; lane_sel = lane ^ 1: lanes swap with their neighbour; the X form reads
; the other row.
; VARACTIVE: arg0[0] = 1001
; VARACTIVE-NEXT: arg0[1] = 1000
; VARACTIVE: arg0[16] = 1
; VARACTIVE-NEXT: arg0[17] = 0
; fmed3(sNaN, 1.0, 2.0) is v_min3: GFX9-11 in IEEE mode quiet the signaling
; NaN in the first v_min, which then yields 2.0; GFX12's v_min_num ignores
; it (1.0).
; MED3IEEE: arg0[0] = 2
; MED3NUM: arg0[0] = 1

define amdgpu_kernel void @bfe64(ptr addrspace(1) %out) {
entry:
  %r = call i64 @llvm.amdgcn.ubfe.i64(i64 -1, i32 4, i32 8)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @preop32(ptr addrspace(1) %out) {
entry:
  %r = call float @llvm.amdgcn.trig.preop.f32(float 1.0, i32 0)
  %b = bitcast float %r to i32
  store i32 %b, ptr addrspace(1) %out
  ret void
}

; 2^-100 / 2^100: exponent difference -200.
define amdgpu_kernel void @fixup_underflow(ptr addrspace(1) %out) {
entry:
  %r = call float @llvm.amdgcn.div.fixup.f32(float 1.0, float 0x4630000000000000, float 0x39B0000000000000)
  store float %r, ptr addrspace(1) %out
  ret void
}

; (2^-100 + 2^-123) * 2^-40 is below the smallest normal and inexact.
define amdgpu_kernel void @fmas_underflow(ptr addrspace(1) %out) {
entry:
  %r = call float @llvm.amdgcn.div.fmas.f32(float 0x39B0000020000000, float 0x3D70000000000000, float 0.0, i1 true)
  store float %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @fmas_exact(ptr addrspace(1) %out) {
entry:
  %r = call float @llvm.amdgcn.div.fmas.f32(float 0x39B0000000000000, float 0x3D70000000000000, float 0.0, i1 true)
  %b = bitcast float %r to i32
  %z = zext i32 %b to i64
  store i64 %z, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @div_scale(ptr addrspace(1) %out) {
entry:
  %r = call { float, i1 } @llvm.amdgcn.div.scale.f32(float 1.0, float 3.0, i1 true)
  %v = extractvalue { float, i1 } %r, 0
  store float %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @pknorm(ptr addrspace(1) %out) {
entry:
  %r = call <2 x i16> @llvm.amdgcn.cvt.pknorm.i16(float 0.5, float -0.5)
  store <2 x i16> %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @poison_operand(ptr addrspace(1) %out) {
entry:
  %r = call i32 @llvm.amdgcn.perm(i32 1, i32 poison, i32 66051)
  %z = zext i32 %r to i64
  store i64 %z, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @var_gfx11(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.permlane16.var(i32 0, i32 %l, i32 %l, i1 false, i1 false)
  %z = zext i32 %r to i64
  store i64 %z, ptr addrspace(1) %out
  ret void
}

; Even lanes run permlane16.var with lane_sel = lane + 1: they read odd
; (inactive) lanes.
define amdgpu_kernel void @var_inactive(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %bit = and i32 %l, 1
  %c = icmp eq i32 %bit, 0
  br i1 %c, label %even, label %done
even:
  %s = add i32 %l, 1
  %r = call i32 @llvm.amdgcn.permlane16.var(i32 0, i32 %l, i32 %s, i1 true, i1 true)
  %z = zext i32 %r to i64
  %p = getelementptr i64, ptr addrspace(1) %out, i32 %l
  store i64 %z, ptr addrspace(1) %p
  br label %done
done:
  ret void
}

; lane_sel is poison in odd lanes.
define amdgpu_kernel void @var_poison_sel(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %bit = and i32 %l, 1
  %c = icmp eq i32 %bit, 0
  %s = select i1 %c, i32 %l, i32 poison
  %r = call i32 @llvm.amdgcn.permlanex16.var(i32 0, i32 %l, i32 %s, i1 false, i1 false)
  %z = zext i32 %r to i64
  %p = getelementptr i64, ptr addrspace(1) %out, i32 %l
  store i64 %z, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @var_active(ptr addrspace(1) %out) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %s = xor i32 %l, 1
  %v = add i32 %l, 1000
  %a = call i32 @llvm.amdgcn.permlane16.var(i32 0, i32 %v, i32 %s, i1 false, i1 false)
  %b = call i32 @llvm.amdgcn.permlanex16.var(i32 0, i32 %l, i32 %s, i1 false, i1 false)
  %lo = icmp ult i32 %l, 16
  %r = select i1 %lo, i32 %a, i32 %b
  %z = zext i32 %r to i64
  %p = getelementptr i64, ptr addrspace(1) %out, i32 %l
  store i64 %z, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @med3_snan(ptr addrspace(1) %out) {
entry:
  %r = call float @llvm.amdgcn.fmed3.f32(float 0x7FF0000020000000, float 1.0, float 2.0)
  store float %r, ptr addrspace(1) %out
  ret void
}
