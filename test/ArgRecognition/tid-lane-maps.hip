// Lane maps written with threadIdx.x instead of the lane id, as CUDA ports
// do: `lane = threadIdx.x % warpSize; __shfl(v, lane ^ m)` and
// `__shfl(v, (threadIdx.x & 7) ^ m, 8)`. The address is a lane expression
// only where threadIdx.x % wave size is the lane id (1-D blocks, or a block
// width that is a multiple of the wave): the map is evaluated with
// threadIdx.x = lane + K * wave size for every K a 1024-thread block allows,
// must come out the same for each, and the rewrite's guard checks
// threadIdx.x % wave size == lane id (else the original code runs). Both
// kernels were refused (NotAnXorButterfly). Run against the original with
// 1-D blocks (fast path), and with 2-D/3-D blocks whose rows are not whole
// waves (the guard fails in some waves: the fallback runs there).
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9-DAG: tid-lane-maps.hip:40:{{.*}}recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64){{.*}}threadIdx.x % wave size is the lane id
// G9-DAG: tid-lane-maps.hip:61:{{.*}}recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 8 lanes (xor butterfly, 3 stages on gfx942 wave64){{.*}}threadIdx.x % wave size is the lane id
// G9-NOT: not replaced
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=lane_from_tid --mcpu=gfx942 --block=N --grid=2 --sizes=1,37,64,128,256 --print=none --arg=buf:f32:512:input --arg=buf:f32:16:zero --arg=buf:i32:16:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=lane_from_tid --mcpu=gfx942 --block=N,2 --grid=2 --sizes=16,48,64,100 --print=none --arg=buf:f32:512:input --arg=buf:f32:16:zero --arg=buf:i32:16:zero --inputs=random,ties,nan-each,pm-zero | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=groups_of_8 --mcpu=gfx942 --block=N --sizes=1,13,64,256 --print=none --arg=buf:f32:256:input --arg=buf:f32:256:zero --arg=buf:i32:256:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=groups_of_8 --mcpu=gfx942 --block=12,N,2 --sizes=2,5 --print=none --arg=buf:f32:256:input --arg=buf:f32:256:zero --arg=buf:i32:256:zero --inputs=random,ties,nan-each | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11-COUNT-2: recognised argmax f32/i32
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=lane_from_tid --mcpu=gfx1100 --block=N --grid=2 --sizes=1,20,32,96,256 --print=none --arg=buf:f32:512:input --arg=buf:f32:32:zero --arg=buf:i32:32:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=groups_of_8 --mcpu=gfx1100 --block=12,N --sizes=2,5 --print=none --arg=buf:f32:256:input --arg=buf:f32:256:zero --arg=buf:i32:256:zero --inputs=random,ties,nan-each | FileCheck %s --check-prefix=DIFF
// DIFF: 0 mismatches

#include <hip/hip_runtime.h>

extern "C" __global__ void lane_from_tid(const float *In, float *Out,
                                         int *OutIdx) {
  unsigned I = blockIdx.x * blockDim.x * blockDim.y +
               threadIdx.y * blockDim.x + threadIdx.x;
  float V = In[I];
  int Idx = I;
  int Lane = threadIdx.x % warpSize;
  for (int M = warpSize / 2; M > 0; M /= 2) {
    float W = __shfl(V, Lane ^ M);
    int WI = __shfl(Idx, Lane ^ M);
    if (W > V || (W == V && WI < Idx)) {
      V = W;
      Idx = WI;
    }
  }
  if (Lane == 0) {
    unsigned Slot = I / warpSize;
    Out[Slot] = V;
    OutIdx[Slot] = Idx;
  }
}

extern "C" __global__ void groups_of_8(const float *In, float *Out,
                                       int *OutIdx) {
  unsigned I = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +
               threadIdx.x;
  float V = In[I];
  int Idx = I;
  for (int M = 4; M > 0; M /= 2) {
    float W = __shfl(V, (threadIdx.x & 7) ^ M, 8);
    int WI = __shfl(Idx, (threadIdx.x & 7) ^ M, 8);
    if (W > V || (W == V && WI < Idx)) {
      V = W;
      Idx = WI;
    }
  }
  Out[I] = V;
  OutIdx[I] = Idx;
}
