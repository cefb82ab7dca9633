// A hand-written warp argmax (a PyTorch-style (value, index) __shfl_xor
// butterfly, smallest index on ties) computed R times per thread. The
// bench builds it twice: as is (Crosslane's recogniser replaces the
// butterfly by its argmax operation behind a run-time guard) and with
// -mllvm -crosslane-recognize=0 (the butterfly as written).
#include "common.h"
#include <vector>

constexpr int Rounds = 32;

__global__ void warpArgmax(const float *In, int *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  float X = In[T];
  int Acc = 0;
  for (int R = 0; R < Rounds; ++R) {
    float V = X * float(R + 1);
    int I = T;
    for (int O = warpSize / 2; O > 0; O /= 2) {
      float PV = __shfl_xor(V, O);
      int PI = __shfl_xor(I, O);
      if (PV > V || (PV == V && PI < I)) {
        V = PV;
        I = PI;
      }
    }
    Acc += I;
  }
  Out[T] = Acc;
}

int main() {
  hipDeviceProp_t P;
  CHECK(hipGetDeviceProperties(&P, 0));
  int W = P.warpSize, Block = P.maxThreadsPerBlock, Grid = 4,
      N = Grid * Block;
  std::vector<float> In(N);
  std::vector<int> Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = float((I * 7919) % 23) - 11.0f; // ties within warps
  float *DIn;
  int *DOut;
  CHECK(hipMalloc(&DIn, N * 4));
  CHECK(hipMalloc(&DOut, N * 4));
  CHECK(hipMemcpy(DIn, In.data(), N * 4, hipMemcpyHostToDevice));
  warpArgmax<<<Grid, Block>>>(DIn, DOut);
  CHECK(hipMemcpy(Out.data(), DOut, N * 4, hipMemcpyDeviceToHost));
  long Errors = 0;
  for (int T = 0; T < N; ++T) {
    int Base = T / W * W, Acc = 0;
    for (int R = 0; R < Rounds; ++R) {
      int Best = Base;
      for (int L = Base; L < Base + W; ++L)
        if (In[L] * float(R + 1) > In[Best] * float(R + 1))
          Best = L;
      Acc += Best;
    }
    Errors += Out[T] != Acc;
  }
  return verdict(Errors);
}
