//===- ExternalFunctions.cpp - Calls, builtins, printf, assert ------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls: intrinsics (generic, then the target's), defined functions (a new
/// frame under the caller's exec mask), bodiless functions the target knows
/// (ockl helpers), registered builtins (marshalled lane by lane), and the
/// scalar calls builtins make back into the module. ROCm's printf protocol
/// (__ockl_[f]printf_*) is formatted on the host, and __assert_fail is
/// reported as a failed device assertion.
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

#include <cstdio>
#include <cstring>

using namespace llvm;

namespace crosslane {
namespace exec {

//===----------------------------------------------------------------------===//
// Device strings, printf and assert
//===----------------------------------------------------------------------===//

bool Executor::Impl::readBytes(LaneCtx &C, uint64_t Addr, unsigned Lane,
                               uint64_t Limit, std::string &S, bool &Poisoned) {
  Poisoned = false;
  for (uint64_t K = 0; K < Limit; ++K) {
    uint64_t V;
    if (!loadLane(C, 0, Addr + K, Lane, 1, V, Poisoned))
      return false;
    if (Poisoned || !V)
      break;
    S += char(V);
  }
  return true;
}

/// A C string of at most 200 bytes for a message: what could be read

std::string Executor::Impl::readCString(LaneCtx &C, uint64_t Addr,
                                        unsigned Lane) {
  std::string S;
  bool Po;
  if (!readBytes(C, Addr, Lane, 200, S, Po) || Po) {
    Err.clear();
    return S.empty() ? "?" : S;
  }
  return S;
}

std::string Executor::Impl::formatPrintf(const PrintfCall &P) {
  if (P.Items.empty() || !P.Items[0].first)
    return "";
  const std::string &Fmt = P.Strings[P.Items[0].second];
  std::string Out;
  size_t Next = 1;
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt[I] != '%') {
      Out += Fmt[I];
      continue;
    }
    size_t J = I + 1;
    while (J < Fmt.size() && strchr("-+ #0123456789.*hlLjzt", Fmt[J]))
      ++J;
    if (J >= Fmt.size())
      break;
    char Conv = Fmt[J];
    if (Conv == '%') {
      Out += '%';
      I = J;
      continue;
    }
    // The spec without length modifiers, re-targeted at 64-bit values.
    std::string Spec;
    for (size_t K = I; K < J; ++K)
      if (!strchr("hlLjzt", Fmt[K]))
        Spec += Fmt[K];
    char Buf[512];
    if (Next >= P.Items.size()) {
      Out += "(missing)";
    } else if (Conv == 's') {
      auto [IsStr, V] = P.Items[Next++];
      std::snprintf(Buf, sizeof Buf, (Spec + "s").c_str(),
                    IsStr ? P.Strings[V].c_str() : "(null)");
      Out += Buf;
    } else {
      uint64_t V = P.Items[Next++].second;
      if (strchr("fFeEgGaA", Conv)) {
        double Dv;
        std::memcpy(&Dv, &V, 8);
        std::snprintf(Buf, sizeof Buf, (Spec + Conv).c_str(), Dv);
      } else if (strchr("di", Conv)) {
        std::snprintf(Buf, sizeof Buf, (Spec + "lld").c_str(), (long long)V);
      } else if (Conv == 'c') {
        std::snprintf(Buf, sizeof Buf, (Spec + "c").c_str(), int(V & 0xFF));
      } else if (Conv == 'p') {
        std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)V);
      } else {
        std::snprintf(Buf, sizeof Buf, (Spec + "ll" + Conv).c_str(),
                      (unsigned long long)V);
      }
      Out += Buf;
    }
    I = J;
  }
  return Out;
}

bool Executor::Impl::execPrintf(LaneCtx &C, unsigned Kind) {
  bool Ok = true;
  forLanes(C.Exec, [&](unsigned Lane) {
    if (!Ok)
      return;
    if (Kind == 1) {
      uint64_t Id = NextPrintf++;
      Printfs[Id].Stderr =
          cast<CallBase>(C.inst()).getCalledFunction()->getName().contains(
              "stderr");
      C.res(Lane) = Id;
      return;
    }
    uint64_t Id = C.op(0, Lane);
    auto It = Printfs.find(Id);
    if (It == Printfs.end()) {
      Ok = failAt(C.inst(), "printf descriptor not from a begin call");
      return;
    }
    PrintfCall &P = It->second;
    unsigned LastOp = Kind == 2 ? 3 : 9;
    if (Kind == 2) {
      uint64_t Ptr = C.op(1, Lane), Len = C.op(2, Lane);
      std::string S;
      bool Po;
      if (!Ptr)
        S = "(null)";
      else if (!readBytes(C, Ptr, Lane, std::min<uint64_t>(Len, 4096), S, Po)) {
        Ok = false;
        return;
      }
      P.Items.push_back({true, P.Strings.size()});
      P.Strings.push_back(std::move(S));
    } else {
      unsigned N = std::min<uint64_t>(C.op(1, Lane) & 0xFFFFFFFF, 7);
      for (unsigned K = 0; K < N; ++K)
        P.Items.push_back({false, C.op(2 + K, Lane)});
    }
    C.res(Lane) = Id;
    if (C.op(LastOp, Lane) & 1) {
      std::string Text = formatPrintf(P);
      std::fputs(Text.c_str(), P.Stderr ? stderr : stdout);
      Printfs.erase(It);
    }
  });
  if (Ok && C.I.Res >= 0)
    C.setPoison(0);
  return Ok;
}

bool Executor::Impl::failAssert(LaneCtx &C) {
  unsigned Lane = llvm::countr_zero(C.Exec);
  std::string Expr = readCString(C, C.op(0, Lane), Lane);
  std::string File = readCString(C, C.op(1, Lane), Lane);
  std::string Fn = readCString(C, C.op(3, Lane), Lane);
  return failAt(C.inst(), "device assertion failed in lane " + Twine(Lane) +
                              ": '" + Expr + "' (" + File + ":" +
                              Twine(C.op(2, Lane) & 0xFFFFFFFF) + ", in " + Fn +
                              ")");
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

namespace {
/// Adapter giving builtins the BuiltinContext interface.
class BuiltinCtxImpl : public BuiltinContext {
public:
  Executor::Impl &X;
  unsigned W;
  uint64_t Active;
  BuiltinCtxImpl(Executor::Impl &X, unsigned W, uint64_t A)
      : X(X), W(W), Active(A) {}
  unsigned waveSize() const override { return W; }
  uint64_t activeMask() const override { return Active; }
  Expected<uint64_t> callScalar(Function &F, ArrayRef<uint64_t> Args,
                                unsigned Lane) override {
    return X.callScalar(F, Args, Lane);
  }
};
} // namespace

bool Executor::Impl::execCall(Wave &Wv, Frame &F, const DInst &D, LaneCtx &C,
                              bool &Pushed) {
  Pushed = false;
  const auto &CB = cast<CallBase>(*D.I);
  if (D.IID) {
    bool Handled = false;
    Stats.LaneInstructions += llvm::popcount(C.Exec);
    ++Stats.WaveInstructions;
    if (!execGenericIntrinsic(C, Handled))
      return false;
    if (Handled)
      return true;
    int R = TM->execIntrinsic(C, D.IID);
    if (R < 0)
      return false;
    if (R > 0)
      return true;
    return C.fail("unsupported intrinsic '" +
                  CB.getCalledFunction()->getName() + "'");
  }
  if (D.Callee) {
    // Push a frame running the callee under the current exec mask.
    // Under LastActiveLane the whole wave enters the callee (its masked-off
    // lanes follow the warp's PC).
    Frame NF;
    initFrame(NF, D.Callee, LastLane ? F.Live : C.Exec, Wv);
    if (!Err.empty()) {
      Err += " at " + location(CB);
      return false;
    }
    for (unsigned K = 0; K < D.Ops.size(); ++K) {
      const SlotInfo &Dst = D.Callee->Slots[D.Callee->ArgSlots[K]];
      const SlotInfo &Src = F.DF->Slots[D.Ops[K]];
      for (unsigned L = 0; L < Dst.N; ++L) {
        for (unsigned Lane = 0; Lane < W; ++Lane)
          NF.D[Dst.Data + L * W + Lane] = F.D[Src.Data + L * W + Lane];
        NF.P[Dst.Pois + L] = C.opPoison(K, L);
      }
    }
    Wv.Frames.push_back(std::move(NF));
    Pushed = true;
    return true;
  }
  Stats.LaneInstructions += llvm::popcount(C.Exec);
  ++Stats.WaveInstructions;
  StringRef Name = CB.getCalledFunction()->getName();
  int R = TM->execExternal(C, Name);
  if (R < 0)
    return false;
  if (R > 0)
    return true;
  if (!D.Builtin)
    return C.fail("call to '" + Name +
                  "', which has no body and no registered builtin");
  // Registered builtin: marshal scalars.
  SmallVector<LaneScalars, 4> Args(D.Ops.size());
  for (unsigned K = 0; K < D.Ops.size(); ++K) {
    if (C.opSlot(K).N != 1)
      return C.fail("builtin '" + Name + "' takes a non-scalar argument");
    Args[K].Ty = C.opType(K);
    Args[K].Bits.resize(W);
    for (unsigned Lane = 0; Lane < W; ++Lane)
      Args[K].Bits[Lane] = C.op(K, Lane);
    Args[K].Poison = C.opPoison(K);
  }
  unsigned NRes = C.resLeaves();
  SmallVector<LaneScalars, 2> Res(NRes);
  Type *RT = CB.getType();
  for (unsigned L = 0; L < NRes; ++L) {
    // Literal structs give one leaf per element; clang coerces small
    // struct returns to arrays such as [2 x i32] (one leaf per element).
    Res[L].Ty = RT->isStructTy()  ? RT->getStructElementType(L)
                : RT->isArrayTy() ? RT->getArrayElementType()
                                  : RT;
    Res[L].Bits.assign(W, 0);
  }
  BuiltinCtxImpl BC(*this, W, C.Exec);
  if (Error E = (*D.Builtin)(BC, CB, Args, Res))
    return C.fail("builtin '" + Name + "': " + toString(std::move(E)));
  for (unsigned L = 0; L < NRes; ++L) {
    forLanes(C.Exec,
             [&](unsigned Lane) { C.res(Lane, L) = Res[L].Bits[Lane]; });
    C.setPoison(Res[L].Poison, L);
  }
  return true;
}

/// Runs \p F for one lane on a scratch wave (used by builtins for
/// user-supplied comparators).
Expected<uint64_t> Executor::Impl::callScalar(Function &F,
                                              ArrayRef<uint64_t> Args,
                                              unsigned Lane) {
  auto Fail = [&](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), Msg);
  };
  if (F.isDeclaration() || F.arg_size() != Args.size() ||
      F.getReturnType()->isVoidTy())
    return Fail("cannot call '" + F.getName() + "' as a scalar function");
  DecodedFunc *DF = decode(F);
  if (!DF)
    return Fail(Err);
  Wave Tmp;
  Tmp.Index = CurWave ? CurWave->Index : 0;
  Tmp.Priv.resize(W);
  for (Region &R : Tmp.Priv)
    R.Private = true;
  Tmp.PrivTop.assign(W, 0);
  Frame Fr;
  initFrame(Fr, DF, 1ULL << Lane, Tmp);
  for (unsigned K = 0; K < Args.size(); ++K) {
    const SlotInfo &S = DF->Slots[DF->ArgSlots[K]];
    if (S.N != 1)
      return Fail("'" + F.getName() + "' takes a non-scalar argument");
    Fr.D[S.Data + Lane] = Args[K];
    Fr.P[S.Pois] = 0;
  }
  Tmp.Frames.push_back(std::move(Fr));
  Wave *Saved = CurWave;
  bool Ok = runWave(Tmp);
  CurWave = Saved;
  if (!Ok)
    return Fail(Err);
  if (Tmp.AtBarrier)
    return Fail("'" + F.getName() + "' reached a barrier");
  if (Tmp.RetP.empty() || ((Tmp.RetP[0] >> Lane) & 1))
    return Fail("'" + F.getName() + "' returned poison");
  return Tmp.RetD[Lane];
}

} // namespace exec
} // namespace crosslane
