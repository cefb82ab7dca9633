//===- XeOpenCLAtomics.cpp - OpenCL C atomic functions --------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The OpenCL C atomic functions on global, local and generic pointers:
/// the OpenCL 1.x ones (OpenCL C 3.0 §6.15.12.9 "Legacy" / §6.15.11 of
/// earlier versions: atomic_<op> on 32-bit, atom_<op> on 64-bit integers)
/// and the C11-style ones of §6.15.12 (atomic_init, atomic_load, _store,
/// _exchange, _compare_exchange_strong/_weak, atomic_fetch_<op>,
/// atomic_flag_test_and_set/_clear, each also _explicit). Every active
/// work-item runs the operation in turn, in lane order, on the executor's
/// sequentially consistent memory, so memory_order and memory_scope
/// operands order nothing further and are not read; a weak compare-exchange
/// never fails spuriously.
///
//===----------------------------------------------------------------------===//

#include "XeSubgroup.h"

#include "LeafOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instruction.h"

#include <optional>

using namespace llvm;

namespace crosslane {
namespace exec {
namespace xe {

namespace {

using BinOp = AtomicRMWInst::BinOp;

/// What one work-item does with the value it read (Old; 0 when the
/// operation does not read): the value to write, if any; it sets the
/// work-item's result and clears Ok on an error.
using LaneStep = function_ref<std::optional<uint64_t>(unsigned Lane,
                                                      uint64_t Old, bool &Ok)>;

/// Runs an atomic operation of \p Bytes bytes at operand 0's address in
/// each active lane in turn, in lane order: the read (if \p Read; an
/// uninitialised value is an error), then \p Step, then the write. The
/// operands in \p Values must not be poison.
int eachLane(OpCtx &C, StringRef Base, unsigned Bytes, bool Read,
             ArrayRef<unsigned> Values, LaneStep Step) {
  unsigned AS = cast<PointerType>(C.opType(0))->getAddressSpace();
  uint64_t Poison = C.opPoison(0);
  for (unsigned K : Values)
    Poison |= C.opPoison(K);
  if (Poison & C.Exec)
    return C.fail(Base + ": an operand is poison"), -1;
  bool Ok = true;
  forLanes(C.Exec, [&](unsigned L) {
    if (!Ok)
      return;
    uint64_t Addr = C.op(0, L), Old = 0;
    bool OldPoison = false;
    if (Read) {
      Ok = C.E.loadLane(C, AS, Addr, L, Bytes, Old, OldPoison);
      if (Ok && OldPoison)
        Ok = C.fail(Base + " reads an uninitialised value");
    }
    std::optional<uint64_t> New = Ok ? Step(L, Old, Ok) : std::nullopt;
    if (Ok && New)
      Ok = C.E.storeLane(C, AS, Addr, L, Bytes, *New & maskBits(Bytes * 8));
  });
  if (!Ok)
    return -1;
  if (C.resLeaves())
    C.setPoison(0);
  return 1;
}

/// The read-modify-write operation an atomic function's name ends in (add,
/// sub, xchg, min, max, and, or, xor), min and max \p Signed or not.
std::optional<BinOp> rmwOp(StringRef Name, bool Signed) {
  return StringSwitch<std::optional<BinOp>>(Name)
      .Case("add", BinOp::Add)
      .Case("sub", BinOp::Sub)
      .Case("xchg", BinOp::Xchg)
      .Case("min", Signed ? BinOp::Min : BinOp::UMin)
      .Case("max", Signed ? BinOp::Max : BinOp::UMax)
      .Case("and", BinOp::And)
      .Case("or", BinOp::Or)
      .Case("xor", BinOp::Xor)
      .Default(std::nullopt);
}

/// atomic_<op>(p[, v[, w]]) (32-bit) and atom_<op> (64-bit): *p becomes
/// what atomicrmw \p Op writes (inc and dec: add and sub of 1) or, for
/// cmpxchg, what the compare-exchange writes; the result is the old value.
/// xchg also on float (§6.15.12.9; cl_khr_global_int32_base_atomics'
/// atom_xchg): the bits, NaNs unchanged.
int legacyAtomic(OpCtx &C, StringRef Base, std::optional<BinOp> Op,
                 unsigned Operands) {
  auto *PT =
      C.numOps() == Operands ? dyn_cast<PointerType>(C.opType(0)) : nullptr;
  Type *T = C.inst().getType();
  bool FloatXchg = T->isFloatTy() && Op == BinOp::Xchg;
  if (!PT ||
      (!FloatXchg && (!T->isIntegerTy() || T->getIntegerBitWidth() < 32)))
    return 0;
  unsigned Bits = T->getPrimitiveSizeInBits();
  Leaf LT = scalarLeaf(T);
  SmallVector<unsigned, 2> Values;
  for (unsigned K = 1; K < Operands; ++K)
    Values.push_back(K);
  return eachLane(C, Base, Bits / 8, true, Values,
                  [&](unsigned L, uint64_t Old, bool &Ok) {
                    C.res(L) = Old;
                    uint64_t V = Operands > 1 ? C.op(1, L) : 1;
                    if (!Op)
                      return Old == (V & maskBits(Bits)) ? C.op(2, L) : Old;
                    return atomicRMWValue(*Op, LT, Bits, Old, V, Ok);
                  });
}

/// The type of the atomic object of a C11 atomic function's first
/// parameter ("PU3AS4VU7_Atomicj": a generic pointer to a volatile
/// atomic_uint): its element code, 0 if none.
char atomicObjectCode(StringRef Params) {
  size_t At = Params.find("U7_Atomic");
  return At == StringRef::npos ? 0 : firstParamCode(Params.drop_front(At + 9));
}

/// atomic_compare_exchange_{strong,weak}(obj, expected, desired, ...): if
/// *obj equals *expected (their bits, for atomic_float and atomic_double
/// too, as C11 compares them), *obj becomes desired and the result is
/// true; else *expected becomes *obj and the result is false.
int compareExchange(OpCtx &C, StringRef Base) {
  auto *EP = C.numOps() >= 3 ? dyn_cast<PointerType>(C.opType(1)) : nullptr;
  Type *T = EP ? C.opType(2) : nullptr;
  if (!T || (!T->isIntegerTy(32) && !T->isIntegerTy(64) && !T->isFloatTy() &&
             !T->isDoubleTy()))
    return 0;
  unsigned Bytes = T->getPrimitiveSizeInBits() / 8;
  unsigned EAS = EP->getAddressSpace();
  return eachLane(
      C, Base, Bytes, true, {1, 2},
      [&](unsigned L, uint64_t Old, bool &Ok) -> std::optional<uint64_t> {
        uint64_t Want = 0;
        bool Poison = false;
        Ok = C.E.loadLane(C, EAS, C.op(1, L), L, Bytes, Want, Poison);
        if (Ok && Poison)
          Ok = C.fail(Base + " reads an uninitialised value");
        C.res(L) = Ok && Want == Old;
        if (!Ok || Want == Old)
          return Ok ? std::optional<uint64_t>(C.op(2, L)) : std::nullopt;
        Ok = C.E.storeLane(C, EAS, C.op(1, L), L, Bytes, Old);
        return std::nullopt;
      });
}

/// The C11-style atomic functions (OpenCL C 3.0 §6.15.12.4-6.15.12.8);
/// \p Rest is the name after "atomic_".
int c11Atomic(OpCtx &C, StringRef Base, StringRef Rest, StringRef Params) {
  Rest.consume_back("_explicit");
  if (!C.numOps() || !C.opType(0)->isPointerTy())
    return 0;
  if (Rest == "compare_exchange_strong" || Rest == "compare_exchange_weak")
    return compareExchange(C, Base);
  Type *T = Rest == "load" ? C.inst().getType()
            : Rest.starts_with("flag_") || C.numOps() < 2
                ? Type::getInt32Ty(C.inst().getContext())
                : C.opType(1);
  bool Float = T->isFloatTy() || T->isDoubleTy();
  if (!Float && !T->isIntegerTy(32) && !T->isIntegerTy(64))
    return 0;
  unsigned Bytes = T->getPrimitiveSizeInBits() / 8;
  auto Keep = [&](unsigned L, uint64_t Old) { C.res(L) = Old; };
  if (Rest == "init" || Rest == "store")
    return eachLane(C, Base, Bytes, false, {1},
                    [&](unsigned L, uint64_t, bool &) { return C.op(1, L); });
  if (Rest == "load")
    return eachLane(C, Base, Bytes, true, {},
                    [&](unsigned L, uint64_t Old, bool &) {
                      Keep(L, Old);
                      return std::optional<uint64_t>();
                    });
  if (Rest == "exchange")
    return eachLane(C, Base, Bytes, true, {1},
                    [&](unsigned L, uint64_t Old, bool &) {
                      Keep(L, Old);
                      return C.op(1, L);
                    });
  if (Rest == "flag_test_and_set" || Rest == "flag_clear") {
    bool Set = Rest == "flag_test_and_set";
    return eachLane(C, Base, Bytes, Set, {},
                    [&](unsigned L, uint64_t Old, bool &) {
                      if (Set)
                        C.res(L) = Old != 0;
                      return uint64_t(Set);
                    });
  }
  std::optional<BinOp> Op;
  if (Rest.consume_front("fetch_") && Rest != "xchg")
    Op = rmwOp(Rest, !unsignedCode(atomicObjectCode(Params)));
  if (!Op || Float)
    return 0;
  Leaf LT = scalarLeaf(T);
  return eachLane(
      C, Base, Bytes, true, {1}, [&](unsigned L, uint64_t Old, bool &Ok) {
        Keep(L, Old);
        return atomicRMWValue(*Op, LT, Bytes * 8, Old, C.op(1, L), Ok);
      });
}

} // namespace

int execOpenCLAtomic(OpCtx &C, StringRef Base, StringRef Params) {
  StringRef Rest = Base;
  if (!Rest.consume_front("atomic_") && !Rest.consume_front("atom_"))
    return 0;
  if (Base.starts_with("atomic_") &&
      (Rest.starts_with("init") || Rest.starts_with("load") ||
       Rest.starts_with("store") || Rest.starts_with("exchange") ||
       Rest.starts_with("compare_exchange_") || Rest.starts_with("fetch_") ||
       Rest.starts_with("flag_")))
    return c11Atomic(C, Base, Rest, Params);
  // The pointee in the mangled name (PU3AS1Vi: a volatile global int):
  // signed or not for min and max.
  size_t AS = Params.find("AS");
  StringRef Pointee = AS == StringRef::npos ? "" : Params.drop_front(AS + 3);
  Pointee.consume_front("V");
  bool Signed = !unsignedCode(firstParamCode(Pointee));
  if (Rest == "cmpxchg")
    return legacyAtomic(C, Base, std::nullopt, 3);
  if (Rest == "inc" || Rest == "dec")
    return legacyAtomic(C, Base, Rest == "inc" ? BinOp::Add : BinOp::Sub, 1);
  std::optional<BinOp> Op = rmwOp(Rest, Signed);
  return Op ? legacyAtomic(C, Base, Op, 2) : 0;
}

} // namespace xe
} // namespace exec
} // namespace crosslane
