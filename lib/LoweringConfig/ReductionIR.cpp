//===- ReductionIR.cpp - Combiner IR of generated reduction kernels -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ReductionIR.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crosslane {
namespace lc {

CombineOps::CombineOps(const ReductionSpec &S, LLVMContext &Ctx, IRBuilder<> &B)
    : ElemTy(subgroup::getLLVMType(S.Elem, Ctx)),
      AccTy(subgroup::getLLVMType(S.Acc, Ctx)),
      IdxTy(subgroup::getLLVMType(S.Index, Ctx)), S(S), B(B),
      Arg(lc::isArg(S.Op)), Float(subgroup::isFloat(S.Acc)) {}

namespace {

Constant *canonicalNaN(Type *T) {
  return ConstantFP::get(T, APFloat::getQNaN(T->getFltSemantics()));
}

Constant *infinity(Type *T, bool Negative) {
  return ConstantFP::get(T, APFloat::getInf(T->getFltSemantics(), Negative));
}

} // namespace

Value *CombineOps::identity() {
  bool NaNWins = S.ArgPolicy & subgroup::PolicyNaNWins;
  unsigned Bits = AccTy->getScalarSizeInBits();
  switch (S.Op) {
  case Combiner::Add:
    return Float ? ConstantFP::getNegativeZero(AccTy)
                 : ConstantInt::get(AccTy, 0);
  case Combiner::Mul:
    return Float ? ConstantFP::get(AccTy, 1.0) : ConstantInt::get(AccTy, 1);
  case Combiner::Min:
    // minimumNumber ignores a NaN accumulator: an all-NaN input stays NaN.
    return Float ? canonicalNaN(AccTy)
                 : ConstantInt::get(AccTy, APInt::getSignedMaxValue(Bits));
  case Combiner::Max:
    return Float ? canonicalNaN(AccTy)
                 : ConstantInt::get(AccTy, APInt::getSignedMinValue(Bits));
  case Combiner::UMin:
  case Combiner::And:
    return ConstantInt::get(AccTy, APInt::getAllOnes(Bits));
  case Combiner::UMax:
  case Combiner::Or:
  case Combiner::Xor:
    return ConstantInt::get(AccTy, 0);
  case Combiner::Minimum:
    return infinity(AccTy, false);
  case Combiner::Maximum:
    return infinity(AccTy, true);
  case Combiner::ArgMax:
    if (!Float)
      return ConstantInt::get(AccTy, APInt::getSignedMinValue(Bits));
    return NaNWins ? infinity(AccTy, true) : canonicalNaN(AccTy);
  case Combiner::ArgMin:
    if (!Float)
      return ConstantInt::get(AccTy, APInt::getSignedMaxValue(Bits));
    return NaNWins ? infinity(AccTy, false) : canonicalNaN(AccTy);
  }
  return nullptr;
}

/// The largest index: loses every tie (indices compare signed, as
/// __crosslane_argmax does).
Value *CombineOps::identityIndex() {
  return ConstantInt::get(
      IdxTy, APInt::getSignedMaxValue(IdxTy->getScalarSizeInBits()));
}

Value *CombineOps::load(Value *Ptr, unsigned Width, const DimPlan &Last) {
  unsigned Size = ElemTy->getPrimitiveSizeInBits() / 8;
  if (Width == 1)
    return B.CreateAlignedLoad(ElemTy, Ptr, Align(Size));
  // Every vector starts at a multiple of Width elements (the chunk and the
  // row length are multiples of the thread tile); buffers are 16-byte
  // aligned.
  uint64_t Bytes = uint64_t(Width) * Size;
  Align A(std::min<uint64_t>(16, Bytes & -Bytes));
  (void)Last;
  return B.CreateAlignedLoad(FixedVectorType::get(ElemTy, Width), Ptr, A);
}

Value *CombineOps::convert(Value *X) {
  if (X->getType() == AccTy)
    return X;
  if (Float)
    return B.CreateFPExt(X, AccTy);
  bool Unsigned = S.Op == Combiner::UMin || S.Op == Combiner::UMax ||
                  S.Op == Combiner::And || S.Op == Combiner::Or ||
                  S.Op == Combiner::Xor;
  return Unsigned ? B.CreateZExt(X, AccTy) : B.CreateSExt(X, AccTy);
}

Value *CombineOps::apply(Value *A, Value *X) {
  auto Bin = [&](Intrinsic::ID ID) {
    return B.CreateBinaryIntrinsic(ID, A, X);
  };
  switch (S.Op) {
  case Combiner::Add:
    return Float ? B.CreateFAdd(A, X) : B.CreateAdd(A, X);
  case Combiner::Mul:
    return Float ? B.CreateFMul(A, X) : B.CreateMul(A, X);
  case Combiner::Min:
    return Bin(Float ? Intrinsic::minimumnum : Intrinsic::smin);
  case Combiner::Max:
    return Bin(Float ? Intrinsic::maximumnum : Intrinsic::smax);
  case Combiner::UMin:
    return Bin(Intrinsic::umin);
  case Combiner::UMax:
    return Bin(Intrinsic::umax);
  case Combiner::Minimum:
    return Bin(Intrinsic::minimum);
  case Combiner::Maximum:
    return Bin(Intrinsic::maximum);
  case Combiner::And:
    return B.CreateAnd(A, X);
  case Combiner::Or:
    return B.CreateOr(A, X);
  case Combiner::Xor:
    return B.CreateXor(A, X);
  case Combiner::ArgMax:
  case Combiner::ArgMin:
    break;
  }
  return nullptr;
}

/// True when (X, XI) beats (A, AI): the value order of the combiner (-0 <
/// +0 unless zeros-equal; NaN above everything with nan-wins, below with
/// NaN ignored), then the smaller index (signed, as __crosslane_argmax).
/// Float compares do most of it, as hand-written argmax code does.
Value *CombineOps::better(Value *A, Value *AI, Value *X, Value *XI) {
  bool Max = S.Op == Combiner::ArgMax;
  Value *IdxLess = B.CreateICmpSLT(XI, AI);
  if (!Float) {
    Value *Strict = Max ? B.CreateICmpSGT(X, A) : B.CreateICmpSLT(X, A);
    return B.CreateOr(Strict, B.CreateAnd(B.CreateICmpEQ(X, A), IdxLess));
  }
  Value *Gt = Max ? B.CreateFCmpOGT(X, A) : B.CreateFCmpOLT(X, A);
  Value *Eq;
  if (S.ArgPolicy & subgroup::PolicyZerosEqual) {
    Eq = B.CreateFCmpOEQ(X, A);
  } else {
    // -0 < +0: equal values have equal bits, and the zeros order by sign.
    unsigned Bits = AccTy->getScalarSizeInBits();
    Type *IntTy = B.getIntNTy(Bits);
    Value *BX = B.CreateBitCast(X, IntTy), *BA = B.CreateBitCast(A, IntTy);
    Eq = B.CreateICmpEQ(BX, BA);
    Constant *Pos = ConstantInt::get(IntTy, 0);
    Constant *Neg = ConstantInt::get(IntTy, APInt::getSignMask(Bits));
    Value *ZeroWin = B.CreateAnd(B.CreateICmpEQ(BX, Max ? Pos : Neg),
                                 B.CreateICmpEQ(BA, Max ? Neg : Pos));
    Gt = B.CreateOr(Gt, ZeroWin);
  }
  Value *XN = B.CreateFCmpUNO(X, X), *AN = B.CreateFCmpUNO(A, A);
  bool Wins = S.ArgPolicy & subgroup::PolicyNaNWins;
  Value *Strict = Wins ? B.CreateOr(Gt, B.CreateAnd(XN, B.CreateNot(AN)))
                       : B.CreateOr(Gt, B.CreateAnd(AN, B.CreateNot(XN)));
  Value *Tie = B.CreateAnd(B.CreateOr(Eq, B.CreateAnd(XN, AN)), IdxLess);
  return B.CreateOr(Strict, Tie);
}

void CombineOps::combine(Value *&A, Value *&AI, Value *X, Value *XI,
                         Value *Ok) {
  X = convert(X);
  if (!Arg) {
    if (Ok)
      X = B.CreateSelect(Ok, X, identity());
    A = apply(A, X);
    return;
  }
  Value *Take = better(A, AI, X, XI);
  if (Ok)
    Take = B.CreateAnd(Ok, Take);
  A = B.CreateSelect(Take, X, A);
  AI = B.CreateSelect(Take, XI, AI);
}

void CombineOps::combinePartial(Value *&A, Value *&AI, Value *X, Value *XI) {
  if (!Arg) {
    A = apply(A, X);
    return;
  }
  Value *Take = better(A, AI, X, XI);
  A = B.CreateSelect(Take, X, A);
  AI = B.CreateSelect(Take, XI, AI);
}

void CombineOps::subgroupReduce(Module &M, Value *&A, Value *&AI,
                                unsigned ClusterSize, unsigned ClusterStride) {
  subgroup::OpName N;
  N.Ty = S.Acc;
  N.IndexTy = S.Index;
  Type *I32 = B.getInt32Ty();
  SmallVector<Value *, 5> Args = {A};
  SmallVector<Type *, 5> Params = {AccTy};
  Type *Ret = AccTy;
  if (Arg) {
    N.IsArg = true;
    N.Kind = S.Op == Combiner::ArgMax ? subgroup::ArgKind::ArgMax
                                      : subgroup::ArgKind::ArgMin;
    Args.push_back(AI);
    Params.push_back(IdxTy);
    Ret = StructType::get(AccTy, IdxTy);
  } else {
    N.Op = S.reduceOp();
  }
  Args.push_back(B.getInt32(ClusterSize));
  Args.push_back(B.getInt32(ClusterStride));
  Params.append({I32, I32});
  if (Arg) {
    Args.push_back(B.getInt32(S.ArgPolicy));
    Params.push_back(I32);
  }
  FunctionCallee Fn =
      M.getOrInsertFunction(N.str(), FunctionType::get(Ret, Params, false));
  if (auto *Decl = dyn_cast<Function>(Fn.getCallee())) {
    Decl->addFnAttr(Attribute::Convergent);
    Decl->addFnAttr(Attribute::NoUnwind);
    Decl->addFnAttr(Attribute::WillReturn);
    Decl->setDoesNotAccessMemory();
  }
  CallInst *C = B.CreateCall(Fn, Args);
  C->setConvergent();
  if (!Arg) {
    A = C;
    return;
  }
  A = B.CreateExtractValue(C, 0);
  AI = B.CreateExtractValue(C, 1);
}

Value *CombineOps::finalValue(Value *A) {
  if (!Arg || !Float)
    return A;
  return B.CreateSelect(B.CreateFCmpUNO(A, A), canonicalNaN(AccTy), A);
}

} // namespace lc
} // namespace crosslane
