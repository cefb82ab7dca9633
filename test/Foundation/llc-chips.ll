; After the device pipeline the module still compiles with llc for every chip
; and wave size Crosslane supports.
; RUN: opt -load-pass-plugin=%plugin -passes=crosslane-device-pipeline %s -o %t.bc
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx900 %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -mattr=+wavefrontsize64 %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 -mattr=+wavefrontsize64 %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 %t.bc -o - | FileCheck %s
; RUN: llc -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -mattr=+wavefrontsize64 %t.bc -o - | FileCheck %s
; CHECK-LABEL: k:
; CHECK: global_store_{{dword|b32}}
; CHECK: s_endpgm
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %id
  store i32 %id, ptr addrspace(1) %g
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
