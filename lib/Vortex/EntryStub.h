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
/// kernel entries from) as a stub that jumps to \p Entry, after giving
/// every lane of a partial warp its stack, thread and global pointers (see
/// EntryStub.cpp for why). \p WarpSize: lanes per warp, 0 if unknown.
void emitKernelEntryStub(llvm::Module &M, llvm::StringRef KEntry,
                         llvm::StringRef Entry, unsigned WarpSize);

} // namespace vortex
} // namespace crosslane

#endif // CROSSLANE_LIB_VORTEX_ENTRYSTUB_H
