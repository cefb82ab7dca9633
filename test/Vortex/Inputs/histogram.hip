// Atomics (needs a configuration with the A extension): a histogram with
// atomicAdd on global bins, a float sum with atomicAdd (a compare-and-swap
// loop), and atomicMax / atomicMin.
#include "check.h"
#include <vector>

__global__ void histogram(const int *In, int N, unsigned *Bins, float *Sum,
                          int *Max, int *Min) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    int V = In[I];
    atomicAdd(&Bins[V & 15], 1u);
    atomicAdd(Sum, (float)(V & 7));
    atomicMax(Max, V);
    atomicMin(Min, V);
  }
}

int main() {
  const int N = 1234;
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 7919) % 1000 - 300;
  int *DIn, *DMax, *DMin;
  unsigned *DBins;
  float *DSum;
  HIP_CHECK(hipMalloc(&DIn, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DBins, 16 * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&DSum, sizeof(float)));
  HIP_CHECK(hipMalloc(&DMax, sizeof(int)));
  HIP_CHECK(hipMalloc(&DMin, sizeof(int)));
  HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(DBins, 0, 16 * sizeof(unsigned)));
  HIP_CHECK(hipMemset(DSum, 0, sizeof(float)));
  int Lo = -1000000, Hi = 1000000;
  HIP_CHECK(hipMemcpy(DMax, &Lo, sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(DMin, &Hi, sizeof(int), hipMemcpyHostToDevice));
  int Block = 64;
  histogram<<<(N + Block - 1) / Block, Block>>>(DIn, N, DBins, DSum, DMax, DMin);
  unsigned Bins[16];
  float Sum;
  int Max, Min;
  HIP_CHECK(hipMemcpy(Bins, DBins, sizeof(Bins), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&Sum, DSum, sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&Max, DMax, sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&Min, DMin, sizeof(int), hipMemcpyDeviceToHost));
  unsigned Want[16] = {};
  float WantSum = 0;
  int WantMax = Lo, WantMin = Hi;
  for (int V : In) {
    ++Want[V & 15];
    WantSum += V & 7;
    WantMax = V > WantMax ? V : WantMax;
    WantMin = V < WantMin ? V : WantMin;
  }
  long Bad = 0;
  for (int B = 0; B < 16; ++B)
    Bad += Bins[B] != Want[B];
  Bad += Sum != WantSum;
  Bad += Max != WantMax;
  Bad += Min != WantMin;
  std::printf("sum %.1f max %d min %d\n", Sum, Max, Min);
  return verdict("histogram", Bad, 19);
}
