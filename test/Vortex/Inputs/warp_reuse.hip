// A warp first dispatched for the partial last warp of a block (blockDim
// not a multiple of the warp size) and then reused for a full warp of the
// next block: the lanes that were off the first time must still get their
// own stack, thread and global pointers (Vortex skips its start-up code on
// reuse; crosslane-vortex-abi's entry stub redoes it), also in later
// launches of whole warps. Each lane fills a stack array, branches
// divergently, and reads it back.
#include "check.h"
#include <vector>

__global__ void stackPerLane(const int *In, int *Out, unsigned *Sp) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  volatile int Buf[6];
  for (int I = 0; I < 6; ++I)
    Buf[I] = T * 10 + I;
  if (In[T] % 3 != 0)
    Out[2 * T + 1] = In[T];
  int S = 0;
  for (int I = 0; I < 6; ++I)
    S += Buf[I];
  Out[2 * T] = S;
  unsigned P;
  __asm__ volatile("mv %0, sp" : "=r"(P));
  Sp[T] = P;
}

int main() {
  hipDeviceProp_t Prop;
  HIP_CHECK(hipGetDeviceProperties(&Prop, 0));
  int W = Prop.warpSize;
  long Errors = 0, Cases = 0;
  // Blocks of 1.5 and 3.25 warps and one lane short of a warp (these
  // launches enter through the stub), each followed by whole warps (these
  // enter the kernel directly and rely on the stub having set up the lanes
  // the partial warps left off).
  for (int Block : {W + W / 2, 2 * W, 3 * W + W / 4, 4 * W, W - 1, W}) {
    if (Block < 1 || Block > Prop.maxThreadsPerBlock)
      continue;
    int Grid = 5, N = Grid * Block;
    std::vector<int> In(N), Out(2 * N, 0);
    std::vector<unsigned> Sp(N);
    for (int I = 0; I < N; ++I)
      In[I] = (I * 7919) % 23 - 11;
    int *DIn, *DOut;
    unsigned *DSp;
    HIP_CHECK(hipMalloc(&DIn, N * sizeof(int)));
    HIP_CHECK(hipMalloc(&DOut, 2 * N * sizeof(int)));
    HIP_CHECK(hipMalloc(&DSp, N * sizeof(unsigned)));
    HIP_CHECK(hipMemcpy(DIn, In.data(), N * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(DOut, 0, 2 * N * sizeof(int)));
    stackPerLane<<<Grid, Block>>>(DIn, DOut, DSp);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(Out.data(), DOut, 2 * N * sizeof(int),
                        hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(Sp.data(), DSp, N * sizeof(unsigned),
                        hipMemcpyDeviceToHost));
    for (int T = 0; T < N; ++T) {
      ++Cases;
      int Want = T * 60 + 15, WantDiv = In[T] % 3 != 0 ? In[T] : 0;
      if (Out[2 * T] != Want || Out[2 * T + 1] != WantDiv || Sp[T] == 0) {
        if (Errors++ < 5)
          std::printf("block %d thread %d: sum %d (want %d), %d (want %d), "
                      "sp 0x%x\n",
                      Block, T, Out[2 * T], Want, Out[2 * T + 1], WantDiv,
                      Sp[T]);
      }
    }
    HIP_CHECK(hipFree(DIn));
    HIP_CHECK(hipFree(DOut));
    HIP_CHECK(hipFree(DSp));
  }
  return verdict("warp reuse", Errors, Cases);
}
