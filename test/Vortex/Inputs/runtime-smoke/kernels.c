/*===- kernels.c - Device side of the runtime-smoke test --------*- C -*-===//
 *
 * Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
 *
 *===----------------------------------------------------------------------===//
 *
 * Three kernels written directly against Vortex's KMU launch ABI, standing in
 * for what Crosslane's compiler produces from HIP: every kernel receives the
 * device address of its argument blob in a0 and reads its ids from the CTA
 * CSRs (0xCD3 thread id x, 0xCD6 block id x, 0xCD9 block dim x; see the KMU
 * kernel ABI in /work/shared/vortex/README.md).
 *
 * Upstream clang inserts no split/join, so the kernels are branch-free: the
 * host launches exactly one thread per element.
 *
 * The .crosslane.vortex.meta section describes the kernels' argument blobs
 * and the variables, in the format crosslane-vxpack.py reads.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>

/* Reads CSR NUM (a constant) into a variable. */
#define CSR_READ(NUM)                                                          \
  ({                                                                           \
    uint32_t Value;                                                            \
    __asm__ volatile("csrr %0, " #NUM : "=r"(Value));                          \
    Value;                                                                     \
  })

static inline uint32_t globalThreadIdX(void) {
  return CSR_READ(0xCD6) * CSR_READ(0xCD9) + CSR_READ(0xCD3);
}

/* The device counterparts of the host program's variables. */
float coef[2];
int last_n;

/* saxpy(float* out, const float* a, const float* b, float s, int n): its
 * symbol is the Itanium-mangled name of that C++ signature, which is the
 * name clang's host compile registers. */
struct SaxpyArgs {
  float *Out;
  const float *A;
  const float *B;
  float S;
  int N;
};

void saxpyEntry(const struct SaxpyArgs *Args) __asm__("_Z5saxpyPfPKfS1_fi");
void saxpyEntry(const struct SaxpyArgs *Args) {
  uint32_t I = globalThreadIdX();
  Args->Out[I] = Args->A[I] * Args->S + Args->B[I];
}

/* extern "C" scale_coef(float* out, const float* a, int n): reads the
 * __constant__ coef written by hipMemcpyToSymbol and stores n into last_n
 * (every thread stores the same value). */
struct ScaleArgs {
  float *Out;
  const float *A;
  int N;
};

void scale_coef(const struct ScaleArgs *Args) {
  uint32_t I = globalThreadIdX();
  Args->Out[I] = Args->A[I] * coef[0] + coef[1];
  last_n = Args->N;
}

/* extern "C" spin(int n): never returns (a uniform loop), for the
 * runtime's time limit. */
void spin(const int *Args) {
  for (;;)
    __asm__ volatile("");
}

/* kernel <name> <args_size> <args_align> <lmem_static> <nparams>,
 * param <index> <offset> <size>, var <name> <size>. */
__attribute__((section(".crosslane.vortex.meta"), used, retain))
const char crosslane_vortex_meta[] = "kernel _Z5saxpyPfPKfS1_fi 20 4 0 5\n"
                                     "param 0 0 4\n"
                                     "param 1 4 4\n"
                                     "param 2 8 4\n"
                                     "param 3 12 4\n"
                                     "param 4 16 4\n"
                                     "kernel scale_coef 12 4 0 3\n"
                                     "param 0 0 4\n"
                                     "param 1 4 4\n"
                                     "param 2 8 4\n"
                                     "kernel spin 4 4 0 1\n"
                                     "param 0 0 4\n"
                                     "var coef 8\n"
                                     "var last_n 4\n";
