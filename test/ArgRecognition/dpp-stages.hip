// Reductions whose stages are DPP or ds_swizzle moves (rocPRIM's
// warp_reduce_dpp and LLVM's scan style), not ds_bpermute shuffles. The
// recogniser follows each lane map on the chip lane by lane: quad_perm,
// row_ror, row_shr with zero fill (bound_ctrl) or the lane's own old value,
// row_bcast:15/31 with row masks, ds_swizzle bit mode. A chain that leaves
// the complete result only in some lanes (lanes 48-63 after row_bcast:31; lanes
// 16-31 after swizzle 0x1e0) is replaced only when the result is read from
// those lanes (`__shfl(v, 63)`, readlane); read in every lane it is refused.
// Every rewrite runs against the original in the wave executor.
// REQUIRES: hip-headers, executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w64.ll -o %t/w64.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: {{.*}}recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (lane maps, 6 stages on gfx942 wave64): replaced by __crosslane_argmax_f32_i32, guarded at run time
// REMARK: remark: {{.*}}not replaced (ResultInOtherLanes): the lane maps leave the result of each 64-lane group in lanes 48-63 only, but it is read where other lanes run
// REMARK: remark: {{.*}}recognised smax i32 over 64 lanes (lane maps, 6 stages on gfx942 wave64): replaced by __crosslane_reduce_smax_i32
// REMARK: remark: {{.*}}recognised argmax f32/i32, ties: smallest index, NaN ignored, -0 == +0 over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// REMARK-NOT: remark
// RUN: for k in dpp_argmax dpp_argmax_own scan_max mixed_quad_xor; do %crosslane-run %t/w64.ll --diff=%t/w64.x.ll --kernel=$k --mcpu=gfx942 --grid=1 --block=64 --seed=1 --print=none --arg=buf:f32:64:input --arg=buf:f32:64:zero --arg=buf:i32:64:zero --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max; done | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w32.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/w32.ll -o %t/w32.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK32
// REMARK32: remark: {{.*}}over 32 lanes (lane maps, 5 stages on gfx1100 wave32): replaced by __crosslane_argmax_f32_i32, guarded at run time
// REMARK32: remark: {{.*}}not replaced (ResultInOtherLanes): the lane maps leave the result of each 32-lane group in lanes 16-31 only
// REMARK32: remark: {{.*}}recognised smax i32 over 32 lanes (lane maps, 5 stages on gfx1100 wave32)
// REMARK32: remark: {{.*}}over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32)
// REMARK32: remark: {{.*}}over 32 lanes (xor butterfly, 5 stages on gfx1100 wave32)
// RUN: for k in dpp_argmax dpp_argmax_own scan_max mixed_quad_xor rdna_xmask; do %crosslane-run %t/w32.ll --diff=%t/w32.x.ll --kernel=$k --mcpu=gfx1100 --grid=1 --block=32 --seed=1 --print=none --arg=buf:f32:32:input --arg=buf:f32:32:zero --arg=buf:i32:32:zero --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max; done | FileCheck %s --check-prefix=DIFF
// RUN: %hipcc --offload-arch=gfx1100 -mwavefrontsize64 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/w64b.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -S %t/w64b.ll -o %t/w64b.x.ll 2>&1 | FileCheck %s --check-prefix=REMARK64B
// REMARK64B: remark: {{.*}}over 64 lanes (xor butterfly, 6 stages on gfx1100 wave64)
// RUN: %crosslane-run %t/w64b.ll --diff=%t/w64b.x.ll --kernel=rdna_xmask --mcpu=gfx1100 --mattr=+wavefrontsize64 --grid=1 --block=64 --seed=1 --print=none --arg=buf:f32:64:input --arg=buf:f32:64:zero --arg=buf:i32:64:zero --inputs=random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max | FileCheck %s --check-prefix=DIFF
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches
// DIFF-NOT: [1-9][0-9]* mismatches
#include <hip/hip_runtime.h>

// DPP controls (LLVM SIDefines.h DppCtrl).
enum : int {
  QuadXor1 = 0xb1, // quad_perm [1,0,3,2]
  QuadXor2 = 0x4e, // quad_perm [2,3,0,1]
  RowShr1 = 0x111,
  RowRor4 = 0x124,
  RowRor8 = 0x128,
  RowBcast15 = 0x142,
  RowBcast31 = 0x143,
  RowXmask1 = 0x161, // GFX10+: lane ^ 1 within the row
};

template <int Ctrl> __device__ inline int moveDpp(int X) {
  return __builtin_amdgcn_mov_dpp(X, Ctrl, 0xf, 0xf, true);
}

struct Pair {
  float Value;
  int Key;
};

// rocPRIM's arg_max on key_value_pair: the partner wins if larger, or equal
// with a smaller key.
__device__ inline Pair argMax(Pair A, Pair B) {
  return (B.Value > A.Value || (A.Value == B.Value && B.Key < A.Key)) ? B : A;
}

template <int Ctrl> __device__ inline Pair step(Pair P) {
  Pair O;
  O.Value = __int_as_float(moveDpp<Ctrl>(__float_as_int(P.Value)));
  O.Key = moveDpp<Ctrl>(P.Key);
  return argMax(P, O);
}

__device__ inline Pair swizzleStep(Pair P) {
  // Bit mode: and 0, or 15: every lane of a 32-lane group reads its lane 15.
  Pair O;
  O.Value = __int_as_float(
      __builtin_amdgcn_ds_swizzle(__float_as_int(P.Value), 0x1e0));
  O.Key = __builtin_amdgcn_ds_swizzle(P.Key, 0x1e0);
  return argMax(P, O);
}

// rocPRIM's warp_reduce_dpp order: the row by quad_perm and row_ror, then
// rows by row_bcast (GFX9) or ds_swizzle (GFX10+, wave32); the total ends in
// the last lane only.
__device__ inline Pair warpArgMax(Pair P) {
  P = step<QuadXor1>(P);
  P = step<QuadXor2>(P);
  P = step<RowRor4>(P);
  P = step<RowRor8>(P);
#ifdef __GFX9__
  P = step<RowBcast15>(P);
  P = step<RowBcast31>(P);
#else
  P = swizzleStep(P);
#endif
  return P;
}

__device__ inline Pair load(const float *In) {
  unsigned T = threadIdx.x;
  return {In[T], (int)((T * 7u) % (unsigned)warpSize)};
}

// The last lane's pair, broadcast (`__shfl(v, warpSize - 1)`).
extern "C" __global__ void dpp_argmax(const float *In, float *OutV,
                                      int *OutI) {
  Pair P = warpArgMax(load(In));
  float V = __shfl(P.Value, warpSize - 1);
  int I = __shfl(P.Key, warpSize - 1);
  OutV[threadIdx.x] = V;
  OutI[threadIdx.x] = I;
}

// Every lane's own pair: only the last lane holds the total; the others
// hold partial results, so nothing may be replaced.
extern "C" __global__ void dpp_argmax_own(const float *In, float *OutV,
                                          int *OutI) {
  Pair P = warpArgMax(load(In));
  OutV[threadIdx.x] = P.Value;
  OutI[threadIdx.x] = P.Key;
}

// LLVM's scan style on integers: row_shr 1, 2, 4, 8 with the lane's own
// value as old (lanes at a row's start keep it), then row_bcast:15 into rows
// 1 and 3 and row_bcast:31 into rows 2 and 3 (GFX9), or lane 15's value into
// the upper 16 lanes (GFX10+); the maximum is read from the last lane.
extern "C" __global__ void scan_max(const float *In, float *OutV, int *OutI) {
  int X = __float_as_int(In[threadIdx.x]);
  X = max(X, __builtin_amdgcn_update_dpp(X, X, RowShr1, 0xf, 0xf, false));
  X = max(X, __builtin_amdgcn_update_dpp(X, X, RowShr1 + 1, 0xf, 0xf, false));
  X = max(X, __builtin_amdgcn_update_dpp(X, X, RowShr1 + 3, 0xf, 0xf, false));
  X = max(X, __builtin_amdgcn_update_dpp(X, X, RowShr1 + 7, 0xf, 0xf, false));
#ifdef __GFX9__
  X = max(X, __builtin_amdgcn_update_dpp(X, X, RowBcast15, 0xa, 0xf, false));
  X = max(X, __builtin_amdgcn_update_dpp(X, X, RowBcast31, 0xc, 0xf, false));
#else
  X = max(X, __builtin_amdgcn_ds_swizzle(X, 0x1e0));
#endif
  OutI[threadIdx.x] = __builtin_amdgcn_readlane(X, warpSize - 1);
}

// A butterfly whose first two steps are quad_perm DPP moves and the rest
// __shfl_xor: one xor butterfly; every lane holds the result.
extern "C" __global__ void mixed_quad_xor(const float *In, float *OutV,
                                          int *OutI) {
  Pair P = load(In);
  P = step<QuadXor1>(P);
  P = step<QuadXor2>(P);
  for (int M = 4; M < warpSize; M *= 2) {
    Pair O{__shfl_xor(P.Value, M), __shfl_xor(P.Key, M)};
    P = argMax(P, O);
  }
  OutV[threadIdx.x] = P.Value;
  OutI[threadIdx.x] = P.Key;
}

// Hand-written RDNA code (GFX10+): row_xmask 1, 2, 4, 8, then permlanex16
// with the identity selects (lane ^ 16) and, in wave64, permlane64
// (lane ^ 32): an xor butterfly in every lane.
extern "C" __global__ void rdna_xmask(const float *In, float *OutV,
                                      int *OutI) {
  Pair P = load(In);
#ifndef __GFX9__
  P = step<RowXmask1>(P);
  P = step<RowXmask1 + 1>(P);
  P = step<RowXmask1 + 3>(P);
  P = step<RowXmask1 + 7>(P);
  auto X16 = [](int X) {
    return (int)__builtin_amdgcn_permlanex16(X, X, 0x76543210, 0xfedcba98, false,
                                        false);
  };
  P = argMax(P, {__int_as_float(X16(__float_as_int(P.Value))), X16(P.Key)});
#if __AMDGCN_WAVEFRONT_SIZE == 64
  P = argMax(P, {__int_as_float((int)__builtin_amdgcn_permlane64(
                     __float_as_int(P.Value))),
                 (int)__builtin_amdgcn_permlane64(P.Key)});
#endif
#endif
  OutV[threadIdx.x] = P.Value;
  OutI[threadIdx.x] = P.Key;
}
