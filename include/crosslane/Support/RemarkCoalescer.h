//===- RemarkCoalescer.h - One remark for a line's copies ------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An unrolled loop (or an inlined helper called from one line) gives a pass
/// many copies of the same code at the same source line, and a pass that
/// remarks per copy prints the same line many times. RemarkCoalescer keeps a
/// function's remarks until flush() (or its destruction) and emits each
/// distinct one once: remarks of the same kind, pass, name, location and
/// text become one, which ends with "[N copies of this line]" and carries
/// the count as the `Copies` argument (YAML: `- Copies: 'N'`). A remark
/// without a source location (IR without debug locations) names only the
/// function, not a line: it is emitted at once, as it comes.
///
/// The remarks are emitted against the function's entry block (the code a
/// remark was about may be gone by then; only hotness reads the block).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_REMARKCOALESCER_H
#define CROSSLANE_SUPPORT_REMARKCOALESCER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"

#include <string>
#include <vector>

namespace crosslane {

class RemarkCoalescer {
public:
  RemarkCoalescer(llvm::Function &F, llvm::OptimizationRemarkEmitter &ORE)
      : F(F), ORE(ORE) {}
  RemarkCoalescer(const RemarkCoalescer &) = delete;
  RemarkCoalescer &operator=(const RemarkCoalescer &) = delete;
  ~RemarkCoalescer() { flush(); }

  /// Records the remark \p Make builds (an OptimizationRemark, -Missed or
  /// -Analysis), only when remarks of its pass are enabled.
  template <typename RemarkFn> void emit(RemarkFn Make) {
    if (!ORE.enabled())
      return;
    auto R = Make();
    if (!R.getLocation().isValid())
      ORE.emit(R);
    else
      record(R);
  }
  /// Emits what was recorded, each distinct remark once.
  void flush();

private:
  struct Entry {
    llvm::DiagnosticKind Kind;
    const char *Pass;
    std::string Name;
    llvm::DiagnosticLocation Loc;
    llvm::SmallVector<llvm::DiagnosticInfoOptimizationBase::Argument, 4> Args;
    unsigned Count = 1;
  };
  void record(const llvm::DiagnosticInfoOptimizationBase &R);

  llvm::Function &F;
  llvm::OptimizationRemarkEmitter &ORE;
  std::vector<Entry> Entries;
  llvm::StringMap<unsigned> Index; ///< key -> entry number
};

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_REMARKCOALESCER_H
