; Input of wide-integers.test: an i128 kernel parameter.
define amdgpu_kernel void @k(i128 %x) {
  ret void
}
