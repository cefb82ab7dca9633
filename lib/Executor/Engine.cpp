//===- Engine.cpp - Target-independent wave executor ----------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs LLVM IR kernels the way a SIMT wave runs them:
///  * every SSA value holds all W lanes, with a per-lane poison mask;
///  * each lane has a current block; a step picks the smallest
///    reverse-post-order block among live lanes and executes it for exactly
///    the lanes sitting there (its exec mask), so lanes reconverge at joins
///    and loop exits of structured control flow;
///  * instructions in the backward slice of a whole-wave-mode intrinsic
///    (stopping at set.inactive) run for every lane of the wave;
///  * waves of a workgroup run cooperatively up to each barrier.
/// Target specifics (intrinsics, address spaces, dispatch) are asked of the
/// TargetModel, which may also choose BranchModel::LastActiveLane (a
/// branch moves the whole wave where its last active lane goes and only the
/// target's warp-control inline asm changes the wave's thread mask: Vortex
/// hardware), a flat 32-bit address space (AddressMap), parameters passed in
/// an argument blob, and barriers that count arrivals (blockWave /
/// releaseWave).
///
//===----------------------------------------------------------------------===//

#include "AddressMap.h"
#include "EngineImpl.h"
#include "crosslane/Support/Compare.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

using namespace llvm;

namespace crosslane {
namespace exec {

TargetModel::~TargetModel() = default;
Engine::~Engine() = default;

//===----------------------------------------------------------------------===//
// Scalar helpers
//===----------------------------------------------------------------------===//

static const fltSemantics &semOf(LeafKind K) {
  switch (K) {
  case LeafKind::Half:
    return APFloat::IEEEhalf();
  case LeafKind::BFloat:
    return APFloat::BFloat();
  case LeafKind::Float:
    return APFloat::IEEEsingle();
  default:
    return APFloat::IEEEdouble();
  }
}

static unsigned leafBits(Leaf L) {
  switch (L.K) {
  case LeafKind::Half:
  case LeafKind::BFloat:
    return 16;
  case LeafKind::Float:
    return 32;
  case LeafKind::Double:
    return 64;
  default:
    return L.Bits;
  }
}

static uint64_t maskBits(unsigned Bits) {
  return Bits >= 64 ? ~0ULL : ((1ULL << Bits) - 1);
}

static int64_t sext(uint64_t V, unsigned Bits) {
  if (Bits >= 64)
    return (int64_t)V;
  return (int64_t)(V << (64 - Bits)) >> (64 - Bits);
}

Leaf scalarLeaf(Type *T, unsigned PtrBits) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    T = VT->getElementType();
  Leaf L;
  if (T->isHalfTy()) {
    L.K = LeafKind::Half;
  } else if (T->isBFloatTy()) {
    L.K = LeafKind::BFloat;
  } else if (T->isFloatTy()) {
    L.K = LeafKind::Float;
  } else if (T->isDoubleTy()) {
    L.K = LeafKind::Double;
  } else if (auto *PT = dyn_cast<PointerType>(T)) {
    L.K = LeafKind::Ptr;
    L.Bits = PtrBits;
    L.AS = PT->getAddressSpace();
  } else {
    L.K = LeafKind::Int;
    L.Bits = T->isIntegerTy() ? T->getIntegerBitWidth() : 64;
  }
  return L;
}

double leafToDouble(Leaf L, uint64_t Bits) {
  switch (L.K) {
  case LeafKind::Float: {
    float F;
    uint32_t B = (uint32_t)Bits;
    std::memcpy(&F, &B, 4);
    return F;
  }
  case LeafKind::Double: {
    double D;
    std::memcpy(&D, &Bits, 8);
    return D;
  }
  case LeafKind::Half:
  case LeafKind::BFloat: {
    // Exact: every half/bfloat value is a double.
    APFloat A(semOf(L.K), APInt(16, Bits & 0xFFFF));
    bool Lost;
    A.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
    return A.convertToDouble();
  }
  default:
    return (double)Bits;
  }
}

uint64_t doubleToLeaf(Leaf L, double D) {
  switch (L.K) {
  case LeafKind::Float: {
    float F = (float)D;
    uint32_t B;
    std::memcpy(&B, &F, 4);
    return B;
  }
  case LeafKind::Double: {
    uint64_t B;
    std::memcpy(&B, &D, 8);
    return B;
  }
  case LeafKind::Half:
  case LeafKind::BFloat: {
    APFloat A(D);
    bool Lost;
    A.convert(semOf(L.K), APFloat::rmNearestTiesToEven, &Lost);
    return A.bitcastToAPInt().getZExtValue();
  }
  default:
    return (uint64_t)D;
  }
}

bool leafIsNaN(Leaf L, uint64_t B) {
  switch (L.K) {
  case LeafKind::Float:
    return (B & 0x7F800000u) == 0x7F800000u && (B & 0x7FFFFFu);
  case LeafKind::Double:
    return (B & 0x7FF0000000000000ULL) == 0x7FF0000000000000ULL &&
           (B & 0xFFFFFFFFFFFFFULL);
  case LeafKind::Half:
    return (B & 0x7C00) == 0x7C00 && (B & 0x3FF);
  case LeafKind::BFloat:
    return (B & 0x7F80) == 0x7F80 && (B & 0x7F);
  default:
    return false;
  }
}

/// Sets the quiet bit of a NaN bit pattern.
static uint64_t quietNaN(Leaf L, uint64_t B) {
  switch (L.K) {
  case LeafKind::Float:
    return B | 0x400000u;
  case LeafKind::Double:
    return B | 0x8000000000000ULL;
  case LeafKind::Half:
    return B | 0x200;
  case LeafKind::BFloat:
    return B | 0x40;
  default:
    return B;
  }
}

static uint64_t signBit(Leaf L) { return 1ULL << (leafBits(L) - 1); }

//===----------------------------------------------------------------------===//
// Memory model
//===----------------------------------------------------------------------===//

namespace {

/// A byte-addressed region with an initialised-byte shadow.
struct Region {
  std::string Name;
  std::vector<uint8_t> Bytes;
  std::vector<uint8_t> Init;
  bool ReadOnly = false;
  bool Declared = false; ///< a constant the module declares but never defines
};

} // namespace

namespace {
/// Where one scalar leaf of a value lives in memory: its type and byte
/// offset (and, for kernel arguments, the parameter it belongs to).
struct MemLeaf {
  Type *Ty;
  uint64_t Offset;
  unsigned Param = 0;
};
} // namespace

/// Byte offset and size of leaf \p L of a load or store.
static std::pair<unsigned, unsigned> leafMem(const DInst &D, unsigned L) {
  if (D.LeafMem.empty())
    return {L * D.EltSize, D.EltSize};
  return D.LeafMem[L];
}

static std::string typeName(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS, /*IsForDebug=*/false, /*NoDetails=*/true);
  return S;
}

static bool isWideInt(const Type *T) {
  return T->isIntegerTy() && T->getIntegerBitWidth() > 64;
}

/// Appends the scalar leaves of \p T placed at \p Off, in the order the
/// engine flattens values (struct fields and array/vector elements in
/// memory order); false for types with no byte-addressed scalar leaves
/// (e.g. i1 vectors, integers wider than 128 bits).
static bool collectMemLeaves(Type *T, uint64_t Off, unsigned Param,
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

//===----------------------------------------------------------------------===//
// Executor implementation
//===----------------------------------------------------------------------===//

struct Wave {
  unsigned Index = 0;
  uint64_t Valid = 0; ///< lanes that exist (partial waves)
  std::vector<Frame> Frames;
  bool AtBarrier = false, Done = false;
  /// Instructions since the last barrier the workgroup passed.
  uint64_t Phase = 0;
  /// Waits at a target's counted barrier until another wave releases it.
  bool Blocked = false;
  /// BranchModel::LastActiveLane: the wave's thread mask.
  uint64_t TMask = 0;
  /// Other waves of the workgroup exist: the wave gives way after a time
  /// slice and at s_sleep (waves of a workgroup run concurrently, so one
  /// may spin on a flag another sets).
  bool MayYield = false;
  const Instruction *BarrierInst = nullptr;
  std::vector<Region> Priv; ///< per-lane private memory
  std::vector<uint32_t> PrivTop;
  std::vector<uint64_t> RetD, RetP; ///< return value of the outermost frame
};

class Executor::Impl : public Engine {
public:
  Module &M;
  std::unique_ptr<TargetModel> TM;
  const DataLayout &DL;
  unsigned W;
  uint64_t FullMask;
  std::map<const Function *, std::unique_ptr<DecodedFunc>> Decoded;
  std::vector<Region> Globals; ///< index = region id - 1
  DenseMap<const GlobalVariable *, uint64_t> GlobalAddr; ///< non-LDS
  DenseMap<const GlobalVariable *, uint32_t> LDSOffset;
  uint32_t StaticLDS = 0;
  Region LDS;
  ExecStats Stats;
  std::string Err;
  const LaunchConfig *Cfg = nullptr;
  std::array<unsigned, 3> WG = {0, 0, 0};
  Wave *CurWave = nullptr;
  uint64_t KernargAddr = 0, DispatchAddr = 0, ImplicitAddr = 0;
  uint64_t Budget = 0;
  AddressMap Map;
  /// BranchModel::LastActiveLane (the whole wave follows its last lane).
  bool LastLane = false;
  unsigned NumWaves = 0;
  std::vector<Wave> *Waves = nullptr; ///< of the running workgroup
  /// What a target's warp-control instruction asked for (applyControl).
  struct Control {
    std::optional<uint64_t> Mask;
    std::optional<CodePoint> Jump;
    bool Block = false;
  } Ctl;

  Impl(Module &M, std::unique_ptr<TargetModel> T)
      : M(M), TM(std::move(T)), DL(M.getDataLayout()), Map(TM->flat32()) {
    W = TM->waveSize();
    FullMask = W == 64 ? ~0ULL : ((1ULL << W) - 1);
    LastLane = TM->branchModel() == BranchModel::LastActiveLane;
  }

  // Engine services.
  unsigned workgroupId(unsigned Dim) const override { return WG[Dim]; }
  unsigned workitemId(unsigned Lane, unsigned Dim) const override {
    unsigned Lin = CurWave->Index * W + Lane;
    unsigned BX = Cfg->Block[0], BY = Cfg->Block[1];
    if (Dim == 0)
      return Lin % BX;
    if (Dim == 1)
      return (Lin / BX) % BY;
    return Lin / (BX * BY);
  }
  uint64_t dispatchPtr() const override { return DispatchAddr; }
  uint64_t clock() const override { return Stats.WaveInstructions; }
  uint64_t implicitArgPtr() const override { return ImplicitAddr; }
  uint64_t kernargPtr() const override { return KernargAddr; }
  const LaunchConfig &launch() const override { return *Cfg; }
  unsigned waveIndex() const override { return CurWave->Index; }
  void countWork(uint64_t N) override { Stats.LaneInstructions += N; }
  unsigned numWaves() const override { return NumWaves; }
  uint64_t threadMask() const override {
    return LastLane ? CurWave->TMask : CurWave->Frames.back().Exec;
  }
  void setThreadMask(uint64_t Mask) override { Ctl.Mask = Mask & FullMask; }
  CodePoint nextPoint() const override {
    const Frame &F = CurWave->Frames.back();
    return {unsigned(CurWave->Frames.size() - 1), F.Cur, F.InstIdx + 1};
  }
  void jumpTo(const CodePoint &P) override { Ctl.Jump = P; }
  uint64_t lanesElsewhere() const override {
    const std::vector<Frame> &Fs = CurWave->Frames;
    uint64_t M = 0;
    for (const Frame &F : Fs)
      M |= F.Live & ~F.Exec;
    return LastLane ? 0 : M;
  }
  void blockWave() override { Ctl.Block = true; }
  void releaseWave(unsigned I) override { (*Waves)[I].Blocked = false; }

  // --- Errors ------------------------------------------------------------

  static std::string blockName(const BasicBlock *BB) {
    if (BB->hasName())
      return BB->getName().str();
    std::string S;
    raw_string_ostream OS(S);
    BB->printAsOperand(OS, false);
    return OS.str();
  }

  /// "fn:block:N [file:line:col]: <instruction>".
  std::string location(const Instruction &I) {
    unsigned N = 1;
    for (const Instruction &J : *I.getParent()) {
      if (&J == &I)
        break;
      ++N;
    }
    std::string S;
    raw_string_ostream OS(S);
    OS << I.getFunction()->getName() << ":" << blockName(I.getParent()) << ":"
       << N;
    if (const DebugLoc &Loc = I.getDebugLoc())
      OS << " [" << Loc->getFilename() << ":" << Loc.getLine() << ":"
         << Loc.getCol() << "]";
    std::string Text;
    raw_string_ostream TS(Text);
    I.print(TS);
    StringRef T = StringRef(TS.str()).trim();
    if (T.size() > 160)
      T = T.take_front(160);
    OS << " ('" << T << "')";
    if (CurWave)
      OS << waveWhere(CurWave->Index);
    return OS.str();
  }

  /// " in workgroup (x,y,z) wave N": where an error happened.
  std::string waveWhere(unsigned WaveIndex) const {
    return (" in workgroup (" + Twine(WG[0]) + "," + Twine(WG[1]) + "," +
            Twine(WG[2]) + ") wave " + Twine(WaveIndex))
        .str();
  }

  /// Appends to \p S the bytes at generic address \p Addr in \p Lane up to
  /// a NUL, an uninitialised byte (\p Poisoned) or \p Limit bytes; false
  /// (Err set) when a byte is not readable.
  bool readBytes(OpCtx &C, uint64_t Addr, unsigned Lane, uint64_t Limit,
                 std::string &S, bool &Poisoned) {
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
  /// before an unreadable or uninitialised byte, else "?".
  std::string readCString(OpCtx &C, uint64_t Addr, unsigned Lane) {
    std::string S;
    bool Po;
    if (!readBytes(C, Addr, Lane, 200, S, Po) || Po) {
      Err.clear();
      return S.empty() ? "?" : S;
    }
    return S;
  }

  /// One printf in flight per descriptor: the format, then its arguments
  /// (strings and 64-bit words) in order.
  struct PrintfCall {
    bool Stderr = false;
    std::vector<std::string> Strings;
    std::vector<std::pair<bool, uint64_t>> Items; ///< (is string, word/index)
  };
  std::map<uint64_t, PrintfCall> Printfs;
  uint64_t NextPrintf = 1;

  /// Formats \p P as C's printf would (one conversion at a time through
  /// snprintf; %s takes a string item, every other conversion a word).
  static std::string formatPrintf(const PrintfCall &P) {
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

  /// __ockl_[f]printf_begin / _append_string_n / _append_args, lane by lane.
  bool execPrintf(OpCtx &C, unsigned Kind) {
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
        else if (!readBytes(C, Ptr, Lane, std::min<uint64_t>(Len, 4096), S,
                            Po)) {
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

  /// __assert_fail(expr, file, line, function) in the first active lane.
  bool failAssert(OpCtx &C) {
    unsigned Lane = llvm::countr_zero(C.Exec);
    std::string Expr = readCString(C, C.op(0, Lane), Lane);
    std::string File = readCString(C, C.op(1, Lane), Lane);
    std::string Fn = readCString(C, C.op(3, Lane), Lane);
    return failAt(C.inst(), "device assertion failed in lane " + Twine(Lane) +
                                ": '" + Expr + "' (" + File + ":" +
                                Twine(C.op(2, Lane) & 0xFFFFFFFF) + ", in " +
                                Fn + ")");
  }

  bool failAt(const Instruction &I, const Twine &Msg) {
    if (Err.empty())
      Err = (Msg + " at " + location(I)).str();
    return false;
  }

  // --- Types -------------------------------------------------------------

  bool flatten(Type *T, SmallVectorImpl<Leaf> &Out, std::string &Why) {
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
    } else if (T->isHalfTy()) {
      L.K = LeafKind::Half;
    } else if (T->isBFloatTy()) {
      L.K = LeafKind::BFloat;
    } else if (T->isFloatTy()) {
      L.K = LeafKind::Float;
    } else if (T->isDoubleTy()) {
      L.K = LeafKind::Double;
    } else if (auto *PT = dyn_cast<PointerType>(T)) {
      L.K = LeafKind::Ptr;
      L.AS = PT->getAddressSpace();
      L.Bits = DL.getPointerSizeInBits(L.AS);
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

  unsigned countLeaves(Type *T) {
    SmallVector<Leaf, 8> L;
    std::string Why;
    flatten(T, L, Why);
    return L.size();
  }

  /// Index of the first leaf that extractvalue/insertvalue \p Indices
  /// address inside aggregate type \p T.
  unsigned leafOffset(Type *T, ArrayRef<unsigned> Indices) {
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

  // --- Constants -----------------------------------------------------------

  /// Evaluates constant \p C into leaves \p V / poison flags \p P.
  bool evalConst(const Constant *C, SmallVectorImpl<uint64_t> &V,
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
    if (auto *CE = dyn_cast<ConstantExpr>(C)) {
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
        unsigned Bits =
            T->isPointerTy()
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
            CE->getOpcode(), ConstantInt::get(T, OV[0]),
            ConstantInt::get(T, OV[1]), DL));
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
    }
    std::string S;
    raw_string_ostream OS(S);
    C->print(OS);
    Why = "unsupported constant " + OS.str();
    return false;
  }

  /// Address-space cast of \p X from \p From to \p To (lane for private).
  uint64_t castAddr(unsigned From, unsigned To, uint64_t X, unsigned Lane) {
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

  // --- Memory ----------------------------------------------------------------

  /// Serialises constant \p C at \p Off of \p R.
  bool storeConst(const Constant *C, Region &R, uint64_t Off,
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

  uint64_t addRegion(StringRef Name, size_t Size, bool RO) {
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

  /// Lays out module globals: LDS offsets and global/constant regions.
  bool layoutGlobals() {
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
  /// for \p Lane to a region and offset; reports errors at \p I.
  Region *resolve(const Instruction &I, unsigned AS, uint64_t Addr,
                  unsigned Lane, unsigned Size, unsigned Align, bool Write,
                  uint64_t &Off) {
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
      failAt(I,
             (Wh.K == AddressMap::Kind::Null
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
      if (Off + Size > CurWave->PrivTop[Lane] &&
          Off + Size <= R->Bytes.size()) {
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
      failAt(I,
             "load from '" + What +
                 "', a constant this module declares but does not define "
                 "(a device-library constant that was not linked?) in lane " +
                 Twine(Lane));
      return nullptr;
    }
    return R;
  }

  bool loadLane(OpCtx &C, unsigned AS, uint64_t Addr, unsigned Lane,
                unsigned Size, uint64_t &V, bool &Poison) override {
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

  bool storeLane(OpCtx &C, unsigned AS, uint64_t Addr, unsigned Lane,
                 unsigned Size, uint64_t V) override {
    uint64_t Off;
    Region *R = resolve(C.inst(), AS, Addr, Lane, Size, 1, true, Off);
    if (!R)
      return false;
    std::memcpy(&R->Bytes[Off], &V, Size);
    std::memset(&R->Init[Off], 1, Size);
    return true;
  }

  // --- Decoding ------------------------------------------------------------

  DecodedFunc *decode(const Function &F);
  bool decodeBody(const Function &F, DecodedFunc &DF);
  bool decodeInst(DecodedFunc &DF, const Instruction &I, DInst &D,
                  DenseMap<const Value *, int32_t> &SlotOf,
                  const DenseSet<const Instruction *> &WWMSet);
  bool decodeInlineAsm(const CallBase &CB, DInst &D);
  bool decodeAggregateAccess(const Instruction &I, Type *T, DInst &D);
  bool decodeWide(const Instruction &I, DInst &D);
  bool execWide(OpCtx &C, const DInst &D);
  int32_t slotFor(DecodedFunc &DF, const Value *V,
                  DenseMap<const Value *, int32_t> &SlotOf, std::string &Why);
  int32_t newSlot(DecodedFunc &DF, Type *T, std::string &Why);

  // --- Execution -----------------------------------------------------------

  bool run(const Function &K, const LaunchConfig &C,
           std::vector<std::vector<uint8_t>> &Buffers);
  bool kernargLeaves(const Function &K, const LaunchConfig &C,
                     ArrayRef<uint64_t> BufAddr, std::vector<uint8_t> &Kernarg,
                     std::vector<uint64_t> &ArgBits,
                     std::vector<uint64_t> &ByRefOff);
  bool runWorkgroup(DecodedFunc *DK, const std::vector<uint64_t> &ArgBits);
  bool runWave(Wave &Wv);
  bool execInst(Wave &Wv, Frame &F, const DInst &D, uint64_t Exec,
                uint64_t LaneMask);
  bool execTerminator(Frame &F, const DBlock &B, const DInst &D);
  bool execWarpTerminator(Frame &F, const DBlock &B, const DInst &D);
  int execTargetAsm(Wave &Wv, Frame &F, const DInst &D, OpCtx &C);
  bool execCall(Wave &Wv, Frame &F, const DInst &D, OpCtx &C, bool &Pushed);
  bool execGenericIntrinsic(OpCtx &C, bool &Handled);
  bool execReduction(OpCtx &C, bool &Handled);
  bool execCompareConvert(OpCtx &C, bool &Handled);
  bool execMemIntrinsic(OpCtx &C, bool &Handled);
  void initFrame(Frame &Fr, DecodedFunc *DF, uint64_t Live, Wave &Wv);
  Expected<uint64_t> callScalar(Function &F, ArrayRef<uint64_t> Args,
                                unsigned Lane);
};

//===----------------------------------------------------------------------===//
// OpCtx
//===----------------------------------------------------------------------===//

unsigned OpCtx::numOps() const { return I.Ops.size(); }
const SlotInfo &OpCtx::opSlot(unsigned Op) const {
  return F.DF->Slots[I.Ops[Op]];
}
uint64_t OpCtx::op(unsigned Op, unsigned Lane, unsigned L) const {
  const SlotInfo &S = F.DF->Slots[I.Ops[Op]];
  return F.D[S.Data + L * W + Lane];
}
uint64_t OpCtx::opPoison(unsigned Op, unsigned L) const {
  const SlotInfo &S = F.DF->Slots[I.Ops[Op]];
  uint64_t P = F.P[S.Pois + L];
  if ((I.NonUniformOps >> Op) & 1)
    P |= ~LaneMask;
  return P;
}
uint64_t OpCtx::opHeldPoison(unsigned Op, unsigned L) const {
  const SlotInfo &S = F.DF->Slots[I.Ops[Op]];
  return F.P[S.Pois + L] | ~F.Live;
}
bool OpCtx::constOp(unsigned Op, uint64_t &V) const {
  const SlotInfo &S = F.DF->Slots[I.Ops[Op]];
  if (!isa<Constant>(I.I->getOperand(Op)) || F.P[S.Pois])
    return false;
  V = F.D[S.Data];
  return true;
}
uint64_t &OpCtx::res(unsigned Lane, unsigned L) {
  const SlotInfo &S = F.DF->Slots[I.Res];
  return F.D[S.Data + L * W + Lane];
}
void OpCtx::setPoison(uint64_t Mask, unsigned L) {
  const SlotInfo &S = F.DF->Slots[I.Res];
  uint64_t &P = F.P[S.Pois + L];
  P = (P & ~Exec) | (Mask & Exec);
}
void OpCtx::setPoisonLanes(uint64_t Mask, uint64_t Which, unsigned L) {
  const SlotInfo &S = F.DF->Slots[I.Res];
  uint64_t &P = F.P[S.Pois + L];
  P = (P & ~Which) | (Mask & Which);
}
unsigned OpCtx::resLeaves() const {
  return I.Res < 0 ? 0 : F.DF->Slots[I.Res].N;
}
bool OpCtx::fail(const Twine &Msg) {
  return static_cast<Executor::Impl &>(E).failAt(*I.I, Msg);
}
const Instruction &OpCtx::inst() const { return *I.I; }
Type *OpCtx::opType(unsigned Op) const {
  return I.I->getOperand(Op)->getType();
}

//===----------------------------------------------------------------------===//
// Decoding
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

/// The blocks of \p F in the order the scheduler prefers them: a
/// topological order of the CFG without back edges in which the blocks of
/// each loop are contiguous, so every exit of a loop comes after all of its
/// blocks. Lanes that leave a loop then wait at the exit until the other
/// lanes have left it too (plain reverse post order may put an exit before
/// the loop body: `header: br %c, %body, %exit`). Irreducible cycles are
/// not loops here and keep their DFS order.
static SmallVector<const BasicBlock *, 32> schedulingOrder(const Function &F) {
  auto &MF = const_cast<Function &>(F);
  DominatorTree DT(MF);
  LoopInfo LI(DT);
  SmallVector<const BasicBlock *, 32> Out;
  // The node of \p BB in region \p R (a loop, or the whole function when
  // null): BB itself, the header of the child loop of R holding it, or null
  // when BB is outside R.
  auto NodeOf = [&](const Loop *R, const BasicBlock *BB) -> const BasicBlock * {
    const Loop *L = LI.getLoopFor(BB);
    if (L == R)
      return BB;
    while (L && L->getParentLoop() != R)
      L = L->getParentLoop();
    return L ? L->getHeader() : nullptr;
  };
  std::function<void(const Loop *)> Emit = [&](const Loop *R) {
    const BasicBlock *Entry = R ? R->getHeader() : &F.getEntryBlock();
    auto Succs = [&](const BasicBlock *N) {
      SmallVector<const BasicBlock *, 4> Res;
      const Loop *Child =
          N != Entry && LI.getLoopFor(N) != R ? LI.getLoopFor(N) : nullptr;
      while (Child && Child->getParentLoop() != R)
        Child = Child->getParentLoop();
      auto Add = [&](const BasicBlock *From) {
        for (const BasicBlock *S : successors(From)) {
          const BasicBlock *SN = NodeOf(R, S);
          if (SN && SN != Entry && SN != N && !is_contained(Res, SN))
            Res.push_back(SN);
        }
      };
      if (Child)
        for (const BasicBlock *BB : Child->blocks())
          Add(BB);
      else
        Add(N);
      return Res;
    };
    // Iterative DFS post order over the region's nodes.
    SmallVector<const BasicBlock *, 16> Post;
    DenseSet<const BasicBlock *> Seen{Entry};
    SmallVector<
        std::pair<const BasicBlock *, SmallVector<const BasicBlock *, 4>>, 16>
        Stack;
    Stack.push_back({Entry, Succs(Entry)});
    while (!Stack.empty()) {
      auto &[N, Rest] = Stack.back();
      if (Rest.empty()) {
        Post.push_back(N);
        Stack.pop_back();
        continue;
      }
      const BasicBlock *S = Rest.front();
      Rest.erase(Rest.begin());
      if (Seen.insert(S).second)
        Stack.push_back({S, Succs(S)});
    }
    for (const BasicBlock *N : reverse(Post)) {
      const Loop *L = LI.getLoopFor(N);
      if (N != Entry && L != R && L && L->getHeader() == N)
        Emit(L);
      else
        Out.push_back(N);
    }
  };
  Emit(nullptr);
  // Every reachable block once, or the plain reverse post order.
  ReversePostOrderTraversal<const Function *> RPOT(&F);
  if (Out.size() != size_t(std::distance(RPOT.begin(), RPOT.end())))
    return SmallVector<const BasicBlock *, 32>(RPOT.begin(), RPOT.end());
  return Out;
}

/// Backward slice of whole-wave-mode operands (stops at set.inactive, phis,
/// memory and non-intrinsic calls).
static DenseSet<const Instruction *> wwmSlice(const Function &F) {
  DenseSet<const Instruction *> Set;
  // The whole-wave region is the WWM intrinsic's block: values from other
  // blocks were computed only for the lanes active there.
  SmallVector<std::pair<const Instruction *, const BasicBlock *>, 16> Work;
  for (const Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::amdgcn_strict_wwm ||
          II->getIntrinsicID() == Intrinsic::amdgcn_wwm)
        if (auto *D = dyn_cast<Instruction>(II->getArgOperand(0)))
          Work.push_back({D, II->getParent()});
  while (!Work.empty()) {
    auto [I, Root] = Work.pop_back_val();
    if (I->getParent() != Root || isa<PHINode>(I))
      continue;
    if (auto *CB = dyn_cast<CallBase>(I))
      if (!isa<IntrinsicInst>(CB))
        continue;
    if ((I->mayReadOrWriteMemory() && !isa<IntrinsicInst>(I)) ||
        I->isTerminator())
      continue;
    if (!Set.insert(I).second)
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(I))
      if (II->getIntrinsicID() == Intrinsic::amdgcn_set_inactive ||
          II->getIntrinsicID() == Intrinsic::amdgcn_set_inactive_chain_arg)
        continue;
    for (const Use &U : I->operands())
      if (auto *D = dyn_cast<Instruction>(U.get()))
        Work.push_back({D, Root});
  }
  return Set;
}

DecodedFunc *Executor::Impl::decode(const Function &F) {
  auto It = Decoded.find(&F);
  if (It != Decoded.end())
    return It->second.get();
  auto DFP = std::make_unique<DecodedFunc>();
  DFP->F = &F;
  DecodedFunc *DF = DFP.get();
  Decoded[&F] = std::move(DFP);
  if (!decodeBody(F, *DF)) {
    Decoded.erase(&F);
    return nullptr;
  }
  return DF;
}

bool Executor::Impl::decodeBody(const Function &F, DecodedFunc &DF) {
  std::string Why;
  DenseMap<const Value *, int32_t> SlotOf;
  bool IsKernel = F.getCallingConv() == CallingConv::AMDGPU_KERNEL ||
                  F.getCallingConv() == CallingConv::SPIR_KERNEL;
  for (const Argument &A : F.args()) {
    int32_t S = newSlot(DF, A.getType(), Why);
    if (S < 0) {
      Err = "function '" + F.getName().str() + "' argument: " + Why;
      return false;
    }
    DF.Slots[S].Uniform = IsKernel;
    SlotOf[&A] = S;
    DF.ArgSlots.push_back(S);
  }
  DenseSet<const Instruction *> WWMSet = wwmSlice(F);
  // Blocks in scheduling order; slots for every instruction result.
  SmallVector<const BasicBlock *, 32> Order = schedulingOrder(F);
  DenseMap<const BasicBlock *, int> BlockIdx;
  for (const BasicBlock *BB : Order) {
    BlockIdx[BB] = DF.Blocks.size();
    DF.Blocks.emplace_back();
    DF.Blocks.back().BB = BB;
  }
  // Instructions the executor cannot hold or run fail only when they run.
  DenseMap<const Instruction *, std::string> Deferred;
  auto TakeErr = [&]() {
    std::string E = std::move(Err);
    Err.clear();
    size_t At = E.rfind(" in workgroup (");
    return At == std::string::npos ? E : E.substr(0, At);
  };
  auto Defer = [&](const Instruction &I) { Deferred[&I] = TakeErr(); };
  for (const BasicBlock *BB : Order)
    for (const Instruction &I : *BB) {
      if (I.getType()->isVoidTy())
        continue;
      int32_t S = newSlot(DF, I.getType(), Why);
      if (S < 0) {
        failAt(I, Why);
        Defer(I);
        continue;
      }
      DF.Slots[S].WWMDef = WWMSet.count(&I);
      SlotOf[&I] = S;
    }
  for (DBlock &B : DF.Blocks) {
    unsigned N = 0;
    for (const Instruction &I : *B.BB) {
      ++N;
      if (isa<PHINode>(I))
        continue;
      DInst D;
      D.I = &I;
      D.Index = N;
      if (auto It = Deferred.find(&I); It != Deferred.end()) {
        D.Unsupported = It->second;
      } else if (!decodeInst(DF, I, D, SlotOf, WWMSet)) {
        D.Unsupported = TakeErr();
      }
      B.Insts.push_back(std::move(D));
    }
    // Edges with phi copies.
    const Instruction *T = B.BB->getTerminator();
    for (unsigned S = 0; S < T->getNumSuccessors(); ++S) {
      const BasicBlock *Succ = T->getSuccessor(S);
      Edge E;
      E.Target = BlockIdx.lookup(Succ);
      for (const PHINode &Phi : Succ->phis()) {
        int32_t Src =
            slotFor(DF, Phi.getIncomingValueForBlock(B.BB), SlotOf, Why);
        auto PhiSlot = SlotOf.find(&Phi);
        if (Src < 0 || PhiSlot == SlotOf.end()) {
          failAt(Phi, Src < 0 ? Twine(Why) : Twine(Deferred[&Phi]));
          E.Unsupported = TakeErr();
          E.Copies.clear();
          break;
        }
        E.Copies.push_back({PhiSlot->second, Src});
      }
      B.Succ.push_back(std::move(E));
    }
  }
  // Static allocas: per-lane private offsets.
  for (const Instruction &I : instructions(F))
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      auto Size = AI->getAllocationSize(DL);
      if (!Size || Size->isScalable()) {
        failAt(I, "dynamic alloca is not modelled");
        return false;
      }
      DF.PrivateSize = alignTo(DF.PrivateSize, AI->getAlign().value());
      for (DBlock &B : DF.Blocks)
        for (DInst &D : B.Insts)
          if (D.I == AI)
            D.ConstOff = DF.PrivateSize;
      DF.PrivateSize += Size->getFixedValue();
    }
  DF.PrivateSize = alignTo(DF.PrivateSize, 16);
  DF.InitD.resize(DF.DataSize, 0);
  DF.InitP.resize(DF.PoisSize, 0);
  // A value a lane has not computed yet is poison in that lane (only reads
  // of inactive lanes' values, OpCtx::opHeldPoison, can see it).
  for (const Instruction &I : instructions(F))
    if (auto It = SlotOf.find(&I); It != SlotOf.end()) {
      const SlotInfo &SI = DF.Slots[It->second];
      std::fill_n(DF.InitP.begin() + SI.Pois, SI.N, ~0ULL);
    }
  if (!F.getReturnType()->isVoidTy())
    DF.RetLeaves = countLeaves(F.getReturnType());
  return true;
}

/// A struct or array load/store (clang emits them at -O0, e.g. copying a
/// cooperative_groups object): one access per leaf, at the data layout's
/// offsets; padding is neither read nor written.
bool Executor::Impl::decodeAggregateAccess(const Instruction &I, Type *T,
                                           DInst &D) {
  std::vector<MemLeaf> Leaves;
  if (!collectMemLeaves(T, 0, 0, Leaves, DL))
    return failAt(I, "aggregate access with a leaf that is not a byte-sized "
                     "scalar is not modelled");
  for (const MemLeaf &L : Leaves)
    D.LeafMem.push_back(
        {uint32_t(L.Offset), uint32_t(DL.getTypeStoreSize(L.Ty))});
  D.MemBytes = DL.getTypeStoreSize(T);
  return true;
}

/// Integers of 65..128 bits (instcombine makes `mul i128` of __umul64hi's
/// 64-bit halves) are two leaves, low 64 bits first. Instructions that move
/// them whole (phi, select, freeze, extract/insertvalue, calls and returns
/// of defined functions) need nothing more; arithmetic, compares and casts
/// run in execWide; loads and stores access the two leaves at 0 and 8.
/// Anything else on them is an error.
bool Executor::Impl::decodeWide(const Instruction &I, DInst &D) {
  auto Wide = [](const Value *V) { return isWideInt(V->getType()); };
  bool Any = Wide(&I) ||
             any_of(I.operands(), [&](const Use &U) { return Wide(U.get()); });
  if (isa<StoreInst>(I))
    Any = Wide(cast<StoreInst>(I).getValueOperand());
  if (!Any)
    return true;
  if (any_of(I.operands(),
             [](const Use &U) {
               Type *T = U->getType();
               return T->isVectorTy() && isWideInt(T->getScalarType());
             }) ||
      (I.getType()->isVectorTy() && isWideInt(I.getType()->getScalarType())))
    return failAt(I, "vectors of integers wider than 64 bits are not "
                     "modelled");
  // Integer binary operators (an integer operand makes one integer),
  // compares and integer casts compute in execWide.
  if (I.isBinaryOp() || isa<ICmpInst, ZExtInst, SExtInst, TruncInst>(I)) {
    D.Wide = true;
    return true;
  }
  switch (I.getOpcode()) {
  case Instruction::Select:
  case Instruction::Freeze:
  case Instruction::ExtractValue:
  case Instruction::InsertValue:
  case Instruction::Ret:
    return true;
  case Instruction::Load:
  case Instruction::Store: {
    Type *T = isa<LoadInst>(I)
                  ? I.getType()
                  : cast<StoreInst>(I).getValueOperand()->getType();
    D.MemBytes = DL.getTypeStoreSize(T);
    D.LeafMem = {{0, 8}, {8, D.MemBytes - 8}};
    return true;
  }
  case Instruction::Call: {
    const Function *Callee = cast<CallInst>(I).getCalledFunction();
    if (Callee && !Callee->isIntrinsic() && !Callee->isDeclaration())
      return true;
    break;
  }
  default:
    break;
  }
  return failAt(I, "this operation on an integer wider than 64 bits is not "
                   "modelled");
}

/// Inline assembly is modelled only when its text is nothing but comments
/// (ROCm's ockl wraps ballots and readfirstlane in `asm sideeffect "; ockl
/// ... hack $0", "=v,0"(x)` to stop LLVM from moving them): no instruction
/// runs, and an output tied to an input ("0") holds that input.
bool Executor::Impl::decodeInlineAsm(const CallBase &CB, DInst &D) {
  const auto *IA = cast<InlineAsm>(CB.getCalledOperand());
  SmallVector<StringRef, 4> Lines;
  StringRef(IA->getAsmString()).split(Lines, '\n');
  if (!all_of(Lines, [](StringRef L) {
        L = L.trim();
        return L.empty() || L.starts_with(";");
      }))
    return failAt(CB, "inline assembly is not modelled (only text that is "
                      "all comments is)");
  D.AsmComment = true;
  if (CB.getType()->isVoidTy())
    return true;
  // The input operand tied to output 0 (the only output allowed).
  InlineAsm::ConstraintInfoVector Cons = IA->ParseConstraints();
  unsigned Outputs = 0, OpNo = 0;
  for (const InlineAsm::ConstraintInfo &CI : Cons) {
    if (CI.Type == InlineAsm::isOutput) {
      ++Outputs;
      if (CI.isIndirect)
        ++OpNo;
      continue;
    }
    if (CI.Type != InlineAsm::isInput)
      continue;
    if (!CI.Codes.empty() && CI.Codes[0] == "0" && D.AsmTiedOp < 0)
      D.AsmTiedOp = OpNo;
    ++OpNo;
  }
  if (Outputs != 1 || D.AsmTiedOp < 0 ||
      CB.getArgOperand(D.AsmTiedOp)->getType() != CB.getType())
    return failAt(CB, "inline assembly (a comment) whose result is not an "
                      "input tied to it is not modelled");
  return true;
}

bool Executor::Impl::decodeInst(DecodedFunc &DF, const Instruction &I, DInst &D,
                                DenseMap<const Value *, int32_t> &SlotOf,
                                const DenseSet<const Instruction *> &WWMSet) {
  std::string Why;
  D.Opc = I.getOpcode();
  D.WWM = WWMSet.count(&I);
  auto It = SlotOf.find(&I);
  if (It != SlotOf.end())
    D.Res = It->second;
  unsigned NOps = I.getNumOperands();
  if (auto *CB = dyn_cast<CallBase>(&I))
    NOps = CB->arg_size();
  for (unsigned K = 0; K < NOps; ++K) {
    const Value *V = I.getOperand(K);
    if (isa<BasicBlock>(V)) {
      D.Ops.push_back(-1);
      continue;
    }
    int32_t S = slotFor(DF, V, SlotOf, Why);
    if (S == -1)
      return failAt(I, Why);
    D.Ops.push_back(S);
    if (S >= 0 && !DF.Slots[S].Uniform && !DF.Slots[S].WWMDef && K < 32)
      D.NonUniformOps |= 1u << K;
  }
  if (!decodeWide(I, D))
    return false;
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    D.AS = LI->getPointerAddressSpace();
    D.Align = LI->getAlign().value();
    Type *T = LI->getType();
    if (T->isStructTy() || T->isArrayTy())
      return decodeAggregateAccess(I, T, D);
    D.EltSize = DL.getTypeStoreSize(T->getScalarType());
    if (T->getScalarSizeInBits() % 8 && T->getScalarSizeInBits() != 1)
      return failAt(I, "loads of non-byte-sized elements are not modelled");
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    D.AS = SI->getPointerAddressSpace();
    D.Align = SI->getAlign().value();
    Type *T = SI->getValueOperand()->getType();
    if (T->isStructTy() || T->isArrayTy())
      return decodeAggregateAccess(I, T, D);
    D.EltSize = DL.getTypeStoreSize(T->getScalarType());
    if (T->getScalarSizeInBits() % 8 && T->getScalarSizeInBits() != 1)
      return failAt(I, "stores of non-byte-sized elements are not modelled");
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    D.AS = RMW->getPointerAddressSpace();
    D.Align = RMW->getAlign().value();
    D.EltSize = DL.getTypeStoreSize(RMW->getValOperand()->getType());
    if (RMW->getValOperand()->getType()->isVectorTy())
      return failAt(I, "vector atomics are not modelled");
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    D.AS = CX->getPointerAddressSpace();
    D.Align = CX->getAlign().value();
    D.EltSize = DL.getTypeStoreSize(CX->getCompareOperand()->getType());
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    if (GEP->getType()->isVectorTy())
      return failAt(I, "vector GEPs are not modelled");
    int64_t Off = 0;
    unsigned K = 1;
    for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
         GTI != E; ++GTI, ++K) {
      const Value *Idx = GTI.getOperand();
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        unsigned FI = cast<ConstantInt>(Idx)->getZExtValue();
        Off += DL.getStructLayout(ST)->getElementOffset(FI);
        continue;
      }
      int64_t Scale = GTI.getSequentialElementStride(DL);
      if (auto *CI = dyn_cast<ConstantInt>(Idx)) {
        Off += CI->getSExtValue() * Scale;
        continue;
      }
      D.GepIdx.push_back({(int32_t)K, Scale});
    }
    D.ConstOff = Off;
  } else if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    D.LeafOff =
        leafOffset(EV->getAggregateOperand()->getType(), EV->getIndices());
  } else if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    D.LeafOff =
        leafOffset(IV->getAggregateOperand()->getType(), IV->getIndices());
  } else if (auto *SV = dyn_cast<ShuffleVectorInst>(&I)) {
    SV->getShuffleMask(D.Mask);
  } else if (auto *SW = dyn_cast<SwitchInst>(&I)) {
    for (auto Case : SW->cases())
      D.Cases.push_back(Case.getCaseValue()->getZExtValue());
  } else if (auto *CB = dyn_cast<CallBase>(&I)) {
    const Function *Callee = CB->getCalledFunction();
    if (CB->isInlineAsm()) {
      std::string Why;
      if ((D.TargetAsm = TM->decodeAsm(*CB, Why)))
        return true;
      return Why.empty() ? decodeInlineAsm(*CB, D) : failAt(I, Why);
    }
    if (!Callee)
      return failAt(I, "indirect calls are not modelled");
    D.IID = Callee->getIntrinsicID();
    // assert() in HIP device code calls __assert_fail(expr, file, line,
    // function); its body prints through hostcalls the executor does not
    // model. A failed assert is reported as one.
    if (Callee->getName() == "__assert_fail" && CB->arg_size() == 4) {
      D.AssertFail = true;
      return true;
    }
    // printf (clang's lowering and ROCm's assert message) goes through
    // ockl's hostcall buffer; the executor formats it on the host.
    StringRef CN = Callee->getName();
    if (CN == "__ockl_printf_begin" || CN == "__ockl_fprintf_stderr_begin")
      D.Printf = 1;
    else if (CN == "__ockl_printf_append_string_n" ||
             CN == "__ockl_fprintf_append_string_n")
      D.Printf = 2;
    else if (CN == "__ockl_printf_append_args" ||
             CN == "__ockl_fprintf_append_args")
      D.Printf = 3;
    if (D.Printf)
      return true;
    if (!D.IID) {
      if (!Callee->isDeclaration()) {
        D.Callee = decode(*Callee);
        if (!D.Callee)
          return false;
      } else {
        D.External = true;
        D.Builtin = lookupBuiltin(Callee->getName());
      }
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Instruction semantics
//===----------------------------------------------------------------------===//

namespace {

/// Float arithmetic on leaves of kind K (half/bfloat through float: exact,
/// since float has >= 2p+2 bits for both).
template <typename FnF, typename FnD>
uint64_t fpBinary(Leaf L, uint64_t A, uint64_t B, FnF OpF, FnD OpD) {
  if (L.K == LeafKind::Double) {
    double X, Y;
    std::memcpy(&X, &A, 8);
    std::memcpy(&Y, &B, 8);
    double R = OpD(X, Y);
    uint64_t Bits;
    std::memcpy(&Bits, &R, 8);
    return Bits;
  }
  float X, Y;
  if (L.K == LeafKind::Float) {
    uint32_t A32 = A, B32 = B;
    std::memcpy(&X, &A32, 4);
    std::memcpy(&Y, &B32, 4);
  } else {
    X = (float)leafToDouble(L, A);
    Y = (float)leafToDouble(L, B);
  }
  float R = OpF(X, Y);
  if (L.K == LeafKind::Float) {
    uint32_t Bits;
    std::memcpy(&Bits, &R, 4);
    return Bits;
  }
  return doubleToLeaf(L, R);
}

} // namespace

/// IEEE-754 maxNum/minNum as LLVM's llvm.maxnum/minnum: a NaN operand yields
/// the other operand; -0 < +0 is honoured for determinism.
static uint64_t fMinMaxNum(Leaf L, uint64_t A, uint64_t B, bool Max) {
  bool NA = leafIsNaN(L, A), NB = leafIsNaN(L, B);
  if (NA && NB)
    return quietNaN(L, A);
  if (NA)
    return B;
  if (NB)
    return A;
  double X = leafToDouble(L, A), Y = leafToDouble(L, B);
  if (X == Y) { // ordering of signed zeros
    bool SA = A & signBit(L);
    return Max ? (SA ? B : A) : (SA ? A : B);
  }
  return (Max ? X > Y : X < Y) ? A : B;
}

/// llvm.maximum/minimum: NaN propagating, -0 < +0.
static uint64_t fMinMaxIEEE(Leaf L, uint64_t A, uint64_t B, bool Max) {
  if (leafIsNaN(L, A))
    return quietNaN(L, A);
  if (leafIsNaN(L, B))
    return quietNaN(L, B);
  return fMinMaxNum(L, A, B, Max);
}

/// Integer binary operator; sets \p Poison for flag violations and
/// out-of-range shifts; \p DivZero for division by zero / overflow.
static uint64_t intBinary(unsigned Opc, uint64_t A, uint64_t B, unsigned Bits,
                          bool NUW, bool NSW, bool Exact, bool &Poison,
                          bool &DivZero) {
  uint64_t M = maskBits(Bits);
  int64_t SA = sext(A, Bits), SB = sext(B, Bits);
  uint64_t R = 0;
  switch (Opc) {
  case Instruction::Add:
    R = (A + B) & M;
    if (NUW && R < A)
      Poison = true;
    if (NSW && sext(R, Bits) != (int64_t)((__int128)SA + SB))
      Poison = true;
    if (NSW && (__int128)SA + SB != (__int128)sext(R, Bits))
      Poison = true;
    break;
  case Instruction::Sub:
    R = (A - B) & M;
    if (NUW && B > A)
      Poison = true;
    if (NSW && (__int128)SA - SB != (__int128)sext(R, Bits))
      Poison = true;
    break;
  case Instruction::Mul: {
    R = (A * B) & M;
    if (NUW && (unsigned __int128)A * B != R)
      Poison = true;
    if (NSW && (__int128)SA * SB != (__int128)sext(R, Bits))
      Poison = true;
    break;
  }
  case Instruction::UDiv:
  case Instruction::URem:
    if (B == 0) {
      DivZero = true;
      return 0;
    }
    R = Opc == Instruction::UDiv ? A / B : A % B;
    if (Exact && A % B)
      Poison = true;
    break;
  case Instruction::SDiv:
  case Instruction::SRem:
    if (B == 0 || (SB == -1 && SA == sext(1ULL << (Bits - 1), Bits))) {
      DivZero = true;
      return 0;
    }
    R = (uint64_t)(Opc == Instruction::SDiv ? SA / SB : SA % SB) & M;
    if (Exact && SA % SB)
      Poison = true;
    break;
  case Instruction::Shl:
    if (B >= Bits) {
      Poison = true;
      return 0;
    }
    R = (A << B) & M;
    if (NUW && (R >> B) != A)
      Poison = true;
    if (NSW && (sext(R, Bits) >> B) != SA)
      Poison = true;
    break;
  case Instruction::LShr:
    if (B >= Bits) {
      Poison = true;
      return 0;
    }
    R = A >> B;
    if (Exact && (R << B) != A)
      Poison = true;
    break;
  case Instruction::AShr:
    if (B >= Bits) {
      Poison = true;
      return 0;
    }
    R = (uint64_t)(SA >> B) & M;
    if (Exact && ((A >> B) << B) != A)
      Poison = true;
    break;
  case Instruction::And:
    R = A & B;
    break;
  case Instruction::Or:
    R = A | B;
    break;
  case Instruction::Xor:
    R = A ^ B;
    break;
  }
  return R;
}

namespace {} // namespace

static uint64_t castFP(Leaf From, Leaf To, uint64_t V) {
  if (From.K == To.K)
    return V;
  if (From.K == LeafKind::Float && To.K == LeafKind::Double)
    return doubleToLeaf(To, leafToDouble(From, V));
  // APFloat for correct single rounding.
  APFloat A(semOf(From.K), APInt(leafBits(From), V));
  bool Lost;
  A.convert(semOf(To.K), APFloat::rmNearestTiesToEven, &Lost);
  return A.bitcastToAPInt().getZExtValue();
}

namespace {
using U128 = unsigned __int128;
using S128 = __int128;

U128 mask128(unsigned W) { return W >= 128 ? ~U128(0) : (U128(1) << W) - 1; }

/// \p X (of \p W bits) sign-extended to 128 bits.
S128 sext128(U128 X, unsigned W) {
  if (W < 128 && ((X >> (W - 1)) & 1))
    X |= ~mask128(W);
  return S128(X);
}

/// Whether \p S fits in \p W signed bits.
bool fitsSigned(S128 S, unsigned W) {
  return W >= 128 || S == sext128(U128(S) & mask128(W), W);
}

/// \p X (of \p W bits) as an APInt, for LLVM's own predicate evaluation.
APInt apInt128(U128 X, unsigned W) {
  uint64_t Words[2] = {uint64_t(X), uint64_t(X >> 64)};
  return APInt(W, Words);
}
} // namespace

/// Arithmetic, compares and casts with integers of 65..128 bits (two
/// leaves, low first), computed in 128-bit host integers with LLVM's
/// poison rules for the flags; division by zero or signed overflow of a
/// division is an error (undefined behaviour), as for narrower integers.
bool Executor::Impl::execWide(OpCtx &C, const DInst &D) {
  const Instruction &I = *D.I;
  auto WidthOf = [](const Value *V) {
    return V->getType()->getIntegerBitWidth();
  };
  unsigned W = WidthOf(I.getOperand(0)); // operand width
  unsigned RW = WidthOf(&I);             // result width (i1 for icmp)
  U128 M = mask128(isa<ICmpInst>(I) ? W : RW);
  bool NUW = false, NSW = false, Exact = false, Disjoint = false;
  if (isa<OverflowingBinaryOperator>(I) || isa<TruncInst>(I)) {
    NUW = I.hasNoUnsignedWrap();
    NSW = I.hasNoSignedWrap();
  }
  if (isa<PossiblyExactOperator>(I))
    Exact = I.isExact();
  if (auto *PD = dyn_cast<PossiblyDisjointInst>(&I))
    Disjoint = PD->isDisjoint();
  bool NNeg = false, SameSign = false;
  if (auto *PN = dyn_cast<PossiblyNonNegInst>(&I))
    NNeg = PN->hasNonNeg();
  if (auto *IC = dyn_cast<ICmpInst>(&I))
    SameSign = IC->hasSameSign();
  auto Get = [&](unsigned K, unsigned Lane, bool &Po) -> U128 {
    Po |= (C.opPoison(K, 0) >> Lane) & 1;
    U128 X = C.op(K, Lane, 0);
    if (isWideInt(I.getOperand(K)->getType())) {
      Po |= (C.opPoison(K, 1) >> Lane) & 1;
      X |= U128(C.op(K, Lane, 1)) << 64;
    }
    return X;
  };
  uint64_t P = 0;
  std::string Err;
  forLanes(C.Exec, [&](unsigned Lane) {
    bool Po = false, BPo = false;
    U128 A = Get(0, Lane, Po), B = 0;
    if (I.getNumOperands() > 1)
      B = Get(1, Lane, BPo);
    S128 SA = sext128(A, W), SB = sext128(B, W);
    U128 R = 0;
    switch (D.Opc) {
    case Instruction::Add:
      R = (A + B) & M;
      Po |= (NUW && (R < A || (W < 128 && A + B > M))) ||
            (NSW && !fitsSigned(SA + SB, W)) ||
            (NSW && W == 128 && ((SA < 0) == (SB < 0)) &&
             ((S128(R) < 0) != (SA < 0)));
      break;
    case Instruction::Sub:
      R = (A - B) & M;
      Po |= (NUW && A < B) || (NSW && W < 128 && !fitsSigned(SA - SB, W)) ||
            (NSW && W == 128 && ((SA < 0) != (SB < 0)) &&
             ((S128(R) < 0) != (SA < 0)));
      break;
    case Instruction::Mul: {
      U128 T;
      S128 ST;
      R = (A * B) & M;
      Po |=
          (NUW && (__builtin_mul_overflow(A, B, &T) || T > M)) ||
          (NSW && (__builtin_mul_overflow(SA, SB, &ST) || !fitsSigned(ST, W)));
      break;
    }
    case Instruction::UDiv:
    case Instruction::URem:
    case Instruction::SDiv:
    case Instruction::SRem: {
      bool Signed = D.Opc == Instruction::SDiv || D.Opc == Instruction::SRem;
      if (BPo || B == 0 ||
          (Signed && SB == -1 && SA == sext128(U128(1) << (W - 1), W))) {
        if (Err.empty())
          Err = "division by zero, a poison divisor or signed overflow in "
                "lane " +
                std::to_string(Lane);
        return;
      }
      if (D.Opc == Instruction::UDiv)
        R = A / B, Po |= Exact && A % B;
      else if (D.Opc == Instruction::URem)
        R = A % B;
      else if (D.Opc == Instruction::SDiv)
        R = U128(SA / SB) & M, Po |= Exact && SA % SB;
      else
        R = U128(SA % SB) & M;
      break;
    }
    case Instruction::Shl:
    case Instruction::LShr:
    case Instruction::AShr:
      if (B >= W) {
        Po = true;
        break;
      }
      if (D.Opc == Instruction::Shl) {
        R = (A << unsigned(B)) & M;
        Po |= (NUW && (R >> unsigned(B)) != A) ||
              (NSW && (sext128(R, W) >> unsigned(B)) != SA);
      } else if (D.Opc == Instruction::LShr) {
        R = A >> unsigned(B);
        Po |= Exact && (R << unsigned(B)) != A;
      } else {
        R = U128(SA >> unsigned(B)) & M;
        Po |= Exact && (A & mask128(unsigned(B)));
      }
      break;
    case Instruction::And:
      R = A & B;
      break;
    case Instruction::Or:
      R = A | B;
      Po |= Disjoint && (A & B);
      break;
    case Instruction::Xor:
      R = A ^ B;
      break;
    case Instruction::ICmp:
      R = ICmpInst::compare(apInt128(A, W), apInt128(B, W),
                            cast<ICmpInst>(I).getPredicate());
      Po |= SameSign && ((SA < 0) != (SB < 0));
      break;
    case Instruction::ZExt:
      R = A;
      Po |= NNeg && ((A >> (W - 1)) & 1);
      break;
    case Instruction::SExt:
      R = U128(SA) & M;
      break;
    default: // Trunc
      R = A & M;
      Po |= (NUW && R != A) || (NSW && sext128(R, RW) != SA);
      break;
    }
    Po |= BPo && D.Opc != Instruction::UDiv && D.Opc != Instruction::SDiv;
    C.res(Lane, 0) = uint64_t(R);
    if (isWideInt(I.getType()))
      C.res(Lane, 1) = uint64_t(R >> 64);
    if (Po)
      P |= 1ULL << Lane;
  });
  if (!Err.empty())
    return C.fail(Err);
  C.setPoison(P, 0);
  if (isWideInt(I.getType()))
    C.setPoison(P, 1);
  return true;
}

bool Executor::Impl::execInst(Wave &Wv, Frame &F, const DInst &D, uint64_t Exec,
                              uint64_t LaneMask) {
  OpCtx C{*this, F, D, Exec, LaneMask, W};
  const Instruction &I = *D.I;
  const DecodedFunc &DF = *F.DF;
  Stats.LaneInstructions += llvm::popcount(Exec);
  ++Stats.WaveInstructions;
  auto ResLeaf = [&](unsigned L) {
    return DF.Leaves[DF.Slots[D.Res].LeafBegin + L];
  };
  auto OpLeaf = [&](unsigned Op, unsigned L) {
    return DF.Leaves[DF.Slots[D.Ops[Op]].LeafBegin + L];
  };
  if (D.Wide)
    return execWide(C, D);
  switch (D.Opc) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor: {
    bool NUW = false, NSW = false, Exact = false;
    if (isa<OverflowingBinaryOperator>(I)) {
      NUW = I.hasNoUnsignedWrap();
      NSW = I.hasNoSignedWrap();
    }
    if (isa<PossiblyExactOperator>(I))
      Exact = I.isExact();
    bool Disjoint = false;
    if (auto *PD = dyn_cast<PossiblyDisjointInst>(&I))
      Disjoint = PD->isDisjoint();
    unsigned N = C.resLeaves();
    for (unsigned L = 0; L < N; ++L) {
      unsigned Bits = ResLeaf(L).Bits;
      uint64_t P = C.opPoison(0, L) | C.opPoison(1, L);
      uint64_t NewP = 0;
      bool Bad = false;
      unsigned BadLane = 0;
      forLanes(Exec, [&](unsigned Lane) {
        uint64_t A = C.op(0, Lane, L), B = C.op(1, Lane, L);
        bool Po = false, DZ = false;
        if ((P >> Lane) & 1) {
          // A poison divisor is UB; poison otherwise propagates.
          if ((D.Opc == Instruction::UDiv || D.Opc == Instruction::SDiv ||
               D.Opc == Instruction::URem || D.Opc == Instruction::SRem) &&
              ((C.opPoison(1, L) >> Lane) & 1)) {
            Bad = true;
            BadLane = Lane;
          }
          C.res(Lane, L) = 0;
          return;
        }
        uint64_t R = intBinary(D.Opc, A, B, Bits, NUW, NSW, Exact, Po, DZ);
        if (Disjoint && (A & B))
          Po = true;
        if (DZ) {
          Bad = true;
          BadLane = Lane;
        }
        C.res(Lane, L) = R;
        if (Po)
          NewP |= 1ULL << Lane;
      });
      if (Bad)
        return C.fail("integer division by zero, overflow or poison divisor "
                      "in lane " +
                      Twine(BadLane));
      C.setPoison(P | NewP, L);
    }
    return true;
  }
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
  case Instruction::FDiv:
  case Instruction::FRem: {
    unsigned N = C.resLeaves();
    FastMathFlags FMF = I.getFastMathFlags();
    for (unsigned L = 0; L < N; ++L) {
      Leaf LT = ResLeaf(L);
      uint64_t P = C.opPoison(0, L) | C.opPoison(1, L);
      uint64_t NewP = 0;
      forLanes(Exec, [&](unsigned Lane) {
        uint64_t A = C.op(0, Lane, L), B = C.op(1, Lane, L), R = 0;
        switch (D.Opc) {
        case Instruction::FAdd:
          R = fpBinary(
              LT, A, B, [](float X, float Y) { return X + Y; },
              [](double X, double Y) { return X + Y; });
          break;
        case Instruction::FSub:
          R = fpBinary(
              LT, A, B, [](float X, float Y) { return X - Y; },
              [](double X, double Y) { return X - Y; });
          break;
        case Instruction::FMul:
          R = fpBinary(
              LT, A, B, [](float X, float Y) { return X * Y; },
              [](double X, double Y) { return X * Y; });
          break;
        case Instruction::FDiv:
          R = fpBinary(
              LT, A, B, [](float X, float Y) { return X / Y; },
              [](double X, double Y) { return X / Y; });
          break;
        default:
          R = fpBinary(
              LT, A, B, [](float X, float Y) { return std::fmod(X, Y); },
              [](double X, double Y) { return std::fmod(X, Y); });
        }
        C.res(Lane, L) = R;
        if ((FMF.noNaNs() &&
             (leafIsNaN(LT, A) || leafIsNaN(LT, B) || leafIsNaN(LT, R))) ||
            (FMF.noInfs() && (std::isinf(leafToDouble(LT, A)) ||
                              std::isinf(leafToDouble(LT, B)) ||
                              std::isinf(leafToDouble(LT, R)))))
          NewP |= 1ULL << Lane;
      });
      C.setPoison(P | NewP, L);
    }
    return true;
  }
  case Instruction::FNeg: {
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      uint64_t SB = signBit(ResLeaf(L));
      forLanes(Exec,
               [&](unsigned Lane) { C.res(Lane, L) = C.op(0, Lane, L) ^ SB; });
      C.setPoison(C.opPoison(0, L), L);
    }
    return true;
  }
  case Instruction::ICmp:
  case Instruction::FCmp: {
    auto Pred = cast<CmpInst>(I).getPredicate();
    bool IsF = D.Opc == Instruction::FCmp;
    FastMathFlags FMF;
    if (IsF)
      FMF = I.getFastMathFlags();
    bool SameSign = false;
    if (auto *IC = dyn_cast<ICmpInst>(&I))
      SameSign = IC->hasSameSign();
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      Leaf OL = OpLeaf(0, L);
      unsigned Bits = OL.Bits;
      uint64_t P = C.opPoison(0, L) | C.opPoison(1, L), NewP = 0;
      forLanes(Exec, [&](unsigned Lane) {
        uint64_t A = C.op(0, Lane, L), B = C.op(1, Lane, L);
        bool R;
        if (IsF) {
          double X = leafToDouble(OL, A), Y = leafToDouble(OL, B);
          R = evalFCmp(Pred, X, Y);
          if ((FMF.noNaNs() && (std::isnan(X) || std::isnan(Y))) ||
              (FMF.noInfs() && (std::isinf(X) || std::isinf(Y))))
            NewP |= 1ULL << Lane;
        } else {
          R = evalICmp(Pred, A, B, Bits);
          if (SameSign && ((A ^ B) >> (Bits - 1)) & 1)
            NewP |= 1ULL << Lane;
        }
        C.res(Lane, L) = R;
      });
      C.setPoison(P | NewP, L);
    }
    return true;
  }
  case Instruction::Select: {
    bool VecCond = I.getOperand(0)->getType()->isVectorTy();
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      unsigned CL = VecCond ? L : 0;
      uint64_t CP = C.opPoison(0, CL), PT = C.opPoison(1, L),
               PF = C.opPoison(2, L), P = CP;
      forLanes(Exec, [&](unsigned Lane) {
        bool Cond = C.op(0, Lane, CL) & 1;
        C.res(Lane, L) = Cond ? C.op(1, Lane, L) : C.op(2, Lane, L);
        if (((Cond ? PT : PF) >> Lane) & 1)
          P |= 1ULL << Lane;
      });
      C.setPoison(P, L);
    }
    return true;
  }
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::FPTrunc:
  case Instruction::FPExt:
  case Instruction::FPToUI:
  case Instruction::FPToSI:
  case Instruction::UIToFP:
  case Instruction::SIToFP:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToAddr: {
    bool NUW = false, NSW = false, NNeg = false;
    if (auto *TI = dyn_cast<TruncInst>(&I)) {
      NUW = TI->hasNoUnsignedWrap();
      NSW = TI->hasNoSignedWrap();
    }
    if (auto *PN = dyn_cast<PossiblyNonNegInst>(&I))
      NNeg = PN->hasNonNeg();
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      Leaf From = OpLeaf(0, L), To = ResLeaf(L);
      unsigned FB = leafBits(From), TB = leafBits(To);
      uint64_t P = C.opPoison(0, L), NewP = 0;
      forLanes(Exec, [&](unsigned Lane) {
        uint64_t A = C.op(0, Lane, L), R = 0;
        bool Po = false;
        switch (D.Opc) {
        case Instruction::Trunc:
          R = A & maskBits(TB);
          if (NUW && R != A)
            Po = true;
          if (NSW && sext(R, TB) != sext(A, FB))
            Po = true;
          break;
        case Instruction::ZExt:
          R = A;
          if (NNeg && (A >> (FB - 1)) & 1)
            Po = true;
          break;
        case Instruction::SExt:
          R = (uint64_t)sext(A, FB) & maskBits(TB);
          break;
        case Instruction::PtrToInt:
        case Instruction::IntToPtr:
        case Instruction::PtrToAddr:
          R = A & maskBits(TB);
          break;
        case Instruction::AddrSpaceCast:
          R = castAddr(From.AS, To.AS, A, Lane) & maskBits(TB);
          break;
        case Instruction::FPTrunc:
        case Instruction::FPExt:
          R = castFP(From, To, A);
          break;
        case Instruction::FPToUI:
        case Instruction::FPToSI: {
          double X = leafToDouble(From, A);
          double T = std::trunc(X);
          bool Signed = D.Opc == Instruction::FPToSI;
          double Lo = Signed ? -std::ldexp(1.0, TB - 1) : 0.0;
          double Hi = Signed ? std::ldexp(1.0, TB - 1) : std::ldexp(1.0, TB);
          if (std::isnan(X) || T < Lo || T >= Hi) {
            Po = true;
            break;
          }
          R = Signed ? (uint64_t)(int64_t)T & maskBits(TB)
                     : (uint64_t)T & maskBits(TB);
          break;
        }
        case Instruction::UIToFP:
        case Instruction::SIToFP: {
          if (NNeg && (A >> (FB - 1)) & 1)
            Po = true;
          bool Signed = D.Opc == Instruction::SIToFP;
          if (To.K == LeafKind::Float) {
            float X = Signed ? (float)sext(A, FB) : (float)A;
            uint32_t B;
            std::memcpy(&B, &X, 4);
            R = B;
          } else if (To.K == LeafKind::Double) {
            double X = Signed ? (double)sext(A, FB) : (double)A;
            std::memcpy(&R, &X, 8);
          } else {
            APFloat F(semOf(To.K));
            F.convertFromAPInt(APInt(FB, A), Signed,
                               APFloat::rmNearestTiesToEven);
            R = F.bitcastToAPInt().getZExtValue();
          }
          break;
        }
        }
        C.res(Lane, L) = R;
        if (Po)
          NewP |= 1ULL << Lane;
      });
      C.setPoison(P | NewP, L);
    }
    return true;
  }
  case Instruction::BitCast: {
    unsigned NS = C.opSlot(0).N, NR = C.resLeaves();
    if (NS == NR) {
      for (unsigned L = 0; L < NR; ++L) {
        forLanes(Exec,
                 [&](unsigned Lane) { C.res(Lane, L) = C.op(0, Lane, L); });
        C.setPoison(C.opPoison(0, L), L);
      }
      return true;
    }
    // Reinterpret through a little-endian bit string.
    unsigned SB = leafBits(OpLeaf(0, 0)), RB = leafBits(ResLeaf(0));
    uint64_t AnyP = 0;
    for (unsigned L = 0; L < NS; ++L)
      AnyP |= C.opPoison(0, L);
    forLanes(Exec, [&](unsigned Lane) {
      uint8_t Buf[64] = {0};
      for (unsigned L = 0; L < NS; ++L)
        for (unsigned B = 0; B < SB; ++B)
          if ((C.op(0, Lane, L) >> B) & 1) {
            unsigned Bit = L * SB + B;
            Buf[Bit / 8] |= 1 << (Bit % 8);
          }
      for (unsigned L = 0; L < NR; ++L) {
        uint64_t R = 0;
        for (unsigned B = 0; B < RB; ++B) {
          unsigned Bit = L * RB + B;
          if ((Buf[Bit / 8] >> (Bit % 8)) & 1)
            R |= 1ULL << B;
        }
        C.res(Lane, L) = R;
      }
    });
    for (unsigned L = 0; L < NR; ++L)
      C.setPoison(AnyP, L);
    return true;
  }
  case Instruction::Freeze: {
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      uint64_t P = C.opPoison(0, L);
      forLanes(Exec, [&](unsigned Lane) {
        C.res(Lane, L) = ((P >> Lane) & 1) ? 0 : C.op(0, Lane, L);
      });
      C.setPoison(0, L);
    }
    return true;
  }
  case Instruction::GetElementPtr: {
    unsigned Bits = ResLeaf(0).Bits;
    uint64_t P = C.opPoison(0);
    for (auto &GI : D.GepIdx)
      P |= C.opPoison(GI.first);
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane) + D.ConstOff;
      for (auto &GI : D.GepIdx) {
        unsigned IB = OpLeaf(GI.first, 0).Bits;
        A += (uint64_t)(sext(C.op(GI.first, Lane), IB) * GI.second);
      }
      C.res(Lane) = A & maskBits(Bits);
    });
    C.setPoison(P);
    return true;
  }
  case Instruction::Alloca: {
    // An alloca outside the private address space (riscv32: 0) yields the
    // lane's flat private address.
    unsigned AS = cast<AllocaInst>(I).getAddressSpace();
    bool Flat = TM->memSpace(AS) != MemSpace::Private;
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t Off = F.PrivBase + D.ConstOff;
      C.res(Lane) = Flat ? Map.privateToFlat(Lane, Off) : Off;
    });
    C.setPoison(0);
    return true;
  }
  case Instruction::Load: {
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
        Leaf LT = ResLeaf(L);
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
  case Instruction::Store: {
    unsigned N = C.opSlot(0).N;
    uint64_t PA = C.opPoison(1) & Exec;
    if (PA)
      return C.fail("store through a poison address in lane " +
                    Twine(llvm::countr_zero(PA)));
    // A poison scalar or vector element stored is reported (it is almost
    // always a bug); an aggregate's poison fields (a struct built with
    // insertvalue from poison) leave their bytes uninitialised instead.
    if (D.LeafMem.empty())
      for (unsigned L = 0; L < N; ++L)
        if (uint64_t PV = C.opPoison(0, L) & Exec)
          return C.fail("poison stored (lane " + Twine(llvm::countr_zero(PV)) +
                        (N > 1 ? ", element " + Twine(L) : Twine("")) + ")");
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
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg: {
    bool IsCX = D.Opc == Instruction::AtomicCmpXchg;
    unsigned PtrOp = 0;
    if (uint64_t PA = C.opPoison(PtrOp) & Exec)
      return C.fail("atomic through a poison address in lane " +
                    Twine(llvm::countr_zero(PA)));
    for (unsigned K = 1; K < C.numOps(); ++K)
      if (uint64_t PV = C.opPoison(K) & Exec)
        return C.fail("poison operand of an atomic in lane " +
                      Twine(llvm::countr_zero(PV)));
    Leaf LT = IsCX ? OpLeaf(1, 0) : ResLeaf(0);
    unsigned Bits = leafBits(LT);
    auto Op =
        IsCX ? AtomicRMWInst::Xchg : cast<AtomicRMWInst>(I).getOperation();
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
      uint64_t M = maskBits(Bits);
      if (IsCX) {
        bool Eq = Old == V;
        if (Eq)
          New = C.op(2, Lane);
        C.res(Lane, 0) = Old;
        C.res(Lane, 1) = Eq;
      } else {
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
  case Instruction::Fence:
    return true;
  case Instruction::ExtractElement:
  case Instruction::InsertElement: {
    bool Ins = D.Opc == Instruction::InsertElement;
    unsigned IdxOp = Ins ? 2 : 1;
    unsigned NV = C.opSlot(0).N;
    unsigned IB = OpLeaf(IdxOp, 0).Bits;
    uint64_t IP = C.opPoison(IdxOp);
    unsigned NR = C.resLeaves();
    SmallVector<uint64_t, 8> P(NR, 0);
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t Idx = C.op(IdxOp, Lane) & maskBits(IB);
      bool Bad = ((IP >> Lane) & 1) || Idx >= NV;
      if (Ins) {
        for (unsigned L = 0; L < NR; ++L) {
          bool Take = L == Idx;
          C.res(Lane, L) = Take ? C.op(1, Lane) : C.op(0, Lane, L);
          uint64_t SP = Take ? C.opPoison(1) : C.opPoison(0, L);
          if (Bad || ((SP >> Lane) & 1))
            P[L] |= 1ULL << Lane;
        }
      } else {
        C.res(Lane) = Bad ? 0 : C.op(0, Lane, Idx);
        if (Bad || ((C.opPoison(0, Idx) >> Lane) & 1))
          P[0] |= 1ULL << Lane;
      }
    });
    for (unsigned L = 0; L < NR; ++L)
      C.setPoison(P[L], L);
    return true;
  }
  case Instruction::ShuffleVector: {
    unsigned N0 = C.opSlot(0).N;
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      int M = D.Mask[L];
      if (M < 0) {
        C.setPoison(~0ULL, L);
        continue;
      }
      unsigned Op = (unsigned)M < N0 ? 0 : 1;
      unsigned SL = Op ? M - N0 : M;
      forLanes(Exec,
               [&](unsigned Lane) { C.res(Lane, L) = C.op(Op, Lane, SL); });
      C.setPoison(C.opPoison(Op, SL), L);
    }
    return true;
  }
  case Instruction::ExtractValue: {
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      forLanes(Exec, [&](unsigned Lane) {
        C.res(Lane, L) = C.op(0, Lane, D.LeafOff + L);
      });
      C.setPoison(C.opPoison(0, D.LeafOff + L), L);
    }
    return true;
  }
  case Instruction::InsertValue: {
    unsigned NI = C.opSlot(1).N;
    for (unsigned L = 0, N = C.resLeaves(); L < N; ++L) {
      bool In = L >= D.LeafOff && L < D.LeafOff + NI;
      unsigned Op = In ? 1 : 0, SL = In ? L - D.LeafOff : L;
      forLanes(Exec,
               [&](unsigned Lane) { C.res(Lane, L) = C.op(Op, Lane, SL); });
      C.setPoison(C.opPoison(Op, SL), L);
    }
    return true;
  }
  default:
    break;
  }
  return failAt(I,
                Twine("unsupported instruction '") + I.getOpcodeName() + "'");
}

//===----------------------------------------------------------------------===//
// Generic LLVM intrinsics
//===----------------------------------------------------------------------===//

static uint64_t roundFP(Leaf L, uint64_t A, double (*Fn)(double)) {
  if (leafIsNaN(L, A))
    return quietNaN(L, A);
  return doubleToLeaf(L, Fn(leafToDouble(L, A)));
}

/// Unary libm function through double (correctly rounded for sqrt; the
/// transcendental ones are as accurate as the host libm, which is within
/// the ULP bounds LLVM allows for them).
static uint64_t unaryFP(Leaf L, uint64_t A, double (*Fn)(double)) {
  if (L.K == LeafKind::Float) {
    // Compute in double and round once.
    return doubleToLeaf(L, Fn(leafToDouble(L, A)));
  }
  return doubleToLeaf(L, Fn(leafToDouble(L, A)));
}

bool Executor::Impl::execGenericIntrinsic(OpCtx &C, bool &Handled) {
  Handled = true;
  const DInst &D = C.I;
  const DecodedFunc &DF = *C.F.DF;
  uint64_t Exec = C.Exec;
  auto ResLeaf = [&](unsigned L) {
    return DF.Leaves[DF.Slots[D.Res].LeafBegin + L];
  };
  unsigned NR = C.resLeaves();
  // Elementwise helpers.
  auto Unary = [&](auto Fn) {
    for (unsigned L = 0; L < NR; ++L) {
      Leaf LT = ResLeaf(L);
      forLanes(Exec, [&](unsigned Lane) {
        C.res(Lane, L) = Fn(LT, C.op(0, Lane, L));
      });
      C.setPoison(C.opPoison(0, L), L);
    }
    return true;
  };
  auto Binary = [&](auto Fn) {
    for (unsigned L = 0; L < NR; ++L) {
      Leaf LT = ResLeaf(L);
      forLanes(Exec, [&](unsigned Lane) {
        C.res(Lane, L) = Fn(LT, C.op(0, Lane, L), C.op(1, Lane, L));
      });
      C.setPoison(C.opPoison(0, L) | C.opPoison(1, L), L);
    }
    return true;
  };
  auto Ternary = [&](auto Fn) {
    for (unsigned L = 0; L < NR; ++L) {
      Leaf LT = ResLeaf(L);
      forLanes(Exec, [&](unsigned Lane) {
        C.res(Lane, L) =
            Fn(LT, C.op(0, Lane, L), C.op(1, Lane, L), C.op(2, Lane, L));
      });
      C.setPoison(C.opPoison(0, L) | C.opPoison(1, L) | C.opPoison(2, L), L);
    }
    return true;
  };
  switch (D.IID) {
  case Intrinsic::maxnum:
  case Intrinsic::maximumnum:
    return Binary([](Leaf L, uint64_t A, uint64_t B) {
      return fMinMaxNum(L, A, B, true);
    });
  case Intrinsic::minnum:
  case Intrinsic::minimumnum:
    return Binary([](Leaf L, uint64_t A, uint64_t B) {
      return fMinMaxNum(L, A, B, false);
    });
  case Intrinsic::maximum:
    return Binary([](Leaf L, uint64_t A, uint64_t B) {
      return fMinMaxIEEE(L, A, B, true);
    });
  case Intrinsic::minimum:
    return Binary([](Leaf L, uint64_t A, uint64_t B) {
      return fMinMaxIEEE(L, A, B, false);
    });
  case Intrinsic::fabs:
    return Unary([](Leaf L, uint64_t A) { return A & ~signBit(L); });
  case Intrinsic::copysign:
    return Binary([](Leaf L, uint64_t A, uint64_t B) {
      return (A & ~signBit(L)) | (B & signBit(L));
    });
  case Intrinsic::canonicalize:
  case Intrinsic::arithmetic_fence:
    return Unary([](Leaf L, uint64_t A) {
      return leafIsNaN(L, A) ? quietNaN(L, A) : A;
    });
  case Intrinsic::sqrt:
    return Unary([](Leaf L, uint64_t A) {
      return leafIsNaN(L, A)
                 ? quietNaN(L, A)
                 : unaryFP(L, A, [](double X) { return std::sqrt(X); });
    });
  case Intrinsic::floor:
    return Unary([](Leaf L, uint64_t A) { return roundFP(L, A, std::floor); });
  case Intrinsic::ceil:
    return Unary([](Leaf L, uint64_t A) { return roundFP(L, A, std::ceil); });
  case Intrinsic::trunc:
    return Unary([](Leaf L, uint64_t A) { return roundFP(L, A, std::trunc); });
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::roundeven:
    return Unary(
        [](Leaf L, uint64_t A) { return roundFP(L, A, std::nearbyint); });
  case Intrinsic::round:
    return Unary([](Leaf L, uint64_t A) { return roundFP(L, A, std::round); });
  case Intrinsic::exp2:
    return Unary([](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::exp2(X); });
    });
  case Intrinsic::exp:
    return Unary([](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::exp(X); });
    });
  case Intrinsic::exp10:
    return Unary([](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::pow(10.0, X); });
    });
  case Intrinsic::log2:
    return Unary([](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::log2(X); });
    });
  case Intrinsic::log:
    return Unary([](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::log(X); });
    });
  case Intrinsic::log10:
    return Unary([](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::log10(X); });
    });
  case Intrinsic::sin:
    return Unary([](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::sin(X); });
    });
  case Intrinsic::cos:
    return Unary([](Leaf L, uint64_t A) {
      return unaryFP(L, A, [](double X) { return std::cos(X); });
    });
  case Intrinsic::pow:
    return Binary([](Leaf L, uint64_t A, uint64_t B) {
      return doubleToLeaf(L, std::pow(leafToDouble(L, A), leafToDouble(L, B)));
    });
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    return Ternary([](Leaf L, uint64_t A, uint64_t B, uint64_t Cc) {
      if (L.K == LeafKind::Float) {
        float X, Y, Z;
        uint32_t A32 = A, B32 = B, C32 = Cc;
        std::memcpy(&X, &A32, 4);
        std::memcpy(&Y, &B32, 4);
        std::memcpy(&Z, &C32, 4);
        float R = std::fmaf(X, Y, Z);
        uint32_t RB;
        std::memcpy(&RB, &R, 4);
        return (uint64_t)RB;
      }
      return doubleToLeaf(L, std::fma(leafToDouble(L, A), leafToDouble(L, B),
                                      leafToDouble(L, Cc)));
    });
  case Intrinsic::ldexp: {
    for (unsigned L = 0; L < NR; ++L) {
      Leaf LT = ResLeaf(L);
      unsigned EB = DF.Leaves[DF.Slots[D.Ops[1]].LeafBegin].Bits;
      unsigned EL = C.opSlot(1).N > 1 ? L : 0;
      forLanes(Exec, [&](unsigned Lane) {
        APFloat F(semOf(LT.K), APInt(leafBits(LT), C.op(0, Lane, L)));
        F = scalbn(F, (int)sext(C.op(1, Lane, EL), EB),
                   APFloat::rmNearestTiesToEven);
        C.res(Lane, L) = F.bitcastToAPInt().getZExtValue();
      });
      C.setPoison(C.opPoison(0, L) | C.opPoison(1, EL), L);
    }
    return true;
  }
  case Intrinsic::frexp: {
    Leaf LT = ResLeaf(0);
    forLanes(Exec, [&](unsigned Lane) {
      APFloat F(semOf(LT.K), APInt(leafBits(LT), C.op(0, Lane)));
      int Exp = 0;
      APFloat M = frexp(F, Exp, APFloat::rmNearestTiesToEven);
      C.res(Lane, 0) = M.bitcastToAPInt().getZExtValue();
      C.res(Lane, 1) = F.isFinite() ? (uint64_t)(uint32_t)Exp : 0;
    });
    C.setPoison(C.opPoison(0), 0);
    C.setPoison(C.opPoison(0), 1);
    return true;
  }
  case Intrinsic::is_fpclass: {
    uint64_t Test = 0;
    C.constOp(1, Test);
    const SlotInfo &S0 = C.opSlot(0);
    for (unsigned L = 0; L < NR; ++L) {
      Leaf LT = DF.Leaves[S0.LeafBegin + L];
      forLanes(Exec, [&](unsigned Lane) {
        APFloat F(semOf(LT.K), APInt(leafBits(LT), C.op(0, Lane, L)));
        C.res(Lane, L) = (F.classify() & Test) != 0;
      });
      C.setPoison(C.opPoison(0, L), L);
    }
    return true;
  }
  case Intrinsic::smax:
  case Intrinsic::smin:
  case Intrinsic::umax:
  case Intrinsic::umin: {
    unsigned IID = D.IID;
    return Binary([IID](Leaf L, uint64_t A, uint64_t B) {
      int64_t SA = sext(A, L.Bits), SB = sext(B, L.Bits);
      switch (IID) {
      case Intrinsic::smax:
        return SA >= SB ? A : B;
      case Intrinsic::smin:
        return SA <= SB ? A : B;
      case Intrinsic::umax:
        return A >= B ? A : B;
      default:
        return A <= B ? A : B;
      }
    });
  }
  case Intrinsic::abs: {
    uint64_t IntMinPoison = 0;
    C.constOp(1, IntMinPoison);
    for (unsigned L = 0; L < NR; ++L) {
      Leaf LT = ResLeaf(L);
      uint64_t NewP = 0;
      forLanes(Exec, [&](unsigned Lane) {
        uint64_t A = C.op(0, Lane, L);
        int64_t S = sext(A, LT.Bits);
        if (IntMinPoison && A == (1ULL << (LT.Bits - 1)))
          NewP |= 1ULL << Lane;
        C.res(Lane, L) = (uint64_t)(S < 0 ? -S : S) & maskBits(LT.Bits);
      });
      C.setPoison(C.opPoison(0, L) | NewP, L);
    }
    return true;
  }
  case Intrinsic::ctpop:
    return Unary([](Leaf, uint64_t A) { return (uint64_t)llvm::popcount(A); });
  case Intrinsic::cttz:
  case Intrinsic::ctlz: {
    uint64_t ZeroPoison = 0;
    C.constOp(1, ZeroPoison);
    bool TZ = D.IID == Intrinsic::cttz;
    for (unsigned L = 0; L < NR; ++L) {
      Leaf LT = ResLeaf(L);
      uint64_t NewP = 0;
      forLanes(Exec, [&](unsigned Lane) {
        uint64_t A = C.op(0, Lane, L);
        if (A == 0) {
          if (ZeroPoison)
            NewP |= 1ULL << Lane;
          C.res(Lane, L) = LT.Bits;
          return;
        }
        C.res(Lane, L) =
            TZ ? llvm::countr_zero(A) : llvm::countl_zero(A) - (64 - LT.Bits);
      });
      C.setPoison(C.opPoison(0, L) | NewP, L);
    }
    return true;
  }
  case Intrinsic::bitreverse:
    return Unary([](Leaf L, uint64_t A) {
      return llvm::reverseBits(A) >> (64 - L.Bits);
    });
  case Intrinsic::bswap:
    return Unary(
        [](Leaf L, uint64_t A) { return llvm::byteswap(A) >> (64 - L.Bits); });
  case Intrinsic::fshl:
  case Intrinsic::fshr: {
    bool Left = D.IID == Intrinsic::fshl;
    return Ternary([Left](Leaf L, uint64_t A, uint64_t B, uint64_t S) {
      unsigned Bits = L.Bits;
      S %= Bits;
      unsigned __int128 Cat = ((unsigned __int128)A << Bits) | B;
      uint64_t M = maskBits(Bits);
      if (Left)
        return (uint64_t)((Cat << S) >> Bits) & M;
      return (uint64_t)(Cat >> S) & M;
    });
  }
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::usub_with_overflow:
  case Intrinsic::smul_with_overflow:
  case Intrinsic::umul_with_overflow: {
    Leaf LT = ResLeaf(0);
    unsigned Bits = LT.Bits;
    unsigned IID = D.IID;
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane), B = C.op(1, Lane);
      __int128 SA = sext(A, Bits), SB = sext(B, Bits);
      unsigned __int128 UA = A, UB = B;
      __int128 Full = 0;
      bool Signed = false;
      switch (IID) {
      case Intrinsic::sadd_with_overflow:
        Full = SA + SB, Signed = true;
        break;
      case Intrinsic::uadd_with_overflow:
        Full = (__int128)(UA + UB);
        break;
      case Intrinsic::ssub_with_overflow:
        Full = SA - SB, Signed = true;
        break;
      case Intrinsic::usub_with_overflow:
        Full = (__int128)UA - (__int128)UB;
        break;
      case Intrinsic::smul_with_overflow:
        Full = SA * SB, Signed = true;
        break;
      default:
        Full = (__int128)(UA * UB);
      }
      uint64_t R = (uint64_t)Full & maskBits(Bits);
      bool Ov = Signed ? (__int128)sext(R, Bits) != Full
                       : (Full < 0 || (unsigned __int128)Full != R);
      C.res(Lane, 0) = R;
      C.res(Lane, 1) = Ov;
    });
    uint64_t P = C.opPoison(0) | C.opPoison(1);
    C.setPoison(P, 0);
    C.setPoison(P, 1);
    return true;
  }
  case Intrinsic::sadd_sat:
  case Intrinsic::uadd_sat:
  case Intrinsic::ssub_sat:
  case Intrinsic::usub_sat: {
    unsigned IID = D.IID;
    return Binary([IID](Leaf L, uint64_t A, uint64_t B) {
      unsigned Bits = L.Bits;
      uint64_t M = maskBits(Bits);
      __int128 SMax = (__int128)(M >> 1), SMin = -SMax - 1;
      __int128 SA = sext(A, Bits), SB = sext(B, Bits);
      switch (IID) {
      case Intrinsic::uadd_sat:
        return (unsigned __int128)A + B > M ? M : A + B;
      case Intrinsic::usub_sat:
        return A > B ? A - B : 0;
      case Intrinsic::sadd_sat: {
        __int128 R = std::max(SMin, std::min(SMax, SA + SB));
        return (uint64_t)R & M;
      }
      default: {
        __int128 R = std::max(SMin, std::min(SMax, SA - SB));
        return (uint64_t)R & M;
      }
      }
    });
  }
  case Intrinsic::trap:
  case Intrinsic::debugtrap:
  case Intrinsic::ubsantrap:
    // __builtin_trap(), a failed device assert() without device libraries,
    // and -fsanitize-trap: the wave stops; a run that traps is an error.
    return C.fail("the kernel trapped (" +
                  cast<CallBase>(D.I)->getCalledFunction()->getName() +
                  ") in lane " + Twine(llvm::countr_zero(Exec)));
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::donothing:
  case Intrinsic::sideeffect:
    return true;
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability:
  case Intrinsic::ssa_copy:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
    return Unary([](Leaf, uint64_t A) { return A; });
  default:
    break;
  }
  return execReduction(C, Handled);
}

/// One step of an integer vector reduction (LangRef "llvm.vector.reduce.*":
/// the binary operator or llvm.[su]{min,max} on elements of \p Bits).
static uint64_t reduceIntStep(unsigned IID, uint64_t A, uint64_t B,
                              unsigned Bits) {
  uint64_t M = maskBits(Bits);
  int64_t SA = sext(A, Bits), SB = sext(B, Bits);
  switch (IID) {
  case Intrinsic::vector_reduce_add:
    return (A + B) & M;
  case Intrinsic::vector_reduce_mul:
    return (A * B) & M;
  case Intrinsic::vector_reduce_and:
    return A & B;
  case Intrinsic::vector_reduce_or:
    return A | B;
  case Intrinsic::vector_reduce_xor:
    return A ^ B;
  case Intrinsic::vector_reduce_smin:
    return SA <= SB ? A : B;
  case Intrinsic::vector_reduce_smax:
    return SA >= SB ? A : B;
  case Intrinsic::vector_reduce_umin:
    return A <= B ? A : B;
  default: // vector_reduce_umax
    return A >= B ? A : B;
  }
}

/// One step of a floating-point vector reduction: fadd/fmul (IEEE, in
/// element order from the start value), fmax/fmin (llvm.maxnum/minnum
/// semantics), fmaximum/fminimum (llvm.maximum/minimum semantics).
static uint64_t reduceFPStep(unsigned IID, Leaf L, uint64_t A, uint64_t B) {
  switch (IID) {
  case Intrinsic::vector_reduce_fadd:
    return fpBinary(
        L, A, B, [](float X, float Y) { return X + Y; },
        [](double X, double Y) { return X + Y; });
  case Intrinsic::vector_reduce_fmul:
    return fpBinary(
        L, A, B, [](float X, float Y) { return X * Y; },
        [](double X, double Y) { return X * Y; });
  case Intrinsic::vector_reduce_fmax:
    return fMinMaxNum(L, A, B, true);
  case Intrinsic::vector_reduce_fmin:
    return fMinMaxNum(L, A, B, false);
  case Intrinsic::vector_reduce_fmaximum:
    return fMinMaxIEEE(L, A, B, true);
  default: // vector_reduce_fminimum
    return fMinMaxIEEE(L, A, B, false);
  }
}

/// llvm.vector.reduce.*: the elements are combined in order (fadd/fmul
/// start from their scalar start value, which is the sequential order the
/// LangRef prescribes without 'reassoc' and one of the orders it allows
/// with it). A poison element or start value makes the result poison.
bool Executor::Impl::execReduction(OpCtx &C, bool &Handled) {
  const DInst &D = C.I;
  bool Ordered = false, FP = false;
  switch (D.IID) {
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul:
    Ordered = true;
    [[fallthrough]];
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    FP = true;
    break;
  case Intrinsic::vector_reduce_add:
  case Intrinsic::vector_reduce_mul:
  case Intrinsic::vector_reduce_and:
  case Intrinsic::vector_reduce_or:
  case Intrinsic::vector_reduce_xor:
  case Intrinsic::vector_reduce_smin:
  case Intrinsic::vector_reduce_smax:
  case Intrinsic::vector_reduce_umin:
  case Intrinsic::vector_reduce_umax:
    break;
  default:
    return execCompareConvert(C, Handled);
  }
  Handled = true;
  const DecodedFunc &DF = *C.F.DF;
  Leaf L = DF.Leaves[DF.Slots[D.Res].LeafBegin];
  unsigned VecOp = Ordered ? 1 : 0, N = C.opSlot(VecOp).N;
  uint64_t P = Ordered ? C.opPoison(0) : 0;
  for (unsigned E = 0; E < N; ++E)
    P |= C.opPoison(VecOp, E);
  unsigned IID = D.IID;
  forLanes(C.Exec, [&](unsigned Lane) {
    uint64_t Acc = Ordered ? C.op(0, Lane) : C.op(VecOp, Lane, 0);
    for (unsigned E = Ordered ? 0 : 1; E < N; ++E) {
      uint64_t X = C.op(VecOp, Lane, E);
      Acc = FP ? reduceFPStep(IID, L, Acc, X)
               : reduceIntStep(IID, Acc, X, L.Bits);
    }
    C.res(Lane) = Acc;
  });
  C.setPoison(P);
  return true;
}

/// Saturating float-to-integer conversion (LangRef "llvm.fptosi.sat" /
/// "llvm.fptoui.sat"): NaN gives 0, out-of-range values clamp to the
/// destination's range, others round toward zero.
static uint64_t fpToIntSat(double X, unsigned Bits, bool Signed) {
  if (std::isnan(X))
    return 0;
  double T = std::trunc(X);
  uint64_t M = maskBits(Bits);
  if (Signed) {
    double Lim = std::ldexp(1.0, Bits - 1); // 2^(Bits-1), exact
    if (T >= Lim)
      return M >> 1;
    if (T < -Lim)
      return (M >> 1) + 1;
    return (uint64_t)(int64_t)T & M;
  }
  if (T <= 0)
    return 0;
  if (T >= std::ldexp(1.0, Bits))
    return M;
  return (uint64_t)T;
}

/// llvm.scmp / llvm.ucmp (three-way compare: -1, 0, 1 in the result type)
/// and llvm.fptosi.sat / llvm.fptoui.sat, element-wise.
bool Executor::Impl::execCompareConvert(OpCtx &C, bool &Handled) {
  const DInst &D = C.I;
  bool Signed = D.IID == Intrinsic::scmp || D.IID == Intrinsic::fptosi_sat;
  bool Cmp = D.IID == Intrinsic::scmp || D.IID == Intrinsic::ucmp;
  if (!Cmp && D.IID != Intrinsic::fptosi_sat && D.IID != Intrinsic::fptoui_sat)
    return execMemIntrinsic(C, Handled);
  Handled = true;
  const DecodedFunc &DF = *C.F.DF;
  unsigned NR = C.resLeaves();
  for (unsigned L = 0; L < NR; ++L) {
    Leaf R = DF.Leaves[DF.Slots[D.Res].LeafBegin + L];
    Leaf S = DF.Leaves[C.opSlot(0).LeafBegin + L];
    uint64_t P = C.opPoison(0, L) | (Cmp ? C.opPoison(1, L) : 0);
    forLanes(C.Exec, [&](unsigned Lane) {
      uint64_t A = C.op(0, Lane, L);
      if (!Cmp) {
        C.res(Lane, L) = fpToIntSat(leafToDouble(S, A), R.Bits, Signed);
        return;
      }
      uint64_t B = C.op(1, Lane, L);
      bool Less = Signed ? sext(A, S.Bits) < sext(B, S.Bits) : A < B;
      int64_t V = A == B ? 0 : Less ? -1 : 1;
      C.res(Lane, L) = (uint64_t)V & maskBits(R.Bits);
    });
    C.setPoison(P, L);
  }
  return true;
}

bool Executor::Impl::execMemIntrinsic(OpCtx &C, bool &Handled) {
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

bool Executor::Impl::execCall(Wave &Wv, Frame &F, const DInst &D, OpCtx &C,
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
    if (!Err.empty())
      return false;
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

//===----------------------------------------------------------------------===//
// Waves and control flow
//===----------------------------------------------------------------------===//

void Executor::Impl::initFrame(Frame &Fr, DecodedFunc *DF, uint64_t Live,
                               Wave &Wv) {
  Fr.DF = DF;
  Fr.D = DF->InitD;
  Fr.P = DF->InitP;
  Fr.LaneBlock.assign(W, -1);
  for (unsigned L = 0; L < W; ++L)
    if ((Live >> L) & 1)
      Fr.LaneBlock[L] = 0;
  Fr.Live = Live;
  Fr.Cur = -1;
  // Private stack: all lanes share the same frame offset.
  uint32_t Top = 0;
  for (unsigned L = 0; L < W; ++L)
    Top = std::max(Top, Wv.PrivTop[L]);
  Fr.PrivBase = alignTo(Top, 16);
  uint32_t NewTop = Fr.PrivBase + DF->PrivateSize;
  if (NewTop > (1u << 20)) {
    Err = "private memory (stack) exhausted in '" + DF->F->getName().str() +
          "' (recursion?)";
    return;
  }
  for (unsigned L = 0; L < W; ++L) {
    Region &R = Wv.Priv[L];
    if (R.Bytes.size() < NewTop) {
      R.Bytes.resize(NewTop, 0);
      R.Init.resize(NewTop, 0);
    }
    std::fill(R.Init.begin() + Fr.PrivBase, R.Init.begin() + NewTop, 0);
    Wv.PrivTop[L] = NewTop;
  }
  Fr.RetD.assign(DF->RetLeaves * W, 0);
  Fr.RetP.assign(DF->RetLeaves, 0);
}

/// Transfers the lanes in \p M from block \p B along edge \p E.
static void takeEdge(Frame &F, const Edge &E, uint64_t M, unsigned W,
                     std::vector<uint64_t> &Tmp) {
  const DecodedFunc &DF = *F.DF;
  // Parallel phi copies: read everything first.
  Tmp.clear();
  for (auto &Cp : E.Copies) {
    const SlotInfo &S = DF.Slots[Cp.second];
    for (unsigned L = 0; L < S.N; ++L) {
      forLanes(
          M, [&](unsigned Lane) { Tmp.push_back(F.D[S.Data + L * W + Lane]); });
      Tmp.push_back(F.P[S.Pois + L]);
    }
  }
  size_t K = 0;
  for (auto &Cp : E.Copies) {
    const SlotInfo &S = DF.Slots[Cp.first];
    for (unsigned L = 0; L < S.N; ++L) {
      forLanes(M,
               [&](unsigned Lane) { F.D[S.Data + L * W + Lane] = Tmp[K++]; });
      uint64_t P = Tmp[K++];
      // A uniform (constant) incoming value is defined in every lane.
      uint64_t &DP = F.P[S.Pois + L];
      DP = (DP & ~M) | (P & M);
    }
  }
  forLanes(M, [&](unsigned Lane) { F.LaneBlock[Lane] = E.Target; });
}

/// BranchModel::LastActiveLane: a branch or switch sends the whole wave
/// where its last active lane goes (simx alu_unit.cpp, BrType::BR with
/// `thread_last`); the phi copies run for the active lanes only; `ret`
/// returns every lane of the frame.
bool Executor::Impl::execWarpTerminator(Frame &F, const DBlock &B,
                                        const DInst &D) {
  static thread_local std::vector<uint64_t> Tmp;
  uint64_t Exec = F.Exec;
  OpCtx C{*this, F, D, Exec, Exec, W};
  unsigned Last = 63 - llvm::countl_zero(Exec);
  unsigned S = 0;
  if (D.Opc == Instruction::Ret) {
    if (CurWave->Frames.size() == 1 && TM->kernelReturn(C) < 0)
      return false;
    if (!execTerminator(F, B, D))
      return false;
    forLanes(F.Live, [&](unsigned Lane) { F.LaneBlock[Lane] = -1; });
    F.Live = 0;
    return true;
  }
  if (D.Opc == Instruction::Switch ||
      (D.Opc == Instruction::Br && B.Succ.size() == 2)) {
    if ((C.opPoison(0) >> Last) & 1)
      return C.fail(Twine(D.Opc == Instruction::Br ? "branch" : "switch") +
                    " on poison in lane " + Twine(Last) +
                    " (the warp's last active lane, which decides)");
    uint64_t V = C.op(0, Last);
    if (D.Opc == Instruction::Br)
      S = (V & 1) ? 0 : 1;
    for (unsigned K = 0; D.Opc == Instruction::Switch && K < D.Cases.size();
         ++K)
      if (D.Cases[K] == V) {
        S = K + 1;
        break;
      }
  } else if (D.Opc != Instruction::Br) {
    return execTerminator(F, B, D);
  }
  Stats.LaneInstructions += llvm::popcount(Exec);
  ++Stats.WaveInstructions;
  const Edge &E = B.Succ[S];
  if (!E.Unsupported.empty()) {
    Err = E.Unsupported + waveWhere(CurWave ? CurWave->Index : 0);
    return false;
  }
  takeEdge(F, E, Exec, W, Tmp);
  forLanes(F.Live, [&](unsigned Lane) { F.LaneBlock[Lane] = E.Target; });
  return true;
}

bool Executor::Impl::execTerminator(Frame &F, const DBlock &B, const DInst &D) {
  static thread_local std::vector<uint64_t> Tmp;
  uint64_t Exec = F.Exec;
  OpCtx C{*this, F, D, Exec, Exec, W};
  // An edge whose phi copies are not modelled fails when lanes take it.
  bool EdgeOk = true;
  auto Take = [&](const Edge &E, uint64_t M) {
    if (!E.Unsupported.empty() && EdgeOk) {
      Err = E.Unsupported + waveWhere(CurWave ? CurWave->Index : 0);
      EdgeOk = false;
    }
    if (EdgeOk)
      takeEdge(F, E, M, W, Tmp);
  };
  Stats.LaneInstructions += llvm::popcount(Exec);
  ++Stats.WaveInstructions;
  switch (D.Opc) {
  case Instruction::Br: {
    if (B.Succ.size() == 1) {
      Take(B.Succ[0], Exec);
      return EdgeOk;
    }
    // Operand 0 of a conditional br is the condition; successors 0 = true.
    if (uint64_t P = C.opPoison(0) & Exec)
      return C.fail("branch on poison in lane " + Twine(llvm::countr_zero(P)));
    uint64_t T = 0;
    forLanes(Exec, [&](unsigned Lane) {
      if (C.op(0, Lane) & 1)
        T |= 1ULL << Lane;
    });
    if (T)
      Take(B.Succ[0], T);
    if (Exec & ~T)
      Take(B.Succ[1], Exec & ~T);
    return EdgeOk;
  }
  case Instruction::Switch: {
    if (uint64_t P = C.opPoison(0) & Exec)
      return C.fail("switch on poison in lane " + Twine(llvm::countr_zero(P)));
    // Successor 0 is the default; case K goes to successor K+1.
    SmallVector<uint64_t, 8> Masks(B.Succ.size(), 0);
    forLanes(Exec, [&](unsigned Lane) {
      uint64_t V = C.op(0, Lane);
      unsigned S = 0;
      for (unsigned K = 0; K < D.Cases.size(); ++K)
        if (D.Cases[K] == V) {
          S = K + 1;
          break;
        }
      Masks[S] |= 1ULL << Lane;
    });
    for (unsigned S = 0; S < Masks.size(); ++S)
      if (Masks[S])
        Take(B.Succ[S], Masks[S]);
    return EdgeOk;
  }
  case Instruction::Ret: {
    if (!D.Ops.empty()) {
      const SlotInfo &S = C.opSlot(0);
      for (unsigned L = 0; L < S.N; ++L) {
        forLanes(Exec, [&](unsigned Lane) {
          F.RetD[L * W + Lane] = F.D[S.Data + L * W + Lane];
        });
        F.RetP[L] = (F.RetP[L] & ~Exec) | (C.opPoison(0, L) & Exec);
      }
    }
    forLanes(Exec, [&](unsigned Lane) { F.LaneBlock[Lane] = -1; });
    F.Live &= ~Exec;
    return true;
  }
  case Instruction::Unreachable:
    return C.fail("reached 'unreachable' in lane " +
                  Twine(llvm::countr_zero(Exec)));
  default:
    return C.fail(Twine("unsupported terminator '") + D.I->getOpcodeName() +
                  "'");
  }
}

/// Runs a target's inline assembly and applies the warp control it asked
/// for: 0 go on with the next instruction, 1 the frame jumped, 2 the wave
/// stops (blocked at a barrier or retired), -1 error.
int Executor::Impl::execTargetAsm(Wave &Wv, Frame &F, const DInst &D,
                                  OpCtx &C) {
  Ctl = Control();
  ++Stats.WaveInstructions;
  Stats.LaneInstructions += llvm::popcount(C.Exec);
  if (TM->execAsm(C, D.TargetAsm) < 0)
    return -1;
  if (Ctl.Mask) {
    Wv.TMask = *Ctl.Mask;
    if (!Wv.TMask) { // simx Scheduler::setTmask: the warp retires
      Wv.Frames.clear();
      Wv.Done = true;
      return 2;
    }
    F.Exec = Wv.TMask & F.Live;
  }
  if (Ctl.Jump) {
    const CodePoint &P = *Ctl.Jump;
    if (P.Depth + 1 != Wv.Frames.size())
      return failAt(*D.I, "warp control jumps into another function's "
                          "frame, which is not modelled"),
             -1;
    F.Cur = P.Block;
    F.InstIdx = P.Inst;
    forLanes(F.Live, [&](unsigned Lane) { F.LaneBlock[Lane] = P.Block; });
    F.Exec = Wv.TMask & F.Live;
    return 1;
  }
  ++F.InstIdx;
  if (Ctl.Block) {
    Wv.Blocked = true;
    Wv.BarrierInst = D.I;
    return 2;
  }
  return 0;
}

/// Runs \p Wv until it finishes, hits a barrier, or fails.
bool Executor::Impl::runWave(Wave &Wv) {
  // Blocks a wave runs before it gives way to the other waves of its
  // workgroup (any interleaving at block boundaries is one the hardware may
  // produce; a fixed slice keeps runs deterministic).
  constexpr unsigned SliceBlocks = 4096;
  CurWave = &Wv;
  Wv.AtBarrier = false;
  unsigned Blocks = 0;
  while (!Wv.Frames.empty()) {
    Frame &F = Wv.Frames.back();
    if (F.Cur < 0 && Wv.MayYield && ++Blocks > SliceBlocks)
      return true; // neither at a barrier nor done: resumes here
    if (F.Cur < 0) {
      // Pick the first block in scheduling order holding live lanes.
      int Best = INT32_MAX;
      forLanes(F.Live, [&](unsigned Lane) {
        Best = std::min<int>(Best, F.LaneBlock[Lane]);
      });
      if (Best == INT32_MAX) {
        // Function returned in every lane: pop into the caller.
        Frame Done = std::move(Wv.Frames.back());
        Wv.Frames.pop_back();
        for (unsigned L = 0; L < W; ++L)
          Wv.PrivTop[L] = Done.PrivBase;
        if (Wv.Frames.empty()) {
          Wv.RetD = std::move(Done.RetD);
          Wv.RetP = std::move(Done.RetP);
          break;
        }
        Frame &Caller = Wv.Frames.back();
        if (LastLane) // the callee may have changed the thread mask
          Caller.Exec = Wv.TMask & Caller.Live;
        const DBlock &CB = Caller.DF->Blocks[Caller.Cur];
        const DInst &CI = CB.Insts[Caller.InstIdx];
        if (CI.Res >= 0) {
          const SlotInfo &S = Caller.DF->Slots[CI.Res];
          for (unsigned L = 0; L < S.N; ++L) {
            forLanes(Caller.Exec, [&](unsigned Lane) {
              Caller.D[S.Data + L * W + Lane] = Done.RetD[L * W + Lane];
            });
            uint64_t &P = Caller.P[S.Pois + L];
            P = (P & ~Caller.Exec) | (Done.RetP[L] & Caller.Exec);
          }
        }
        ++Caller.InstIdx;
        continue;
      }
      F.Cur = Best;
      F.InstIdx = 0;
      F.Exec = 0;
      forLanes(F.Live, [&](unsigned Lane) {
        if (F.LaneBlock[Lane] == Best)
          F.Exec |= 1ULL << Lane;
      });
      if (LastLane && !(F.Exec &= Wv.TMask))
        return failAt(*F.DF->Blocks[Best].Insts[0].I,
                      "the thread mask 0x" + utohexstr(Wv.TMask) +
                          " holds no lane of the wave");
    }
    const DBlock &B = F.DF->Blocks[F.Cur];
    while (F.InstIdx < B.Insts.size()) {
      const DInst &D = B.Insts[F.InstIdx];
      if (!D.Unsupported.empty()) {
        // Decoded without a wave: say where it ran.
        Err = D.Unsupported + waveWhere(Wv.Index);
        return false;
      }
      if (Stats.LaneInstructions > Budget) {
        failAt(*D.I, "lane-instruction budget exhausted (infinite loop?)");
        return false;
      }
      if (D.I->isTerminator()) {
        if (!(LastLane ? execWarpTerminator(F, B, D) : execTerminator(F, B, D)))
          return false;
        F.Cur = -1;
        break;
      }
      if (D.Opc == Instruction::Call) {
        uint64_t Exec = D.WWM ? FullMask : F.Exec;
        OpCtx C{*this, F, D, Exec, F.Exec, W};
        // Barriers suspend the wave (after checking convergence).
        if (D.IID == Intrinsic::amdgcn_s_barrier ||
            D.IID == Intrinsic::amdgcn_s_barrier_wait) {
          uint64_t Elsewhere = F.Live & ~F.Exec;
          for (size_t K = 0; K + 1 < Wv.Frames.size(); ++K)
            Elsewhere |= Wv.Frames[K].Live & ~Wv.Frames[K].Exec;
          if (Elsewhere)
            return failAt(*D.I,
                          "barrier reached by only part of the wave (lanes " +
                              utohexstr(F.Exec) + " here, lanes " +
                              utohexstr(Elsewhere) + " elsewhere): deadlock");
          ++Stats.WaveInstructions;
          Stats.LaneInstructions += llvm::popcount(F.Exec);
          ++F.InstIdx;
          Wv.AtBarrier = true;
          Wv.BarrierInst = D.I;
          return true;
        }
        if (D.IID == Intrinsic::amdgcn_s_sleep && Wv.MayYield) {
          ++F.InstIdx;
          return true; // gives way to the other waves
        }
        if (D.IID == Intrinsic::amdgcn_s_barrier_signal ||
            D.IID == Intrinsic::amdgcn_s_barrier_signal_isfirst) {
          if (D.Res >= 0) {
            forLanes(F.Exec,
                     [&](unsigned Lane) { C.res(Lane) = Wv.Index == 0; });
            C.setPoison(0);
          }
          ++F.InstIdx;
          continue;
        }
        if (D.TargetAsm) {
          int R = execTargetAsm(Wv, F, D, C);
          if (R < 0)
            return false;
          if (R == 1)
            break; // jumped: the frame resumes at its new point
          if (R == 2)
            return true; // blocked at a barrier, or retired
          continue;
        }
        if (D.AssertFail)
          return failAssert(C);
        if (D.AsmComment) {
          for (unsigned L = 0, N = D.Res >= 0 ? C.resLeaves() : 0; L < N; ++L) {
            forLanes(Exec, [&](unsigned Lane) {
              C.res(Lane, L) = C.op(D.AsmTiedOp, Lane, L);
            });
            C.setPoison(C.opPoison(D.AsmTiedOp, L), L);
          }
          ++F.InstIdx;
          continue;
        }
        if (D.Printf) {
          if (!execPrintf(C, D.Printf))
            return false;
          ++F.InstIdx;
          continue;
        }
        bool Pushed = false;
        if (!execCall(Wv, F, D, C, Pushed))
          return false;
        if (Pushed)
          break; // F may be invalidated; the callee frame runs next.
        ++F.InstIdx;
        continue;
      }
      uint64_t Exec = D.WWM ? FullMask : F.Exec;
      if (!execInst(Wv, F, D, Exec, F.Exec))
        return false;
      ++F.InstIdx;
    }
  }
  Wv.Done = true;
  return true;
}

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
    uint64_t V = KA.IsBuffer ? BufAddr[KA.Buffer] : KA.Bits;
    std::string Which = "kernel argument value " +
                        std::to_string(&L - Leaves.data()) + " (" +
                        typeName(L.Ty) + ")";
    if (KA.IsBuffer && !L.Ty->isPointerTy()) {
      Err = Which + " is not a pointer but a buffer was given";
      return false;
    }
    if (!KA.IsBuffer && L.Ty->isPointerTy() && V != 0) {
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
  uint64_t Local = alignTo(StaticLDS + TM->staticLocalBytes(K), 16);
  LDS.Bytes.assign(Local + C.DynamicLDS, 0);
  LDS.Init.assign(Local + C.DynamicLDS, 0);
  if (!Err.empty()) // e.g. the 32-bit address space is full
    return false;
  CurWave = nullptr;
  DecodedFunc *DK = decode(K);
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

//===----------------------------------------------------------------------===//
// Executor
//===----------------------------------------------------------------------===//

Executor::Executor(Module &M, std::unique_ptr<TargetModel> Target)
    : P(std::make_unique<Impl>(M, std::move(Target))) {
  registerDefaultBuiltins();
}
Executor::~Executor() = default;

Error Executor::run(Function &Kernel, const LaunchConfig &Cfg,
                    std::vector<std::vector<uint8_t>> &Buffers) {
  if (!P->run(Kernel, Cfg, Buffers))
    return createStringError(inconvertibleErrorCode(), P->Err);
  return Error::success();
}

const ExecStats &Executor::stats() const { return P->Stats; }
TargetModel &Executor::target() { return *P->TM; }

} // namespace exec
} // namespace crosslane
