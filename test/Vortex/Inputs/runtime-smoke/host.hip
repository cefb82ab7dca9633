//===- host.hip - Host side of the runtime-smoke test ---------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A HIP host program compiled by upstream clang (--cuda-host-only) against
// Crosslane's hip_runtime_api.h and linked with libcrosslane_hip_vortex.so.
// The kernels' bodies are empty: the host compile only emits launch stubs,
// and the device code is kernels.c, packed into the embedded container.
//
// Usage: host full|props|nodevice|badimage|hang|nosync|hangexit
//
//===----------------------------------------------------------------------===//

#include "hip_runtime_api.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void saxpy(float *Out, const float *A, const float *B, float S,
                      int N) {}
extern "C" __global__ void scale_coef(float *Out, const float *A, int N) {}
extern "C" __global__ void spin(int N) {}

__constant__ float coef[2];
__device__ int last_n;

namespace {

int Failures = 0;

/// Prints the outcome of a call: "<what>: <error name>".
void report(const char *What, hipError_t Error) {
  std::printf("%s: %s\n", What, hipGetErrorName(Error));
}

void expect(bool Ok, const char *What) {
  if (!Ok) {
    std::printf("FAILED: %s\n", What);
    ++Failures;
  }
}

void printProperties() {
  hipDeviceProp_t Props;
  report("hipGetDeviceProperties", hipGetDeviceProperties(&Props, 0));
  std::printf("name=%s arch=%s warpSize=%d maxThreadsPerBlock=%d "
              "sharedMemPerBlock=%zu multiProcessorCount=%d clockRate=%d\n",
              Props.name, Props.gcnArchName, Props.warpSize,
              Props.maxThreadsPerBlock, Props.sharedMemPerBlock,
              Props.multiProcessorCount, Props.clockRate);
  int WarpSize = 0;
  report("hipDeviceGetAttribute",
         hipDeviceGetAttribute(&WarpSize, hipDeviceAttributeWarpSize, 0));
  expect(WarpSize == Props.warpSize, "attribute warp size");
}

/// saxpy through <<<>>> and hipLaunchKernelGGL, checked on the host.
void runSaxpy(int N, float *DA, float *DB, float *DOut) {
  std::vector<float> A(N), B(N), Out(N, -1.0f);
  for (int I = 0; I < N; ++I) {
    A[I] = float(I);
    B[I] = float(2 * I + 1);
  }
  size_t Bytes = N * sizeof(float);
  report("hipMemcpy H2D",
         hipMemcpy(DA, A.data(), Bytes, hipMemcpyHostToDevice));
  report("hipMemcpy default", hipMemcpy(DB, B.data(), Bytes, hipMemcpyDefault));
  saxpy<<<N / 16, 16>>>(DOut, DA, DB, 3.0f, N);
  report("saxpy launch", hipGetLastError());
  report("hipMemcpy D2H",
         hipMemcpy(Out.data(), DOut, Bytes, hipMemcpyDeviceToHost));
  int Errors = 0;
  for (int I = 0; I < N; ++I)
    Errors += Out[I] != A[I] * 3.0f + B[I];
  std::printf("saxpy: %d of %d wrong\n", Errors, N);

  // Through hipLaunchKernel (S = 2), then again with 8-thread blocks
  // (S = -1), reading back the upper half through an interior pointer.
  float S = 2.0f;
  void *Args[] = {&DOut, &DA, &DB, &S, &N};
  report("hipLaunchKernel",
         hipLaunchKernel(saxpy, dim3(N / 4), dim3(4), Args, 0, nullptr));
  report("hipMemcpy D2H",
         hipMemcpy(Out.data(), DOut, Bytes, hipMemcpyDeviceToHost));
  Errors = 0;
  for (int I = 0; I < N; ++I)
    Errors += Out[I] != A[I] * 2.0f + B[I];
  std::printf("hipLaunchKernel: %d of %d wrong\n", Errors, N);
  hipLaunchKernelGGL(saxpy, dim3(N / 8), dim3(8), 0, 0, DOut, DA, DB, -1.0f, N);
  report("hipLaunchKernelGGL", hipGetLastError());
  std::vector<float> Half(N / 2);
  report("hipMemcpy interior", hipMemcpy(Half.data(), DOut + N / 2, Bytes / 2,
                                         hipMemcpyDeviceToHost));
  Errors = 0;
  for (int I = 0; I < N / 2; ++I)
    Errors += Half[I] != B[N / 2 + I] - A[N / 2 + I];
  std::printf("saxpy interior: %d of %d wrong\n", Errors, N / 2);
}

/// hipMemcpyToSymbol / FromSymbol around a kernel that uses the variables.
void runSymbols(int N, float *DA, float *DOut) {
  const float Coef[2] = {0.5f, 10.0f};
  report("hipMemcpyToSymbol", hipMemcpyToSymbol(coef, Coef, sizeof(Coef)));
  scale_coef<<<N / 4, 4>>>(DOut, DA, N);
  report("scale_coef launch", hipGetLastError());
  std::vector<float> Out(N);
  report("hipMemcpy D2H",
         hipMemcpy(Out.data(), DOut, N * sizeof(float), hipMemcpyDeviceToHost));
  int Errors = 0;
  for (int I = 0; I < N; ++I)
    Errors += Out[I] != float(I) * 0.5f + 10.0f;
  std::printf("scale_coef: %d of %d wrong\n", Errors, N);
  int LastN = 0;
  report("hipMemcpyFromSymbol",
         hipMemcpyFromSymbol(&LastN, last_n, sizeof(LastN)));
  std::printf("last_n=%d\n", LastN);
  float Second = 0;
  report("hipMemcpyFromSymbol offset",
         hipMemcpyFromSymbol(&Second, coef, sizeof(float), sizeof(float)));
  std::printf("coef[1]=%g\n", Second);
  void *Address = nullptr;
  size_t Size = 0;
  report("hipGetSymbolAddress", hipGetSymbolAddress(&Address, coef));
  report("hipGetSymbolSize", hipGetSymbolSize(&Size, coef));
  std::printf("coef: %zu bytes, %s\n", Size,
              Address ? "has an address" : "null");
  float Read[2] = {0, 0};
  report("hipMemcpy from symbol address",
         hipMemcpy(Read, Address, sizeof(Read), hipMemcpyDeviceToHost));
  expect(Read[0] == 0.5f && Read[1] == 10.0f, "symbol address read");
}

/// A stream, events, asynchronous copies and memsets.
void runStreams(int N, float *DOut) {
  hipStream_t S;
  hipEvent_t Start, Stop;
  report("hipStreamCreate", hipStreamCreate(&S));
  report("hipEventCreate", hipEventCreate(&Start));
  hipEventCreate(&Stop);
  report("hipEventRecord", hipEventRecord(Start, S));
  report("hipMemsetAsync", hipMemsetAsync(DOut, 0, N * sizeof(float), S));
  std::vector<float> Fill(N, 7.0f), Out(N, -1.0f);
  report("hipMemcpyAsync H2D",
         hipMemcpyAsync(DOut, Fill.data(), 8 * sizeof(float),
                        hipMemcpyHostToDevice, S));
  Fill.assign(N, 99.0f); // the copy above must have staged the old values
  report("hipMemcpyAsync D2H",
         hipMemcpyAsync(Out.data(), DOut, N * sizeof(float),
                        hipMemcpyDeviceToHost, S));
  report("hipStreamSynchronize", hipStreamSynchronize(S));
  report("hipEventRecord stop", hipEventRecord(Stop, S));
  int Errors = 0;
  for (int I = 0; I < N; ++I)
    Errors += Out[I] != (I < 8 ? 7.0f : 0.0f);
  std::printf("stream copies: %d of %d wrong\n", Errors, N);
  float Ms = -1;
  report("hipEventElapsedTime", hipEventElapsedTime(&Ms, Start, Stop));
  expect(Ms >= 0, "elapsed time");
  report("hipStreamDestroy", hipStreamDestroy(S));
  hipEventDestroy(Start);
  hipEventDestroy(Stop);
  report("hipMemset", hipMemset(DOut, 0xff, N * sizeof(float)));
  unsigned Word = 0;
  hipMemcpy(&Word, DOut + 3, sizeof(Word), hipMemcpyDeviceToHost);
  std::printf("memset word=0x%x\n", Word);
}

/// Invalid calls: each must fail cleanly with HIP's code.
void runErrors(float *DA, float *DOut) {
  saxpy<<<1, 1024>>>(DOut, DA, DA, 1.0f, 1024);
  hipError_t E = hipPeekAtLastError();
  report("block of 1024", E);
  std::printf("message: %s\n", hipGetErrorString(E));
  expect(hipPeekAtLastError() == E, "peek keeps the error");
  expect(hipGetLastError() == E, "get returns the error");
  expect(hipGetLastError() == hipSuccess, "get clears the error");
  saxpy<<<1, 16, 16384 + 1>>>(DOut, DA, DA, 1.0f, 16);
  E = hipGetLastError();
  report("too much shared memory", E);
  std::printf("message: %s\n", hipGetErrorString(E));
  saxpy<<<dim3(1, 0, 1), 16>>>(DOut, DA, DA, 1.0f, 16);
  report("zero grid", hipGetLastError());
  float Host[8];
  report("hipMemcpy from a bad pointer",
         hipMemcpy(Host, reinterpret_cast<void *>(0x1234), sizeof(Host),
                   hipMemcpyDeviceToHost));
  std::printf("message: %s\n", hipGetErrorString(hipErrorInvalidDevicePointer));
  report("hipMemcpy past the end",
         hipMemcpy(Host, DA + 60, sizeof(Host), hipMemcpyDeviceToHost));
  report("hipFree interior", hipFree(DA + 1));
  report("hipLaunchKernel unregistered",
         hipLaunchKernel(reinterpret_cast<const void *>(&runErrors), dim3(1),
                         dim3(1), nullptr, 0, nullptr));
  report("hipMemcpyToSymbol past the end",
         hipMemcpyToSymbol(coef, Host, sizeof(float), 2 * sizeof(float)));
  report("hipMemcpyToSymbol non-symbol",
         hipMemcpyToSymbol(reinterpret_cast<const void *>(Host), Host, 4));
  report("hipSetDevice(1)", hipSetDevice(1));
  report("hipStreamSynchronize bad stream",
         hipStreamSynchronize(reinterpret_cast<hipStream_t>(Host)));
  std::printf("unknown code: %s\n", hipGetErrorString(hipError_t(12345)));
}

int runFull() {
  printProperties();
  const int N = 64;
  float *DA = nullptr, *DB = nullptr, *DOut = nullptr;
  report("hipMalloc", hipMalloc(&DA, N * sizeof(float)));
  hipMalloc(&DB, N * sizeof(float));
  hipMalloc(&DOut, N * sizeof(float));
  runSaxpy(N, DA, DB, DOut);
  runSymbols(N, DA, DOut);
  runStreams(N, DOut);
  runErrors(DA, DOut);
  report("hipDeviceSynchronize", hipDeviceSynchronize());
  report("hipFree", hipFree(DA));
  hipFree(DB);
  hipFree(DOut);
  // After a reset the images load again, variables zeroed.
  report("hipDeviceReset", hipDeviceReset());
  hipMalloc(&DA, N * sizeof(float));
  hipMalloc(&DB, N * sizeof(float));
  hipMalloc(&DOut, N * sizeof(float));
  runSaxpy(N, DA, DB, DOut);
  int LastN = -1;
  report("hipMemcpyFromSymbol after reset",
         hipMemcpyFromSymbol(&LastN, last_n, sizeof(LastN)));
  std::printf("last_n=%d\n", LastN);
  return Failures;
}

int runNoDevice() {
  int Count = -1;
  hipError_t E = hipGetDeviceCount(&Count);
  report("hipGetDeviceCount", E);
  std::printf("count=%d\nmessage: %s\n", Count, hipGetErrorString(E));
  void *P = nullptr;
  report("hipMalloc", hipMalloc(&P, 16));
  return 0;
}

int runBadImage() {
  float *D = nullptr;
  hipMalloc(&D, 64);
  saxpy<<<1, 16>>>(D, D, D, 1.0f, 16);
  hipError_t E = hipGetLastError();
  report("launch", E);
  std::printf("message: %s\n", hipGetErrorString(E));
  return 0;
}

int runHang() {
  spin<<<1, 4>>>(0);
  report("spin launch", hipGetLastError());
  hipError_t E = hipDeviceSynchronize();
  report("hipDeviceSynchronize", E);
  std::printf("message: %s\n", hipGetErrorString(E));
  float *D = nullptr;
  report("hipMalloc after the hang", hipMalloc(&D, 64));
  return 0;
}

float *ExitBuffer = nullptr;

/// An exit handler registered after the launches: it runs before the
/// runtime shuts down, so it can still use the device.
void freeAtExit() {
  std::printf("hipFree in an exit handler: %s\n",
              hipGetErrorName(hipFree(ExitBuffer)));
  std::fflush(stdout);
}

/// Exits with kernels still queued: the runtime waits for them at exit.
int runNoSync(bool Hang) {
  const int N = 64;
  hipMalloc(&ExitBuffer, N * sizeof(float));
  float *D = ExitBuffer;
  for (int I = 0; I < 20; ++I)
    saxpy<<<N / 16, 16>>>(D, D, D, 1.0f, N);
  if (Hang)
    spin<<<1, 4>>>(0);
  report("launches", hipGetLastError());
  if (!Hang)
    std::atexit(freeAtExit);
  return 3;
}

} // namespace

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "full";
  int Result = 0;
  if (!std::strcmp(Mode, "props"))
    printProperties();
  else if (!std::strcmp(Mode, "nodevice"))
    Result = runNoDevice();
  else if (!std::strcmp(Mode, "badimage"))
    Result = runBadImage();
  else if (!std::strcmp(Mode, "hang"))
    Result = runHang();
  else if (!std::strcmp(Mode, "nosync") || !std::strcmp(Mode, "hangexit"))
    return runNoSync(!std::strcmp(Mode, "hangexit"));
  else
    Result = runFull();
  std::printf("%s: %d failures\n", Mode, Result + Failures);
  return Result + Failures ? 1 : 0;
}
