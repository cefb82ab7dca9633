//===- Debug.cpp - -debug-only and -stats on release builds of LLVM -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Support/Debug.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

/// Crosslane's own -debug/-debug-only, registered when the plugin is loaded
/// (before opt, or clang's -mllvm, parses the options that follow) and only
/// if libLLVM has not registered options of those names. Never destroyed:
/// the option parser keeps pointers to them until the process exits.
struct OwnDebugOptions {
  cl::opt<bool> *Debug = nullptr;
  cl::list<std::string> *DebugOnly = nullptr;

  OwnDebugOptions() {
    auto &Registered = cl::getRegisteredOptions();
    if (Registered.count("debug-only"))
      return;
    if (!Registered.count("debug"))
      Debug = new cl::opt<bool>(
          "debug", cl::Hidden,
          cl::desc("Print Crosslane's debug output (this libLLVM is a release "
                   "build: other passes print nothing)"));
    DebugOnly = new cl::list<std::string>(
        "debug-only", cl::Hidden, cl::CommaSeparated,
        cl::value_desc("debug string"),
        cl::desc("Print the debug output of the given DEBUG_TYPEs "
                 "(crosslane-recognize-arg, crosslane-expand-subgroup; this "
                 "libLLVM is a release build: other passes print nothing)"));
  }
};

const OwnDebugOptions &ownDebugOptions() {
  static const OwnDebugOptions Opts;
  return Opts;
}

/// Registers the options when the library is loaded.
[[maybe_unused]] const OwnDebugOptions &Registration = ownDebugOptions();

/// Prints Crosslane's statistics when llvm_shutdown destroys it. It is
/// created after libLLVM's list of statistics, so it is destroyed first,
/// while that list still exists.
struct StatisticsPrinter {
  ~StatisticsPrinter() {
    if (!GetStatistics().empty())
      PrintStatistics(*CreateInfoOutputFile());
  }
};

ManagedStatic<StatisticsPrinter> Printer;

} // namespace

bool crosslane::isDebugTypeEnabled(const char *DebugType) {
  const OwnDebugOptions &Opts = ownDebugOptions();
  if (Opts.DebugOnly) {
    if (!Opts.DebugOnly->empty())
      return is_contained(*Opts.DebugOnly, DebugType);
    return Opts.Debug && *Opts.Debug;
  }
#ifndef NDEBUG
  return DebugFlag && isCurrentDebugType(DebugType);
#else
  return false;
#endif
}

void crosslane::noteStatisticsCounted() {
#if !LLVM_ENABLE_STATS
  // A release libLLVM prints its list of statistics only as "Statistics are
  // disabled"; print it (Crosslane's counters are its only entries) first.
  if (!AreStatisticsEnabled())
    return;
  (void)GetStatistics(); // creates libLLVM's list before the printer
  (void)*Printer;
#endif
}
