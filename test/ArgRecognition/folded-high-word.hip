// An int64 index whose high word InstCombine proves zero (made from an
// unsigned or a non-negative int): the exchange of that word folds to 0 and
// a stage reads `zext (ds_bpermute (trunc nuw X))`. Known bits stop at a
// depth limit, so only the first stage of a ladder is narrowed and the
// others still exchange two words; the chain then changed its word count
// after one stage and was cut in six (NoResult, NotAnXorButterfly x5).
// The recogniser restores the high word's exchange where the state meets
// a two-word stage, and folds back what it does not replace
// (lib/ArgRecognition/HighWords.h). -crosslane-fallback-trap turns every
// fallback into a trap: the fast path runs on every input in whole waves.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/g9.ll
// RUN: FileCheck %s --check-prefix=NARROW < %t/g9.ll
// NARROW-LABEL: define {{.*}} @ladder_unsigned(
// NARROW: [[LO:%[0-9]+]] = trunc nuw i64 %{{[0-9]+}} to i32
// NARROW-NEXT: [[R:%[0-9]+]] = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %{{[0-9]+}}, i32 [[LO]])
// NARROW-NEXT: zext i32 [[R]] to i64
// NARROW: lshr i64 %{{[0-9]+}}, 32
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9-DAG: folded-high-word.hip:[[@LINE+50]]:{{.*}}recognised argmax f32/i64, ties: smallest index, NaN wins, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64)
// G9-DAG: folded-high-word.hip:[[@LINE+69]]:{{.*}}recognised argmin f32/i64, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9-DAG: recognised argmax f32/i64, ties: smallest index (unsigned), NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): {{.*}}(every lane of the 64-lane group is active, no value is NaN; otherwise
// Nothing of the restored exchanges is left where no rewrite took them:
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg' -S %t/g9.ll | FileCheck %s --check-prefix=FOLDED
// FOLDED-NOT: crosslane.hi.read
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=ladder_unsigned --mcpu=gfx942 --block=64 --grid=2 --sizes=1,5,64,100,300 --print=none --arg=buf:f32:N*2:input --arg=buf:i64:2:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=xor_nonneg --mcpu=gfx942 --block=64 --sizes=1,7,64,130 --print=none --arg=buf:f32:N:input --arg=buf:i64:64:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=if_assign_tid --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i64:64:zero --inputs=random --cases=8 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=if_assign_tid --mcpu=gfx942 --block=N --sizes=5,64 --print=none --arg=buf:f32:64:input --arg=buf:i64:64:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// Partial waves (the guard fails, the original runs):
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=ladder_unsigned --mcpu=gfx942 --block=N --sizes=1,5,40 --print=none --arg=buf:f32:N:input --arg=buf:i64:1:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=low_word_only --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:input --arg=buf:i64:64:random --arg=buf:i64:64:zero --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11: recognised argmax f32/i64, ties: smallest index, NaN wins, -0 == +0 over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32)
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g11.ll -o %t/g11.trap.ll
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=ladder_unsigned --mcpu=gfx1100 --block=32 --grid=2 --sizes=1,33,300 --print=none --arg=buf:f32:N*2:input --arg=buf:i64:2:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

struct Pair {
  float V;
  long long I;
};

// torch.argmax's order: NaN first, then the larger value, then the smaller
// index.
__device__ inline bool nanFirst(float A, float B, long long IA,
                                long long IB) {
  if (A != A)
    return B != B ? IA < IB : true;
  return A == B ? IA < IB : A > B;
}

__device__ inline Pair combine(Pair A, Pair B) {
  return nanFirst(A.V, B.V, A.I, B.I) ? A : B;
}

// Row blockIdx.x of In (N elements); the element index is unsigned,
// widened to int64; a __shfl_down ladder with increasing offsets.
extern "C" __global__ void ladder_unsigned(const float *In, long long *Out,
                                           unsigned N) {
  const float *Row = In + (size_t)blockIdx.x * N;
  Pair Acc = {-INFINITY, 0};
  for (unsigned I = threadIdx.x; I < N; I += blockDim.x)
    Acc = combine(Acc, Pair{Row[I], (long long)I});
  for (int Off = 1; Off < warpSize; Off <<= 1) {
    Pair O = {__shfl_down(Acc.V, Off), __shfl_down(Acc.I, Off)};
    Acc = combine(Acc, O);
  }
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Acc.I;
}

// argmin with the index of a non-negative int, an xor butterfly.
extern "C" __global__ void xor_nonneg(const float *In, long long *Out,
                                      int N) {
  float V = INFINITY;
  long long Idx = 0;
  for (int I = threadIdx.x; I < N; I += blockDim.x) {
    float X = In[I];
    if (X < V) {
      V = X;
      Idx = I;
    }
  }
  for (int M = 1; M < warpSize; M <<= 1) {
    float OV = __shfl_xor(V, M);
    long long OI = __shfl_xor(Idx, M);
    if (OV < V || (OV == V && OI < Idx)) {
      V = OV;
      Idx = OI;
    }
  }
  Out[threadIdx.x] = Idx;
}

// The index is the i64 work-item id masked to 32 bits (-nogpulib: nothing
// bounds the id): the first stage exchanges `trunc id`, the next four a
// word known to fit, the last both words. Its tie-break compares unsigned
// (`samesign ugt`) in the first stages and signed (smin) in the last; the
// index is proven non-negative (a masked id), where the two orders agree,
// so ties need no guard (before the bound, ties were guarded).
__device__ inline bool better(Pair A, Pair B) {
  return A.V > B.V || (A.V == B.V && A.I < B.I);
}

extern "C" __global__ void if_assign_tid(const float *In, long long *Out) {
  Pair Acc = {In[threadIdx.x], (long long)threadIdx.x};
  for (int M = 1; M < warpSize; M <<= 1) {
    Pair O = {__shfl_xor(Acc.V, M), __shfl_xor(Acc.I, M)};
    if (better(O, Acc))
      Acc = O;
  }
  Out[threadIdx.x] = Acc.I;
}

// Not an int64 exchange in its first three stages: only the low word of an
// arbitrary index travels, zero-extended (the code truncates on purpose;
// no high word is known zero, nothing is restored).
extern "C" __global__ void low_word_only(const float *In, const long long *Ix,
                                         long long *Out) {
  float V = In[threadIdx.x];
  long long Idx = Ix[threadIdx.x];
  for (int M = 1; M < warpSize; M <<= 1) {
    float OV = __shfl_xor(V, M);
    long long OI = (unsigned)__shfl_xor((unsigned)Idx, M);
    if (M > 4)
      OI = __shfl_xor(Idx, M);
    if (OV > V || (OV == V && OI < Idx)) {
      V = OV;
      Idx = OI;
    }
  }
  Out[threadIdx.x] = Idx;
}
