//===- KernelTarget.h - What a reduction kernel needs from a GPU -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The target-specific part of the reduction kernel generator: the triple
/// and target machine, the kernel's signature conventions, work-item
/// queries, the work-group barrier, work-group local arrays and the passes
/// a kernel of that target needs around LLVM's pipeline. One subclass per
/// GPU family (AMDGPU, Intel Xe, Vortex); the generator itself
/// (ReductionKernel.cpp) is target independent. A new target implements
/// this interface and a case of parseTarget.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_LOWERINGCONFIG_KERNELTARGET_H
#define CROSSLANE_LIB_LOWERINGCONFIG_KERNELTARGET_H

#include "crosslane/LoweringConfig/ReductionSpec.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

namespace crosslane {
namespace lc {

class KernelTarget {
public:
  virtual ~KernelTarget();

  /// The model of \p T for kernels of \p WorkgroupSize work-items.
  static std::unique_ptr<KernelTarget> create(const TargetDesc &T,
                                              unsigned WorkgroupSize);

  virtual llvm::Triple triple() const = 0;
  /// Processor and features for the target machine.
  virtual std::string cpu() const { return ""; }
  virtual std::string features() const { return ""; }
  /// Address space of the kernel's buffer parameters.
  virtual unsigned globalAddrSpace() const = 0;
  /// The work-item's index in its work-group (dimension x).
  virtual llvm::Value *localId(llvm::IRBuilder<> &B) const = 0;
  /// The work-group's index in the grid (dimension x).
  virtual llvm::Value *groupId(llvm::IRBuilder<> &B) const = 0;
  /// A work-group barrier that orders the local-memory accesses around it.
  virtual void barrier(llvm::IRBuilder<> &B) const = 0;
  /// A work-group local array of \p Ty.
  virtual llvm::GlobalVariable *localArray(llvm::Module &M, llvm::ArrayType *Ty,
                                           llvm::StringRef Name) const = 0;
  /// Calling convention, attributes and metadata of kernel \p F.
  virtual void setKernelAttributes(llvm::Function &F) const = 0;
  /// Passes that run before LLVM's pipeline (Vortex: the kernel ABI).
  virtual void addPipelineStartPasses(llvm::ModulePassManager &) const {}

  KernelTarget(const TargetDesc &T, unsigned WorkgroupSize)
      : T(T), WorkgroupSize(WorkgroupSize) {}

protected:
  const TargetDesc &T;
  unsigned WorkgroupSize;
};

} // namespace lc
} // namespace crosslane

#endif // CROSSLANE_LIB_LOWERINGCONFIG_KERNELTARGET_H
