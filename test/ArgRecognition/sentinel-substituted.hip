// An index made "no element" by a select on something else (`mask[t] ? t :
// -1`, cuDF's null rows): once the combine has found the lane's own index
// not to be -1, LLVM (jump threading) puts `t` itself into the phi that
// keeps the lane's state, so the first stage's combine reads `t`, neither
// the lane's state nor its partner's. Recognised by reading `t` as the
// state word wherever that word is not the sentinel (there the select chose
// `t`); before, refused NotAStage at -O2/-O3. The rewrite computes what the
// original computes (masks random per case, every value class, full and
// partial waves) and keeps the fast path on full waves (a 32-lane group
// with no element runs the original: the functor gives such lanes their
// partner's pair).
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// REMARK-DAG: recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 32 lanes (xor butterfly, 5 stages on gfx942 wave64)
// REMARK-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=masked_argmax --mcpu=gfx942 --block=N --sizes=64,40,96 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=masked_argmax --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:const=1 --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=random,ties,all-equal,pm-zero,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=masked_argmax --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:gen=lanes --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=random,ties --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=null_argmin --mcpu=gfx942 --block=N --sizes=64,40,96 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=null_argmin --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:iota --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=random,pm-zero --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-2: index -1 = no element
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=masked_argmax --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=null_argmin --mcpu=gfx1100 --block=N --sizes=32,20,64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:zero --arg=buf:f32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

// The first index of the largest value among the lanes whose mask is set.
extern "C" __global__ void masked_argmax(const float *X, const int *Mask,
                                         int *Idx, float *Val) {
  int T = threadIdx.x;
  float A = X[T];
  int IA = Mask[T] ? T : -1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float B = __shfl_xor(A, M);
    int IB = __shfl_xor(IA, M);
    if (IB != -1 && (IA == -1 || B > A || (B == A && IB < IA))) {
      A = B;
      IA = IB;
    }
  }
  Idx[T] = IA;
  Val[T] = A;
}

// cuDF-style functor with early returns for null rows (-1), 32-lane groups.
struct Pair {
  float V;
  int I;
};
__device__ Pair argMinNull(const Pair &A, const Pair &B) {
  if (A.I == -1)
    return B;
  if (B.I == -1)
    return A;
  if (B.V < A.V)
    return B;
  if (A.V < B.V)
    return A;
  return A.I < B.I ? A : B;
}
extern "C" __global__ void null_argmin(const float *X, const int *Mask,
                                       int *Idx, float *Val) {
  int T = threadIdx.x;
  Pair P = {X[T], Mask[T] ? T : -1};
  for (int Off = 16; Off > 0; Off >>= 1) {
    Pair O = {__shfl_xor(P.V, Off, 32), __shfl_xor(P.I, Off, 32)};
    P = argMinNull(P, O);
  }
  Idx[T] = P.I;
  Val[T] = P.V;
}
