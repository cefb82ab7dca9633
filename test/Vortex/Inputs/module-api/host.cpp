// A host program with no device code of its own: a module from memory
// (hipModuleLoadData), launched, unloaded, loaded again and launched again;
// then the module API's errors. The module's kernel is
// scale(int *p, int k): p[threadIdx.x] *= k.
#include "hip_runtime_api.h"
#include <cstdio>
#include <vector>

#define CHECK(X)                                                               \
  do {                                                                         \
    hipError_t E = (X);                                                        \
    if (E != hipSuccess) {                                                     \
      std::printf("%s: %s\n", #X, hipGetErrorName(E));                         \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static int runOnce(const std::vector<char> &Image, int K) {
  hipModule_t M;
  CHECK(hipModuleLoadData(&M, Image.data()));
  hipFunction_t F;
  CHECK(hipModuleGetFunction(&F, M, "scale"));
  int Host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int *Dev;
  CHECK(hipMalloc((void **)&Dev, sizeof(Host)));
  CHECK(hipMemcpy(Dev, Host, sizeof(Host), hipMemcpyHostToDevice));
  void *Args[] = {&Dev, &K};
  CHECK(hipModuleLaunchKernel(F, 2, 1, 1, 4, 1, 1, 0, nullptr, Args, nullptr));
  CHECK(hipMemcpy(Host, Dev, sizeof(Host), hipMemcpyDeviceToHost));
  CHECK(hipFree(Dev));
  CHECK(hipModuleUnload(M));
  for (int I = 0; I < 8; ++I)
    std::printf("%d%c", Host[I], I == 7 ? '\n' : ' ');
  return 0;
}

int main(int Argc, char **Argv) {
  std::FILE *In = std::fopen(Argv[1], "rb");
  std::vector<char> Image;
  for (int C; In && (C = std::fgetc(In)) != EOF;)
    Image.push_back(char(C));
  if (runOnce(Image, 3) || runOnce(Image, -2))
    return 1;
  hipModule_t M = nullptr;
  std::printf("unload null: %s\n", hipGetErrorName(hipModuleUnload(M)));
  std::printf("bad image: %s\n",
              hipGetErrorName(hipModuleLoadData(&M, "not a container")));
  hipFunction_t F = nullptr;
  std::printf("null function: %s\n",
              hipGetErrorName(hipModuleLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0,
                                                    nullptr, nullptr,
                                                    nullptr)));
  return 0;
}
