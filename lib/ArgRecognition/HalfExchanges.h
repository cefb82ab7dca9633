//===- HalfExchanges.h - f16 state exchanged as f32 ------------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// HIP code that keeps a `__half` state but has no `__half` shuffle
/// exchanges `__half2float(v)` and converts what it reads back with
/// `__float2half`: each cross-lane read moves `bitcast (fpext h)` and each
/// use of it is `fptrunc (bitcast w)`. narrowHalfExchanges makes such a read
/// move the half's own bits, zero-extended, and its users read them back,
/// the form the recogniser proves f16 chains in. `fptrunc (fpext h)` is `h`
/// for every non-NaN `h` (the f16 values are exact in f32); for a NaN, LLVM
/// lets a conversion return its input NaN unchanged, so the bits moved as
/// they are refine what the conversions compute.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_HALFEXCHANGES_H
#define CROSSLANE_LIB_ARGRECOGNITION_HALFEXCHANGES_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
} // namespace llvm

namespace crosslane {
namespace argrec {

/// Rewrites every cross-lane read of \p F that moves an f16 value's f32
/// extension and whose result is only converted back to f16 into a read of
/// the f16 bits. Returns true if \p F changed; \p BeforeChange is called
/// before the first edit.
bool narrowHalfExchanges(llvm::Function &F,
                         llvm::function_ref<void()> BeforeChange);

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_HALFEXCHANGES_H
