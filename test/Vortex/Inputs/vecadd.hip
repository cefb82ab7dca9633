// c = a + b over a size that is not a multiple of the block.
#include "check.h"
#include <vector>

__global__ void vecadd(const float *A, const float *B, float *C, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

int main() {
  const int N = 1000;
  std::vector<float> A(N), B(N), C(N, -1);
  for (int I = 0; I < N; ++I) {
    A[I] = I * 0.5f;
    B[I] = 3 * I + 1;
  }
  float *DA, *DB, *DC;
  HIP_CHECK(hipMalloc(&DA, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&DB, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&DC, N * sizeof(float)));
  HIP_CHECK(hipMemcpy(DA, A.data(), N * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(DB, B.data(), N * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(DC, 0xff, N * sizeof(float)));
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  int Block = Prop.maxThreadsPerBlock;
  vecadd<<<(N + Block - 1) / Block, Block>>>(DA, DB, DC, N);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(C.data(), DC, N * sizeof(float), hipMemcpyDeviceToHost));
  long Bad = 0;
  for (int I = 0; I < N; ++I)
    Bad += C[I] != A[I] + B[I];
  std::printf("warpSize %d, block %d\n", Prop.warpSize, Block);
  HIP_CHECK(hipFree(DA));
  HIP_CHECK(hipFree(DB));
  HIP_CHECK(hipFree(DC));
  return verdict("vecadd", Bad, N);
}
