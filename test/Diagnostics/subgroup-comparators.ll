; A custom comparator crosslane-expand-subgroup cannot inline as
; straight-line whole-wave code: an error at the call's line (cmp.hip)
; naming the operation, the comparator and the rule; one module per case
; (opt stops at the first error).
; RUN: rm -rf %t && %llvm_bin/split-file %s %t
; RUN: not opt %loadcrosslane -passes=crosslane-expand-subgroup -disable-output %t/unknown.ll 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; UNKNOWN: error: cmp.hip:4:10: in function f { float, i32 } (float, i32, ptr): crosslane: comparator of '__crosslane_argcmp_f32_i32' must be a known function
; RUN: not opt %loadcrosslane -passes=crosslane-expand-subgroup -disable-output %t/type.ll 2>&1 | FileCheck %s --check-prefix=TYPE
; TYPE: error: cmp.hip:5:10: in function f { float, i32 } (float, i32): crosslane: comparator of '__crosslane_argcmp_f32_i32' 'cmp' must have type i1 (T, T)
; RUN: not opt %loadcrosslane -passes=crosslane-expand-subgroup -disable-output %t/loop.ll 2>&1 | FileCheck %s --check-prefix=LOOP
; LOOP: error: cmp.hip:6:10: in function f { float, i32 } (float, i32): crosslane: comparator of '__crosslane_argcmp_f32_i32' 'cmp' must reduce to straight-line code (it is inlined into whole-wave code; a loop or a path that never returns remains)
; RUN: not opt %loadcrosslane -passes=crosslane-expand-subgroup -disable-output %t/alloca.ll 2>&1 | FileCheck %s --check-prefix=ALLOCA
; ALLOCA: error: cmp.hip:7:10: in function f { float, i32 } (float, i32): crosslane: comparator of '__crosslane_argcmp_f32_i32' 'cmp' keeps local memory that cannot live in registers (it would be read in whole-wave code where inactive lanes never stored it)
; RUN: not opt %loadcrosslane -passes=crosslane-expand-subgroup -disable-output %t/call.ll 2>&1 | FileCheck %s --check-prefix=CALL
; CALL: error: cmp.hip:8:10: in function f { float, i32 } (float, i32): crosslane: comparator of '__crosslane_argcmp_f32_i32' 'cmp' calls 'opaque', which could not be inlined

;--- unknown.ll
target triple = "amdgcn-amd-amdhsa"
declare {float, i32} @__crosslane_argcmp_f32_i32(float, i32, ptr, i32, i32)

define {float, i32} @f(float %v, i32 %i, ptr %cmp) #0 !dbg !5 {
  %r = call {float, i32} @__crosslane_argcmp_f32_i32(float %v, i32 %i, ptr %cmp, i32 4, i32 1), !dbg !8
  ret {float, i32} %r
}
attributes #0 = { "target-cpu"="gfx942" }
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "cmp.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 4, column: 10, scope: !5)
;--- type.ll
target triple = "amdgcn-amd-amdhsa"
declare {float, i32} @__crosslane_argcmp_f32_i32(float, i32, ptr, i32, i32)
define i32 @cmp(float %a, float %b) {
  ret i32 0
}
define {float, i32} @f(float %v, i32 %i) #0 !dbg !5 {
  %r = call {float, i32} @__crosslane_argcmp_f32_i32(float %v, i32 %i, ptr @cmp, i32 4, i32 1), !dbg !8
  ret {float, i32} %r
}
attributes #0 = { "target-cpu"="gfx942" }
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "cmp.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 5, column: 10, scope: !5)
;--- loop.ll
target triple = "amdgcn-amd-amdhsa"
declare {float, i32} @__crosslane_argcmp_f32_i32(float, i32, ptr, i32, i32)
define i1 @cmp(float %a, float %b) {
entry:
  br label %loop
loop:
  %x = phi float [ %a, %entry ], [ %y, %loop ]
  %y = fmul float %x, 0.5
  %c = fcmp ogt float %y, %b
  br i1 %c, label %loop, label %exit
exit:
  ret i1 %c
}
define {float, i32} @f(float %v, i32 %i) #0 !dbg !5 {
  %r = call {float, i32} @__crosslane_argcmp_f32_i32(float %v, i32 %i, ptr @cmp, i32 4, i32 1), !dbg !8
  ret {float, i32} %r
}
attributes #0 = { "target-cpu"="gfx942" }
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "cmp.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 6, column: 10, scope: !5)
;--- alloca.ll
target triple = "amdgcn-amd-amdhsa"
declare {float, i32} @__crosslane_argcmp_f32_i32(float, i32, ptr, i32, i32)
define i1 @cmp(float %a, float %b) {
  %buf = alloca [4 x float], addrspace(5)
  store float %a, ptr addrspace(5) %buf
  %k = fptoui float %b to i32
  %p = getelementptr [4 x float], ptr addrspace(5) %buf, i32 0, i32 %k
  %x = load float, ptr addrspace(5) %p
  %c = fcmp ogt float %x, %b
  ret i1 %c
}
define {float, i32} @f(float %v, i32 %i) #0 !dbg !5 {
  %r = call {float, i32} @__crosslane_argcmp_f32_i32(float %v, i32 %i, ptr @cmp, i32 4, i32 1), !dbg !8
  ret {float, i32} %r
}
attributes #0 = { "target-cpu"="gfx942" }
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "cmp.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 7, column: 10, scope: !5)
;--- call.ll
target triple = "amdgcn-amd-amdhsa"
declare {float, i32} @__crosslane_argcmp_f32_i32(float, i32, ptr, i32, i32)
declare i1 @opaque(float, float) memory(none) nounwind willreturn
define i1 @cmp(float %a, float %b) {
  %c = call i1 @opaque(float %a, float %b) noinline
  ret i1 %c
}
define {float, i32} @f(float %v, i32 %i) #0 !dbg !5 {
  %r = call {float, i32} @__crosslane_argcmp_f32_i32(float %v, i32 %i, ptr @cmp, i32 4, i32 1), !dbg !8
  ret {float, i32} %r
}
attributes #0 = { "target-cpu"="gfx942" }
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "cmp.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 8, column: 10, scope: !5)
