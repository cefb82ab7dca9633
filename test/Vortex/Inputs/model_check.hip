// Divergent kernels that run on simx and, from the same input files, in
// crosslane-run's Vortex model with hardware semantics
// (test/Vortex/Executor/model-vs-simx.test compares every output byte).
// Usage: model_check BLOCK: runs each kernel over 3 * BLOCK - 5 elements
// (the last block partial), writes <kernel>.argK.bin for every buffer
// argument K (inputs before, outputs after the launch) and prints one line
// per launch for Inputs/model_check.py:
//   launch <kernel> grid <g> block <b> args <spec> ... outs <K> ...
#include "check.h"
#include <cstdlib>
#include <string>
#include <vector>

#define MAX_BLOCK 256

__global__ void mcNested(const int *In, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int X = In[I], R;
  if (X & 1) {
    if (X & 2)
      R = X * 3;
    else
      R = X - 7;
  } else if (threadIdx.x % 3 == 0) {
    R = -X;
  } else {
    R = X + (int)threadIdx.x;
  }
  Out[I] = R;
}

__global__ void mcLoops(const int *In, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int X = In[I], Steps = 0, Sum = 0;
  unsigned V = (unsigned)X % 97 + 1;
  while (V != 1 && Steps < 100) {
    V = (V & 1) ? 3 * V + 1 : V / 2;
    ++Steps;
  }
  for (int K = 0; K < (X & 15); ++K) {
    if ((K + X) % 3 == 0)
      continue;
    Sum += K * X;
    if (Sum > 1000)
      break;
  }
  Out[I] = Steps * 10000 + Sum;
}

__global__ void mcSwitch(const int *In, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int X = I < N ? In[I] : 0, R;
  switch (((X % 7) + 7) % 7) {
  case 0: R = X * 2; break;
  case 1: R = X + 100; break;
  case 2: R = -X; break;
  case 3: R = X ^ 0x55; break;
  case 5: R = X >> 1; break;
  default: R = 42; break;
  }
  if (I < N)
    Out[I] = R;
}

__global__ void mcFloat(const int *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float X = In[I] * 0.25f, Y = (In[(I + 1) % N] % 13) * 1.5f;
  float M = X > Y ? X : Y;
  float Acc = 0;
  for (int K = 0; K < (In[I] & 7); ++K)
    Acc += X * K;
  Out[I] = (X < 0 ? M - fminf(X, Y) : fminf(X, Y) * 2 - M) + Acc;
}

// A tree over shared memory whose active lanes thin out between barriers.
__global__ void mcReduce(const int *In, int *Out, int N) {
  __shared__ int Buf[MAX_BLOCK];
  unsigned T = threadIdx.x;
  int I = blockIdx.x * blockDim.x + T;
  Buf[T] = I < N ? In[I] : 0;
  __syncthreads();
  for (unsigned S = 1; S < blockDim.x; S *= 2) {
    if (T % (2 * S) == 0 && T + S < blockDim.x)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  if (I < N)
    Out[I] = Buf[T] * 3 + Buf[(T + 1) % blockDim.x];
}

// Votes and shuffles under divergent branches: one whose lanes come in
// pairs (the shuffle partner is active), one whose partner may be switched
// off (simx then reads the partner's register: the V it computed before the
// branch).
__global__ void mcWarp(const int *In, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int V = I < N ? In[I] : 0;
  unsigned Ballot = (unsigned)__ballot(V & 1);
  int Any = __any(V > 500), All = __all(V > -900);
  int S = V;
  if (((threadIdx.x >> 1) + (unsigned)In[blockIdx.x]) & 1)
    S += __shfl_xor(V, 1) * 5;
  if ((V ^ (int)threadIdx.x) & 2)
    S += __shfl_xor(V, 1) * 3 + (int)__ballot(1);
  for (int D = 1; D < 4; D *= 2)
    S += __shfl_xor(S, D, 4);
  S += __shfl_up(S, 1, 4) + __shfl(S, 3, 4) * 2;
  if (I < N)
    Out[I] = (int)(Ballot & 0xFFFF) ^ (Any * 7) ^ (All * 11) ^ S;
}

// 64-bit division is libgcc code (__divdi3), whose own branches the warp's
// last active lane takes when nothing serialises the lanes.
__global__ void mcDiv64(const int *In, long long *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = ((long long)In[I] * 1000003LL) / ((In[(I + 3) % N] & 63) + 1);
}

template <class T>
static bool writeFile(const std::string &Name, const std::vector<T> &V) {
  FILE *F = std::fopen(Name.c_str(), "wb");
  if (!F)
    return false;
  bool Ok = std::fwrite(V.data(), sizeof(T), V.size(), F) == V.size();
  return std::fclose(F) == 0 && Ok;
}

/// Runs kernel \p K (In, Out, N) and writes its buffers; \p OutType is the
/// crosslane-run element type of Out.
template <class TOut>
static int launch(const char *Name, void (*K)(const int *, TOut *, int),
                  const char *OutType, const std::vector<int> &In,
                  int Block) {
  int N = In.size(), Grid = (N + Block - 1) / Block;
  std::vector<TOut> Out(N);
  int *DIn;
  TOut *DOut;
  HIP_CHECK(hipMalloc(&DIn, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&DOut, N * sizeof(TOut)));
  HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(DOut, 0, N * sizeof(TOut)));
  hipLaunchKernelGGL(K, dim3(Grid), dim3(Block), 0, 0, DIn, DOut, N);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(Out.data(), DOut, N * sizeof(TOut),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(DIn));
  HIP_CHECK(hipFree(DOut));
  std::string Base = Name;
  if (!writeFile(Base + ".arg0.bin", In) || !writeFile(Base + ".arg1.bin", Out))
    return std::printf("FAILED: cannot write %s's files\n", Name), 1;
  std::printf("launch %s grid %d block %d args buf:i32:%d:file=%s.arg0.bin "
              "buf:%s:%d:zero i32:%d outs 1\n",
              Name, Grid, Block, N, Name, OutType, N, N);
  return 0;
}

int main(int Argc, char **Argv) {
  int Block = Argc > 1 ? std::atoi(Argv[1]) : 16;
  if (Block < 4 || Block > MAX_BLOCK || Block % 4)
    return std::printf("FAILED: block %d (want a multiple of 4 <= %d)\n",
                       Block, MAX_BLOCK),
           1;
  std::vector<int> In(3 * Block - 5);
  std::srand(11);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = (std::rand() % 2001) - 1000;
  int Failed = launch("mcNested", mcNested, "i32", In, Block) ||
               launch("mcLoops", mcLoops, "i32", In, Block) ||
               launch("mcSwitch", mcSwitch, "i32", In, Block) ||
               launch("mcFloat", mcFloat, "f32", In, Block) ||
               launch("mcReduce", mcReduce, "i32", In, Block) ||
               launch("mcWarp", mcWarp, "i32", In, Block) ||
               launch("mcDiv64", mcDiv64, "i64", In, Block);
  std::printf("model_check: %s\n", Failed ? "FAILED" : "done");
  return Failed;
}
