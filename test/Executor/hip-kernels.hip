// HIP kernels compiled by clang (at -O2 and -O0, without and with the ROCm
// device libraries) run on the executor: threadIdx/blockIdx/blockDim/
// gridDim, __shared__ memory with __syncthreads, a tree reduction, __shfl_xor
// butterflies, __ballot, atomics; outputs checked against known values.
// REQUIRES: executor, hip-headers
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S -emit-llvm --no-crosslane %s -o %t.o2.ll
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O0 -S -emit-llvm --no-crosslane %s -o %t.o0.ll
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm --no-crosslane %s -o %t.devlibs.ll
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only -nogpulib -O2 -S -emit-llvm --no-crosslane %s -o %t.w32.ll
// RUN: %crosslane-run %t.o2.ll --kernel=_Z4sumsPiPKii --grid=2 --block=256 --arg=buf:i32:110:zero --arg=buf:i32:512:iota --arg=i32:512 | FileCheck %s --check-prefixes=CHECK,W64
// RUN: %crosslane-run %t.o0.ll --kernel=_Z4sumsPiPKii --grid=2 --block=256 --arg=buf:i32:110:zero --arg=buf:i32:512:iota --arg=i32:512 | FileCheck %s --check-prefixes=CHECK,W64
// RUN: %crosslane-run %t.devlibs.ll --kernel=_Z4sumsPiPKii --grid=2 --block=256 --arg=buf:i32:110:zero --arg=buf:i32:512:iota --arg=i32:512 | FileCheck %s --check-prefixes=CHECK,W64
// RUN: %crosslane-run %t.w32.ll --kernel=_Z4sumsPiPKii --grid=2 --block=256 --arg=buf:i32:110:zero --arg=buf:i32:512:iota --arg=i32:512 | FileCheck %s --check-prefixes=CHECK,W32
// gfx1100 wave64 (from the module's target-features): ds_bpermute, which
// __shfl_xor uses, cannot cross 32-lane halves on GFX10+ wave64, so the
// xor-32 step adds a lane to itself (research §12.12).
// RUN: %hipcc --offload-arch=gfx1100 -mwavefrontsize64 --cuda-device-only -nogpulib -O2 -S -emit-llvm --no-crosslane %s -o %t.w64.ll
// RUN: %crosslane-run %t.w64.ll --kernel=_Z4sumsPiPKii --grid=2 --block=256 --arg=buf:i32:110:zero --arg=buf:i32:512:iota --arg=i32:512 | FileCheck %s --check-prefixes=CHECK,GFX11W64
// RUN: %crosslane-run %t.o2.ll --kernel=_Z6floatsPfPKfi --grid=1 --block=64 --arg=buf:f32:64:zero --arg=buf:f32:64:iota --arg=i32:60 | FileCheck %s --check-prefix=FLT
// RUN: %crosslane-run %t.o0.ll --kernel=_Z6floatsPfPKfi --grid=1 --block=64 --arg=buf:f32:64:zero --arg=buf:f32:64:iota --arg=i32:60 | FileCheck %s --check-prefix=FLT
// RUN: %crosslane-run %t.devlibs.ll --kernel=_Z6floatsPfPKfi --grid=1 --block=64 --arg=buf:f32:64:zero --arg=buf:f32:64:iota --arg=i32:60 | FileCheck %s --check-prefix=FLT
// RUN: %crosslane-run %t.o2.ll --kernel=_Z3revPiPKi --block=64 --arg=buf:i32:64:zero --arg=buf:i32:64:iota --dynamic-lds=256 | FileCheck %s --check-prefix=DYN
// RUN: not %crosslane-run %t.o2.ll --kernel=_Z3revPiPKi --block=64 --arg=buf:i32:64:zero --arg=buf:i32:64:iota 2>&1 | FileCheck %s --check-prefix=NODYN
#include <hip/hip_runtime.h>

__global__ void sums(int *out, const int *in, int n) {
  __shared__ int sh[256];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  sh[t] = g < n ? in[g] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      sh[t] += sh[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(&out[0], sh[0]);
  int v = g;
  for (int m = 1; m < warpSize; m <<= 1)
    v += __shfl_xor(v, m);
  if (t % warpSize == 0)
    out[1 + g / warpSize] = v;
  unsigned long long b = __ballot(g % 3 == 0);
  if (g == 0)
    out[100] = __popcll(b);
  atomicMax(&out[101], g);
  atomicMin(&out[103], -g);
  if (t == 0)
    out[104 + blockIdx.x] = blockDim.x * 1000 + gridDim.x;
  if (g == 0)
    out[106] = warpSize;
}

__global__ void floats(float *out, const float *in, int n) {
  int t = threadIdx.x;
  if (t >= n)
    return;
  float x = in[t];
  out[t] = sqrtf(fmaxf(x - 4.0f, 0.0f)) + fabsf(-x) * 0.5f;
}

// Sum over all 512 items, then per-wave sums of the global ids.
// CHECK: arg0[0] = 130816
// W64: arg0[1] = 2016
// W64: arg0[2] = 6112
// W64: arg0[8] = 30688
// W32: arg0[1] = 496
// W32: arg0[2] = 1520
// W32: arg0[16] = 15856
// GFX11W64: arg0[1] = 992
// W64: arg0[100] = 22
// GFX11W64: arg0[100] = 22
// W32: arg0[100] = 11
// CHECK: arg0[101] = 511
// CHECK: arg0[103] = -511
// CHECK: arg0[104] = 256002
// CHECK: arg0[105] = 256002
// W64: arg0[106] = 64
// GFX11W64: arg0[106] = 64
// W32: arg0[106] = 32

// FLT: arg0[0] = 0
// FLT: arg0[5] = 3.5
// FLT: arg0[8] = 6
// FLT: arg0[13] = 9.5
// FLT: arg0[59] = 36.9161987
// FLT: arg0[60] = 0

// Dynamic shared memory (extern __shared__) after a static __shared__ array.
__global__ void rev(int *out, const int *in) {
  extern __shared__ int s[];
  __shared__ int fixed[4];
  int t = threadIdx.x;
  if (t < 4)
    fixed[t] = t * 100;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[blockDim.x - 1 - t] + fixed[t % 4];
}
// DYN: arg0[0] = 63
// DYN: arg0[1] = 162
// DYN: arg0[63] = 300
// NODYN: crosslane-run: error: out-of-bounds store of 4 bytes at offset 1040 of 'LDS' (size 1040)
