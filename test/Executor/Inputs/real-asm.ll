; Input of wave-votes.hip: an inline asm that executes an instruction.
define amdgpu_kernel void @real_asm(ptr addrspace(1) %out) {
  %v = call i32 asm sideeffect "v_mov_b32 $0, 7", "=v"()
  store i32 %v, ptr addrspace(1) %out
  ret void
}
