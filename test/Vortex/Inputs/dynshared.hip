// 3-D grid and 3-D block; each block reverses its slice of the input
// through dynamic shared memory (extern __shared__, size at launch).
#include "check.h"
#include <vector>

extern __shared__ float Scratch[];

__global__ void reverseBlocks(const float *In, float *Out, int N) {
  unsigned Local = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned Size = blockDim.x * blockDim.y * blockDim.z;
  unsigned Block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int I = Block * Size + Local;
  Scratch[Local] = I < N ? In[I] : -1.0f;
  __syncthreads();
  if (I < N)
    Out[I] = Scratch[Size - 1 - Local] + 1000.0f * blockIdx.z + 100.0f * blockIdx.y;
}

int main() {
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  dim3 Block(2, 2, Prop.maxThreadsPerBlock >= 64 ? 16 : 4);
  dim3 Grid(3, 2, 2);
  unsigned Size = Block.x * Block.y * Block.z;
  int N = Size * Grid.x * Grid.y * Grid.z - 5;
  std::vector<float> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = I;
  float *DIn, *DOut;
  HIP_CHECK(hipMalloc(&DIn, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&DOut, N * sizeof(float)));
  HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(float), hipMemcpyHostToDevice));
  reverseBlocks<<<Grid, Block, Size * sizeof(float)>>>(DIn, DOut, N);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(Out.data(), DOut, N * sizeof(float), hipMemcpyDeviceToHost));
  long Bad = 0;
  for (int I = 0; I < N; ++I) {
    unsigned B = I / Size, L = I % Size;
    int Src = B * Size + (Size - 1 - L);
    float Want = (Src < N ? In[Src] : -1.0f) + 1000.0f * (B / (Grid.x * Grid.y)) +
                 100.0f * ((B / Grid.x) % Grid.y);
    Bad += Out[I] != Want;
  }
  return verdict("dynshared", Bad, N);
}
