// ROCm 5.2's device libraries and <hip/hip_fp16.h> under clang 22, through
// crosslane-hipcc: f32 math that reads __oclc_daz_opt (rsqrtf, sqrtf, expf,
// logf, powf, fmodf, cbrtf, atan2f) links (clang 22 no longer links
// oclc_daz_opt_*.bc; build/device-libs/ocml.bc defines it), and hip_fp16.h
// compiles (__llvm_amdgcn_rcp_f16 is defined by rocm_compat.h). Both run in
// the executor with the expected values.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 -O2 -c %s -o %t/a.o
// RUN: %hipcc --offload-arch=gfx1100 -O2 -c %s -o %t/b.o
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm %s -o %t/a.ll
// RUN: not grep -q "external.*__oclc_daz_opt" %t/a.ll
// RUN: %crosslane-run %t/a.ll --kernel=math32 --block=1 --arg=buf:f32:8:zero | FileCheck %s --check-prefix=MATH
// MATH: arg0[0] = 0.5
// MATH: arg0[1] = 2
// MATH: arg0[2] = 54.598{{[0-9]+}}
// MATH: arg0[3] = 1.3862{{[0-9]+}}
// MATH: arg0[4] = 16
// MATH: arg0[5] = 1
// MATH: arg0[6] = 1.5874{{[0-9]+}}
// MATH: arg0[7] = 0.7853{{[0-9]+}}
// RUN: %crosslane-run %t/a.ll --kernel=half_ops --block=2 --arg=buf:f16:2:const=2 --arg=buf:f16:2:zero | FileCheck %s --check-prefix=HALF
// HALF: arg1[0] = 2
// HALF: arg1[1] = 2
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

extern "C" __global__ void math32(float *O) {
  volatile float Four = 4.0f;
  float X = Four;
  O[0] = rsqrtf(X);
  O[1] = sqrtf(X);
  O[2] = expf(X);
  O[3] = logf(X);
  O[4] = powf(X, 2.0f);
  O[5] = fmodf(X + 1.0f, 2.0f);
  O[6] = cbrtf(X);
  O[7] = atan2f(X, X);
}

extern "C" __global__ void half_ops(const __half *A, __half *O) {
  int I = threadIdx.x;
  __half2 X = __halves2half2(A[I], A[I]);
  __half2 Y = __hadd2(X, X);
  O[I] = __hmul(__low2half(Y), hrcp(A[I]));
}
