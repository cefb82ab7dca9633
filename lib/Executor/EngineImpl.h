//===- EngineImpl.h - Decoded functions, frames, waves ----------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Private structures of the engine: every function is decoded once into
/// blocks (in reverse post order) of DInst records that name operand slots,
/// so execution never looks up llvm::Value maps per lane; the memory
/// regions, waves, and Executor::Impl, the engine itself, whose members are
/// defined by phase in Engine.cpp (the seam, errors, the public API),
/// Values.cpp, Decode.cpp, Memory.cpp, Execution.cpp, Intrinsics.cpp,
/// ExternalFunctions.cpp, ControlFlow.cpp and Launch.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_EXECUTOR_ENGINEIMPL_H
#define CROSSLANE_LIB_EXECUTOR_ENGINEIMPL_H

#include "AddressMap.h"
#include "crosslane/Executor/Builtins.h"
#include "crosslane/Executor/Engine.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constant.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/Error.h"

#include <array>
#include <map>
#include <memory>

namespace llvm {
class Constant;
class ConstantExpr;
class DataLayout;
class GlobalVariable;
} // namespace llvm

namespace crosslane {
namespace exec {

struct DecodedFunc;

/// One decoded instruction.
struct DInst {
  const llvm::Instruction *I = nullptr;
  unsigned Opc = 0; ///< llvm::Instruction opcode
  unsigned IID = 0; ///< intrinsic id for calls
  int32_t Res = -1; ///< result slot
  llvm::SmallVector<int32_t, 4> Ops;
  uint32_t NonUniformOps = 0; ///< bit k: operand k may be undefined in
                              ///< inactive lanes (not uniform, not WWM)
  bool WWM = false;           ///< runs for all lanes (whole-wave slice)
  unsigned Index = 0;         ///< 1-based number within its block
  // Memory.
  unsigned AS = 0, Align = 1, EltSize = 0;
  /// Aggregate loads/stores: each leaf's (byte offset, size); empty for
  /// scalars and vectors (leaf L at L * EltSize).
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 4> LeafMem;
  unsigned MemBytes = 0; ///< bytes an aggregate access covers
  /// Arithmetic, compare or cast on integers of 65..128 bits (execWide).
  bool Wide = false;
  // GEP: constant offset plus scaled variable indices.
  int64_t ConstOff = 0;
  llvm::SmallVector<std::pair<int32_t, int64_t>, 2> GepIdx;
  // extract/insertvalue: leaf offset; shufflevector mask.
  unsigned LeafOff = 0;
  llvm::SmallVector<int, 8> Mask;
  // Calls.
  DecodedFunc *Callee = nullptr;
  const BuiltinFn *Builtin = nullptr;
  bool External = false;
  bool AssertFail = false; ///< HIP's __assert_fail: a failed device assert
  /// A work-group barrier: s_barrier, or a call the target names one
  /// (TargetModel::isBarrierCall).
  bool Barrier = false;
  /// A work-group collective (TargetModel::isCollectiveCall).
  bool Collective = false;
  /// Inline assembly that is only a comment (ockl's "hoisting hack"s): it
  /// runs nothing; the result, if any, is the operand its output is tied
  /// to (-1: no result).
  bool AsmComment = false;
  int AsmTiedOp = -1;
  /// Inline assembly the target models (TargetModel::decodeAsm), 0: none.
  unsigned TargetAsm = 0;
  /// ockl's printf protocol (__ockl_[f]printf_*): 1 begin, 2 append a
  /// string, 3 append arguments. 0: not a printf call.
  unsigned Printf = 0;
  // Switch case values, one per successor after the default.
  llvm::SmallVector<uint64_t, 4> Cases;
  /// Not modelled: the error, raised only if the instruction runs (code on
  /// cold paths, e.g. assert's __assert_fail or printf, must not stop a
  /// kernel that never reaches it).
  std::string Unsupported;
};

/// A CFG edge with the phi copies it performs.
struct Edge {
  int Target = -1;
  llvm::SmallVector<std::pair<int32_t, int32_t>, 4> Copies; ///< phi <- src
  std::string Unsupported; ///< a phi copy not modelled: fails if taken
};

struct DBlock {
  const llvm::BasicBlock *BB = nullptr;
  std::vector<DInst> Insts; ///< non-phi instructions, terminator last
  llvm::SmallVector<Edge, 2> Succ;
};

struct DecodedFunc {
  const llvm::Function *F = nullptr;
  std::vector<SlotInfo> Slots;
  std::vector<Leaf> Leaves;
  uint32_t DataSize = 0, PoisSize = 0;
  std::vector<uint64_t> InitD, InitP; ///< constants pre-filled
  std::vector<DBlock> Blocks;         ///< RPO order; 0 = entry
  std::vector<int32_t> ArgSlots;
  uint32_t PrivateSize = 0;                  ///< static allocas per lane
  uint32_t PrivateAlign = 16;                ///< the frame's alignment
  llvm::SmallVector<int32_t, 1> RetLeafSlot; ///< unused placeholder
  unsigned RetLeaves = 0;
};

/// One activation of a function in a wave.
struct Frame {
  DecodedFunc *DF = nullptr;
  std::vector<uint64_t> D, P;
  llvm::SmallVector<int16_t, 64> LaneBlock; ///< -1: returned
  uint64_t Live = 0;                        ///< lanes not yet returned
  int Cur = -1; ///< executing block, -1: choose next
  unsigned InstIdx = 0;
  uint64_t Exec = 0;
  uint32_t PrivBase = 0;      ///< per-lane private offset of this frame
  std::vector<uint64_t> RetD; ///< return value leaves x W
  std::vector<uint64_t> RetP;
};

/// OpCtx as the engine's own handlers see it: the same accessors, defined
/// here inline, so that the engine's per-lane loops do not call into
/// another file for every operand. The OpCtx members the target models call
/// (Engine.cpp) forward to these.
struct LaneCtx : OpCtx {
  unsigned numOps() const { return I.Ops.size(); }
  const SlotInfo &opSlot(unsigned Op) const { return F.DF->Slots[I.Ops[Op]]; }
  uint64_t op(unsigned Op, unsigned Lane, unsigned L = 0) const {
    const SlotInfo &S = F.DF->Slots[I.Ops[Op]];
    return F.D[S.Data + L * W + Lane];
  }
  uint64_t opPoison(unsigned Op, unsigned L = 0) const {
    const SlotInfo &S = F.DF->Slots[I.Ops[Op]];
    uint64_t P = F.P[S.Pois + L];
    if ((I.NonUniformOps >> Op) & 1)
      P |= ~LaneMask;
    return P;
  }
  uint64_t opHeldPoison(unsigned Op, unsigned L = 0) const {
    const SlotInfo &S = F.DF->Slots[I.Ops[Op]];
    return F.P[S.Pois + L] | ~F.Live;
  }
  bool constOp(unsigned Op, uint64_t &V) const {
    const SlotInfo &S = F.DF->Slots[I.Ops[Op]];
    if (!llvm::isa<llvm::Constant>(I.I->getOperand(Op)) || F.P[S.Pois])
      return false;
    V = F.D[S.Data];
    return true;
  }
  uint64_t &res(unsigned Lane, unsigned L = 0) {
    const SlotInfo &S = F.DF->Slots[I.Res];
    return F.D[S.Data + L * W + Lane];
  }
  void setPoison(uint64_t Mask, unsigned L = 0) {
    const SlotInfo &S = F.DF->Slots[I.Res];
    uint64_t &P = F.P[S.Pois + L];
    P = (P & ~Exec) | (Mask & Exec);
  }
  void setPoisonLanes(uint64_t Mask, uint64_t Which, unsigned L = 0) {
    const SlotInfo &S = F.DF->Slots[I.Res];
    uint64_t &P = F.P[S.Pois + L];
    P = (P & ~Which) | (Mask & Which);
  }
  unsigned resLeaves() const { return I.Res < 0 ? 0 : F.DF->Slots[I.Res].N; }
  const llvm::Instruction &inst() const { return *I.I; }
  llvm::Type *opType(unsigned Op) const {
    return I.I->getOperand(Op)->getType();
  }
};

/// The leaf type of leaf \p L of the result of \p C's instruction.
inline Leaf resLeaf(const LaneCtx &C, unsigned L) {
  const DecodedFunc &DF = *C.F.DF;
  return DF.Leaves[DF.Slots[C.I.Res].LeafBegin + L];
}

/// The leaf type of leaf \p L of operand \p Op of \p C's instruction.
inline Leaf opLeaf(const LaneCtx &C, unsigned Op, unsigned L) {
  const DecodedFunc &DF = *C.F.DF;
  return DF.Leaves[DF.Slots[C.I.Ops[Op]].LeafBegin + L];
}

/// A byte-addressed region with an initialised-byte shadow.
struct Region {
  std::string Name;
  std::vector<uint8_t> Bytes;
  std::vector<uint8_t> Init;
  bool ReadOnly = false;
  bool Declared = false; ///< a constant the module declares but never defines
  bool Private = false;  ///< a lane's private memory (its stack)
};

/// Where one scalar leaf of a value lives in memory: its type and byte
/// offset (and, for kernel arguments, the parameter it belongs to).
struct MemLeaf {
  llvm::Type *Ty;
  uint64_t Offset;
  unsigned Param = 0;
};

/// Appends the scalar leaves of \p T placed at \p Off, in the order the
/// engine flattens values (struct fields and array/vector elements in
/// memory order); false for types with no byte-addressed scalar leaves
/// (e.g. i1 vectors, integers wider than 128 bits).
bool collectMemLeaves(llvm::Type *T, uint64_t Off, unsigned Param,
                      std::vector<MemLeaf> &Out, const llvm::DataLayout &DL);

/// One wave of the running workgroup: its frames (the kernel's first),
/// barrier state and per-lane private memory.
struct Wave {
  unsigned Index = 0;
  uint64_t Valid = 0; ///< lanes that exist (partial waves)
  std::vector<Frame> Frames;
  bool AtBarrier = false, Done = false;
  /// Waits at a work-group collective it has arrived at (AtBarrier is set
  /// too); runs the call again to complete it when the work-group passes.
  bool InCollective = false;
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
  const llvm::Instruction *BarrierInst = nullptr;
  std::vector<Region> Priv; ///< per-lane private memory
  std::vector<uint32_t> PrivTop;
  std::vector<uint64_t> RetD, RetP; ///< return value of the outermost frame
};

/// What a call instruction did to the wave's progress (runWave).
enum class CallStep {
  Next,   ///< go on with the frame's next instruction
  Resume, ///< the frame changed (a call pushed one, or a jump): pick again
  Stop,   ///< the wave stops here for now (barrier, s_sleep, blocked)
  Fail,   ///< an error (Err set)
};

/// The engine: decoded functions, memory, the running workgroup, and the
/// services target models call (Engine).
class Executor::Impl : public Engine {
public:
  llvm::Module &M;
  std::unique_ptr<TargetModel> TM;
  const llvm::DataLayout &DL;
  unsigned W;
  uint64_t FullMask;
  std::map<const llvm::Function *, std::unique_ptr<DecodedFunc>> Decoded;
  std::vector<Region> Globals; ///< index = region id - 1
  llvm::DenseMap<const llvm::GlobalVariable *, uint64_t>
      GlobalAddr; ///< non-LDS
  llvm::DenseMap<const llvm::GlobalVariable *, uint32_t> LDSOffset;
  uint32_t StaticLDS = 0;
  /// Local-memory addresses of the launch's __local arguments (0: none).
  std::vector<uint64_t> LocalArgAddr;
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

  Impl(llvm::Module &M, std::unique_ptr<TargetModel> T);

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
  bool loadLane(OpCtx &C, unsigned AS, uint64_t Addr, unsigned Lane,
                unsigned Size, uint64_t &V, bool &Poison) override;
  bool storeLane(OpCtx &C, unsigned AS, uint64_t Addr, unsigned Lane,
                 unsigned Size, uint64_t V) override;

  // --- Errors (Engine.cpp) -------------------------------------------------

  static std::string blockName(const llvm::BasicBlock *BB);
  /// "fn:block:N [file:line:col]: <instruction>".
  std::string location(const llvm::Instruction &I);
  /// " in workgroup (x,y,z) wave N": where an error happened.
  std::string waveWhere(unsigned WaveIndex) const;
  bool failAt(const llvm::Instruction &I, const llvm::Twine &Msg);

  // --- Values: types, constants, slots (Values.cpp) ------------------------

  bool flatten(llvm::Type *T, llvm::SmallVectorImpl<Leaf> &Out,
               std::string &Why);
  unsigned countLeaves(llvm::Type *T);
  /// Index of the first leaf that extractvalue/insertvalue \p Indices
  /// address inside aggregate type \p T.
  unsigned leafOffset(llvm::Type *T, llvm::ArrayRef<unsigned> Indices);
  /// Evaluates constant \p C into leaves \p V / poison flags \p P.
  bool evalConst(const llvm::Constant *C, llvm::SmallVectorImpl<uint64_t> &V,
                 llvm::SmallVectorImpl<bool> &P, std::string &Why);
  bool evalConstExpr(const llvm::ConstantExpr *CE,
                     llvm::SmallVectorImpl<uint64_t> &V,
                     llvm::SmallVectorImpl<bool> &P, std::string &Why);
  int32_t slotFor(DecodedFunc &DF, const llvm::Value *V,
                  llvm::DenseMap<const llvm::Value *, int32_t> &SlotOf,
                  std::string &Why);
  int32_t newSlot(DecodedFunc &DF, llvm::Type *T, std::string &Why);

  // --- Memory (Memory.cpp) -------------------------------------------------

  /// Address-space cast of \p X from \p From to \p To (lane for private).
  uint64_t castAddr(unsigned From, unsigned To, uint64_t X, unsigned Lane);
  /// Serialises constant \p C at \p Off of \p R.
  bool storeConst(const llvm::Constant *C, Region &R, uint64_t Off,
                  std::string &Why);
  uint64_t addRegion(llvm::StringRef Name, size_t Size, bool RO);
  /// Lays out module globals: LDS offsets and global/constant regions.
  bool layoutGlobals();
  /// Resolves an access of \p Size bytes at \p Addr in address space \p AS
  /// for \p Lane to a region and offset; reports errors at \p I.
  Region *resolve(const llvm::Instruction &I, unsigned AS, uint64_t Addr,
                  unsigned Lane, unsigned Size, unsigned Align, bool Write,
                  uint64_t &Off);
  bool execLoad(LaneCtx &C);
  bool execStore(LaneCtx &C);
  bool execAtomic(LaneCtx &C);
  bool execMemIntrinsic(LaneCtx &C, bool &Handled);

  // --- Decoding (Decode.cpp) -----------------------------------------------

  DecodedFunc *decode(const llvm::Function &F);
  bool decodeBody(const llvm::Function &F, DecodedFunc &DF);
  bool layoutAllocas(const llvm::Function &F, DecodedFunc &DF);
  bool decodeInst(DecodedFunc &DF, const llvm::Instruction &I, DInst &D,
                  llvm::DenseMap<const llvm::Value *, int32_t> &SlotOf,
                  const llvm::DenseSet<const llvm::Instruction *> &WWMSet);
  bool decodeMemAccess(const llvm::Instruction &I, DInst &D);
  bool decodeCall(const llvm::CallBase &CB, DInst &D);
  bool decodeInlineAsm(const llvm::CallBase &CB, DInst &D);
  bool decodeAggregateAccess(const llvm::Instruction &I, llvm::Type *T,
                             DInst &D);
  bool decodeWide(const llvm::Instruction &I, DInst &D);

  // --- Instructions (Execution.cpp) ----------------------------------------

  bool execInst(Frame &F, const DInst &D, uint64_t Exec, uint64_t LaneMask);
  bool execWide(LaneCtx &C, const DInst &D);
  bool execCast(LaneCtx &C);
  bool execAlloca(LaneCtx &C);

  // --- Intrinsics (Intrinsics.cpp) -----------------------------------------

  bool execGenericIntrinsic(LaneCtx &C, bool &Handled);

  // --- Calls, printf, assert (ExternalFunctions.cpp) -----------------------

  bool execCall(Wave &Wv, Frame &F, const DInst &D, LaneCtx &C, bool &Pushed);
  llvm::Expected<uint64_t>
  callScalar(llvm::Function &F, llvm::ArrayRef<uint64_t> Args, unsigned Lane);
  /// Appends to \p S the bytes at generic address \p Addr in \p Lane up to
  /// a NUL, an uninitialised byte (\p Poisoned) or \p Limit bytes; false
  /// (Err set) when a byte is not readable.
  bool readBytes(LaneCtx &C, uint64_t Addr, unsigned Lane, uint64_t Limit,
                 std::string &S, bool &Poisoned);
  /// A C string of at most 200 bytes for a message: what could be read
  /// before an unreadable or uninitialised byte, else "?".
  std::string readCString(LaneCtx &C, uint64_t Addr, unsigned Lane);

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
  static std::string formatPrintf(const PrintfCall &P);
  /// __ockl_[f]printf_begin / _append_string_n / _append_args, lane by lane.
  bool execPrintf(LaneCtx &C, unsigned Kind);
  /// __assert_fail(expr, file, line, function) in the first active lane.
  bool failAssert(LaneCtx &C);

  // --- Control flow, waves (ControlFlow.cpp) -------------------------------

  void initFrame(Frame &Fr, DecodedFunc *DF, uint64_t Live, Wave &Wv);
  bool execTerminator(Frame &F, const DBlock &B, const DInst &D);
  bool execWarpTerminator(Frame &F, const DBlock &B, const DInst &D);
  int execTargetAsm(Wave &Wv, Frame &F, const DInst &D, LaneCtx &C);
  CallStep execCallSite(Wave &Wv, Frame &F, const DInst &D);
  CallStep execCollective(Wave &Wv, Frame &F, const DInst &D, LaneCtx &C);
  bool enterBlock(Wave &Wv, Frame &F, int Block);
  bool popFrame(Wave &Wv);
  bool runWave(Wave &Wv);

  // --- Launches and workgroups (Launch.cpp) --------------------------------

  bool run(const llvm::Function &K, const LaunchConfig &C,
           std::vector<std::vector<uint8_t>> &Buffers);
  bool kernargLeaves(const llvm::Function &K, const LaunchConfig &C,
                     llvm::ArrayRef<uint64_t> BufAddr,
                     std::vector<uint8_t> &Kernarg,
                     std::vector<uint64_t> &ArgBits,
                     std::vector<uint64_t> &ByRefOff);
  bool runWorkgroup(DecodedFunc *DK, const std::vector<uint64_t> &ArgBits);
  /// When the waves of the workgroup have stopped at barriers: if one of
  /// them waits at a work-group collective, every wave must wait at the
  /// same call (same frames, same instruction); else an error.
  bool checkCollective(std::vector<Wave> &Waves);
};

} // namespace exec
} // namespace crosslane

#endif
