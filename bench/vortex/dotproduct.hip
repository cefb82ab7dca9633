// Vortex's tests/regression/dotproduct in HIP: a grid-stride product, a
// shared-memory tree per block, one partial sum per block.
#include "common.h"
#include <cmath>
#include <vector>

__global__ void dotproduct(const float *__restrict__ X,
                           const float *__restrict__ Y, float *Out,
                           unsigned N) {
  extern __shared__ float Buf[];
  int Tid = threadIdx.x;
  int Gid = blockIdx.x * blockDim.x + Tid;
  float Acc = 0;
  unsigned Stride = blockDim.x * gridDim.x;
  for (unsigned I = Gid; I < N; I += Stride)
    Acc += X[I] * Y[I];
  Buf[Tid] = Acc;
  for (int D = blockDim.x / 2; D > 0; D /= 2) {
    __syncthreads();
    if (Tid < D)
      Buf[Tid] += Buf[Tid + D];
  }
  if (Tid == 0)
    Out[blockIdx.x] = Buf[0];
}

int main(int Argc, char **Argv) {
  int N = sizeArg(Argc, Argv, 128);
  hipDeviceProp_t P;
  CHECK(hipGetDeviceProperties(&P, 0));
  int Block = P.warpSize, Grid = (N + Block - 1) / Block;
  std::vector<float> X(N), Y(N), Out(Grid);
  for (int I = 0; I < N; ++I)
    X[I] = float(I % 9) * 0.5f, Y[I] = float(I % 4) - 1;
  float *DX, *DY, *DOut;
  CHECK(hipMalloc(&DX, N * 4));
  CHECK(hipMalloc(&DY, N * 4));
  CHECK(hipMalloc(&DOut, Grid * 4));
  CHECK(hipMemcpy(DX, X.data(), N * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(DY, Y.data(), N * 4, hipMemcpyHostToDevice));
  dotproduct<<<Grid, Block, Block * 4>>>(DX, DY, DOut, N);
  CHECK(hipMemcpy(Out.data(), DOut, Grid * 4, hipMemcpyDeviceToHost));
  double Got = 0, Want = 0;
  for (float V : Out)
    Got += V;
  for (int I = 0; I < N; ++I)
    Want += double(X[I]) * Y[I];
  return verdict(std::fabs(Got - Want) > 1e-3 * (1 + std::fabs(Want)));
}
