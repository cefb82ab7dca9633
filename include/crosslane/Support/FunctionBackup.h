//===- FunctionBackup.h - Restore a function a rewrite broke ----*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A copy of a function's body, taken before a transformation edits it and
/// put back if the result does not verify. The copy names the very metadata
/// the body names: its debug-info scopes (CloneFunction would give it a
/// DISubprogram of its own, and the restored body's locations would then
/// name a subprogram the function is not attached to, which the verifier
/// rejects) and its loop metadata, so a restored body is the original.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUPPORT_FUNCTIONBACKUP_H
#define CROSSLANE_SUPPORT_FUNCTIONBACKUP_H

namespace llvm {
class Function;
} // namespace llvm

namespace crosslane {

class FunctionBackup {
public:
  explicit FunctionBackup(llvm::Function &F) : F(F) {}
  FunctionBackup(const FunctionBackup &) = delete;
  FunctionBackup &operator=(const FunctionBackup &) = delete;
  /// Deletes the copy, if one was taken and not restored.
  ~FunctionBackup() { discard(); }

  /// Copies the function's body unless a copy exists.
  void take();
  bool taken() const { return Copy != nullptr; }
  /// Replaces the function's body by the copy (which is consumed).
  void restore();
  /// Deletes the copy.
  void discard();

private:
  llvm::Function &F;
  llvm::Function *Copy = nullptr;
};

} // namespace crosslane

#endif // CROSSLANE_SUPPORT_FUNCTIONBACKUP_H
