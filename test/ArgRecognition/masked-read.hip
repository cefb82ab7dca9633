// A ladder's result read by `lane == 0 && best.index != -1`: clang merges
// the two tests into one branch and compares the index in every lane, but
// the compare only feeds an `and` with the lane test, so it matters in lane
// 0 alone (was ResultInOtherLanes). The packed key clang builds from the
// result inside the branch (value bits << 32 | index) is computed from the
// results, not a result of its own (was "the chain's results are in
// different blocks", so no guard was possible). k-means assignment, with a
// packed atomicMin per wave, as a merged and a nested test.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9-COUNT-2: recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// G9-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=assign_merged --grid=3 --block=N --sizes=64,100,256 --arg=buf:f32:12:input --arg=buf:f32:1200:input --arg=buf:i64:3:const=-1 --arg=i32:300 --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=assign_nested --grid=3 --block=64 --sizes=1,7,64,300 --arg=buf:f32:12:input --arg=buf:f32:N*4:input --arg=buf:i64:3:const=-1 --arg=i32:N --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// The fast path (full waves, every lane holding an element):
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=assign_merged --grid=3 --block=64 --sizes=64,300 --arg=buf:f32:12:input --arg=buf:f32:N*4:input --arg=buf:i64:3:const=-1 --arg=i32:N --print=none --inputs=random,ties,all-equal,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=assign_nested --grid=3 --block=64 --sizes=64,300 --arg=buf:f32:12:input --arg=buf:f32:N*4:input --arg=buf:i64:3:const=-1 --arg=i32:N --print=none --inputs=random,ties,all-equal,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11-COUNT-2: recognised argmin f32/i32, {{.*}} over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32)
// G11-NOT: not replaced
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=assign_merged --grid=3 --block=N --sizes=32,100 --arg=buf:f32:12:input --arg=buf:f32:1200:input --arg=buf:i64:3:const=-1 --arg=i32:300 --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

#define D 4

struct Best {
  int Index;
  float Dist;
};

__device__ unsigned long long packKey(Best B) {
  return (unsigned long long)__float_as_uint(B.Dist) << 32 |
         (unsigned)B.Index;
}

// Point blockIdx.x against K centroids: a strided scan, then a ladder in
// which -1 is "no centroid".
__device__ Best nearest(const float *Pts, const float *Cent, int K) {
  const float *X = Pts + blockIdx.x * D;
  Best B{-1, INFINITY};
  for (int J = threadIdx.x; J < K; J += blockDim.x) {
    float S = 0.f;
    for (int T = 0; T < D; ++T) {
      float Df = X[T] - Cent[J * D + T];
      S += Df * Df;
    }
    if (S < B.Dist)
      B = Best{J, S};
  }
  for (int Off = 1; Off < warpSize; Off <<= 1) {
    Best O{__shfl_down(B.Index, Off), __shfl_down(B.Dist, Off)};
    if (O.Index != -1 &&
        (B.Index == -1 || O.Dist < B.Dist ||
         (O.Dist == B.Dist && O.Index < B.Index)))
      B = O;
  }
  return B;
}

extern "C" __global__ void assign_merged(const float *Pts, const float *Cent,
                                         unsigned long long *Labels, int K) {
  Best B = nearest(Pts, Cent, K);
  if (threadIdx.x % warpSize == 0 && B.Index != -1)
    atomicMin(&Labels[blockIdx.x], packKey(B));
}

extern "C" __global__ void assign_nested(const float *Pts, const float *Cent,
                                         unsigned long long *Labels, int K) {
  Best B = nearest(Pts, Cent, K);
  if (threadIdx.x % warpSize == 0) {
    if (B.Index != -1)
      atomicMin(&Labels[blockIdx.x], packKey(B));
  }
}
