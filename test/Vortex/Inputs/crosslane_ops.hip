// Crosslane's portable subgroup operations (crosslane.h) on Vortex: warp
// and cluster reductions, argmax/argmin with ties and NaN, in full warps,
// in the partial last warp of a block, and under a divergent branch. The
// host computes the operations' meaning (docs/SubgroupOps.md): a cluster's
// active lanes combine, the smallest index wins ties, NaN is ignored.
#include "check.h"
#include <cmath>
#include <crosslane.h>
#include <cstring>
#include <vector>

constexpr int Outputs = 8;

__global__ void subgroupOps(const int *In, const float *InF, int *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int V = In[T];
  float F = InF[T];
  int *O = Out + T * Outputs;
  O[0] = crosslane::reduce_add(V);
  O[1] = crosslane::reduce_min<2>(V);
  O[2] = crosslane::reduce_max<2, 2>(V);
  float M = crosslane::reduce_max(F);
  std::memcpy(&O[3], &M, 4);
  auto A = crosslane::argmax(F, T);
  O[4] = A.index;
  auto B = crosslane::argmin(V, T);
  O[5] = B.index;
  O[6] = O[7] = -1;
  if (V % 3 != 0) {
    O[6] = crosslane::reduce_add(V);
    O[7] = crosslane::argmax(V, T).index;
  }
}

struct Lane {
  bool On;
  int V, T;
  float F;
};

// The lanes of lane L's cluster (Cluster lanes Stride apart) in its warp.
static std::vector<const Lane *> cluster(const std::vector<Lane> &Warp, int L,
                                         int Cluster, int Stride) {
  int Span = Cluster * Stride, Base = (L / Span) * Span + L % Stride;
  std::vector<const Lane *> Out;
  for (int K = 0; K < Cluster; ++K)
    if (Base + K * Stride < (int)Warp.size() && Warp[Base + K * Stride].On)
      Out.push_back(&Warp[Base + K * Stride]);
  return Out;
}

static long checkWarp(const std::vector<Lane> &Warp, const int *Out, int W,
                      bool Divergent) {
  long Errors = 0;
  for (int L = 0; L < (int)Warp.size(); ++L) {
    const Lane &X = Warp[L];
    if (!X.On)
      continue;
    const int *O = Out + X.T * Outputs;
    int Sum = 0, Min = INT32_MAX, Max = INT32_MIN, ArgMin = -1, VMin = 0;
    for (const Lane *C : cluster(Warp, L, W, 1))
      Sum += C->V;
    for (const Lane *C : cluster(Warp, L, 2, 1))
      Min = std::min(Min, C->V);
    for (const Lane *C : cluster(Warp, L, 2, 2))
      Max = std::max(Max, C->V);
    float FMax = NAN;
    int ArgMax = -1;
    for (const Lane *C : cluster(Warp, L, W, 1)) {
      if (!std::isnan(C->F) && (std::isnan(FMax) || C->F > FMax ||
                                (C->F == FMax && C->T < ArgMax)))
        FMax = C->F, ArgMax = C->T;
      if (ArgMin < 0 || C->V < VMin || (C->V == VMin && C->T < ArgMin))
        VMin = C->V, ArgMin = C->T;
    }
    if (std::isnan(FMax)) // every lane NaN: the smallest index
      ArgMax = cluster(Warp, L, W, 1)[0]->T;
    float GotMax;
    std::memcpy(&GotMax, &O[3], 4);
    bool MaxOk = std::isnan(FMax) ? std::isnan(GotMax) : GotMax == FMax;
    bool Ok = O[0] == Sum && O[1] == Min && (W < 4 || O[2] == Max) && MaxOk &&
              O[4] == ArgMax && O[5] == ArgMin;
    if (Divergent) {
      int DSum = 0, DArg = -1, DMax = 0;
      for (const Lane *C : cluster(Warp, L, W, 1))
        if (C->V % 3 != 0) {
          DSum += C->V;
          if (DArg < 0 || C->V > DMax)
            DMax = C->V, DArg = C->T;
        }
      Ok &= X.V % 3 == 0 ? O[6] == -1 && O[7] == -1
                         : O[6] == DSum && O[7] == DArg;
    }
    if (!Ok && Errors++ < 5)
      std::printf("lane %d: got %d %d %d %g %d %d %d %d, want %d %d %d %g %d "
                  "%d\n",
                  X.T, O[0], O[1], O[2], GotMax, O[4], O[5], O[6], O[7], Sum,
                  Min, Max, FMax, ArgMax, ArgMin);
  }
  return Errors;
}

int main() {
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  int W = Prop.warpSize;
  // The last warp of each block is partial (when warps have several lanes).
  int Block = Prop.maxThreadsPerBlock - (W > 1 ? W / 2 : 0);
  int Grid = 3, N = Grid * Block;
  std::vector<int> In(N), Out(N * Outputs);
  std::vector<float> InF(N);
  for (int I = 0; I < N; ++I) {
    In[I] = (I * 7919) % 23 - 11; // ties and negative values
    InF[I] = float((I * 31) % 9);
    if (I % 5 == 0)
      InF[I] = NAN;
    if (I / W % 4 == 3) // some warps: every lane NaN
      InF[I] = NAN;
  }
  int *DIn, *DOut;
  float *DInF;
  HIP_CHECK(hipMalloc(&DIn, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DInF, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&DOut, N * Outputs * sizeof(int)));
  HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(
      hipMemcpy(DInF, InF.data(), N * sizeof(float), hipMemcpyHostToDevice));
  subgroupOps<<<Grid, Block>>>(DIn, DInF, DOut);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(Out.data(), DOut, N * Outputs * sizeof(int),
                      hipMemcpyDeviceToHost));
  long Errors = 0;
  for (int B = 0; B < Grid; ++B)
    for (int Start = 0; Start < Block; Start += W) {
      std::vector<Lane> Warp;
      for (int L = 0; L < W; ++L) {
        int T = B * Block + Start + L;
        bool On = Start + L < Block;
        Warp.push_back({On, On ? In[T] : 0, T, On ? InF[T] : 0});
      }
      Errors += checkWarp(Warp, Out.data(), W, true);
    }
  return verdict("crosslane ops", Errors, N);
}
