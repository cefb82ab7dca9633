; llvm.minimum.f32 is a branch diamond on rv32imf (NaN and signed-zero
; tests): with a lane-dependent operand crosslane-vortex-divergence runs it
; one lane at a time, so the machine check must not warn about the
; diamond's branches (one lane is active there). The 64-bit compare of
; branch-check.ll, outside such a block, still warns.
; RUN: llc-22 -load=%plugin -pass-remarks-analysis=crosslane-vortex-divergence %s -o %t.s 2>&1 | FileCheck %s
; CHECK: remark: user.hip:5:9: runs one lane at a time: the intrinsic may lower to a library call or a branch and its operands differ between lanes
; CHECK-NOT: warning: user.hip:5
; CHECK: warning: user.hip:9:7: in function k void (ptr, ptr): the code generator made a branch on a lane-dependent value that no vx_split/vx_pred covers
; CHECK-NOT: warning
; The diamond is there: NaN tests and branches in the one-lane block.
; RUN: grep -c 'feq.s' %t.s | FileCheck %s --check-prefix=ASM
; ASM: {{^[1-9][0-9]*$}}
target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

define void @k(ptr %out, ptr %in) #0 !dbg !5 {
  %t = call i32 asm "csrr $0, 0xcd3", "=r"()
  %q = getelementptr float, ptr %in, i32 %t
  %x = load float, ptr %q
  %y = load float, ptr %in
  %m = call float @llvm.minimum.f32(float %x, float %y), !dbg !8
  %p = getelementptr float, ptr %out, i32 %t
  store float %m, ptr %p
  %qi = getelementptr i64, ptr %in, i32 %t
  %xi = load i64, ptr %qi
  %c = icmp slt i64 %xi, 77, !dbg !9
  %z = uitofp i1 %c to float
  %p2 = getelementptr float, ptr %p, i32 1
  store float %z, ptr %p2
  ret void
}
declare float @llvm.minimum.f32(float, float)
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
!8 = !DILocation(line: 5, column: 9, scope: !5)
!9 = !DILocation(line: 9, column: 7, scope: !5)
