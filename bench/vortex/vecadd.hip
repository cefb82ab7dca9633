// Vortex's tests/regression/vecadd in HIP.
#include "common.h"
#include <vector>

__global__ void vecadd(const float *A, const float *B, float *C) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  C[I] = A[I] + B[I];
}

int main(int Argc, char **Argv) {
  int N = sizeArg(Argc, Argv, 64);
  hipDeviceProp_t P;
  CHECK(hipGetDeviceProperties(&P, 0));
  std::vector<float> A(N), B(N), C(N);
  for (int I = 0; I < N; ++I)
    A[I] = float(I % 17) - 3.5f, B[I] = float(I % 5) * 0.25f;
  float *DA, *DB, *DC;
  CHECK(hipMalloc(&DA, N * 4));
  CHECK(hipMalloc(&DB, N * 4));
  CHECK(hipMalloc(&DC, N * 4));
  CHECK(hipMemcpy(DA, A.data(), N * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(DB, B.data(), N * 4, hipMemcpyHostToDevice));
  int Block = P.warpSize;
  vecadd<<<(N + Block - 1) / Block, Block>>>(DA, DB, DC);
  CHECK(hipMemcpy(C.data(), DC, N * 4, hipMemcpyDeviceToHost));
  long Errors = 0;
  for (int I = 0; I < N; ++I)
    Errors += C[I] != A[I] + B[I];
  return verdict(Errors);
}
