//===- Values.cpp - Leaves of types, constants and value slots ------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How the engine holds values: the scalar leaves a type flattens to, the
/// leaves and poison of constants (including the constant expressions that
/// reach the engine), and the frame slots that values and pre-filled
/// constants occupy.
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"
#include "LeafOps.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crosslane {
namespace exec {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool Executor::Impl::flatten(Type *T, SmallVectorImpl<Leaf> &Out,
                             std::string &Why) {
  Leaf L;
  if (auto *IT = dyn_cast<IntegerType>(T)) {
    if (IT->getBitWidth() > 128) {
      Why = "integer type wider than 128 bits";
      return false;
    }
    L.K = LeafKind::Int;
    if (IT->getBitWidth() > 64) {
      // Two leaves, low 64 bits first (see execWide).
      L.Bits = 64;
      Out.push_back(L);
      L.Bits = IT->getBitWidth() - 64;
      Out.push_back(L);
      return true;
    }
    L.Bits = IT->getBitWidth();
  } else if (T->isHalfTy() || T->isBFloatTy() || T->isFloatTy() ||
             T->isDoubleTy() || T->isPointerTy()) {
    L = scalarLeaf(T, T->isPointerTy()
                          ? DL.getPointerSizeInBits(T->getPointerAddressSpace())
                          : 0);
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      if (!flatten(VT->getElementType(), Out, Why))
        return false;
    return true;
  } else if (auto *ST = dyn_cast<StructType>(T)) {
    for (Type *E : ST->elements())
      if (!flatten(E, Out, Why))
        return false;
    return true;
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    if (AT->getNumElements() > 256) {
      Why = "array value too large";
      return false;
    }
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      if (!flatten(AT->getElementType(), Out, Why))
        return false;
    return true;
  } else {
    Why = "unsupported type " + typeName(T);
    return false;
  }
  Out.push_back(L);
  return true;
}

unsigned Executor::Impl::countLeaves(Type *T) {
  SmallVector<Leaf, 8> L;
  std::string Why;
  flatten(T, L, Why);
  return L.size();
}

unsigned Executor::Impl::leafOffset(Type *T, ArrayRef<unsigned> Indices) {
  unsigned Off = 0;
  for (unsigned Idx : Indices) {
    auto Elt = [&](unsigned J) {
      return T->isStructTy() ? T->getStructElementType(J)
                             : T->getArrayElementType();
    };
    for (unsigned J = 0; J < Idx; ++J)
      Off += countLeaves(Elt(J));
    T = Elt(Idx);
  }
  return Off;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// Sets \p Why to say that constant \p C is not modelled; returns false.
static bool unsupportedConstant(const Constant *C, std::string &Why) {
  std::string S;
  raw_string_ostream OS(S);
  C->print(OS);
  Why = "unsupported constant " + OS.str();
  return false;
}

bool Executor::Impl::evalConst(const Constant *C, SmallVectorImpl<uint64_t> &V,
                               SmallVectorImpl<bool> &P, std::string &Why) {
  Type *T = C->getType();
  if (isa<UndefValue>(C)) { // undef and poison
    unsigned N = countLeaves(T);
    V.append(N, 0);
    P.append(N, true);
    return true;
  }
  if (auto *CI = dyn_cast<ConstantInt>(C)) {
    const APInt &A = CI->getValue();
    if (A.getBitWidth() > 128) {
      Why = "integer constant wider than 128 bits";
      return false;
    }
    V.push_back(A.extractBitsAsZExtValue(std::min(64u, A.getBitWidth()), 0));
    P.push_back(false);
    if (A.getBitWidth() > 64) {
      V.push_back(A.extractBitsAsZExtValue(A.getBitWidth() - 64, 64));
      P.push_back(false);
    }
    return true;
  }
  if (auto *CF = dyn_cast<ConstantFP>(C)) {
    V.push_back(CF->getValueAPF().bitcastToAPInt().getZExtValue());
    P.push_back(false);
    return true;
  }
  if (isa<ConstantPointerNull>(C) || isa<ConstantAggregateZero>(C)) {
    unsigned N = countLeaves(T);
    V.append(N, 0);
    P.append(N, false);
    return true;
  }
  if (auto *CDS = dyn_cast<ConstantDataSequential>(C)) {
    for (unsigned I = 0; I < CDS->getNumElements(); ++I)
      if (!evalConst(CDS->getElementAsConstant(I), V, P, Why))
        return false;
    return true;
  }
  if (isa<ConstantAggregate>(C)) {
    for (const Use &U : C->operands())
      if (!evalConst(cast<Constant>(U.get()), V, P, Why))
        return false;
    return true;
  }
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    unsigned AS = GV->getAddressSpace();
    if (TM->memSpace(AS) == MemSpace::Local) {
      auto It = LDSOffset.find(GV);
      if (It == LDSOffset.end()) {
        Why = "LDS variable without layout";
        return false;
      }
      V.push_back(It->second);
    } else {
      auto It = GlobalAddr.find(GV);
      if (It == GlobalAddr.end()) {
        Why = ("global '" + GV->getName() + "' has no storage").str();
        return false;
      }
      V.push_back(It->second);
    }
    P.push_back(false);
    return true;
  }
  if (auto *Fn = dyn_cast<Function>(C)) {
    // Function addresses get a tag outside every aperture: passing them
    // to builtins works, dereferencing or calling them is an error.
    uint64_t Idx = 0;
    for (const Function &G : M) {
      if (&G == Fn)
        break;
      ++Idx;
    }
    V.push_back((0xFFFFULL << 48) | Idx);
    P.push_back(false);
    return true;
  }
  if (auto *CE = dyn_cast<ConstantExpr>(C))
    return evalConstExpr(CE, V, P, Why);
  return unsupportedConstant(C, Why);
}

/// Constant expressions: what LLVM's folder reduces to plain constants,
/// GEPs with constant offsets, pointer casts, and integer arithmetic on
/// addresses.
bool Executor::Impl::evalConstExpr(const ConstantExpr *CE,
                                   SmallVectorImpl<uint64_t> &V,
                                   SmallVectorImpl<bool> &P, std::string &Why) {
  Type *T = CE->getType();
  // What LLVM's DataLayout-aware folder reduces to plain constants, e.g.
  // `extractelement (bitcast <1 x double> splat (...) to <2 x i32>), 0`,
  // which IRBuilder's folder leaves behind.
  Constant *Folded = ConstantFoldConstant(CE, DL);
  if (Folded && Folded != CE && !isa<ConstantExpr>(Folded))
    return evalConst(Folded, V, P, Why);
  if (auto *GEP = dyn_cast<GEPOperator>(CE)) {
    SmallVector<uint64_t, 1> BV;
    SmallVector<bool, 1> BP;
    if (!evalConst(cast<Constant>(GEP->getPointerOperand()), BV, BP, Why))
      return false;
    APInt Off(64, 0);
    if (!GEP->accumulateConstantOffset(DL, Off)) {
      Why = "non-constant GEP expression";
      return false;
    }
    V.push_back(BV[0] + Off.getSExtValue());
    P.push_back(BP[0]);
    return true;
  }
  switch (CE->getOpcode()) {
  case Instruction::AddrSpaceCast:
  case Instruction::BitCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr: {
    if (T->isVectorTy())
      break;
    SmallVector<uint64_t, 1> BV;
    SmallVector<bool, 1> BP;
    if (!evalConst(CE->getOperand(0), BV, BP, Why))
      return false;
    uint64_t X = BV[0];
    if (CE->getOpcode() == Instruction::AddrSpaceCast)
      X = castAddr(CE->getOperand(0)->getType()->getPointerAddressSpace(),
                   T->getPointerAddressSpace(), X, 0);
    unsigned Bits = T->isPointerTy()
                        ? DL.getPointerSizeInBits(T->getPointerAddressSpace())
                        : T->getScalarSizeInBits();
    V.push_back(X & maskBits(Bits));
    P.push_back(BP[0]);
    return true;
  }
  // Integer arithmetic on addresses, e.g. a string's length as the
  // difference of two ptrtoints (ROCm's assert and printf).
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::Xor: {
    if (!T->isIntegerTy() || T->getIntegerBitWidth() > 64)
      break;
    SmallVector<uint64_t, 2> OV;
    SmallVector<bool, 2> OP;
    if (!evalConst(CE->getOperand(0), OV, OP, Why) ||
        !evalConst(CE->getOperand(1), OV, OP, Why))
      return false;
    // LLVM's folder on the operands' values.
    auto *R = dyn_cast_or_null<ConstantInt>(ConstantFoldBinaryOpOperands(
        CE->getOpcode(), ConstantInt::get(T, OV[0]), ConstantInt::get(T, OV[1]),
        DL));
    if (!R)
      break;
    uint64_t RV = R->getZExtValue();
    V.push_back(RV);
    P.push_back(OP[0] || OP[1]);
    return true;
  }
  default:
    break;
  }
  return unsupportedConstant(CE, Why);
}

//===----------------------------------------------------------------------===//
// Slots
//===----------------------------------------------------------------------===//

int32_t Executor::Impl::newSlot(DecodedFunc &DF, Type *T, std::string &Why) {
  SmallVector<Leaf, 4> L;
  if (!flatten(T, L, Why))
    return -1;
  SlotInfo S;
  S.Data = DF.DataSize;
  S.Pois = DF.PoisSize;
  S.N = L.size();
  S.LeafBegin = DF.Leaves.size();
  DF.Leaves.insert(DF.Leaves.end(), L.begin(), L.end());
  DF.DataSize += S.N * W;
  DF.PoisSize += S.N;
  DF.Slots.push_back(S);
  return DF.Slots.size() - 1;
}

int32_t Executor::Impl::slotFor(DecodedFunc &DF, const Value *V,
                                DenseMap<const Value *, int32_t> &SlotOf,
                                std::string &Why) {
  auto It = SlotOf.find(V);
  if (It != SlotOf.end())
    return It->second;
  auto *C = dyn_cast<Constant>(V);
  if (!C) {
    if (isa<MetadataAsValue>(V) || isa<InlineAsm>(V) || isa<BasicBlock>(V))
      return -2; // not a value operand
    Why = "operand without a slot";
    return -1;
  }
  int32_t S = newSlot(DF, C->getType(), Why);
  if (S < 0)
    return -1;
  SmallVector<uint64_t, 4> Vals;
  SmallVector<bool, 4> Ps;
  if (!evalConst(C, Vals, Ps, Why))
    return -1;
  SlotInfo &SI = DF.Slots[S];
  SI.Uniform = true;
  DF.InitD.resize(DF.DataSize, 0);
  DF.InitP.resize(DF.PoisSize, 0);
  for (unsigned L = 0; L < SI.N; ++L) {
    for (unsigned Lane = 0; Lane < W; ++Lane)
      DF.InitD[SI.Data + L * W + Lane] = Vals[L];
    DF.InitP[SI.Pois + L] = Ps[L] ? ~0ULL : 0;
  }
  SlotOf[V] = S;
  return S;
}

} // namespace exec
} // namespace crosslane
