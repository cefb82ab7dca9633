//===- Debug.h - -debug-only and -stats on release LLVM ---------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LLVM's `-debug-only=<type>` and `-stats` for Crosslane's passes, also when
/// libLLVM is a release build (Debian's): there `LLVM_DEBUG` and `STATISTIC`
/// compile to nothing and libLLVM has no `-debug`/`-debug-only` options.
///
/// * `CROSSLANE_DEBUG(X)` runs `X` (which prints to `llvm::dbgs()`) when
///   `-debug` is given or `-debug-only` names this file's `DEBUG_TYPE`. When
///   libLLVM lacks the options, Crosslane registers its own `-debug` and
///   `-debug-only` (for opt, `-mllvm` in clang, and crosslane-run); when
///   libLLVM has them (an assertions build), they are LLVM's.
/// * `CROSSLANE_STATISTIC(Var, Desc)` is a statistic counted on every build.
///   Under `-stats`, a release libLLVM prints only "Statistics are
///   disabled"; Crosslane then prints its own counters in LLVM's format at
///   shutdown (llvm_shutdown), before that line.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_DEBUG_H
#define CROSSLANE_SUPPORT_DEBUG_H

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/Debug.h"

namespace crosslane {

/// True when `-debug` is on, or `-debug-only` lists \p DebugType.
bool isDebugTypeEnabled(const char *DebugType);

/// Call after a pass that counts statistics has run: under `-stats` on a
/// release libLLVM, makes sure Crosslane's counters are printed at shutdown.
void noteStatisticsCounted();

} // namespace crosslane

#define CROSSLANE_DEBUG(X)                                                     \
  do {                                                                         \
    if (::crosslane::isDebugTypeEnabled(DEBUG_TYPE)) {                         \
      X;                                                                       \
    }                                                                          \
  } while (false)

#define CROSSLANE_STATISTIC(VARNAME, DESC)                                     \
  ALWAYS_ENABLED_STATISTIC(VARNAME, DESC)

#endif // CROSSLANE_SUPPORT_DEBUG_H
