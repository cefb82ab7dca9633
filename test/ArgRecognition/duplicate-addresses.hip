// At -O1, when the module also uses __shfl_xor with an explicit width (the
// second kernel), clang keeps the header's lane-bounds arithmetic per
// shuffle: the value's and the index's ds_bpermute get two address values
// with the same lanes. Stages were keyed by the address value, so each
// exchange of the pair became a stage of its own and the argmax was
// refused (NotAStage). Addresses whose lanes agree are now one stage.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O1 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=row_argmax --mcpu=gfx942 --block=64 --sizes=1,7,64,150 --print=none --arg=buf:f32:160:input --arg=buf:i32:4:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 -mwavefrontsize64 --cuda-device-only --no-crosslane -nogpulib -O1 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11: recognised argmax f32/i32
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=row_argmax --mcpu=gfx1100 --mattr=+wavefrontsize64 --block=64 --sizes=1,7,64,150 --print=none --arg=buf:f32:160:input --arg=buf:i32:4:zero --arg=i32:N --inputs=random,ties,nan-each,pm-zero | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

extern "C" __global__ void row_argmax(const float *X, int *Out, int N) {
  float V = -__builtin_huge_valf();
  int I = -1;
  for (int J = threadIdx.x; J < N; J += blockDim.x)
    if (X[J] > V) {
      V = X[J];
      I = J;
    }
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    float OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  if (threadIdx.x % warpSize == 0)
    Out[threadIdx.x / warpSize] = I;
}

extern "C" __global__ void narrow(const int *X, int *Out) {
  Out[threadIdx.x] = __shfl_xor(X[threadIdx.x], 1, 32);
}
