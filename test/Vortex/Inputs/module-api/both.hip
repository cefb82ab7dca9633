// A program with kernels of its own that also loads a module: Vortex holds
// one image at a time (both are linked at 0x80000000), so launching the
// module's kernel after the program's own is refused with a message.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void own(int *p) { p[threadIdx.x] = 7; }

int main(int Argc, char **Argv) {
  int *Dev;
  hipMalloc((void **)&Dev, 16);
  own<<<1, 4>>>(Dev);
  std::printf("own kernel: %s\n", hipGetErrorName(hipDeviceSynchronize()));
  hipModule_t M;
  std::printf("load: %s\n", hipGetErrorName(hipModuleLoad(&M, Argv[1])));
  hipFunction_t F;
  std::printf("get: %s\n",
              hipGetErrorName(hipModuleGetFunction(&F, M, "scale")));
  int K = 2;
  void *Args[] = {&Dev, &K};
  hipError_t E =
      hipModuleLaunchKernel(F, 1, 1, 1, 4, 1, 1, 0, nullptr, Args, nullptr);
  std::printf("launch: %s: %s\n", hipGetErrorName(E), hipGetErrorString(E));
  return 0;
}
