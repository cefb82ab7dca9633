// 8- and 16-bit integers exchanged in 32-bit words: `unsigned char` and
// `unsigned short` values travel zero-extended and come back masked
// (`and w, 255`), `signed char` and `short` ones sign-extended and come
// back as `ashr (shl w, 24), 24`. The recogniser proves from the first
// words that they hold the narrow type (known bits, sign bits), proves the
// combine on representatives inside that range, where the mask and the
// shifts are copies, and replaces the chain by the i32 operation on the
// words. A `short` index carried beside its word as an i16 phi is a
// result (the word's low bits). A u8 word compared as `signed char` is a
// different order: refused.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: recognised argmax i32 (u8 values)/i32, ties: smallest index {{.*}}over 64 lanes (xor butterfly
// REMARK: recognised argmax i32 (i8 values)/i32, ties: smallest index over 64 lanes (xor butterfly
// REMARK: recognised argmin i32 (i16 values)/i32, ties: smallest index over 64 lanes (xor butterfly
// REMARK: recognised argmax i32 (u16 values)/i32, ties: smallest index {{.*}}over 64 lanes (xor butterfly
// REMARK: recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder
// REMARK: recognised argmax i32 (u8 values)/i32, ties: smallest index, index -1 = no element over 64 lanes
// REMARK: not replaced (NotAStage): 'ashr' in the combine
// REMARK: not replaced (NotATotalOrder)
// REMARK: recognised argmin i32 (u8 values)/i32
// REMARK: not replaced (NotATotalOrder)
// REMARK: not replaced (NotATotalOrder)
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_u8 --mcpu=gfx942 --block=N --sizes=64,40,1 --print=none --arg=buf:i8:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_i8 --mcpu=gfx942 --block=N --sizes=64,40,1 --print=none --arg=buf:i8:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmin_i16 --mcpu=gfx942 --block=N --sizes=64,40,1 --print=none --arg=buf:i16:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_u16 --mcpu=gfx942 --block=N --sizes=64,40,1 --print=none --arg=buf:i16:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmin_short_index --mcpu=gfx942 --block=N --sizes=64,20,1 --print=none --arg=buf:f32:N:input --arg=buf:i16:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_u8_scan --mcpu=gfx942 --block=64 --sizes=1,7,64,100,1000 --print=none --arg=buf:i8:N:input --arg=i32:N --arg=buf:i32:1:zero --arg=buf:i8:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=argmax_u8_as_s8 --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:i8:N:input --arg=buf:i32:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=own_value_unsigned --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:i8:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=bytes_both --mcpu=gfx942 --block=N --sizes=64,40,1 --print=none --arg=buf:i8:N:input --arg=buf:i8:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=keeps_minus_100 --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:i8:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=char_thread_index --mcpu=gfx942 --block=256 --sizes=256 --print=none --arg=buf:i32:N:input --arg=buf:i32:8:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// Fast path: with the fallback sent to a trap, full waves never trap.
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=argmax_i8 --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:i8:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=argmax_u8_scan --mcpu=gfx942 --block=64 --sizes=1,7,100,1000 --print=none --arg=buf:i8:N:input --arg=i32:N --arg=buf:i32:1:zero --arg=buf:i8:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=argmin_short_index --mcpu=gfx942 --block=64 --sizes=64 --print=none --arg=buf:f32:N:random --arg=buf:i16:1:zero --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-7: recognised
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmax_i8 --mcpu=gfx1100 --block=N --sizes=32,20 --print=none --arg=buf:i8:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmax_u16 --mcpu=gfx1100 --block=N --sizes=32,20 --print=none --arg=buf:i16:N:input --arg=buf:i32:2:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmin_short_index --mcpu=gfx1100 --block=N --sizes=32,20 --print=none --arg=buf:f32:N:input --arg=buf:i16:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=argmax_u8_scan --mcpu=gfx1100 --block=32 --sizes=1,7,100 --print=none --arg=buf:i8:N:input --arg=i32:N --arg=buf:i32:1:zero --arg=buf:i8:1:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

template <typename T, bool Max>
__device__ void argWave(T &V, int &I) {
  for (int M = warpSize / 2; M > 0; M /= 2) {
    T OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    if ((Max ? OV > V : OV < V) || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
}

// Each stores the index and the value (as an int) from lane 0.
#define KERNEL(NAME, T, MAX)                                                   \
  extern "C" __global__ void NAME(const T *X, int *Out) {                      \
    T V = X[threadIdx.x];                                                      \
    int I = threadIdx.x;                                                       \
    argWave<T, MAX>(V, I);                                                     \
    if (threadIdx.x == 0) {                                                    \
      Out[0] = I;                                                              \
      Out[1] = V;                                                              \
    }                                                                          \
  }
KERNEL(argmax_u8, unsigned char, true)
KERNEL(argmax_i8, signed char, true)
KERNEL(argmin_i16, short, false)
KERNEL(argmax_u16, unsigned short, true)

// A `short` index beside an f32 value, a shfl_down ladder read in lane 0.
extern "C" __global__ void argmin_short_index(const float *X, short *Out) {
  float V = X[threadIdx.x];
  short I = threadIdx.x;
  for (int D = warpSize / 2; D > 0; D /= 2) {
    float OV = __shfl_down(V, D);
    short OI = __shfl_down(I, D);
    if (OV < V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0)
    Out[0] = I;
}

// u8 values from a strided scan with -1 = no element; the value is
// stored as a byte (an i8 phi beside its word).
extern "C" __global__ void argmax_u8_scan(const unsigned char *X, int N,
                                          int *Out, unsigned char *OutV) {
  unsigned char V = 0;
  int I = -1;
  for (int K = threadIdx.x; K < N; K += blockDim.x)
    if (I == -1 || X[K] > V) {
      V = X[K];
      I = K;
    }
  for (int M = 1; M < warpSize; M *= 2) {
    unsigned char OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    if (OI != -1 && (I == -1 || OV > V || (OV == V && OI < I))) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0) {
    Out[0] = I;
    OutV[0] = V;
  }
}

// A u8 word compared as `signed char`: 128..255 order below 0, not the
// words' order.
extern "C" __global__ void argmax_u8_as_s8(const unsigned char *X, int *Out) {
  unsigned char V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int M = 1; M < warpSize; M *= 2) {
    unsigned char OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    if ((signed char)OV > (signed char)V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0)
    Out[0] = I;
}

// A `signed char` word whose lane compares its own value zero-extended in
// the first stage (`(unsigned char)V`, its low byte): not an argmax of the
// words. (The lane's own narrow value was once read as the whole
// sign-extended word, and this was replaced: 48 of 255 cases differed.)
extern "C" __global__ void own_value_unsigned(const signed char *X, int *Out) {
  signed char V = X[threadIdx.x];
  int I = threadIdx.x;
  {
    int OV = __shfl_xor((int)V, 1);
    int OI = __shfl_xor(I, 1);
    if (OV > (int)(unsigned char)V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  for (int M = 2; M < warpSize; M *= 2) {
    int OV = __shfl_xor((int)V, M);
    int OI = __shfl_xor(I, M);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0) {
    Out[0] = I;
    Out[1] = V;
  }
}

// A u8 value and a u8 index, both stored as bytes: the index's byte phi
// and its word are both cut from the work-item id (`(unsigned char)tid`
// beside `(int)tid & 255`).
extern "C" __global__ void bytes_both(const unsigned char *X,
                                      unsigned char *Out) {
  unsigned char V = X[threadIdx.x];
  unsigned char I = threadIdx.x;
  for (int M = warpSize / 2; M > 0; M /= 2) {
    unsigned char OV = __shfl_xor(V, M);
    unsigned char OI = __shfl_xor(I, M);
    if (OV < V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0) {
    Out[0] = I;
    Out[1] = V;
  }
}

// Red team: a lane holding -100 keeps its state. The i8 compare meets
// 0x9C, which the representatives must also take as -100 (they took 156,
// outside [-128, 127], and the chain was replaced as a plain argmax).
extern "C" __global__ void keeps_minus_100(const signed char *X, int *Out) {
  signed char V = X[threadIdx.x];
  int I = threadIdx.x;
  for (int M = warpSize / 2; M > 0; M /= 2) {
    signed char OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    if (V != (signed char)-100 && (OV > V || (OV == V && OI < I))) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x == 0) {
    Out[0] = I;
    Out[1] = V;
  }
}

// Red team: a `signed char` work-item id is negative past thread 127, so a
// sign test on it is not "no element" (it was taken as non-negative, and
// 256-thread blocks differed).
extern "C" __global__ void char_thread_index(const int *X, int *Out) {
  int V = X[threadIdx.x];
  signed char I = threadIdx.x;
  for (int M = warpSize / 2; M > 0; M /= 2) {
    int OV = __shfl_xor(V, M);
    int OI = __shfl_xor((int)I, M);
    if (OI >= 0 && (I < 0 || OV > V || (OV == V && OI < I))) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x % warpSize == 0) {
    Out[2 * (threadIdx.x / warpSize)] = I;
    Out[2 * (threadIdx.x / warpSize) + 1] = V;
  }
}
