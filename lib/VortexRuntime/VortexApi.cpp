//===- VortexApi.cpp - Vortex runtime entry points, loaded at run time
//-----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "VortexApi.h"

#include <dlfcn.h>

using namespace crosslane::vortex;

bool VortexApi::load(const std::string &LibraryPath, std::string &Error) {
  // RTLD_GLOBAL: libvortex.so dlopens its backend (libvortex-simx.so), which
  // links back against it.
  Handle = dlopen(LibraryPath.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!Handle) {
    const char *Reason = dlerror();
    Error = "cannot load " + LibraryPath + ": " +
            (Reason ? Reason : "unknown dlopen error");
    return false;
  }
#define CROSSLANE_VORTEX_RESOLVE(Name, Ret, Params)                            \
  Name = reinterpret_cast<Ret(*) Params>(dlsym(Handle, #Name));                \
  if (!Name) {                                                                 \
    const char *Reason = dlerror();                                            \
    Error = LibraryPath + " has no " #Name ": " +                              \
            (Reason ? Reason : "symbol not found");                            \
    return false;                                                              \
  }
  CROSSLANE_VORTEX_FUNCTIONS(CROSSLANE_VORTEX_RESOLVE)
#undef CROSSLANE_VORTEX_RESOLVE
  return true;
}

std::string VortexApi::describe(VxResult Result) const {
  const char *Text = vx_result_string ? vx_result_string(Result) : nullptr;
  std::string Code = "vx_result_t " + std::to_string(Result);
  return Text ? std::string(Text) + " (" + Code + ")" : Code;
}
