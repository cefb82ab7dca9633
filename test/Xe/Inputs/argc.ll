; A load without its destination operand.
target triple = "spirv64-unknown-unknown"
declare spir_func void @__spirv_Subgroup2DBlockLoadINTEL(i32, i32, i32, i32, ptr addrspace(1), i32, i32, i32, <2 x i32>, ptr)
!0 = !{i32 16}
declare spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_i(i32, i32, i32, i32, ptr addrspace(1), i32, i32, i32, <2 x i32>)
define spir_kernel void @k(ptr addrspace(1) align 64 %a) !intel_reqd_sub_group_size !0 {
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_i(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %a, i32 128, i32 64, i32 128, <2 x i32> zeroinitializer)
  ret void
}
