// The guard "lanes holding the winning index hold its value's bits" looks
// only at lanes whose value ties with the winner's (-0 == +0, or both NaN).
// A lane holding the winning index with a worse value loses in the
// original and is not read by the operation. Top-k gating kernels start
// each lane at (index 0, -1.f) (vLLM's moeTopK through cub::ArgMax), so
// lanes past the experts hold index 0: when expert 0 won, the old guard
// sent the call to the original code. Indices shared by two lanes with -0
// and +0 still do.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-COUNT-2: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): {{.*}}lanes holding the winning index hold its value's bits
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// Expert 0 wins (Favourite = 0 gets +4), 5 to 100 experts: the fast path.
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=start_at_zero --block=64 --sizes=1,5,20,64,100 --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --arg=i32:N --arg=i32:0 --print=none --inputs=random,ties,all-equal,pm-inf,neg-max --cases=3 | FileCheck %s --check-prefix=DIFF
// Every input, with and without a favourite:
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=start_at_zero --block=64 --sizes=1,5,20,64,100 --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --arg=i32:N --arg=i32:0 --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=start_at_zero --block=64 --sizes=5,100 --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --arg=i32:N --arg=i32:-1 --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// Two lanes per index: -0 and +0 at the winning index are decided by lane
// order, which the guard still sends to the original code.
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=shared_index --block=64 --sizes=64 --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --print=none --inputs=all --cases=10 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=shared_index --block=64 --sizes=64 --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --print=none --inputs=random,ties --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: not %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=shared_index --block=64 --sizes=64 --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --print=none --inputs=pm-zero --cases=10 2>&1 | FileCheck %s --check-prefix=TRAP
// TRAP: the kernel trapped
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/g11.ll -o %t/g11.x.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g11.ll -o %t/g11.trap.ll
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=start_at_zero --block=32 --sizes=1,5,20,64,100 --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --arg=i32:N --arg=i32:0 --print=none --inputs=random,ties,all-equal,pm-inf,neg-max --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=shared_index --block=32 --sizes=32 --arg=buf:f32:N:input --arg=buf:i32:1:zero --arg=buf:f32:1:zero --print=none --inputs=all --cases=10 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

// cub::ArgMax's order: larger value, then the smaller index.
__device__ inline bool better(float V, int I, float BV, int BI) {
  return V > BV || (V == BV && I < BI);
}

__device__ inline void butterfly(float &Val, int &Key) {
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float OV = __shfl_xor(Val, Off);
    int OI = __shfl_xor(Key, Off);
    if (better(OV, OI, Val, Key)) {
      Val = OV;
      Key = OI;
    }
  }
}

// One row of expert scores; each lane starts at (0, -1.f). Favourite gets
// +4 so that it wins (-1: none).
extern "C" __global__ void start_at_zero(const float *X, int *OutI,
                                         float *OutV, int NumExperts,
                                         int Favourite) {
  int Key = 0;
  float Val = -1.f;
  for (int E = threadIdx.x; E < NumExperts; E += warpSize) {
    float V = X[E] + (E == Favourite ? 4.0f : 0.0f);
    if (better(V, E, Val, Key)) {
      Val = V;
      Key = E;
    }
  }
  butterfly(Val, Key);
  if (threadIdx.x == 0) {
    OutI[0] = Key;
    OutV[0] = Val;
  }
}

// Lanes 2k and 2k+1 hold index k (a column shared by two rows).
extern "C" __global__ void shared_index(const float *X, int *OutI,
                                        float *OutV) {
  float Val = X[threadIdx.x];
  int Key = threadIdx.x / 2;
  butterfly(Val, Key);
  if (threadIdx.x == 0) {
    OutI[0] = Key;
    OutV[0] = Val;
  }
}
