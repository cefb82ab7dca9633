// Shuffle ladders in loops whose trip count is a run-time value (PyTorch's
// block_x_reduce: `for (offset = 1; offset < dim_x; offset <<= 1)`) are
// versioned (lib/ArgRecognition/LadderLoops.cpp): unrolled copies for the
// trip count that covers the wave and for each smaller power-of-two span of
// lanes, each behind a wave-uniform guard, are proven and rewritten like any
// unrolled ladder; the loop runs for other counts.
// Executed: the rewrite against the original for block sizes below, at and
// above the wave size (the guards taken and not), on random and adversarial
// inputs, wave64 and wave32.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// Every span of lanes (-crosslane-ladder-spans=6; the default, 1, makes
// the whole wave's copy only).
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-ladder-spans=6 -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: {{.*}}recognised argmax f32/i64, ties: smallest index, NaN wins, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i64, guarded at run time (every lane of the {{[0-9]+}}-lane group is active, threadIdx.x % wave size is the lane id; otherwise the original code runs) [a loop with a run-time trip count, unrolled for its 6-iteration case{{.*}}; the loop runs for other counts]
// REMARK-DAG: remark: {{.*}}recognised smax i32 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_smax_i32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active; otherwise the original code runs) [a loop with a run-time trip count, unrolled for its 6-iteration case{{.*}}; the loop runs for other counts]
// REMARK-DAG: remark: {{.*}}recognised fmax f32, -0 < +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_fmax_f32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active; otherwise the original code runs) {{.*}}[a loop with a run-time trip count, unrolled for its 6-iteration case{{.*}}; the loop runs for other counts]
// REMARK-DAG: remark: {{.*}}recognised fmax f32, -0 < +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_fmax_f32, guarded at run time (every lane of the {{[0-9]+}}-lane group is active; otherwise the original code runs) {{.*}}[a loop with a run-time trip count, unrolled for its 6-iteration case{{.*}}; the loop runs for other counts]
// REMARK-DAG: remark: {{.*}}cross-lane butterfly not replaced (NotAnXorButterfly)
// REMARK-NOT: over 16 lanes
// The copies for fewer lanes say so under -pass-remarks-analysis.
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg' -crosslane-ladder-spans=6 -pass-remarks-analysis=crosslane-recognize-arg -disable-output %t/w64.ll 2>&1 | FileCheck %s --check-prefix=COPIES
// COPIES-DAG: recognised argmax f32/i64, ties: smallest index, NaN wins, -0 == +0 over 16 lanes (shfl_down ladder, 4 stages on gfx942 wave64){{.*}}[a loop with a run-time trip count, unrolled for its 4-iteration case{{.*}}; the loop runs for other counts]
// COPIES-DAG: recognised smax i32 over 2 lanes (xor butterfly, 1 stage on gfx942 wave64){{.*}}unrolled for its 1-iteration case
// RUN: FileCheck %s --check-prefix=IR < %t/w64.x.ll
// The loops stay for the other trip counts; the divergent bound gets a
// ballot guard.
// IR-LABEL: define {{.*}} @block_argmax(
// IR: ds.bpermute
// IR-LABEL: define {{.*}} @halving_max(
// IR: ds.bpermute
// IR-LABEL: define {{.*}} @divergent_bound(
// IR: call i64 @llvm.amdgcn.ballot.i64(i1 true)
//
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=block_argmax --mcpu=gfx942 --grid=3 --block=N --sizes=1,8,16,32,64,128,256 --seed=3 --print=none --arg=buf:f32:600:input --arg=buf:i64:3:zero --arg=i32:200 --inputs=random,all-equal,ties,all-nan,pm-zero,pm-inf,neg-max --nan-equal | FileCheck %s --check-prefix=DIFF
// A bound from a kernel argument: 64 takes the 6-iteration copy, 16 and 12
// the 4-iteration one, 1000 the loop.
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=width_ladder --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:f32:1:zero --arg=i32:64 --inputs=all --nan-equal | FileCheck %s --check-prefix=DIFF
// A width below the wave must not take the whole-wave copy (forcing it:
// 52 of 66 mismatch).
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=width_ladder --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:f32:1:zero --arg=i32:16 --inputs=random,nan-each --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=width_ladder --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:f32:1:zero --arg=i32:12 --inputs=random,nan-each --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=width_ladder --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:f32:1:zero --arg=i32:1000 --inputs=random,nan-each --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=halving_max --mcpu=gfx942 --block=N --sizes=1,2,8,32,64 --seed=3 --print=none --arg=buf:i32:64:input --arg=buf:i32:64:zero --inputs=random,all-equal,ties | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=divergent_bound --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:const=64 --arg=buf:f32:64:zero --inputs=random,nan-each,pm-zero --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=divergent_bound --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:iota --arg=buf:f32:64:zero --inputs=random,nan-each,pm-zero --nan-equal | FileCheck %s --check-prefix=DIFF
// Lane 0 runs one iteration, the others six: the ballot guard must send the
// wave to the loop (forcing the guard true gives 63 mismatches in 68 cases).
// RUN: %python -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<64i', 2, *[64]*63))" > %t/bound.bin
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=divergent_bound --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:file=%t/bound.bin --arg=buf:f32:64:zero --inputs=random,nan-each,pm-zero --nan-equal | FileCheck %s --check-prefix=DIFF
//
// The guards themselves: with every fallback edge sent to a trap
// (-crosslane-fallback-trap, measurement only), a whole-wave trip count
// and a power-of-two span of lanes must run an unrolled copy to the end
// with the same results, and a longer or lane-divergent bound must leave
// them (the run traps).
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-ladder-spans=6 -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=width_ladder --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:f32:1:zero --arg=i32:64 --inputs=all --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=width_ladder --mcpu=gfx942 --block=64 --sizes=64 --seed=3 --print=none --arg=buf:f32:64:input --arg=buf:f32:1:zero --arg=i32:16 --inputs=random,nan-each --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=block_argmax --mcpu=gfx942 --grid=3 --block=N --sizes=8,16,32 --seed=3 --print=none --arg=buf:f32:600:input --arg=buf:i64:3:zero --arg=i32:200 --inputs=random,ties,all-nan --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=halving_max --mcpu=gfx942 --block=N --sizes=2,8,32 --seed=3 --print=none --arg=buf:i32:64:input --arg=buf:i32:64:zero --inputs=random,ties | FileCheck %s --check-prefix=DIFF
// RUN: not %crosslane-run %t/w64.trap.ll --kernel=width_ladder --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:random --arg=buf:f32:1:zero --arg=i32:1000 2>&1 | FileCheck %s --check-prefix=TRAP
// RUN: not %crosslane-run %t/w64.trap.ll --kernel=divergent_bound --mcpu=gfx942 --block=64 --print=none --arg=buf:f32:64:random --arg=buf:i32:64:file=%t/bound.bin --arg=buf:f32:64:zero 2>&1 | FileCheck %s --check-prefix=TRAP
// TRAP: error: the kernel trapped (llvm.trap)
//
// Two spans: copies for 64 and 32 lanes; a block of 16 runs the loop. The
// default: the 64-lane copy only; a block of 32 runs the loop.
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-ladder-spans=2 -pass-remarks=crosslane-recognize-arg -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap2.ll 2>&1 | FileCheck %s --check-prefix=SPANS2
// SPANS2: over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i64{{.*}}unrolled for its 6-iteration case{{.*}}; copies for 5 iterations: -Rpass-analysis=crosslane-recognize-arg; the loop runs for other counts]
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap2.ll --kernel=block_argmax --mcpu=gfx942 --grid=3 --block=N --sizes=32,64 --seed=3 --print=none --arg=buf:f32:600:input --arg=buf:i64:3:zero --arg=i32:200 --inputs=random,ties --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: not %crosslane-run %t/w64.trap2.ll --kernel=block_argmax --mcpu=gfx942 --grid=3 --block=16 --print=none --arg=buf:f32:600:random --arg=buf:i64:3:zero --arg=i32:200 2>&1 | FileCheck %s --check-prefix=TRAP
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap1.ll 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i64{{.*}}[a loop with a run-time trip count, unrolled for its 6-iteration case{{( \(entered[^;]*\))?}}; the loop runs for other counts]
// RUN: not %crosslane-run %t/w64.trap1.ll --kernel=block_argmax --mcpu=gfx942 --grid=3 --block=32 --print=none --arg=buf:f32:600:random --arg=buf:i64:3:zero --arg=i32:200 2>&1 | FileCheck %s --check-prefix=TRAP
//
// Wave32: the whole-wave copy has 5 iterations.
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK32
// REMARK32: over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32): replaced by __crosslane_argmax_f32_i64{{.*}}unrolled for its 5-iteration case
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=block_argmax --mcpu=gfx1100 --grid=2 --block=N --sizes=1,8,16,32,64,96 --seed=4 --print=none --arg=buf:f32:300:input --arg=buf:i64:2:zero --arg=i32:150 --inputs=random,ties,all-nan,pm-zero --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=halving_max --mcpu=gfx1100 --block=N --sizes=1,16,32 --seed=4 --print=none --arg=buf:i32:32:input --arg=buf:i32:32:zero --inputs=random,ties | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

namespace {

struct Acc {
  float V;
  long long I;
};

// torch.argmax's order: NaN first, then larger, then smaller index.
__device__ inline Acc better(Acc A, Acc B) {
  bool ANaN = A.V != A.V, BNaN = B.V != B.V;
  bool KeepA = ANaN ? (!BNaN || A.I < B.I)
                    : (A.V == B.V ? A.I < B.I : A.V > B.V);
  return KeepA ? A : B;
}

} // namespace

// One row per block: a strided scan, a shared-memory tree down to one wave,
// then a __shfl_down ladder over min(blockDim.x, warpSize) lanes.
extern "C" __global__ void block_argmax(const float *X, long long *Out,
                                        int N) {
  const float *Row = X + (size_t)blockIdx.x * N;
  Acc A = {-INFINITY, 0};
  for (int I = threadIdx.x; I < N; I += blockDim.x)
    A = better(A, Acc{Row[I], I});
  __shared__ float SV[1024];
  __shared__ long long SI[1024];
  int Tid = threadIdx.x, DimX = blockDim.x;
  if (DimX > warpSize) {
    SV[Tid] = A.V;
    SI[Tid] = A.I;
    for (int Off = DimX / 2; Off >= warpSize; Off >>= 1) {
      __syncthreads();
      if (Tid < Off) {
        A = better(A, Acc{SV[Tid + Off], SI[Tid + Off]});
        SV[Tid] = A.V;
        SI[Tid] = A.I;
      }
    }
    DimX = warpSize;
  }
  if (Tid < warpSize)
    for (int Off = 1; Off < DimX; Off <<= 1) {
      Acc O = {__shfl_down(A.V, Off), __shfl_down(A.I, Off)};
      A = better(A, O);
    }
  if (Tid == 0)
    Out[blockIdx.x] = A.I;
}

// A one-wave block: halving xor offsets from blockDim.x / 2; every lane
// stores the maximum.
extern "C" __global__ void halving_max(const int *X, int *Out) {
  int V = X[threadIdx.x];
  for (int Off = blockDim.x / 2; Off > 0; Off >>= 1)
    V = max(V, __shfl_xor(V, Off));
  Out[threadIdx.x] = V;
}

// The bound comes from memory, per lane: the copy runs only if every active
// lane would take it (a ballot makes the guard uniform).
extern "C" __global__ void divergent_bound(const float *X, const int *Bound,
                                           float *Out) {
  float V = X[threadIdx.x];
  int B = Bound[threadIdx.x];
  for (int Off = 1; Off < B; Off <<= 1)
    V = fmaxf(V, __shfl_down(V, Off));
  if (__lane_id() == 0)
    Out[0] = V;
}

// The bound is a kernel argument; lane 0 reads the result.
extern "C" __global__ void width_ladder(const float *X, float *Out,
                                        int Width) {
  float V = X[threadIdx.x];
  for (int Off = 1; Off < Width; Off <<= 1)
    V = fmaxf(V, __shfl_down(V, Off));
  if (__lane_id() == 0)
    Out[0] = V;
}

// The trip count depends on the data exchanged: not a ladder loop.
extern "C" __global__ void data_loop(const int *X, int *Out) {
  int V = X[threadIdx.x];
  int Off = 1;
  do {
    V = max(V, __shfl_xor(V, Off));
    Off <<= 1;
  } while (V < 100 && Off < 64);
  Out[threadIdx.x] = V;
}

