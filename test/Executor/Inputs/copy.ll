declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @copy(ptr addrspace(1) %out, ptr addrspace(1) %in, float %s) {
entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %in, i32 %l
  %v = load float, ptr addrspace(1) %p, align 4
  %m = fmul float %v, %s
  %q = getelementptr float, ptr addrspace(1) %out, i32 %l
  store float %m, ptr addrspace(1) %q, align 4
  ret void
}
