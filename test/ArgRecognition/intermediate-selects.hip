// Combines that clang compiles into nested selects whose inner select may
// take the other lane's state while the outer one keeps the lane's own:
// `!(o > b) && (o < b || oi < bi)` becomes
//   t = (b > o || oi < bi) ? partner : own;  r = (b < o) ? own : t
// and a rocPRIM-style DPP ArgMin (`(b.v < a.v || (a.v == b.v && b.k < a.k))
// ? b : a`). Only the values read after the last stage are its results; the
// inner select counted as one and the chain was refused as NotASelection
// ("the outputs take the value and the index from different lanes").
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O3 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: recognised argmin f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 4 lanes (xor butterfly, 2 stages on gfx942 wave64)
// REMARK-DAG: recognised argmin f32/i32{{.*}}over 64 lanes (lane maps, 6 stages on gfx942 wave64)
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=nested_select --mcpu=gfx942 --block=N --sizes=4,17,64 --print=none --arg=buf:f32:64:input --arg=buf:i32:64:zero --arg=buf:f32:64:zero --inputs=all --nan-equal | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=dpp_argmin --mcpu=gfx942 --grid=2 --block=64 --sizes=1,64,100,128 --print=none --arg=buf:f32:128:input --arg=buf:i32:2:zero --arg=buf:f32:2:zero --arg=i32:N --inputs=all --nan-equal | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
#include <hip/hip_runtime.h>

extern "C" __global__ void nested_select(const float *In, int *OutIdx,
                                         float *OutV) {
  int T = threadIdx.x;
  float Best = In[T];
  int BestIdx = T;
  for (int M = 1; M < 4; M <<= 1) {
    float O = __shfl_xor(Best, M);
    int OI = __shfl_xor(BestIdx, M);
    if (!(O > Best) && (O < Best || OI < BestIdx)) {
      Best = O;
      BestIdx = OI;
    }
  }
  OutIdx[T] = BestIdx;
  OutV[T] = Best;
}

struct KV {
  int Key;
  float Value;
};

template <int Ctrl, int RowMask = 0xf> __device__ KV dppKV(KV A) {
  KV R;
  R.Key = __builtin_amdgcn_update_dpp(0, A.Key, Ctrl, RowMask, 0xf, false);
  R.Value = __int_as_float(__builtin_amdgcn_update_dpp(
      0, __float_as_int(A.Value), Ctrl, RowMask, 0xf, false));
  return R;
}

__device__ KV argMin(const KV &A, const KV &B) {
  return (B.Value < A.Value || (A.Value == B.Value && B.Key < A.Key)) ? B : A;
}

// gfx9 DPP reduction; the result is complete in lane 63.
extern "C" __global__ void dpp_argmin(const float *X, int *OutKey,
                                      float *OutValue, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  KV V;
  V.Key = T < N ? T : 0x7fffffff;
  V.Value = T < N ? X[T] : __builtin_huge_valf();
  V = argMin(V, dppKV<0xb1>(V));       // quad_perm [1,0,3,2]
  V = argMin(V, dppKV<0x4e>(V));       // quad_perm [2,3,0,1]
  V = argMin(V, dppKV<0x124>(V));      // row_ror:4
  V = argMin(V, dppKV<0x128>(V));      // row_ror:8
  V = argMin(V, dppKV<0x142, 0xa>(V)); // row_bcast:15
  V = argMin(V, dppKV<0x143, 0xc>(V)); // row_bcast:31
  int K = __shfl(V.Key, 63);
  float Val = __shfl(V.Value, 63);
  if (threadIdx.x % 64 == 0) {
    OutKey[blockIdx.x] = K;
    OutValue[blockIdx.x] = Val;
  }
}
