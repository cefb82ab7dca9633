// A loop unrolled four times holds four copies of one butterfly, all at
// one source line. Each pass prints its remark for them once, with the
// count, and the optimisation record carries it as `Copies`; IR without
// debug locations (no line to name) gets one remark per chain.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -c %s -o %t/k.o -Rpass=crosslane -Rpass-missed=crosslane 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: remark-copies.hip:[[@LINE+26]]:17: remark: recognised argmax f32/i32, {{.*}}(xor butterfly, 6 stages on gfx942 wave64){{.*}} [4 copies of this line] [-Rpass=crosslane-recognize-arg]
// CLANG: remark-copies.hip:[[@LINE+25]]:17: remark: expanded argmax f32/i32 cluster 64 stride 1 for gfx942 wave64: {{.*}} [4 copies of this line] [-Rpass=crosslane-expand-subgroup]
// CLANG-NOT: remark: recognised
// CLANG-NOT: remark: expanded
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -c %s -o %t/k.o -fsave-optimization-record -foptimization-record-file=%t/k.yaml
// RUN: FileCheck %s --check-prefix=YAML < %t/k.yaml
// YAML: Pass: crosslane-recognize-arg
// YAML-NEXT: Name: Recognized
// YAML: - Copies: '4'
// YAML-NEXT: - String: ' copies of this line]'
// YAML: Pass: crosslane-expand-subgroup
// YAML-NEXT: Name: Expanded
// YAML: - Copies: '4'
// The same module without debug locations: a remark per chain.
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/k.ll
// RUN: opt %loadcrosslane -passes=crosslane-recognize-arg -pass-remarks=crosslane-recognize-arg -disable-output %t/k.ll 2>&1 | FileCheck %s --check-prefix=NOLOC
// NOLOC-COUNT-4: remark: <unknown>:0:0: recognised argmax f32/i32
// NOLOC-NOT: copies of this line
#include <hip/hip_runtime.h>
extern "C" __global__ void topk(const float *In, int *Out) {
  float V = In[threadIdx.x];
#pragma unroll
  for (int K = 0; K < 4; ++K) {
    float Best = V;
    int Bi = threadIdx.x;
    for (int O = 32; O > 0; O >>= 1) {
      float W = __shfl_xor(Best, O);
      int Wi = __shfl_xor(Bi, O);
      if (W > Best || (W == Best && Wi < Bi)) {
        Best = W;
        Bi = Wi;
      }
    }
    if (threadIdx.x == 0)
      Out[K] = Bi;
    if (threadIdx.x == Bi)
      V = -INFINITY;
  }
}
