; A Vortex module with a malformed kernel record
; (test/Diagnostics/exec-vortex.ll).
target triple = "riscv32-unknown-unknown-elf"

@__crosslane_vx_meta = internal constant [12 x i8] c"kernel k x\0A\00"

define void @__crosslane_vx_entry.k(ptr %args) #0 {
  ret void
}

attributes #0 = { "crosslane-vortex" "crosslane-vortex-kernel" }
