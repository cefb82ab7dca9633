// Parameters whose host value cannot be rebuilt on rv32 are a compile-time
// error at the kernel, naming the parameter and the reason: bit-fields (no
// layout rule is shared). (clang itself rejects long double in rv32 device
// code.)
// Structs with pointers and longs are fine (structs.hip runs them).
// REQUIRES: vortex
// RUN: not %hipcc --target=vortex -O2 -c %s -o %t.o 2>&1 | FileCheck %s
#include <hip/hip_runtime.h>

struct Flags {
  unsigned Ready : 1;
  unsigned Count : 7;
};

// CHECK: struct-param.hip:[[@LINE+1]]:{{[0-9]+}}: error: kernel 'setFlags(float*, Flags)': parameter 2 of type 'Flags': bit-field 'Ready': cannot be passed from an x86-64 host to rv32 Vortex; pass a pointer to device memory instead
__global__ void setFlags(float *P, Flags F) { P[threadIdx.x] = F.Count; }

struct Span {
  float *Data;
  long Stride;
};
// CHECK-NOT: error: kernel 'span
__global__ void span(Span S) { S.Data[threadIdx.x] = S.Stride; }
