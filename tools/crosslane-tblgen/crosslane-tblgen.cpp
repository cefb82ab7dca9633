//===- crosslane-tblgen.cpp - Crosslane's TableGen driver -----------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LLVM's TableGen front end with Crosslane's backends. Each backend
/// registers itself (llvm::TableGen::Emitter::Opt) as a -gen-* action, the
/// way llvm-tblgen's do; the searchable tables themselves come from
/// llvm-tblgen -gen-searchable-tables on the same .td files.
///
//===----------------------------------------------------------------------===//

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/TableGen/Main.h"

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "Crosslane's TableGen backends\n");
  return llvm::TableGenMain(argv[0], llvm::TableGenMainFn());
}
