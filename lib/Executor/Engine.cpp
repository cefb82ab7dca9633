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
/// This file holds the seam (OpCtx, the engine's construction), error
/// locations and the public Executor API. The phases live beside it:
/// Values.cpp (leaves, constants, slots), Decode.cpp (scheduling order,
/// whole-wave slices, instruction records), Memory.cpp (regions, address
/// resolution, loads, stores, atomics), Execution.cpp (instructions),
/// Intrinsics.cpp (generic LLVM intrinsics), ExternalFunctions.cpp (calls,
/// builtins, printf, assert), ControlFlow.cpp (frames, terminators,
/// reconvergence, the wave loop) and Launch.cpp (kernel arguments,
/// workgroups, launches).
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crosslane {
namespace exec {

TargetModel::~TargetModel() = default;
Engine::~Engine() = default;

Executor::Impl::Impl(Module &M, std::unique_ptr<TargetModel> T)
    : M(M), TM(std::move(T)), DL(M.getDataLayout()), Map(TM->flat32()) {
  W = TM->waveSize();
  FullMask = W == 64 ? ~0ULL : ((1ULL << W) - 1);
  LastLane = TM->branchModel() == BranchModel::LastActiveLane;
}

//===----------------------------------------------------------------------===//
// OpCtx
//===----------------------------------------------------------------------===//

unsigned OpCtx::numOps() const { return LaneCtx{*this}.numOps(); }
const SlotInfo &OpCtx::opSlot(unsigned Op) const {
  return LaneCtx{*this}.opSlot(Op);
}
uint64_t OpCtx::op(unsigned Op, unsigned Lane, unsigned L) const {
  return LaneCtx{*this}.op(Op, Lane, L);
}
uint64_t OpCtx::opPoison(unsigned Op, unsigned L) const {
  return LaneCtx{*this}.opPoison(Op, L);
}
uint64_t OpCtx::opHeldPoison(unsigned Op, unsigned L) const {
  return LaneCtx{*this}.opHeldPoison(Op, L);
}
bool OpCtx::constOp(unsigned Op, uint64_t &V) const {
  return LaneCtx{*this}.constOp(Op, V);
}
uint64_t &OpCtx::res(unsigned Lane, unsigned L) {
  return LaneCtx{*this}.res(Lane, L);
}
void OpCtx::setPoison(uint64_t Mask, unsigned L) {
  LaneCtx{*this}.setPoison(Mask, L);
}
void OpCtx::setPoisonLanes(uint64_t Mask, uint64_t Which, unsigned L) {
  LaneCtx{*this}.setPoisonLanes(Mask, Which, L);
}
unsigned OpCtx::resLeaves() const { return LaneCtx{*this}.resLeaves(); }
bool OpCtx::fail(const Twine &Msg) {
  return static_cast<Executor::Impl &>(E).failAt(*I.I, Msg);
}
const Instruction &OpCtx::inst() const { return LaneCtx{*this}.inst(); }
Type *OpCtx::opType(unsigned Op) const { return LaneCtx{*this}.opType(Op); }

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

std::string Executor::Impl::blockName(const BasicBlock *BB) {
  if (BB->hasName())
    return BB->getName().str();
  std::string S;
  raw_string_ostream OS(S);
  BB->printAsOperand(OS, false);
  return OS.str();
}

std::string Executor::Impl::location(const Instruction &I) {
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

std::string Executor::Impl::waveWhere(unsigned WaveIndex) const {
  return (" in workgroup (" + Twine(WG[0]) + "," + Twine(WG[1]) + "," +
          Twine(WG[2]) + ") wave " + Twine(WaveIndex))
      .str();
}

bool Executor::Impl::failAt(const Instruction &I, const Twine &Msg) {
  if (Err.empty())
    Err = (Msg + " at " + location(I)).str();
  return false;
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
