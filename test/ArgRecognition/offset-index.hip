// An index kept one off the lane's position (BLAS iamax's 1-based `t + 1`,
// `4 * t + 1`, or `t - 1`): at -O2 InstCombine rewrites the first stage's
// `ib < ia` into `ib <= t` (and `ib > ia` on `t - 1` into `ib >= t`), so
// that stage's combine reads `t`, which is neither the lane's state nor
// its partner's. Recognised by reading the compare back as one with the
// state (`add nsw`, or `or disjoint`, keeps t + 1 from wrapping);
// before, refused NotAStage at -O2/-O3. The rewrite computes what the
// original computes on every input class, in full and partial waves, and
// stays on the fast path on full waves.
// A compare that is not one off (`ib < t` on `t + 1`, i.e. `ib < ia - 1`)
// is still refused.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2> %t/w64.rem
// RUN: FileCheck %s --check-prefix=REMARK < %t/w64.rem
// REMARK-DAG: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// REMARK-DAG: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// REMARK-DAG: recognised argmax f32/i32, ties: largest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// REMARK-DAG: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// REMARK-DAG: recognised argmax f32/i32, ties: smallest index (unsigned), NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// REMARK-DAG: butterfly not replaced (NotAStage): the combine reads a value computed by '{{[a-z]+}}', which is neither the lane's state nor its partner's
// RUN: grep -c "NotAStage" %t/w64.rem | FileCheck %s --check-prefix=ONE
// ONE: 1
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=iamax --mcpu=gfx942 --block=N --sizes=64,40,96 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=iamax --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=random,ties,all-equal,pm-zero,pm-inf,denorm,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=iamax_down --mcpu=gfx942 --block=N --sizes=64,40,128 --print=none --arg=buf:f32:N:input --arg=buf:i32:2:zero --arg=buf:f32:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=iamax_down --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:2:zero --arg=buf:f32:2:zero --inputs=random,ties,all-equal,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=last_minus1 --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=last_minus1 --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=random,ties,all-equal,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=iamax_unsigned --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=iamax_unsigned --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=random,ties,all-equal,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-5: recognised argmax f32/i32
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=iamax --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=iamax_down --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:f32:N:input --arg=buf:i32:2:zero --arg=buf:f32:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=scaled_plus1 --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=scaled_plus1 --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=random,ties,all-equal,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// The refused kernel's result is unchanged:
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=off_by_two --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=random,ties --cases=2 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

// rocBLAS/MAGMA-style iamax over one wave: |x|, the smallest 1-based index
// on ties, every lane gets the result.
extern "C" __global__ void iamax(const float *X, int *Idx, float *Val) {
  int T = threadIdx.x;
  float A = fabsf(X[T]);
  int IA = T + 1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float B = __shfl_xor(A, M);
    int IB = __shfl_xor(IA, M);
    if (B > A || (B == A && IB < IA)) {
      A = B;
      IA = IB;
    }
  }
  Idx[T] = IA;
  Val[T] = A;
}

// The same as a shfl_down ladder read in each wave's lane 0.
extern "C" __global__ void iamax_down(const float *X, int *Idx, float *Val) {
  int T = threadIdx.x;
  float A = fabsf(X[T]);
  int IA = T + 1;
  for (int D = warpSize / 2; D > 0; D >>= 1) {
    float B = __shfl_down(A, D);
    int IB = __shfl_down(IA, D);
    if (B > A || (B == A && IB < IA)) {
      A = B;
      IA = IB;
    }
  }
  if (T % warpSize == 0) {
    Idx[T / warpSize] = IA;
    Val[T / warpSize] = A;
  }
}

// The last occurrence of the maximum, indices from -1: `IB > IA` on
// `T - 1` becomes `IB >= T`.
extern "C" __global__ void last_minus1(const float *X, int *Idx, float *Val) {
  int T = threadIdx.x;
  float A = X[T];
  int IA = T - 1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float B = __shfl_xor(A, M);
    int IB = __shfl_xor(IA, M);
    if (B > A || (B == A && IB > IA)) {
      A = B;
      IA = IB;
    }
  }
  Idx[T] = IA;
  Val[T] = A;
}

// Unsigned indices: `IB < IA` on `T + 1` becomes `IB <= T` (unsigned),
// which needs the add not to wrap as an unsigned number.
extern "C" __global__ void iamax_unsigned(const float *X, unsigned *Idx,
                                          float *Val) {
  unsigned T = threadIdx.x;
  float A = fabsf(X[T]);
  unsigned IA = T + 1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float B = __shfl_xor(A, M);
    unsigned IB = __shfl_xor(IA, M);
    if (B > A || (B == A && IB < IA)) {
      A = B;
      IA = IB;
    }
  }
  Idx[T] = IA;
  Val[T] = A;
}

// `4 * T + 1` is `or disjoint (shl T, 2), 1`: `IB < IA` becomes
// `IB <= 4 * T`.
extern "C" __global__ void scaled_plus1(const float *X, int *Idx, float *Val) {
  int T = threadIdx.x;
  float A = X[T];
  int IA = 4 * T + 1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float B = __shfl_xor(A, M);
    int IB = __shfl_xor(IA, M);
    if (B > A || (B == A && IB < IA)) {
      A = B;
      IA = IB;
    }
  }
  Idx[T] = IA;
  Val[T] = A;
}

// `IB < T` on `IA = T + 1` is `IB < IA - 1`: not a compare with the state
// in the first stage (a partner index one below the lane's own does not
// win), so the chain is refused.
extern "C" __global__ void off_by_two(const float *X, int *Idx, float *Val) {
  int T = threadIdx.x;
  float A = X[T];
  int IA = T + 1;
  int Bar = T;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float B = __shfl_xor(A, M);
    int IB = __shfl_xor(IA, M);
    if (B > A || (B == A && IB < Bar)) {
      A = B;
      IA = IB;
      Bar = IB - 1;
    }
  }
  Idx[T] = IA;
  Val[T] = A;
}
