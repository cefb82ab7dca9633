// A double argmax (NaN wins, smallest index) with `long long I = threadIdx.x`:
// clang exchanges the index as one word, `trunc` of the i64 work-item id in
// the first stage and `trunc nuw` of the stage's select in the next ones,
// whose arms are the partner's word zero-extended and the lane's own
// `and id, 0xFFFFFFFF`. That select's high word is zero (both arms'), so
// it is the zero-extended word the lane exchanges; before, the combine was
// refused on gfx1100 (NotAStage: "the combine reads %41, which is neither
// the lane's state nor its partner's").
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11: recognised argmax f64/i32, ties: smallest index (unsigned), NaN wins, -0 == +0 over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32)
// G11-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g11.ll -o %t/g11.trap.ll
// The fast path on every generator (NaN included: it is proven):
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --mcpu=gfx1100 --block=32 --print=none --arg=buf:f64:32:input --arg=buf:i64:32:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --mcpu=gfx1100 --block=N --sizes=7 --print=none --arg=buf:f64:32:input --arg=buf:i64:32:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/g9.ll -o %t/g9.x.ll
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --mcpu=gfx942 --block=N --sizes=7,64 --print=none --arg=buf:f64:64:input --arg=buf:i64:64:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

extern "C" __global__ void dbl_nan(const double *X, long long *Out) {
  double V = X[threadIdx.x];
  long long I = threadIdx.x;
  for (int M = 1; M < warpSize; M <<= 1) {
    double OV = __shfl_xor(V, M);
    long long OI = __shfl_xor(I, M);
    bool Take = (OV != OV && !(V != V)) || OV > V || (OV == V && OI < I);
    if (V != V && OV != OV)
      Take = OI < I;
    if (Take) {
      V = OV;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
}
