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

#include "llvm/ADT/StringRef.h"

namespace llvm {
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

/// Runs the subgroup builtin \p Base (the unmangled name; \p Params the
/// Itanium parameter codes) for a subgroup of \p SG lanes: 1 done, 0 not
/// such a builtin, -1 error (recorded in \p C).
int execSubgroupBuiltin(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params,
                        unsigned SG);

/// OpenCL C built-ins outside subgroups that kernels call by name: mul24
/// and mad24, fences, sub_group_barrier, the OpenCL 1.x atomics (atomic_*
/// on 32-bit, atom_* on 64-bit integers), vloadN/vstoreN, and through
/// execOpenCLMath the arithmetic ones. Same return convention as
/// TargetModel::execExternal.
int execOpenCLBuiltin(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params,
                      unsigned SG);

/// OpenCL C's math, integer, relational, geometric and conversion
/// built-ins on scalars and vectors (XeOpenCLMath.cpp). Same return
/// convention as TargetModel::execExternal.
int execOpenCLMath(OpCtx &C, llvm::StringRef Base, llvm::StringRef Params);

/// Runs intel_sub_group_<a>_<b>_matrix_mad_k<K>: 1 done, 0 not one, -1
/// error.
int execMatrixMad(OpCtx &C, llvm::StringRef Base, unsigned SG);

} // namespace xe
} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_LIB_EXECUTOR_XESUBGROUP_H
