; Crosslane's portable subgroup operations on Intel Xe (spirv64): for calls
; that run with the whole subgroup (crosslane-expand-subgroup<no-wwm>, as
; crosslane-reduce's kernels do), butterflies of sub_group_shuffle_xor on
; 32-bit words, for the kernel's required subgroup size; run in the
; executor's Xe model against the operations' reference semantics. Without
; that assertion the call is refused (Xe has no whole-wave mode here).
; REQUIRES: executor
; RUN: opt-22 -load-pass-plugin=%plugin -passes='crosslane-expand-subgroup<no-wwm>' \
; RUN:   -pass-remarks=crosslane-expand-subgroup -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; REMARK: expanded reduce fmax f32 cluster 16 stride 1 for Intel Xe subgroup16: sub_group_shuffle_xor, sub_group_shuffle_xor, sub_group_shuffle_xor, sub_group_shuffle_xor
; REMARK: expanded argmax f32/i32 cluster 4 stride 2 for Intel Xe subgroup16:
; REMARK: expanded reduce add i64 cluster 8 stride 1 for Intel Xe subgroup16: sub_group_shuffle_xor, sub_group_shuffle_xor, sub_group_shuffle_xor
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; IR-NOT: call {{.*}}@__crosslane_
; IR: call spir_func i32 @_Z21sub_group_shuffle_xorjj(i32 %{{.*}}, i32 1)
; RUN: %crosslane-run %s --diff=%t.ll --target=xe --block=32 --arg=buf:f32:32:input \
; RUN:   --arg=buf:i32:128:zero | FileCheck %s --check-prefix=DIFF
; DIFF: diff: 78 cases, 0 mismatches
; RUN: not opt-22 -load-pass-plugin=%plugin -passes=crosslane-expand-subgroup -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PARTIAL
; PARTIAL: error: {{.*}}crosslane: on Intel Xe, subgroup operations are expanded for whole subgroups only, and this call is not known to run with every work-item of its subgroup (crosslane-expand-subgroup<no-wwm> asserts that it does)

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

declare float @__crosslane_reduce_fmax_f32(float, i32, i32) convergent
declare {float, i32} @__crosslane_argmax_f32_i32(float, i32, i32, i32, i32) convergent
declare i64 @__crosslane_reduce_add_i64(i64, i32, i32) convergent
declare spir_func i64 @_Z12get_local_idj(i32)

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
  %l = call spir_func i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr float, ptr addrspace(1) %in, i64 %l
  %v = load float, ptr addrspace(1) %p
  %r = call float @__crosslane_reduce_fmax_f32(float %v, i32 16, i32 1)
  %i = trunc i64 %l to i32
  %a = call {float, i32} @__crosslane_argmax_f32_i32(float %v, i32 %i, i32 4, i32 2, i32 0)
  %av = extractvalue {float, i32} %a, 0
  %ai = extractvalue {float, i32} %a, 1
  %w = bitcast float %v to i32
  %w64 = zext i32 %w to i64
  %s = call i64 @__crosslane_reduce_add_i64(i64 %w64, i32 8, i32 1)
  %o = getelementptr float, ptr addrspace(1) %out, i64 %l
  %o4 = mul i64 %l, 4
  %q0 = getelementptr i32, ptr addrspace(1) %out, i64 %o4
  store float %r, ptr addrspace(1) %q0
  %q1 = getelementptr i32, ptr addrspace(1) %q0, i64 1
  store float %av, ptr addrspace(1) %q1
  %q2 = getelementptr i32, ptr addrspace(1) %q0, i64 2
  store i32 %ai, ptr addrspace(1) %q2
  %q3 = getelementptr i32, ptr addrspace(1) %q0, i64 3
  %s32 = trunc i64 %s to i32
  store i32 %s32, ptr addrspace(1) %q3
  ret void
}
!0 = !{i32 16}
