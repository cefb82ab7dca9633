// Input of wide-integers.test.
#include <hip/hip_runtime.h>
extern "C" __global__ void hi(const unsigned long long *A, long long *O) {
  O[0] = (long long)__umul64hi(A[0], A[1]);
  O[1] = __mul64hi((long long)A[0], (long long)A[1]);
}
