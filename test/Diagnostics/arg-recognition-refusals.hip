// The recogniser's refusal reasons not exercised elsewhere: each chain it
// does not replace gets one missed remark at the first exchange, naming the
// reason and why (kernels below, one reason each); a ladder loop's copies
// for fewer lanes are analysis remarks of their own (RecognizedCopy).
// REQUIRES: hip-headers
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/a.ll
// RUN: sed 's/syncscope("singlethread")/syncscope("workgroup")/' %t/a.ll > %t/wg.ll
// RUN: opt %loadcrosslane -passes=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -disable-output %t/wg.ll 2>&1 | FileCheck %s
// CHECK: remark: {{.*}}arg-recognition-refusals.hip:42:40: cross-lane butterfly not replaced (ValueBitsDependOnLanes): recognised argmin f64/i32, ties: smallest index, NaN ignored, -0 == +0, but its value result is read, its bits depend on the lane order for -0/+0 at one index and NaN payloads, and a run-time guard is not possible: the chain's code has side effects
// CHECK: remark: {{.*}}arg-recognition-refusals.hip:42:40: cross-lane butterfly not replaced (MayReadInactiveLanes): recognised argmin f64/i32, ties: smallest index, NaN ignored, -0 == +0, but lanes of a group may be inactive here (a ds_bpermute from an inactive lane reads 0, which the original combines), and a run-time guard is not possible: the chain's code has side effects
// CHECK: remark: {{.*}}arg-recognition-refusals.hip:116:3: cross-lane butterfly not replaced (NoGuardRegion): recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over the lanes of a valid prefix, but the run-time check that no lane past it wins is not possible: the chain's code has side effects
// CHECK: remark: {{.*}}arg-recognition-refusals.hip:128:15: cross-lane butterfly not replaced (DivergentStage): a stage is not executed by the lanes of the previous one
// CHECK: remark: {{.*}}arg-recognition-refusals.hip:148:15: cross-lane butterfly not replaced (NotASelection): the outputs take the value and the index from different lanes
// CHECK: remark: {{.*}}arg-recognition-refusals.hip:165:18: cross-lane butterfly not replaced (UnsupportedLaneMap): the linear thread id the lane map is computed from is computed after the first exchange, where the run-time check that it names the lane must run
// CHECK: remark: {{.*}}arg-recognition-refusals.hip:177:43: cross-lane butterfly not replaced (UnsupportedType): a value type other than i32, i64, f16 and f32
// Every span of lanes of halving_max's loop: the copies for fewer lanes
// than the wave are RecognizedCopy analysis remarks.
// RUN: opt %loadcrosslane -passes=crosslane-recognize-arg -crosslane-ladder-spans=6 -pass-remarks-analysis=crosslane-recognize-arg -pass-remarks-output=%t/copies.yaml -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=COPY
// COPY: remark: {{.*}}arg-recognition-refusals.hip:190:16: recognised smax i32 over 32 lanes (xor butterfly, 5 stages on gfx942 wave64): replaced by __crosslane_reduce_smax_i32
// RUN: FileCheck %s --check-prefix=YAML < %t/copies.yaml
// YAML: --- !Analysis
// YAML-NEXT: Pass: crosslane-recognize-arg
// YAML-NEXT: Name: RecognizedCopy
// YAML-NEXT: DebugLoc: { File: '{{.*}}arg-recognition-refusals.hip',{{ *}}
// YAML-NEXT: Line: 190, Column: 16 }
// YAML-NEXT: Function: halving_max

#include <hip/hip_runtime.h>

// Kokkos moves 16-byte values as four int shuffles and a signal fence
// (test/ArgRecognition/signal-fence.hip); the RUN lines turn the fences
// into workgroup fences, which a guarded region may not contain.
struct ValLoc {
  double Val;
  int Loc;
};

__device__ inline ValLoc shuffleDown(const ValLoc &In, int Delta) {
  ValLoc Out = {};
  for (int K = 0; K < 4; ++K)
    reinterpret_cast<int *>(&Out)[K] = __shfl_down(
        reinterpret_cast<const int *>(&In)[K], Delta, warpSize);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  return Out;
}

// A total order (NaN ignored, ties to the smaller index).
#define BETTER(T, V)                                                           \
  ((T.Val == T.Val && (V.Val != V.Val || T.Val < V.Val)) ||                    \
   (T.Val == V.Val && T.Loc < V.Loc) ||                                        \
   (T.Val != T.Val && V.Val != V.Val && T.Loc < V.Loc))

// The value result is read: its bits at one index (-0/+0, NaN payloads)
// depend on the lane order, which only a guard could rule out.
extern "C" __global__ void value_bits(const double *X, int *Loc, int) {
  ValLoc V{X[threadIdx.x], (int)threadIdx.x};
  for (int S = 1; S < warpSize; S *= 2) {
    ValLoc T = shuffleDown(V, S);
    if (BETTER(T, V))
      V = T;
  }
  ValLoc B = {};
  for (int K = 0; K < 4; ++K)
    reinterpret_cast<int *>(&B)[K] =
        __shfl(reinterpret_cast<const int *>(&V)[K], 0, warpSize);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (threadIdx.x % warpSize == 0) {
    Loc[threadIdx.x / warpSize] = B.Loc;
    Loc[1] = (int)B.Val;
  }
}

// Indices from memory in a block that may hold a partial wave: a lane of a
// group may be inactive, which only a guard could rule out.
extern "C" __global__ void inactive(const double *X, int *Loc, const int *I) {
  ValLoc V{X[threadIdx.x], I[threadIdx.x]};
  for (int S = 1; S < warpSize; S *= 2) {
    ValLoc T = shuffleDown(V, S);
    if (BETTER(T, V))
      V = T;
  }
  ValLoc B = {};
  for (int K = 0; K < 4; ++K)
    reinterpret_cast<int *>(&B)[K] =
        __shfl(reinterpret_cast<const int *>(&V)[K], 0, warpSize);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (threadIdx.x % warpSize == 0)
    Loc[threadIdx.x / warpSize] = B.Loc;
}

// CUB's partial-warp reduce over a valid prefix, a fence in every stage.
struct KVP {
  int Key;
  float Value;
};

__device__ KVP argMax(KVP A, KVP B) {
  if (B.Value > A.Value || (B.Value == A.Value && B.Key < A.Key))
    return B;
  return A;
}

#define STAGE(OFF)                                                             \
  {                                                                            \
    KVP O{__shfl_down(X.Key, OFF), __shfl_down(X.Value, OFF)};                 \
    __atomic_signal_fence(__ATOMIC_SEQ_CST);                                   \
    if (Lane + OFF < N)                                                        \
      X = argMax(X, O);                                                        \
  }

extern "C" __global__ void prefix(const float *In, int N, float *OutV,
                                  int *OutI) {
  int Lane = threadIdx.x % 64;
  KVP X{Lane, Lane < N ? In[Lane] : 0.f};
  STAGE(1) STAGE(2) STAGE(4) STAGE(8) STAGE(16) STAGE(32)
  if (Lane == 0) {
    OutV[0] = X.Value;
    OutI[0] = X.Key;
  }
}

// Lanes at or above 32 leave after the stage of offset 8.
extern "C" __global__ void divergent(const float *X, float *Out, int *Idx) {
  float V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int S = 1; S < 64; S *= 2) {
    float T = __shfl_xor(V, S);
    int J = __shfl_xor(I, S);
    if (T > V || (T == V && J < I)) {
      V = T;
      I = J;
    }
    if (threadIdx.x >= 32 && S == 8)
      break;
  }
  if (threadIdx.x == 0) {
    Out[0] = V;
    Idx[0] = I;
  }
}

// The index is taken from the lane whose value loses.
extern "C" __global__ void crossed(const float *X, float *Out, int *Idx) {
  float V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int S = 1; S < 64; S *= 2) {
    float T = __shfl_xor(V, S);
    int J = __shfl_xor(I, S);
    int NI = T > V ? I : J;
    V = fmaxf(V, T);
    I = NI;
  }
  if (threadIdx.x == 0) {
    Out[0] = V;
    Idx[0] = I;
  }
}

// The linear thread id that names each group's first lane is computed
// after the ladder.
extern "C" __global__ void late_tid(const float *X, float *Out) {
  float V = X[threadIdx.y * blockDim.x + threadIdx.x];
  for (int S = 1; S < 64; S *= 2)
    V = fmaxf(V, __shfl_down(V, S));
  int Lin = threadIdx.y * blockDim.x + threadIdx.x;
  if (Lin % 64 == 0)
    Out[Lin / 64] = V;
}

// Two shorts travel as one int.
typedef short Short2 __attribute__((ext_vector_type(2)));
extern "C" __global__ void short_pair(const Short2 *X, Short2 *Out) {
  Short2 V = X[threadIdx.x];
  for (int S = 1; S < 64; S *= 2) {
    int W = __builtin_bit_cast(int, V);
    Short2 T = __builtin_bit_cast(Short2, __shfl_xor(W, S));
    if (T.x > V.x)
      V = T;
  }
  if (threadIdx.x == 0)
    Out[0] = V;
}

// A ladder whose trip count is known at run time only: copies for each
// span of lanes (test/ArgRecognition/ladder-loop.hip).
extern "C" __global__ void halving_max(const int *X, int *Out) {
  int V = X[threadIdx.x];
  for (int Off = blockDim.x / 2; Off > 0; Off >>= 1)
    V = max(V, __shfl_xor(V, Off));
  Out[threadIdx.x] = V;
}
