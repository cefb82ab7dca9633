// A combine gated by a condition computed before the butterfly, which the
// lanes' states do not decide: RAFT's fused L2 nearest-neighbour epilogue
// (`if (rid < m) redOp(&val, tmp)`, a row per segment of lanes, rows past
// the matrix inactive), or a flag (`if (!skip)`). Every stage is proven
// with the condition letting the combine run; the rewrite is guarded by the
// condition's doing so in every lane of the groups read (otherwise the
// original code runs: the last rows of the last block). A condition that
// opens some stages when true and others when false is refused.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=W64
// W64: recognised argmin f32/i32, ties: by lane order, {{.*}} over 16 lanes (lane maps, 4 stages on gfx942 wave64): {{.*}}every lane's combine runs (%{{[0-9]+}})
// W64: recognised argmax f32/i32, ties: smallest index, {{.*}} over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): {{.*}}every lane's combine runs ({{!?}}%{{[0-9]+}})
// W64: not replaced (NotAStage): the stages combine under opposite values of %{{[0-9]+}}
// W64-NOT: remark
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// Every row active (8 rows of 16 lanes in 2 blocks of 64), then the last
// rows inactive, then none; on the fast path where every row is active:
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=nearest_rows --mcpu=gfx942 --grid=2 --block=64 --sizes=1,5,16,33,300 --print=none --arg=buf:f32:16:input --arg=buf:f32:N*2:input --arg=buf:i32:8:zero --arg=buf:f32:8:zero --arg=i32:N --arg=i32:8 --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=nearest_rows --mcpu=gfx942 --grid=2 --block=64 --sizes=1,5,16,33,300 --print=none --arg=buf:f32:16:input --arg=buf:f32:N*2:input --arg=buf:i32:8:zero --arg=buf:f32:8:zero --arg=i32:N --arg=i32:5 --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=nearest_rows --mcpu=gfx942 --grid=2 --block=64 --sizes=7 --print=none --arg=buf:f32:16:input --arg=buf:f32:N*2:input --arg=buf:i32:8:zero --arg=buf:f32:8:zero --arg=i32:N --arg=i32:0 --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=nearest_rows --mcpu=gfx942 --grid=2 --block=64 --sizes=1,5,16,33,300 --print=none --arg=buf:f32:16:input --arg=buf:f32:N*2:input --arg=buf:i32:8:zero --arg=buf:f32:8:zero --arg=i32:N --arg=i32:8 --inputs=random --cases=4 | FileCheck %s --check-prefix=DIFF
// The flag per lane: all clear (fast path), random, all set.
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=skip_flag --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:zero --arg=buf:i32:N:zero --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=skip_flag --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:zero --inputs=random,ties --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=skip_flag --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:const=1 --arg=buf:i32:N:zero --inputs=random --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=opposite_flags --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:zero --inputs=random,ties --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=skip_flag --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:zero --arg=buf:i32:N:zero --inputs=random,ties,all-equal,pm-inf --cases=3 | FileCheck %s --check-prefix=DIFF
// Wave32 at -O1:
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O1 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32: recognised argmin f32/i32, {{.*}} over 16 lanes (lane maps, 4 stages on gfx1100 wave32)
// W32: recognised argmax f32/i32, {{.*}} over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32)
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=nearest_rows --mcpu=gfx1100 --grid=2 --block=64 --sizes=1,16,33 --print=none --arg=buf:f32:16:input --arg=buf:f32:N*2:input --arg=buf:i32:8:zero --arg=buf:f32:8:zero --arg=i32:N --arg=i32:6 --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=skip_flag --mcpu=gfx1100 --block=64 --sizes=64 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:zero --inputs=random,ties --cases=6 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <float.h>

struct Near {
  int Key;
  float Dist;
};

// Rows of 2-D points X against centroids C; SEG lanes per row, each over a
// stride of the centroids; `d < best` keeps the first centroid of a lane.
template <int SEG>
__device__ void nearest(const float *X, const float *C, int *OutKey,
                        float *OutDist, int NC, int M) {
  int Gid = blockIdx.x * blockDim.x + threadIdx.x;
  int Row = Gid / SEG, Col = Gid % SEG;
  bool Active = Row < M;
  Near Best{-1, FLT_MAX};
  if (Active) {
    float X0 = X[2 * Row], X1 = X[2 * Row + 1];
    for (int J = Col; J < NC; J += SEG) {
      float A = X0 - C[2 * J], B = X1 - C[2 * J + 1];
      float D = A * A + B * B;
      if (D < Best.Dist)
        Best = Near{J, D};
    }
  }
  int Lane = __lane_id();
  for (int Off = SEG / 2; Off > 0; Off /= 2) {
    // CUDA's width semantics: the source lane wraps within the segment.
    int Src = (Lane & ~(SEG - 1)) | ((Lane + Off) & (SEG - 1));
    Near O{__shfl(Best.Key, Src), __shfl(Best.Dist, Src)};
    if (Active && O.Dist < Best.Dist)
      Best = O;
  }
  if (Active && Col == 0) {
    OutKey[Row] = Best.Key;
    OutDist[Row] = Best.Dist;
  }
}
extern "C" __global__ void nearest_rows(const float *X, const float *C,
                                        int *OutKey, float *OutDist, int NC,
                                        int M) {
  nearest<16>(X, C, OutKey, OutDist, NC, M);
}

// A per-lane flag read before the butterfly: set lanes skip every combine.
extern "C" __global__ void skip_flag(const float *X, const int *Skip,
                                     int *Out) {
  int T = threadIdx.x;
  float V = X[T];
  int I = T;
  bool S = Skip[T] != 0;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    if (S)
      continue;
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  Out[T] = I;
}

// The first stages combine where the flag is set, the last where it is
// clear: no lane set of one value lets every stage run.
__device__ void stage(float &V, int &I, int M, bool Open) {
  float OV = __shfl_xor(V, M);
  int OI = __shfl_xor(I, M);
  if (Open && (OV > V || (OV == V && OI < I))) {
    V = OV;
    I = OI;
  }
}
extern "C" __global__ void opposite_flags(const float *X, const int *Flag,
                                          int *Out) {
  int T = threadIdx.x;
  float V = X[T];
  int I = T;
  bool F = Flag[T] != 0;
  stage(V, I, 8, F);
  stage(V, I, 4, F);
  stage(V, I, 2, !F);
  stage(V, I, 1, !F);
  Out[T] = I;
}
