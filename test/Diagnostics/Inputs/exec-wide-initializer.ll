; A global whose initializer the executor cannot hold
; (test/Diagnostics/exec-undefined-behaviour.ll).
@wide = addrspace(1) global i256 5

define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  ret void
}
