//===- crosslane.h - Crosslane's subgroup operations for HIP -----*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Portable subgroup reductions and arg-compare for HIP device code compiled
// with crosslane-hipcc (the Crosslane plugin expands the calls into DPP /
// permlane / ballot code for the target chip; see docs/SubgroupOps.md).
//
//   float m = crosslane::reduce_max(x);              // whole wave
//   int   s = crosslane::reduce_add<16>(i);          // clusters of 16 lanes
//   auto  a = crosslane::argmax(x, idx);             // a.value, a.index
//   auto  c = crosslane::argcmp<closer>(d, idx);     // custom comparator
//
// Cluster size and stride are template parameters so that they reach the
// operation as constants at every optimisation level (-O0 included).
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_HIP_CROSSLANE_H
#define CROSSLANE_HIP_CROSSLANE_H

#ifndef __HIP__
#error "crosslane.h is for HIP device code (compile with crosslane-hipcc)"
#endif

// clang includes its HIP runtime wrapper first for AMDGPU; Vortex's HIP
// header is included here when the program did not include it first.
#ifndef __device__
#include <hip/hip_runtime.h>
#endif

#ifndef CROSSLANE_WAVE_SIZE
#ifdef __AMDGCN_WAVEFRONT_SIZE
#define CROSSLANE_WAVE_SIZE __AMDGCN_WAVEFRONT_SIZE
#elif defined(__CROSSLANE_VORTEX_DEVICE__) && defined(VX_CFG_NUM_THREADS)
// Vortex: the configuration's lanes per warp (crosslane-hipcc
// --target=vortex passes the configuration's VX_CFG_* macros).
#define CROSSLANE_WAVE_SIZE VX_CFG_NUM_THREADS
#elif defined(__CROSSLANE_VORTEX_DEVICE__)
#define CROSSLANE_WAVE_SIZE 32
#else
#define CROSSLANE_WAVE_SIZE 64
#endif
#endif

// Arg-compare results. Field order is the ABI: value first, then index.
#define CROSSLANE_ARG_STRUCT(TY, CTY, ITY, CITY)                              \
  struct __crosslane_arg_##TY##_##ITY {                                        \
    CTY value;                                                                 \
    CITY index;                                                                \
  };

#define CROSSLANE_ARG_DECLS(TY, CTY, ITY, CITY)                                \
  CROSSLANE_ARG_STRUCT(TY, CTY, ITY, CITY)                                     \
  extern "C" __device__ __crosslane_arg_##TY##_##ITY                            \
      __crosslane_argmax_##TY##_##ITY(CTY, CITY, int, int, int);               \
  extern "C" __device__ __crosslane_arg_##TY##_##ITY                            \
      __crosslane_argmin_##TY##_##ITY(CTY, CITY, int, int, int);               \
  extern "C" __device__ __crosslane_arg_##TY##_##ITY                            \
      __crosslane_argcmp_##TY##_##ITY(CTY, CITY, bool (*)(CTY, CTY), int,      \
                                      int);

#define CROSSLANE_REDUCE_DECL(OP, TY, CTY)                                     \
  extern "C" __device__ CTY __crosslane_reduce_##OP##_##TY(CTY, int, int);

#define CROSSLANE_INT_DECLS(TY, CTY)                                           \
  CROSSLANE_REDUCE_DECL(add, TY, CTY)                                          \
  CROSSLANE_REDUCE_DECL(mul, TY, CTY)                                          \
  CROSSLANE_REDUCE_DECL(smin, TY, CTY)                                         \
  CROSSLANE_REDUCE_DECL(smax, TY, CTY)                                         \
  CROSSLANE_REDUCE_DECL(umin, TY, CTY)                                         \
  CROSSLANE_REDUCE_DECL(umax, TY, CTY)                                         \
  CROSSLANE_REDUCE_DECL(and, TY, CTY)                                          \
  CROSSLANE_REDUCE_DECL(or, TY, CTY)                                           \
  CROSSLANE_REDUCE_DECL(xor, TY, CTY)                                          \
  CROSSLANE_ARG_DECLS(TY, CTY, i32, int)                                       \
  CROSSLANE_ARG_DECLS(TY, CTY, i64, long long)

#define CROSSLANE_FP_DECLS(TY, CTY)                                            \
  CROSSLANE_REDUCE_DECL(add, TY, CTY)                                          \
  CROSSLANE_REDUCE_DECL(mul, TY, CTY)                                          \
  CROSSLANE_REDUCE_DECL(fmin, TY, CTY)                                         \
  CROSSLANE_REDUCE_DECL(fmax, TY, CTY)                                         \
  CROSSLANE_REDUCE_DECL(fminimum, TY, CTY)                                     \
  CROSSLANE_REDUCE_DECL(fmaximum, TY, CTY)                                     \
  CROSSLANE_ARG_DECLS(TY, CTY, i32, int)                                       \
  CROSSLANE_ARG_DECLS(TY, CTY, i64, long long)

CROSSLANE_INT_DECLS(i16, short)
CROSSLANE_INT_DECLS(i32, int)
CROSSLANE_INT_DECLS(i64, long long)
CROSSLANE_FP_DECLS(f16, _Float16)
CROSSLANE_FP_DECLS(bf16, __bf16)
CROSSLANE_FP_DECLS(f32, float)
CROSSLANE_FP_DECLS(f64, double)

#undef CROSSLANE_ARG_STRUCT
#undef CROSSLANE_ARG_DECLS
#undef CROSSLANE_REDUCE_DECL
#undef CROSSLANE_INT_DECLS
#undef CROSSLANE_FP_DECLS

/// NaN policy of argmax/argmin on floating-point values.
#define CROSSLANE_NAN_IGNORE 0 /* NaN never wins unless all are NaN */
#define CROSSLANE_NAN_WINS 1   /* NaN wins, as torch.argmax */
/* Or'ed into the policy: -0 == +0, as `fcmp` compares (the smallest index
   among all zero lanes wins; the result is that lane's zero). */
#define CROSSLANE_ZEROS_EQUAL 2

namespace crosslane {

// The wrappers are always inlined, so at -O0 too the operation is called
// from the user's function and diagnostics point there.
#define CROSSLANE_WRAPPER __device__ inline __attribute__((always_inline))

// Template arguments are checked with diagnose_if, which clang evaluates
// for each specialization at the call: the error is at the user's line
// (its note names the specialization, e.g. 'reduce_max<48, 1>'). The
// plugin checks calls that bypass the wrappers.
#define CROSSLANE_STR2(X) #X
#define CROSSLANE_STR(X) CROSSLANE_STR2(X)
#define CROSSLANE_POW2(N) ((N) > 0 && ((N) & ((N) - 1)) == 0)
#define CROSSLANE_CHECK_CLUSTER(Cluster, Stride)                               \
  __attribute__((diagnose_if(                                                  \
      !CROSSLANE_POW2(Cluster) || Cluster > CROSSLANE_WAVE_SIZE,               \
      "crosslane: Cluster must be a power of two from 1 to the wave size "     \
      "(" CROSSLANE_STR(CROSSLANE_WAVE_SIZE) ")",                              \
      "error")))                                                               \
  __attribute__((diagnose_if(                                                  \
      CROSSLANE_POW2(Cluster) && Cluster <= CROSSLANE_WAVE_SIZE &&             \
          (!CROSSLANE_POW2(Stride) || Cluster * Stride > CROSSLANE_WAVE_SIZE), \
      "crosslane: Stride must be a power of two with Cluster * Stride at "     \
      "most the wave size (" CROSSLANE_STR(CROSSLANE_WAVE_SIZE) ")",           \
      "error")))
#define CROSSLANE_CHECK_NAN_POLICY(NaNPolicy)                                  \
  __attribute__((diagnose_if(NaNPolicy < 0 || NaNPolicy > 3,                   \
                             "crosslane: NaNPolicy must be "                   \
                             "CROSSLANE_NAN_IGNORE or CROSSLANE_NAN_WINS, "    \
                             "optionally | CROSSLANE_ZEROS_EQUAL",             \
                             "error")))

// Overloaded C++ spellings. Integer min/max use the signedness of the C++
// type; fmin/fmax ignore NaN (IEEE minNum/maxNum, -0 < +0), fminimum/
// fmaximum propagate it.
#define CROSSLANE_OVERLOAD(NAME, OP, TY, CTY)                                  \
  template <int Cluster = CROSSLANE_WAVE_SIZE, int Stride = 1>                 \
  CROSSLANE_WRAPPER CTY NAME(CTY X)                                            \
  CROSSLANE_CHECK_CLUSTER(Cluster, Stride) {                                   \
    return __crosslane_reduce_##OP##_##TY(X, Cluster, Stride);                 \
  }
#define CROSSLANE_UOVERLOAD(NAME, OP, TY, CTY, UTY)                            \
  template <int Cluster = CROSSLANE_WAVE_SIZE, int Stride = 1>                 \
  CROSSLANE_WRAPPER UTY NAME(UTY X)                                            \
  CROSSLANE_CHECK_CLUSTER(Cluster, Stride) {                                   \
    return (UTY)__crosslane_reduce_##OP##_##TY((CTY)X, Cluster, Stride);       \
  }
#define CROSSLANE_INT_OVERLOADS(TY, CTY, UTY)                                  \
  CROSSLANE_OVERLOAD(reduce_add, add, TY, CTY)                                 \
  CROSSLANE_OVERLOAD(reduce_mul, mul, TY, CTY)                                 \
  CROSSLANE_OVERLOAD(reduce_min, smin, TY, CTY)                                \
  CROSSLANE_OVERLOAD(reduce_max, smax, TY, CTY)                                \
  CROSSLANE_OVERLOAD(reduce_and, and, TY, CTY)                                 \
  CROSSLANE_OVERLOAD(reduce_or, or, TY, CTY)                                   \
  CROSSLANE_OVERLOAD(reduce_xor, xor, TY, CTY)                                 \
  CROSSLANE_UOVERLOAD(reduce_add, add, TY, CTY, UTY)                           \
  CROSSLANE_UOVERLOAD(reduce_mul, mul, TY, CTY, UTY)                           \
  CROSSLANE_UOVERLOAD(reduce_min, umin, TY, CTY, UTY)                          \
  CROSSLANE_UOVERLOAD(reduce_max, umax, TY, CTY, UTY)                          \
  CROSSLANE_UOVERLOAD(reduce_and, and, TY, CTY, UTY)                           \
  CROSSLANE_UOVERLOAD(reduce_or, or, TY, CTY, UTY)                             \
  CROSSLANE_UOVERLOAD(reduce_xor, xor, TY, CTY, UTY)
#define CROSSLANE_FP_OVERLOADS(TY, CTY)                                        \
  CROSSLANE_OVERLOAD(reduce_add, add, TY, CTY)                                 \
  CROSSLANE_OVERLOAD(reduce_mul, mul, TY, CTY)                                 \
  CROSSLANE_OVERLOAD(reduce_min, fmin, TY, CTY)                                \
  CROSSLANE_OVERLOAD(reduce_max, fmax, TY, CTY)                                \
  CROSSLANE_OVERLOAD(reduce_minimum, fminimum, TY, CTY)                        \
  CROSSLANE_OVERLOAD(reduce_maximum, fmaximum, TY, CTY)

CROSSLANE_INT_OVERLOADS(i16, short, unsigned short)
CROSSLANE_INT_OVERLOADS(i32, int, unsigned)
CROSSLANE_INT_OVERLOADS(i64, long long, unsigned long long)
CROSSLANE_FP_OVERLOADS(f16, _Float16)
CROSSLANE_FP_OVERLOADS(bf16, __bf16)
CROSSLANE_FP_OVERLOADS(f32, float)
CROSSLANE_FP_OVERLOADS(f64, double)

#define CROSSLANE_ARG_OVERLOADS(TY, CTY, ITY, CITY)                            \
  template <int Cluster = CROSSLANE_WAVE_SIZE, int Stride = 1,                 \
            int NaNPolicy = CROSSLANE_NAN_IGNORE>                              \
  CROSSLANE_WRAPPER __crosslane_arg_##TY##_##ITY argmax(CTY X, CITY I)         \
  CROSSLANE_CHECK_CLUSTER(Cluster, Stride)                                     \
  CROSSLANE_CHECK_NAN_POLICY(NaNPolicy) {                                      \
    return __crosslane_argmax_##TY##_##ITY(X, I, Cluster, Stride, NaNPolicy);  \
  }                                                                            \
  template <int Cluster = CROSSLANE_WAVE_SIZE, int Stride = 1,                 \
            int NaNPolicy = CROSSLANE_NAN_IGNORE>                              \
  CROSSLANE_WRAPPER __crosslane_arg_##TY##_##ITY argmin(CTY X, CITY I)         \
  CROSSLANE_CHECK_CLUSTER(Cluster, Stride)                                     \
  CROSSLANE_CHECK_NAN_POLICY(NaNPolicy) {                                      \
    return __crosslane_argmin_##TY##_##ITY(X, I, Cluster, Stride, NaNPolicy);  \
  }                                                                            \
  template <bool (*Cmp)(CTY, CTY), int Cluster = CROSSLANE_WAVE_SIZE,          \
            int Stride = 1>                                                    \
  CROSSLANE_WRAPPER __crosslane_arg_##TY##_##ITY argcmp(CTY X, CITY I)         \
  CROSSLANE_CHECK_CLUSTER(Cluster, Stride) {                                   \
    return __crosslane_argcmp_##TY##_##ITY(X, I, Cmp, Cluster, Stride);        \
  }
#define CROSSLANE_ARG_OVERLOADS2(TY, CTY)                                      \
  CROSSLANE_ARG_OVERLOADS(TY, CTY, i32, int)                                   \
  CROSSLANE_ARG_OVERLOADS(TY, CTY, i64, long long)

CROSSLANE_ARG_OVERLOADS2(i16, short)
CROSSLANE_ARG_OVERLOADS2(i32, int)
CROSSLANE_ARG_OVERLOADS2(i64, long long)
CROSSLANE_ARG_OVERLOADS2(f16, _Float16)
CROSSLANE_ARG_OVERLOADS2(bf16, __bf16)
CROSSLANE_ARG_OVERLOADS2(f32, float)
CROSSLANE_ARG_OVERLOADS2(f64, double)

#undef CROSSLANE_WRAPPER
#undef CROSSLANE_STR2
#undef CROSSLANE_STR
#undef CROSSLANE_POW2
#undef CROSSLANE_CHECK_CLUSTER
#undef CROSSLANE_CHECK_NAN_POLICY
#undef CROSSLANE_OVERLOAD
#undef CROSSLANE_UOVERLOAD
#undef CROSSLANE_INT_OVERLOADS
#undef CROSSLANE_FP_OVERLOADS
#undef CROSSLANE_ARG_OVERLOADS
#undef CROSSLANE_ARG_OVERLOADS2

} // namespace crosslane

#endif // CROSSLANE_HIP_CROSSLANE_H
