// Comparators as clang -O0 emits them: the expansion inlines a straight-line
// copy of each (the functions it calls inlined, local memory promoted by
// SROA, small branches folded into selects), so bit casts through memory,
// unions, local arrays and structs, lambdas (whose __invoke calls their
// operator()) work at -O0 as at -O2; before, the first two were accepted
// and then read unpromoted memory in whole-wave code (poison in divergent
// code), the others were rejected. A `||`/`&&` tie-break and early returns
// leave joins of three or more edges at -O0 that SimplifyCFG does not fold;
// the copy's blocks are then flattened into selects (k_or, k_early,
// k_switch; all three were errors before; a switch's unreachable default
// is dropped). A comparator that guards a division by a branch
// cannot be flattened and is an error (DIVIDE). Each -O0
// expansion runs against the serial reference (the same source compiled
// without the plugin), in divergent code and in partial waves.
// A comparator that reads lane state (threadIdx.x) is an error: every lane
// of a cluster must get the same answer.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -std=c++20 -O0 -S -emit-llvm %s -o %t/x.ll
// RUN: %hipcc --no-crosslane --offload-arch=gfx942 --cuda-device-only -nogpulib -std=c++20 -O0 -S -emit-llvm %s -o %t/ref.ll
// RUN: for k in k_bits k_union k_array k_struct k_lambda k_or k_early k_switch; do %crosslane-run %t/ref.ll --diff=%t/x.ll --kernel=$k --mcpu=gfx942 --block=N --sizes=64,23 --arg=buf:f32:N:input --arg=buf:i32:N:zero --print=none --inputs=random,ties,pm-zero,pm-inf,neg-max,nan-each,all-nan,denorm; done | FileCheck %s --check-prefix=DIFF
// DIFF-COUNT-8: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// RUN: not %hipcc --offload-arch=gfx942 --cuda-device-only -std=c++20 -O0 -S -emit-llvm -DLANE_STATE %s -o %t/bad.ll 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: not %hipcc --offload-arch=gfx942 --cuda-device-only -std=c++20 -O2 -S -emit-llvm -DLANE_STATE %s -o %t/bad.ll 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: not %hipcc --offload-arch=gfx942 --cuda-device-only -std=c++20 -O0 -S -emit-llvm -DDIVIDE %s -o %t/bad.ll 2>&1 | FileCheck %s --check-prefix=DIVIDE
// RUN: not %hipcc --offload-arch=gfx942 --cuda-device-only -std=c++20 -O0 -S -emit-llvm -DASM %s -o %t/bad.ll 2>&1 | FileCheck %s --check-prefix=ASM
// ASM: argcmp-O0-comparators.hip:{{[0-9]+}}:{{[0-9]+}}: error: crosslane: comparator of '__crosslane_argcmp_i32_i32' '_Z6viaAsmii' contains inline assembly, which cannot be shown to compute from its operands only
// DIVIDE: argcmp-O0-comparators.hip:{{[0-9]+}}:{{[0-9]+}}: error: crosslane: comparator of '__crosslane_argcmp_i32_i32' '_Z10byQuotientii' guards code that may trap or have side effects (sdiv) by a branch; it is inlined into whole-wave code as straight-line code, which would run both sides
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

// Greater, equal values by smaller bits (-0 before +0); NaN never wins.
__device__ bool tieBreak(float a, float b) {
  return a > b || (a == b && __builtin_bit_cast(unsigned, a) <
                                 __builtin_bit_cast(unsigned, b));
}
KERNEL(k_or, tieBreak)

// Smaller, NaN first (a NaN wins over a number), ties by signed bits.
__device__ bool earlyReturns(float a, float b) {
  if (a != a)
    return b == b;
  if (b != b)
    return false;
  if (a < b)
    return true;
  else if (a > b)
    return false;
  return __builtin_bit_cast(int, a) < __builtin_bit_cast(int, b);
}
KERNEL(k_early, earlyReturns)

// A switch over the top two bits that covers every value (SimplifyCFG
// makes its default unreachable): classes 0 and 1 by larger bits first,
// then classes 2 and 3 by smaller bits first; a strict total order.
__device__ bool byClass(float a, float b) {
  unsigned A = __builtin_bit_cast(unsigned, a);
  unsigned B = __builtin_bit_cast(unsigned, b);
  switch (A >> 30) {
  case 0:
    return (B >> 30) != 0 || A > B;
  case 1:
    return (B >> 30) > 1 || ((B >> 30) == 1 && A > B);
  case 2:
    return (B >> 30) == 3 || ((B >> 30) == 2 && A < B);
  default:
    return (B >> 30) == 3 && A < B;
  }
}
KERNEL(k_switch, byClass)

#ifdef LANE_STATE
__device__ bool byTid(float a, float b) {
  return (threadIdx.x & 1) ? a > b : a < b;
}
extern "C" __global__ void k_tid(const float *In, int *Out) {
  int T = threadIdx.x;
  Out[T] = crosslane::argcmp<byTid>(In[T], T).index;
}
#endif

#ifdef DIVIDE
__device__ bool byQuotient(int a, int b) { return b != 0 && a / b > 2; }
extern "C" __global__ void k_divide(const int *In, int *Out) {
  int T = threadIdx.x;
  Out[T] = crosslane::argcmp<byQuotient>(In[T], T).index;
}
#endif

#ifdef ASM
__device__ bool viaAsm(int a, int b) {
  int R;
  asm volatile("v_mov_b32 %0, %1" : "=v"(R) : "v"(a));
  return R > b;
}
extern "C" __global__ void k_asm(const int *In, int *Out) {
  int T = threadIdx.x;
  Out[T] = crosslane::argcmp<viaAsm>(In[T], T).index;
}
#endif
