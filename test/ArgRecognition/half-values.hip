// f16 values exchanged directly (`__shfl_xor` of a `_Float16`: its bits
// zero-extended to a word, compared as half): recognised as an f16
// arg-reduction, replaced behind the run-time guards, and computing what
// the original computes on every input class (NaN in each position, all
// NaN, +-0, +-inf, ties), in full and partial waves on wave64 and wave32.
// With the fallback sent to a trap, distinct NaN-free values stay on the
// fast path. The same for a `__half` kept as its raw bits (an `unsigned
// short` exchanged zero-extended, compared after a bit cast: `__hgt` /
// `__heq` on ROCm's `__half`), which was refused as an integer order.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2> %t/w64.rem
// RUN: FileCheck %s --check-prefix=REMARK < %t/w64.rem
// REMARK: recognised argmin f16/i32, ties: smallest index, NaN ignored, -0 == +0 over 8 lanes (xor butterfly, 3 stages on gfx942 wave64): replaced by __crosslane_argmin_f16_i32
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmin8 --mcpu=gfx942 --block=N --sizes=64,40,96 --print=none --arg=buf:f16:N:input --arg=buf:i32:16:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=argmin8 --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f16:N:iota --arg=buf:i32:16:zero | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32: recognised argmin f16/i32
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmin8 --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:f16:N:input --arg=buf:i32:16:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: FileCheck %s --check-prefix=BITS < %t/w64.rem
// BITS: recognised argmax f16/i32, ties: smallest index, NaN ignored, -0 == +0 over 32 lanes (xor butterfly, 5 stages on gfx942 wave64): replaced by __crosslane_argmax_f16_i32
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_bits --mcpu=gfx942 --block=N --sizes=64,40,96 --print=none --arg=buf:f16:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=argmax_bits --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f16:N:iota --arg=buf:i32:N:zero --arg=buf:f32:N:zero | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmax_bits --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:f16:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

__device__ _Float16 shflXor(_Float16 V, int M) {
  unsigned short Bits = __builtin_bit_cast(unsigned short, V);
  return __builtin_bit_cast(_Float16,
                            (unsigned short)__shfl_xor((int)Bits, M, 8));
}

// Groups of 8 lanes (MoE-style top-1 over 8 experts): the smallest value,
// the smallest index on ties.
extern "C" __global__ void argmin8(const _Float16 *X, int *Out) {
  _Float16 V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int M = 4; M > 0; M /= 2) {
    _Float16 OV = shflXor(V, M);
    int OI = __shfl_xor(I, M, 8);
    if (OV < V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x % 8 == 0)
    Out[threadIdx.x / 8] = I;
}

// A `__half` held as its bits: the word is the zero-extended `unsigned
// short`, the partner's bits are truncated and read as a half.
extern "C" __global__ void argmax_bits(const unsigned short *X, int *Out,
                                       float *OutV) {
  unsigned short B = X[threadIdx.x];
  int I = threadIdx.x;
  for (int M = 16; M > 0; M /= 2) {
    unsigned short OB = (unsigned short)__shfl_xor((int)B, M, 32);
    int OI = __shfl_xor(I, M, 32);
    _Float16 O = __builtin_bit_cast(_Float16, OB);
    _Float16 V = __builtin_bit_cast(_Float16, B);
    if (O > V || (O == V && OI < I)) {
      B = OB;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
  OutV[threadIdx.x] = (float)__builtin_bit_cast(_Float16, B);
}
