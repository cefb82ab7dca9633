; Integer dot-product intrinsics (llama.cpp's quantised paths use
; __builtin_amdgcn_sdot4/sudot4/udot4): the accumulator plus the sum of the
; products of the packed elements, saturating with clamp ("V_DOT4_I32_I8",
; "V_DOT4_U32_U8", "V_DOT4_I32_IU8", "V_DOT8_*", "V_DOT2_I32_I16" in the
; CDNA3/RDNA ISA guides). Expected values worked out by hand below.
; REQUIRES: executor
; RUN: %crosslane-run %s --kernel=dots --mcpu=gfx942 --block=1 --arg=buf:i32:10:zero | FileCheck %s
; RUN: %crosslane-run %s --kernel=sudot --mcpu=gfx1100 --block=1 --arg=buf:i32:2:zero | FileCheck %s --check-prefix=SU

declare i32 @llvm.amdgcn.sdot4(i32, i32, i32, i1)
declare i32 @llvm.amdgcn.udot4(i32, i32, i32, i1)
declare i32 @llvm.amdgcn.sdot8(i32, i32, i32, i1)
declare i32 @llvm.amdgcn.udot8(i32, i32, i32, i1)
declare i32 @llvm.amdgcn.sdot2(<2 x i16>, <2 x i16>, i32, i1)
declare i32 @llvm.amdgcn.udot2(<2 x i16>, <2 x i16>, i32, i1)
declare i32 @llvm.amdgcn.sudot4(i1, i32, i1, i32, i32, i1)

define amdgpu_kernel void @dots(ptr addrspace(1) %out) {
  ; bytes (lo..hi) a = [1, -2, 3, -4] = 0xFC03FE01, b = [5, 6, -7, 8] = 0x08F90605
  ; sdot4: 1*5 + -2*6 + 3*-7 + -4*8 = 5 - 12 - 21 - 32 = -60; + 100 = 40
  %s4 = call i32 @llvm.amdgcn.sdot4(i32 u0xFC03FE01, i32 u0x08F90605, i32 100, i1 false)
  store i32 %s4, ptr addrspace(1) %out
  ; udot4: 1*5 + 254*6 + 3*249 + 252*8 = 5 + 1524 + 747 + 2016 = 4292; + 100
  %u4 = call i32 @llvm.amdgcn.udot4(i32 u0xFC03FE01, i32 u0x08F90605, i32 100, i1 false)
  %p1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  store i32 %u4, ptr addrspace(1) %p1
  ; sdot4 with clamp: 4 * (-128 * 127) = -65024 + INT_MIN saturates
  %s4c = call i32 @llvm.amdgcn.sdot4(i32 u0x80808080, i32 u0x7F7F7F7F, i32 -2147483648, i1 true)
  %p2 = getelementptr i32, ptr addrspace(1) %out, i32 2
  store i32 %s4c, ptr addrspace(1) %p2
  ; without clamp it wraps: -2147483648 - 65024 = 2147418624 (mod 2^32)
  %s4w = call i32 @llvm.amdgcn.sdot4(i32 u0x80808080, i32 u0x7F7F7F7F, i32 -2147483648, i1 false)
  %p3 = getelementptr i32, ptr addrspace(1) %out, i32 3
  store i32 %s4w, ptr addrspace(1) %p3
  ; udot4 with clamp: 4 * 255 * 255 = 260100 + 0xFFFFFFFF saturates to 0xFFFFFFFF (-1)
  %u4c = call i32 @llvm.amdgcn.udot4(i32 -1, i32 -1, i32 -1, i1 true)
  %p4 = getelementptr i32, ptr addrspace(1) %out, i32 4
  store i32 %u4c, ptr addrspace(1) %p4
  ; sdot8 nibbles a = 0x0000007F -> [-1, 7, 0...], b = 0x00000023 -> [3, 2, 0...]: -3 + 14 = 11
  %s8 = call i32 @llvm.amdgcn.sdot8(i32 127, i32 35, i32 0, i1 false)
  %p5 = getelementptr i32, ptr addrspace(1) %out, i32 5
  store i32 %s8, ptr addrspace(1) %p5
  ; udot8: 15*3 + 7*2 = 59
  %u8 = call i32 @llvm.amdgcn.udot8(i32 127, i32 35, i32 0, i1 false)
  %p6 = getelementptr i32, ptr addrspace(1) %out, i32 6
  store i32 %u8, ptr addrspace(1) %p6
  ; sdot2: -3*1000 + 2*-7 + 5 = -3009
  %s2 = call i32 @llvm.amdgcn.sdot2(<2 x i16> <i16 -3, i16 2>, <2 x i16> <i16 1000, i16 -7>, i32 5, i1 false)
  %p7 = getelementptr i32, ptr addrspace(1) %out, i32 7
  store i32 %s2, ptr addrspace(1) %p7
  ; udot2: 65533*1000 + 2*65529 + 5 = 65533000 + 131058 + 5 = 65664063
  %u2 = call i32 @llvm.amdgcn.udot2(<2 x i16> <i16 -3, i16 2>, <2 x i16> <i16 1000, i16 -7>, i32 5, i1 false)
  %p8 = getelementptr i32, ptr addrspace(1) %out, i32 8
  store i32 %u2, ptr addrspace(1) %p8
  ret void
}
; CHECK: arg0[0] = 40
; CHECK: arg0[1] = 4392
; CHECK: arg0[2] = -2147483648
; CHECK: arg0[3] = 2147418624
; CHECK: arg0[4] = -1
; CHECK: arg0[5] = 11
; CHECK: arg0[6] = 59
; CHECK: arg0[7] = -3009
; CHECK: arg0[8] = 65664063

define amdgpu_kernel void @sudot(ptr addrspace(1) %out) {
  ; a signed [1, -2, 3, -4], b unsigned [5, 6, 249, 8]: 5 - 12 + 747 - 32 = 708
  %r = call i32 @llvm.amdgcn.sudot4(i1 true, i32 u0xFC03FE01, i1 false, i32 u0x08F90605, i32 0, i1 false)
  store i32 %r, ptr addrspace(1) %out
  ; both unsigned: as udot4 = 4292
  %q = call i32 @llvm.amdgcn.sudot4(i1 false, i32 u0xFC03FE01, i1 false, i32 u0x08F90605, i32 0, i1 false)
  %p1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  store i32 %q, ptr addrspace(1) %p1
  ret void
}
; SU: arg0[0] = 708
; SU: arg0[1] = 4292
