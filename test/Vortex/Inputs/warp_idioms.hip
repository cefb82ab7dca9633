// Warp-level idioms as HIP code writes them, on Vortex: a ballot-based
// stream compaction with warp-aggregated atomics (one atomicAdd per warp,
// the base broadcast with __shfl, each lane's slot from popc of the ballot
// below it), and a hand-written __shfl_xor (value, index) argmax butterfly.
// The host checks both (compaction: the same multiset, each warp's run in
// lane order).
#include "check.h"
#include <algorithm>
#include <vector>

__global__ void compact(const int *In, int *Out, unsigned *Count, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int V = T < N ? In[T] : -1;
  bool Keep = V >= 0 && V % 3 != 0;
  unsigned long long Ballot = __ballot(Keep);
  int Lane = __lane_id();
  unsigned long long Below = Ballot & ((1ull << Lane) - 1);
  int Leader = __ffsll((long long)Ballot) - 1;
  unsigned Base = 0;
  if (Lane == Leader)
    Base = atomicAdd(Count, (unsigned)__popcll(Ballot));
  Base = __shfl(Base, Leader < 0 ? 0 : Leader);
  if (Keep)
    Out[Base + __popcll(Below)] = V;
}

__global__ void warpArgmax(const float *In, float *OutV, int *OutI) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  float V = In[T];
  int I = T;
  for (int M = warpSize / 2; M > 0; M /= 2) {
    float OV = __shfl_xor(V, M);
    int OI = __shfl_xor(I, M);
    if (OV > V || (OV == V && OI < I)) {
      V = OV;
      I = OI;
    }
  }
  OutV[T] = V;
  OutI[T] = I;
}

int main() {
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  // Up to 4 warps per block keeps the -O0 runs short on wide configurations.
  int W = Prop.warpSize, Grid = 5,
      Block = Prop.maxThreadsPerBlock < 4 * W ? Prop.maxThreadsPerBlock : 4 * W;
  int N = Grid * Block - W / 2; // the last warp runs partly past N
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 7919) % 1000 - 200;
  int *DIn, *DOut;
  unsigned *DCount;
  HIP_CHECK(hipMalloc(&DIn, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DOut, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DCount, sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(DCount, 0, sizeof(unsigned)));
  compact<<<Grid, Block>>>(DIn, DOut, DCount, N);
  HIP_CHECK(hipGetLastError());
  unsigned Count = 0;
  HIP_CHECK(hipMemcpy(&Count, DCount, sizeof(unsigned), hipMemcpyDeviceToHost));
  std::vector<int> Want;
  for (int V : In)
    if (V >= 0 && V % 3 != 0)
      Want.push_back(V);
  long Errors = 0, Cases = 1;
  std::vector<int> Got(Count <= (unsigned)N ? Count : 0);
  if (Count != Want.size()) {
    std::printf("count %u, want %zu\n", Count, Want.size());
    ++Errors;
  } else {
    HIP_CHECK(hipMemcpy(Got.data(), DOut, Count * sizeof(int),
                        hipMemcpyDeviceToHost));
    std::vector<int> A = Got, B = Want;
    std::sort(A.begin(), A.end());
    std::sort(B.begin(), B.end());
    Errors += A != B;
  }

  int M = Grid * Block;
  std::vector<float> F(M), OV(M);
  std::vector<int> OI(M);
  for (int I = 0; I < M; ++I)
    F[I] = float((I * 31) % 17); // ties within warps
  float *DF, *DOV;
  int *DOI;
  HIP_CHECK(hipMalloc(&DF, M * sizeof(float)));
  HIP_CHECK(hipMalloc(&DOV, M * sizeof(float)));
  HIP_CHECK(hipMalloc(&DOI, M * sizeof(int)));
  HIP_CHECK(hipMemcpy(DF, F.data(), M * sizeof(float), hipMemcpyHostToDevice));
  warpArgmax<<<Grid, Block>>>(DF, DOV, DOI);
  HIP_CHECK(
      hipMemcpy(OV.data(), DOV, M * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(OI.data(), DOI, M * sizeof(int), hipMemcpyDeviceToHost));
  for (int T = 0; T < M; ++T) {
    int Base = T / W * W, Best = Base;
    for (int L = Base; L < Base + W; ++L)
      if (F[L] > F[Best])
        Best = L;
    ++Cases;
    if (OV[T] != F[Best] || OI[T] != Best) {
      if (Errors++ < 5)
        std::printf("lane %d: (%g, %d), want (%g, %d)\n", T, OV[T], OI[T],
                    F[Best], Best);
    }
  }
  return verdict("warp idioms", Errors, Cases);
}
