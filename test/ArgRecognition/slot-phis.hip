// A branchy combine that returns one of its `const&` arguments (`if (a < b)
// return a; ...`, or a lexicographic `a.d < b.d || (a.d == b.d && a.i <
// b.i) ? a : b` that clang compiles as branches) chooses its pair through a
// phi of stack slots, and reads it with a load of the whole pair (<2 x i32>),
// a load per field, or a memcpy (16-byte pairs). SROA leaves the slots in
// memory. The recogniser loads from each slot where the original loads, and
// chooses among the loaded values with the index the phi's copy computes;
// a copy reads from a select of the two slots, which is then split per
// field. The slots can then be promoted and the butterfly recognised.
// A phi with a leaf that is not a stack slot is left alone.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: recognised argmin f32/i32, ties: smallest index, {{.*}}xor butterfly, 6 stages
// REMARK: recognised argmin f32/i32, ties: smallest index, {{.*}}xor butterfly, 6 stages
// REMARK: recognised argmin f32/i64, {{.*}}xor butterfly, 6 stages
// REMARK-NOT: recognised
// RUN: FileCheck %s --check-prefix=IR < %t/w64.x.ll
// IR-LABEL: define {{.*}} @block_argmin(
// IR-NOT: phi ptr
// IR: ret void
// IR-LABEL: define {{.*}} @early_returns_f32_i64(
// IR-NOT: call void @llvm.memcpy
// IR: ret void
// IR-LABEL: define {{.*}} @mixed_leaves(
// IR: phi ptr
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=block_argmin --mcpu=gfx942 --grid=2 --block=256 --sizes=1,7,64,300,1000 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:2:zero --arg=buf:i32:2:zero --arg=i32:N --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=block_argmin --mcpu=gfx942 --grid=2 --block=N --sizes=64,100,192 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:2:zero --arg=buf:i32:2:zero --arg=i32:N --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=early_returns_f32_i64 --mcpu=gfx942 --block=N --sizes=64,20,1 --print=none --arg=buf:f32:N:input --arg=buf:i64:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=mixed_leaves --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:input --arg=buf:f32:2:random --arg=buf:i32:N:zero --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// With the fallback sent to a trap, NaN-free full waves take the fast path.
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=block_argmin --mcpu=gfx942 --grid=2 --block=256 --sizes=7,300 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:2:zero --arg=buf:i32:2:zero --arg=i32:N --inputs=random,ties,pm-zero,pm-inf,neg-max --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=early_returns_f32_i64 --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:input --arg=buf:i64:1:zero --inputs=random,ties,pm-zero --cases=6 | FileCheck %s --check-prefix=DIFF
// At -O1 and on wave32 (a load per field) too.
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O1 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-3: recognised
// W32-NOT: recognised
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=block_argmin --mcpu=gfx1100 --grid=2 --block=128 --sizes=1,7,64,300 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:2:zero --arg=buf:i32:2:zero --arg=i32:N --inputs=all --cases=4 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=early_returns_f32_i64 --mcpu=gfx1100 --block=N --sizes=32,20 --print=none --arg=buf:f32:N:input --arg=buf:i64:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w32.ll -o %t/w32.trap.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.trap.ll --kernel=block_argmin --mcpu=gfx1100 --grid=2 --block=128 --sizes=7,300 --print=none --arg=buf:f32:N*2:input --arg=buf:f32:2:zero --arg=buf:i32:2:zero --arg=i32:N --inputs=random,ties,pm-zero,pm-inf --cases=4 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <float.h>

// Distance first, then the smaller index.
struct Cand {
  float D;
  int I;
};
struct LexMin {
  __device__ Cand operator()(const Cand &A, const Cand &B) const {
    bool Less = A.D < B.D || (A.D == B.D && A.I < B.I);
    return Less ? A : B;
  }
};

__device__ Cand waveMin(Cand C) {
  LexMin Op;
  for (int M = warpSize / 2; M >= 1; M /= 2) {
    Cand O;
    O.D = __shfl_xor(C.D, M);
    O.I = __shfl_xor(C.I, M);
    C = Op(C, O);
  }
  return C;
}

// Row r of D: a strided scan per thread, a butterfly per wave, the waves'
// results through shared memory, a butterfly in wave 0.
extern "C" __global__ void block_argmin(const float *D, float *OutD, int *OutI,
                                        int N) {
  __shared__ Cand Partial[32];
  const float *Row = D + (size_t)blockIdx.x * N;
  Cand C{FLT_MAX, -1};
  for (int J = threadIdx.x; J < N; J += blockDim.x)
    if (Row[J] < C.D)
      C = Cand{Row[J], J};
  C = waveMin(C);
  unsigned Wave = threadIdx.x / warpSize, Waves = (blockDim.x + warpSize - 1) / warpSize;
  if (threadIdx.x % warpSize == 0)
    Partial[Wave] = C;
  __syncthreads();
  if (Wave == 0) {
    C = threadIdx.x < Waves ? Partial[threadIdx.x] : Cand{FLT_MAX, -1};
    C = waveMin(C);
    if (threadIdx.x == 0) {
      OutD[blockIdx.x] = C.D;
      OutI[blockIdx.x] = C.I;
    }
  }
}

// Early returns on a 16-byte pair: copied with memcpy.
struct Wide {
  float D;
  long long I;
};
__device__ const Wide &pick(const Wide &A, const Wide &B) {
  if (A.D < B.D)
    return A;
  if (B.D < A.D)
    return B;
  return A.I < B.I ? A : B;
}
extern "C" __global__ void early_returns_f32_i64(const float *X,
                                                 long long *Out) {
  Wide W{X[threadIdx.x], (long long)threadIdx.x};
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    Wide O{__shfl_xor(W.D, M), __shfl_xor(W.I, M)};
    W = pick(W, O);
  }
  if (threadIdx.x == 0)
    Out[0] = W.I;
}

// One choice may be a pair in global memory: that phi is not a choice among
// stack slots, and stays.
extern "C" __global__ void mixed_leaves(const float *X, const Cand *G,
                                        int *Out) {
  Cand C{X[threadIdx.x], (int)threadIdx.x};
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    Cand O{__shfl_xor(C.D, M), __shfl_xor(C.I, M)};
    const Cand *R = &C;
    if (O.D < C.D)
      R = &O;
    else if (O.D == G[0].D)
      R = &G[0];
    C = *R;
  }
  Out[threadIdx.x] = C.I;
}
