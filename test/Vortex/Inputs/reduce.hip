// Block reduction through __shared__ memory and __syncthreads, a tree whose
// active half shrinks (divergent `if (Tid < S)` between barriers), plus a
// second kernel in the same program that finishes on one block.
#include "check.h"
#include <vector>

#define MAX_BLOCK 256

__global__ void partialSums(const int *In, int *Partial, int N) {
  __shared__ int Buf[MAX_BLOCK];
  unsigned Tid = threadIdx.x;
  int I = blockIdx.x * blockDim.x + Tid;
  Buf[Tid] = I < N ? In[I] : 0;
  __syncthreads();
  for (unsigned S = blockDim.x / 2; S > 0; S >>= 1) {
    if (Tid < S)
      Buf[Tid] += Buf[Tid + S];
    __syncthreads();
  }
  if (Tid == 0)
    Partial[blockIdx.x] = Buf[0];
}

__global__ void finish(int *Partial, int Count) {
  if (threadIdx.x == 0) {
    int Sum = 0;
    for (int K = 0; K < Count; ++K)
      Sum += Partial[K];
    Partial[0] = Sum;
  }
}

int main() {
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  int Block = Prop.maxThreadsPerBlock < MAX_BLOCK ? Prop.maxThreadsPerBlock : MAX_BLOCK;
  const int N = 3001;
  int Grid = (N + Block - 1) / Block;
  std::vector<int> In(N);
  long Ref = 0;
  for (int I = 0; I < N; ++I)
    Ref += In[I] = (I * 37) % 101 - 50;
  int *DIn, *DPartial;
  HIP_CHECK(hipMalloc(&DIn, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DPartial, Grid * sizeof(int)));
  HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice));
  partialSums<<<Grid, Block>>>(DIn, DPartial, N);
  std::vector<int> Partial(Grid);
  HIP_CHECK(hipMemcpy(Partial.data(), DPartial, Grid * sizeof(int), hipMemcpyDeviceToHost));
  long Bad = 0;
  for (int B = 0; B < Grid; ++B) {
    int Want = 0;
    for (int I = B * Block; I < N && I < (B + 1) * Block; ++I)
      Want += In[I];
    Bad += Partial[B] != Want;
  }
  finish<<<1, Block>>>(DPartial, Grid);
  int Sum = 0;
  HIP_CHECK(hipMemcpy(&Sum, DPartial, sizeof(int), hipMemcpyDeviceToHost));
  Bad += Sum != Ref;
  std::printf("sum %d (want %ld), %d blocks of %d\n", Sum, Ref, Grid, Block);
  return verdict("reduce", Bad, Grid + 1);
}
