; The machine-level check: a branch the code generator makes on a
; lane-dependent value (here the 64-bit compare that rv32 without Zicond
; expands into a branch diamond) that no vx_split/vx_pred covers is a
; warning at the user's line; with Zicond the compare has no branch.
; RUN: llc-22 -load=%plugin %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOZICOND
; RUN: sed 's/"+m,+f"/"+m,+f,+zicond"/' %s | llc-22 -load=%plugin -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZICOND --allow-empty
; NOZICOND: warning: user.hip:12:7: in function k void (ptr, ptr): the code generator made a branch on a lane-dependent value that no vx_split/vx_pred covers
; ZICOND-NOT: warning
target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

define void @k(ptr %out, ptr %in) #0 !dbg !5 {
  %t = call i32 asm "csrr $0, 0xcd3", "=r"()
  %q = getelementptr i64, ptr %in, i32 %t
  %x = load i64, ptr %q
  %c = icmp slt i64 %x, 77, !dbg !8
  %z = zext i1 %c to i32
  %p = getelementptr i32, ptr %out, i32 %t
  store i32 %z, ptr %p
  ret void
}
attributes #0 = { "crosslane-vortex-kernel" "crosslane-vortex" "target-features"="+m,+f" }
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "user.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 12, column: 7, scope: !5)
