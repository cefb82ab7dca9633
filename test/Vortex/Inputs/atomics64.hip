// 8-byte atomics (rv32 has no 64-bit AMO): unsigned long long add, double
// add (soft float inside the lock), long long max, over 1,000 threads.
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void k(unsigned long long *Sum, double *DSum, long long *Max, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    atomicAdd(Sum, (unsigned long long)I << 20);
    atomicAdd(DSum, I * 0.5);
    atomicMax(Max, (long long)(I * 7919 % 1000) << 33);
  }
}
int main() {
  unsigned long long *S; double *D; long long *M;
  hipMalloc(&S, 8); hipMalloc(&D, 8); hipMalloc(&M, 8);
  hipMemset(S, 0, 8); hipMemset(D, 0, 8); hipMemset(M, 0, 8);
  int N = 1000;
  k<<<(N + 63) / 64, 64>>>(S, D, M, N);
  unsigned long long HS; double HD; long long HM;
  hipMemcpy(&HS, S, 8, hipMemcpyDeviceToHost); hipMemcpy(&HD, D, 8, hipMemcpyDeviceToHost); hipMemcpy(&HM, M, 8, hipMemcpyDeviceToHost);
  unsigned long long WS = 0; double WD = 0; long long WM = 0;
  for (int I = 0; I < N; ++I) { WS += (unsigned long long)I << 20; WD += I * 0.5; long long v = (long long)(I * 7919 % 1000) << 33; WM = v > WM ? v : WM; }
  printf("atomics64: %s (%llu/%llu %f/%f %lld/%lld)\n", HS == WS && HD == WD && HM == WM ? "PASSED" : "FAILED", HS, WS, HD, WD, HM, WM);
  return !(HS == WS && HD == WD && HM == WM);
}
