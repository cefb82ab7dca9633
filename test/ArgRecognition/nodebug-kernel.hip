// A kernel marked nodebug whose inlined helper keeps its line locations
// (-gline-tables-only): the kernel has no subprogram, so its instructions'
// locations name the helper's. The rewrite copies such a location; the
// check after it, like LLVM's verifier, asks a location to be the
// function's own only in a function with a subprogram (the rewrite was
// undone as an "internal error" before).
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only \
// RUN:   -S -emit-llvm %s -o %t.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,verify' -pass-remarks=crosslane-recognize-arg \
// RUN:   -pass-remarks-missed=crosslane-recognize-arg -S %t.ll -o %t.out.ll 2>&1 | FileCheck %s
// CHECK: remark: {{.*}}nodebug-kernel.hip:[[@LINE+9]]:16: recognised argmax f32/i32
// CHECK-NOT: internal error
// RUN: opt %loadcrosslane -passes=crosslane-recognize-arg -crosslane-copy-before-rewrites -S %t.ll -o %t.copy.ll
// RUN: cmp %t.out.ll %t.copy.ll
#include <hip/hip_runtime.h>

__device__ __forceinline__ int warp_argmax(float v, int i) {
#pragma unroll
  for (int o = 32; o > 0; o >>= 1) {
    float ov = __shfl_xor(v, o);
    int oi = __shfl_xor(i, o);
    if (ov > v || (ov == v && oi < i)) {
      v = ov;
      i = oi;
    }
  }
  return i;
}

extern "C" __global__ __attribute__((nodebug)) void
argmax_nodebug(const float *in, int *out) {
  int t = threadIdx.x;
  out[t] = warp_argmax(in[t], t);
}
