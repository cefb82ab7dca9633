// A combine taking its pairs by `const&` and returning one of them copies
// the chosen struct from a select of two stack slots: `memcpy(p,
// select(c, &o, &p), 16)` for a {float, int64} or {int64, double} pair
// (copies of up to 8 bytes InstCombine already turns into one load). The
// recogniser splits such copies into per-field loads, selects and stores
// when no slot involved ever holds a value in its padding, lets SROA and
// InstCombine finish, and then recognises the butterfly. A pair filled by
// a copy from memory holds the source's padding bytes, which the original
// moves along: left alone.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: recognised argmax f32/i64, {{.*}}xor butterfly, 6 stages
// REMARK: recognised argmin f64/i64, {{.*}}xor butterfly, 6 stages
// REMARK: recognised argmax f32/i64, {{.*}}shfl_down ladder, 6 stages
// RUN: FileCheck %s --check-prefix=IR < %t/w64.x.ll
// IR-LABEL: define {{.*}} @cref_f32_i64(
// IR-NOT: call void @llvm.memcpy
// IR: ret void
// IR-LABEL: define {{.*}} @from_memory(
// IR: call void @llvm.memcpy
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=cref_f32_i64 --mcpu=gfx942 --block=N --sizes=64,20,1 --print=none --arg=buf:f32:N:input --arg=buf:i64:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=functor_f64_i64 --mcpu=gfx942 --block=N --sizes=64,20,1 --print=none --arg=buf:f64:N:input --arg=buf:i64:N*2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=select_whole --mcpu=gfx942 --block=N --sizes=64,20,1 --print=none --arg=buf:f32:N:input --arg=buf:i64:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=from_memory --mcpu=gfx942 --block=N --sizes=64,20 --print=none --arg=buf:i32:N*4:random --arg=buf:i32:N*4:zero --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=two_types --mcpu=gfx942 --block=N --sizes=64,40 --print=none --arg=buf:f32:N:input --arg=buf:i32:N:zero --arg=buf:i32:N*8:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// With the fallback sent to a trap, NaN-free full waves take the fast path.
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=cref_f32_i64 --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:random --arg=buf:i64:1:zero --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=functor_f64_i64 --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f64:N:random --arg=buf:i64:N*2:zero --cases=6 | FileCheck %s --check-prefix=DIFF
// At -O1 and on wave32 too.
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O1 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-3: recognised
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=cref_f32_i64 --mcpu=gfx1100 --block=N --sizes=32,20 --print=none --arg=buf:f32:N:input --arg=buf:i64:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=functor_f64_i64 --mcpu=gfx1100 --block=N --sizes=32,20 --print=none --arg=buf:f64:N:input --arg=buf:i64:N*2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=select_whole --mcpu=gfx1100 --block=N --sizes=32,20 --print=none --arg=buf:f32:N:input --arg=buf:i64:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

struct Pair {
  float V;
  long long I;
};

__device__ const Pair &better(const Pair &A, const Pair &B) {
  return (B.V > A.V || (B.V == A.V && B.I < A.I)) ? B : A;
}

extern "C" __global__ void cref_f32_i64(const float *X, long long *Out) {
  Pair P{X[threadIdx.x], (long long)threadIdx.x};
  for (int M = warpSize / 2; M > 0; M /= 2) {
    Pair O{__shfl_xor(P.V, M), __shfl_xor(P.I, M)};
    P = better(P, O);
  }
  if (threadIdx.x == 0)
    Out[0] = P.I;
}

// hipCUB-style: a key-value pair and a functor taking `const&`.
struct KeyValue {
  long long Key;
  double Value;
};
struct ArgMin {
  __device__ KeyValue operator()(const KeyValue &A, const KeyValue &B) const {
    if (B.Value < A.Value || (A.Value == B.Value && B.Key < A.Key))
      return B;
    return A;
  }
};

extern "C" __global__ void functor_f64_i64(const double *X, KeyValue *Out) {
  KeyValue P{(long long)threadIdx.x, X[threadIdx.x]};
  ArgMin Op;
  for (int M = 1; M < warpSize; M *= 2) {
    KeyValue O{__shfl_xor(P.Key, M), __shfl_xor(P.Value, M)};
    P = Op(P, O);
  }
  Out[threadIdx.x] = P;
}

// The pair chosen as a whole, stored as a whole from lane 0.
extern "C" __global__ void select_whole(const float *X, Pair *Out) {
  Pair P{X[threadIdx.x], (long long)threadIdx.x};
  for (int D = warpSize / 2; D > 0; D /= 2) {
    Pair O{__shfl_down(P.V, D), __shfl_down(P.I, D)};
    P = (O.V > P.V || (O.V == P.V && O.I < P.I)) ? O : P;
  }
  if (threadIdx.x == 0)
    Out[0] = P;
}

// Loaded as a whole: its padding holds the source's bytes.
extern "C" __global__ void from_memory(const Pair *In, Pair *Out) {
  Pair P = In[threadIdx.x];
  for (int M = warpSize / 2; M > 0; M /= 2) {
    Pair O;
    O.V = __shfl_xor(P.V, M);
    O.I = __shfl_xor(P.I, M);
    P = better(P, O);
  }
  Out[threadIdx.x] = P;
}

// Copies between slots of two struct types (red team): a field of the
// padding-free type lands in the other's padding, and is read back. Slots
// of more than one type are left alone (split, the original's 1000 + t
// became 0 in every lane).
struct Tagged {
  float V;
  int Tag;
  long long I;
};
__device__ const Pair &byIndex(const Pair &A, const Pair &B) {
  return B.I > A.I ? B : A;
}
__device__ const Tagged &betterTagged(const Tagged &A, const Tagged &B) {
  bool C = (B.V > A.V) | ((B.V == A.V) & (B.I < A.I));
  return C ? B : A;
}
extern "C" __global__ void two_types(const float *X, int *Out,
                                     Tagged *Out2) {
  unsigned T = threadIdx.x;
  Tagged P{X[T], int(T * 3 + 11), (long long)T};
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    Tagged O{__shfl_xor(P.V, M), __shfl_xor(P.Tag, M), __shfl_xor(P.I, M)};
    P = betterTagged(P, O);
  }
  Tagged A{X[T] * 2.0f, 1000 + int(T), 77};
  Pair Z{X[T] * 0.5f, -1};
  Pair Y;
  __builtin_memcpy(&Y, &betterTagged(A, P), sizeof(Pair));
  Tagged R;
  __builtin_memcpy(&R, &byIndex(Z, Y), sizeof(Pair));
  Tagged W{X[T] + 1.0f, 5, 7};
  Out2[T] = betterTagged(W, R);
  Out2[T + blockDim.x] = betterTagged(P, W);
  Out[T] = R.Tag;
}
