// Thread-divergent control flow in every shape the Vortex lowering handles:
// nested if/else, early return, data-dependent loops with break/continue,
// a switch, selects and min/max, and a loop whose trip count differs per
// lane. Each kernel's body is a __host__ __device__ function, so the host
// computes the reference with the same source.
#include "check.h"
#include <cstdlib>
#include <vector>

__host__ __device__ int nested(int X, int T) {
  int R = 0;
  if (X & 1) {
    if (X & 2)
      R = X * 3;
    else
      R = X - 7;
  } else if (T % 3 == 0) {
    R = -X;
  } else {
    R = X + T;
  }
  return R;
}

__host__ __device__ int collatz(int X) {
  int Steps = 0;
  unsigned V = (unsigned)X % 97 + 1;
  while (V != 1) {
    V = (V & 1) ? 3 * V + 1 : V / 2;
    ++Steps;
    if (Steps > 200)
      break;
  }
  return Steps;
}

__host__ __device__ int pick(int X) {
  switch (X % 7) {
  case 0: return X * 2;
  case 1: return X + 100;
  case 2: return -X;
  case 3: return X ^ 0x55;
  case 5: return X >> 1;
  default: return 42;
  }
}

__host__ __device__ float selects(float A, float B, int X) {
  float M = A > B ? A : B;
  float N = fminf(A, B);
  int I = X < 0 ? -X : X;
  int J = I > 50 ? 50 : I;
  return (X & 4) ? M - N + J : N * 2 - M + (I < J ? I : J);
}

__host__ __device__ int skipping(int X) {
  int Sum = 0;
  for (int K = 0; K < (X & 15); ++K) {
    if ((K + X) % 3 == 0)
      continue;
    Sum += K * X;
    if (Sum > 1000)
      break;
  }
  return Sum;
}

__global__ void kNested(const int *In, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  Out[I] = nested(In[I], threadIdx.x);
}
__global__ void kLoops(const int *In, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = collatz(In[I]) + skipping(In[I]);
}
__global__ void kSwitch(const int *In, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = pick(In[I]);
}
__global__ void kSelects(const int *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = selects(In[I] * 0.25f, (In[(I + 1) % N] % 13) * 1.5f, In[I]);
}

int main() {
  const int N = 777;
  std::vector<int> In(N), Out(N);
  std::vector<float> OutF(N);
  std::srand(7);
  for (int I = 0; I < N; ++I)
    In[I] = (std::rand() % 2001) - 1000;
  int *DIn, *DOut;
  float *DOutF;
  HIP_CHECK(hipMalloc(&DIn, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DOut, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DOutF, N * sizeof(float)));
  HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice));
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  int Block = Prop.maxThreadsPerBlock, Grid = (N + Block - 1) / Block;
  long Bad = 0, Cases = 0;

  hipLaunchKernelGGL(kNested, dim3(Grid), dim3(Block), 0, 0, DIn, DOut, N);
  HIP_CHECK(hipMemcpy(Out.data(), DOut, N * sizeof(int), hipMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I, ++Cases)
    Bad += Out[I] != nested(In[I], I % Block);
  kLoops<<<Grid, Block>>>(DIn, DOut, N);
  HIP_CHECK(hipMemcpy(Out.data(), DOut, N * sizeof(int), hipMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I, ++Cases)
    Bad += Out[I] != collatz(In[I]) + skipping(In[I]);
  kSwitch<<<Grid, Block>>>(DIn, DOut, N);
  HIP_CHECK(hipMemcpy(Out.data(), DOut, N * sizeof(int), hipMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I, ++Cases)
    Bad += Out[I] != pick(In[I]);
  kSelects<<<Grid, Block>>>(DIn, DOutF, N);
  HIP_CHECK(hipMemcpy(OutF.data(), DOutF, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I, ++Cases)
    Bad += OutF[I] != selects(In[I] * 0.25f, (In[(I + 1) % N] % 13) * 1.5f, In[I]);
  return verdict("divergence", Bad, Cases);
}
