//===- hip_runtime_api.h - HIP host API on Vortex ---------------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The host side of HIP for programs whose device code runs on the Vortex
// RISC-V GPGPU. The entry points are implemented by libcrosslane_hip_vortex.so
// on top of Vortex's own runtime (libvortex.so, loaded at run time).
//
// Host code is compiled by upstream clang as
//
//   clang-22 -x hip --cuda-host-only -nogpuinc -nogpulib \
//     -I<crosslane>/include/crosslane/vortex \
//     -Xclang -fcuda-include-gpubinary -Xclang <container> ...
//
// so clang emits the same registration and launch calls as for AMD GPUs
// (__hipRegisterFatBinary, __hipRegisterFunction, __hipRegisterVar,
// __hipPushCallConfiguration, __hipPopCallConfiguration, hipLaunchKernel),
// all declared here. The header holds plain declarations only, so it also
// parses in a device compile.
//
// The numeric values of hipError_t, hipMemcpyKind and hipDeviceAttribute_t
// are HIP's (ROCm 5.2, /usr/include/hip/hip_runtime_api.h and
// driver_types.h). hipDeviceProp_t is a subset of HIP's structure with HIP's
// field names, not HIP's layout.
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_VORTEX_HIP_RUNTIME_API_H
#define CROSSLANE_VORTEX_HIP_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>

// CUDA/HIP attribute spellings, as clang's own __clang_hip_runtime_wrapper.h
// defines them (-nogpuinc does not include it); empty for a compiler that
// is not compiling HIP or CUDA, such as the one building this runtime.
#if defined(__HIP__) || defined(__CUDA__)
#define CROSSLANE_HIP_ATTRIBUTE(Name) __attribute__((Name))
#else
#define CROSSLANE_HIP_ATTRIBUTE(Name)
#endif
#ifndef __host__
#define __host__ CROSSLANE_HIP_ATTRIBUTE(host)
#endif
#ifndef __device__
#define __device__ CROSSLANE_HIP_ATTRIBUTE(device)
#endif
#ifndef __global__
#define __global__ CROSSLANE_HIP_ATTRIBUTE(global)
#endif
#ifndef __shared__
#define __shared__ CROSSLANE_HIP_ATTRIBUTE(shared)
#endif
#ifndef __constant__
#define __constant__ CROSSLANE_HIP_ATTRIBUTE(constant)
#endif

/// HIP's error codes (values from ROCm's hip_runtime_api.h).
typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorDeinitialized = 4,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidSymbol = 13,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorMissingConfiguration = 52,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorFileNotFound = 301,
  hipErrorInvalidHandle = 400,
  hipErrorInvalidResourceHandle = 400,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchTimeOut = 702,
  hipErrorLaunchFailure = 719,
  hipErrorNotSupported = 801,
  hipErrorUnknown = 999
} hipError_t;

/// Direction of a copy (values from ROCm's driver_types.h).
typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  /// Direction decided from the pointers: an address inside a live device
  /// allocation (hipMalloc or a __device__ variable) is a device address.
  hipMemcpyDefault = 4
} hipMemcpyKind;

/// Device attributes for hipDeviceGetAttribute (values from ROCm 5.2's
/// hip_runtime_api.h; only those this runtime answers are listed).
typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeClockRate = 5,
  hipDeviceAttributeL2CacheSize = 19,
  hipDeviceAttributeComputeCapabilityMajor = 23,
  hipDeviceAttributeMaxBlockDimX = 26,
  hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30,
  hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeComputeCapabilityMinor = 61,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeMaxRegistersPerBlock = 71,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeTotalGlobalMem = 84,
  hipDeviceAttributeWarpSize = 87,
  hipDeviceAttributeMaxSharedMemoryPerMultiprocessor = 10002
} hipDeviceAttribute_t;

/// Grid and block extents.
struct dim3 {
  uint32_t x;
  uint32_t y;
  uint32_t z;
  __host__ __device__ constexpr dim3(uint32_t x = 1, uint32_t y = 1,
                                     uint32_t z = 1)
      : x(x), y(y), z(z) {}
};

typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;

/// A subset of HIP's device properties, with HIP's field names.
typedef struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate; ///< kHz
  int multiProcessorCount;
  int l2CacheSize;
  size_t maxSharedMemoryPerMultiProcessor;
  int major;
  int minor;
  char gcnArchName[256];
} hipDeviceProp_t;

extern "C" {

// Memory.
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes,
                     hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes,
                          hipMemcpyKind kind, hipStream_t stream = 0);
hipError_t hipMemset(void *dst, int value, size_t sizeBytes);
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes,
                          hipStream_t stream = 0);

// Symbols (__device__ and __constant__ variables), named by the address of
// their host shadow variable.
hipError_t hipMemcpyToSymbol(const void *symbol, const void *src,
                             size_t sizeBytes, size_t offset = 0,
                             hipMemcpyKind kind = hipMemcpyHostToDevice);
hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t sizeBytes,
                               size_t offset = 0,
                               hipMemcpyKind kind = hipMemcpyDeviceToHost);
hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol);
hipError_t hipGetSymbolSize(size_t *size, const void *symbol);

// Errors.
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorString(hipError_t error);
const char *hipGetErrorName(hipError_t error);

// Devices.
hipError_t hipDeviceSynchronize(void);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId);
hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr,
                                 int deviceId);
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int *deviceId);
hipError_t hipGetDeviceCount(int *count);
hipError_t hipDeviceReset(void);

// Events. hipEventRecord waits for the stream's work and records host time.
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = 0);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);

// Streams.
hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);

// Launch.
hipError_t hipLaunchKernel(const void *function, dim3 gridDim, dim3 blockDim,
                           void **args, size_t sharedMemBytes,
                           hipStream_t stream);

// Modules: a container built apart from the program
// (crosslane-hipcc --target=vortex --genco k.hip|k.ll -o k.clvx), launched
// by kernel name. Every Vortex image is linked at 0x80000000, so a program
// launches either its own kernels or one module's.
hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                const char *kname);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                 unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ,
                                 unsigned int sharedMemBytes,
                                 hipStream_t stream, void **kernelParams,
                                 void **extra);

// The registration and launch ABI of clang's HIP host code generation
// (clang-22 CGCUDANV.cpp; checked against the IR clang-22 emits).
void **__hipRegisterFatBinary(const void *data);
void __hipUnregisterFatBinary(void **modules);
int __hipRegisterFunction(void **modules, const void *hostFunction,
                          char *deviceFunction, const char *deviceName,
                          unsigned int threadLimit, void *tid, void *bid,
                          dim3 *blockDim, dim3 *gridDim, int *wSize);
void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar,
                      int ext, size_t size, int constant, int global);
hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                      size_t sharedMem = 0,
                                      hipStream_t stream = 0);
hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                     size_t *sharedMem, hipStream_t *stream);

} // extern "C"

/// hipMalloc for any pointer type.
template <class __cl_T> inline hipError_t hipMalloc(__cl_T **ptr, size_t size) {
  return hipMalloc(reinterpret_cast<void **>(ptr), size);
}

/// Symbol copies naming the variable itself, as HIP's templates do:
/// hipMemcpyToSymbol(coef, host, sizeof(coef)).
template <class __cl_T>
inline hipError_t
hipMemcpyToSymbol(const __cl_T &symbol, const void *src, size_t sizeBytes,
                  size_t offset = 0,
                  hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return hipMemcpyToSymbol(static_cast<const void *>(&symbol), src, sizeBytes,
                           offset, kind);
}

template <class __cl_T>
inline hipError_t
hipMemcpyFromSymbol(void *dst, const __cl_T &symbol, size_t sizeBytes,
                    size_t offset = 0,
                    hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return hipMemcpyFromSymbol(dst, static_cast<const void *>(&symbol), sizeBytes,
                             offset, kind);
}

template <class __cl_T>
inline hipError_t hipGetSymbolAddress(void **devPtr, const __cl_T &symbol) {
  return hipGetSymbolAddress(devPtr, static_cast<const void *>(&symbol));
}

template <class __cl_T>
inline hipError_t hipGetSymbolSize(size_t *size, const __cl_T &symbol) {
  return hipGetSymbolSize(size, static_cast<const void *>(&symbol));
}

/// hipLaunchKernel naming the kernel itself: hipLaunchKernel(saxpy, ...).
template <class __cl_T>
inline hipError_t hipLaunchKernel(__cl_T *Kernel, dim3 gridDim, dim3 blockDim,
                                  void **args, size_t sharedMemBytes = 0,
                                  hipStream_t stream = 0) {
  return hipLaunchKernel(reinterpret_cast<const void *>(Kernel), gridDim,
                         blockDim, args, sharedMemBytes, stream);
}

/// HIP names symbols for the symbol APIs through this macro.
#define HIP_SYMBOL(X) X

/// HIP's launch macro: kernel<<<grid, block, shmem, stream>>>(args...).
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...)            \
  do {                                                                         \
    kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__);               \
  } while (0)

#endif // CROSSLANE_VORTEX_HIP_RUNTIME_API_H
