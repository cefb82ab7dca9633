; Two Intel Xe kernels (test/Diagnostics/run-cli.ll).
target triple = "spirv64-unknown-unknown"

define spir_kernel void @x(ptr addrspace(1) %out) {
  ret void
}

define spir_kernel void @y(ptr addrspace(1) %out) {
  ret void
}
