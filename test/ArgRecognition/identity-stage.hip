// A value butterfly, then a second butterfly over the indices its result
// selects (`lmax == maxv ? lidx : INT_MAX`, min), both starting at
// __shfl_xor(v, 32). On GFX10+ wave64 ds_bpermute stays inside the lane's
// 32-lane half, so that first stage reads the lane itself (an identity
// stage) and carries no offset: the index butterfly's first stage was
// linked after the value butterfly's last one, the combined chain was
// refused (NotAStage) and the fmax left alone. An identity stage now counts
// with the offset its address names, so each butterfly is its own chain.
// Both are replaced on gfx1030 and gfx1100 in wave64 and on gfx942, and
// compute the same as the original.
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx1100 -mwavefrontsize64 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=W64
// W64-DAG: recognised fmax f32, -0 < +0 over 32 lanes (xor butterfly, 6 stages on gfx1100 wave64)
// W64-DAG: recognised smin i32 over 32 lanes (xor butterfly, 6 stages on gfx1100 wave64)
// W64-NOT: NotAStage
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=max_then_index --mcpu=gfx1100 --mattr=+wavefrontsize64 --block=64 --sizes=1,31,64,200 --print=none --arg=buf:f32:256:input --arg=buf:i32:2:zero --arg=buf:f32:1:zero --arg=i32:N --inputs=all | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1030 -mwavefrontsize64 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/g10.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/g10.ll -o %t/g10.x.ll 2>&1 | FileCheck %s --check-prefix=G10
// G10-COUNT-2: recognised
// RUN: %crosslane-run %t/g10.ll --diff=%t/g10.x.ll --kernel=max_then_index --mcpu=gfx1030 --mattr=+wavefrontsize64 --block=64 --sizes=1,31,64,200 --print=none --arg=buf:f32:256:input --arg=buf:i32:2:zero --arg=buf:f32:1:zero --arg=i32:N --inputs=random,ties,nan-each,all-nan,pm-zero | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9-COUNT-2: recognised
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --kernel=max_then_index --mcpu=gfx942 --block=64 --sizes=1,31,64,200 --print=none --arg=buf:f32:256:input --arg=buf:i32:2:zero --arg=buf:f32:1:zero --arg=i32:N --inputs=random,ties,nan-each,all-nan,pm-zero | FileCheck %s --check-prefix=DIFF
// At -O1 both loops stay rolled and get unrolled copies (LadderLoops.h);
// the index loop itself (not its copy) was linked after the value copy's
// last stage, and the value butterfly was silently kept. A chain now stays
// within one ladder copy or loop.
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O1 -S -emit-llvm %s -o %t/o1.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/o1.ll -o %t/o1.x.ll 2>&1 | FileCheck %s --check-prefix=O1
// O1-DAG: recognised fmax f32, -0 < +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// O1-DAG: recognised smin i32 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// RUN: %crosslane-run %t/o1.ll --diff=%t/o1.x.ll --kernel=max_then_index --mcpu=gfx942 --block=64 --sizes=1,31,64,200 --print=none --arg=buf:f32:256:input --arg=buf:i32:2:zero --arg=buf:f32:1:zero --arg=i32:N --inputs=random,ties,nan-each,all-nan,pm-zero | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

extern "C" __global__ void max_then_index(const float *X, int *Token,
                                          float *Max, int N) {
  int Lane = threadIdx.x % warpSize;
  float LMax = -__builtin_huge_valf();
  int LIdx = 0x7fffffff;
  for (int I = Lane; I < N; I += warpSize)
    if (X[I] > LMax) {
      LMax = X[I];
      LIdx = I;
    }
  float M = LMax;
  for (int O = warpSize / 2; O > 0; O >>= 1)
    M = fmaxf(M, __shfl_xor(M, O));
  int Cand = LMax == M ? LIdx : 0x7fffffff;
  for (int O = warpSize / 2; O > 0; O >>= 1)
    Cand = min(Cand, __shfl_xor(Cand, O));
  if (Lane == 0) {
    Token[0] = Cand;
    Token[1] = threadIdx.x;
    Max[0] = M;
  }
}
