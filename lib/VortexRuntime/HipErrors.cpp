//===- HipErrors.cpp - Names and explanations of HIP error codes ----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hipGetErrorString returns a generic description of the code followed by
// the explanation of the latest failure with that code, e.g.
// "no Vortex device available: cannot load <path>/libvortex.so: <dlerror>".
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <map>
#include <mutex>
#include <set>

using namespace crosslane::vortex;

namespace {

struct ErrorEntry {
  hipError_t Code;
  const char *Name;
  const char *Description;
};

constexpr ErrorEntry ErrorTable[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of device memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized",
     "runtime not initialized"},
    {hipErrorDeinitialized, "hipErrorDeinitialized", "runtime shut down"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration",
     "invalid launch configuration"},
    {hipErrorInvalidSymbol, "hipErrorInvalidSymbol", "invalid device symbol"},
    {hipErrorInvalidDevicePointer, "hipErrorInvalidDevicePointer",
     "invalid device pointer"},
    {hipErrorInvalidMemcpyDirection, "hipErrorInvalidMemcpyDirection",
     "invalid copy direction"},
    {hipErrorMissingConfiguration, "hipErrorMissingConfiguration",
     "missing launch configuration"},
    {hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction",
     "invalid device function"},
    {hipErrorNoDevice, "hipErrorNoDevice", "no Vortex device available"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidImage, "hipErrorInvalidImage", "invalid device code image"},
    {hipErrorFileNotFound, "hipErrorFileNotFound", "file not found"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle",
     "invalid stream or event handle"},
    {hipErrorNotFound, "hipErrorNotFound", "not found"},
    {hipErrorNotReady, "hipErrorNotReady", "not ready"},
    {hipErrorLaunchOutOfResources, "hipErrorLaunchOutOfResources",
     "too many resources requested for the launch"},
    {hipErrorLaunchTimeOut, "hipErrorLaunchTimeOut",
     "device work did not finish in time"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure", "kernel launch failure"},
    {hipErrorNotSupported, "hipErrorNotSupported", "operation not supported"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
};

const ErrorEntry *lookup(hipError_t Code) {
  for (const ErrorEntry &E : ErrorTable)
    if (E.Code == Code)
      return &E;
  return nullptr;
}

/// The latest explanation per code. Texts are interned and never freed, so
/// a pointer hipGetErrorString returned stays valid.
struct ErrorDetails {
  std::mutex Mutex;
  std::set<std::string> Texts;
  std::map<int, const char *> Latest;
};

ErrorDetails &details() {
  static ErrorDetails *Details = new ErrorDetails;
  return *Details;
}

} // namespace

const char *crosslane::vortex::errorName(hipError_t Code) {
  const ErrorEntry *E = lookup(Code);
  return E ? E->Name : "hipErrorUnknown";
}

const char *crosslane::vortex::errorDescription(hipError_t Code) {
  const ErrorEntry *E = lookup(Code);
  return E ? E->Description : "unknown error";
}

void crosslane::vortex::noteErrorDetail(hipError_t Code,
                                        const std::string &Message) {
  if (Message.empty() || !lookup(Code))
    return;
  ErrorDetails &D = details();
  std::lock_guard<std::mutex> Lock(D.Mutex);
  std::string Text = std::string(errorDescription(Code)) + ": " + Message;
  D.Latest[Code] = D.Texts.insert(std::move(Text)).first->c_str();
}

const char *crosslane::vortex::errorString(hipError_t Code) {
  ErrorDetails &D = details();
  std::lock_guard<std::mutex> Lock(D.Mutex);
  auto It = D.Latest.find(Code);
  return It != D.Latest.end() ? It->second : errorDescription(Code);
}
