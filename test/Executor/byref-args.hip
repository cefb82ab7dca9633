// Aggregate kernel parameters: clang passes a struct parameter of a HIP
// kernel as `ptr addrspace(4) byref(%struct.T)` into the kernarg segment.
// The executor takes one --arg per scalar field (nested structs, arrays and
// HIP vector types flattened in memory order), lays them out as the data
// layout places them, and passes the parameter as their address; -O0 copies
// the struct with llvm.memcpy, -O2 loads the fields. A wrong count names the
// fields.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S -emit-llvm %s -o %t/o2.ll
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O0 -S -emit-llvm %s -o %t/o0.ll
// RUN: %crosslane-run %t/o2.ll --kernel=scale --mcpu=gfx942 --block=8 --arg=buf:f32:8:iota --arg=buf:f32:8:zero --arg=i32:6 --arg=i8:1 --arg=i32:2 --arg=i32:3 --arg=i32:4 --arg=f32:0.5 --arg=i16:7 --arg=f32:1 --arg=f32:2 --arg=f32:3 --arg=f32:4 --print=1 | FileCheck %s
// RUN: %crosslane-run %t/o0.ll --kernel=scale --mcpu=gfx942 --block=8 --arg=buf:f32:8:iota --arg=buf:f32:8:zero --arg=i32:6 --arg=i8:1 --arg=i32:2 --arg=i32:3 --arg=i32:4 --arg=f32:0.5 --arg=i16:7 --arg=f32:1 --arg=f32:2 --arg=f32:3 --arg=f32:4 --print=1 | FileCheck %s
// Y[i] = X[i] * Dims[0]*Dims[1]*Dims[2] * Scale + Tag + V.x+V.y+V.z+V.w for
// i < N when Flag: 2*3*4*0.5 = 12, + 7 + 10 = 17.
// CHECK: arg1[0] = 17
// CHECK-NEXT: arg1[1] = 29
// CHECK-NEXT: arg1[2] = 41
// CHECK: arg1[5] = 77
// CHECK-NEXT: arg1[6] = 0
// RUN: not %crosslane-run %t/o2.ll --kernel=scale --mcpu=gfx942 --block=8 --arg=buf:f32:8:iota 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: kernel 'scale' takes 13 argument values, 1 given (parameter 0 is byref %struct.Params, one value per field: ptr, ptr, i32, i8, i32, i32, i32, float, i16, float, float, float, float)
// RUN: not %crosslane-run %t/o2.ll --kernel=scale --mcpu=gfx942 --block=8 --arg=i32:0 --arg=buf:f32:8:zero --arg=i32:6 --arg=i8:1 --arg=i32:2 --arg=i32:3 --arg=i32:4 --arg=f32:0.5 --arg=i16:7 --arg=f32:1 --arg=f32:2 --arg=f32:3 --arg=buf:f32:4:zero 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: error: kernel argument value 12 (float) is not a pointer but a buffer was given
#include <hip/hip_runtime.h>

struct Inner {
  float Scale;
  short Tag;
};

struct Params {
  const float *X;
  float *Y;
  int N;
  bool Flag;
  int Dims[3];
  Inner In;
  float4 V;
};

extern "C" __global__ void scale(Params P) {
  int I = threadIdx.x;
  if (P.Flag && I < P.N)
    P.Y[I] = P.X[I] * float(P.Dims[0] * P.Dims[1] * P.Dims[2]) * P.In.Scale +
             P.In.Tag + P.V.x + P.V.y + P.V.z + P.V.w;
}
