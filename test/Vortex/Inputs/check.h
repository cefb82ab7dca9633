// Shared by the Vortex test programs: a verdict line and an exit status.
#include <cstdio>
#include <hip/hip_runtime.h>

#define HIP_CHECK(E)                                                           \
  do {                                                                         \
    hipError_t Err = (E);                                                      \
    if (Err != hipSuccess) {                                                   \
      std::printf("FAILED: %s at %s:%d: %s\n", #E, __FILE__, __LINE__,         \
                  hipGetErrorString(Err));                                     \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static int verdict(const char *What, long Errors, long Cases) {
  std::printf("%s: %s (%ld of %ld wrong)\n", What, Errors ? "FAILED" : "PASSED",
              Errors, Cases);
  return Errors != 0;
}
