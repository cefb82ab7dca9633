// Packed 64-bit keys built in the kernel, `(order_key(x) << 32) | ~lane`:
// clang exchanges the two 32-bit halves as computed (no trunc of an i64 in
// the first stage) and joins them in the combine; the halves are one i64
// component, so the chain is a umax/umin i64 reduction (it was refused as
// NotATotalOrder, read as two unrelated i32 components).
// Not handled: with `0xffffffffu - threadIdx.x` and -nogpulib, clang folds
// the subtraction into an xor of the whole i64 key, whose high word is then
// only known to equal the exchanged one through known bits (NotAStage).
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: recognised umax i64 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_umax_i64
// REMARK-DAG: recognised umin i64 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_umin_i64
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=packed_max --mcpu=gfx942 --block=N --sizes=1,17,32,64 --print=none --arg=buf:f32:64:input --arg=buf:i64:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=packed_min --mcpu=gfx942 --block=N --sizes=1,17,32,64 --print=none --arg=buf:f32:64:input --arg=buf:i64:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=packed_max --mcpu=gfx1100 --block=N --sizes=1,17,32 --print=none --arg=buf:f32:64:input --arg=buf:i64:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

__device__ unsigned orderKey(float F) {
  unsigned U = __float_as_uint(F);
  return (U & 0x80000000u) ? ~U : (U | 0x80000000u);
}

extern "C" __global__ void packed_max(const float *X,
                                      unsigned long long *Out) {
  unsigned long long Key =
      ((unsigned long long)orderKey(X[threadIdx.x]) << 32) |
      (0xffffffffu - __lane_id());
  for (int M = 1; M < warpSize; M <<= 1) {
    unsigned long long P = __shfl_xor(Key, M);
    Key = P > Key ? P : Key;
  }
  if (threadIdx.x == 0)
    Out[0] = Key;
}

extern "C" __global__ void packed_min(const float *X,
                                      unsigned long long *Out) {
  unsigned long long Key =
      ((unsigned long long)orderKey(X[threadIdx.x]) << 32) | threadIdx.x;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    unsigned long long P = __shfl_xor(Key, M);
    Key = P < Key ? P : Key;
  }
  if (threadIdx.x == 0)
    Out[0] = Key;
}
