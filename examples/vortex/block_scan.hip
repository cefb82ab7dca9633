// Inclusive prefix sum per block (Hillis-Steele) in __shared__ memory: in
// every step only the threads at or above the offset add, between barriers.
// A second kernel adds each block's total to the following blocks.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

constexpr int MaxBlock = 256;

__global__ void scanBlocks(const int *In, int *Out, int *Totals, int N) {
  __shared__ int Buf[MaxBlock];
  int T = threadIdx.x, I = blockIdx.x * blockDim.x + T;
  Buf[T] = I < N ? In[I] : 0;
  __syncthreads();
  for (int Offset = 1; Offset < (int)blockDim.x; Offset *= 2) {
    int Add = T >= Offset ? Buf[T - Offset] : 0;
    __syncthreads();
    Buf[T] += Add;
    __syncthreads();
  }
  if (I < N)
    Out[I] = Buf[T];
  if (T == blockDim.x - 1)
    Totals[blockIdx.x] = Buf[T];
}

__global__ void addCarries(int *Out, const int *Totals, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int Carry = 0;
  for (unsigned B = 0; B < blockIdx.x; ++B)
    Carry += Totals[B];
  Out[I] += Carry;
}

int main() {
  hipDeviceProp_t Prop;
  hipGetDeviceProperties(&Prop, 0);
  int Block = Prop.maxThreadsPerBlock < MaxBlock ? Prop.maxThreadsPerBlock : MaxBlock;
  const int N = 1000;
  int Grid = (N + Block - 1) / Block;
  std::vector<int> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 7) % 11 - 3;
  int *DIn, *DOut, *DTotals;
  hipMalloc(&DIn, N * sizeof(int));
  hipMalloc(&DOut, N * sizeof(int));
  hipMalloc(&DTotals, Grid * sizeof(int));
  hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice);
  scanBlocks<<<Grid, Block>>>(DIn, DOut, DTotals, N);
  addCarries<<<Grid, Block>>>(DOut, DTotals, N);
  hipError_t Err = hipDeviceSynchronize();
  hipMemcpy(Out.data(), DOut, N * sizeof(int), hipMemcpyDeviceToHost);
  int Bad = 0, Sum = 0;
  for (int I = 0; I < N; ++I)
    Bad += Out[I] != (Sum += In[I]);
  std::printf("block_scan: %s (%d of %d wrong; %d blocks of %d threads, warpSize %d, %s)\n",
              Bad ? "FAILED" : "PASSED", Bad, N, Grid, Block, Prop.warpSize,
              hipGetErrorString(Err));
  return Bad != 0;
}
