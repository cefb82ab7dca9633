// Lane maps written with a linear thread id in 2-D and 3-D blocks:
// `tid = threadIdx.y * blockDim.x + threadIdx.x; lane = tid % warpSize;
// __shfl(v, lane ^ m)`. Waves are cut from the linear id, so tid % wave
// size is the lane id for every block shape. The recogniser evaluates the
// map with the linear id (an add of threadIdx.x and a term of threadIdx.y
// or .z) taking lane + K * wave size for every K below 1024 / wave size,
// and the guard checks at run time that this id, as the kernel computed
// it, is below 1024 and the lane id modulo the wave size (nothing is known
// of the other term; a kernel whose "linear id" is something else falls
// back). Both kernels were refused (NotAnXorButterfly). -crosslane-fallback-
// trap turns every fallback into a trap: random and tied inputs in whole
// waves run the fast path in every block shape.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9-DAG: linear-tid-lane-maps.hip:{{[0-9]+}}:{{.*}}recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64){{.*}}the linear thread id % wave size is the lane id
// G9-DAG: linear-tid-lane-maps.hip:{{[0-9]+}}:{{.*}}recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 16 lanes (xor butterfly, 4 stages on gfx942 wave64){{.*}}the linear thread id % wave size is the lane id
// G9-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// RUN: for b in N,2:64,128 16,N:4,8 32,N:2,4; do %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=lin2d --mcpu=gfx942 --block=${b%%:*} --sizes=${b#*:} --print=none --arg=buf:f32:1024:input --arg=buf:i32:1024:zero --inputs=random,ties,pm-zero; done | FileCheck %s --check-prefix=DIFF3
// RUN: for b in N,2:64,128 16,N:4,8 N,1,3:64 8,4,N:2,4; do %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=lin3d --mcpu=gfx942 --block=${b%%:*} --sizes=${b#*:} --print=none --arg=buf:f32:1024:input --arg=buf:i32:1024:zero --inputs=random,ties,pm-zero; done | FileCheck %s --check-prefix=DIFF4
// DIFF3-COUNT-3: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// DIFF4-COUNT-4: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// With NaN (the guard's NaN check fails, the original runs), in partial
// waves (blocks of 3 x N), and lin2d in 3-D blocks, where its id is not
// the linear one (the guard fails where it does not name the lane):
// RUN: for k in lin2d lin3d; do %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=$k --mcpu=gfx942 --block=3,N --sizes=5,11 --print=none --arg=buf:f32:1024:input --arg=buf:i32:1024:zero --inputs=all; done | FileCheck %s --check-prefix=DIFF2
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=lin2d --mcpu=gfx942 --block=8,4,N --sizes=2,4 --print=none --arg=buf:f32:1024:input --arg=buf:i32:1024:zero --inputs=random,ties | FileCheck %s --check-prefix=DIFF2
// DIFF2: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// A "linear id" whose other term is not a multiple of the row width
// (`threadIdx.y * 48 + threadIdx.x` in 64-wide rows): recognised, the
// guard fails in waves where it does not name the lane, the original runs.
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=pitched --mcpu=gfx942 --block=64,N --sizes=2,3 --print=none --arg=buf:f32:1024:input --arg=buf:i32:1024:zero --inputs=random,ties | FileCheck %s --check-prefix=DIFF1
// DIFF1: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -pass-remarks=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.trap.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11-COUNT-3: recognised
// RUN: for b in N,2:32,64 8,N,2:4,8; do %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=lin2d --mcpu=gfx1100 --block=${b%%:*} --sizes=${b#*:} --print=none --arg=buf:f32:1024:input --arg=buf:i32:1024:zero --inputs=random,ties; done | FileCheck %s --check-prefix=DIFF11
// DIFF11-COUNT-2: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

extern "C" __global__ void lin2d(const float *X, int *Out) {
  int Tid = threadIdx.y * blockDim.x + threadIdx.x;
  int Lane = Tid % warpSize;
  float V = X[Tid];
  int I = Tid;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl(V, Lane ^ M);
    int OI = __shfl(I, Lane ^ M);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (Lane == 0)
    Out[Tid / warpSize] = I;
}

extern "C" __global__ void lin3d(const float *X, int *Out) {
  unsigned Tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +
                 threadIdx.x;
  int Lane = Tid % warpSize;
  float V = X[Tid];
  int I = Tid;
  for (int M = 8; M > 0; M >>= 1) {
    float OV = __shfl(V, Lane ^ M);
    int OI = __shfl(I, Lane ^ M);
    if (OV < V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (Tid % 16 == 0)
    Out[Tid / 16] = I;
}

extern "C" __global__ void pitched(const float *X, int *Out) {
  int Tid = threadIdx.y * 48 + threadIdx.x;
  int Lane = Tid % warpSize;
  float V = X[threadIdx.y * blockDim.x + threadIdx.x];
  int I = Tid;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl(V, Lane ^ M);
    int OI = __shfl(I, Lane ^ M);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (Lane == 0)
    Out[threadIdx.y] = I;
}
