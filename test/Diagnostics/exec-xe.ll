; The Xe model's refusals: subgroup builtins and 2D block operations used
; in ways OpenCL and SPV_INTEL_2d_block_io leave undefined (poison or
; per-lane operands where the subgroup must agree, part of a subgroup), or
; that the model does not have. One "crosslane-run: error:" line naming the
; builtin and the call.
; REQUIRES: executor
; DEFINE: %{run} = %crosslane-run %s --target=xe --block=16 --arg=buf:i32:4096:zero

; Subgroup builtins:
; RUN: not %{run} --kernel=cluster_size 2>&1 | FileCheck %s --check-prefix=CLUSTER
; CLUSTER: crosslane-run: error: sub_group_clustered_reduce_add: the cluster size must be a constant power of two no larger than the subgroup at cluster_size:entry:1
; RUN: not %{run} --kernel=block_read_poison 2>&1 | FileCheck %s --check-prefix=READPOISON
; READPOISON: crosslane-run: error: intel_sub_group_block_read: the pointer is poison at block_read_poison:entry:1
; RUN: not %{run} --kernel=block_read_lanes 2>&1 | FileCheck %s --check-prefix=READLANES
; READLANES: crosslane-run: error: intel_sub_group_block_read: the pointer differs between work-items at block_read_lanes:entry:3
; RUN: not %{run} --kernel=block_write_poison 2>&1 | FileCheck %s --check-prefix=WRITEPOISON
; WRITEPOISON: crosslane-run: error: intel_sub_group_block_write writes a poison value at block_write_poison:entry:1
; RUN: not %{run} --kernel=mad_mixed 2>&1 | FileCheck %s --check-prefix=MADMIXED
; MADMIXED: crosslane-run: error: intel_sub_group_f16_i8_matrix_mad_k16: no such matrix multiply-accumulate at mad_mixed:entry:1
; RUN: not %crosslane-run %s --target=xe --block=32 --arg=buf:i32:4096:zero --kernel=mad_sg32 2>&1 | FileCheck %s --check-prefix=MADSG
; MADSG: crosslane-run: error: intel_sub_group_f16_f16_matrix_mad_k16: modelled for subgroups of 16 only at mad_sg32:entry:1
; RUN: not %{run} --kernel=mad_types 2>&1 | FileCheck %s --check-prefix=MADTYPES
; MADTYPES: crosslane-run: error: intel_sub_group_f16_f16_matrix_mad_k16: operands do not have the extension's types at mad_types:entry:1

; 2D block operations:
; RUN: not %{run} --kernel=block2d_shape --arg=i32:2 2>&1 | FileCheck %s --check-prefix=SHAPE
; SHAPE: crosslane-run: error: __spirv_Subgroup2DBlockLoadINTEL: the element size and block shape must be constants at block2d_shape:entry:2
; RUN: not %{run} --kernel=block2d_empty 2>&1 | FileCheck %s --check-prefix=EMPTY
; EMPTY: crosslane-run: error: a 2D block operation with an empty shape at block2d_empty:entry:2
; RUN: not %{run} --kernel=block2d_partial 2>&1 | FileCheck %s --check-prefix=PARTIAL
; PARTIAL: crosslane-run: error: a 2D block operation needs the whole subgroup active at block2d_partial:then:1
; RUN: not %{run} --kernel=block2d_poison 2>&1 | FileCheck %s --check-prefix=OPPOISON
; OPPOISON: crosslane-run: error: a 2D block operand is poison at block2d_poison:entry:2
; RUN: not %{run} --kernel=block2d_lanes 2>&1 | FileCheck %s --check-prefix=OPLANES
; OPLANES: crosslane-run: error: a 2D block operand differs between lanes at block2d_lanes:entry:3
; RUN: not %{run} --kernel=block2d_coord_poison 2>&1 | FileCheck %s --check-prefix=COORDPOISON
; COORDPOISON: crosslane-run: error: the 2D block coordinate is poison at block2d_coord_poison:entry:2
; RUN: not %{run} --kernel=block2d_coord_lanes 2>&1 | FileCheck %s --check-prefix=COORDLANES
; COORDLANES: crosslane-run: error: the 2D block coordinate differs between lanes at block2d_coord_lanes:entry:4
; RUN: not %{run} --kernel=block2d_uninit 2>&1 | FileCheck %s --check-prefix=UNINIT
; UNINIT: crosslane-run: error: a 2D block load reads uninitialised memory at block2d_uninit:entry:2
; RUN: not %{run} --kernel=block2d_store_uninit 2>&1 | FileCheck %s --check-prefix=STOREUNINIT
; STOREUNINIT: crosslane-run: error: a 2D block store writes an uninitialised element at block2d_store_uninit:entry:2

; Work-item functions:
; RUN: not %{run} --kernel=local_id_poison 2>&1 | FileCheck %s --check-prefix=DIM
; DIM: crosslane-run: error: get_local_id dimension is poison at local_id_poison:entry:1

; A kernel that requires subgroups of 8:
; RUN: not %{run} --kernel=sg_size 2>&1 | FileCheck %s --check-prefix=SGSIZE
; SGSIZE: crosslane-run: error: Xe subgroups have 16 or 32 lanes, not 8

target triple = "spirv64-unknown-unknown"

; Never written: a load from it reads uninitialised memory.
@surface = addrspace(1) global [8192 x i8] poison, align 64

declare spir_func i32 @_Z26intel_sub_group_block_readPU3AS1Kj(ptr addrspace(1))
declare spir_func void @_Z27intel_sub_group_block_writePU3AS1jj(ptr addrspace(1), i32)
declare spir_func i32 @_Z30sub_group_clustered_reduce_addij(i32, i32)
declare spir_func <8 x float> @_Z37intel_sub_group_f16_i8_matrix_mad_k16Dv8_sDv8_iDv8_f(<8 x i16>, <8 x i32>, <8 x float>)
declare spir_func <8 x float> @_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_sDv8_iDv8_f(<8 x i16>, <8 x i32>, <8 x float>)
declare spir_func <8 x float> @_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv4_sDv8_iDv8_f(<4 x i16>, <8 x i32>, <8 x float>)
declare spir_func i32 @_Z22get_sub_group_local_idv()
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32, i32, i32, i32, ptr addrspace(1), i32, i32, i32, <2 x i32>, ptr)
declare spir_func void @_Z33__spirv_Subgroup2DBlockStoreINTELiiiiPKvPU3AS1viiiDv2_i(i32, i32, i32, i32, ptr, ptr addrspace(1), i32, i32, i32, <2 x i32>)

define spir_kernel void @cluster_size(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %r = call spir_func i32 @_Z30sub_group_clustered_reduce_addij(i32 1, i32 3)
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @block_read_poison(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %r = call spir_func i32 @_Z26intel_sub_group_block_readPU3AS1Kj(ptr addrspace(1) poison)
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @block_read_lanes(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %l = call spir_func i32 @_Z22get_sub_group_local_idv()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %l
  %r = call spir_func i32 @_Z26intel_sub_group_block_readPU3AS1Kj(ptr addrspace(1) %p)
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @block_write_poison(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  call spir_func void @_Z27intel_sub_group_block_writePU3AS1jj(ptr addrspace(1) %out, i32 poison)
  ret void
}

define spir_kernel void @mad_mixed(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %r = call spir_func <8 x float> @_Z37intel_sub_group_f16_i8_matrix_mad_k16Dv8_sDv8_iDv8_f(<8 x i16> zeroinitializer, <8 x i32> zeroinitializer, <8 x float> zeroinitializer)
  store <8 x float> %r, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @mad_sg32(ptr addrspace(1) %out) !intel_reqd_sub_group_size !1 {
entry:
  %r = call spir_func <8 x float> @_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_sDv8_iDv8_f(<8 x i16> zeroinitializer, <8 x i32> zeroinitializer, <8 x float> zeroinitializer)
  store <8 x float> %r, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @mad_types(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %r = call spir_func <8 x float> @_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv4_sDv8_iDv8_f(<4 x i16> zeroinitializer, <8 x i32> zeroinitializer, <8 x float> zeroinitializer)
  store <8 x float> %r, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @block2d_shape(ptr addrspace(1) %out, i32 %es) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 %es, i32 16, i32 8, i32 1, ptr addrspace(1) %out, i32 128, i32 64, i32 128, <2 x i32> zeroinitializer, ptr %buf)
  ret void
}

define spir_kernel void @block2d_empty(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 0, i32 1, ptr addrspace(1) %out, i32 128, i32 64, i32 128, <2 x i32> zeroinitializer, ptr %buf)
  ret void
}

define spir_kernel void @block2d_partial(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  %l = call spir_func i32 @_Z22get_sub_group_local_idv()
  %c = icmp ult i32 %l, 8
  br i1 %c, label %then, label %done
then:
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %out, i32 128, i32 64, i32 128, <2 x i32> zeroinitializer, ptr %buf)
  br label %done
done:
  ret void
}

define spir_kernel void @block2d_poison(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %out, i32 poison, i32 64, i32 128, <2 x i32> zeroinitializer, ptr %buf)
  ret void
}

define spir_kernel void @block2d_lanes(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  %l = call spir_func i32 @_Z22get_sub_group_local_idv()
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %out, i32 128, i32 %l, i32 128, <2 x i32> zeroinitializer, ptr %buf)
  ret void
}

define spir_kernel void @block2d_coord_poison(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %out, i32 128, i32 64, i32 128, <2 x i32> poison, ptr %buf)
  ret void
}

define spir_kernel void @block2d_coord_lanes(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  %l = call spir_func i32 @_Z22get_sub_group_local_idv()
  %c = insertelement <2 x i32> zeroinitializer, i32 %l, i32 1
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) %out, i32 128, i32 64, i32 128, <2 x i32> %c, ptr %buf)
  ret void
}

define spir_kernel void @block2d_store_uninit(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  call spir_func void @_Z33__spirv_Subgroup2DBlockStoreINTELiiiiPKvPU3AS1viiiDv2_i(i32 2, i32 16, i32 8, i32 1, ptr %buf, ptr addrspace(1) %out, i32 128, i32 64, i32 128, <2 x i32> zeroinitializer)
  ret void
}

define spir_kernel void @local_id_poison(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %id = call spir_func i64 @_Z12get_local_idj(i32 poison)
  store i64 %id, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @sg_size(ptr addrspace(1) %out) !intel_reqd_sub_group_size !2 {
entry:
  ret void
}

!0 = !{i32 16}
!1 = !{i32 32}
!2 = !{i32 8}

define spir_kernel void @block2d_uninit(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %buf = alloca [16 x i16]
  call spir_func void @_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1KviiiDv2_iPv(i32 2, i32 16, i32 8, i32 1, ptr addrspace(1) @surface, i32 128, i32 64, i32 128, <2 x i32> zeroinitializer, ptr %buf)
  ret void
}
