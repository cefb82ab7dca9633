; The SPV_INTEL_2d_block_io spelling (__spirv_Subgroup2DBlock*INTEL, as
; sycl-tla and Triton's Intel backend call it): a valid load / store /
; prefetch is marked convergent and then compiles with LLVM 22's SPIR-V
; back end to the OpSubgroup2DBlock*INTEL instructions; a block shape that
; is not a compile-time constant is an error naming the operand.
; RUN: opt-22 -load-pass-plugin=%plugin -passes='crosslane-xe-block-io<chip=bmg>' \
; RUN:   -pass-remarks=crosslane-xe-block-io -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: llc-22 -mtriple=spirv64-unknown-unknown --spirv-ext=+SPV_INTEL_2d_block_io %t.ll -o - | FileCheck %s --check-prefix=SPIRV
; RUN: sed 's/i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %base/i32 %es, i32 16, i32 8, i32 1, ptr addrspace(1) %base/' %s > %t.bad.ll
; RUN: not opt-22 -load-pass-plugin=%plugin -passes='crosslane-xe-block-io<chip=bmg>' -disable-output %t.bad.ll 2>&1 | FileCheck %s --check-prefix=ERR
; RUN: not opt-22 -load-pass-plugin=%plugin -passes='crosslane-xe-block-io<chip=xe9>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=CHIP

; REMARK: remark: <unknown>:0:0: valid 2D block load 16b_8r16x1c on bmg (subgroup 16): each lane gets 16 bytes
; REMARK: remark: <unknown>:0:0: valid 2D block store 16b_8r16x1c on bmg (subgroup 16): each lane writes 16 bytes
; REMARK: remark: <unknown>:0:0: valid 2D block prefetch 16b_8r16x1c on bmg (subgroup 16)
; IR: call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv({{.*}}) #[[CONV:[0-9]+]]
; IR: attributes #[[CONV]] = { convergent }
; SPIRV: OpCapability Subgroup2DBlockIOINTEL
; SPIRV: OpExtension "SPV_INTEL_2d_block_io"
; SPIRV: OpExecutionMode %{{.*}} SubgroupSize 16
; SPIRV: OpSubgroup2DBlockLoadINTEL
; SPIRV: OpSubgroup2DBlockStoreINTEL
; SPIRV: OpSubgroup2DBlockPrefetchINTEL
; ERR: error: <unknown>:0:0: in function k void (ptr addrspace(1), ptr addrspace(1), i32, i32): crosslane-xe-block-io: 2D block load ?b_8r16x1c on bmg: the element size, block width, height and count must be compile-time constants (the element size is not)
; CHIP: error: invalid crosslane-xe-block-io parameter 'xe9' (expected chip=NAME with NAME one of bmg, cri, dg2, lnl, ptl, pvc, lower=igc or base=assume)
; CHIP-NOT: unknown pass name

target triple = "spirv64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) align 64 %base, ptr addrspace(1) align 64 %dst, i32 %es, i32 %y) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [8 x i16], align 16
  %c0 = insertelement <2 x i32> <i32 0, i32 poison>, i32 %y, i32 1
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %base, i32 128, i32 64, i32 128, <2 x i32> %c0, ptr %buf)
  call spir_func void @_Z33__spirv_Subgroup2DBlockStoreINTELiiiiPKvPU3AS1viiiDv2_i(i32 2, i32 16, i32 8, i32 1, ptr %buf, ptr addrspace(1) %dst, i32 128, i32 64, i32 128, <2 x i32> %c0)
  call spir_func void @_Z36__spirv_Subgroup2DBlockPrefetchINTELiiiiPU3AS1KviiiDv2_i(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %base, i32 128, i32 64, i32 128, <2 x i32> %c0)
  ret void
}

declare spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32, i32, i32, i32, ptr addrspace(1), i32, i32, i32, <2 x i32>, ptr)
declare spir_func void @_Z33__spirv_Subgroup2DBlockStoreINTELiiiiPKvPU3AS1viiiDv2_i(i32, i32, i32, i32, ptr, ptr addrspace(1), i32, i32, i32, <2 x i32>)
declare spir_func void @_Z36__spirv_Subgroup2DBlockPrefetchINTELiiiiPU3AS1KviiiDv2_i(i32, i32, i32, i32, ptr addrspace(1), i32, i32, i32, <2 x i32>)

!0 = !{i32 16}
