//===- Launch.cpp - Kernel launches and workgroups ------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Driving a launch: checking the launch shape, laying out globals,
/// buffers, the kernarg segment (with byref aggregates), the dispatch packet
/// and local memory, then running the grid's workgroups one after another.
/// The waves of a workgroup run cooperatively: each runs to its next
/// barrier, its end, or until it gives way; waves at a barrier pass it
/// together once no wave is running, and the critical path adds the
/// longest wave of each barrier phase.
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"
#include "LeafOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <chrono>
#include <cstring>
#include <tuple>

using namespace llvm;

namespace crosslane {
namespace exec {

//===----------------------------------------------------------------------===//
// Workgroups
//===----------------------------------------------------------------------===//

bool Executor::Impl::runWorkgroup(DecodedFunc *DK,
                                  const std::vector<uint64_t> &ArgBits) {
  unsigned Items = Cfg->Block[0] * Cfg->Block[1] * Cfg->Block[2];
  unsigned NW = (Items + W - 1) / W;
  std::fill(LDS.Init.begin(), LDS.Init.end(), 0);
  std::vector<Wave> Waves(NW);
  this->Waves = &Waves;
  NumWaves = NW;
  TM->beginWorkgroup(*this, NW);
  for (unsigned K = 0; K < NW; ++K) {
    Wave &Wv = Waves[K];
    Wv.Index = K;
    unsigned N = std::min(W, Items - K * W);
    Wv.Valid = N == 64 ? ~0ULL : ((1ULL << N) - 1);
    Wv.TMask = Wv.Valid;
    Wv.Priv.resize(W);
    for (Region &R : Wv.Priv)
      R.Private = true;
    Wv.PrivTop.assign(W, 0);
    Frame F;
    initFrame(F, DK, Wv.Valid, Wv);
    for (unsigned A = 0; A < DK->ArgSlots.size(); ++A) {
      const SlotInfo &S = DK->Slots[DK->ArgSlots[A]];
      for (unsigned Lane = 0; Lane < W; ++Lane)
        F.D[S.Data + Lane] = ArgBits[A];
      F.P[S.Pois] = 0;
    }
    Wv.MayYield = NW > 1;
    Wv.Frames.push_back(std::move(F));
    ++Stats.Waves;
  }
  // Cooperative scheduling: each wave runs to its next barrier, to its end,
  // or until it gives way (a time slice, s_sleep). Waves at a barrier wait
  // until no wave is running; then they all pass it.
  auto Running = [](const Wave &Wv) {
    return !Wv.Done && !Wv.AtBarrier && !Wv.Blocked;
  };
  // The critical path: per barrier phase, the longest wave.
  auto EndPhase = [&]() {
    uint64_t Max = 0;
    for (Wave &Wv : Waves) {
      Max = std::max(Max, Wv.Phase);
      Wv.Phase = 0;
    }
    Stats.CriticalPath += Max;
  };
  while (true) {
    bool Progress = false;
    bool AnyRunning = any_of(Waves, Running);
    if (!AnyRunning &&
        any_of(Waves, [](const Wave &Wv) { return Wv.AtBarrier; }))
      EndPhase();
    for (Wave &Wv : Waves) {
      if (Wv.Done || Wv.Blocked || (Wv.AtBarrier && AnyRunning))
        continue;
      uint64_t Before = Stats.WaveInstructions;
      if (!runWave(Wv))
        return false;
      Wv.Phase += Stats.WaveInstructions - Before;
      Progress = true;
    }
    unsigned AtBar = 0, Done = 0;
    const Instruction *Bar = nullptr;
    for (Wave &Wv : Waves) {
      AtBar += Wv.AtBarrier;
      Done += Wv.Done;
      if (Wv.AtBarrier)
        Bar = Wv.BarrierInst;
    }
    if (Done == Waves.size()) {
      EndPhase();
      return true;
    }
    if (AtBar && !any_of(Waves, Running) && !checkCollective(Waves))
      return false;
    if (!any_of(Waves, Running) && !AtBar) {
      auto It = find_if(Waves, [](const Wave &Wv) { return Wv.Blocked; });
      CurWave = &*It;
      unsigned Waiting =
          count_if(Waves, [](const Wave &Wv) { return Wv.Blocked; });
      return failAt(*It->BarrierInst,
                    "barrier deadlock: " + Twine(Waiting) +
                        " wave(s) wait at a barrier that is never released (" +
                        Twine(Done) +
                        " wave(s) of the workgroup finished); "
                        "the hardware would hang");
    }
    if (AtBar && Done && !any_of(Waves, Running)) {
      CurWave = nullptr;
      return failAt(*Bar, "barrier deadlock: " + Twine(Done) +
                              " wave(s) of the workgroup finished while " +
                              Twine(AtBar) + " wait at this barrier");
    }
    if (!Progress)
      return true;
  }
}

/// Where wave \p Wv stands: the function, block and instruction of each
/// frame.
static std::vector<std::tuple<const DecodedFunc *, int, unsigned>>
callPath(const Wave &Wv) {
  std::vector<std::tuple<const DecodedFunc *, int, unsigned>> P;
  for (const Frame &F : Wv.Frames)
    P.emplace_back(F.DF, F.Cur, F.InstIdx);
  return P;
}

bool Executor::Impl::checkCollective(std::vector<Wave> &Waves) {
  auto It = find_if(Waves, [](const Wave &Wv) { return Wv.InCollective; });
  if (It == Waves.end())
    return true;
  const Wave &At = *It;
  for (Wave &Wv : Waves) {
    if (Wv.InCollective && callPath(Wv) == callPath(At))
      continue;
    CurWave = nullptr; // the other wave is named in the message
    std::string Other = Wv.Done ? "has finished"
                        : Wv.AtBarrier
                            ? (Wv.InCollective ? "waits at another collective, "
                                               : "waits at a barrier, ") +
                                  location(*Wv.BarrierInst) + ", instead"
                            : "is blocked";
    CurWave = &*It;
    StringRef Name =
        cast<CallBase>(At.BarrierInst)->getCalledFunction()->getName();
    return failAt(*At.BarrierInst,
                  "work-group collective '" + demangle(Name) +
                      "' not reached by every work-item (wave " +
                      Twine(Wv.Index) + " " + Other + ")");
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

/// ": parameter 0 is byref %struct.P: ptr, ptr, i32, float" for each
/// parameter with more than one leaf.
static std::string describeLeaves(const Function &K, ArrayRef<MemLeaf> Leaves) {
  std::string S;
  for (const Argument &A : K.args()) {
    SmallVector<std::string, 8> Names;
    for (const MemLeaf &L : Leaves)
      if (L.Param == A.getArgNo())
        Names.push_back(typeName(L.Ty));
    if (Names.size() == 1 && !A.hasByRefAttr())
      continue;
    S += (S.empty() ? " (parameter " : "; parameter ") +
         std::to_string(A.getArgNo()) + " is byref " +
         typeName(A.getParamByRefType()) +
         ", one value per field: " + join(Names, ", ");
  }
  return S.empty() ? S : S + ")";
}

/// Kernel arguments: bits per parameter and the kernarg segment. A byref
/// aggregate takes one argument value per scalar leaf, laid out in the
/// segment as the data layout places it; the parameter is its address
/// (\p ByRefOff: its offset in the segment, ~0 for the others).
bool Executor::Impl::kernargLeaves(const Function &K, const LaunchConfig &C,
                                   ArrayRef<uint64_t> BufAddr,
                                   std::vector<uint8_t> &Kernarg,
                                   std::vector<uint64_t> &ArgBits,
                                   std::vector<uint64_t> &ByRefOff) {
  std::vector<MemLeaf> Leaves;
  ByRefOff.assign(K.arg_size(), ~0ULL);
  for (const Argument &A : K.args()) {
    Type *T = A.hasByRefAttr() ? A.getParamByRefType() : A.getType();
    if (!A.hasByRefAttr() &&
        (T->isAggregateType() || T->isVectorTy() || isWideInt(T))) {
      Err = "kernel argument " + std::to_string(A.getArgNo()) +
            " is an aggregate, a vector or an integer wider than 64 bits "
            "passed by value, which the executor does not pass";
      return false;
    }
    Align Al = A.hasByRefAttr() ? A.getParamAlign().valueOrOne()
                                : DL.getABITypeAlign(T);
    uint64_t Off = alignTo(Kernarg.size(), Al.value());
    Kernarg.resize(Off + DL.getTypeAllocSize(T));
    if (A.hasByRefAttr())
      ByRefOff[A.getArgNo()] = Off;
    if (!collectMemLeaves(T, Off, A.getArgNo(), Leaves, DL)) {
      Err = "kernel argument " + std::to_string(A.getArgNo()) +
            " holds a type the executor does not pass";
      return false;
    }
  }
  if (C.Args.size() != Leaves.size()) {
    Err = "kernel '" + K.getName().str() + "' takes " +
          std::to_string(Leaves.size()) + " argument value" +
          (Leaves.size() == 1 ? "" : "s") + ", " +
          std::to_string(C.Args.size()) + " given" + describeLeaves(K, Leaves);
    return false;
  }
  ArgBits.assign(K.arg_size(), 0);
  for (auto [L, KA] : zip(Leaves, C.Args)) {
    size_t Idx = &L - Leaves.data();
    uint64_t V = KA.IsBuffer     ? BufAddr[KA.Buffer]
                 : KA.LocalBytes ? LocalArgAddr[Idx]
                                 : KA.Bits;
    std::string Which = "kernel argument value " + std::to_string(Idx) + " (" +
                        typeName(L.Ty) + ")";
    if (KA.IsBuffer && !L.Ty->isPointerTy()) {
      Err = Which + " is not a pointer but a buffer was given";
      return false;
    }
    if (KA.LocalBytes &&
        (!L.Ty->isPointerTy() ||
         TM->memSpace(L.Ty->getPointerAddressSpace()) != MemSpace::Local)) {
      Err = Which + " is not a local-memory pointer but local memory was "
                    "given";
      return false;
    }
    if (!KA.IsBuffer && !KA.LocalBytes && L.Ty->isPointerTy() && V != 0) {
      Err = Which + " is a pointer: give a buffer";
      return false;
    }
    if (ByRefOff[L.Param] == ~0ULL)
      ArgBits[L.Param] = V;
    std::memcpy(&Kernarg[L.Offset], &V, DL.getTypeStoreSize(L.Ty));
  }
  return true;
}

bool Executor::Impl::run(const Function &K, const LaunchConfig &C,
                         std::vector<std::vector<uint8_t>> &Buffers) {
  Cfg = &C;
  Err.clear();
  auto T0 = std::chrono::steady_clock::now();
  Budget = Stats.LaneInstructions + C.MaxLaneInstructions;
  if (K.isDeclaration()) {
    Err = "kernel '" + K.getName().str() + "' has no body";
    return false;
  }
  for (unsigned D = 0; D < 3; ++D)
    if (!C.Grid[D] || !C.Block[D]) {
      Err = "grid and block dimensions must be positive";
      return false;
    }
  if (C.Block[0] * C.Block[1] * C.Block[2] > 1024) {
    Err = "workgroup larger than 1024 work-items";
    return false;
  }
  if (!TM->checkLaunch(K, C, Err))
    return false;
  Globals.clear();
  Map.clear();
  GlobalAddr.clear();
  LDSOffset.clear();
  StaticLDS = 0;
  // Decoded functions stay valid: global addresses are laid out
  // identically on every run of the same module.
  if (!layoutGlobals())
    return false;
  // Buffers become global regions.
  std::vector<uint64_t> BufAddr;
  for (size_t B = 0; B < Buffers.size(); ++B) {
    uint64_t A =
        addRegion(("buffer " + Twine(B)).str(), Buffers[B].size(), false);
    Region &R = Globals.back();
    R.Bytes = Buffers[B];
    std::fill(R.Init.begin(), R.Init.end(), 1);
    BufAddr.push_back(A);
  }
  // __local arguments: after the static local variables, 16-byte aligned.
  uint64_t Local = alignTo(StaticLDS + TM->staticLocalBytes(K), 16);
  LocalArgAddr.assign(C.Args.size(), 0);
  for (auto [I, KA] : enumerate(C.Args))
    if (KA.LocalBytes) {
      LocalArgAddr[I] = Local;
      Local = alignTo(Local + KA.LocalBytes, 16);
    }
  std::vector<uint8_t> Kernarg;
  std::vector<uint64_t> ArgBits, ByRefOff;
  int Packed = TM->packArguments(K, C, BufAddr, Kernarg, Err);
  if (Packed < 0)
    return false;
  if (Packed) { // the only parameter is the blob's address
    ArgBits.assign(K.arg_size(), 0);
    ByRefOff.assign(K.arg_size(), 0);
  } else if (!kernargLeaves(K, C, BufAddr, Kernarg, ArgBits, ByRefOff)) {
    return false;
  }
  size_t ImplOff = alignTo(Kernarg.size(), 8);
  std::vector<uint8_t> Packet, Implicit;
  KernargAddr = addRegion("kernarg segment", ImplOff + 256, true);
  ImplicitAddr = KernargAddr + ImplOff;
  TM->buildDispatch(C, KernargAddr, Packet, Implicit);
  Implicit.resize(256, 0);
  for (auto &[Off, Name] : TM->unmodelledBuffers()) {
    uint64_t A = addRegion(Name, 0, true);
    std::memcpy(&Implicit[Off], &A, 8);
  }
  {
    Region &R = Globals[Map.globalIndex(KernargAddr)];
    std::memcpy(R.Bytes.data(), Kernarg.data(), Kernarg.size());
    std::memcpy(&R.Bytes[ImplOff], Implicit.data(), 256);
    std::fill(R.Init.begin(), R.Init.end(), 1);
  }
  for (auto [P, Off] : enumerate(ByRefOff))
    if (Off != ~0ULL)
      ArgBits[P] = KernargAddr + Off;
  DispatchAddr = addRegion("dispatch packet", Packet.size(), true);
  {
    Region &R = Globals.back();
    R.Bytes = Packet;
    std::fill(R.Init.begin(), R.Init.end(), 1);
  }
  LDS.Name = Map.isFlat32() ? "local memory" : "LDS";
  LDS.Bytes.assign(Local + C.DynamicLDS, 0);
  LDS.Init.assign(Local + C.DynamicLDS, 0);
  if (!Err.empty()) // e.g. the 32-bit address space is full
    return false;
  CurWave = nullptr;
  DecodedFunc *DK = decode(TM->launchEntry(K, C));
  if (!DK)
    return false;
  for (unsigned Z = 0; Z < C.Grid[2]; ++Z)
    for (unsigned Y = 0; Y < C.Grid[1]; ++Y)
      for (unsigned X = 0; X < C.Grid[0]; ++X) {
        WG = {X, Y, Z};
        if (!runWorkgroup(DK, ArgBits))
          return false;
      }
  for (size_t B = 0; B < Buffers.size(); ++B)
    Buffers[B] = Globals[Map.globalIndex(BufAddr[B])].Bytes;
  Stats.Seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
          .count();
  return true;
}

} // namespace exec
} // namespace crosslane
