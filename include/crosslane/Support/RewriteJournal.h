//===- RewriteJournal.h - Check and undo a rewrite without a copy -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A cheaper alternative to FunctionBackup for rewrites that only add code:
/// before the first edit the journal records the function's layout (its
/// blocks, their instructions in order, every instruction's operands and a
/// phi's incoming blocks). A rewrite may then insert instructions and
/// blocks, move instructions, split blocks and redirect uses; it must not
/// delete or otherwise change an instruction that was there. check() tells
/// whether the result is well formed (the structural rules LLVM's verifier
/// applies to what such a rewrite can break), and rollBack() puts the
/// recorded layout back and deletes what the rewrite added.
///
/// begin() refuses what the record or the check does not cover (debug
/// records; tokens, operand bundles and musttail calls, whose rules span the
/// function); such a function needs a FunctionBackup and LLVM's verifier.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_REWRITEJOURNAL_H
#define CROSSLANE_SUPPORT_REWRITEJOURNAL_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace crosslane {

class RewriteJournal {
public:
  explicit RewriteJournal(llvm::Function &F) : F(F) {}
  RewriteJournal(const RewriteJournal &) = delete;
  RewriteJournal &operator=(const RewriteJournal &) = delete;

  /// Records the function as it is now, unless recording already; false
  /// (and not recording) for a function it does not cover.
  bool begin();
  bool recording() const { return Recording; }

  /// What makes the function invalid since begin(), or an empty string.
  /// Instructions of kinds the check does not know make it run LLVM's
  /// verifier.
  std::string check() const;

  /// Puts the recorded function back and stops recording.
  void rollBack();
  /// Keeps the function as it is and stops recording.
  void end();

private:
  std::string checkNew(const llvm::Instruction &I, bool &Unknown) const;

  llvm::Function &F;
  bool Recording = false;
  /// The blocks in order, each with how many instructions it had.
  llvm::SmallVector<std::pair<llvm::BasicBlock *, unsigned>, 16> Blocks;
  /// The instructions in order, their operands and phis' incoming blocks.
  std::vector<llvm::Instruction *> Insts;
  std::vector<llvm::Value *> Ops;
  std::vector<unsigned> OpStart; ///< per instruction, and the end
  std::vector<llvm::BasicBlock *> PhiBlocks;
  /// Each recorded instruction's place in Insts.
  llvm::DenseMap<const llvm::Instruction *, unsigned> Original;
};

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_REWRITEJOURNAL_H
