// "Max, then the smallest index among the lanes that hold it", written as
// two butterflies: fmax over the values, then min over candidate indices
// (INT_MAX where a lane does not hold the max), the result read by lane 0
// as `any ? cand : -1` with `any` from a ballot. clang sinks the last min
// into the lane-0 block, where its only user is that select. The select's
// condition comes from outside the butterfly, so it is a use of the
// result, not part of the last combine (was NoResult: "the combine reads
// %N, which is neither the lane's state nor its partner's").
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9: recognised fmax f32, -0 < +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9: recognised smin i32 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9: recognised fmax f32, -0 < +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9: recognised umin i32 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=ballot_min --grid=3 --block=N --sizes=64,100,256 --arg=buf:f32:900:input --arg=buf:i32:3:zero --arg=i32:300 --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=ballot_min --grid=3 --block=64 --sizes=1,5,64,65,200 --arg=buf:f32:N*3:input --arg=buf:i32:3:zero --arg=i32:N --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=ballot_umin_flag --grid=3 --block=64 --sizes=1,64,200 --arg=buf:f32:N*3:input --arg=buf:i32:3:zero --arg=i32:N --arg=i32:1 --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// The fast path (full waves):
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=ballot_min --grid=3 --block=64 --sizes=64,200 --arg=buf:f32:N*3:input --arg=buf:i32:3:zero --arg=i32:N --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=ballot_umin_flag --grid=3 --block=64 --sizes=64,200 --arg=buf:f32:N*3:input --arg=buf:i32:3:zero --arg=i32:N --arg=i32:0 --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11: recognised smin i32 over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32)
// G11: recognised umin i32 over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32)
// G11-NOT: not replaced
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=ballot_min --grid=3 --block=N --sizes=32,100 --arg=buf:f32:900:input --arg=buf:i32:3:zero --arg=i32:300 --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>
#include <climits>

namespace {

struct Scan {
  float Max;
  int Index;
};

__device__ Scan scanRow(const float *Row, int N) {
  Scan S = {-INFINITY, INT_MAX};
  for (int I = __lane_id(); I < N; I += warpSize)
    if (Row[I] > S.Max) {
      S.Max = Row[I];
      S.Index = I;
    }
  return S;
}

__device__ float waveMax(float V) {
  for (int M = warpSize / 2; M >= 1; M /= 2)
    V = fmaxf(V, __shfl_xor(V, M));
  return V;
}

} // namespace

// One row per block; lane 0 of the first wave writes.
extern "C" __global__ void ballot_min(const float *X, int *Out, int N) {
  Scan S = scanRow(X + (size_t)blockIdx.x * N, N);
  float Max = waveMax(S.Max);
  bool Any = __ballot(S.Max == Max) != 0;
  int Cand = S.Max == Max ? S.Index : INT_MAX;
  for (int M = warpSize / 2; M >= 1; M /= 2)
    Cand = min(Cand, __shfl_xor(Cand, M));
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Any ? Cand : -1;
}

// The same with unsigned candidates, and a select on a kernel argument.
extern "C" __global__ void ballot_umin_flag(const float *X, int *Out, int N,
                                            int Flag) {
  Scan S = scanRow(X + (size_t)blockIdx.x * N, N);
  float Max = waveMax(S.Max);
  unsigned Cand = S.Max == Max ? unsigned(S.Index) : UINT_MAX;
  for (int M = warpSize / 2; M >= 1; M /= 2)
    Cand = min(Cand, __shfl_xor(Cand, M));
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Flag ? int(Cand) : -2;
}
