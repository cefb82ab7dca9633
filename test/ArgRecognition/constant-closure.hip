// The proof evaluates a combine on representatives: the constants it
// compares with and their neighbours, plus a fixed set. That argument only
// holds when every value the combine compares is a state value itself or
// is built from one by operations the representatives are closed under.
// The red team found three that were not (each replaced and wrong before):
// - fabs/fneg: `fabs(o) == 3 && o != 3` holds only at -3; constants now
//   also enter negated when the program has fabs or fneg.
// - an i64's words read alone: `(int)v == 7 && v != 7` holds only for a
//   high word other than 0; the constants now also enter as either word
//   under several others when the program splits a pair.
// - a double's bits compared as an integer (through a shift and a
//   truncation): refused as "an integer compare of floating-point bits",
//   as a direct bitcast already was.
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -disable-output %t.ll 2>&1 | FileCheck %s
// CHECK: constant-closure.hip:[[@LINE+14]]:{{.*}} not replaced
// CHECK: constant-closure.hip:[[@LINE+21]]:{{.*}} not replaced
// CHECK: constant-closure.hip:[[@LINE+28]]:{{.*}} not replaced (NotAStage): an integer compare of floating-point bits
// CHECK: constant-closure.hip:[[@LINE+39]]:{{.*}} recognised argmax f32/i32
// CHECK-NOT: recognised

#include <hip/hip_runtime.h>

#define ALL __attribute__((amdgpu_flat_work_group_size(64, 64)))

extern "C" __global__ ALL void fabs_const(const float *X, float *Out) {
  float V = X[threadIdx.x];
  for (int M = warpSize / 2; M >= 2; M /= 2)
    V = fminf(V, __shfl_xor(V, M));
  float O = __shfl_xor(V, 1);
  Out[threadIdx.x] = (__builtin_fabsf(O) == 3.0f && O != 3.0f) ? V : fminf(V, O);
}

extern "C" __global__ ALL void low_word_const(const long long *X,
                                              long long *Out) {
  long long V = X[threadIdx.x];
  for (int M = warpSize / 2; M >= 2; M /= 2)
    V = min(V, __shfl_xor(V, M));
  long long O = __shfl_xor(V, 1);
  Out[threadIdx.x] = ((int)V == 7 && V != 7) ? V : min(V, O);
}

extern "C" __global__ ALL void double_bits(const double *X, double *Out) {
  double V = X[threadIdx.x];
  for (int M = warpSize / 2; M >= 1; M /= 2) {
    double O = __shfl_xor(V, M);
    bool Skip = (int)(__double_as_longlong(O) >> 32) == 0x40080000;
    V = Skip ? V : fmin(V, O);
  }
  Out[threadIdx.x] = V;
}

// Still recognised: iamax's |x| with a tie-break (fabs on both sides).
extern "C" __global__ ALL void iamax_like(const float *X, int *Out) {
  float V = __builtin_fabsf(X[threadIdx.x]);
  int I = threadIdx.x;
  for (int M = warpSize / 2; M >= 1; M /= 2) {
    float O = __shfl_xor(V, M);
    int J = __shfl_xor(I, M);
    if (O > V || (O == V && J < I)) {
      V = O;
      I = J;
    }
  }
  Out[threadIdx.x] = I;
}
