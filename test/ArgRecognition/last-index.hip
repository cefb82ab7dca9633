// Ties to the largest index (the last occurrence): `v == best && i > idx`.
// The operation breaks ties to the smallest index, so the rewrite gives it
// the indices complemented (~i reverses the order) and complements the
// result. Before, such chains were proven only on tie-free inputs and ran
// the original code on every tie ("ties: by lane order").
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9-DAG: recognised argmax f32/i32, ties: largest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9-DAG: recognised argmin f32/i32, ties: largest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// G9-DAG: recognised argmax i32/i32, ties: largest index (unsigned) over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// The fast path on tied inputs:
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=last_max --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:i32:64:zero --inputs=random,ties,all-equal,pm-zero,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=last_min_down --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i32:1:zero --inputs=random,ties,all-equal,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=last_unsigned --mcpu=gfx942 --block=64 --print=none --arg=buf:i32:64:input --arg=buf:i32:64:random --arg=buf:i32:64:zero --inputs=random,ties,all-equal --cases=4 | FileCheck %s --check-prefix=DIFF
// Every generator, partial waves (NaN and partial waves run the original):
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=last_max --mcpu=gfx942 --block=N --sizes=5,64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:random --arg=buf:i32:64:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=last_min_down --mcpu=gfx942 --block=N --sizes=5,64 --print=none --arg=buf:f32:64:input --arg=buf:i32:1:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11-COUNT-3: ties: largest index
// G11-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g11.ll -o %t/g11.trap.ll
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=last_max --mcpu=gfx1100 --block=32 --print=none --arg=buf:f32:32:input --arg=buf:i32:32:random --arg=buf:i32:32:zero --inputs=random,ties,all-equal,pm-zero,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=last_unsigned --mcpu=gfx1100 --block=32 --print=none --arg=buf:i32:32:input --arg=buf:i32:32:random --arg=buf:i32:32:zero --inputs=random,ties,all-equal --cases=4 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

extern "C" __global__ void last_max(const float *X, const int *Ix, int *Out) {
  float V = X[threadIdx.x];
  int I = Ix[threadIdx.x];
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    if (OV > V || (OV == V && OI > I)) {
      V = OV;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
}

// argmin, thread ids as indices, read in lane 0.
extern "C" __global__ void last_min_down(const float *X, int *Out) {
  float V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float OV = __shfl_down(V, Off);
    int OI = __shfl_down(I, Off);
    if (OV < V || (OV == V && OI > I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0)
    Out[0] = I;
}

// int scores, unsigned indices.
extern "C" __global__ void last_unsigned(const int *X, const unsigned *Ix,
                                         unsigned *Out) {
  int V = X[threadIdx.x];
  unsigned I = Ix[threadIdx.x];
  for (int M = 1; M < warpSize; M <<= 1) {
    int OV = __shfl_xor(V, M);
    unsigned OI = __shfl_xor(I, M);
    if (OV > V || (OV == V && OI > I)) {
      V = OV;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
}
