// `short` and `signed char` indices with -1 as "no element": the word holds
// the index sign-extended, and clang tests `(short)w == -1` on the partner's
// word as `(w << 16) == -65536` (`(w << 24) == -16777216` for a char). The
// combine program compiles such a test as the narrow value compared with
// the constant shifted back when the word provably fits in the narrow
// range (LLVM's known bits), and the sentinel candidates include that
// value. An index exchanged zero-extended (`(unsigned short)`) compares
// with 65535 instead, and is refused (see the kernels).
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=W64
// W64-COUNT-2: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0, index -1 = no element over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// W64: not replaced (NotAStage): the combine reads a value computed by '{{[a-z]+}}', which is neither
// W64: not replaced (NotAStage): 'ashr' in the combine
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/w64.ll -o %t/w64.trap.ll
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=short_none --mcpu=gfx942 --block=64 --sizes=0,1,7,33,64 --arg=buf:f32:64:input --arg=buf:i16:64:zero --arg=i32:N --inputs=all --cases=4 --print=none | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=char_none --mcpu=gfx942 --block=64 --sizes=0,1,7,33,64 --arg=buf:f32:64:input --arg=buf:i8:64:zero --arg=i32:N --inputs=all --cases=4 --print=none | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=short_inline --mcpu=gfx942 --block=64 --sizes=0,7,64 --arg=buf:f32:64:input --arg=buf:i16:64:zero --arg=i32:N --inputs=all --cases=2 --print=none | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=ushort_none --mcpu=gfx942 --block=64 --sizes=0,1,7,33,64 --arg=buf:f32:64:input --arg=buf:i16:64:zero --arg=i32:N --inputs=all --cases=4 --print=none | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=short_none --mcpu=gfx942 --block=64 --sizes=1,7,33,64 --arg=buf:f32:64:input --arg=buf:i16:64:zero --arg=i32:N --inputs=random,ties,pm-inf,neg-max --cases=4 --print=none | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.trap.ll --kernel=char_none --mcpu=gfx942 --block=64 --sizes=1,7,33,64 --arg=buf:f32:64:input --arg=buf:i8:64:zero --arg=i32:N --inputs=random,ties,pm-inf,neg-max --cases=4 --print=none | FileCheck %s --check-prefix=DIFF
// Wave32:
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=W32
// W32-COUNT-2: recognised argmax f32/i32, {{.*}}index -1 = no element over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32)
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=short_none --mcpu=gfx1100 --block=32 --sizes=0,1,7,32 --arg=buf:f32:32:input --arg=buf:i16:32:zero --arg=i32:N --inputs=all --cases=4 --print=none | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=char_none --mcpu=gfx1100 --block=32 --sizes=0,1,7,32 --arg=buf:f32:32:input --arg=buf:i8:32:zero --arg=i32:N --inputs=all --cases=4 --print=none | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

extern "C" __global__ void short_none(const float *X, short *Out, int N) {
  int T = threadIdx.x;
  float V = T < N ? X[T] : 0.0f;
  short I = T < N ? (short)T : (short)-1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl_xor(V, M);
    short OI = (short)__shfl_xor((int)I, M);
    bool Take = OI != -1 && (I == -1 || OV > V || (OV == V && OI < I));
    if (Take) {
      V = OV;
      I = OI;
    }
  }
  Out[T] = I;
}

extern "C" __global__ void char_none(const float *X, signed char *Out, int N) {
  int T = threadIdx.x;
  float V = T < N ? X[T] : 0.0f;
  signed char I = T < N ? (signed char)T : (signed char)-1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl_xor(V, M);
    signed char OI = (signed char)__shfl_xor((int)I, M);
    bool Take = OI != -1 && (I == -1 || OV > V || (OV == V && OI < I));
    if (Take) {
      V = OV;
      I = OI;
    }
  }
  Out[T] = I;
}

// The same test in the `if`: clang carries the lane's own `short` beside
// its word, and on one path replaces it by `(short)tid`, which only the
// path's condition makes equal (`I != -1`): refused (NotAStage), a gap.
extern "C" __global__ void short_inline(const float *X, short *Out, int N) {
  int T = threadIdx.x;
  float V = T < N ? X[T] : 0.0f;
  short I = T < N ? (short)T : (short)-1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl_xor(V, M);
    short OI = (short)__shfl_xor((int)I, M);
    if (OI != -1 && (I == -1 || OV > V || (OV == V && OI < I))) {
      V = OV;
      I = OI;
    }
  }
  Out[T] = I;
}

// Exchanged zero-extended: refused ('ashr' of a word that is not known to
// fit in 16 signed bits).
extern "C" __global__ void ushort_none(const float *X, short *Out, int N) {
  int T = threadIdx.x;
  float V = T < N ? X[T] : 0.0f;
  short I = T < N ? (short)T : (short)-1;
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl_xor(V, M);
    short OI = (short)__shfl_xor((int)(unsigned short)I, M);
    if (OI != -1 && (I == -1 || OV > V || (OV == V && OI < I))) {
      V = OV;
      I = OI;
    }
  }
  Out[T] = I;
}
