// Stages that combine only where the partner's lane lies in a valid prefix
// of its segment: CUB's and rocPRIM's partial-warp reduce (`if (lane +
// offset < valid_items) x = op(x, y)` over a shfl_down ladder), with the
// bound inclusive or exclusive, the test inverted (`continue`), 16-lane
// segments, threadIdx.x itself over a multi-wave block, and lanes past the
// prefix that hold nothing defined. Each gated stage is proven with its
// gate open, and with it closed must keep the lane's state; the gates of a
// chain must name one prefix (clang writes `p + 1 <= n` as `p < n`). The
// rewrite gives the operation "no element" pairs for the lanes past the
// prefix (not the segment's first lane, which the original returns alone
// when nothing is valid), behind the guard that none of them wins. Refused:
// a suffix, a lane-varying bound, an xor butterfly (its lanes past the
// prefix combine with lanes inside it), and gates naming different prefixes.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefixes=G9,REF
// G9: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time ({{.*}}no lane past the valid prefix wins
// G9: recognised argmin f32/i32, {{.*}} over 64 lanes (shfl_down ladder, 6 stages
// G9: recognised argmax f32/i32, {{.*}} over 16 lanes (shfl_down ladder, 4 stages
// G9: recognised argmax f32/i32, {{.*}} over 64 lanes (shfl_down ladder, 6 stages
// G9: recognised argmax f32/i32, {{.*}} over 64 lanes (shfl_down ladder, 6 stages
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// Against the original on every generator; then the fast path (fallbacks
// trap) on NaN-free inputs, every bound from nothing valid to all:
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=up_lt --block=64 --sizes=0,1,2,7,33,63,64,100 --arg=buf:f32:64:input --arg=i32:N --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=up_lt --block=64 --arg=buf:f32:64:input --arg=i32:-5 --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=down_skip --block=64 --sizes=0,1,7,33,64 --arg=buf:f32:64:input --arg=i32:N --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=seg16_le --block=64 --sizes=0,1,5,15,16 --arg=buf:f32:64:input --arg=i32:N --arg=buf:f32:4:zero --arg=buf:i32:4:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=tid_lt --block=256 --sizes=0,65,130,255,300 --arg=buf:f32:256:input --arg=i32:N --arg=buf:f32:8:zero --arg=buf:i32:8:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=cub_partial --block=64 --sizes=1,7,40,64 --arg=buf:f32:64:input --arg=i32:N --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=random,ties,all-equal,pm-zero,pm-inf,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=up_lt --block=64 --sizes=0,1,2,7,33,63,64,100 --arg=buf:f32:64:input --arg=i32:N --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=random,ties,all-equal,pm-inf,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=up_lt --block=64 --arg=buf:f32:64:input --arg=i32:-5 --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=random,ties | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=down_skip --block=64 --sizes=0,1,7,33,64 --arg=buf:f32:64:input --arg=i32:N --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=random,ties,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=seg16_le --block=64 --sizes=0,1,5,15,16 --arg=buf:f32:64:input --arg=i32:N --arg=buf:f32:4:zero --arg=buf:i32:4:zero --print=none --inputs=random,ties,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=tid_lt --block=256 --sizes=0,65,130,255,300 --arg=buf:f32:256:input --arg=i32:N --arg=buf:f32:8:zero --arg=buf:i32:8:zero --print=none --inputs=random,ties | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=cub_partial --block=64 --sizes=1,7,40,64 --arg=buf:f32:64:input --arg=i32:N --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=random,ties,neg-max | FileCheck %s --check-prefix=DIFF
// Wave32:
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm -DWF=32 %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefixes=G11,REF
// G11-COUNT-2: recognised arg{{max|min}} f32/i32, {{.*}} over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32)
// G11: recognised argmax f32/i32, {{.*}} over 16 lanes (shfl_down ladder, 4 stages
// G11-COUNT-2: recognised argmax f32/i32, {{.*}} over 32 lanes (shfl_down ladder, 5 stages
// Both chips refuse the same four:
// REF: not replaced (NotAStage): the stage combines only where %{{[0-9]+}} lets it, which does not keep the partner's lane within a prefix
// REF: not replaced (NotAStage): the combine reads a value computed by '{{[a-z]+}}', which is neither
// REF: not replaced (NotAStage): the combine reads a value computed by '{{[a-z]+}}', which is neither
// REF: not replaced (NotAStage): the stages combine within different prefixes of lanes
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g11.ll -o %t/g11.trap.ll
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=up_lt --block=32 --sizes=0,1,7,31,32,40 --arg=buf:f32:32:input --arg=i32:N --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=tid_lt --block=256 --sizes=0,33,100,255 --arg=buf:f32:256:input --arg=i32:N --arg=buf:f32:8:zero --arg=buf:i32:8:zero --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=seg16_le --block=32 --sizes=0,1,5,15,16 --arg=buf:f32:32:input --arg=i32:N --arg=buf:f32:2:zero --arg=buf:i32:2:zero --print=none --inputs=random,ties,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=cub_partial --block=32 --sizes=1,7,32 --arg=buf:f32:32:input --arg=i32:N --arg=buf:f32:1:zero --arg=buf:i32:1:zero --print=none --inputs=random,ties,neg-max | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

#ifndef WF
#define WF 64
#endif

struct KVP {
  int Key;
  float Value;
};

__device__ KVP argMax(KVP A, KVP B) {
  if (B.Value > A.Value || (B.Value == A.Value && B.Key < A.Key))
    return B;
  return A;
}
__device__ KVP argMin(KVP A, KVP B) {
  if (B.Value < A.Value || (B.Value == A.Value && B.Key < A.Key))
    return B;
  return A;
}

// Increasing offsets, lane + offset < valid.
extern "C" __global__ void up_lt(const float *In, int N, float *OutV,
                                 int *OutI) {
  int Lane = threadIdx.x % WF;
  KVP X{Lane, Lane < N ? In[Lane] : 0.f};
  for (int Off = 1; Off < WF; Off *= 2) {
    KVP O{__shfl_down(X.Key, Off), __shfl_down(X.Value, Off)};
    if (Lane + Off < N)
      X = argMax(X, O);
  }
  if (Lane == 0) {
    OutV[0] = X.Value;
    OutI[0] = X.Key;
  }
}

// Decreasing offsets, the test inverted; argmin.
extern "C" __global__ void down_skip(const float *In, int N, float *OutV,
                                     int *OutI) {
  int Lane = threadIdx.x % WF;
  KVP X{Lane, In[Lane]};
  for (int Off = WF / 2; Off > 0; Off /= 2) {
    KVP O{__shfl_down(X.Key, Off), __shfl_down(X.Value, Off)};
    if (Lane + Off >= N)
      continue;
    X = argMin(X, O);
  }
  if (Lane == 0) {
    OutV[0] = X.Value;
    OutI[0] = X.Key;
  }
}

// 16-lane segments, an inclusive bound (the first stage's test becomes
// `(lane & 15) < Last`).
extern "C" __global__ void seg16_le(const float *In, int Last, float *OutV,
                                    int *OutI) {
  int Lane = threadIdx.x % WF;
  KVP X{(int)threadIdx.x, In[threadIdx.x]};
  for (int Off = 1; Off < 16; Off *= 2) {
    KVP O{__shfl_down(X.Key, Off, 16), __shfl_down(X.Value, Off, 16)};
    if ((Lane & 15) + Off <= Last)
      X = argMax(X, O);
  }
  if ((Lane & 15) == 0) {
    OutV[threadIdx.x / 16] = X.Value;
    OutI[threadIdx.x / 16] = X.Key;
  }
}

// threadIdx.x itself in a block of several waves: each wave's valid lanes
// are a prefix of it (all, some or none).
extern "C" __global__ void tid_lt(const float *In, int N, float *OutV,
                                  int *OutI) {
  int T = threadIdx.x;
  KVP X{T, In[T]};
  for (int Off = 1; Off < WF; Off *= 2) {
    KVP O{__shfl_down(X.Key, Off), __shfl_down(X.Value, Off)};
    if (T + Off < N)
      X = argMax(X, O);
  }
  if (T % WF == 0) {
    OutV[T / WF] = X.Value;
    OutI[T / WF] = X.Key;
  }
}

// CUB's partial tile: lanes past the end hold nothing defined.
extern "C" __global__ void cub_partial(const float *In, int N, float *OutV,
                                       int *OutI) {
  int Lane = threadIdx.x % WF;
  KVP X;
  if (Lane < N)
    X = KVP{Lane, In[Lane]};
  for (int Off = 1; Off < WF; Off *= 2) {
    KVP O{__shfl_down(X.Key, Off), __shfl_down(X.Value, Off)};
    if (Lane + Off < N)
      X = argMax(X, O);
  }
  if (Lane == 0) {
    OutV[0] = X.Value;
    OutI[0] = X.Key;
  }
}

// Refused: the lanes let through are a suffix.
extern "C" __global__ void suffix(const float *In, int N, float *OutV,
                                  int *OutI) {
  int Lane = threadIdx.x % WF;
  KVP X{Lane, In[Lane]};
  for (int Off = 1; Off < WF; Off *= 2) {
    KVP O{__shfl_down(X.Key, Off), __shfl_down(X.Value, Off)};
    if (Lane + Off > N)
      X = argMax(X, O);
  }
  if (Lane == 0) {
    OutV[0] = X.Value;
    OutI[0] = X.Key;
  }
}

// Refused: the bound differs between lanes.
extern "C" __global__ void varying(const float *In, const int *Lim,
                                   float *OutV, int *OutI) {
  int Lane = threadIdx.x % WF;
  KVP X{Lane, In[Lane]};
  int N = Lim[Lane];
  for (int Off = 1; Off < WF; Off *= 2) {
    KVP O{__shfl_down(X.Key, Off), __shfl_down(X.Value, Off)};
    if (Lane + Off < N)
      X = argMax(X, O);
  }
  if (Lane == 0) {
    OutV[0] = X.Value;
    OutI[0] = X.Key;
  }
}

// Refused: an xor butterfly gated on the partner's lane.
extern "C" __global__ void xor_gate(const float *In, int N, float *OutV,
                                    int *OutI) {
  int Lane = threadIdx.x % WF;
  KVP X{Lane, In[Lane]};
  for (int Off = WF / 2; Off > 0; Off /= 2) {
    KVP O{__shfl_xor(X.Key, Off), __shfl_xor(X.Value, Off)};
    if ((Lane ^ Off) < N)
      X = argMax(X, O);
  }
  OutV[Lane] = X.Value;
  OutI[Lane] = X.Key;
}

// Refused: each stage's test names another prefix (lane + 2 * offset).
extern "C" __global__ void wrong_off(const float *In, int N, float *OutV,
                                     int *OutI) {
  int Lane = threadIdx.x % WF;
  KVP X{Lane, In[Lane]};
  for (int Off = 1; Off < WF; Off *= 2) {
    KVP O{__shfl_down(X.Key, Off), __shfl_down(X.Value, Off)};
    if (Lane + 2 * Off < N)
      X = argMax(X, O);
  }
  if (Lane == 0) {
    OutV[0] = X.Value;
    OutI[0] = X.Key;
  }
}
