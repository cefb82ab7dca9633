// Host side of a two-file program; the kernels live in multi_kernels.hip.
#include "check.h"
#include <vector>

__global__ void scaleBy(float *X, float S, int N);
__global__ void addOne(float *X, int N);

int main() {
  const int N = 300;
  std::vector<float> X(N);
  for (int I = 0; I < N; ++I)
    X[I] = I;
  float *D;
  HIP_CHECK(hipMalloc(&D, N * sizeof(float)));
  HIP_CHECK(hipMemcpy(D, X.data(), N * sizeof(float), hipMemcpyHostToDevice));
  scaleBy<<<(N + 15) / 16, 16>>>(D, 2.5f, N);
  addOne<<<(N + 7) / 8, 8>>>(D, N);
  HIP_CHECK(hipMemcpy(X.data(), D, N * sizeof(float), hipMemcpyDeviceToHost));
  long Bad = 0;
  for (int I = 0; I < N; ++I)
    Bad += X[I] != I * 2.5f + 1;
  return verdict("multi", Bad, N);
}
