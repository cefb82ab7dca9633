// Launches the runtime must refuse with a HIP error, not a hang or abort.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void touch(int *P) { P[threadIdx.x] = 1; }
extern __shared__ int Dyn[];
__global__ void useDyn(int *P) {
  Dyn[threadIdx.x] = 2;
  P[threadIdx.x] = Dyn[threadIdx.x];
}

int main() {
  int *P;
  hipMalloc(&P, 4096);
  hipDeviceProp_t Prop;
  hipGetDeviceProperties(&Prop, 0);
  touch<<<1, Prop.maxThreadsPerBlock + 1>>>(P);
  hipError_t E = hipGetLastError();
  std::printf("too many threads: %s: %s\n", hipGetErrorName(E), hipGetErrorString(E));
  useDyn<<<1, 4, Prop.sharedMemPerBlock + 4>>>(P);
  E = hipGetLastError();
  std::printf("too much shared memory: %s: %s\n", hipGetErrorName(E), hipGetErrorString(E));
  touch<<<dim3(1, 0, 1), 4>>>(P);
  E = hipGetLastError();
  std::printf("empty grid: %s\n", hipGetErrorName(E));
  touch<<<1, 4>>>(P);
  E = hipDeviceSynchronize();
  std::printf("valid launch after errors: %s\n", hipGetErrorName(E));
  return 0;
}
