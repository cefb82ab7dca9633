; Input of aggregate-memory.hip: a struct with an undefined field stored
; whole; the defined field reads back.
define amdgpu_kernel void @partial(ptr addrspace(1) %out) {
  %p = alloca { i32, i32 }, addrspace(5)
  %s = insertvalue { i32, i32 } poison, i32 7, 0
  store { i32, i32 } %s, ptr addrspace(5) %p
  %l = load { i32, i32 }, ptr addrspace(5) %p
  %v = extractvalue { i32, i32 } %l, 0
  store i32 %v, ptr addrspace(1) %out
  ret void
}
