// A warp sum computed R times per thread, two ways in one program: the
// hand-written __shfl_xor butterfly HIP code uses, and Crosslane's
// reduce_add. Each kernel runs alone; the PERF line at exit covers both, so
// bench/vortex.py runs the program once per mode (-m 0 / -m 1).
#include "common.h"
#include <crosslane.h>
#include <vector>

constexpr int Rounds = 64;

__global__ void shflSum(const int *In, int *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int V = In[T], Acc = 0;
  for (int R = 0; R < Rounds; ++R) {
    int S = V + R;
    for (int M = warpSize / 2; M > 0; M /= 2)
      S += __shfl_xor(S, M);
    Acc += S;
  }
  Out[T] = Acc;
}

__global__ void crosslaneSum(const int *In, int *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int V = In[T], Acc = 0;
  for (int R = 0; R < Rounds; ++R)
    Acc += crosslane::reduce_add(V + R);
  Out[T] = Acc;
}

int main(int Argc, char **Argv) {
  int Mode = 0;
  for (int I = 1; I + 1 < Argc; ++I)
    if (!std::strcmp(Argv[I], "-m"))
      Mode = std::atoi(Argv[I + 1]);
  hipDeviceProp_t P;
  CHECK(hipGetDeviceProperties(&P, 0));
  int W = P.warpSize, Block = P.maxThreadsPerBlock, Grid = 4,
      N = Grid * Block;
  std::vector<int> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 7919) % 1000 - 500;
  int *DIn, *DOut;
  CHECK(hipMalloc(&DIn, N * 4));
  CHECK(hipMalloc(&DOut, N * 4));
  CHECK(hipMemcpy(DIn, In.data(), N * 4, hipMemcpyHostToDevice));
  if (Mode == 0)
    shflSum<<<Grid, Block>>>(DIn, DOut);
  else
    crosslaneSum<<<Grid, Block>>>(DIn, DOut);
  CHECK(hipMemcpy(Out.data(), DOut, N * 4, hipMemcpyDeviceToHost));
  long Errors = 0;
  for (int I = 0; I < N; ++I) {
    int Base = I / W * W, Acc = 0;
    for (int R = 0; R < Rounds; ++R)
      for (int L = 0; L < W; ++L)
        Acc += In[Base + L] + R;
    Errors += Out[I] != Acc;
  }
  return verdict(Errors);
}
