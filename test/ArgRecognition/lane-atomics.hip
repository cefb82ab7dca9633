// Per-lane atomics to one address whose result is unused (the packed-key
// argmin's `atomicMin(&result, key)`) become one Crosslane reduction over
// the active lanes plus one atomic from the first active lane. Refused:
// an atomic whose old value a lane reads, lanes with different addresses.
// Executed: original against rewrite with 1 to 192 active threads over 3
// workgroups (partial and divergent waves), on random and adversarial
// inputs, wave64 and wave32.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-COUNT-8: remark: {{.*}}per-lane atomic {{(add|min|max|and|or|xor|umin|umax)}} i32 to one address combined across the wave: __crosslane_reduce_{{[a-z]+}}_i32 over the active lanes, then one atomic from the first active lane
// REMARK-COUNT-3: remark: {{.*}}per-lane atomic {{(add|umin|umax)}} i64 to one address combined across the wave: __crosslane_reduce_{{[a-z]+}}_i64
// REMARK: remark: {{.*}}per-lane atomic max i32 to one address combined across the wave
// REMARK: remark: {{.*}}per-lane atomic add i32 not combined across the wave: each lane reads the value the atomic returned
// REMARK: remark: {{.*}}per-lane atomic max i32 not combined across the wave: the lanes may target different addresses
// REMARK-NOT: remark
// RUN: FileCheck %s --check-prefix=IR < %t/w64.x.ll
// IR-LABEL: define {{.*}} @atomics_i32(
// IR: %crosslane.first = icmp eq i32 %{{.*}}, 0
// IR: atomicrmw add ptr addrspace(1) %{{.*}}, i32 %{{.*}} syncscope("agent") monotonic
// IR-LABEL: define {{.*}} @returns_old(
// IR-NOT: crosslane.first
// IR: ret void
//
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=atomics_i32 --mcpu=gfx942 --grid=3 --block=64 --sizes=1,5,64,100,192 --seed=7 --print=none --arg=buf:i32:192:input --arg=buf:i32:8:const=0 --arg=i32:N --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=atomics_u64 --mcpu=gfx942 --grid=3 --block=64 --sizes=1,37,64,192 --seed=7 --print=none --arg=buf:i64:192:input --arg=buf:i64:3:const=0 --arg=i32:N --inputs=random,all-equal,ties | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=odd_lanes --mcpu=gfx942 --block=64 --sizes=64 --seed=7 --print=none --arg=buf:i32:64:input --arg=buf:i32:1:const=-2147483648 --inputs=random,all-equal,ties --cases=6 | FileCheck %s --check-prefix=DIFF
//
// Wave32.
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/w32.ll -o %t/w32.x.ll
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=atomics_i32 --mcpu=gfx1100 --grid=3 --block=64 --sizes=1,5,33,100,192 --seed=8 --print=none --arg=buf:i32:192:input --arg=buf:i32:8:const=0 --arg=i32:N --inputs=random,all-equal,ties,neg-max | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=atomics_u64 --mcpu=gfx1100 --grid=3 --block=64 --sizes=1,37,192 --seed=8 --print=none --arg=buf:i64:192:input --arg=buf:i64:3:const=0 --arg=i32:N --inputs=random,ties | FileCheck %s --check-prefix=DIFF
//
// GFX10 in wave64 (no permlane64: the halves meet through readlane).
// RUN: %hipcc --offload-arch=gfx1030 -mwavefrontsize64 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g10.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -S %t/g10.ll -o %t/g10.x.ll
// RUN: %crosslane-run %t/g10.ll --diff=%t/g10.x.ll --kernel=atomics_u64 --mcpu=gfx1030 --grid=3 --block=64 --sizes=1,37,192 --seed=7 --print=none --arg=buf:i64:192:input --arg=buf:i64:3:const=0 --arg=i32:N --inputs=random,ties | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

// Every integer operation, with the tail of the last wave inactive.
extern "C" __global__ void atomics_i32(const int *X, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    int V = X[I];
    atomicAdd(&Out[0], V);
    atomicMin(&Out[1], V);
    atomicMax(&Out[2], V);
    atomicAnd(&Out[3], V);
    atomicOr(&Out[4], V);
    atomicXor(&Out[5], V);
    atomicMin(reinterpret_cast<unsigned *>(&Out[6]), unsigned(V));
    atomicMax(reinterpret_cast<unsigned *>(&Out[7]), unsigned(V));
  }
}

// Packed 64-bit keys.
extern "C" __global__ void atomics_u64(const unsigned long long *X,
                                       unsigned long long *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    atomicAdd(&Out[0], X[I]);
    atomicMin(&Out[1], X[I]);
    atomicMax(&Out[2], X[I]);
  }
}

// Lanes chosen by the data.
extern "C" __global__ void odd_lanes(const int *X, int *Out) {
  int V = X[threadIdx.x];
  if (V & 1)
    atomicMax(Out, V);
}

// Refused: each lane keeps the old value.
extern "C" __global__ void returns_old(const int *X, int *Out, int *Old) {
  Old[threadIdx.x] = atomicAdd(Out, X[threadIdx.x]);
}

// Refused: four addresses.
extern "C" __global__ void per_lane_address(const int *X, int *Out) {
  atomicMax(&Out[threadIdx.x % 4], X[threadIdx.x]);
}
