// Kernels the Vortex model must refuse to run with a clear message instead
// of hanging or computing garbage (test/Vortex/Executor/errors.test).
#include <hip/hip_runtime.h>

// __syncthreads inside a branch that only some lanes of warp 0 take.
__global__ void divergentBarrier(int *Out) {
  __shared__ int S[64];
  unsigned T = threadIdx.x;
  S[T] = T;
  if (T < 2) {
    __syncthreads();
    S[T] += S[T + 2];
  }
  __syncthreads();
  Out[T] = S[T];
}

// vx_barrier counting one warp more than the CTA has.
__global__ void wrongCount(int *Out) {
  unsigned Id = __crosslane_vx_csr_0xcd0(),
           Warps = __crosslane_vx_csr_0xcd2() + 1;
  __asm__ volatile(".insn r 0x0b, 4, 0, x0, %0, %1" ::"r"(Id), "r"(Warps)
                   : "memory");
  Out[threadIdx.x] = 1;
}

// Dynamic shared memory indexed past its launch size.
extern __shared__ int Dyn[];
__global__ void sharedOverrun(int *Out) {
  Dyn[threadIdx.x * 2] = 1;
  Dyn[threadIdx.x * 2 + 1] = 2;
  Out[threadIdx.x] = Dyn[threadIdx.x];
}
