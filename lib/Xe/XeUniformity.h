//===- XeUniformity.h - Divergence of OpenCL/SPIR-V device code -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which values and blocks of a spirv64 function may differ between the
/// lanes of a subgroup. LLVM's UniformityAnalysis says "all uniform" on
/// spirv64 (the target has no divergence hooks), so the 2D block IO rules
/// ("uniform control flow, uniform operands") need their own.
///
/// Three states: Uniform; Unknown (reaches back to a non-kernel function's
/// argument, whose callers are not looked at); Divergent (reaches back to a
/// work-item id: get_local_id, get_global_id, get_sub_group_local_id, the
/// __spirv_BuiltIn*InvocationId variables, an atomic's result, private
/// memory a call wrote). A load from private memory has the state of what
/// was stored there. A value takes the largest state of its operands; a branch
/// on a non-uniform condition gives that state to the blocks it controls (up to
/// its immediate post-dominator) and to the phis where they join.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_XE_XEUNIFORMITY_H
#define CROSSLANE_LIB_XE_XEUNIFORMITY_H

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace llvm {
class AllocaInst;
class BasicBlock;
class Function;
class Instruction;
class PostDominatorTree;
class Value;
} // namespace llvm

namespace crosslane {
namespace xe {

enum class Lanes { Uniform = 0, Unknown = 1, Divergent = 2 };

class XeUniformity {
public:
  XeUniformity(llvm::Function &F, const llvm::PostDominatorTree &PDT);
  Lanes of(const llvm::Value *V) const;
  /// The state of the control flow reaching \p BB and, when not uniform,
  /// the branch responsible.
  Lanes control(const llvm::BasicBlock *BB,
                const llvm::Instruction **Branch = nullptr) const;

private:
  llvm::DenseMap<const llvm::Value *, Lanes> State;
  /// Private memory (allocas): the state of what lanes stored there.
  llvm::DenseMap<const llvm::AllocaInst *, Lanes> Memory;
  /// Per alloca, the divergent branches its stores are under, with the
  /// branch's state.
  llvm::DenseMap<const llvm::AllocaInst *,
                 llvm::SmallDenseMap<const llvm::Instruction *, Lanes, 2>>
      StoreBranches;
  llvm::DenseMap<const llvm::BasicBlock *,
                 std::pair<Lanes, const llvm::Instruction *>>
      Control;
  /// What was written to private memory through pointers not traced to an
  /// alloca (a pointer kept in a struct, returned by a call): it may be in
  /// any alloca whose address escapes.
  Lanes EscapedWrite = Lanes::Uniform;
  /// Allocas that hold a pointer to private memory.
  llvm::SmallPtrSet<const llvm::AllocaInst *, 4> HoldsPrivatePointers;
  /// Per alloca: whether its address escapes (computed once).
  mutable llvm::DenseMap<const llvm::AllocaInst *, bool> Escapes;
  bool escapes(const llvm::AllocaInst *A) const;
  bool raiseEscaped(const llvm::Value *Ptr, Lanes L);
  bool IsKernel;
  /// The kernel's reqd_work_group_size x is a multiple of its subgroup
  /// size: ids in y and z are the same across a subgroup.
  bool XMultipleOfSG = false;
  unsigned SG = 16;
  /// The kernel states its subgroup size (SG is not an assumption).
  bool SGKnown = false;
  std::optional<llvm::APInt> laneBits(const llvm::Value *V,
                                      unsigned Depth) const;
  bool idUniform(int Dim) const;
  Lanes seed(const llvm::Instruction &I) const;
  /// What a load in \p Reader reads from \p A.
  Lanes memory(const llvm::AllocaInst *A, const llvm::BasicBlock *Reader) const;
  bool noteMemory(const llvm::Instruction &I);
  bool update(const llvm::Value *V, Lanes L);
  bool propagate(llvm::Function &F, const llvm::PostDominatorTree &PDT);
};

/// The name a mangled (Itanium) function name spells: "get_local_id" for
/// "_Z12get_local_idj"; \p Name itself when it is not mangled.
llvm::StringRef demangledBase(llvm::StringRef Name);

/// The object \p Ptr points into (llvm::getUnderlyingObject), also through
/// pointers -O0 code keeps in stack slots: a load from an alloca written
/// only by one store of a pointer and otherwise only loaded (the parameter
/// slot of a function inlined at -O0, such as the tile API's templates)
/// stands for the pointer stored there.
const llvm::Value *privateObject(const llvm::Value *Ptr);
/// The pointer such a slot holds when \p V loads it, else null.
const llvm::Value *slotValue(const llvm::Value *V);

} // namespace xe
} // namespace crosslane

#endif // CROSSLANE_LIB_XE_XEUNIFORMITY_H
