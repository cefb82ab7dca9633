// A fence that orders memory only against the thread itself
// (`__atomic_signal_fence`, `fence syncscope("singlethread")`) is a
// compiler barrier no other thread can observe: the guarded region may
// contain it. Kokkos moves values wider than 8 bytes through int shuffles
// followed by such a fence, also in the broadcast of the result; the chain
// was refused ("the chain's code has side effects"). The same code with a
// workgroup fence in its place is still refused.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9: signal-fence.hip:[[@LINE+26]]:{{.*}} recognised argmin f64/i32, ties: by lane order, NaN ignored, -0 == +0 over 64 lanes (shfl_down ladder, 6 stages on gfx942 wave64): replaced by __crosslane_argmin_f64_i32, guarded at run time
// RUN: sed 's/syncscope("singlethread")/syncscope("workgroup")/' %t/g9.ll > %t/wg.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,verify' -pass-remarks-missed=crosslane-recognize-arg -disable-output %t/wg.ll 2>&1 | FileCheck %s --check-prefix=WG
// WG: not replaced (TieDependsOnLanes): {{.*}}a run-time guard is not possible: the chain's code has side effects
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=signal_fence --block=N --sizes=64,128,256 --arg=buf:f64:N:input --arg=buf:i32:4:zero --arg=i32:0 --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=signal_fence --block=N --sizes=64,128,256 --arg=buf:f64:N:input --arg=buf:i32:4:zero --arg=i32:0 --print=none --inputs=random --cases=5 | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11: recognised argmin f64/i32, {{.*}} over 32 lanes (shfl_down ladder, 5 stages on gfx1100 wave32)
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g11.ll -o %t/g11.trap.ll
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=signal_fence --block=N --sizes=32,64,96 --arg=buf:f64:N:input --arg=buf:i32:4:zero --arg=i32:0 --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=signal_fence --block=N --sizes=32,64,96 --arg=buf:f64:N:input --arg=buf:i32:4:zero --arg=i32:0 --print=none --inputs=random --cases=5 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

struct ValLoc {
  double Val;
  int Loc;
};

// Moves all 16 bytes (padding included) as four ints, then a signal fence.
__device__ inline ValLoc shuffleDown(const ValLoc &In, int Delta) {
  ValLoc Out = {};
  for (int K = 0; K < 4; ++K)
    reinterpret_cast<int *>(&Out)[K] = __shfl_down(
        reinterpret_cast<const int *>(&In)[K], Delta, warpSize);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  return Out;
}

// MinLoc without an index tie-break; lane 0's result is broadcast.
extern "C" __global__ void signal_fence(const double *X, int *Loc, int) {
  ValLoc V{X[threadIdx.x], (int)threadIdx.x};
  for (int S = 1; S < warpSize; S *= 2) {
    ValLoc T = shuffleDown(V, S);
    if (T.Val < V.Val)
      V = T;
  }
  ValLoc B = {};
  for (int K = 0; K < 4; ++K)
    reinterpret_cast<int *>(&B)[K] =
        __shfl(reinterpret_cast<const int *>(&V)[K], 0, warpSize);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (threadIdx.x % warpSize == 0)
    Loc[threadIdx.x / warpSize] = B.Loc;
}
