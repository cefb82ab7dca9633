// Warp arg-reductions written the way HIP/CUDA projects write them: a
// PyTorch-style (value, index) __shfl_xor butterfly, a CUB-style
// __shfl_down ladder read by lane 0, 4-lane groups of doubles (width 4,
// larger index on ties) and a (key, value) struct with a device combine.
// The host replays each butterfly exactly as written, lane by lane, and
// every lane's result must match bit for bit: where Crosslane's recogniser
// replaced a butterfly, its operation must give what the code means; on
// inputs the replacement's guard refuses (NaN, lanes off), the original
// code runs. Some warps hold NaNs, some -0/+0 mixes, many ties.
#include "check.h"
#include <cmath>
#include <cstring>
#include <vector>

__global__ void argmaxXor(const float *In, float *OV, int *OI) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  float V = In[T];
  int I = T;
  for (int O = warpSize / 2; O > 0; O /= 2) {
    float PV = __shfl_xor(V, O);
    int PI = __shfl_xor(I, O);
    if (PV > V || (PV == V && PI < I)) {
      V = PV;
      I = PI;
    }
  }
  OV[T] = V;
  OI[T] = I;
}

__global__ void argminDown(const int *In, int *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int V = In[T], I = T;
  for (int O = warpSize / 2; O > 0; O /= 2) {
    int PV = __shfl_down(V, O);
    int PI = __shfl_down(I, O);
    if (PV < V || (PV == V && PI < I)) {
      V = PV;
      I = PI;
    }
  }
  if (__lane_id() == 0)
    Out[T / warpSize] = I;
}

__global__ void argmaxGroups(const double *In, double *OV, int *OI) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  double V = In[T];
  int I = threadIdx.x;
  for (int O = 2; O > 0; O /= 2) {
    double PV = __shfl_xor(V, O, 4);
    int PI = __shfl_xor(I, O, 4);
    if (PV > V || (PV == V && PI > I)) {
      V = PV;
      I = PI;
    }
  }
  OV[T] = V;
  OI[T] = I;
}

struct KV {
  float K;
  int V;
};
__host__ __device__ inline KV better(KV A, KV B) {
  return (B.K < A.K || (B.K == A.K && B.V < A.V)) ? B : A;
}
__global__ void argminStruct(const float *In, int *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  KV P{In[T], T};
  for (int O = warpSize / 2; O > 0; O >>= 1) {
    KV Q{__shfl_xor(P.K, O), __shfl_xor(P.V, O)};
    P = better(P, Q);
  }
  Out[T] = P.V;
}

// The host's replay of one butterfly step over a warp: lane L takes what
// Combine makes of its own state and lane Src(L)'s.
template <class S, class SrcFn, class CombineFn>
static void step(std::vector<S> &St, int W, SrcFn Src, CombineFn Combine) {
  for (size_t Base = 0; Base < St.size(); Base += W) {
    std::vector<S> Old(St.begin() + Base, St.begin() + Base + W);
    for (int L = 0; L < W; ++L)
      St[Base + L] = Combine(Old[L], Old[Src(L)]);
  }
}

static bool sameBits(double A, double B) {
  return std::memcmp(&A, &B, sizeof A) == 0;
}
static bool sameBits(float A, float B) {
  return std::memcmp(&A, &B, sizeof A) == 0;
}

int main() {
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  const int W = Prop.warpSize, Block = Prop.maxThreadsPerBlock, Grid = 4;
  const int N = Grid * Block;
  std::vector<float> F(N);
  std::vector<double> D(N);
  std::vector<int> Ints(N);
  for (int I = 0; I < N; ++I) {
    int Warp = I / W;
    F[I] = float((I * 7 + Warp) % 5); // ties in every warp
    if (Warp % 5 == 3)
      F[I] = (I % 2) ? -0.0f : 0.0f; // all equal but for the sign of zero
    if (Warp % 7 == 2 && I % W == W / 2 - 1)
      F[I] = NAN; // the guard refuses: the original code runs
    D[I] = (Warp % 6 == 1 && I % 3 == 0) ? double(NAN) : double((I * 13) % 4);
    Ints[I] = (I * 11 + Warp) % 3 - 1;
  }
  float *DF, *DOV;
  double *DD, *DDV;
  int *DInts, *DOI, *DOut;
  HIP_CHECK(hipMalloc(&DF, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&DOV, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&DD, N * sizeof(double)));
  HIP_CHECK(hipMalloc(&DDV, N * sizeof(double)));
  HIP_CHECK(hipMalloc(&DInts, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DOI, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DOut, N * sizeof(int)));
  HIP_CHECK(hipMemcpy(DF, F.data(), N * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(DD, D.data(), N * sizeof(double), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(DInts, Ints.data(), N * sizeof(int),
                      hipMemcpyHostToDevice));
  long Errors = 0, Cases = 0;
  auto Report = [&](const char *K, int T, double Got, double Want) {
    ++Errors;
    if (Errors <= 5)
      std::printf("%s lane %d: %g, want %g\n", K, T, Got, Want);
  };

  // argmaxXor
  argmaxXor<<<Grid, Block>>>(DF, DOV, DOI);
  std::vector<float> OV(N);
  std::vector<int> OI(N);
  HIP_CHECK(hipMemcpy(OV.data(), DOV, N * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(OI.data(), DOI, N * sizeof(int), hipMemcpyDeviceToHost));
  std::vector<KV> X(N);
  for (int I = 0; I < N; ++I)
    X[I] = {F[I], I};
  for (int O = W / 2; O > 0; O /= 2)
    step(X, W, [&](int L) { return L ^ O; }, [](KV S, KV P) {
      return (P.K > S.K || (P.K == S.K && P.V < S.V)) ? P : S;
    });
  for (int T = 0; T < N; ++T, ++Cases)
    if (!sameBits(OV[T], X[T].K) || OI[T] != X[T].V)
      Report("argmaxXor", T, OI[T], X[T].V);

  // argminDown: lane 0 of each warp
  argminDown<<<Grid, Block>>>(DInts, DOut);
  std::vector<int> Out(N);
  HIP_CHECK(hipMemcpy(Out.data(), DOut, N / W * sizeof(int),
                      hipMemcpyDeviceToHost));
  std::vector<std::pair<int, int>> Y(N);
  for (int I = 0; I < N; ++I)
    Y[I] = {Ints[I], I};
  for (int O = W / 2; O > 0; O /= 2)
    step(Y, W, [&](int L) { return L + O < W ? L + O : L; },
         [](std::pair<int, int> S, std::pair<int, int> P) {
           return (P.first < S.first ||
                   (P.first == S.first && P.second < S.second))
                      ? P
                      : S;
         });
  for (int Wp = 0; Wp < N / W; ++Wp, ++Cases)
    if (Out[Wp] != Y[Wp * W].second)
      Report("argminDown", Wp * W, Out[Wp], Y[Wp * W].second);

  // argmaxGroups (4-lane groups)
  argmaxGroups<<<Grid, Block>>>(DD, DDV, DOI);
  std::vector<double> DV(N);
  HIP_CHECK(hipMemcpy(DV.data(), DDV, N * sizeof(double),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(OI.data(), DOI, N * sizeof(int), hipMemcpyDeviceToHost));
  std::vector<std::pair<double, int>> Z(N);
  for (int I = 0; I < N; ++I)
    Z[I] = {D[I], I % Block};
  for (int O = 2; O > 0; O /= 2)
    step(Z, W, [&](int L) { return L ^ O; },
         [](std::pair<double, int> S, std::pair<double, int> P) {
           return (P.first > S.first ||
                   (P.first == S.first && P.second > S.second))
                      ? P
                      : S;
         });
  for (int T = 0; T < N; ++T, ++Cases)
    if (!sameBits(DV[T], Z[T].first) || OI[T] != Z[T].second)
      Report("argmaxGroups", T, OI[T], Z[T].second);

  // argminStruct
  argminStruct<<<Grid, Block>>>(DF, DOI);
  HIP_CHECK(hipMemcpy(OI.data(), DOI, N * sizeof(int), hipMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I)
    X[I] = {F[I], I};
  for (int O = W / 2; O > 0; O /= 2)
    step(X, W, [&](int L) { return L ^ O; }, better);
  for (int T = 0; T < N; ++T, ++Cases)
    if (OI[T] != X[T].V)
      Report("argminStruct", T, OI[T], X[T].V);
  return verdict("arg reductions", Errors, Cases);
}
