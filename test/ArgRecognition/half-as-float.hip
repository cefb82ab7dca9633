// A `__half` state exchanged as a float (`__float2half(__shfl_xor(
// __half2float(v), m))`, the usual way around ROCm's missing `__half`
// shuffles): each read moves the half's f32 extension and converts it back.
// The recogniser makes the reads move the half's bits (exact: an f16 value
// converts to f32 and back unchanged) and proves the chain as an f16
// arg-reduction; the f32 copy of the state that `__half2float(v)` reads
// after the chain becomes the extension of the result. Run against the
// original on every input class in full and partial waves, on wave64 and
// wave32; with the fallback sent to a trap, full waves of NaN-free values
// (ties, +-0, +-inf, subnormals) stay on the fast path.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-COUNT-2: recognised argmax f16/i32, ties: smallest index, NaN ignored, -0 == +0 over 32 lanes (xor butterfly, 5 stages on gfx942 wave64): replaced by __crosslane_argmax_f16_i32
// RUN: FileCheck %s --check-prefix=IR < %t/w64.x.ll
// IR-LABEL: define {{.*}} @argmax_float_exchange(
// IR: %crosslane.half.bits = zext i16 {{.*}} to i32
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_float_exchange --mcpu=gfx942 --block=N --sizes=64,40,96 --print=none --arg=buf:f16:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_float_exchange_hgt --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:f16:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=argmax_float_exchange --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f16:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=random,ties,pm-zero,pm-inf,denorm --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-2: recognised argmax f16/i32
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmax_float_exchange --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:f16:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

__device__ __half shflXor(__half V, int M) {
  return __float2half(__shfl_xor(__half2float(V), M, 32));
}

extern "C" __global__ void argmax_float_exchange(const __half *X, int *Out,
                                                 float *OutV) {
  __half V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int M = 16; M > 0; M /= 2) {
    __half O = shflXor(V, M);
    int OI = __shfl_xor(I, M, 32);
    if (O > V || (O == V && OI < I)) {
      V = O;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
  OutV[threadIdx.x] = __half2float(V);
}

// The same with ROCm's comparison functions.
extern "C" __global__ void argmax_float_exchange_hgt(const __half *X, int *Out,
                                                     float *OutV) {
  __half V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int M = 16; M > 0; M /= 2) {
    __half O = shflXor(V, M);
    int OI = __shfl_xor(I, M, 32);
    if (__hgt(O, V) || (__heq(O, V) && OI < I)) {
      V = O;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
  OutV[threadIdx.x] = __half2float(V);
}
