; crosslane-vortex-abi and kernel parameters it cannot marshal from the
; host's argument blob: an error at the kernel's line (user.hip) naming
; the kernel, what is wrong and what to do instead.
; A struct the RISC-V ABI passes in two registers (one source parameter,
; two IR arguments; no parameter types in the debug info):
; RUN: not opt %loadcrosslane -passes=crosslane-vortex-abi -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SPLIT
; SPLIT: error: user.hip:7:0: in function _Z5split4Pair void (i32, i32): kernel 'split(Pair)': a struct parameter that the RISC-V ABI splits into several registers is not supported on Vortex yet; pass it through a pointer
; IR arguments the source parameters (from the debug info) do not account
; for:
; RUN: sed 's/ptr @_Z5split4Pair, ptr @.k/ptr @_Z8mismatchi, ptr @.k/' %s \
; RUN:   | not opt %loadcrosslane -passes=crosslane-vortex-abi -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISMATCH
; MISMATCH: error: user.hip:12:0: in function _Z8mismatchi void (i32, i32): kernel 'mismatch(int)': its parameters do not match the RISC-V calling convention Crosslane expects; pass a pointer to device memory instead
; A long double (fp128 on rv32), which the host cannot marshal:
; RUN: sed 's/ptr @_Z5split4Pair, ptr @.k/ptr @_Z4widee, ptr @.k/' %s \
; RUN:   | not opt %loadcrosslane -passes=crosslane-vortex-abi -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WIDE
; WIDE: error: user.hip:16:0: in function _Z4widee void (fp128): kernel 'wide(long double)': parameter 1 of type 'long double' cannot be passed from an x86-64 host to rv32 Vortex yet (structs larger than a register and long double are not marshalled); pass a pointer to device memory instead
target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

@.k = private unnamed_addr constant [24 x i8] c"crosslane.vortex.kernel\00", section "llvm.metadata"
@.f = private unnamed_addr constant [9 x i8] c"user.hip\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @_Z5split4Pair, ptr @.k, ptr @.f, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @_Z8mismatchi, ptr @.k, ptr @.f, i32 2, ptr null }], section "llvm.metadata"

define void @_Z5split4Pair(i32 %a, i32 %b) #0 !dbg !5 {
  ret void
}

define void @_Z8mismatchi(i32 %a, i32 %b) #0 !dbg !10 {
  ret void
}

define void @_Z4widee(fp128 %x) #0 !dbg !14 {
  ret void
}

attributes #0 = { "crosslane-vortex" "target-features"="+m,+f" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "user.hip", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "split", linkageName: "_Z5split4Pair", scope: !1, file: !1, line: 7, type: !6, scopeLine: 7, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = distinct !DISubprogram(name: "mismatch", linkageName: "_Z8mismatchi", scope: !1, file: !1, line: 12, type: !11, scopeLine: 12, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !12)
!12 = !{null, !13}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = distinct !DISubprogram(name: "wide", linkageName: "_Z4widee", scope: !1, file: !1, line: 16, type: !6, scopeLine: 16, spFlags: DISPFlagDefinition, unit: !0)
