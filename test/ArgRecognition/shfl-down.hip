// __shfl_down ladders leave the reduction in the first lane of each segment
// only: crosslane-recognize-arg replaces one when every read of its result
// is in code only such lanes reach (`__lane_id() == 0`; `threadIdx.x == 0`
// with a run-time check that threadIdx.x % W is the lane id) or a shuffle
// from lane 0 (`__shfl(v, 0)`), and refuses when other lanes read it. Each
// rewrite is run against the original in the wave executor (full waves: the
// original reads inactive lanes otherwise), wave64 and wave32.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: {{.*}}recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time
// REMARK: remark: {{.*}}recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time
// REMARK: remark: {{.*}}not replaced (ResultInOtherLanes): a shfl_down ladder leaves the result of each 64-lane group in lane 0 only, but it is read where other lanes run
// REMARK: remark: {{.*}}over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active, {{.*}}threadIdx.x % wave size is the lane id; otherwise the original code runs)
// REMARK-NOT: remark
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=down_tid0 --mcpu=gfx942 --grid=1 --block=16,4 --seed=1 --print=none --arg=buf:f32:64:input --arg=buf:f32:64:zero --arg=buf:i32:64:zero --inputs=random,ties,nan-each | FileCheck %s --check-prefix=DIFF
// RUN: for k in down_lane0 down_bcast down_all down_tid0; do %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=$k --mcpu=gfx942 --grid=1 --block=64 --seed=1 --print=none --arg=buf:f32:64:input --arg=buf:f32:64:zero --arg=buf:i32:64:zero --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max; done | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK32
// REMARK32-COUNT-2: remark: {{.*}}over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32)
// REMARK32: (ResultInOtherLanes)
// REMARK32: over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32)
// RUN: for k in down_lane0 down_bcast down_tid0; do %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=$k --mcpu=gfx1100 --grid=1 --block=32 --seed=1 --print=none --arg=buf:f32:32:input --arg=buf:f32:32:zero --arg=buf:i32:32:zero --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max; done | FileCheck %s --check-prefix=DIFF
// Through clang (-Rpass), remarks point at the user's line, not at the
// inlined ROCm header that holds the ds_bpermute.
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -c -Rpass=crosslane-recognize-arg %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOC
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// DIFF-NOT: [1-9][0-9]* mismatches
#include <hip/hip_runtime.h>

// A __shfl_down ladder on (value, index) with an index tie-break; the index
// order is not the lane order.
__device__ inline void ladder(float &v, int &i) {
  for (int o = warpSize / 2; o > 0; o /= 2) {
    // LOC: shfl-down.hip:[[@LINE+1]]:{{[0-9]+}}: remark: recognised argmax f32/i32
    float ov = __shfl_down(v, o);
    int oi = __shfl_down(i, o);
    if (ov > v || (ov == v && oi < i)) {
      v = ov;
      i = oi;
    }
  }
}

__device__ inline void start(const float *in, float &v, int &i) {
  v = in[threadIdx.x];
  i = (int)((threadIdx.x * 7u) % (unsigned)warpSize);
}

// Read in lane 0 only.
extern "C" __global__ void down_lane0(const float *in, float *ov, int *oi) {
  float v;
  int i;
  start(in, v, i);
  ladder(v, i);
  if (__lane_id() == 0) {
    ov[0] = v;
    oi[0] = i;
  }
}

// Broadcast from lane 0.
extern "C" __global__ void down_bcast(const float *in, float *ov, int *oi) {
  float v;
  int i;
  start(in, v, i);
  ladder(v, i);
  ov[threadIdx.x] = __shfl(v, 0);
  oi[threadIdx.x] = __shfl(i, 0);
}

// Every lane's partial result is stored: not replaceable.
extern "C" __global__ void down_all(const float *in, float *ov, int *oi) {
  float v;
  int i;
  start(in, v, i);
  ladder(v, i);
  ov[threadIdx.x] = v;
  oi[threadIdx.x] = i;
}

// threadIdx.x == 0 is lane 0 only when threadIdx.x % W is the lane id
// (1-D blocks): guarded at run time. With 16x4 blocks lanes 16, 32 and 48
// also store their partial results, and the original code must run.
extern "C" __global__ void down_tid0(const float *in, float *ov, int *oi) {
  float v = in[threadIdx.y * blockDim.x + threadIdx.x];
  int i = (int)(((threadIdx.y * blockDim.x + threadIdx.x) * 7u) %
                (unsigned)warpSize);
  ladder(v, i);
  if (threadIdx.x == 0) {
    ov[threadIdx.y] = v;
    oi[threadIdx.y] = i;
  }
}
