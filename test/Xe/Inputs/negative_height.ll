; A load whose block height is -1 (a constant the OpenCL C header would
; never pass; raw SPIR-V calls can).
target triple = "spirv64-unknown-unknown"
!0 = !{i32 16}
declare spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32, i32, i32, i32, ptr addrspace(1), i32, i32, i32, <2 x i32>, ptr)
define spir_kernel void @k(ptr addrspace(1) align 64 %a) !intel_reqd_sub_group_size !0 {
  %d = alloca [16 x i16], align 2
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 -1, i32 1, ptr addrspace(1) %a, i32 128, i32 64, i32 128, <2 x i32> zeroinitializer, ptr %d)
  ret void
}
