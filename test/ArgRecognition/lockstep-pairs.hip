// Several (value, index) pairs reduced in lock step, each exchanged right
// before its own combine: `for m: for k: o = shfl(v[k], m); if (...) v[k] =
// o;` with K unrolled. The exchanges of pair k+1 sit between pair k's
// stages, so neither chain is a region without the other: the chains are
// grouped (the later one starts inside the earlier one, and its words are
// available at the earlier one's first exchange), planned apart and
// replaced behind one guard. The arrays become <2 x float>/<2 x i32>
// vectors that each `if` rebuilds (insertelement + phi); rebuilt as
// scalars, an element that passes through another pair's `if` unchanged is
// that element, not a phi or select on the other pair's compare. A pair
// whose tie-break reads another pair's index is refused. Also: (double,
// int64) arrays, whose index high words are elements of a <4 x i32>
// bitcast, and a <3 x float> state at -O1.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=W64
// W64-COUNT-2: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time ({{.*}}and the same for the 1 other reduction(s) in its region
// W64: recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmin_f32_i32, guarded at run time ({{.*}}and the same for the 2 other reduction(s) in its region
// W64-COUNT-2: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64){{.*}}and the same for the 2 other reduction(s) in its region
// W64-COUNT-2: recognised argmax f32/i32, ties: by lane order, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64){{.*}}no other index holds the winning value{{.*}}and the same for the 1 other reduction(s) in its region
// W64: not replaced (NotAStage): the combine reads {{.*}}, which is neither the lane's state nor its partner's
// W64: not replaced (NaNOrderDependsOnLanes): {{.*}}a run-time guard is not possible: a value the chain's code computes is used after it
// W64-COUNT-2: recognised argmax f64/i64, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64){{.*}}and the same for the 1 other reduction(s) in its region
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O1 -S -emit-llvm %s -o %t/o1.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/o1.ll -o %t/o1.x.ll 2>&1 | FileCheck %s --check-prefix=O1
// O1: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 8 lanes (xor butterfly, 3 stages on gfx942 wave64)
// RUN: %crosslane-run %t/o1.ll --diff=%t/o1.x.ll --kernel=vec3_state --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N*3:input --arg=buf:f32:N:zero --arg=buf:i32:N:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=cols_f64_i64 --mcpu=gfx942 --block=128 --sizes=1,7,64,100,1000 --print=none --arg=buf:f64:N*2:input --arg=i32:N --arg=buf:f64:2:zero --arg=buf:i64:2:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-7: recognised {{.*}} over 32 lanes {{.*}}other reduction(s) in its region
// W32: not replaced (NotAStage)
// W32-COUNT-2: recognised argmax f64/i64, {{.*}} over 32 lanes {{.*}}other reduction(s) in its region
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=cols_tiebreak --mcpu=gfx942 --block=64 --sizes=1,7,64,100,1000 --print=none --arg=buf:f32:N*2:input --arg=i32:N --arg=buf:f32:2:zero --arg=buf:i32:2:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=cols_down --mcpu=gfx942 --block=96 --sizes=1,7,64,100,1000 --print=none --arg=buf:f32:N*3:input --arg=i32:N --arg=buf:f32:6:zero --arg=buf:i32:6:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=cols_notie --mcpu=gfx942 --block=128 --sizes=1,7,64,100,1000 --print=none --arg=buf:f32:N*2:input --arg=i32:N --arg=buf:f32:4:zero --arg=buf:i32:4:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=cols_dependent --mcpu=gfx942 --block=64 --sizes=7,64,100 --print=none --arg=buf:f32:N*2:input --arg=i32:N --arg=buf:f32:2:zero --arg=buf:i32:2:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=cols_tiebreak --mcpu=gfx1100 --block=32 --sizes=1,7,32,100,1000 --print=none --arg=buf:f32:N*2:input --arg=i32:N --arg=buf:f32:2:zero --arg=buf:i32:2:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=cols_down --mcpu=gfx1100 --block=48 --sizes=1,7,32,100,1000 --print=none --arg=buf:f32:N*3:input --arg=i32:N --arg=buf:f32:6:zero --arg=buf:i32:6:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=cols_notie --mcpu=gfx1100 --block=64 --sizes=1,7,32,100,1000 --print=none --arg=buf:f32:N*2:input --arg=i32:N --arg=buf:f32:4:zero --arg=buf:i32:4:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// Fast path: with the fallbacks sent to a trap, full waves of distinct
// values never trap.
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=cols_tiebreak --mcpu=gfx942 --block=64 --sizes=1,7,64,100,1000 --print=none --arg=buf:f32:N*2:input --arg=i32:N --arg=buf:f32:2:zero --arg=buf:i32:2:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=cols_down --mcpu=gfx942 --block=128 --sizes=64,100,1000 --print=none --arg=buf:f32:N*3:input --arg=i32:N --arg=buf:f32:6:zero --arg=buf:i32:6:zero --inputs=random,ties,all-equal --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=cols_notie --mcpu=gfx942 --block=128 --sizes=64,100,1000 --print=none --arg=buf:f32:N*2:input --arg=i32:N --arg=buf:f32:4:zero --arg=buf:i32:4:zero --inputs=random --cases=3 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <math.h>

// Column-wise argmax of an n x 2 matrix in one wave: a strided scan, then
// an xor butterfly with an index tie-break per column.
extern "C" __global__ void cols_tiebreak(const float *x, int n, float *ov,
                                         int *oi) {
  float v[2];
  int id[2];
  for (int k = 0; k < 2; ++k) {
    v[k] = -INFINITY;
    id[k] = -1;
  }
  for (int i = threadIdx.x; i < n; i += warpSize)
    for (int k = 0; k < 2; ++k) {
      float e = x[i * 2 + k];
      if (e > v[k]) {
        v[k] = e;
        id[k] = i;
      }
    }
  for (int m = warpSize / 2; m > 0; m /= 2)
    for (int k = 0; k < 2; ++k) {
      float o = __shfl_xor(v[k], m);
      int oid = __shfl_xor(id[k], m);
      if (o > v[k] || (o == v[k] && oid < id[k])) {
        v[k] = o;
        id[k] = oid;
      }
    }
  if (threadIdx.x == 0)
    for (int k = 0; k < 2; ++k) {
      ov[k] = v[k];
      oi[k] = id[k];
    }
}

struct Pair {
  float V;
  int I;
};

// Three columns per wave of a block: the first by argmin, the others by
// argmax, on a shfl_down ladder read in each wave's lane 0.
extern "C" __global__ void cols_down(const float *x, int n, float *ov,
                                     int *oi) {
  Pair a[3];
  for (int k = 0; k < 3; ++k)
    a[k] = {k == 0 ? INFINITY : -INFINITY, -1};
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    for (int k = 0; k < 3; ++k) {
      float e = x[i * 3 + k];
      if (k == 0 ? e < a[k].V : e > a[k].V)
        a[k] = {e, i};
    }
  for (int Off = warpSize / 2; Off > 0; Off >>= 1)
    for (int k = 0; k < 3; ++k) {
      float o = __shfl_down(a[k].V, Off);
      int oid = __shfl_down(a[k].I, Off);
      bool Better = k == 0 ? o < a[k].V : o > a[k].V;
      if (Better || (o == a[k].V && oid < a[k].I))
        a[k] = {o, oid};
    }
  if (threadIdx.x % warpSize == 0 && threadIdx.x / warpSize < 2)
    for (int k = 0; k < 3; ++k) {
      ov[threadIdx.x / warpSize * 3 + k] = a[k].V;
      oi[threadIdx.x / warpSize * 3 + k] = a[k].I;
    }
}

// No index tie-break: ties go by lane order (guarded: no other index holds
// the winning value).
extern "C" __global__ void cols_notie(const float *x, int n, float *ov,
                                      int *oi) {
  float v[2];
  int id[2];
  for (int k = 0; k < 2; ++k) {
    v[k] = -INFINITY;
    id[k] = 0;
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    for (int k = 0; k < 2; ++k) {
      float e = x[i * 2 + k];
      if (e > v[k]) {
        v[k] = e;
        id[k] = i;
      }
    }
  for (int m = 1; m < warpSize; m <<= 1)
    for (int k = 0; k < 2; ++k) {
      float o = __shfl_xor(v[k], m);
      int oid = __shfl_xor(id[k], m);
      if (o > v[k]) {
        v[k] = o;
        id[k] = oid;
      }
    }
  if (threadIdx.x % warpSize == 0 && threadIdx.x / warpSize < 2)
    for (int k = 0; k < 2; ++k) {
      ov[threadIdx.x / warpSize * 2 + k] = v[k];
      oi[threadIdx.x / warpSize * 2 + k] = id[k];
    }
}

// Lock step, but the second column's tie-break reads the first column's
// index: refused (the first column's region would hold the second's code).
extern "C" __global__ void cols_dependent(const float *x, int n, float *ov,
                                          int *oi) {
  float v0 = -INFINITY, v1 = -INFINITY;
  int i0 = -1, i1 = -1;
  for (int i = threadIdx.x; i < n; i += warpSize) {
    float e0 = x[i * 2], e1 = x[i * 2 + 1];
    if (e0 > v0) {
      v0 = e0;
      i0 = i;
    }
    if (e1 > v1) {
      v1 = e1;
      i1 = i;
    }
  }
  for (int m = warpSize / 2; m > 0; m /= 2) {
    float o = __shfl_xor(v0, m);
    int oid = __shfl_xor(i0, m);
    int Old0 = i0;
    if (o > v0 || (o == v0 && oid < i0)) {
      v0 = o;
      i0 = oid;
    }
    o = __shfl_xor(v1, m);
    oid = __shfl_xor(i1, m);
    if (o > v1 || (o == v1 && oid < Old0)) {
      v1 = o;
      i1 = oid;
    }
  }
  if (threadIdx.x == 0) {
    ov[0] = v0;
    oi[0] = i0;
    ov[1] = v1;
    oi[1] = i1;
  }
}

// An array of (double, int64) pairs: the SLP vectorizer keeps the indices
// as <2 x i64> and exchanges their high words as elements of a <4 x i32>
// bitcast of it; rebuilt as the high word of the element.
extern "C" __global__ void cols_f64_i64(const double *x, int n, double *ov,
                                        long long *oi) {
  double v[2];
  long long id[2];
  for (int k = 0; k < 2; ++k) {
    v[k] = -INFINITY;
    id[k] = -1;
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    for (int k = 0; k < 2; ++k) {
      double e = x[i * 2 + k];
      if (e > v[k]) {
        v[k] = e;
        id[k] = i;
      }
    }
  for (int m = warpSize / 2; m > 0; m /= 2)
    for (int k = 0; k < 2; ++k) {
      double o = __shfl_xor(v[k], m);
      long long oid = __shfl_xor(id[k], m);
      if (o > v[k] || (o == v[k] && oid < id[k])) {
        v[k] = o;
        id[k] = oid;
      }
    }
  if (threadIdx.x == 0)
    for (int k = 0; k < 2; ++k) {
      ov[k] = v[k];
      oi[k] = id[k];
    }
}

// At -O1 the array stays a <3 x float> filled with a variable index, and
// the ladder's phis pass its other elements through unchanged: a rebuilt
// element folded into the value it merges must be the one every other
// element built from it reads (this crashed opt before).
extern "C" __global__ void vec3_state(const float *x, float *ov, int *oi) {
  float v[3];
  int id[3];
  for (int k = 0; k < 3; ++k) {
    v[k] = x[threadIdx.x * 3 + k];
    id[k] = threadIdx.x;
  }
  for (int m = 1; m < 8; m *= 2) {
    float o = __shfl_xor(v[0], m);
    int oid = __shfl_xor(id[0], m);
    if (o > v[0] || (o == v[0] && oid < id[0])) {
      v[0] = o;
      id[0] = oid;
    }
  }
  ov[threadIdx.x] = v[0] + v[1];
  oi[threadIdx.x] = id[0] + id[1];
}
