// Comparators as clang -O0 emits them: the expansion inlines a straight-line
// copy of each (the functions it calls inlined, local memory promoted by
// SROA, small branches folded into selects), so bit casts through memory,
// unions, local arrays and structs, lambdas (whose __invoke calls their
// operator()) work at -O0 as at -O2; before, the first two were accepted
// and then read unpromoted memory in whole-wave code (poison in divergent
// code), the others were rejected. (A `||`/`&&` tie-break at -O0 leaves a
// three-way branch that SimplifyCFG does not fold: still an error there.) Each -O0
// expansion runs against the serial reference (the same source compiled
// without the plugin), in divergent code and in partial waves.
// A comparator that reads lane state (threadIdx.x) is an error: every lane
// of a cluster must get the same answer.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -std=c++20 -O0 -S -emit-llvm %s -o %t/x.ll
// RUN: %hipcc --no-crosslane --offload-arch=gfx942 --cuda-device-only -nogpulib -std=c++20 -O0 -S -emit-llvm %s -o %t/ref.ll
// RUN: for k in k_bits k_union k_array k_struct k_lambda; do %crosslane-run %t/ref.ll --diff=%t/x.ll --kernel=$k --mcpu=gfx942 --block=N --sizes=64,23 --arg=buf:f32:N:input --arg=buf:i32:N:zero --print=none --inputs=random,ties,pm-zero,pm-inf,neg-max; done | FileCheck %s --check-prefix=DIFF
// DIFF-COUNT-5: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// RUN: not %hipcc --offload-arch=gfx942 --cuda-device-only -std=c++20 -O0 -S -emit-llvm -DLANE_STATE %s -o %t/bad.ll 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: not %hipcc --offload-arch=gfx942 --cuda-device-only -std=c++20 -O2 -S -emit-llvm -DLANE_STATE %s -o %t/bad.ll 2>&1 | FileCheck %s --check-prefix=LANE
// LANE: argcmp-O0-comparators.hip:{{[0-9]+}}:{{[0-9]+}}: error: crosslane: comparator of '__crosslane_argcmp_f32_i32' '_Z5byTidff' must compute from its two operands only, but reads lane or work-item state ('llvm.amdgcn.workitem.id.x')
#include <crosslane/hip/crosslane.h>
#include <hip/hip_runtime.h>

__device__ bool bits(float a, float b) {
  return __builtin_bit_cast(unsigned, a) > __builtin_bit_cast(unsigned, b);
}
union Pun {
  float F;
  unsigned U;
};
__device__ bool viaUnion(float a, float b) {
  Pun x, y;
  x.F = a;
  y.F = b;
  return x.U < y.U;
}
__device__ bool viaArray(float a, float b) {
  float arr[2] = {a, b};
  return arr[0] > arr[1];
}
struct Key {
  float K;
};
__device__ bool viaStruct(float a, float b) {
  Key x{a}, y{b};
  return x.K > y.K;
}

#define KERNEL(NAME, CMP)                                                      \
  extern "C" __global__ void NAME(const float *In, int *Out) {                 \
    int T = threadIdx.x;                                                       \
    if (T % 3 != 1)                                                            \
      Out[T] = crosslane::argcmp<CMP>(In[T], T).index;                         \
  }
KERNEL(k_bits, bits)
KERNEL(k_union, viaUnion)
KERNEL(k_array, viaArray)
KERNEL(k_struct, viaStruct)
KERNEL(k_lambda, +[](float a, float b) { return a < b; })

#ifdef LANE_STATE
__device__ bool byTid(float a, float b) {
  return (threadIdx.x & 1) ? a > b : a < b;
}
extern "C" __global__ void k_tid(const float *In, int *Out) {
  int T = threadIdx.x;
  Out[T] = crosslane::argcmp<byTid>(In[T], T).index;
}
#endif
