// Indices proven to be -1 or not negative. The chain's input index is a
// scan's `idx = -1; ... idx = i` with `i = threadIdx.x; i += warpSize`
// (an induction over the loop's phis, docs/ArgRecognition.md "Index
// ranges"); every stage is a selection, so the proof only needs index
// representatives in that range. There a sign test is a sentinel test:
// `index < 0` means "no element" as `index == -1` does (Caffe's ArgMax
// style, was NotATotalOrder). Indices loaded from memory, or starting at
// -2, have no such bound: they are proven for indices of -1 or more and
// replaced behind a run-time guard that no lane's index is below -1 (every
// state is one of the inputs); a wave with a lower index runs the original
// code.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9: index-range.hip:[[@LINE+41]]:{{.*}} recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9: index-range.hip:[[@LINE+67]]:{{.*}} recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// G9: index-range.hip:[[@LINE+84]]:{{.*}} recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): {{.*}}, no index is below -1,
// G9: index-range.hip:[[@LINE+104]]:{{.*}} recognised argmax f32/i32, {{.*}}, no index is below -1,
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=sign_none --grid=3 --block=64 --sizes=0,1,5,64,65,200 --arg=buf:f32:N*3:input --arg=buf:f32:6:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=sign_none_ladder --grid=2 --block=N --sizes=64,128,256 --arg=buf:f32:2400:input --arg=buf:i32:8:zero --arg=i32:300 --print=none --inputs=all | FileCheck %s --check-prefix=DIFF
// The fast path, also with lanes that hold no element (5 elements per row):
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=sign_none --grid=3 --block=64 --sizes=5,64,200 --arg=buf:f32:N*3:input --arg=buf:f32:6:zero --arg=i32:N --print=none --inputs=random,ties,all-equal,pm-zero,pm-inf,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=sign_none_ladder --grid=2 --block=64 --sizes=3,64,300 --arg=buf:f32:N*2:input --arg=buf:i32:2:zero --arg=i32:N --print=none --inputs=random,ties,all-equal,pm-zero,pm-inf,neg-max | FileCheck %s --check-prefix=DIFF
// Indices from memory: random ones (many below -1) take the original code,
// an iota the fast path (it never traps).
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=sign_none_loaded --block=64 --sizes=64 --arg=buf:f32:N:input --arg=buf:i32:N:random --arg=buf:i32:N:zero --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=sign_none_loaded --block=64 --sizes=64 --arg=buf:f32:N:input --arg=buf:i32:N:gen=lanes --arg=buf:i32:N:zero --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=sign_none_loaded --block=64 --sizes=64 --arg=buf:f32:N:input --arg=buf:i32:N:iota --arg=buf:i32:N:zero --print=none --inputs=random,ties,all-equal,pm-inf --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: not %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=sign_none_loaded --block=64 --sizes=64 --arg=buf:f32:N:input --arg=buf:i32:N:random --arg=buf:i32:N:zero --print=none --inputs=random 2>&1 | FileCheck %s --check-prefix=TRAP
// TRAP: the kernel trapped (llvm.trap)
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=sign_none_minus2 --block=64 --sizes=1,5,64,100 --arg=buf:f32:N:input --arg=buf:i32:64:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11: recognised argmax f32/i32, {{.*}}, index -1 = no element over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32)
// G11: recognised argmin f32/i32, {{.*}}, index -1 = no element over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32)
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=sign_none --grid=3 --block=32 --sizes=0,1,5,32,33,200 --arg=buf:f32:N*3:input --arg=buf:f32:6:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

// One row per block, the first wave's lanes scan it; (index, value) stored
// as floats by lane 0 (Caffe's top blob).
extern "C" __global__ void sign_none(const float *In, float *Top, int Cols) {
  const float *X = In + (size_t)blockIdx.x * Cols;
  float Best = -__FLT_MAX__;
  int Bi = -1;
  for (int C = threadIdx.x; C < Cols; C += warpSize) {
    float V = X[C];
    if (Bi < 0 || V > Best) {
      Best = V;
      Bi = C;
    }
  }
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float Ov = __shfl_xor(Best, Off);
    int Oi = __shfl_xor(Bi, Off);
    if (Oi >= 0 && (Bi < 0 || Ov > Best || (Ov == Best && Oi < Bi))) {
      Best = Ov;
      Bi = Oi;
    }
  }
  if (threadIdx.x == 0) {
    Top[2 * blockIdx.x] = (float)Bi;
    Top[2 * blockIdx.x + 1] = Best;
  }
}

// An argmin ladder read in lane 0, one row per wave. (With a blockDim.x
// stride, `i += blockDim.x` is an unsigned add without nsw: it may wrap to
// a negative index, so there is no bound and the chain stays refused.)
extern "C" __global__ void sign_none_ladder(const float *In, int *Out, int N) {
  const int Row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  const float *X = In + (size_t)Row * N;
  float Best = __builtin_inff();
  int Bi = -1;
  for (int C = __lane_id(); C < N; C += warpSize)
    if (X[C] < Best) {
      Best = X[C];
      Bi = C;
    }
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float Ov = __shfl_down(Best, Off);
    int Oi = __shfl_down(Bi, Off);
    if (Oi >= 0 && (Bi < 0 || Ov < Best || (Ov == Best && Oi < Bi))) {
      Best = Ov;
      Bi = Oi;
    }
  }
  if (__lane_id() == 0)
    Out[Row] = Bi;
}

// The indices come from memory, where any negative one is "none": guarded
// (no index below -1).
extern "C" __global__ void sign_none_loaded(const float *In, const int *Ix,
                                            int *Out) {
  float Best = In[threadIdx.x];
  int Bi = Ix[threadIdx.x];
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float Ov = __shfl_xor(Best, Off);
    int Oi = __shfl_xor(Bi, Off);
    if (Oi >= 0 && (Bi < 0 || Ov > Best || (Ov == Best && Oi < Bi))) {
      Best = Ov;
      Bi = Oi;
    }
  }
  Out[threadIdx.x] = Bi;
}

// "none" starts as -2: guarded like the loaded indices (a wave with a lane
// that saw nothing runs the original code).
extern "C" __global__ void sign_none_minus2(const float *In, int *Out, int N) {
  float Best = -__FLT_MAX__;
  int Bi = -2;
  for (int C = threadIdx.x; C < N; C += warpSize)
    if (Bi < 0 || In[C] > Best) {
      Best = In[C];
      Bi = C;
    }
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    float Ov = __shfl_xor(Best, Off);
    int Oi = __shfl_xor(Bi, Off);
    if (Oi >= 0 && (Bi < 0 || Ov > Best || (Ov == Best && Oi < Bi))) {
      Best = Ov;
      Bi = Oi;
    }
  }
  Out[threadIdx.x] = Bi;
}
