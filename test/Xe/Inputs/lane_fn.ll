; The row from the SPIR-V builtin's function form.
target triple = "spirv64-unknown-unknown"
declare spir_func void @__spirv_Subgroup2DBlockLoadINTEL(i32, i32, i32, i32, ptr addrspace(1), i32, i32, i32, <2 x i32>, ptr)
!0 = !{i32 16}
declare spir_func i32 @_Z40__spirv_BuiltInSubgroupLocalInvocationIdv()
define spir_kernel void @k(ptr addrspace(1) align 64 %a) !intel_reqd_sub_group_size !0 {
  %buf = alloca [8 x i16], align 16
  %l = call spir_func i32 @_Z40__spirv_BuiltInSubgroupLocalInvocationIdv()
  %c = insertelement <2 x i32> zeroinitializer, i32 %l, i32 1
  call spir_func void @__spirv_Subgroup2DBlockLoadINTEL(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %a, i32 128, i32 64, i32 128, <2 x i32> %c, ptr %buf)
  ret void
}
