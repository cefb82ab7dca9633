; A Vortex module whose kernel records are not a string
; (test/Diagnostics/exec-vortex.ll).
target triple = "riscv32-unknown-unknown-elf"

@__crosslane_vx_meta = internal constant i32 5

define void @__crosslane_vx_entry.k(ptr %args) #0 {
  ret void
}

attributes #0 = { "crosslane-vortex" "crosslane-vortex-kernel" }
