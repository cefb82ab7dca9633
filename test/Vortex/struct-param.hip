// A struct passed by value that the RISC-V ABI passes indirectly (or splits)
// cannot be marshalled from the x86-64 host yet: a compile-time error at the
// kernel, naming the parameter; a pointer-sized struct is fine.
// REQUIRES: vortex
// RUN: not %hipcc --target=vortex -O2 -c %s -o %t.o 2>&1 | FileCheck %s
#include <hip/hip_runtime.h>

struct Span {
  float *Data;
  int Size;
  long Stride;
};
struct Wrapped {
  float *Data;
};

// CHECK: struct-param.hip:[[@LINE+1]]:{{[0-9]+}}: error: kernel 'scale(Span, float)': parameter 1 of type 'Span' cannot be passed from an x86-64 host to rv32 Vortex yet
__global__ void scale(Span S, float F) {
  S.Data[threadIdx.x] *= F;
}
// CHECK-NOT: error: kernel 'wrapped
__global__ void wrapped(Wrapped W) { W.Data[threadIdx.x] = 0; }
