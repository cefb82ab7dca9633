// Three things a LP64 host and an ILP32, F-only device disagree on, as HIP
// programs meet them:
//  - kernels with int64_t / uint64_t parameters: the host mangles them as
//    long (l, m), the device as long long (x, y); the launch must still
//    find the kernel;
//  - a double (value, index) butterfly with a NaN-aware combine (PyTorch's
//    LessOrNan): its selects become branch-free arithmetic, and the double
//    compares of their results are libgcc calls that must run one lane at a
//    time (on rv32imf), or a lane takes another lane's branch in libgcc;
//  - crosslane::argmax on double, whose {double, int} result rv32 returns
//    through a hidden pointer.
#include "check.h"
#include <cmath>
#include <crosslane.h>
#include <cstdint>
#include <vector>

__global__ void fill64(int64_t *Out, uint64_t Bias, int64_t Step) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  Out[T] = int64_t(Bias) + Step * T;
}

__host__ __device__ inline bool isNaN(double V) { return V != V; }
struct Pair {
  double V;
  long long I;
};
__host__ __device__ inline Pair lessOrNan(Pair A, Pair B) {
  bool TakeA;
  if (isNaN(A.V))
    TakeA = isNaN(B.V) ? A.I < B.I : true;
  else
    TakeA = A.V == B.V ? A.I < B.I : A.V < B.V;
  return TakeA ? A : B;
}

__global__ void argminNan(const double *In, long long *Out) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  Pair Acc{In[T], threadIdx.x};
  for (int M = warpSize / 2; M > 0; M >>= 1) {
    Pair O{__shfl_xor(Acc.V, M), __shfl_xor(Acc.I, M)};
    Acc = lessOrNan(Acc, O);
  }
  Out[T] = Acc.I;
}

__global__ void argmaxDouble(const double *In, int *Idx, double *Val) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  auto R = crosslane::argmax<CROSSLANE_WAVE_SIZE, 1, CROSSLANE_ZEROS_EQUAL>(
      fabs(In[T]), T);
  Idx[T] = R.index;
  Val[T] = R.value;
}

int main() {
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  // Up to 4 warps per block: enough for the cross-warp paths, and the -O0
  // soft-float runs of the widest configuration stay about a minute.
  const int W = Prop.warpSize, Grid = 3,
            Block = Prop.maxThreadsPerBlock < 4 * W ? Prop.maxThreadsPerBlock
                                                    : 4 * W;
  const int N = Grid * Block;
  long Errors = 0, Cases = 0;

  int64_t *D64;
  HIP_CHECK(hipMalloc(&D64, N * sizeof(int64_t)));
  fill64<<<Grid, Block>>>(D64, uint64_t(1) << 40, -3);
  HIP_CHECK(hipGetLastError());
  std::vector<int64_t> H64(N);
  HIP_CHECK(hipMemcpy(H64.data(), D64, N * 8, hipMemcpyDeviceToHost));
  for (int T = 0; T < N; ++T, ++Cases)
    Errors += H64[T] != (int64_t(1) << 40) - 3 * T;

  std::vector<double> D(N);
  unsigned S = 1;
  for (int I = 0; I < N; ++I) {
    S = S * 1103515245u + 12345u;
    D[I] = double((S >> 16) % 3) - 1.0;
    int Warp = I / W, L = I % W;
    if (Warp % 4 == 1 && L == 1)
      D[I] = NAN;
    if (Warp % 4 == 2 && L % 3 == 2)
      D[I] = -NAN;
  }
  double *DD, *DV;
  long long *DI;
  int *DX;
  HIP_CHECK(hipMalloc(&DD, N * 8));
  HIP_CHECK(hipMalloc(&DI, N * 8));
  HIP_CHECK(hipMalloc(&DV, N * 8));
  HIP_CHECK(hipMalloc(&DX, N * 4));
  HIP_CHECK(hipMemcpy(DD, D.data(), N * 8, hipMemcpyHostToDevice));
  argminNan<<<Grid, Block>>>(DD, DI);
  std::vector<long long> OI(N);
  HIP_CHECK(hipMemcpy(OI.data(), DI, N * 8, hipMemcpyDeviceToHost));
  for (int Base = 0; Base < N; Base += W) {
    std::vector<Pair> St(W);
    for (int L = 0; L < W; ++L)
      St[L] = {D[Base + L], (Base + L) % Block};
    for (int M = W / 2; M > 0; M >>= 1) {
      std::vector<Pair> Old = St;
      for (int L = 0; L < W; ++L)
        St[L] = lessOrNan(Old[L], Old[L ^ M]);
    }
    for (int L = 0; L < W; ++L, ++Cases)
      if (OI[Base + L] != St[L].I && Errors++ < 5)
        std::printf("argminNan lane %d: %lld, want %lld\n", Base + L,
                    OI[Base + L], St[L].I);
  }

  argmaxDouble<<<Grid, Block>>>(DD, DX, DV);
  std::vector<int> OX(N);
  std::vector<double> OV(N);
  HIP_CHECK(hipMemcpy(OX.data(), DX, N * 4, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(OV.data(), DV, N * 8, hipMemcpyDeviceToHost));
  for (int T = 0; T < N; ++T, ++Cases) {
    // NaN ignored; ties to the smallest index.
    int Base = T / W * W, Best = -1;
    for (int L = Base; L < Base + W; ++L)
      if (!isNaN(D[L]) && (Best < 0 || std::fabs(D[L]) > std::fabs(D[Best])))
        Best = L;
    if (Best >= 0 && (OX[T] != Best || OV[T] != std::fabs(D[Best])) &&
        Errors++ < 5)
      std::printf("argmaxDouble lane %d: %d, want %d\n", T, OX[T], Best);
  }
  return verdict("lp64/soft-float", Errors, Cases);
}
