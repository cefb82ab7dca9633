//===- Memory.cpp - Regions, addresses, loads, stores, atomics ------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The executor's memory: byte-addressed regions with an initialised-byte
/// shadow (module globals, buffers, the kernarg segment, the dispatch
/// packet, LDS per workgroup, private memory per lane), address-space casts,
/// the resolution of an access to a region with its errors (misaligned,
/// out of bounds, null, use after return, stores to constant memory), and
/// the instructions and intrinsics that touch memory.
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"
#include "LeafOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <cstring>

using namespace llvm;

namespace crosslane {
namespace exec {

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

/// Appends the scalar leaves of \p T placed at \p Off, in the order the
/// engine flattens values (struct fields and array/vector elements in
/// memory order); false for types with no byte-addressed scalar leaves
/// (e.g. i1 vectors, integers wider than 128 bits).
bool collectMemLeaves(Type *T, uint64_t Off, unsigned Param,
                      std::vector<MemLeaf> &Out, const DataLayout &DL) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (auto [I, E] : enumerate(ST->elements()))
      if (!collectMemLeaves(E, Off + SL->getElementOffset(I), Param, Out, DL))
        return false;
    return true;
  }
  Type *Elt = nullptr;
  uint64_t N = 0;
  if (auto *AT = dyn_cast<ArrayType>(T))
    Elt = AT->getElementType(), N = AT->getNumElements();
  else if (auto *VT = dyn_cast<FixedVectorType>(T))
    Elt = VT->getElementType(), N = VT->getNumElements();
  if (Elt) {
    if (isa<VectorType>(T) && DL.getTypeSizeInBits(Elt) % 8)
      return false;
    uint64_t Step = isa<VectorType>(T) ? DL.getTypeStoreSize(Elt)
                                       : DL.getTypeAllocSize(Elt);
    for (uint64_t I = 0; I < N; ++I)
      if (!collectMemLeaves(Elt, Off + I * Step, Param, Out, DL))
        return false;
    return true;
  }
  if (!T->isIntegerTy() && !T->isFloatingPointTy() && !T->isPointerTy())
    return false;
  if (isWideInt(T) && T->getIntegerBitWidth() <= 128) {
    // The engine's two leaves of a wide integer, low 64 bits first.
    Type *Hi = IntegerType::get(T->getContext(), T->getIntegerBitWidth() - 64);
    Out.push_back({IntegerType::get(T->getContext(), 64), Off, Param});
    Out.push_back({Hi, Off + 8, Param});
    return true;
  }
  if (T->getPrimitiveSizeInBits() > 64)
    return false;
  Out.push_back({T, Off, Param});
  return true;
}

uint64_t Executor::Impl::castAddr(unsigned From, unsigned To, uint64_t X,
                                  unsigned Lane) {
  MemSpace F = TM->memSpace(From), T = TM->memSpace(To);
  if (F == T)
    return X;
  if (T == MemSpace::Flat) {
    if (F == MemSpace::Local)
      return Map.localToFlat(X);
    if (F == MemSpace::Private)
      return Map.privateToFlat(Lane, X);
    return X;
  }
  if (T == MemSpace::Local || T == MemSpace::Private)
    return Map.flatToOffset(X);
  return X;
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

bool Executor::Impl::storeConst(const Constant *C, Region &R, uint64_t Off,
                                std::string &Why) {
  Type *T = C->getType();
  uint64_t Size = DL.getTypeAllocSize(T);
  if (isa<UndefValue>(C))
    return true;
  if (auto *CDS = dyn_cast<ConstantDataSequential>(C)) {
    StringRef Raw = CDS->getRawDataValues();
    std::memcpy(&R.Bytes[Off], Raw.data(), Raw.size());
    std::fill(R.Init.begin() + Off, R.Init.begin() + Off + Raw.size(), 1);
    return true;
  }
  if (isa<ConstantAggregateZero>(C) || isa<ConstantPointerNull>(C)) {
    std::fill(R.Bytes.begin() + Off, R.Bytes.begin() + Off + Size, 0);
    std::fill(R.Init.begin() + Off, R.Init.begin() + Off + Size, 1);
    return true;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (!storeConst(cast<Constant>(C->getOperand(I)), R,
                      Off + SL->getElementOffset(I), Why))
        return false;
    return true;
  }
  if (T->isArrayTy() || T->isVectorTy()) {
    Type *ET = T->isArrayTy() ? T->getArrayElementType()
                              : cast<VectorType>(T)->getElementType();
    uint64_t ES = DL.getTypeAllocSize(ET);
    for (unsigned I = 0; I < C->getNumOperands(); ++I)
      if (!storeConst(cast<Constant>(C->getOperand(I)), R, Off + I * ES, Why))
        return false;
    return true;
  }
  SmallVector<uint64_t, 1> V;
  SmallVector<bool, 1> P;
  if (!evalConst(C, V, P, Why))
    return false;
  uint64_t S = DL.getTypeStoreSize(T);
  std::memcpy(&R.Bytes[Off], &V[0], S);
  std::fill(R.Init.begin() + Off, R.Init.begin() + Off + S, 1);
  return true;
}

uint64_t Executor::Impl::addRegion(StringRef Name, size_t Size, bool RO) {
  Region R;
  R.Name = Name.str();
  R.Bytes.assign(Size, 0);
  R.Init.assign(Size, 0);
  R.ReadOnly = RO;
  Globals.push_back(std::move(R));
  uint64_t A = Map.addGlobal(Size);
  if (!A && Err.empty())
    Err = "the 32-bit address space is full (region '" + Name.str() + "')";
  return A;
}

bool Executor::Impl::layoutGlobals() {
  std::string Why;
  for (GlobalVariable &GV : M.globals()) {
    Type *VT = GV.getValueType();
    uint64_t Size = DL.getTypeAllocSize(VT);
    MemSpace S = TM->memSpace(GV.getAddressSpace());
    if (S == MemSpace::Local) {
      // Zero-sized (extern __shared__) arrays are dynamic LDS: placed
      // after every static variable, all at the same offset.
      if (Size == 0)
        continue;
      // The alignment LLVM assumes for the variable (and its code
      // generator gives it): an unaligned definition of 16 bytes or more
      // gets its preferred alignment, which loads may rely on.
      uint32_t Al = DL.getPreferredAlign(&GV).value();
      StaticLDS = alignTo(StaticLDS, Al);
      LDSOffset[&GV] = StaticLDS;
      StaticLDS += Size;
      continue;
    }
    if (S != MemSpace::Global && S != MemSpace::Constant)
      continue;
    // Host memory holds each byte and its initialised flag: refuse sizes
    // no test kernel needs before allocating them.
    constexpr uint64_t MaxGlobalBytes = uint64_t(1) << 30;
    if (Size > MaxGlobalBytes) {
      Err = "global '" + GV.getName().str() + "' needs " +
            std::to_string(Size) +
            " bytes; the executor models globals of up to 1 GiB";
      return false;
    }
    GlobalAddr[&GV] = addRegion(GV.getName(), Size, GV.isConstant());
    Globals.back().Declared = GV.isConstant() && GV.isDeclaration();
  }
  StaticLDS = alignTo(StaticLDS, 16);
  for (GlobalVariable &GV : M.globals())
    if (TM->memSpace(GV.getAddressSpace()) == MemSpace::Local &&
        DL.getTypeAllocSize(GV.getValueType()) == 0)
      LDSOffset[&GV] = StaticLDS;
  for (GlobalVariable &GV : M.globals()) {
    auto It = GlobalAddr.find(&GV);
    if (It == GlobalAddr.end() || !GV.hasInitializer())
      continue;
    Region &R = Globals[Map.globalIndex(It->second)];
    if (!storeConst(GV.getInitializer(), R, 0, Why)) {
      Err = "cannot initialise global '" + GV.getName().str() + "': " + Why;
      return false;
    }
  }
  return true;
}

/// Resolves an access of \p Size bytes at \p Addr in address space \p AS

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

Region *Executor::Impl::resolve(const Instruction &I, unsigned AS,
                                uint64_t Addr, unsigned Lane, unsigned Size,
                                unsigned Align, bool Write, uint64_t &Off) {
  MemSpace S = TM->memSpace(AS);
  if (Align > 1 && (Addr & (Align - 1))) {
    failAt(I, "misaligned access (address 0x" + utohexstr(Addr) +
                  ", alignment " + Twine(Align) + ") in lane " + Twine(Lane));
    return nullptr;
  }
  Region *R = nullptr;
  AddressMap::Where Wh;
  Wh.Off = Addr, Wh.Lane = Lane;
  if (S == MemSpace::Local)
    Wh.K = AddressMap::Kind::Local;
  else if (S == MemSpace::Private)
    Wh.K = AddressMap::Kind::Private;
  else if (S == MemSpace::Flat)
    Wh = Map.decodeFlat(Addr, Lane);
  else
    Wh = Map.decodeGlobal(Addr);
  Off = Wh.Off;
  StringRef What;
  switch (Wh.K) {
  case AddressMap::Kind::BadTag:
    failAt(I, "flat address 0x" + utohexstr(Addr) +
                  " is in no aperture (lane " + Twine(Lane) + ")");
    return nullptr;
  case AddressMap::Kind::Null:
  case AddressMap::Kind::Nowhere:
    failAt(I, (Wh.K == AddressMap::Kind::Null
                   ? Twine("null pointer dereference")
                   : "address 0x" + utohexstr(Addr) + " is in no allocation") +
                  " in lane " + Twine(Lane));
    return nullptr;
  case AddressMap::Kind::Local:
    R = &LDS;
    What = LDS.Name;
    break;
  case AddressMap::Kind::Private:
    Lane = Wh.Lane;
    if (Lane >= CurWave->Priv.size()) {
      failAt(I, "private address of a non-existent lane");
      return nullptr;
    }
    R = &CurWave->Priv[Lane];
    What = "private memory";
    if (Off + Size > CurWave->PrivTop[Lane] && Off + Size <= R->Bytes.size()) {
      failAt(I, "access to a dead stack frame (use after return) in lane " +
                    Twine(Lane));
      return nullptr;
    }
    break;
  case AddressMap::Kind::Global:
    R = &Globals[Wh.Index];
    What = R->Name;
    break;
  }
  if (Off + Size > R->Bytes.size()) {
    failAt(I, "out-of-bounds " + Twine(Write ? "store" : "load") + " of " +
                  Twine(Size) + " bytes at offset " + Twine(Off) + " of '" +
                  What + "' (size " + Twine(R->Bytes.size()) + ") in lane " +
                  Twine(Lane));
    return nullptr;
  }
  if (Write && R->ReadOnly) {
    failAt(I, "store to constant memory '" + What + "'");
    return nullptr;
  }
  if (!Write && R->Declared) {
    failAt(I, "load from '" + What +
                  "', a constant this module declares but does not define "
                  "(a device-library constant that was not linked?) in lane " +
                  Twine(Lane));
    return nullptr;
  }
  return R;
}

bool Executor::Impl::loadLane(OpCtx &C, unsigned AS, uint64_t Addr,
                              unsigned Lane, unsigned Size, uint64_t &V,
                              bool &Poison) {
  uint64_t Off;
  Region *R = resolve(C.inst(), AS, Addr, Lane, Size, 1, false, Off);
  if (!R)
    return false;
  V = 0;
  std::memcpy(&V, &R->Bytes[Off], Size);
  Poison = false;
  for (unsigned B = 0; B < Size; ++B)
    Poison |= !R->Init[Off + B];
  return true;
}

bool Executor::Impl::storeLane(OpCtx &C, unsigned AS, uint64_t Addr,
                               unsigned Lane, unsigned Size, uint64_t V) {
  uint64_t Off;
  Region *R = resolve(C.inst(), AS, Addr, Lane, Size, 1, true, Off);
  if (!R)
    return false;
  std::memcpy(&R->Bytes[Off], &V, Size);
  std::memset(&R->Init[Off], 1, Size);
  return true;
}

//===----------------------------------------------------------------------===//
// Loads, stores, atomics
//===----------------------------------------------------------------------===//

/// Byte offset and size of leaf \p L of a load or store.
static std::pair<unsigned, unsigned> leafMem(const DInst &D, unsigned L) {
  if (D.LeafMem.empty())
    return {L * D.EltSize, D.EltSize};
  return D.LeafMem[L];
}

bool Executor::Impl::execLoad(LaneCtx &C) {
  const DInst &D = C.I;
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  unsigned N = C.resLeaves();
  uint64_t PP = C.opPoison(0) & Exec;
  if (PP)
    return C.fail("load through a poison address in lane " +
                  Twine(llvm::countr_zero(PP)));
  SmallVector<uint64_t, 4> Pois(N, 0);
  bool Ok = true;
  forLanes(Exec, [&](unsigned Lane) {
    if (!Ok)
      return;
    uint64_t Addr = C.op(0, Lane), Off;
    unsigned Total = D.LeafMem.empty() ? D.EltSize * N : D.MemBytes;
    Region *R = resolve(I, D.AS, Addr, Lane, Total, D.Align, false, Off);
    if (!R) {
      Ok = false;
      return;
    }
    for (unsigned L = 0; L < N; ++L) {
      auto [LOff, LSize] = leafMem(D, L);
      uint64_t V = 0;
      std::memcpy(&V, &R->Bytes[Off + LOff], LSize);
      bool Po = false;
      for (unsigned B = 0; B < LSize; ++B)
        Po |= !R->Init[Off + LOff + B];
      Leaf LT = resLeaf(C, L);
      if (LT.K == LeafKind::Int)
        V &= maskBits(LT.Bits);
      C.res(Lane, L) = V;
      if (Po)
        Pois[L] |= 1ULL << Lane;
    }
  });
  if (!Ok)
    return false;
  for (unsigned L = 0; L < N; ++L)
    C.setPoison(Pois[L], L);
  return true;
}

bool Executor::Impl::execStore(LaneCtx &C) {
  const DInst &D = C.I;
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  unsigned N = C.opSlot(0).N;
  uint64_t PA = C.opPoison(1) & Exec;
  if (PA)
    return C.fail("store through a poison address in lane " +
                  Twine(llvm::countr_zero(PA)));
  // A poison scalar or vector element stored is reported (it is almost
  // always a bug), except into a lane's private memory: clang copies a
  // struct through its stack slots with its padding, which no one wrote.
  // An aggregate's poison fields (a struct built with insertvalue from
  // poison) and such private bytes are left uninitialised instead.
  // So are the elements a shufflevector takes from an undefined constant:
  // clang stores an OpenCL float3 as 4 elements, the fourth one padding.
  const auto *Pad =
      dyn_cast<ShuffleVectorInst>(cast<StoreInst>(I).getValueOperand());
  auto Padding = [&](unsigned L) {
    int M = Pad ? Pad->getMaskValue(L) : 0;
    if (!Pad || M == PoisonMaskElem)
      return Pad != nullptr;
    unsigned Src =
        cast<FixedVectorType>(Pad->getOperand(0)->getType())->getNumElements();
    const auto *K = dyn_cast<Constant>(Pad->getOperand(unsigned(M) / Src));
    const Constant *E = K ? K->getAggregateElement(unsigned(M) % Src) : nullptr;
    return E && isa<UndefValue>(E);
  };
  uint64_t PoisonLanes = 0;
  unsigned PoisonLeaf = 0;
  if (D.LeafMem.empty())
    for (unsigned L = 0; L < N && !PoisonLanes; ++L)
      if (!Padding(L) && (PoisonLanes = C.opPoison(0, L) & Exec))
        PoisonLeaf = L;
  bool Ok = true;
  forLanes(Exec, [&](unsigned Lane) {
    if (!Ok)
      return;
    uint64_t Addr = C.op(1, Lane), Off;
    unsigned Total = D.LeafMem.empty() ? D.EltSize * N : D.MemBytes;
    Region *R = resolve(I, D.AS, Addr, Lane, Total, D.Align, true, Off);
    if (!R) {
      Ok = false;
      return;
    }
    if (((PoisonLanes >> Lane) & 1) && !R->Private) {
      Ok = C.fail("poison stored (lane " + Twine(Lane) +
                  (N > 1 ? ", element " + Twine(PoisonLeaf) : Twine("")) + ")");
      return;
    }
    for (unsigned L = 0; L < N; ++L) {
      auto [LOff, LSize] = leafMem(D, L);
      uint64_t V = C.op(0, Lane, L);
      bool Po = (C.opPoison(0, L) >> Lane) & 1;
      std::memcpy(&R->Bytes[Off + LOff], &V, LSize);
      std::memset(&R->Init[Off + LOff], Po ? 0 : 1, LSize);
    }
  });
  return Ok;
}

uint64_t atomicRMWValue(AtomicRMWInst::BinOp Op, Leaf LT, unsigned Bits,
                        uint64_t Old, uint64_t V, bool &Known) {
  uint64_t New = Old;
  uint64_t M = maskBits(Bits);
  switch (Op) {
  case AtomicRMWInst::Xchg:
    New = V;
    break;
  case AtomicRMWInst::Add:
    New = (Old + V) & M;
    break;
  case AtomicRMWInst::Sub:
    New = (Old - V) & M;
    break;
  case AtomicRMWInst::And:
    New = Old & V;
    break;
  case AtomicRMWInst::Nand:
    New = ~(Old & V) & M;
    break;
  case AtomicRMWInst::Or:
    New = Old | V;
    break;
  case AtomicRMWInst::Xor:
    New = Old ^ V;
    break;
  case AtomicRMWInst::Max:
    New = sext(Old, Bits) >= sext(V, Bits) ? Old : V;
    break;
  case AtomicRMWInst::Min:
    New = sext(Old, Bits) <= sext(V, Bits) ? Old : V;
    break;
  case AtomicRMWInst::UMax:
    New = Old >= V ? Old : V;
    break;
  case AtomicRMWInst::UMin:
    New = Old <= V ? Old : V;
    break;
  case AtomicRMWInst::FAdd:
    New = fpBinary(
        LT, Old, V, [](float X, float Y) { return X + Y; },
        [](double X, double Y) { return X + Y; });
    break;
  case AtomicRMWInst::FSub:
    New = fpBinary(
        LT, Old, V, [](float X, float Y) { return X - Y; },
        [](double X, double Y) { return X - Y; });
    break;
  case AtomicRMWInst::FMax:
    New = fMinMaxNum(LT, Old, V, true);
    break;
  case AtomicRMWInst::FMin:
    New = fMinMaxNum(LT, Old, V, false);
    break;
  case AtomicRMWInst::FMaximum:
    New = fMinMaxIEEE(LT, Old, V, true);
    break;
  case AtomicRMWInst::FMinimum:
    New = fMinMaxIEEE(LT, Old, V, false);
    break;
  case AtomicRMWInst::UIncWrap:
    New = Old >= V ? 0 : Old + 1;
    break;
  case AtomicRMWInst::UDecWrap:
    New = (Old == 0 || Old > V) ? V : Old - 1;
    break;
  case AtomicRMWInst::USubCond:
    New = Old >= V ? Old - V : Old;
    break;
  case AtomicRMWInst::USubSat:
    New = Old >= V ? Old - V : 0;
    break;
  default:
    Known = false;
    break;
  }
  return New;
}

bool Executor::Impl::execAtomic(LaneCtx &C) {
  const DInst &D = C.I;
  const Instruction &I = C.inst();
  uint64_t Exec = C.Exec;
  bool IsCX = D.Opc == Instruction::AtomicCmpXchg;
  unsigned PtrOp = 0;
  if (uint64_t PA = C.opPoison(PtrOp) & Exec)
    return C.fail("atomic through a poison address in lane " +
                  Twine(llvm::countr_zero(PA)));
  for (unsigned K = 1; K < C.numOps(); ++K)
    if (uint64_t PV = C.opPoison(K) & Exec)
      return C.fail("poison operand of an atomic in lane " +
                    Twine(llvm::countr_zero(PV)));
  Leaf LT = IsCX ? opLeaf(C, 1, 0) : resLeaf(C, 0);
  unsigned Bits = leafBits(LT);
  auto Op = IsCX ? AtomicRMWInst::Xchg : cast<AtomicRMWInst>(I).getOperation();
  bool Ok = true;
  // Lanes perform their atomics one after another in lane order.
  forLanes(Exec, [&](unsigned Lane) {
    if (!Ok)
      return;
    uint64_t Addr = C.op(0, Lane), Off;
    Region *R = resolve(I, D.AS, Addr, Lane, D.EltSize, D.Align, true, Off);
    if (!R) {
      Ok = false;
      return;
    }
    uint64_t Old = 0;
    std::memcpy(&Old, &R->Bytes[Off], D.EltSize);
    bool WasInit = true;
    for (unsigned B = 0; B < D.EltSize; ++B)
      WasInit &= R->Init[Off + B];
    if (!WasInit) {
      Ok = failAt(I, "atomic on uninitialised memory in lane " + Twine(Lane));
      return;
    }
    uint64_t V = C.op(1, Lane), New = Old;
    if (IsCX) {
      bool Eq = Old == V;
      if (Eq)
        New = C.op(2, Lane);
      C.res(Lane, 0) = Old;
      C.res(Lane, 1) = Eq;
    } else {
      bool Known = true;
      New = atomicRMWValue(Op, LT, Bits, Old, V, Known);
      if (!Known) {
        Ok = failAt(I, "unsupported atomicrmw operation");
        return;
      }
      C.res(Lane) = Old;
    }
    std::memcpy(&R->Bytes[Off], &New, D.EltSize);
  });
  if (!Ok)
    return false;
  for (unsigned L = 0, N = C.resLeaves(); L < N; ++L)
    C.setPoison(0, L);
  return true;
}

//===----------------------------------------------------------------------===//
// Memory intrinsics
//===----------------------------------------------------------------------===//

bool Executor::Impl::execMemIntrinsic(LaneCtx &C, bool &Handled) {
  const DInst &D = C.I;
  switch (D.IID) {
  case Intrinsic::memcpy:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memset_inline:
    break;
  default:
    Handled = false;
    return true;
  }
  bool IsSet = D.IID == Intrinsic::memset || D.IID == Intrinsic::memset_inline;
  unsigned DstAS = C.opType(0)->getPointerAddressSpace();
  unsigned SrcAS = IsSet ? 0 : C.opType(1)->getPointerAddressSpace();
  for (unsigned K = 0; K < 3; ++K)
    if (uint64_t P = C.opPoison(K) & C.Exec)
      return C.fail("poison operand " + Twine(K) +
                    " of a memory intrinsic "
                    "in lane " +
                    Twine(llvm::countr_zero(P)));
  bool Ok = true;
  forLanes(C.Exec, [&](unsigned Lane) {
    if (!Ok)
      return;
    uint64_t Dst = C.op(0, Lane), Len = C.op(2, Lane);
    std::vector<uint8_t> Tmp(Len), Init(Len, 1);
    if (Len == 0)
      return;
    if (IsSet) {
      std::fill(Tmp.begin(), Tmp.end(), (uint8_t)C.op(1, Lane));
    } else {
      uint64_t Off;
      Region *R =
          resolve(C.inst(), SrcAS, C.op(1, Lane), Lane, Len, 1, false, Off);
      if (!R) {
        Ok = false;
        return;
      }
      std::memcpy(Tmp.data(), &R->Bytes[Off], Len);
      std::memcpy(Init.data(), &R->Init[Off], Len);
    }
    uint64_t Off;
    Region *R = resolve(C.inst(), DstAS, Dst, Lane, Len, 1, true, Off);
    if (!R) {
      Ok = false;
      return;
    }
    std::memcpy(&R->Bytes[Off], Tmp.data(), Len);
    std::memcpy(&R->Init[Off], Init.data(), Len);
  });
  return Ok;
}

} // namespace exec
} // namespace crosslane
