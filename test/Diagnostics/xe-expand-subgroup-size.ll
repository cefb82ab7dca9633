; A Crosslane subgroup operation in an Intel Xe function that does not
; require a subgroup size: an error at the call's line (k.cl:4:7) that
; says what is missing; the operation is not expanded for a guessed size.
; RUN: not opt %loadcrosslane -passes='crosslane-expand-subgroup<no-wwm>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s
; CHECK: error: k.cl:4:7: in function k void (ptr addrspace(1)): crosslane: cannot expand a subgroup operation in a function without intel_reqd_sub_group_size(16 or 32)
target triple = "spirv64-unknown-unknown"

declare i32 @__crosslane_reduce_add_i32(i32, i32, i32)

define spir_kernel void @k(ptr addrspace(1) %out) !dbg !5 {
entry:
  %r = call i32 @__crosslane_reduce_add_i32(i32 1, i32 16, i32 1), !dbg !8
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cl", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 4, column: 7, scope: !5)
