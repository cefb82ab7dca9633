//===- XeOpenCLBuiltins.cpp - OpenCL C built-ins the Xe model runs --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL C built-ins that clang leaves as calls and that kernels written
/// for Intel GPUs use outside subgroups (OpenCL C 3.0 §6.15): mul24/mad24,
/// memory fences, sub_group_barrier, vloadN/vstoreN and the half ones,
/// shuffle and shuffle2;
/// the arithmetic
/// ones are in XeOpenCLMath.cpp, the atomic functions in
/// XeOpenCLAtomics.cpp. The executor's memory is sequentially consistent
/// and a subgroup runs in lock step, so fences and a subgroup barrier
/// reached by the whole subgroup order nothing further.
///
//===----------------------------------------------------------------------===//

#include "XeSubgroup.h"

#include "LeafOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;

namespace crosslane {
namespace exec {
namespace xe {

namespace {

/// mul24(a, b) and mad24(a, b, c) on int or uint scalars: defined where a
/// and b fit in 24 bits (signed or unsigned), where the product is the
/// 32-bit one; outside that range OpenCL leaves the result to the
/// implementation, and this gives the 32-bit product too.
int mulAdd24(OpCtx &C, bool Mad) {
  if (C.numOps() != (Mad ? 3u : 2u) || !C.inst().getType()->isIntegerTy(32))
    return 0; // vector forms are not modelled
  uint64_t Poison = C.opPoison(0) | C.opPoison(1) | (Mad ? C.opPoison(2) : 0);
  forLanes(C.Exec, [&](unsigned L) {
    uint32_t P = uint32_t(C.op(0, L)) * uint32_t(C.op(1, L));
    C.res(L) = Mad ? uint32_t(P + uint32_t(C.op(2, L))) : P;
  });
  C.setPoison(Poison & C.Exec);
  return 1;
}

/// Moves \p N elements per lane between a vector (the result of a load,
/// operand 0 of a store) and memory at p + (offset * \p Stride + e) *
/// size, through the target's memory; with \p Half the memory holds halfs,
/// read exactly and written rounded by \p RM.
int moveElements(OpCtx &C, StringRef Name, bool Load, unsigned N,
                 unsigned Stride, bool Half, RoundingMode RM) {
  Type *VT = Load ? C.inst().getType() : C.opType(0);
  auto *PT = cast<PointerType>(C.opType(Load ? 1 : 2));
  unsigned Off = Load ? 0 : 1;
  uint64_t Poison = C.opPoison(Off) | C.opPoison(Off + 1);
  for (unsigned E = 0; !Load && E < N; ++E)
    Poison |= C.opPoison(0, E);
  if (Poison & C.Exec)
    return C.fail(Name + ": an operand is poison"), -1;
  Leaf HalfLeaf{LeafKind::Half, 16, 0}, Elem = scalarLeaf(VT->getScalarType());
  unsigned Bytes = Half ? 2 : VT->getScalarSizeInBits() / 8;
  bool Ok = true;
  for (unsigned E = 0; E < N && Ok; ++E) {
    uint64_t ElemPoison = 0;
    forLanes(C.Exec, [&](unsigned Lane) {
      if (!Ok)
        return;
      uint64_t Addr =
          C.op(Off + 1, Lane) + (C.op(Off, Lane) * Stride + E) * Bytes;
      if (!Load) {
        uint64_t V = C.op(0, Lane, E);
        V = Half ? castFP(Elem, HalfLeaf, V, RM) : V;
        Ok = C.E.storeLane(C, PT->getAddressSpace(), Addr, Lane, Bytes, V);
        return;
      }
      bool P = false;
      uint64_t V = 0;
      Ok = C.E.loadLane(C, PT->getAddressSpace(), Addr, Lane, Bytes, V, P);
      C.res(Lane, E) = Half ? castFP(HalfLeaf, Elem, V) : V;
      ElemPoison |= uint64_t(P) << Lane;
    });
    if (Load)
      C.setPoison(ElemPoison, E);
  }
  return Ok ? 1 : -1;
}

/// vloadN(offset, p) and vstoreN(data, offset, p): N elements at p + offset
/// * N (OpenCL C 3.0 §6.15.9); vload_half[N](offset, p), vloada_halfN,
/// vstore_half[N][_<mode>](data, offset, p) and vstorea_halfN[_<mode>]
/// (§6.15.10): N halfs at p + offset * N (the aligned forms of 3 elements:
/// offset * 4), read as floats (exactly), or written from float or double
/// elements rounded to half by the mode (round to nearest even by
/// default; IEEE rounding, so subnormals are kept and an overflow toward
/// zero gives 65504).
int vectorLoadStore(OpCtx &C, StringRef Base) {
  StringRef Name = Base;
  bool Load = Base.consume_front("vload");
  if (!Load && !Base.consume_front("vstore"))
    return 0;
  bool Aligned = Base.consume_front("a");
  bool Half = Base.consume_front("_half");
  RoundingMode RM = RoundingMode::NearestTiesToEven;
  if (Half && !Load)
    roundingSuffix(Base, RM);
  unsigned N = 1;
  if ((!Base.empty() || !Half) && Base.getAsInteger(10, N))
    return 0;
  if (Aligned && (!Half || Base.empty()))
    return 0;
  if (C.numOps() != (Load ? 2u : 3u))
    return 0;
  Type *VT = Load ? C.inst().getType() : C.opType(0);
  Type *ET = VT->getScalarType();
  if (!isa<PointerType>(C.opType(Load ? 1 : 2)) || elements(VT) != N ||
      (!Half && !VT->isVectorTy()) ||
      (Half && !ET->isFloatTy() && (Load || !ET->isDoubleTy())))
    return 0;
  unsigned Stride = Aligned && N == 3 ? 4 : N;
  return moveElements(C, Name, Load, N, Stride, Half, RM);
}

/// shuffle(x, mask) and shuffle2(x, y, mask) (OpenCL C 3.0 §6.15.13): x
/// (and y) vectors of n = 2, 4, 8 or 16 elements of any type, mask one of
/// m of the unsigned integer type as wide as an element; result element i
/// is element mask[i] of x, or of x then y for shuffle2, only the mask's
/// low ilogb(2n - 1) bits counted (shuffle2: one more), that is mask[i]
/// modulo n (2n).
int shuffleCall(OpCtx &C, bool Two) {
  unsigned Ops = Two ? 3 : 2;
  if (C.numOps() != Ops)
    return 0;
  Type *T = C.inst().getType(), *XT = C.opType(0), *MT = C.opType(Ops - 1);
  unsigned N = elements(XT), M = elements(T);
  if (!XT->isVectorTy() || !MT->isVectorTy() || !isPowerOf2_32(N) ||
      (Two && C.opType(1) != XT) || elements(MT) != M ||
      T->getScalarType() != XT->getScalarType() ||
      !MT->getScalarType()->isIntegerTy())
    return 0;
  unsigned Sources = Two ? 2 * N : N;
  for (unsigned E = 0; E < M; ++E) {
    uint64_t Poison = C.opPoison(Ops - 1, E);
    forLanes(C.Exec, [&](unsigned Lane) {
      unsigned S = C.op(Ops - 1, Lane, E) % Sources, K = S / N;
      C.res(Lane, E) = C.op(K, Lane, S % N);
      Poison |= C.opPoison(K, S % N) & (uint64_t(1) << Lane);
    });
    C.setPoison(Poison & C.Exec, E);
  }
  return 1;
}

} // namespace

int execOpenCLBuiltin(OpCtx &C, StringRef Base, StringRef Params, unsigned SG) {
  if (Base == "mul24" || Base == "mad24")
    return mulAdd24(C, Base == "mad24");
  if (int R = vectorLoadStore(C, Base))
    return R;
  if (Base == "shuffle" || Base == "shuffle2")
    if (int R = shuffleCall(C, Base == "shuffle2"))
      return R;
  if (int R = execOpenCLMath(C, Base, Params))
    return R;
  if (Base == "mem_fence" || Base == "read_mem_fence" ||
      Base == "write_mem_fence" || Base == "atomic_work_item_fence")
    return 1;
  if (Base == "sub_group_barrier")
    return requireWholeSubgroup(C, Base, SG) ? 1 : -1;
  return execOpenCLAtomic(C, Base, Params);
}

} // namespace xe
} // namespace exec
} // namespace crosslane
