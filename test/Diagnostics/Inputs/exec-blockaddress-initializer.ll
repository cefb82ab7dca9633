; A global initialised with a block address
; (test/Diagnostics/exec-undefined-behaviour.ll).
@target = addrspace(1) global ptr blockaddress(@k, %a)

define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  br label %a
a:
  ret void
}
