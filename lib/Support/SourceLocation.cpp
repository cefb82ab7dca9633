//===- SourceLocation.cpp - Where diagnostics point -----------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/SourceLocation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace crosslane {

static bool isRuntimeHeader(const DILocation *L) {
  SmallString<128> Path(L->getDirectory());
  Path += "/";
  Path += L->getFilename();
  StringRef P = Path;
  return P.contains("/include/hip/") || P.contains("/crosslane/hip/") ||
         P.contains("/crosslane/vortex/") || P.contains("/crosslane/xe/");
}

DebugLoc userDebugLoc(const Instruction *I) {
  for (const DILocation *L = I->getDebugLoc().get(); L; L = L->getInlinedAt())
    if (!isRuntimeHeader(L))
      return DebugLoc(L);
  return I->getDebugLoc();
}

} // namespace crosslane
