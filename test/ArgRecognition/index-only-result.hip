// Butterflies whose last stage is needed for the index only: at -O3 clang
// drops the last stage's value and folds the tie into `smin(ib, ia)`
// (ONNX Runtime-style early-return comparator, RAFT-style key/value pair
// chosen with ?:). That min only feeds the final select, so it is not a
// result; it was taken for one, and the chain refused as NotASelection
// ("value and index from different lanes"). Both are replaced now, and
// compute what the original does.
// REQUIRES: executor, hip-headers
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: recognised argmax f32/i64, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes
// REMARK-DAG: recognised argmin f32/i64, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes
// REMARK-NOT: NotASelection
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=ort_argmax --mcpu=gfx942 --block=64 --sizes=1,7,64,150 --print=none --arg=buf:f32:160:input --arg=buf:i64:1:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=kv_argmin --mcpu=gfx942 --block=64 --sizes=1,7,64,150 --print=none --arg=buf:f32:160:input --arg=buf:i64:1:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -O3 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=kv_argmin --mcpu=gfx1100 --block=32 --sizes=1,7,32,150 --print=none --arg=buf:f32:160:input --arg=buf:i64:1:zero --arg=i32:N --inputs=random,ties,nan-each,pm-zero | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>
#include <cstdint>

__device__ bool better(float A, int64_t IA, float B, int64_t IB) {
  if (B > A)
    return true;
  if (B < A)
    return false;
  if (B == A)
    return IB < IA;
  return false;
}

extern "C" __global__ void ort_argmax(const float *X, int64_t *Y, int N) {
  float Best = -__builtin_huge_valf();
  int64_t BI = INT64_MAX;
  for (int A = threadIdx.x; A < N; A += blockDim.x)
    if (better(Best, BI, X[A], A)) {
      Best = X[A];
      BI = A;
    }
  for (int Off = 32; Off > 0; Off /= 2) {
    float OV = __shfl_xor(Best, Off);
    int64_t OI = __shfl_xor(BI, Off);
    if (better(Best, BI, OV, OI)) {
      Best = OV;
      BI = OI;
    }
  }
  if (threadIdx.x == 0)
    Y[0] = BI;
}

struct KV {
  int64_t Key;
  float Value;
};

__device__ KV pick(const KV &A, const KV &B) {
  return (B.Value < A.Value || (B.Value == A.Value && B.Key < A.Key)) ? B : A;
}

extern "C" __global__ void kv_argmin(const float *D, int64_t *Out, int N) {
  KV Best{INT64_MAX, __builtin_huge_valf()};
  for (int J = threadIdx.x; J < N; J += blockDim.x)
    Best = pick(Best, KV{J, D[J]});
  for (int Off = warpSize / 2; Off > 0; Off >>= 1) {
    KV O{__shfl_xor(Best.Key, Off), __shfl_xor(Best.Value, Off)};
    Best = pick(Best, O);
  }
  if (threadIdx.x == 0)
    Out[0] = Best.Key;
}
