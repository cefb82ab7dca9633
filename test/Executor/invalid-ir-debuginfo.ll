; Invalid IR that carries debug info: parsing it used to run LLVM's
; debug-info upgrade, which verifies the module and aborts the process
; ("LLVM ERROR: Broken module found"); the executor reports it as an error.
; REQUIRES: executor
; RUN: not %crosslane-run %s --mcpu=gfx942 --block=1 --arg=buf:i32:1:zero 2>&1 | FileCheck %s
; CHECK: crosslane-run: error: '{{.*}}invalid-ir-debuginfo.ll' is not valid IR: Instruction does not dominate all uses!

define amdgpu_kernel void @k(ptr addrspace(1) %p) !dbg !5 {
entry:
  %b = add i32 %a, 1, !dbg !8
  %a = add i32 1, 2, !dbg !8
  store i32 %b, ptr addrspace(1) %p, align 4, !dbg !8
  ret void, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.hip", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 2, column: 3, scope: !5)
