//===- ReductionIR.h - Combiner IR of generated reduction kernels -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The IR of one combiner: identities, loads, the serial combine step, the
/// merge of two partial results, and the call of Crosslane's subgroup
/// operation. Arg-reductions keep the better (value, index): the value order
/// (-0 < +0 unless zeros-equal, NaN placed by the policy), then the smaller
/// index, which is exactly the rule of __crosslane_argmax/argmin
/// (docs/SubgroupOps.md §2).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_LOWERINGCONFIG_REDUCTIONIR_H
#define CROSSLANE_LIB_LOWERINGCONFIG_REDUCTIONIR_H

#include "crosslane/LoweringConfig/LoweringConfig.h"

#include "llvm/IR/IRBuilder.h"

namespace crosslane {
namespace lc {

class CombineOps {
public:
  CombineOps(const ReductionSpec &S, llvm::LLVMContext &Ctx,
             llvm::IRBuilder<> &B);

  llvm::Type *ElemTy, *AccTy, *IdxTy;

  bool isArg() const { return Arg; }
  llvm::Value *identity();
  llvm::Value *identityIndex();
  /// Loads \p Width elements at \p Ptr (a vector when Width > 1; the last
  /// dimension's plan gives the alignment).
  llvm::Value *load(llvm::Value *Ptr, unsigned Width, const DimPlan &Last);
  /// Folds element \p X (index \p XI) into (\p A, \p AI); \p Ok, when not
  /// null, masks the element out.
  void combine(llvm::Value *&A, llvm::Value *&AI, llvm::Value *X,
               llvm::Value *XI, llvm::Value *Ok);
  /// Folds the partial result (\p X, \p XI) of accumulator type.
  void combinePartial(llvm::Value *&A, llvm::Value *&AI, llvm::Value *X,
                      llvm::Value *XI);
  /// (\p A, \p AI) = Crosslane's clustered subgroup operation over them.
  void subgroupReduce(llvm::Module &M, llvm::Value *&A, llvm::Value *&AI,
                      unsigned ClusterSize, unsigned ClusterStride);
  /// The value stored: arg-reductions store the canonical NaN.
  llvm::Value *finalValue(llvm::Value *A);

private:
  const ReductionSpec &S;
  llvm::IRBuilder<> &B;
  bool Arg, Float;

  llvm::Value *convert(llvm::Value *X);
  llvm::Value *apply(llvm::Value *A, llvm::Value *X);
  llvm::Value *better(llvm::Value *A, llvm::Value *AI, llvm::Value *X,
                      llvm::Value *XI);
};

} // namespace lc
} // namespace crosslane

#endif // CROSSLANE_LIB_LOWERINGCONFIG_REDUCTIONIR_H
