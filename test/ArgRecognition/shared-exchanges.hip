// One set of exchanges carrying several (value, index) pairs: OpenCV
// minMaxLoc's min and max with their locations on one shfl_down ladder,
// two columns reduced in one xor butterfly, PyTorch's Reduce.cuh with
// output_vec_size = 2 (an array of pairs, one shfl_down per pair),
// an exact integer argmin beside a guarded float argmax. Each pair's words
// feed only its own combine (the `if`s decide only their own phis), so the
// stage splits into one stage per pair; every pair is proven on its own,
// and those that need a run-time guard share one guard (the conjunction)
// around one region, since each one's code lies inside the others'. A pair
// whose tie-break reads the other pair's index is one state of four words:
// refused.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=W64
// W64: recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmin_f32_i32, guarded at run time ({{.*}}and the same for the 1 other reduction(s) in its region; otherwise the original code runs)
// W64: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time ({{.*}}and the same for the 1 other reduction(s)
// W64-COUNT-2: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64){{.*}}and the same for the 1 other reduction(s)
// The integer pair's state, packed by the SLP vectorizer into a <2 x i32>
// chosen by one select, is rebuilt as scalars (VectorState).
// W64: recognised argmin i32/i32, ties: smallest index over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmin_i32_i32, guarded at run time (every lane of the 64-lane group is active, and the same for the 1 other reduction(s)
// W64: recognised argmax f32/i32, {{.*}}and the same for the 1 other reduction(s)
// W64: recognised argmin i32/i32, ties: smallest index over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_argmin_i32_i32{{$}}
// W64: recognised argmax f32/i32, {{.*}} guarded at run time (no value is NaN, lanes holding the winning index hold its value's bits; otherwise the original code runs)
// W64: not replaced (UnsupportedState): the lanes exchange more than a value and an index
// W64-COUNT-2: recognised argmax f32/i64, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64){{.*}}and the same for the 1 other reduction(s)
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-4: recognised {{.*}}and the same for the 1 other reduction(s)
// W32: recognised argmin i32/i32, ties: smallest index over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32): replaced by __crosslane_argmin_i32_i32, guarded at run time (every lane of the 32-lane group is active, and the same for the 1 other reduction(s)
// W32: recognised argmax f32/i32, {{.*}}and the same for the 1 other reduction(s)
// W32: recognised argmin i32/i32, ties: smallest index over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32): replaced by __crosslane_argmin_i32_i32{{$}}
// W32: recognised argmax f32/i32, {{.*}} guarded at run time (no value is NaN, lanes holding the winning index hold its value's bits; otherwise the original code runs)
// W32: not replaced (UnsupportedState): the lanes exchange more than a value and an index
// W32-COUNT-2: recognised argmax f32/i64, ties: smallest index, NaN ignored, -0 == +0 over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32){{.*}}and the same for the 1 other reduction(s)
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=minmaxloc_down --mcpu=gfx942 --block=64 --sizes=1,7,64,100,1000 --print=none --arg=buf:f32:N:input --arg=i32:N --arg=buf:f32:2:zero --arg=buf:i32:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_two_columns --mcpu=gfx942 --block=N --sizes=64,40,1 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:N*2:zero --arg=buf:i32:N*2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=int_and_float --mcpu=gfx942 --block=N --sizes=64,40,1 --print=none --arg=buf:i32:N:input --arg=buf:f32:N:input --arg=buf:i32:N*4:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=int_and_float_full --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:i32:N:input --arg=buf:f32:N:input --arg=buf:i32:N*4:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=dependent_pairs --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:f32:N:input --arg=buf:i32:N*2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=torch_vec2 --mcpu=gfx942 --block=N --sizes=64,40,1 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:2:zero --arg=buf:i64:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=minmaxloc_down --mcpu=gfx1100 --block=32 --sizes=1,7,32,100,1000 --print=none --arg=buf:f32:N:input --arg=i32:N --arg=buf:f32:2:zero --arg=buf:i32:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmax_two_columns --mcpu=gfx1100 --block=N --sizes=32,40,1 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:N*2:zero --arg=buf:i32:N*2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=int_and_float --mcpu=gfx1100 --block=N --sizes=32,40,1 --print=none --arg=buf:i32:N:input --arg=buf:f32:N:input --arg=buf:i32:N*4:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=int_and_float_full --mcpu=gfx1100 --block=64 --sizes=64 --print=none --arg=buf:i32:N:input --arg=buf:f32:N:input --arg=buf:i32:N*4:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=dependent_pairs --mcpu=gfx1100 --block=N --sizes=32,40 --print=none --arg=buf:f32:N:input --arg=buf:i32:N*2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=torch_vec2 --mcpu=gfx1100 --block=N --sizes=32,40,1 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:2:zero --arg=buf:i64:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// Fast path: with the fallback sent to a trap, full waves of NaN-free
// values never trap (minmaxloc's scan keeps NaN out: every input class).
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=int_and_float_full --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:i32:N:input --arg=buf:f32:N:input --arg=buf:i32:N*4:zero --inputs=random,ties,all-equal,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w32.ll -o %t/w32.trap.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.trap.ll --kernel=minmaxloc_down --mcpu=gfx1100 --block=32 --sizes=1,7,32,100,1000 --print=none --arg=buf:f32:N:input --arg=i32:N --arg=buf:f32:2:zero --arg=buf:i32:2:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.trap.ll --kernel=argmax_two_columns --mcpu=gfx1100 --block=32 --sizes=32 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:N*2:zero --arg=buf:i32:N*2:zero --inputs=random,ties,all-equal,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.trap.ll --kernel=int_and_float --mcpu=gfx1100 --block=32 --sizes=32 --print=none --arg=buf:i32:N:input --arg=buf:f32:N:input --arg=buf:i32:N*4:zero --inputs=random,ties,all-equal,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.trap.ll --kernel=int_and_float_full --mcpu=gfx1100 --block=64 --sizes=64 --print=none --arg=buf:i32:N:input --arg=buf:f32:N:input --arg=buf:i32:N*4:zero --inputs=random,ties,all-equal,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.trap.ll --kernel=torch_vec2 --mcpu=gfx1100 --block=32 --sizes=32 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:2:zero --arg=buf:i64:2:zero --inputs=random,ties,all-equal,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <math.h>

// OpenCV minMaxLoc style: a strided scan, then one shfl_down ladder that
// carries the min and the max with their locations; lane 0 writes both.
extern "C" __global__ void minmaxloc_down(const float *x, int n, float *val,
                                          int *loc) {
  float mn = INFINITY, mx = -INFINITY;
  int imn = 0x7fffffff, imx = 0x7fffffff;
  for (int i = threadIdx.x; i < n; i += 64) {
    float v = x[i];
    if (v < mn) { mn = v; imn = i; }
    if (v > mx) { mx = v; imx = i; }
  }
  for (int off = 32; off > 0; off >>= 1) {
    float omn = __shfl_down(mn, off);
    int oimn = __shfl_down(imn, off);
    float omx = __shfl_down(mx, off);
    int oimx = __shfl_down(imx, off);
    if (omn < mn || (omn == mn && oimn < imn)) { mn = omn; imn = oimn; }
    if (omx > mx || (omx == mx && oimx < imx)) { mx = omx; imx = oimx; }
  }
  if (threadIdx.x == 0) {
    val[0] = mn; val[1] = mx; loc[0] = imn; loc[1] = imx;
  }
}
// Two columns reduced in one xor butterfly (PyTorch output_vec_size = 2):
// results in every lane.
extern "C" __global__ void argmax_two_columns(const float *x, float *val,
                                              int *loc) {
  int t = threadIdx.x;
  float v0 = x[2 * t], v1 = x[2 * t + 1];
  int i0 = t, i1 = t;
  for (int m = 1; m < warpSize; m <<= 1) {
    float o0 = __shfl_xor(v0, m), o1 = __shfl_xor(v1, m);
    int j0 = __shfl_xor(i0, m), j1 = __shfl_xor(i1, m);
    if (o0 > v0 || (o0 == v0 && j0 < i0)) { v0 = o0; i0 = j0; }
    if (o1 > v1 || (o1 == v1 && j1 < i1)) { v1 = o1; i1 = j1; }
  }
  val[2 * t] = v0; val[2 * t + 1] = v1;
  loc[2 * t] = i0; loc[2 * t + 1] = i1;
}
// An integer argmin beside a float argmax. Where the kernel provably runs
// full waves (a fixed block of 64), the integer argmin needs no guard and
// is replaced in place; the float argmax keeps its guard.
__device__ __forceinline__ void intAndFloat(const int *a, const float *b,
                                            int *out) {
  int t = threadIdx.x;
  int va = a[t], ia = t;
  float vb = b[t];
  int ib = t;
  for (int m = warpSize / 2; m > 0; m >>= 1) {
    int oa = __shfl_xor(va, m), ja = __shfl_xor(ia, m);
    float ob = __shfl_xor(vb, m);
    int jb = __shfl_xor(ib, m);
    if (oa < va || (oa == va && ja < ia)) { va = oa; ia = ja; }
    if (ob > vb || (ob == vb && jb < ib)) { vb = ob; ib = jb; }
  }
  out[4 * t] = va;
  out[4 * t + 1] = ia;
  out[4 * t + 2] = __float_as_int(vb);
  out[4 * t + 3] = ib;
}
extern "C" __global__ void int_and_float(const int *a, const float *b,
                                         int *out) {
  intAndFloat(a, b, out);
}
extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(64, 64)))
void int_and_float_full(const int *a, const float *b, int *out) {
  intAndFloat(a, b, out);
}
// Dependent: the second pair breaks ties with the first pair's index.
extern "C" __global__ void dependent_pairs(const float *x, int *out) {
  int t = threadIdx.x;
  float v0 = x[t], v1 = -x[t];
  int i0 = t, i1 = t;
  for (int m = warpSize / 2; m > 0; m >>= 1) {
    float o0 = __shfl_xor(v0, m), o1 = __shfl_xor(v1, m);
    int j0 = __shfl_xor(i0, m), j1 = __shfl_xor(i1, m);
    if (o0 > v0 || (o0 == v0 && j0 < i0)) { v0 = o0; i0 = j0; }
    if (o1 > v1 || (o1 == v1 && j1 < i0)) { v1 = o1; i1 = j1; }
  }
  out[2 * t] = i0; out[2 * t + 1] = i1;
}

// PyTorch's Reduce.cuh with output_vec_size = 2: an array of (value, int64
// index) pairs, each combined by a ternary on the whole pair, one
// shfl_down stage per offset. The SLP vectorizer packs the two pairs'
// equality compares into one `fcmp <2 x float>` (rebuilt as scalars), the
// values are loaded as one `<2 x float>` after the first pair's index
// exchanges (the load moves above them), and the index's low word is cut
// from the `int` before it was widened.
struct Pair {
  float first;
  long long second;
};
__device__ __forceinline__ Pair combinePair(Pair a, Pair b) {
  return (a.first > b.first || (a.first == b.first && a.second < b.second))
             ? a
             : b;
}
extern "C" __global__ void torch_vec2(const float *x, float *outv,
                                      long long *outi) {
  Pair value[2];
  int t = threadIdx.x;
  for (int i = 0; i < 2; i++) {
    value[i].first = x[2 * t + i];
    value[i].second = t;
  }
  for (int offset = 1; offset < warpSize; offset <<= 1)
    for (int i = 0; i < 2; i++) {
      Pair other;
      other.first = __shfl_down(value[i].first, offset);
      other.second = __shfl_down(value[i].second, offset);
      value[i] = combinePair(value[i], other);
    }
  if (t == 0)
    for (int i = 0; i < 2; i++) {
      outv[i] = value[i].first;
      outi[i] = value[i].second;
    }
}
