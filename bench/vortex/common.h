// Shared by the Vortex benchmark programs: HIP versions of Vortex's own
// regression kernels, launched with the grid Vortex's hosts use
// (vx_device_max_occupancy_grid: blocks of (lanes per warp, warps per
// core)), checked on the host. Run with CROSSLANE_VORTEX_PERF=1: the runtime
// prints simx's PERF line at exit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <hip/hip_runtime.h>

#define CHECK(E)                                                               \
  do {                                                                         \
    hipError_t Err = (E);                                                      \
    if (Err != hipSuccess) {                                                   \
      std::printf("FAILED: %s: %s\n", #E, hipGetErrorString(Err));             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static int sizeArg(int Argc, char **Argv, int Default) {
  for (int I = 1; I + 1 < Argc; ++I)
    if (!std::strcmp(Argv[I], "-n"))
      return std::atoi(Argv[I + 1]);
  return Default;
}

static int verdict(long Errors) {
  std::printf(Errors ? "FAILED (%ld wrong)\n" : "PASSED\n", Errors);
  return Errors != 0;
}
