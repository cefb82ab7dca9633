//===- crosslane-vx-launch.cpp - Run one kernel of a Vortex module --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Launches one kernel of a module built by `crosslane-hipcc --target=vortex
/// --genco` on Vortex (simx), through Crosslane's HIP runtime
/// (hipModuleLoad, hipModuleGetFunction, hipModuleLaunchKernel):
///
///   crosslane-vx-launch MODULE KERNEL GRID BLOCK [--shared=BYTES] ARG...
///
/// ARG is a kernel parameter, in order: `buf:FILE` (a device buffer holding
/// FILE's bytes, written back to FILE after the kernel), `i32:V`, `i64:V`.
/// Exits 0 when the launch and the copies succeed; otherwise prints the HIP
/// error and exits 1. CROSSLANE_VORTEX_PERF=1 prints simx's PERF line.
///
//===----------------------------------------------------------------------===//

#include "crosslane/vortex/hip_runtime_api.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &Msg) {
  std::fprintf(stderr, "crosslane-vx-launch: error: %s\n", Msg.c_str());
  std::exit(1);
}

void check(hipError_t E, const char *What) {
  if (E != hipSuccess)
    fail(std::string(What) + ": " + hipGetErrorName(E) + ": " +
         hipGetErrorString(E));
}

std::vector<char> readFile(const std::string &Path) {
  FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F)
    fail("cannot read '" + Path + "'");
  std::vector<char> Bytes;
  char Buf[65536];
  for (size_t N; (N = std::fread(Buf, 1, sizeof(Buf), F)) > 0;)
    Bytes.insert(Bytes.end(), Buf, Buf + N);
  std::fclose(F);
  return Bytes;
}

void writeFile(const std::string &Path, const std::vector<char> &Bytes) {
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F || std::fwrite(Bytes.data(), 1, Bytes.size(), F) != Bytes.size())
    fail("cannot write '" + Path + "'");
  std::fclose(F);
}

unsigned long long number(const char *S, const char *What) {
  char *End = nullptr;
  unsigned long long V = std::strtoull(S, &End, 0);
  if (!*S || *End)
    fail(std::string("bad ") + What + " '" + S + "'");
  return V;
}

/// One kernel parameter: a buffer (its file, host bytes and device
/// pointer) or a scalar.
struct Param {
  std::string File;
  std::vector<char> Bytes;
  void *Device = nullptr;
  uint64_t Scalar = 0;
};

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 5)
    fail("usage: crosslane-vx-launch MODULE KERNEL GRID BLOCK "
         "[--shared=BYTES] [buf:FILE | i32:V | i64:V]...");
  unsigned Grid = number(Argv[3], "grid"), Block = number(Argv[4], "block");
  unsigned Shared = 0;
  std::vector<Param> Params;
  for (int I = 5; I < Argc; ++I) {
    std::string A = Argv[I];
    Param P;
    if (A.rfind("--shared=", 0) == 0) {
      Shared = number(A.c_str() + 9, "--shared");
      continue;
    }
    if (A.rfind("buf:", 0) == 0) {
      P.File = A.substr(4);
      P.Bytes = readFile(P.File);
    } else if (A.rfind("i32:", 0) == 0 || A.rfind("i64:", 0) == 0) {
      P.Scalar = number(A.c_str() + 4, "scalar");
    } else {
      fail("bad argument '" + A + "' (buf:FILE, i32:V or i64:V)");
    }
    Params.push_back(std::move(P));
  }
  hipModule_t M;
  check(hipModuleLoad(&M, Argv[1]), "hipModuleLoad");
  hipFunction_t F;
  check(hipModuleGetFunction(&F, M, Argv[2]), "hipModuleGetFunction");
  std::vector<void *> Args;
  for (Param &P : Params) {
    if (P.File.empty()) {
      Args.push_back(&P.Scalar); // the kernel takes its low bytes
      continue;
    }
    check(hipMalloc(&P.Device, P.Bytes.size()), "hipMalloc");
    check(hipMemcpy(P.Device, P.Bytes.data(), P.Bytes.size(),
                    hipMemcpyHostToDevice),
          "hipMemcpy");
    Args.push_back(&P.Device);
  }
  check(hipModuleLaunchKernel(F, Grid, 1, 1, Block, 1, 1, Shared, nullptr,
                              Args.data(), nullptr),
        "hipModuleLaunchKernel");
  check(hipDeviceSynchronize(), "kernel");
  for (Param &P : Params)
    if (!P.File.empty()) {
      check(hipMemcpy(P.Bytes.data(), P.Device, P.Bytes.size(),
                      hipMemcpyDeviceToHost),
            "hipMemcpy");
      writeFile(P.File, P.Bytes);
      check(hipFree(P.Device), "hipFree");
    }
  check(hipModuleUnload(M), "hipModuleUnload");
  return 0;
}
