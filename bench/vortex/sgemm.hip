// Vortex's tests/regression/sgemm in HIP: one thread per element of C.
#include "common.h"
#include <cmath>
#include <vector>

__global__ void sgemm(const float *A, const float *B, float *C, unsigned Size) {
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  float Sum = 0;
  for (unsigned E = 0; E < Size; ++E)
    Sum += A[Row * Size + E] * B[E * Size + Col];
  C[Row * Size + Col] = Sum;
}

int main(int Argc, char **Argv) {
  int N = sizeArg(Argc, Argv, 32);
  hipDeviceProp_t P;
  CHECK(hipGetDeviceProperties(&P, 0));
  std::vector<float> A(N * N), B(N * N), C(N * N);
  for (int I = 0; I < N * N; ++I)
    A[I] = float(I % 7) - 3, B[I] = float(I % 3) * 0.5f;
  float *DA, *DB, *DC;
  CHECK(hipMalloc(&DA, N * N * 4));
  CHECK(hipMalloc(&DB, N * N * 4));
  CHECK(hipMalloc(&DC, N * N * 4));
  CHECK(hipMemcpy(DA, A.data(), N * N * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(DB, B.data(), N * N * 4, hipMemcpyHostToDevice));
  int BX = P.warpSize, BY = P.maxThreadsPerBlock / P.warpSize;
  sgemm<<<dim3(N / BX, N / BY), dim3(BX, BY)>>>(DA, DB, DC, N);
  CHECK(hipMemcpy(C.data(), DC, N * N * 4, hipMemcpyDeviceToHost));
  long Errors = 0;
  for (int R = 0; R < N; ++R)
    for (int Q = 0; Q < N; ++Q) {
      float S = 0;
      for (int E = 0; E < N; ++E)
        S += A[R * N + E] * B[E * N + Q];
      Errors += std::fabs(C[R * N + Q] - S) > 1e-3f;
    }
  return verdict(Errors);
}
