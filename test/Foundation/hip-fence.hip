// __threadfence*() with ROCm 5.2 headers call __atomic_work_item_fence from
// hip.bc, which clang 22 does not link: rocm_compat.h defines it, so fences
// are plain LLVM fences with and without device libraries.
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm -nogpulib %s -o - | FileCheck %s
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only -O2 -c %s -o %t.o
// CHECK-LABEL: define {{.*}}@_Z1kPi
// CHECK: fence syncscope("agent") seq_cst
// CHECK: fence syncscope("workgroup") seq_cst
// CHECK: fence seq_cst
// CHECK-NOT: __atomic_work_item_fence
#include <hip/hip_runtime.h>
__global__ void k(int *p) {
  p[0] = 1;
  __threadfence();
  p[1] = 2;
  __threadfence_block();
  p[2] = 3;
  __threadfence_system();
}
