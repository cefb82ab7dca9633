// HIP's warp functions at the configuration's warp size: shuffles (idx, up,
// down, xor) over the whole warp and over segments, on int, float and
// double; ballot, any, all and activemask in full and divergent code; a
// warp reduction with __shfl_xor. The host computes HIP's semantics.
#include "check.h"
#include <cstring>
#include <vector>

constexpr int Outputs = 16;

__global__ void warpOps(const int *In, int *Out, double *OutD, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int V = T < N ? In[T] : 0;
  int W = warpSize, H = W / 2 > 0 ? W / 2 : 1;
  int *O = Out + T * Outputs;
  O[0] = __shfl(V, 1);
  O[1] = __shfl(V, 3 * T + 5, H);
  O[2] = __shfl_up(V, 1);
  O[3] = __shfl_down(V, 2, H);
  O[4] = __shfl_xor(V, 1);
  float F = __shfl_xor((float)V * 0.5f, W - 1);
  std::memcpy(&O[5], &F, 4);
  O[6] = (int)__ballot(V & 1);
  O[7] = __any(V > 900);
  O[8] = __all(V > -2000);
  O[9] = (int)__activemask();
  int Sum = V;
  for (int M = W / 2; M > 0; M /= 2)
    Sum += __shfl_xor(Sum, M);
  O[10] = Sum;
  // Divergent: only even values vote and shuffle.
  O[11] = -1;
  O[12] = -1;
  if (V % 2 == 0) {
    O[11] = (int)__ballot(1);
    O[12] = (int)__activemask();
  }
  O[13] = __lane_id();
  O[14] = W;
  O[15] = __popcll(__ballot(1));
  OutD[T] = __shfl_down((double)V * 1.25, 1);
}

// HIP semantics, lane L of a warp of W lanes whose values are Vals.
static int idx(const std::vector<int> &Vals, int L, int Src, int Width) {
  return Vals[(L & ~(Width - 1)) + (Src & (Width - 1))];
}

int main() {
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  int W = Prop.warpSize, H = W / 2 > 0 ? W / 2 : 1, Block = Prop.maxThreadsPerBlock;
  int Grid = 3, N = Grid * Block;
  std::vector<int> In(N), Out(N * Outputs);
  std::vector<double> OutD(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 7919) % 2000 - 1000;
  int *DIn, *DOut;
  double *DOutD;
  HIP_CHECK(hipMalloc(&DIn, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DOut, Out.size() * sizeof(int)));
  HIP_CHECK(hipMalloc(&DOutD, N * sizeof(double)));
  HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice));
  warpOps<<<Grid, Block>>>(DIn, DOut, DOutD, N);
  HIP_CHECK(hipMemcpy(Out.data(), DOut, Out.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(OutD.data(), DOutD, N * sizeof(double), hipMemcpyDeviceToHost));
  long Bad = 0, Cases = 0;
  for (int Base = 0; Base < N; Base += W) {
    std::vector<int> Vals(In.begin() + Base, In.begin() + Base + W);
    unsigned Odd = 0, Even = 0;
    int Sum = 0;
    bool Any = false, All = true;
    for (int L = 0; L < W; ++L) {
      Odd |= (Vals[L] & 1u) << L;
      Even |= (Vals[L] % 2 == 0 ? 1u : 0u) << L;
      Sum += Vals[L];
      Any |= Vals[L] > 900;
      All &= Vals[L] > -2000;
    }
    unsigned Full = W == 32 ? ~0u : (1u << W) - 1;
    for (int L = 0; L < W; ++L) {
      const int *O = &Out[(Base + L) * Outputs];
      float F = (float)Vals[L ^ (W - 1)] * 0.5f;
      int FBits;
      std::memcpy(&FBits, &F, 4);
      int Want[Outputs] = {
          idx(Vals, L, 1, W), idx(Vals, L, 3 * (Base + L) + 5, H),
          L >= 1 ? Vals[L - 1] : Vals[L],
          (L % H) + 2 < H ? Vals[L + 2] : Vals[L],
          Vals[L ^ 1], FBits, (int)Odd, Any, All, (int)Full, Sum,
          Vals[L] % 2 == 0 ? (int)Even : -1, Vals[L] % 2 == 0 ? (int)Even : -1,
          L, W, W};
      for (int K = 0; K < Outputs; ++K, ++Cases)
        if (O[K] != Want[K]) {
          if (Bad < 8)
            std::printf("lane %d output %d: %d, want %d\n", Base + L, K, O[K], Want[K]);
          ++Bad;
        }
      double WantD = (L + 1 < W ? Vals[L + 1] : Vals[L]) * 1.25;
      Bad += OutD[Base + L] != WantD;
      ++Cases;
    }
  }
  std::printf("warp size %d\n", W);
  return verdict("warpops", Bad, Cases);
}
