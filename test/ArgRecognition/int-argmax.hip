// Integer (value, index) butterflies: with an index tie-break the combine is
// a total order and the chain is replaced exactly; without one (ties kept
// by lane order) it is replaced behind the tie guard. Both run against the
// original in the wave executor, on all-equal and many-ties inputs too.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/a.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/a.ll -o %t/a.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: {{.*}}recognised argmax i32/i32, ties: smallest index over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_i32_i32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active; otherwise the original code runs){{$}}
// REMARK: remark: {{.*}}recognised argmin i32/i32, ties: by lane order over 32 lanes (xor butterfly, 5 stages on gfx942 wave64): replaced by __crosslane_argmin_i32_i32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active, no other index holds the winning value; otherwise the original code runs)
// REMARK-NOT: remark
// RUN: for k in int_argmax int_argmin_notie; do %crosslane-run %t/a.ll --diff=%t/a.x.ll --kernel=$k --mcpu=gfx942 --grid=1 --block=64 --seed=1 --print=none --arg=buf:i32:64:input --arg=buf:i32:64:zero --arg=buf:i32:64:zero --inputs=random,all-equal,ties --cases=4; done | FileCheck %s --check-prefix=DIFF
// DIFF-COUNT-2: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

__device__ inline int perm(unsigned t) { return (int)((t * 37u + 11u) % 64u); }

extern "C" __global__ void int_argmax(const int *in, int *ov, int *oi) {
  int v = in[threadIdx.x], i = perm(threadIdx.x);
  for (int o = warpSize / 2; o > 0; o /= 2) {
    int pv = __shfl_xor(v, o), pi = __shfl_xor(i, o);
    if (pv > v || (pv == v && pi < i)) {
      v = pv;
      i = pi;
    }
  }
  ov[threadIdx.x] = v;
  oi[threadIdx.x] = i;
}

// 32-lane clusters (width 32 on a wave64 chip), no tie-break.
extern "C" __global__ void int_argmin_notie(const int *in, int *ov, int *oi) {
  int v = in[threadIdx.x], i = perm(threadIdx.x);
  for (int o = 16; o > 0; o /= 2) {
    int pv = __shfl_xor(v, o, 32), pi = __shfl_xor(i, o, 32);
    if (pv < v) {
      v = pv;
      i = pi;
    }
  }
  ov[threadIdx.x] = v;
  oi[threadIdx.x] = i;
}
