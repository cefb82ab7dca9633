// Two butterflies with the same offsets in one loop (softmax's max and sum,
// here an int min and a float sum): clang exchanges their words with the
// same lane addresses, so they were one stage of two words, and the min was
// refused (the sum is no selection). Words whose combines share nothing are
// now separate stages: the min is replaced, the sum left alone.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: recognised smin i32 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_smin_i32
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=min_and_sum --mcpu=gfx942 --block=N --sizes=1,17,64 --print=none --arg=buf:i32:64:input --arg=buf:f32:64:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// The sum's six exchanges are reported once, as arithmetic:
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg' -pass-remarks-missed=crosslane-recognize-arg -disable-output %t/w64.ll 2>&1 | FileCheck %s --check-prefix=MISSED
// MISSED: remark: {{.*}}not replaced (NotAReduction): 6 exchange(s) in this function combine what the lanes read by arithmetic ('fadd'), not by choosing a lane's value
// MISSED-NOT: remark
#include <hip/hip_runtime.h>

extern "C" __global__ void min_and_sum(const int *A, const float *B, int *O,
                                       float *S) {
  int M = A[threadIdx.x];
  float X = B[threadIdx.x];
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    M = min(M, __shfl_xor(M, Off));
    X += __shfl_xor(X, Off);
  }
  if (threadIdx.x == 0) {
    O[0] = M;
    S[0] = X;
  }
}
