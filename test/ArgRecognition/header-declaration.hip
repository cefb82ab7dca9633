// A recognised butterfly in a kernel that also calls crosslane.h's argmin:
// the header declares __crosslane_argmin_f32_i32 with HIP's return type
// ([2 x i32]), the recogniser calls it with { float, i32 }. Such a call has
// no getCalledFunction(); the expansion skipped it (an undefined symbol at
// link time) and the recogniser's remark dereferenced it (a crash under
// -Rpass). Found by a red team. Both calls are now expanded.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S -emit-llvm -Rpass=crosslane-recognize-arg -Rpass-missed=crosslane-recognize-arg %s -o %t/x.ll 2>&1 | FileCheck %s
// CHECK: remark: recognised argmin f32/i32{{.*}}replaced by __crosslane_argmin_f32_i32
// RUN: %hipcc --no-crosslane --offload-arch=gfx942 --cuda-device-only -nogpulib -O2 -S -emit-llvm %s -o %t/ref.ll
// RUN: not grep -q "call.*@__crosslane_" %t/x.ll
// RUN: %crosslane-run %t/ref.ll --diff=%t/x.ll --mcpu=gfx942 --block=N --arg=buf:f32:N:input --arg=buf:i16:N:input --arg=buf:i64:N:zero --arg=buf:i32:N:zero --arg=i32:N --sizes=64,40 --inputs=random,ties,nan-each,pm-zero --print=none | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <crosslane/hip/crosslane.h>
#include <hip/hip_runtime.h>

extern "C" __global__ void k(const float *F, const unsigned short *U16,
                             long long *O, int *O2, int N) {
  int T = threadIdx.x;
  if (T < N) {
    float V = F[T];
    int I = (int)U16[T];
    float BV = V;
    int BI = I;
    for (int M = 32; M > 0; M >>= 1) {
      float OV = __shfl_xor(BV, M);
      int OI = __shfl_xor(BI, M);
      if (OV < BV || (OV == BV && OI < BI)) {
        BV = OV;
        BI = OI;
      }
    }
    O[T] = BI;
    O2[T] = crosslane::argmin<16, 2, CROSSLANE_NAN_WINS>(V, I).index;
  }
}
