//===- XeOpenCLBuiltins.cpp - OpenCL C built-ins the Xe model runs --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// OpenCL C built-ins that clang leaves as calls and that kernels written
/// for Intel GPUs use outside subgroups (OpenCL C 3.0 §6.15): mul24/mad24,
/// memory fences, sub_group_barrier and the OpenCL 1.x atomic functions.
/// The executor's memory is sequentially consistent and a subgroup runs in
/// lock step, so fences and a subgroup barrier reached by the whole
/// subgroup order nothing further; atomics run lane by lane in lane order.
///
//===----------------------------------------------------------------------===//

#include "XeSubgroup.h"

#include "LeafOps.h"

#include "crosslane/Executor/Builtins.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
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

/// atomic_<op>(p[, v[, w]]) (32-bit) and atom_<op> (64-bit): each active
/// lane in turn reads *p, writes what atomicrmw \p Op (inc and dec: add
/// and sub of 1) or, for cmpxchg, the compare-exchange writes, and gets
/// the old value.
int atomicCall(OpCtx &C, StringRef Base, std::optional<AtomicRMWInst::BinOp> Op,
               unsigned Operands) {
  auto *PT =
      C.numOps() == Operands ? dyn_cast<PointerType>(C.opType(0)) : nullptr;
  Type *T = C.inst().getType();
  if (!PT || !T->isIntegerTy() || T->getIntegerBitWidth() < 32)
    return 0; // float atomic_xchg and other forms are not modelled
  unsigned Bits = T->getIntegerBitWidth(), Bytes = Bits / 8;
  uint64_t Poison = 0;
  for (unsigned K = 0; K < Operands; ++K)
    Poison |= C.opPoison(K) & C.Exec;
  if (Poison)
    return C.fail(Base + ": an operand is poison"), -1;
  Leaf LT = scalarLeaf(T);
  bool Ok = true;
  forLanes(C.Exec, [&](unsigned L) {
    if (!Ok)
      return;
    uint64_t Addr = C.op(0, L), Old;
    bool OldPoison;
    Ok = C.E.loadLane(C, PT->getAddressSpace(), Addr, L, Bytes, Old, OldPoison);
    if (Ok && OldPoison)
      Ok = C.fail(Base + " reads an uninitialised value");
    if (!Ok)
      return;
    uint64_t V = Operands > 1 ? C.op(1, L) : 1, New = Old;
    if (!Op)
      New = Old == (V & maskBits(Bits)) ? C.op(2, L) : Old;
    else
      New = atomicRMWValue(*Op, LT, Bits, Old, V, Ok);
    Ok = Ok && C.E.storeLane(C, PT->getAddressSpace(), Addr, L, Bytes,
                             New & maskBits(Bits));
    C.res(L) = Old;
  });
  if (!Ok)
    return -1;
  C.setPoison(0);
  return 1;
}

/// The elements of \p T (1 for a scalar).
unsigned elements(Type *T) {
  auto *VT = dyn_cast<FixedVectorType>(T);
  return VT ? VT->getNumElements() : 1;
}

/// OpenCL's math functions on half, float or double scalars and vectors
/// (sqrt, exp, fmax, fma, mad, min/max/clamp on floating point, the native_
/// and half_ forms; a scalar operand of a vector form, as in fmax(float4,
/// float), applies to every element), computed as the HIP side's __ocml_
/// ones are (Builtins.h), element by element.
int mathCall(OpCtx &C, StringRef Base) {
  Type *T = C.inst().getType(), *ET = T->getScalarType();
  if (!ET->isFloatingPointTy())
    return 0;
  unsigned N = elements(T);
  SmallVector<bool, 3> Scalar;
  for (unsigned K = 0; K < C.numOps(); ++K) {
    if (C.opType(K) != T && C.opType(K) != ET)
      return 0; // mixed element types: not a math function modelled
    Scalar.push_back(C.opType(K) != T);
  }
  StringRef Fn = Base;
  if (!Fn.consume_front("half_"))
    Fn.consume_front("native_");
  Fn = StringSwitch<StringRef>(Fn)
           .Case("max", "fmax")
           .Case("min", "fmin")
           .Default(Fn);
  Leaf L = scalarLeaf(ET);
  SmallVector<uint64_t, 3> Args(C.numOps(), 0);
  auto Eval = [&]() -> std::optional<uint64_t> {
    auto D = [&](unsigned K) { return leafToDouble(L, Args[K]); };
    if (Fn == "divide" && Args.size() == 2)
      return doubleToLeaf(L, D(0) / D(1));
    if (Fn == "recip" && Args.size() == 1)
      return doubleToLeaf(L, 1.0 / D(0));
    if (Fn == "mix" && Args.size() == 3)
      return doubleToLeaf(L, D(0) + (D(1) - D(0)) * D(2));
    if (Fn != "clamp" || Args.size() != 3)
      return mathFunction(Fn, ET, Args);
    // clamp(x, lo, hi) = fmin(fmax(x, lo), hi)
    std::optional<uint64_t> Lo = mathFunction("fmax", ET, {Args[0], Args[1]});
    return Lo ? mathFunction("fmin", ET, {*Lo, Args[2]}) : std::nullopt;
  };
  if (!Eval())
    return 0; // not a math function modelled
  for (unsigned E = 0; E < N; ++E) {
    uint64_t Poison = 0;
    for (unsigned K = 0; K < C.numOps(); ++K)
      Poison |= C.opPoison(K, Scalar[K] ? 0 : E);
    forLanes(C.Exec, [&](unsigned Lane) {
      for (unsigned K = 0; K < C.numOps(); ++K)
        Args[K] = C.op(K, Lane, Scalar[K] ? 0 : E);
      C.res(Lane, E) = *Eval();
    });
    C.setPoison(Poison & C.Exec, E);
  }
  return 1;
}

/// dot(a, b) of floating-point scalars or vectors: the products summed in
/// element order in double and rounded once (OpenCL leaves the order and
/// the rounding of the sum to the implementation).
int dotCall(OpCtx &C) {
  Type *T = C.inst().getType();
  if (C.numOps() != 2 || !T->isFloatingPointTy() ||
      C.opType(0) != C.opType(1) || C.opType(0)->getScalarType() != T)
    return 0;
  Leaf L = scalarLeaf(T);
  unsigned N = elements(C.opType(0));
  uint64_t Poison = 0;
  for (unsigned E = 0; E < N; ++E)
    Poison |= C.opPoison(0, E) | C.opPoison(1, E);
  forLanes(C.Exec, [&](unsigned Lane) {
    double Sum = 0;
    for (unsigned E = 0; E < N; ++E)
      Sum +=
          leafToDouble(L, C.op(0, Lane, E)) * leafToDouble(L, C.op(1, Lane, E));
    C.res(Lane) = doubleToLeaf(L, Sum);
  });
  C.setPoison(Poison & C.Exec);
  return 1;
}

/// vloadN(offset, p) and vstoreN(data, offset, p): N elements at p + offset
/// * N, element by element through the target's memory.
int vectorLoadStore(OpCtx &C, StringRef Base) {
  bool Load = Base.consume_front("vload");
  if (!Load && !Base.consume_front("vstore"))
    return 0;
  unsigned N = 0;
  if (Base.getAsInteger(10, N) || C.numOps() != (Load ? 2u : 3u))
    return 0;
  Type *VT = Load ? C.inst().getType() : C.opType(0);
  auto *PT = dyn_cast<PointerType>(C.opType(Load ? 1 : 2));
  if (!PT || elements(VT) != N || !VT->isVectorTy())
    return 0;
  unsigned Bytes = VT->getScalarSizeInBits() / 8, Off = Load ? 0 : 1;
  uint64_t Poison = C.opPoison(Off) | C.opPoison(Off + 1);
  for (unsigned E = 0; !Load && E < N; ++E)
    Poison |= C.opPoison(0, E);
  if (Poison & C.Exec)
    return C.fail(Twine(Load ? "vload" : "vstore") + Twine(N) +
                  ": an operand is poison"),
           -1;
  bool Ok = true;
  for (unsigned E = 0; E < N && Ok; ++E) {
    uint64_t ElemPoison = 0;
    forLanes(C.Exec, [&](unsigned Lane) {
      if (!Ok)
        return;
      uint64_t Addr = C.op(Off + 1, Lane) + (C.op(Off, Lane) * N + E) * Bytes;
      if (!Load) {
        Ok = C.E.storeLane(C, PT->getAddressSpace(), Addr, Lane, Bytes,
                           C.op(0, Lane, E));
        return;
      }
      bool P = false;
      Ok = C.E.loadLane(C, PT->getAddressSpace(), Addr, Lane, Bytes,
                        C.res(Lane, E), P);
      ElemPoison |= uint64_t(P) << Lane;
    });
    if (Load)
      C.setPoison(ElemPoison, E);
  }
  return Ok ? 1 : -1;
}

/// The element code of a mangled OpenCL parameter list's first parameter
/// ("Dv4_f" -> 'f', "i" -> 'i', "Dh" -> 'h' for half as 'H').
char firstParamCode(StringRef Params) {
  if (Params.consume_front("Dv")) {
    size_t US = Params.find('_');
    if (US == StringRef::npos)
      return 0;
    Params = Params.drop_front(US + 1);
  }
  if (Params.starts_with("Dh"))
    return 'H';
  return Params.empty() ? 0 : Params.front();
}

/// convert_<type>[n][_sat][_rte|_rtz|_rtp|_rtn] element by element:
/// between integers (wrapping, or clamped with _sat), floating point to
/// integers (rounded toward zero unless a mode says otherwise; NaN gives 0
/// and values out of range are clamped, which OpenCL leaves undefined
/// without _sat), and to floating point rounded to nearest even (other
/// modes to floating point are not modelled).
int convertCall(OpCtx &C, StringRef Base, StringRef Params) {
  if (!Base.consume_front("convert_") || C.numOps() != 1)
    return 0;
  StringRef Mode = "";
  for (StringRef M : {"_rte", "_rtz", "_rtp", "_rtn"})
    if (Base.consume_back(M))
      Mode = M.drop_front();
  bool Sat = Base.consume_back("_sat");
  Base = Base.rtrim("0123456789");
  Type *T = C.inst().getType(), *DT = T->getScalarType();
  Type *ST = C.opType(0)->getScalarType();
  char Code = firstParamCode(Params);
  if (elements(T) != elements(C.opType(0)) || !Code)
    return 0;
  bool SrcFloat = ST->isFloatingPointTy();
  bool SrcSigned = StringRef("casil").contains(Code);
  bool DstSigned =
      Base == "char" || Base == "short" || Base == "int" || Base == "long";
  if (DT->isFloatingPointTy() && !Mode.empty() && Mode != "rte")
    return 0;
  Leaf SL = scalarLeaf(ST), DL = scalarLeaf(DT);
  unsigned SBits = ST->getScalarSizeInBits(), DBits = DT->getScalarSizeInBits();
  auto Convert = [&](uint64_t X) -> uint64_t {
    __int128 V = 0;
    if (!SrcFloat) {
      V = SrcSigned ? __int128(SignExtend64(X, SBits))
                    : __int128(X & maskBits(SBits));
      if (DT->isFloatTy())
        return doubleToLeaf(DL, double(float(V)));
      if (DT->isFloatingPointTy())
        return doubleToLeaf(DL, double(V));
    } else {
      double D = leafToDouble(SL, X);
      if (DT->isFloatingPointTy())
        return doubleToLeaf(DL, D);
      if (std::isnan(D))
        return 0;
      D = Mode == "rte"   ? std::nearbyint(D)
          : Mode == "rtp" ? std::ceil(D)
          : Mode == "rtn" ? std::floor(D)
                          : std::trunc(D);
      __int128 Lo = DstSigned ? -(__int128(1) << (DBits - 1)) : 0;
      __int128 Hi = DstSigned ? (__int128(1) << (DBits - 1)) - 1
                              : (__int128(1) << DBits) - 1;
      if (D <= double(Lo))
        return uint64_t(Lo) & maskBits(DBits);
      if (D >= double(Hi))
        return uint64_t(Hi) & maskBits(DBits);
      return uint64_t(__int128(D)) & maskBits(DBits);
    }
    if (Sat) {
      __int128 Lo = DstSigned ? -(__int128(1) << (DBits - 1)) : 0;
      __int128 Hi = DstSigned ? (__int128(1) << (DBits - 1)) - 1
                              : (__int128(1) << DBits) - 1;
      V = V < Lo ? Lo : V > Hi ? Hi : V;
    }
    return uint64_t(V) & maskBits(DBits);
  };
  for (unsigned E = 0; E < elements(T); ++E) {
    forLanes(C.Exec, [&](unsigned Lane) {
      C.res(Lane, E) = Convert(C.op(0, Lane, E));
    });
    C.setPoison(C.opPoison(0, E) & C.Exec, E);
  }
  return 1;
}

/// min, max, clamp and abs on integer scalars, signed or not as the
/// mangled parameters say (i, l, s, c signed; j, m, t, h unsigned).
int integerCall(OpCtx &C, StringRef Base, StringRef Params) {
  Type *T = C.inst().getType();
  unsigned Ops = StringSwitch<unsigned>(Base)
                     .Case("min", 2)
                     .Case("max", 2)
                     .Case("clamp", 3)
                     .Case("abs", 1)
                     .Default(0);
  if (!Ops || C.numOps() != Ops || !T->isIntegerTy() || Params.empty())
    return 0;
  for (unsigned K = 0; K < Ops; ++K)
    if (C.opType(K) != T)
      return 0;
  bool Signed = StringRef("ilsc").contains(Params.front());
  unsigned Bits = T->getIntegerBitWidth();
  auto Value = [&](uint64_t V) -> int64_t {
    return Signed ? SignExtend64(V, Bits) : int64_t(V & maskBits(Bits));
  };
  auto Less = [&](uint64_t A, uint64_t B) {
    return Signed ? Value(A) < Value(B)
                  : (A & maskBits(Bits)) < (B & maskBits(Bits));
  };
  uint64_t Poison = 0;
  for (unsigned K = 0; K < Ops; ++K)
    Poison |= C.opPoison(K);
  forLanes(C.Exec, [&](unsigned L) {
    uint64_t A = C.op(0, L), B = Ops > 1 ? C.op(1, L) : 0;
    uint64_t R = A;
    if (Base == "min")
      R = Less(B, A) ? B : A;
    else if (Base == "max")
      R = Less(A, B) ? B : A;
    else if (Base == "clamp")
      R = Less(A, B) ? B : Less(C.op(2, L), A) ? C.op(2, L) : A;
    else if (Signed && Value(A) < 0)
      R = uint64_t(-Value(A));
    C.res(L) = R & maskBits(Bits);
  });
  C.setPoison(Poison & C.Exec);
  return 1;
}

} // namespace

int execOpenCLBuiltin(OpCtx &C, StringRef Base, StringRef Params, unsigned SG) {
  if (Base == "mul24" || Base == "mad24")
    return mulAdd24(C, Base == "mad24");
  if (int R = mathCall(C, Base))
    return R;
  if (Base == "dot")
    if (int R = dotCall(C))
      return R;
  if (int R = vectorLoadStore(C, Base))
    return R;
  if (int R = convertCall(C, Base, Params))
    return R;
  if (int R = integerCall(C, Base, Params))
    return R;
  if (Base == "mem_fence" || Base == "read_mem_fence" ||
      Base == "write_mem_fence" || Base == "atomic_work_item_fence")
    return 1;
  if (Base == "sub_group_barrier")
    return requireWholeSubgroup(C, Base, SG) ? 1 : -1;
  StringRef Rest = Base;
  if (!Rest.consume_front("atomic_") && !Rest.consume_front("atom_"))
    return 0;
  // The pointee in the mangled name (PU3AS1Vi: a volatile global int):
  // signed or not for min and max.
  size_t AS = Params.find("AS");
  StringRef Pointee = AS == StringRef::npos ? "" : Params.drop_front(AS + 3);
  Pointee.consume_front("V");
  bool Signed = Pointee.starts_with("i") || Pointee.starts_with("l");
  using BinOp = AtomicRMWInst::BinOp;
  if (Rest == "cmpxchg")
    return atomicCall(C, Base, std::nullopt, 3);
  if (Rest == "inc" || Rest == "dec")
    return atomicCall(C, Base, Rest == "inc" ? BinOp::Add : BinOp::Sub, 1);
  std::optional<BinOp> Op = StringSwitch<std::optional<BinOp>>(Rest)
                                .Case("add", BinOp::Add)
                                .Case("sub", BinOp::Sub)
                                .Case("xchg", BinOp::Xchg)
                                .Case("min", Signed ? BinOp::Min : BinOp::UMin)
                                .Case("max", Signed ? BinOp::Max : BinOp::UMax)
                                .Case("and", BinOp::And)
                                .Case("or", BinOp::Or)
                                .Case("xor", BinOp::Xor)
                                .Default(std::nullopt);
  return Op ? atomicCall(C, Base, Op, 2) : 0;
}

} // namespace xe
} // namespace exec
} // namespace crosslane
