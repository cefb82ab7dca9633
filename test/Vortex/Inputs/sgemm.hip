// Tiled matrix multiply: 2-D grid and block, __shared__ tiles, barriers,
// sizes that are not multiples of the tile (bounds as selects).
#include "check.h"
#include <cmath>
#include <vector>

#ifndef TILE
#define TILE 4
#endif

__global__ void sgemm(const float *A, const float *B, float *C, int M, int N,
                      int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int Row = blockIdx.y * TILE + threadIdx.y;
  int Col = blockIdx.x * TILE + threadIdx.x;
  float Acc = 0;
  for (int T = 0; T < K; T += TILE) {
    int Ka = T + threadIdx.x, Kb = T + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = Row < M && Ka < K ? A[Row * K + Ka] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = Kb < K && Col < N ? B[Kb * N + Col] : 0.0f;
    __syncthreads();
    for (int I = 0; I < TILE; ++I)
      Acc += As[threadIdx.y][I] * Bs[I][threadIdx.x];
    __syncthreads();
  }
  if (Row < M && Col < N)
    C[Row * N + Col] = Acc;
}

int main() {
  const int M = 19, N = 13, K = 22;
  std::vector<float> A(M * K), B(K * N), C(M * N, -1);
  for (int I = 0; I < M * K; ++I)
    A[I] = (I % 7) - 3;
  for (int I = 0; I < K * N; ++I)
    B[I] = (I % 5) * 0.5f;
  float *DA, *DB, *DC;
  HIP_CHECK(hipMalloc(&DA, A.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&DB, B.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&DC, C.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(DA, A.data(), A.size() * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(DB, B.data(), B.size() * sizeof(float), hipMemcpyHostToDevice));
  dim3 Block(TILE, TILE), Grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  sgemm<<<Grid, Block>>>(DA, DB, DC, M, N, K);
  HIP_CHECK(hipMemcpy(C.data(), DC, C.size() * sizeof(float), hipMemcpyDeviceToHost));
  long Bad = 0;
  for (int R = 0; R < M; ++R)
    for (int Cc = 0; Cc < N; ++Cc) {
      float Want = 0;
      for (int I = 0; I < K; ++I)
        Want += A[R * K + I] * B[I * N + Cc];
      Bad += std::fabs(C[R * N + Cc] - Want) > 1e-3f;
    }
  return verdict("sgemm", Bad, M * N);
}
