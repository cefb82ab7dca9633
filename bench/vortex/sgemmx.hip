// Vortex's tests/regression/sgemmx in HIP: 4x4 register tiles per thread,
// 4x4-thread blocks, A and B tiles staged in shared memory, C = alpha A B +
// beta C.
#include "common.h"
#include <cmath>
#include <vector>

constexpr int TY = 4, TX = 4, BDX = 4, BDY = 4, BK = 4;
constexpr int BM = BDY * TY, BN = BDX * TX;

__global__ void sgemmx(const float *A, const float *B, float *C, int N, int K,
                       float Alpha, float Beta) {
  extern __shared__ float Smem[];
  float *As = Smem, *Bs = Smem + BM * BK;
  int Tx = threadIdx.x, Ty = threadIdx.y, Bx = blockIdx.x, By = blockIdx.y;
  int Row = By * BM + Ty * TY, Col = Bx * BN + Tx * TX;
  float Acc[TY][TX] = {};
  float AF[TY], BF[TX];
  for (int T = 0; T < (K + BK - 1) / BK; ++T) {
#pragma unroll
    for (int I = 0; I < TY; ++I)
      As[(Ty * TY + I) * BK + Tx] = A[(By * BM + Ty * TY + I) * K + T * BK + Tx];
#pragma unroll
    for (int J = 0; J < TX; ++J)
      Bs[Ty * BN + Tx * TX + J] = B[(T * BK + Ty) * N + Bx * BN + Tx * TX + J];
    __syncthreads();
#pragma unroll
    for (int Q = 0; Q < BK; ++Q) {
#pragma unroll
      for (int I = 0; I < TY; ++I)
        AF[I] = As[(Ty * TY + I) * BK + Q];
#pragma unroll
      for (int J = 0; J < TX; ++J)
        BF[J] = Bs[Q * BN + Tx * TX + J];
#pragma unroll
      for (int I = 0; I < TY; ++I)
#pragma unroll
        for (int J = 0; J < TX; ++J)
          Acc[I][J] += AF[I] * BF[J];
    }
    __syncthreads();
  }
#pragma unroll
  for (int I = 0; I < TY; ++I)
#pragma unroll
    for (int J = 0; J < TX; ++J)
      C[(Row + I) * N + Col + J] =
          Alpha * Acc[I][J] + Beta * C[(Row + I) * N + Col + J];
}

int main(int Argc, char **Argv) {
  int N = sizeArg(Argc, Argv, 32), M = N, K = N;
  std::vector<float> A(M * K), B(K * N), C(M * N, 0.0f);
  for (int I = 0; I < M * K; ++I)
    A[I] = float(I % 11) * 0.25f - 1;
  for (int I = 0; I < K * N; ++I)
    B[I] = float(I % 7) * 0.5f - 1.5f;
  float *DA, *DB, *DC;
  CHECK(hipMalloc(&DA, M * K * 4));
  CHECK(hipMalloc(&DB, K * N * 4));
  CHECK(hipMalloc(&DC, M * N * 4));
  CHECK(hipMemcpy(DA, A.data(), M * K * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(DB, B.data(), K * N * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(DC, C.data(), M * N * 4, hipMemcpyHostToDevice));
  sgemmx<<<dim3(N / BN, M / BM), dim3(BDX, BDY), BK * (BM + BN) * 4>>>(
      DA, DB, DC, N, K, 1.0f, 0.0f);
  CHECK(hipMemcpy(C.data(), DC, M * N * 4, hipMemcpyDeviceToHost));
  long Errors = 0;
  for (int R = 0; R < M; ++R)
    for (int Q = 0; Q < N; ++Q) {
      float S = 0;
      for (int E = 0; E < K; ++E)
        S += A[R * K + E] * B[E * N + Q];
      Errors += std::fabs(C[R * N + Q] - S) > 1e-3f * (1 + std::fabs(S));
    }
  return verdict(Errors);
}
