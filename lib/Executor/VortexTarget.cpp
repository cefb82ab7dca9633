//===- VortexTarget.cpp - Vortex target model of the wave executor --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Vortex v3.0 behind the executor's TargetModel. Facts come from Vortex's
/// cycle simulator simx (src/vortex/sim/simx/ of the Vortex sources in
/// /work/shared/vortex), read, not copied:
///  * wctl_unit.cpp (WctlUnit::process): tmc takes the mask from the last
///    active lane's rs1; split returns the IPDOM stack depth before the
///    push as its token, and when both subsets are non-empty pushes
///    {tmask, PC + 4} and continues with the *smaller* subset (the `then`
///    lanes on a tie); join does nothing if its token equals the depth,
///    else on the first visit switches to `~tmask & orig_tmask` and jumps
///    to the resume PC, on the second restores `orig_tmask` and pops; pred
///    keeps `tmask & cond` or, if that is empty, takes rs2 of the last
///    active lane; split.n (rs2 != x0) and pred.n (rd != x0) negate the
///    condition (decode.cpp); a barrier takes id and count from the last
///    active lane;
///  * scheduler.cpp: the IPDOM stack holds NUM_THREADS - 1 entries (a
///    split beyond aborts); an empty thread mask retires the warp;
///  * barrier_unit.cpp (BarrierUnit::arrive): a local barrier counts
///    arrivals, one per execution of the instruction by a warp whatever its
///    mask, and releases every waiting warp when the count reaches the
///    operand (count 0 aborts, 1 releases at once); types.h bar_decode_id:
///    id bits 7..0 CTA slot, 30..8 barrier number, 31 global;
///  * alu_unit.cpp: branches are resolved with `thread_last`, the highest
///    active lane (the engine's BranchModel::LastActiveLane); votes over the
///    active lanes; shuffles with rs2 = (mask << 12) | (c << 6) | b, where
///    an out-of-range source lane reads the lane's own value and an
///    inactive source lane's register is read as it is (here: the value
///    that lane last computed for the operand, poison if it never did);
///  * csr_unit.cpp: the CSR values; cta_dispatcher.cpp: the last warp of a
///    CTA starts with only its threads in the mask.
/// Each CTA runs alone at slot 0 on warps 0..M-1 of core 0 (simx may place
/// it elsewhere; only CSRs 0xCC1, 0xCD0 and 0xF14 show the difference).
///
//===----------------------------------------------------------------------===//

#include "crosslane/Executor/VortexTarget.h"

#include "VortexLaunch.h"

#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace llvm;

namespace crosslane {
namespace exec {

using vortex::AsmKind;

namespace {

/// What a modelled inline-asm call does.
enum class VxOp : uint8_t {
  Csr,
  Tmc,
  Split,
  Join,
  Barrier,
  Pred,
  Vote,
  Shuffle,
  Nop
};

/// A decoded `.insn r` / `csrr`: its operation and which call argument each
/// register operand is (-1: x0, which reads 0).
struct VxAsm {
  VxOp Op = VxOp::Nop;
  unsigned Csr = 0;
  unsigned F3 = 0;
  bool Neg = false; ///< split.n / pred.n
  int Rs1 = -1, Rs2 = -1;
};

/// One IPDOM stack entry (simx warp.ipdom_stack).
struct IpdomEntry {
  uint64_t OrigMask = 0;
  CodePoint Else; ///< the instruction after the split
  bool Fallthrough = false;
};

/// Arrivals at one barrier id (simx warp_barrier_t: count, wait_mask).
struct BarrierState {
  unsigned Arrived = 0;
  SmallVector<unsigned, 8> Waiting;
};

} // namespace

static const char *opName(VxOp Op) {
  switch (Op) {
  case VxOp::Tmc:
    return "vx_tmc";
  case VxOp::Split:
    return "vx_split";
  case VxOp::Join:
    return "vx_join";
  case VxOp::Pred:
    return "vx_pred";
  case VxOp::Barrier:
    return "vx_barrier";
  default:
    return "Vortex instruction";
  }
}

static bool isZeroReg(StringRef R) { return R == "x0" || R == "zero"; }

/// The fields `OPC, F3, F7, RD, RS1, RS2` of \p CB's `.insn r` text.
static bool insnFields(const CallBase &CB, SmallVectorImpl<StringRef> &F) {
  StringRef Dest, Src;
  StringRef S = vortex::splitLoadPrefix(
      cast<InlineAsm>(CB.getCalledOperand())->getAsmString(), Dest, Src);
  if (!S.consume_front(".insn r"))
    return false;
  S.split(F, ',');
  for (StringRef &X : F)
    X = X.trim();
  return F.size() == 6;
}

static unsigned numOutputs(const CallBase &CB) {
  unsigned N = 0;
  for (const InlineAsm::ConstraintInfo &CI :
       cast<InlineAsm>(CB.getCalledOperand())->ParseConstraints())
    N += CI.Type == InlineAsm::isOutput;
  return N;
}

/// `$N` (or `${N}`) as a call-argument index, -1 for x0; -2 otherwise. The
/// destination of a `li` line (vortex::splitLoadPrefix) stands for the
/// li's constant operand.
static int operandArg(const CallBase &CB, StringRef Field) {
  if (isZeroReg(Field))
    return -1;
  StringRef Dest, Src;
  vortex::splitLoadPrefix(
      cast<InlineAsm>(CB.getCalledOperand())->getAsmString(), Dest, Src);
  if (!Dest.empty() && Field == Dest) {
    if (Src == Dest)
      return -2;
    return operandArg(CB, Src);
  }
  unsigned N;
  if (!Field.consume_front("$"))
    return -2;
  Field.consume_front("{");
  Field.consume_back("}");
  if (Field.getAsInteger(10, N))
    return -2;
  unsigned Outs = numOutputs(CB);
  if (N < Outs || N - Outs >= CB.arg_size())
    return -2;
  return N - Outs;
}

/// A literal or a `$N` bound to a constant argument.
static std::optional<uint64_t> constField(const CallBase &CB, StringRef Field) {
  uint64_t V;
  if (!Field.getAsInteger(0, V))
    return V;
  int A = operandArg(CB, Field);
  if (A >= 0)
    if (auto *C = dyn_cast<ConstantInt>(CB.getArgOperand(A)))
      return C->getZExtValue();
  return std::nullopt;
}

/// A CSR of VortexISA.td (csrValue gives each its value).
static bool knownCSR(unsigned Csr) {
  return Csr <= 0xFFF && vortex::lookupCSR(Csr);
}

namespace {

class VortexTarget : public TargetModel {
  VortexConfig Cfg;
  VortexSemantics Sem;
  Flat32Layout Layout;
  std::vector<VortexKernelMeta> Kernels;
  std::vector<VxAsm> Asms; ///< decodeAsm kind K is Asms[K - 1]
  std::vector<std::vector<IpdomEntry>> Ipdom; ///< per wave of the CTA
  std::map<uint32_t, BarrierState> Bars;

public:
  VortexTarget(const VortexConfig &C, VortexSemantics S,
               std::vector<VortexKernelMeta> Ks)
      : Cfg(C), Sem(S), Kernels(std::move(Ks)) {}

  StringRef name() const override { return "vortex"; }
  unsigned waveSize() const override { return Cfg.Threads; }
  MemSpace memSpace(unsigned AS) const override {
    return AS == 0 ? MemSpace::Global : MemSpace::Other;
  }
  void buildDispatch(const LaunchConfig &, uint64_t, std::vector<uint8_t> &,
                     std::vector<uint8_t> &) const override {}
  int execIntrinsic(OpCtx &, unsigned) override { return 0; }
  int execExternal(OpCtx &, StringRef) override { return 0; }
  BranchModel branchModel() const override {
    return Sem == VortexSemantics::Hardware ? BranchModel::LastActiveLane
                                            : BranchModel::Reconverging;
  }
  std::optional<Flat32Layout> flat32() const override { return Layout; }

  bool checkLaunch(const Function &K, const LaunchConfig &C,
                   std::string &Err) const override;
  const Function &launchEntry(const Function &K,
                              const LaunchConfig &C) const override;
  int packArguments(const Function &K, const LaunchConfig &C,
                    ArrayRef<uint64_t> BufAddr, std::vector<uint8_t> &Blob,
                    std::string &Err) const override;
  uint64_t staticLocalBytes(const Function &K) const override {
    const VortexKernelMeta *KM = meta(K);
    return KM ? KM->LmemStatic : 0;
  }
  unsigned decodeAsm(const CallBase &CB, std::string &Why) override;
  int execAsm(OpCtx &C, unsigned Kind) override;
  void beginWorkgroup(Engine &, unsigned NumWaves) override {
    Ipdom.assign(NumWaves, {});
    Bars.clear();
  }
  int kernelReturn(OpCtx &C) override;

private:
  const VortexKernelMeta *meta(const Function &K) const;
  bool decodeInsn(const CallBase &CB, AsmKind Kind, VxAsm &A,
                  std::string &Why) const;
  uint32_t csrValue(Engine &E, unsigned Csr, unsigned Lane) const;
  int readCSR(OpCtx &C, unsigned Csr);
  int vote(OpCtx &C, const VxAsm &A);
  int shuffle(OpCtx &C, const VxAsm &A);
  int barrier(OpCtx &C, const VxAsm &A);
  int split(OpCtx &C, const VxAsm &A);
  int join(OpCtx &C, const VxAsm &A);
  int pred(OpCtx &C, const VxAsm &A);
  /// Register operand \p Arg (-1: x0) in \p Lane; false if it is poison.
  bool reg(OpCtx &C, int Arg, unsigned Lane, uint32_t &V) const {
    if (Arg < 0) {
      V = 0;
      return true;
    }
    V = C.op(Arg, Lane) & 0xFFFFFFFF;
    return !((C.opPoison(Arg) >> Lane) & 1);
  }
  /// Register operand \p Arg of inactive \p Lane; true if it is poison.
  bool heldPoison(OpCtx &C, int Arg, unsigned Lane, uint32_t &V) const {
    V = Arg < 0 ? 0 : C.op(Arg, Lane) & 0xFFFFFFFF;
    return Arg >= 0 && ((C.opHeldPoison(Arg) >> Lane) & 1);
  }
  /// The operand as the warp's last active lane has it (simx reads the
  /// operands of warp-wide decisions there); reports poison.
  bool lastLaneReg(OpCtx &C, int Arg, const char *What, uint32_t &V) const {
    unsigned Last = 63 - llvm::countl_zero(C.Exec);
    if (reg(C, Arg, Last, V))
      return true;
    C.fail(Twine(What) + " is poison in lane " + Twine(Last) +
           " (the warp's last active lane, whose value counts)");
    return false;
  }
  /// Bit 0 of operand \p Arg, xor \p Neg, for each active lane.
  bool conditions(OpCtx &C, int Arg, bool Neg, uint64_t &True) const;
  std::vector<IpdomEntry> &stack(Engine &E) { return Ipdom[E.waveIndex()]; }
};

} // namespace

const VortexKernelMeta *VortexTarget::meta(const Function &K) const {
  StringRef N = K.getName();
  if (!N.consume_front(VortexEntryPrefix))
    return nullptr;
  for (const VortexKernelMeta &KM : Kernels)
    if (KM.Name == N)
      return &KM;
  return nullptr;
}

bool VortexTarget::checkLaunch(const Function &K, const LaunchConfig &C,
                               std::string &Err) const {
  uint64_t Threads = uint64_t(C.Block[0]) * C.Block[1] * C.Block[2];
  uint64_t Max = uint64_t(Cfg.Warps) * Cfg.Threads;
  if (Threads > Max) {
    Err = "a block of " + std::to_string(Threads) + " threads exceeds the " +
          "Vortex configuration's limit of " + std::to_string(Cfg.Warps) +
          " warps x " + std::to_string(Cfg.Threads) +
          " threads = " + std::to_string(Max) + " threads (" + Cfg.Name + ")";
    return false;
  }
  uint64_t Local = alignTo(staticLocalBytes(K), 16) + C.DynamicLDS;
  uint64_t Cap = 1ULL << Cfg.LmemLogSize;
  if (Local > Cap) {
    Err = "the kernel needs " + std::to_string(Local) +
          " bytes of local memory (static + dynamic), more than the " +
          std::to_string(Cap) + " bytes of the configuration (" + Cfg.Name +
          ")";
    return false;
  }
  return true;
}

/// As Crosslane's HIP runtime: blocks of whole warps enter through
/// `__vx_kentry_<name>.fullwarps` (EntryStub.cpp), which
/// crosslane-vortex-full-warps may point at a copy of the entry whose
/// subgroup operations assume every lane on.
const Function &VortexTarget::launchEntry(const Function &K,
                                          const LaunchConfig &C) const {
  const VortexKernelMeta *KM = meta(K);
  uint64_t Threads = uint64_t(C.Block[0]) * C.Block[1] * C.Block[2];
  if (!KM || !Cfg.Threads || Threads % Cfg.Threads)
    return K;
  const GlobalAlias *A =
      K.getParent()->getNamedAlias(vortex::fullWarpsEntrySymbol(KM->Name));
  auto *F = A ? dyn_cast<Function>(A->getAliasee()) : nullptr;
  return F && !F->isDeclaration() ? *F : K;
}

int VortexTarget::packArguments(const Function &K, const LaunchConfig &C,
                                ArrayRef<uint64_t> BufAddr,
                                std::vector<uint8_t> &Blob,
                                std::string &Err) const {
  const VortexKernelMeta *KM = meta(K);
  if (!KM)
    return 0;
  if (K.arg_size() != 1 || !K.getArg(0)->getType()->isPointerTy()) {
    Err = "kernel entry '" + K.getName().str() +
          "' does not take one pointer (the argument blob)";
    return -1;
  }
  return packVortexArgs(*KM, C, BufAddr, Blob, Err) ? 1 : -1;
}

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

bool VortexTarget::decodeInsn(const CallBase &CB, AsmKind Kind, VxAsm &A,
                              std::string &Why) const {
  SmallVector<StringRef, 6> F;
  std::optional<uint64_t> F3;
  if (!insnFields(CB, F) || !(F3 = constField(CB, F[1]))) {
    Why = "a Vortex .insn whose fields the executor cannot read";
    return false;
  }
  A.F3 = *F3;
  A.Rs1 = operandArg(CB, F[4]);
  A.Rs2 = operandArg(CB, F[5]);
  switch (Kind) {
  case AsmKind::TMC:
    A.Op = VxOp::Tmc;
    break;
  case AsmKind::Split:
    A.Op = VxOp::Split, A.Neg = !isZeroReg(F[5]), A.Rs2 = -1;
    break;
  case AsmKind::Join:
    A.Op = VxOp::Join;
    break;
  case AsmKind::Barrier:
    A.Op = VxOp::Barrier;
    break;
  case AsmKind::Pred:
    A.Op = VxOp::Pred, A.Neg = !isZeroReg(F[3]);
    break;
  case AsmKind::Vote:
    A.Op = VxOp::Vote, A.Rs2 = -1;
    break;
  default:
    A.Op = VxOp::Shuffle;
    break;
  }
  if (A.Rs1 == -2 || A.Rs2 == -2) {
    Why = "a Vortex .insn that names a register other than x0 directly";
    return false;
  }
  return true;
}

unsigned VortexTarget::decodeAsm(const CallBase &CB, std::string &Why) {
  std::optional<vortex::AsmInfo> Info = vortex::decodeAsm(CB);
  if (!Info)
    return 0;
  VxAsm A;
  switch (Info->Kind) {
  case AsmKind::Unknown:
    return 0;
  case AsmKind::CSRRead:
    if (!knownCSR(Info->Csr)) {
      Why = "Vortex CSR 0x" + utohexstr(Info->Csr) + " is not modelled";
      return 0;
    }
    A.Op = VxOp::Csr, A.Csr = Info->Csr;
    break;
  case AsmKind::WSync: // drains the warp's pending instructions: no effect
    A.Op = VxOp::Nop;
    break;
  case AsmKind::WSpawn:
    Why = "vx_wspawn is not modelled (KMU kernels start with all warps)";
    return 0;
  case AsmKind::BarrierAsync:
    Why = "vx_barrier_arrive / vx_barrier_wait are not modelled";
    return 0;
  default:
    if (!decodeInsn(CB, Info->Kind, A, Why))
      return 0;
    break;
  }
  Asms.push_back(A);
  return Asms.size();
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

int VortexTarget::execAsm(OpCtx &C, unsigned Kind) {
  const VxAsm &A = Asms[Kind - 1];
  switch (A.Op) {
  case VxOp::Nop:
    return 1;
  case VxOp::Csr:
    return readCSR(C, A.Csr);
  case VxOp::Vote:
    return vote(C, A);
  case VxOp::Shuffle:
    return shuffle(C, A);
  case VxOp::Barrier:
    return barrier(C, A);
  default:
    break;
  }
  if (Sem == VortexSemantics::Structured)
    return C.fail(Twine(opName(A.Op)) +
                  " sets the thread mask: lowered code needs "
                  "--vortex-semantics=hardware"),
           -1;
  switch (A.Op) {
  case VxOp::Split:
    return split(C, A);
  case VxOp::Join:
    return join(C, A);
  case VxOp::Pred:
    return pred(C, A);
  default: {
    uint32_t Mask;
    if (!lastLaneReg(C, A.Rs1, "the vx_tmc mask", Mask))
      return -1;
    C.E.setThreadMask(Mask);
    return 1;
  }
  }
}

uint32_t VortexTarget::csrValue(Engine &E, unsigned Csr, unsigned Lane) const {
  const LaunchConfig &L = E.launch();
  unsigned Wave = E.waveIndex();
  using namespace vortex;
  switch (Csr) {
  case CSRThreadId:
    return Lane;
  case CSRWarpId:
  case CSRCtaRank:
    return Wave;
  case CSRActiveWarps:
    return E.numWaves() >= 32 ? ~0u : (1u << E.numWaves()) - 1;
  case CSRActiveThreads:
    return E.threadMask();
  case CSRNumThreads:
    return Cfg.Threads;
  case CSRNumWarps:
    return Cfg.Warps;
  case CSRNumCores:
    return Cfg.Cores;
  case CSRLocalMemBase:
    return Layout.LocalBase;
  case CSRNumBarriers:
    return Cfg.Barriers;
  case CSRHartId: // of core 0
    return Wave * Cfg.Threads + Lane;
  case CSRCtaSize:
    return E.numWaves();
  case CSRCtaLocalMem:
    return Layout.LocalBase;
  case CSRMCycle:
  case CSRCycle:
    return E.clock() & 0xFFFFFFFF;
  case CSRMCycleH:
  case CSRCycleH:
    return E.clock() >> 32;
  case CSRCtaId: // slot 0
  default:
    break;
  }
  if (Csr >= CSRThreadIdxX && Csr <= CSRThreadIdxZ)
    return E.workitemId(Lane, Csr - CSRThreadIdxX);
  if (Csr >= CSRBlockIdxX && Csr <= CSRBlockIdxZ)
    return E.workgroupId(Csr - CSRBlockIdxX);
  if (Csr >= CSRBlockDimX && Csr <= CSRBlockDimZ)
    return L.Block[Csr - CSRBlockDimX];
  if (Csr >= CSRGridDimX && Csr <= CSRGridDimZ)
    return L.Grid[Csr - CSRGridDimX];
  return 0;
}

int VortexTarget::readCSR(OpCtx &C, unsigned Csr) {
  forLanes(C.Exec,
           [&](unsigned Lane) { C.res(Lane) = csrValue(C.E, Csr, Lane); });
  C.setPoison(0);
  return 1;
}

bool VortexTarget::conditions(OpCtx &C, int Arg, bool Neg,
                              uint64_t &True) const {
  True = 0;
  bool Ok = true;
  forLanes(C.Exec, [&](unsigned Lane) {
    uint32_t V;
    if (!Ok)
      return;
    if (!reg(C, Arg, Lane, V)) {
      Ok = false;
      C.fail("the condition is poison in lane " + Twine(Lane));
      return;
    }
    if ((V & 1) ^ Neg)
      True |= 1ULL << Lane;
  });
  return Ok;
}

/// vx_vote_{all,any,uni,ballot} (alu_unit.cpp VoteType): over the active
/// lanes' bit 0; the same result in every active lane.
int VortexTarget::vote(OpCtx &C, const VxAsm &A) {
  uint64_t Ballot = 0, Poison = 0;
  forLanes(C.Exec, [&](unsigned Lane) {
    uint32_t V;
    if (!reg(C, A.Rs1, Lane, V))
      Poison = C.Exec;
    if (V & 1)
      Ballot |= 1ULL << Lane;
  });
  bool AnyTrue = Ballot != 0, AnyFalse = Ballot != C.Exec;
  uint64_t R = A.F3 == 0   ? !AnyFalse
               : A.F3 == 1 ? AnyTrue
               : A.F3 == 2 ? (!AnyTrue || !AnyFalse)
                           : Ballot;
  forLanes(C.Exec, [&](unsigned Lane) { C.res(Lane) = R & 0xFFFFFFFF; });
  C.setPoison(Poison);
  return 1;
}

/// vx_shfl_{up,down,bfly,idx} (alu_unit.cpp ShflType).
int VortexTarget::shuffle(OpCtx &C, const VxAsm &A) {
  int W = Cfg.Threads;
  uint64_t Poison = 0;
  SmallVector<uint64_t, 32> Out(W, 0);
  forLanes(C.Exec, [&](unsigned T) {
    uint32_t BC, V;
    if (!reg(C, A.Rs2, T, BC)) {
      Poison |= 1ULL << T;
      return;
    }
    int B = BC & 0x3f, Cv = (BC >> 6) & 0x3f, Mask = (BC >> 12) & 0x3f;
    int MaxLane = (int(T) & Mask) | (Cv & ~Mask), MinLane = int(T) & Mask;
    int Lane = 0;
    bool Valid = false;
    switch (A.F3) {
    case 4:
      Lane = int(T) - B, Valid = Lane >= MinLane;
      break;
    case 5:
      Lane = int(T) + B, Valid = Lane <= MaxLane;
      break;
    case 6:
      Lane = int(T) ^ B, Valid = Lane <= MaxLane;
      break;
    default:
      Lane = MinLane | (B & ~Mask), Valid = Lane <= MaxLane;
      break;
    }
    if (!Valid || Lane >= W)
      Lane = T;
    // simx reads an inactive source lane's register as it is: the value
    // that lane last computed (poison if it never did).
    bool Active = (C.Exec >> Lane) & 1;
    if (Active ? !reg(C, A.Rs1, Lane, V) : heldPoison(C, A.Rs1, Lane, V))
      Poison |= 1ULL << T;
    else
      Out[T] = V;
  });
  forLanes(C.Exec, [&](unsigned T) { C.res(T) = Out[T]; });
  C.setPoison(Poison);
  return 1;
}

/// vx_barrier(id, count): one arrival of this warp (barrier_unit.cpp).
int VortexTarget::barrier(OpCtx &C, const VxAsm &A) {
  Engine &E = C.E;
  uint32_t Id, Count;
  if (!lastLaneReg(C, A.Rs1, "the barrier id", Id) ||
      !lastLaneReg(C, A.Rs2, "the barrier's warp count", Count))
    return -1;
  unsigned NW = E.numWaves();
  if (uint64_t Else = E.lanesElsewhere())
    return C.fail("barrier reached by only part of the warp (lanes 0x" +
                  utohexstr(C.Exec) + " here, lanes 0x" + utohexstr(Else) +
                  " elsewhere): deadlock"),
           -1;
  unsigned Slot = Id & 0xFF, Bar = (Id >> 8) & 0x7FFFFF;
  if (Id >> 31)
    return C.fail("global barriers (id bit 31) are not modelled"), -1;
  if (Slot != 0)
    return C.fail("barrier id 0x" + utohexstr(Id) + " names CTA slot " +
                  Twine(Slot) + ", not this CTA's (CSR 0xCD0 reads 0)"),
           -1;
  if (Bar >= Cfg.Barriers)
    return C.fail("barrier number " + Twine(Bar) + " >= VX_CFG_NUM_BARRIERS (" +
                  Twine(Cfg.Barriers) + ")"),
           -1;
  if (Count == 0)
    return C.fail("barrier with a warp count of 0: simx aborts"), -1;
  if (Count != NW)
    return C.fail("barrier expects " + Twine(Count) + " warps, CTA has " +
                  Twine(NW) + ": simx would " +
                  (Count > NW ? "hang"
                              : "release it before every warp "
                                "arrives")),
           -1;
  BarrierState &S = Bars[Id];
  if (++S.Arrived == Count) {
    for (unsigned Wv : S.Waiting)
      E.releaseWave(Wv);
    S = BarrierState();
    return 1;
  }
  S.Waiting.push_back(E.waveIndex());
  E.blockWave();
  return 1;
}

int VortexTarget::split(OpCtx &C, const VxAsm &A) {
  Engine &E = C.E;
  uint64_t Then;
  if (!conditions(C, A.Rs1, A.Neg, Then))
    return -1;
  uint64_t Else = C.Exec & ~Then;
  std::vector<IpdomEntry> &S = stack(E);
  if (!C.inst().getType()->isVoidTy()) { // the depth before the push
    forLanes(C.Exec, [&](unsigned Lane) { C.res(Lane) = S.size(); });
    C.setPoison(0);
  }
  if (!Then || !Else)
    return 1;
  if (S.size() >= Cfg.Threads - 1)
    return C.fail("the IPDOM stack is full (" + Twine(Cfg.Threads - 1) +
                  " entries, NUM_THREADS - 1): simx aborts"),
           -1;
  S.push_back({E.threadMask(), E.nextPoint(), false});
  E.setThreadMask(llvm::popcount(Then) <= llvm::popcount(Else) ? Then : Else);
  return 1;
}

int VortexTarget::join(OpCtx &C, const VxAsm &A) {
  Engine &E = C.E;
  uint32_t Token;
  if (!lastLaneReg(C, A.Rs1, "the join token", Token))
    return -1;
  std::vector<IpdomEntry> &S = stack(E);
  if (Token == S.size())
    return 1;
  if (S.empty())
    return C.fail("vx_join with an empty IPDOM stack: simx aborts"), -1;
  IpdomEntry &Top = S.back();
  if (Top.Fallthrough) {
    E.setThreadMask(Top.OrigMask);
    S.pop_back();
    return 1;
  }
  E.setThreadMask(~E.threadMask() & Top.OrigMask);
  E.jumpTo(Top.Else);
  Top.Fallthrough = true;
  return 1;
}

int VortexTarget::pred(OpCtx &C, const VxAsm &A) {
  Engine &E = C.E;
  uint64_t Keep;
  if (!conditions(C, A.Rs1, A.Neg, Keep))
    return -1;
  if (Keep) {
    E.setThreadMask(E.threadMask() & Keep);
    return 1;
  }
  uint32_t Restore;
  if (!lastLaneReg(C, A.Rs2, "the vx_pred restore mask", Restore))
    return -1;
  E.setThreadMask(Restore);
  return 1;
}

int VortexTarget::kernelReturn(OpCtx &C) {
  std::vector<IpdomEntry> &S = stack(C.E);
  if (S.empty())
    return 1;
  return C.fail("the warp leaves the kernel with " + Twine(S.size()) +
                " IPDOM stack entr" + (S.size() == 1 ? "y" : "ies") +
                " (a vx_split without its vx_join)"),
         -1;
}

std::unique_ptr<TargetModel> createVortexTarget(const Module &M,
                                                const VortexConfig &C,
                                                VortexSemantics S,
                                                std::string &Err) {
  if (C.Threads < 1 || C.Threads > 32 || C.Warps < 1) {
    Err = "unsupported Vortex configuration: " + std::to_string(C.Warps) +
          " warps of " + std::to_string(C.Threads) +
          " threads (1 to 32 threads per warp)";
    return nullptr;
  }
  std::vector<VortexKernelMeta> Ks;
  if (!readVortexMeta(M, Ks, Err))
    return nullptr;
  return std::make_unique<VortexTarget>(C, S, std::move(Ks));
}

} // namespace exec
} // namespace crosslane
