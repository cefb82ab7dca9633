; An operation whose address sits in a global (a __device__ table of
; function pointers) can never be expanded: an error naming the global,
; instead of an undefined symbol at link time.
; RUN: not opt %loadcrosslane -passes=crosslane-expand-subgroup %s -disable-output 2>&1 | FileCheck %s
; CHECK: error: crosslane: '__crosslane_reduce_add_f32' is referenced by the global 'table'; only direct calls are expanded
target triple = "amdgcn-amd-amdhsa"

@table = addrspace(1) global [2 x ptr] [ptr @__crosslane_reduce_add_f32, ptr null]

declare float @__crosslane_reduce_add_f32(float, i32, i32)

define amdgpu_kernel void @k(ptr addrspace(1) %p) #0 {
  store float 1.0, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "target-cpu"="gfx942" }
