//===- HipRuntime.cpp - HIP runtime entry points on Vortex ----------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The HIP API and clang's registration/launch ABI (hip_runtime_api.h),
// implemented on Runtime.h's Device. Each entry point takes the runtime's
// mutex, does its work and records a failure as the calling thread's last
// error (hipGetLastError) and as the explanation hipGetErrorString gives for
// the code. No call aborts or exits the program.
//
// The device is opened at the first call that needs it: libvortex.so of
// the configuration directory named by CROSSLANE_VORTEX_CONFIG or, without
// it, by the first registered container. At program exit the runtime waits
// for outstanding work, prints Vortex's performance counters when
// CROSSLANE_VORTEX_PERF=1, and releases every handle; after a kernel hung,
// it ends the program early instead (see noteDeviceLost).
//
//===----------------------------------------------------------------------===//

// The HIP API is this library's interface: its declarations get default
// visibility, everything else is hidden.
#pragma GCC visibility push(default)
#include "crosslane/vortex/hip_runtime_api.h"
#pragma GCC visibility pop

#include "Runtime.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

using namespace crosslane::vortex;
using Clock = std::chrono::steady_clock;

namespace {

/// A launch configuration pushed by `<<<...>>>` for the stub to pop.
struct CallConfig {
  dim3 Grid;
  dim3 Block;
  size_t SharedMem;
  hipStream_t Stream;
};

thread_local std::vector<CallConfig> CallConfigs;
thread_local hipError_t LastError = hipSuccess;

/// What __hipRegisterFunction and __hipRegisterVar recorded.
struct Registration {
  CodeObject *Code;
  std::string DeviceName;
};

} // namespace

/// A hipFunction_t: a kernel of a module.
struct ihipModuleSymbol_t {
  CodeObject *Code;
  const KernelInfo *Kernel;
};

namespace {

/// A hipEvent_t.
struct HipEvent {
  bool Recorded = false;
  Clock::time_point Time;
};

/// Set while the device is open: from then on the runtime's exit handler
/// must run before any exit handler registered later (see __cxa_atexit).
std::atomic<bool> WatchExitHandlers{false};
/// Set once a kernel hung (see noteDeviceLost).
std::atomic<bool> DeviceHung{false};

void shutdownAtExit(int ExitStatus, void *);

/// The address ranges of the objects loaded with the device (the
/// simulator's), fixed once the device is open: __cxa_atexit checks them
/// without taking the dynamic loader's lock (dladdr would, and the
/// simulator may register a destructor from its thread while the device's
/// release holds that lock in dlclose).
struct AddressRange {
  uintptr_t Begin = 0, End = 0;
};
constexpr size_t MaxDeviceSegments = 64;
AddressRange DeviceSegments[MaxDeviceSegments];
size_t NumDeviceSegments = 0;

/// Load biases of the shared objects the process has, sorted.
std::vector<uintptr_t> loadedObjects() {
  std::vector<uintptr_t> Biases;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Out) {
        static_cast<std::vector<uintptr_t> *>(Out)->push_back(Info->dlpi_addr);
        return 0;
      },
      &Biases);
  std::sort(Biases.begin(), Biases.end());
  return Biases;
}

/// Records the loaded segments of every object not in \p Before.
void noteDeviceObjects(const std::vector<uintptr_t> &Before) {
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *BeforeP) {
        const auto &Before =
            *static_cast<const std::vector<uintptr_t> *>(BeforeP);
        if (std::binary_search(Before.begin(), Before.end(), Info->dlpi_addr))
          return 0;
        for (unsigned I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          if (P.p_type != PT_LOAD || NumDeviceSegments == MaxDeviceSegments)
            continue;
          uintptr_t Begin = Info->dlpi_addr + P.p_vaddr;
          DeviceSegments[NumDeviceSegments++] = {Begin, Begin + P.p_memsz};
        }
        return 0;
      },
      const_cast<std::vector<uintptr_t> *>(&Before));
}

/// Whether \p Address lies in an object loaded with the device.
bool loadedWithDevice(const void *Address) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Address);
  for (size_t I = 0; I < NumDeviceSegments; ++I)
    if (A >= DeviceSegments[I].Begin && A < DeviceSegments[I].End)
      return true;
  return false;
}

/// All runtime state; created at the first HIP call and never destroyed
/// (shutdownAtExit releases the device).
class Runtime {
public:
  static Runtime &get() {
    static Runtime *R = new Runtime;
    return *R;
  }

  /// The device, opened on first use. Fails with hipErrorNoDevice (and the
  /// reason) when Vortex cannot be loaded.
  Status device(Device *&Out);
  /// The kernel registered for host stub handle \p Function.
  Status kernel(const void *Function, CodeObject *&Code,
                const KernelInfo *&Kernel);
  /// The variable registered for host shadow variable \p Symbol.
  Status variable(const void *Symbol, CodeObject *&Code, const VarInfo *&Var);
  Status stream(Device &D, hipStream_t S, Stream *&Out);
  /// Fails if an image other than \p Code's is loaded: every image is
  /// linked at 0x80000000, so the device holds one at a time.
  Status onlyImage(const CodeObject &Code) const;
  Status event(hipEvent_t E, HipEvent *&Out);
  void shutdown();

  std::mutex Mutex;
  std::vector<std::unique_ptr<CodeObject>> Codes;
  std::unordered_map<const void *, Registration> Functions;
  std::unordered_map<const void *, Registration> Vars;
  std::map<const void *, std::unique_ptr<HipEvent>> Events;
  /// hipModuleGetFunction's handles, per module.
  std::map<const CodeObject *, std::vector<std::unique_ptr<ihipModuleSymbol_t>>>
      ModuleFunctions;

private:
  std::string configDir() const;

  Device Dev;
  bool OpenTried = false;
  bool ShutDown = false;
  Status OpenStatus;
};

std::string Runtime::configDir() const {
  if (const char *Env = std::getenv("CROSSLANE_VORTEX_CONFIG"); Env && *Env)
    return Env;
  for (const auto &Code : Codes)
    if (Code->Invalid.ok() && !Code->Bin.ConfigDir.empty())
      return Code->Bin.ConfigDir;
  return "";
}

Status Runtime::device(Device *&Out) {
  if (ShutDown)
    return Status::error(hipErrorDeinitialized,
                         "the HIP runtime was shut down at program exit");
  if (!OpenTried) {
    OpenTried = true;
    std::string Dir = configDir();
    if (Dir.empty())
      OpenStatus = Status::error(
          hipErrorNoDevice,
          "no Vortex configuration: set CROSSLANE_VORTEX_CONFIG to a "
          "configuration directory (such as <vortex>/prebuilt/default) or "
          "embed a container packed with crosslane-vxpack.py --config-dir");
    else {
      std::vector<uintptr_t> Before = loadedObjects();
      OpenStatus = Dev.open(Dir);
      if (OpenStatus.ok())
        noteDeviceObjects(Before);
    }
    // Registered after libvortex.so's own static objects exist, so that it
    // runs before their destructors (see __cxa_atexit below).
    if (OpenStatus.ok()) {
      on_exit(shutdownAtExit, nullptr);
      WatchExitHandlers.store(true);
    }
  }
  Out = &Dev;
  return OpenStatus;
}

/// True if \p Host and \p Device mangle the same kernel for an LP64 host
/// and Vortex's ILP32 device: a 64-bit integer the host spells `long` (l,
/// m: int64_t, uint64_t in glibc) is `long long` (x, y) on the device.
/// Identifiers (length-prefixed) must match exactly.
static bool sameKernelAcrossABIs(const std::string &Host,
                                 const std::string &Device) {
  size_t I = 0, J = 0;
  while (I < Host.size() && J < Device.size()) {
    char H = Host[I], D = Device[J];
    if (H >= '1' && H <= '9') {
      size_t Len = 0, K = I;
      while (K < Host.size() && Host[K] >= '0' && Host[K] <= '9')
        Len = Len * 10 + (Host[K++] - '0');
      size_t Total = (K - I) + Len;
      if (Host.compare(I, Total, Device, J, Total) != 0)
        return false;
      I += Total;
      J += Total;
      continue;
    }
    if (H != D && !(H == 'l' && D == 'x') && !(H == 'm' && D == 'y'))
      return false;
    ++I;
    ++J;
  }
  return I == Host.size() && J == Device.size();
}

Status Runtime::kernel(const void *Function, CodeObject *&Code,
                       const KernelInfo *&Kernel) {
  auto It = Functions.find(Function);
  if (It == Functions.end())
    return Status::error(hipErrorInvalidDeviceFunction,
                         hex(uintptr_t(Function)) +
                             " is not a registered kernel");
  Code = It->second.Code;
  if (!Code->Invalid.ok())
    return Code->Invalid;
  auto K = Code->Bin.Kernels.find(It->second.DeviceName);
  if (K == Code->Bin.Kernels.end()) {
    // The host's name for a kernel with int64_t parameters differs from
    // the device's: the one device kernel it can be is it.
    auto Match = Code->Bin.Kernels.end();
    unsigned Matches = 0;
    for (auto C = Code->Bin.Kernels.begin(); C != Code->Bin.Kernels.end(); ++C)
      if (sameKernelAcrossABIs(It->second.DeviceName, C->first)) {
        Match = C;
        ++Matches;
      }
    if (Matches == 1) {
      It->second.DeviceName = Match->first;
      K = Match;
    }
  }
  if (K == Code->Bin.Kernels.end())
    return Status::error(hipErrorInvalidDeviceFunction,
                         "kernel " + It->second.DeviceName +
                             " has no 'kernel' record in its container's "
                             "meta");
  Kernel = &K->second;
  return Status::success();
}

Status Runtime::variable(const void *Symbol, CodeObject *&Code,
                         const VarInfo *&Var) {
  auto It = Vars.find(Symbol);
  if (It == Vars.end())
    return Status::error(hipErrorInvalidSymbol,
                         hex(uintptr_t(Symbol)) + " is not a registered "
                                                  "__device__ or __constant__ "
                                                  "variable");
  Code = It->second.Code;
  if (!Code->Invalid.ok())
    return Code->Invalid;
  auto V = Code->Bin.Vars.find(It->second.DeviceName);
  if (V == Code->Bin.Vars.end())
    return Status::error(hipErrorInvalidSymbol,
                         "variable " + It->second.DeviceName +
                             " has no 'var' record in its container's meta");
  Var = &V->second;
  return Status::success();
}

Status Runtime::stream(Device &D, hipStream_t S, Stream *&Out) {
  Out = D.findStream(S);
  if (!Out)
    return Status::error(hipErrorInvalidHandle,
                         hex(uintptr_t(S)) + " is not a live hipStream_t");
  return Status::success();
}

Status Runtime::onlyImage(const CodeObject &Code) const {
  for (const std::unique_ptr<CodeObject> &Other : Codes)
    if (Other.get() != &Code && Other->Loaded)
      return Status::error(
          hipErrorNotSupported,
          "another device image is loaded (every Vortex image is linked at "
          "0x80000000 and the device holds one at a time): a program uses "
          "either its own kernels or one module's");
  return Status::success();
}

Status Runtime::event(hipEvent_t E, HipEvent *&Out) {
  auto It = Events.find(E);
  if (It == Events.end())
    return Status::error(hipErrorInvalidHandle,
                         hex(uintptr_t(E)) + " is not a live hipEvent_t");
  Out = It->second.get();
  return Status::success();
}

void Runtime::shutdown() {
  if (ShutDown || !OpenTried || !OpenStatus.ok())
    return;
  const char *Perf = std::getenv("CROSSLANE_VORTEX_PERF");
  bool DumpPerf = Perf && std::strcmp(Perf, "1") == 0;
  Status St = Dev.shutdown(Codes, DumpPerf);
  if (!St.ok())
    std::fprintf(stderr, "crosslane-hip-vortex: at exit: %s: %s\n",
                 errorName(St.Code), St.Message.c_str());
  ShutDown = true;
  WatchExitHandlers.store(false);
}

/// Waits for outstanding work and releases the device at exit. After a
/// hang it ends the program with its exit status instead, skipping the
/// remaining exit handlers.
void shutdownAtExit(int ExitStatus, void *) {
  if (!DeviceHung.load()) {
    Runtime &R = Runtime::get();
    std::lock_guard<std::mutex> Lock(R.Mutex);
    R.shutdown();
  }
  if (!DeviceHung.load())
    return;
  std::fprintf(stderr, "crosslane-hip-vortex: a Vortex kernel hung; ending "
                       "the program without its remaining exit handlers\n");
  std::fflush(nullptr);
  _exit(ExitStatus);
}

/// Records a failure as the last error and returns its code.
hipError_t finish(const Status &St) {
  if (!St.ok()) {
    noteErrorDetail(St.Code, St.Message);
    LastError = St.Code;
  }
  return St.Code;
}

/// Runs \p Fn on the device under the runtime's lock.
template <class FnT> hipError_t withDevice(FnT Fn) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  Device *D = nullptr;
  Status St = R.device(D);
  if (St.ok())
    St = Fn(R, *D);
  return finish(St);
}

/// Runs \p Fn under the runtime's lock, without needing the device.
template <class FnT> hipError_t withRuntime(FnT Fn) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  return finish(Fn(R));
}

Status invalidValue(const std::string &Message) {
  return Status::error(hipErrorInvalidValue, Message);
}

} // namespace

// Exit handlers. At exit the runtime must wait for work still queued
// before any of the simulator's static objects is destroyed: SimX (Vortex
// v3.0 sim/simx, sw/common/mempool.h) creates function-local static memory
// pools the first time a code path runs, from its simulation thread, while
// kernels run, so their destructors can be registered after the runtime's
// handler and would run before it, freeing pools the simulation still uses.
// Exit handlers run in reverse order of registration, so this library
// interposes __cxa_atexit (it precedes libc in the program's search order):
// while the device is open, a registration by one of the simulator's
// objects is followed by registering the runtime's idempotent shutdown
// handler again, which keeps it ahead of the simulator's destructors.
// glibc runs handlers registered during exit before the rest. Handlers
// the program registers itself after using the device still run before
// the runtime shuts down, so they can call the HIP API.
//
// After a hang, SimX's simulation thread runs on forever (Vortex has no way
// to stop it) and the simulator's destructors would pull its state away
// from under it: the process would crash. So once a hang is found, the
// handler ends the program with its own exit status after flushing stdio.

extern "C" __attribute__((visibility("default"))) int
__cxa_atexit(void (*Fn)(void *), void *Arg, void *DsoHandle) {
  using CxaAtExitFn = int (*)(void (*)(void *), void *, void *);
  static CxaAtExitFn Next =
      reinterpret_cast<CxaAtExitFn>(dlsym(RTLD_NEXT, "__cxa_atexit"));
  if (!Next)
    return -1;
  int Result = Next(Fn, Arg, DsoHandle);
  if (WatchExitHandlers.load() && loadedWithDevice(DsoHandle))
    on_exit(shutdownAtExit, nullptr);
  return Result;
}

void crosslane::vortex::noteDeviceLost() {
  DeviceHung.store(true);
  on_exit(shutdownAtExit, nullptr);
}

//===----------------------------------------------------------------------===//
// Registration and launch ABI
//===----------------------------------------------------------------------===//

void **__hipRegisterFatBinary(const void *Data) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  auto Code = std::make_unique<CodeObject>();
  std::string Error;
  if (!parseFatBinaryWrapper(Data, Code->Bin, Error))
    Code->Invalid = Status::error(
        hipErrorInvalidImage,
        "the program's embedded Vortex device code is unusable: " + Error);
  // crosslane-hipcc embeds the program's one device image in every host
  // object: translation units with the same image share one CodeObject
  // (an image is linked at a fixed address and can be loaded once).
  if (Code->Invalid.ok())
    for (const std::unique_ptr<CodeObject> &Other : R.Codes)
      if (Other->Invalid.ok() && Other->Bin.ImageSize == Code->Bin.ImageSize &&
          std::memcmp(Other->Bin.Image, Code->Bin.Image, Code->Bin.ImageSize) ==
              0)
        return reinterpret_cast<void **>(Other.get());
  // The handle clang stores and passes back is the CodeObject itself.
  void **Handle = reinterpret_cast<void **>(Code.get());
  R.Codes.push_back(std::move(Code));
  return Handle;
}

void __hipUnregisterFatBinary(void **Modules) {
  // Runs after shutdownAtExit when clang's module destructor calls it at
  // exit; images stay loaded until then anyway.
  (void)Modules;
}

int __hipRegisterFunction(void **Modules, const void *HostFunction,
                          char *DeviceFunction, const char *DeviceName,
                          unsigned int ThreadLimit, void *Tid, void *Bid,
                          dim3 *BlockDim, dim3 *GridDim, int *WSize) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  const char *Name = DeviceName ? DeviceName : DeviceFunction;
  R.Functions[HostFunction] = {reinterpret_cast<CodeObject *>(Modules),
                               Name ? Name : ""};
  return 0;
}

void __hipRegisterVar(void **Modules, void *Var, char *HostVar, char *DeviceVar,
                      int Ext, size_t Size, int Constant, int Global) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  const char *Name = DeviceVar ? DeviceVar : HostVar;
  R.Vars[Var] = {reinterpret_cast<CodeObject *>(Modules), Name ? Name : ""};
}

hipError_t __hipPushCallConfiguration(dim3 GridDim, dim3 BlockDim,
                                      size_t SharedMem, hipStream_t Stream) {
  CallConfigs.push_back({GridDim, BlockDim, SharedMem, Stream});
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *GridDim, dim3 *BlockDim,
                                     size_t *SharedMem, hipStream_t *Stream) {
  CallConfig Config = {dim3(), dim3(), 0, nullptr};
  bool Missing = CallConfigs.empty();
  if (!Missing) {
    Config = CallConfigs.back();
    CallConfigs.pop_back();
  }
  if (GridDim)
    *GridDim = Config.Grid;
  if (BlockDim)
    *BlockDim = Config.Block;
  if (SharedMem)
    *SharedMem = Config.SharedMem;
  if (Stream)
    *Stream = Config.Stream;
  if (Missing)
    return finish(Status::error(hipErrorMissingConfiguration,
                                "kernel stub called without <<<...>>>"));
  return hipSuccess;
}

namespace {

/// A launch of \p Kernel of \p Code on stream \p S (hipLaunchKernel and
/// hipModuleLaunchKernel); the caller holds R.Mutex.
Status launch(Runtime &R, CodeObject &Code, const KernelInfo &Kernel, dim3 Grid,
              dim3 Block, void **Args, size_t SharedMemBytes, hipStream_t S) {
  Device *D = nullptr;
  Status St = R.device(D);
  Stream *Target = nullptr;
  if (St.ok())
    St = R.stream(*D, S, Target);
  if (St.ok())
    St = R.onlyImage(Code);
  if (St.ok())
    St = D->launch(Code, Kernel, Grid, Block, Args, SharedMemBytes, *Target);
  return St;
}

} // namespace

hipError_t hipLaunchKernel(const void *Function, dim3 GridDim, dim3 BlockDim,
                           void **Args, size_t SharedMemBytes, hipStream_t S) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  CodeObject *Code = nullptr;
  const KernelInfo *Kernel = nullptr;
  Status St = R.kernel(Function, Code, Kernel);
  if (St.ok())
    St = launch(R, *Code, *Kernel, GridDim, BlockDim, Args, SharedMemBytes, S);
  return finish(St);
}

//===----------------------------------------------------------------------===//
// Modules: containers built apart from the program (crosslane-hipcc
// --target=vortex --genco), loaded and launched by kernel name
//===----------------------------------------------------------------------===//

namespace {

Status loadModule(std::vector<uint8_t> Bytes, hipModule_t *Module) {
  if (!Module)
    return Status::error(hipErrorInvalidValue, "null hipModule_t pointer");
  auto Code = std::make_unique<CodeObject>();
  Code->Owned = std::move(Bytes);
  std::string Error;
  if (!parseContainer(Code->Owned.data(), Code->Owned.size(), Code->Bin, Error))
    return Status::error(hipErrorInvalidImage, Error);
  Runtime &R = Runtime::get();
  *Module = reinterpret_cast<hipModule_t>(Code.get());
  R.Codes.push_back(std::move(Code));
  return Status::success();
}

Status findModule(Runtime &R, hipModule_t Module, CodeObject *&Out) {
  for (const std::unique_ptr<CodeObject> &C : R.Codes)
    if (reinterpret_cast<hipModule_t>(C.get()) == Module && !C->Owned.empty()) {
      Out = C.get();
      return Status::success();
    }
  return Status::error(hipErrorInvalidResourceHandle,
                       hex(uintptr_t(Module)) + " is not a loaded hipModule_t");
}

} // namespace

hipError_t hipModuleLoad(hipModule_t *Module, const char *Fname) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  FILE *F = Fname ? std::fopen(Fname, "rb") : nullptr;
  if (!F)
    return finish(Status::error(hipErrorFileNotFound,
                                std::string("cannot open module '") +
                                    (Fname ? Fname : "(null)") + "'"));
  std::vector<uint8_t> Bytes;
  uint8_t Buf[65536];
  for (size_t N; (N = std::fread(Buf, 1, sizeof(Buf), F)) > 0;)
    Bytes.insert(Bytes.end(), Buf, Buf + N);
  std::fclose(F);
  return finish(loadModule(std::move(Bytes), Module));
}

hipError_t hipModuleLoadData(hipModule_t *Module, const void *Image) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  if (!Image)
    return finish(Status::error(hipErrorInvalidValue, "null module image"));
  // The container's header gives its size.
  FatBinary Header;
  std::string Error;
  const auto *P = static_cast<const uint8_t *>(Image);
  if (!parseContainer(P, UINT64_MAX, Header, Error))
    return finish(Status::error(hipErrorInvalidImage, Error));
  size_t Size = (Header.Image - P) + Header.ImageSize;
  return finish(loadModule(std::vector<uint8_t>(P, P + Size), Module));
}

hipError_t hipModuleGetFunction(hipFunction_t *Function, hipModule_t Module,
                                const char *Name) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  CodeObject *Code = nullptr;
  Status St = findModule(R, Module, Code);
  if (St.ok() && (!Function || !Name))
    St = Status::error(hipErrorInvalidValue, "null function or name");
  if (!St.ok())
    return finish(St);
  auto K = Code->Bin.Kernels.find(Name);
  if (K == Code->Bin.Kernels.end())
    return finish(Status::error(
        hipErrorNotFound, std::string("module has no kernel '") + Name + "'"));
  auto &Handles = R.ModuleFunctions[Code];
  Handles.push_back(std::make_unique<ihipModuleSymbol_t>(
      ihipModuleSymbol_t{Code, &K->second}));
  *Function = Handles.back().get();
  return finish(Status::success());
}

hipError_t hipModuleLaunchKernel(hipFunction_t F, unsigned GridX,
                                 unsigned GridY, unsigned GridZ,
                                 unsigned BlockX, unsigned BlockY,
                                 unsigned BlockZ, unsigned SharedMemBytes,
                                 hipStream_t S, void **KernelParams,
                                 void **Extra) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  Status St =
      F ? Status::success()
        : Status::error(hipErrorInvalidResourceHandle, "null hipFunction_t");
  if (St.ok() && Extra)
    St = Status::error(hipErrorNotSupported,
                       "hipModuleLaunchKernel: 'extra' (packed arguments) is "
                       "not supported; pass kernelParams");
  if (St.ok())
    St = launch(R, *F->Code, *F->Kernel, dim3(GridX, GridY, GridZ),
                dim3(BlockX, BlockY, BlockZ), KernelParams, SharedMemBytes, S);
  return finish(St);
}

hipError_t hipModuleUnload(hipModule_t Module) {
  Runtime &R = Runtime::get();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  CodeObject *Code = nullptr;
  Status St = findModule(R, Module, Code);
  Device *D = nullptr;
  if (St.ok() && Code->Loaded)
    St = R.device(D);
  if (St.ok() && D)
    St = D->synchronizeAll();
  if (!St.ok())
    return finish(St);
  if (D)
    D->unloadCode(*Code);
  R.ModuleFunctions.erase(Code);
  R.Codes.erase(std::find_if(
      R.Codes.begin(), R.Codes.end(),
      [&](const std::unique_ptr<CodeObject> &C) { return C.get() == Code; }));
  return finish(Status::success());
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

hipError_t hipMalloc(void **Ptr, size_t Size) {
  return withDevice(
      [&](Runtime &, Device &D) { return D.allocate(Size, Ptr); });
}

hipError_t hipFree(void *Ptr) {
  if (!Ptr)
    return hipSuccess;
  return withDevice([&](Runtime &, Device &D) { return D.release(Ptr); });
}

hipError_t hipMemcpy(void *Dst, const void *Src, size_t SizeBytes,
                     hipMemcpyKind Kind) {
  return withDevice([&](Runtime &, Device &D) {
    return D.copy(Dst, Src, SizeBytes, Kind, D.nullStream(), false);
  });
}

hipError_t hipMemcpyAsync(void *Dst, const void *Src, size_t SizeBytes,
                          hipMemcpyKind Kind, hipStream_t S) {
  return withDevice([&](Runtime &R, Device &D) {
    Stream *Target = nullptr;
    Status St = R.stream(D, S, Target);
    return St.ok() ? D.copy(Dst, Src, SizeBytes, Kind, *Target, true) : St;
  });
}

hipError_t hipMemset(void *Dst, int Value, size_t SizeBytes) {
  return withDevice([&](Runtime &, Device &D) {
    return D.fill(Dst, Value, SizeBytes, D.nullStream(), false);
  });
}

hipError_t hipMemsetAsync(void *Dst, int Value, size_t SizeBytes,
                          hipStream_t S) {
  return withDevice([&](Runtime &R, Device &D) {
    Stream *Target = nullptr;
    Status St = R.stream(D, S, Target);
    return St.ok() ? D.fill(Dst, Value, SizeBytes, *Target, true) : St;
  });
}

//===----------------------------------------------------------------------===//
// Symbols
//===----------------------------------------------------------------------===//

/// The device address of bytes [Offset, Offset + Size) of the variable
/// registered for host shadow \p Symbol.
static Status symbolPointer(Runtime &R, Device &D, const void *Symbol,
                            size_t Offset, size_t Size, void *&Ptr) {
  CodeObject *Code = nullptr;
  const VarInfo *Var = nullptr;
  Status St = R.variable(Symbol, Code, Var);
  if (St.ok())
    St = D.symbolRange(*Code, *Var, Offset, Size, Ptr);
  return St;
}

hipError_t hipMemcpyToSymbol(const void *Symbol, const void *Src,
                             size_t SizeBytes, size_t Offset,
                             hipMemcpyKind Kind) {
  return withDevice([&](Runtime &R, Device &D) {
    if (Kind != hipMemcpyHostToDevice && Kind != hipMemcpyDeviceToDevice &&
        Kind != hipMemcpyDefault)
      return Status::error(hipErrorInvalidMemcpyDirection,
                           "hipMemcpyToSymbol copies to the device");
    void *Ptr = nullptr;
    Status St = symbolPointer(R, D, Symbol, Offset, SizeBytes, Ptr);
    if (St.ok())
      St = D.copy(Ptr, Src, SizeBytes, Kind, D.nullStream(), false);
    return St;
  });
}

hipError_t hipMemcpyFromSymbol(void *Dst, const void *Symbol, size_t SizeBytes,
                               size_t Offset, hipMemcpyKind Kind) {
  return withDevice([&](Runtime &R, Device &D) {
    if (Kind != hipMemcpyDeviceToHost && Kind != hipMemcpyDeviceToDevice &&
        Kind != hipMemcpyDefault)
      return Status::error(hipErrorInvalidMemcpyDirection,
                           "hipMemcpyFromSymbol copies from the device");
    void *Ptr = nullptr;
    Status St = symbolPointer(R, D, Symbol, Offset, SizeBytes, Ptr);
    if (St.ok())
      St = D.copy(Dst, Ptr, SizeBytes, Kind, D.nullStream(), false);
    return St;
  });
}

hipError_t hipGetSymbolAddress(void **DevPtr, const void *Symbol) {
  return withDevice([&](Runtime &R, Device &D) {
    if (!DevPtr)
      return invalidValue("hipGetSymbolAddress: null result pointer");
    CodeObject *Code = nullptr;
    const VarInfo *Var = nullptr;
    uint64_t Address = 0;
    Status St = R.variable(Symbol, Code, Var);
    if (St.ok())
      St = D.symbolAddress(*Code, *Var, Address);
    if (St.ok())
      *DevPtr = reinterpret_cast<void *>(uintptr_t(Address));
    return St;
  });
}

hipError_t hipGetSymbolSize(size_t *Size, const void *Symbol) {
  return withRuntime([&](Runtime &R) {
    if (!Size)
      return invalidValue("hipGetSymbolSize: null result pointer");
    CodeObject *Code = nullptr;
    const VarInfo *Var = nullptr;
    Status St = R.variable(Symbol, Code, Var);
    if (St.ok())
      *Size = size_t(Var->Size);
    return St;
  });
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

hipError_t hipGetLastError(void) {
  hipError_t Error = LastError;
  LastError = hipSuccess;
  return Error;
}

hipError_t hipPeekAtLastError(void) { return LastError; }

const char *hipGetErrorString(hipError_t Error) { return errorString(Error); }

const char *hipGetErrorName(hipError_t Error) { return errorName(Error); }

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

/// Only device 0 exists: libvortex.so drives one device per process.
static Status checkDeviceId(int DeviceId) {
  if (DeviceId == 0)
    return Status::success();
  return Status::error(hipErrorInvalidDevice,
                       "device " + std::to_string(DeviceId) +
                           " does not exist; Vortex has device 0 only");
}

hipError_t hipDeviceSynchronize(void) {
  return withDevice([](Runtime &, Device &D) { return D.synchronizeAll(); });
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *Prop, int DeviceId) {
  return withDevice([&](Runtime &, Device &D) {
    if (!Prop)
      return invalidValue("hipGetDeviceProperties: null result pointer");
    Status St = checkDeviceId(DeviceId);
    return St.ok() ? D.properties(*Prop) : St;
  });
}

hipError_t hipDeviceGetAttribute(int *Value, hipDeviceAttribute_t Attr,
                                 int DeviceId) {
  return withDevice([&](Runtime &, Device &D) {
    if (!Value)
      return invalidValue("hipDeviceGetAttribute: null result pointer");
    Status St = checkDeviceId(DeviceId);
    return St.ok() ? D.attribute(Attr, *Value) : St;
  });
}

hipError_t hipSetDevice(int DeviceId) {
  return withDevice(
      [&](Runtime &, Device &) { return checkDeviceId(DeviceId); });
}

hipError_t hipGetDevice(int *DeviceId) {
  return withDevice([&](Runtime &, Device &) {
    if (!DeviceId)
      return invalidValue("hipGetDevice: null result pointer");
    *DeviceId = 0;
    return Status::success();
  });
}

hipError_t hipGetDeviceCount(int *Count) {
  if (Count)
    *Count = 0;
  return withDevice([&](Runtime &, Device &) {
    if (!Count)
      return invalidValue("hipGetDeviceCount: null result pointer");
    *Count = 1;
    return Status::success();
  });
}

hipError_t hipDeviceReset(void) {
  return withDevice([](Runtime &R, Device &D) { return D.reset(R.Codes); });
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

hipError_t hipEventCreate(hipEvent_t *Event) {
  return withRuntime([&](Runtime &R) {
    if (!Event)
      return invalidValue("hipEventCreate: null result pointer");
    auto E = std::make_unique<HipEvent>();
    *Event = reinterpret_cast<hipEvent_t>(E.get());
    R.Events[E.get()] = std::move(E);
    return Status::success();
  });
}

hipError_t hipEventDestroy(hipEvent_t Event) {
  return withRuntime([&](Runtime &R) {
    HipEvent *E = nullptr;
    Status St = R.event(Event, E);
    if (St.ok())
      R.Events.erase(E);
    return St;
  });
}

hipError_t hipEventRecord(hipEvent_t Event, hipStream_t S) {
  return withDevice([&](Runtime &R, Device &D) {
    HipEvent *E = nullptr;
    Stream *Target = nullptr;
    Status St = R.event(Event, E);
    if (St.ok())
      St = R.stream(D, S, Target);
    // Vortex events carry no device timestamps this runtime can use, so an
    // event waits for the stream's work and takes the host time.
    if (St.ok())
      St = D.synchronize(*Target);
    if (St.ok()) {
      E->Recorded = true;
      E->Time = Clock::now();
    }
    return St;
  });
}

hipError_t hipEventSynchronize(hipEvent_t Event) {
  // hipEventRecord already waited for the work before the event.
  return withRuntime([&](Runtime &R) {
    HipEvent *E = nullptr;
    return R.event(Event, E);
  });
}

hipError_t hipEventElapsedTime(float *Ms, hipEvent_t Start, hipEvent_t Stop) {
  return withRuntime([&](Runtime &R) {
    if (!Ms)
      return invalidValue("hipEventElapsedTime: null result pointer");
    HipEvent *First = nullptr, *Second = nullptr;
    Status St = R.event(Start, First);
    if (St.ok())
      St = R.event(Stop, Second);
    if (St.ok() && (!First->Recorded || !Second->Recorded))
      St = Status::error(hipErrorNotReady,
                         "hipEventElapsedTime: an event was never recorded");
    if (St.ok())
      *Ms = std::chrono::duration<float, std::milli>(Second->Time - First->Time)
                .count();
    return St;
  });
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

hipError_t hipStreamCreate(hipStream_t *S) {
  return withDevice([&](Runtime &, Device &D) {
    if (!S)
      return invalidValue("hipStreamCreate: null result pointer");
    Stream *Created = nullptr;
    Status St = D.createStream(Created);
    if (St.ok())
      *S = reinterpret_cast<hipStream_t>(Created);
    return St;
  });
}

hipError_t hipStreamDestroy(hipStream_t S) {
  return withDevice([&](Runtime &, Device &D) {
    Stream *Target = S ? D.findStream(S) : nullptr;
    if (!Target)
      return Status::error(hipErrorInvalidHandle,
                           hex(uintptr_t(S)) +
                               " is not a stream hipStreamCreate made");
    return D.destroyStream(Target);
  });
}

hipError_t hipStreamSynchronize(hipStream_t S) {
  return withDevice([&](Runtime &R, Device &D) {
    Stream *Target = nullptr;
    Status St = R.stream(D, S, Target);
    return St.ok() ? D.synchronize(*Target) : St;
  });
}
