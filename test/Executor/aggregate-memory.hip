// Struct and array values loaded and stored whole, as clang emits them at
// -O0 (copying a cooperative_groups object, returning a struct by value):
// each field is read or written at the data layout's offset; padding is
// not touched, and fields left undefined (insertvalue into poison) become
// uninitialised bytes rather than an error.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O0 -S -emit-llvm %s -o %t/o0.ll
// RUN: grep -c 'load %"class.cooperative_groups::thread_block"' %t/o0.ll | FileCheck %s --check-prefix=AGG
// AGG: {{[1-9]}}
// RUN: %crosslane-run %t/o0.ll --kernel=cg_rank --mcpu=gfx942 --grid=2 --block=96 --arg=buf:i32:192:const=-1 --print=0 | FileCheck %s --check-prefix=CG
// CG: arg0[0] = 96000
// CG: arg0[95] = 96095
// CG: arg0[96] = 96000
// CG: arg0[191] = 96095
// RUN: %crosslane-run %t/o0.ll --kernel=pairs --mcpu=gfx942 --block=8 --arg=buf:i32:8:iota --arg=buf:f64:8:zero --print=1 | FileCheck %s --check-prefix=PAIRS
// PAIRS: arg1[0] = 0.5
// PAIRS-NEXT: arg1[1] = 311.5
// PAIRS: arg1[7] = 2177.5
// RUN: %crosslane-run %S/Inputs/aggregate-memory.ll --kernel=partial --mcpu=gfx942 --block=4 --arg=buf:i32:4:zero --print=0 | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: arg0[0] = 7
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void cg_rank(int *Out) {
  cg::thread_block TB = cg::this_thread_block();
  cg::thread_block Copy = TB;
  Out[blockIdx.x * 96 + TB.thread_rank()] = Copy.size() * 1000 + TB.thread_rank();
}

struct Pair {
  char Tag;     // 7 bytes of padding follow
  double Value; // at offset 8
  int Count;
};

__device__ __noinline__ Pair makePair(int I) {
  Pair P;
  P.Tag = char(I);
  P.Value = I + 0.5;
  P.Count = I * 3;
  return P;
}

extern "C" __global__ void pairs(const int *In, double *Out) {
  Pair P = makePair(In[threadIdx.x]);
  Pair Q = P;
  Out[threadIdx.x] = Q.Value + Q.Tag * 10 + Q.Count * 100;
}
