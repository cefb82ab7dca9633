// Two guard refinements for chains with a "no element" index, on a
// two-stage block argmax (BLAS style: 1-based indices, 0 = no element)
// ending with a 16-lane shfl_down ladder over the per-wave partials.
// - Groups nobody reads: on a 64-lane wave only lane 0 stores, so lanes
//   16-63 are not checked (a NaN or an inactive lane there used to send the
//   call to the original code).
// - Groups without an element: the combine keeps a lane's own pair when
//   both lanes hold none (proven per stage), so such a group gives each lane
//   its own pair; the guard only rules out an element at the encoding's
//   index, INT_MAX. Before, every group without an element (here: lanes
//   past the partials, every wave past n) ran the original code.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -gline-tables-only -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9: read-groups.hip:[[@LINE+52]]:{{.*}} recognised argmax f32/i32, {{.*}}, index 0 = no element over 16 lanes (shfl_down ladder, 4 stages on gfx942 wave64): {{.*}}, no element has index 2147483647; the values checked in lanes 0-15 only, the groups whose result is read; otherwise the original code runs
// G9: read-groups.hip:[[@LINE+66]]:{{.*}} recognised argmax f32/i32, {{.*}}, index 0 = no element over 16 lanes (shfl_down ladder, 4 stages on gfx942 wave64): {{.*}}, no element has index 2147483647; otherwise the original code runs
// G9: read-groups.hip:[[@LINE+81]]:{{.*}} recognised argmax f32/i32, {{.*}}, index 0 = no element over 16 lanes (shfl_down ladder, 4 stages on gfx942 wave64): {{.*}}, some lane holds an index other than 0; otherwise the original code runs
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// The fast path (-crosslane-fallback-trap): 0 to 16 partials, a NaN in an
// unread lane (40), 20 threads (lanes 20-63 inactive):
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=lane0_reads --block=64 --sizes=0,1,5,16 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:1:zero --arg=i32:N --print=none --inputs=random,ties,all-equal,pm-inf,neg-max --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=lane0_reads --block=64 --sizes=16 --arg=buf:i32:64:iota --arg=buf:f32:64:gen=nan-at=40 --arg=buf:i32:1:zero --arg=i32:N --print=none --inputs=random --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=lane0_reads --block=20 --sizes=1,5,16 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:1:zero --arg=i32:N --print=none --inputs=random,ties --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --kernel=every_group_reads --block=64 --sizes=0,5,16,40,64 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:4:zero --arg=i32:N --print=none --inputs=random,ties,all-equal,pm-inf,neg-max --cases=3 | FileCheck %s --check-prefix=DIFF
// Every input, also past the fast path:
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=lane0_reads --block=64 --sizes=0,1,5,16 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:1:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=lane0_reads --block=20 --sizes=0,5,16 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:1:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=every_group_reads --block=64 --sizes=0,5,16,40,64 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:4:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// An empty self takes an empty partner: groups without an element are
// decided by lane order, and run the original code.
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=empty_takes_partner --block=64 --sizes=0,5,16,40,64 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:4:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: not %crosslane-run %t/g9.trap.ll --kernel=empty_takes_partner --block=64 --arg=buf:i32:64:iota --arg=buf:f32:64:random --arg=buf:i32:4:zero --arg=i32:16 --print=none 2>&1 | FileCheck %s --check-prefix=TRAP
// TRAP: the kernel trapped
// On a 32-lane wave the ladder leaves lanes 16-31 empty:
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g11.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/g11.ll -o %t/g11.x.ll 2>&1 | FileCheck %s --check-prefix=G11
// G11: over 16 lanes (shfl_down ladder, 4 stages on gfx1100 wave32): {{.*}}; the values checked in lanes 0-15 only, the groups whose result is read;
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g11.ll -o %t/g11.trap.ll
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.trap.ll --kernel=lane0_reads --block=32 --sizes=0,1,5,16 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:1:zero --arg=i32:N --print=none --inputs=random,ties,all-equal,pm-inf,neg-max --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=lane0_reads --block=32 --sizes=0,1,5,16 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:1:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g11.ll --diff=%t/g11.x.ll --kernel=every_group_reads --block=32 --sizes=0,5,16,20,32 --arg=buf:i32:64:iota --arg=buf:f32:64:input --arg=buf:i32:4:zero --arg=i32:N --print=none --inputs=all --cases=3 | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

struct Best {
  int Index; // 1-based; 0: no element
  float Value;
};

__device__ inline void keepBetter(Best &Mine, Best Other) {
  if (Other.Index == 0)
    return;
  if (Mine.Index == 0 || Other.Value > Mine.Value ||
      (Other.Value == Mine.Value && Other.Index < Mine.Index))
    Mine = Other;
}

// The second stage: lane t of the first wave holds partial t (t < Parts);
// the other lanes hold no element, with whatever value is in memory.
extern "C" __global__ void lane0_reads(const int *Ids, const float *Vals,
                                       int *Out, int Parts) {
  int T = threadIdx.x;
  Best B{T < Parts ? Ids[T] + 1 : 0, Vals[T]};
  for (int Off = 8; Off > 0; Off >>= 1) {
    Best O;
    O.Index = __shfl_down(B.Index, Off);
    O.Value = __shfl_down(B.Value, Off);
    keepBetter(B, O);
  }
  if (T == 0)
    Out[0] = B.Index;
}

// Every group's first lane stores its group's answer (0 for none).
extern "C" __global__ void every_group_reads(const int *Ids, const float *Vals,
                                             int *Out, int Parts) {
  int T = threadIdx.x;
  Best B{T < Parts ? Ids[T] + 1 : 0, Vals[T]};
  for (int Off = 8; Off > 0; Off >>= 1) {
    Best O;
    O.Index = __shfl_down(B.Index, Off);
    O.Value = __shfl_down(B.Value, Off);
    keepBetter(B, O);
  }
  if ((T & 15) == 0)
    Out[T / 16] = B.Index;
}

// An empty lane takes whatever its partner holds, an empty one too.
extern "C" __global__ void empty_takes_partner(const int *Ids,
                                               const float *Vals, int *Out,
                                               int Parts) {
  int T = threadIdx.x;
  Best B{T < Parts ? Ids[T] + 1 : 0, Vals[T]};
  for (int Off = 8; Off > 0; Off >>= 1) {
    Best O;
    O.Index = __shfl_down(B.Index, Off);
    O.Value = __shfl_down(B.Value, Off);
    if (B.Index == 0 ||
        (O.Index != 0 && (O.Value > B.Value ||
                          (O.Value == B.Value && O.Index < B.Index))))
      B = O;
  }
  if ((T & 15) == 0)
    Out[T / 16] = B.Index;
}
