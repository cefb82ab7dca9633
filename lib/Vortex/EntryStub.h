//===- EntryStub.h - Vortex kernel entry stubs ------------------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_VORTEX_ENTRYSTUB_H
#define CROSSLANE_LIB_VORTEX_ENTRYSTUB_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
} // namespace llvm

namespace crosslane {
namespace vortex {

/// Defines \p KEntry (the `__vx_kentry_<name>` symbol Vortex's .vxbin takes
/// kernel entries from) as a stub that gives the lane its stack and thread
/// pointer and then calls \p Entry (see EntryStub.cpp for why).
void emitKernelEntryStub(llvm::Module &M, llvm::StringRef KEntry,
                         llvm::StringRef Entry);

} // namespace vortex
} // namespace crosslane

#endif // CROSSLANE_LIB_VORTEX_ENTRYSTUB_H
