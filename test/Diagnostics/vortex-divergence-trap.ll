; crosslane-vortex-divergence and a divergent branch towards a trap: there
; is no join to bracket the branch with, so it is left alone and a missed
; remark at the branch's line (user.hip:6:9) says what the warp does there.
; RUN: opt %loadcrosslane -passes=crosslane-vortex-divergence \
; RUN:   -pass-remarks-missed=crosslane-vortex-divergence -disable-output %s 2>&1 | FileCheck %s
; CHECK: remark: user.hip:6:9: divergent branch towards code that never returns (a trap): left without split/join, the warp follows its last active lane there
target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

declare void @llvm.trap()

define void @check(ptr %p, i32 %n) #0 !dbg !5 {
entry:
  %t = call i32 asm "csrr $0, 0xcd3", "=r"()
  %c = icmp slt i32 %t, %n
  br i1 %c, label %ok, label %fail, !dbg !8
fail:
  call void @llvm.trap()
  unreachable
ok:
  %q = getelementptr i32, ptr %p, i32 %t
  store i32 1, ptr %q
  ret void
}

attributes #0 = { "crosslane-vortex" "target-features"="+m,+f,+zicond" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "user.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "check", scope: !1, file: !1, line: 4, type: !6, scopeLine: 4, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 6, column: 9, scope: !5)
