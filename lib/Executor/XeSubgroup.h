//===- XeSubgroup.h - Subgroup builtins of the Xe target model --*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The OpenCL subgroup builtins the Xe target model runs besides the 2D
/// block operations (XeTarget.cpp): shuffles and broadcasts
/// (cl_khr_subgroups, cl_khr_subgroup_shuffle[_relative],
/// cl_intel_subgroups), reductions and scans (also non-uniform and
/// clustered), votes, 1-D subgroup block reads and writes, and the
/// subgroup matrix multiply-accumulate (DPAS) of
/// cl_intel_subgroup_matrix_multiply_accumulate.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_EXECUTOR_XESUBGROUP_H
#define CROSSLANE_LIB_EXECUTOR_XESUBGROUP_H

#include "crosslane/Executor/Engine.h"

#include "llvm/ADT/FloatingPointMode.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>

namespace llvm {
class Function;
class Type;
} // namespace llvm

namespace crosslane {
namespace exec {
namespace xe {

/// True if every work-item of the subgroup runs the call; else an error
/// naming \p Base.
bool requireWholeSubgroup(OpCtx &C, llvm::StringRef Base, unsigned SG);

/// The elements of \p T (1 for a scalar).
unsigned elements(llvm::Type *T);

/// The element code of the first parameter in Itanium parameter codes
/// ("Dv4_j" -> 'j', "i" -> 'i', "Dh" (half) -> 'H'); 0 if there is none.
char firstParamCode(llvm::StringRef Params);

/// True if \p Code (firstParamCode) is an unsigned integer's: uchar,
/// ushort, uint, ulong.
inline bool unsignedCode(char Code) {
  return Code && llvm::StringRef("htjm").contains(Code);
}

/// The operators of reductions and scans (OpenCL C 3.0 §6.15.16 and
/// §6.15.18; mul, and, or, xor and the logical ones from
/// cl_khr_subgroup_non_uniform_arithmetic).
enum class RedOp { Add, Mul, Min, Max, And, Or, Xor, LAnd, LOr, LXor };

/// The operator a builtin's name ends in ("add", "logical_or", ...).
std::optional<RedOp> redOpNamed(llvm::StringRef Name);

/// One operator on leaves of type Ty, signed or not (integers).
struct Reduction {
  RedOp Op = RedOp::Add;
  Leaf Ty;
  bool Signed = true;

  /// The identity OpenCL gives an exclusive scan's first work-item: 0 for
  /// add, +INF or the type's largest value for min, -INF or its smallest
  /// for max, all ones for and, 1 for mul.
  uint64_t identity() const;
  /// A op B, in the operands' own precision; float min and max are fmin
  /// and fmax (a NaN operand gives the other one; -0 < +0).
  uint64_t combine(uint64_t A, uint64_t B) const;

private:
  unsigned fpIntrinsic() const;
  unsigned intIntrinsic() const;
};

/// Runs the subgroup builtin \p Base (the unmangled name; \p Params the
/// Itanium parameter codes) for a subgroup of \p SG lanes: 1 done, 0 not
/// such a builtin, -1 error (recorded in \p C).
int execSubgroupBuiltin(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params,
                        unsigned SG);

/// OpenCL C built-ins outside subgroups that kernels call by name: mul24
/// and mad24, fences, sub_group_barrier, vloadN/vstoreN, and through
/// execOpenCLAtomic and execOpenCLMath the atomic and arithmetic ones. Same
/// return convention as TargetModel::execExternal.
int execOpenCLBuiltin(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params,
                      unsigned SG);

/// The OpenCL 1.x atomics (atomic_* on 32-bit, atom_* on 64-bit integers)
/// and the C11-style atomic functions (XeOpenCLAtomics.cpp). Same return
/// convention as TargetModel::execExternal.
int execOpenCLAtomic(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params);

/// Consumes a rounding-mode suffix (_rte, _rtz, _rtp, _rtn) from the end
/// of \p Name and sets \p RM from it; false if there is none.
bool roundingSuffix(llvm::StringRef &Name, llvm::RoundingMode &RM);

/// OpenCL C's math, integer, relational, geometric and conversion
/// built-ins on scalars and vectors (XeOpenCLMath.cpp). Same return
/// convention as TargetModel::execExternal.
int execOpenCLMath(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params);

/// The work-group collective functions (OpenCL C 3.0 §6.15.18):
/// work_group_all, work_group_any, work_group_broadcast and
/// work_group_{reduce,scan_inclusive,scan_exclusive}_{add,min,max}, run in
/// the engine's two steps
/// (TargetModel::isCollectiveCall): each subgroup hands over its
/// work-items' operands as it arrives; the first one to complete computes
/// every work-item's result, which each subgroup then takes.
class WorkGroupCollectives {
public:
  /// True if \p Base (the unmangled name) with the signature of \p Callee
  /// is a collective modelled here.
  static bool isCollective(llvm::StringRef Base, const llvm::Function &Callee);
  /// A work-group of \p Items work-items in \p NumWaves subgroups starts.
  void begin(unsigned Items, unsigned NumWaves);
  int arrive(OpCtx &C, unsigned SG);
  int complete(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params,
               unsigned SG);

private:
  /// One work-item's operands (at most 4) and their poison bits.
  struct Item {
    uint64_t V[4] = {0, 0, 0, 0};
    unsigned Poison = 0;
  };
  bool compute(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params);
  bool broadcast(OpCtx &C, llvm::StringRef Base);
  std::vector<Item> Gathered;
  std::vector<uint64_t> Result;
  std::vector<bool> ResultPoison;
  unsigned Waves = 0, Pending = 0;
};

/// Runs intel_sub_group_<a>_<b>_matrix_mad_k<K>: 1 done, 0 not one, -1
/// error.
int execMatrixMad(OpCtx &C, llvm::StringRef Base, unsigned SG);

} // namespace xe
} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_LIB_EXECUTOR_XESUBGROUP_H
