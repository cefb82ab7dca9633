//===- ControlFlow.cpp - Frames, terminators, reconvergence ---------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How lanes move through a kernel: frames of defined functions, phi
/// copies on CFG edges, branches, switches and returns (per lane, or the
/// whole wave after its last active lane under
/// BranchModel::LastActiveLane), the warp control a target's inline
/// assembly asks for, and the wave loop, which picks the first block in
/// scheduling order holding live lanes and runs it for exactly those lanes,
/// so they reconverge at joins and loop exits. Barriers, s_sleep and time
/// slices suspend a wave for the workgroup's scheduler (Launch.cpp).
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace crosslane {
namespace exec {

//===----------------------------------------------------------------------===//
// Frames and edges
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
  Fr.PrivBase = alignTo(Top, DF->PrivateAlign);
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

//===----------------------------------------------------------------------===//
// Terminators
//===----------------------------------------------------------------------===//

/// BranchModel::LastActiveLane: a branch or switch sends the whole wave
/// where its last active lane goes (simx alu_unit.cpp, BrType::BR with
/// `thread_last`); the phi copies run for the active lanes only; `ret`
/// returns every lane of the frame.
bool Executor::Impl::execWarpTerminator(Frame &F, const DBlock &B,
                                        const DInst &D) {
  static thread_local std::vector<uint64_t> Tmp;
  uint64_t Exec = F.Exec;
  LaneCtx C{{*this, F, D, Exec, Exec, W}};
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
  LaneCtx C{{*this, F, D, Exec, Exec, W}};
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

//===----------------------------------------------------------------------===//
// Warp control and calls
//===----------------------------------------------------------------------===//

/// Runs a target's inline assembly and applies the warp control it asked
/// for: 0 go on with the next instruction, 1 the frame jumped, 2 the wave
/// stops (blocked at a barrier or retired), -1 error.
int Executor::Impl::execTargetAsm(Wave &Wv, Frame &F, const DInst &D,
                                  LaneCtx &C) {
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

/// Runs call \p D of \p F in \p Wv: barriers (after checking that the
/// wave is converged), s_sleep, barrier signals, the target's inline
/// assembly, comment-only inline assembly, assert, printf, and calls of
/// intrinsics, defined functions and bodiless functions.
CallStep Executor::Impl::execCallSite(Wave &Wv, Frame &F, const DInst &D) {
  uint64_t Exec = D.WWM ? FullMask : F.Exec;
  LaneCtx C{{*this, F, D, Exec, F.Exec, W}};
  // Barriers suspend the wave (after checking convergence).
  if (D.Barrier) {
    uint64_t Elsewhere = F.Live & ~F.Exec;
    for (size_t K = 0; K + 1 < Wv.Frames.size(); ++K)
      Elsewhere |= Wv.Frames[K].Live & ~Wv.Frames[K].Exec;
    if (Elsewhere) {
      failAt(*D.I, "barrier reached by only part of the wave (lanes " +
                       utohexstr(F.Exec) + " here, lanes " +
                       utohexstr(Elsewhere) + " elsewhere): deadlock");
      return CallStep::Fail;
    }
    ++Stats.WaveInstructions;
    Stats.LaneInstructions += llvm::popcount(F.Exec);
    ++F.InstIdx;
    Wv.AtBarrier = true;
    Wv.BarrierInst = D.I;
    return CallStep::Stop;
  }
  if (D.Collective)
    return execCollective(Wv, F, D, C);
  if (D.IID == Intrinsic::amdgcn_s_sleep && Wv.MayYield) {
    ++F.InstIdx;
    return CallStep::Stop; // gives way to the other waves
  }
  if (D.IID == Intrinsic::amdgcn_s_barrier_signal ||
      D.IID == Intrinsic::amdgcn_s_barrier_signal_isfirst) {
    if (D.Res >= 0) {
      forLanes(F.Exec, [&](unsigned Lane) { C.res(Lane) = Wv.Index == 0; });
      C.setPoison(0);
    }
    ++F.InstIdx;
    return CallStep::Next;
  }
  if (D.TargetAsm) {
    int R = execTargetAsm(Wv, F, D, C);
    if (R < 0)
      return CallStep::Fail;
    if (R == 1)
      return CallStep::Resume; // jumped: the frame resumes at its new point
    if (R == 2)
      return CallStep::Stop; // blocked at a barrier, or retired
    return CallStep::Next;
  }
  if (D.AssertFail) {
    failAssert(C); // always an error
    return CallStep::Fail;
  }
  if (D.AsmComment) {
    for (unsigned L = 0, N = D.Res >= 0 ? C.resLeaves() : 0; L < N; ++L) {
      forLanes(Exec, [&](unsigned Lane) {
        C.res(Lane, L) = C.op(D.AsmTiedOp, Lane, L);
      });
      C.setPoison(C.opPoison(D.AsmTiedOp, L), L);
    }
    ++F.InstIdx;
    return CallStep::Next;
  }
  if (D.Printf) {
    if (!execPrintf(C, D.Printf))
      return CallStep::Fail;
    ++F.InstIdx;
    return CallStep::Next;
  }
  bool Pushed = false;
  if (!execCall(Wv, F, D, C, Pushed))
    return CallStep::Fail;
  // F may be invalidated; the callee frame runs next.
  if (Pushed)
    return CallStep::Resume;
  ++F.InstIdx;
  return CallStep::Next;
}

/// A work-group collective: on arrival the wave, which must run it with all
/// its work-items, hands the target its operands and waits as at a barrier,
/// without moving past the call; when the workgroup passes (every wave
/// waits at this call: checkCollective), the wave runs the call again and
/// the target writes the result.
CallStep Executor::Impl::execCollective(Wave &Wv, Frame &F, const DInst &D,
                                        LaneCtx &C) {
  StringRef Name = cast<CallBase>(D.I)->getCalledFunction()->getName();
  if (Wv.InCollective) {
    Wv.InCollective = false;
    if (TM->completeCollective(C, Name) < 0)
      return CallStep::Fail;
    ++F.InstIdx;
    return CallStep::Next;
  }
  if (F.Exec != Wv.Valid) {
    failAt(*D.I, "work-group collective '" + demangle(Name) +
                     "' reached by only part of the work-group (lanes 0x" +
                     utohexstr(F.Exec) + " of this wave run it, lanes 0x" +
                     utohexstr(Wv.Valid & ~F.Exec) + " do not)");
    return CallStep::Fail;
  }
  ++Stats.WaveInstructions;
  Stats.LaneInstructions += llvm::popcount(F.Exec);
  if (TM->arriveCollective(C, Name) < 0)
    return CallStep::Fail;
  Wv.InCollective = true;
  Wv.AtBarrier = true;
  Wv.BarrierInst = D.I;
  return CallStep::Stop;
}

//===----------------------------------------------------------------------===//
// The wave loop
//===----------------------------------------------------------------------===//

/// Pops the frame on top of \p Wv, which returned in every lane, and
/// hands its return value to the call that pushed it. False when it was the
/// wave's outermost frame.
bool Executor::Impl::popFrame(Wave &Wv) {
  Frame Done = std::move(Wv.Frames.back());
  Wv.Frames.pop_back();
  for (unsigned L = 0; L < W; ++L)
    Wv.PrivTop[L] = Done.PrivBase;
  if (Wv.Frames.empty()) {
    Wv.RetD = std::move(Done.RetD);
    Wv.RetP = std::move(Done.RetP);
    return false;
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
  return true;
}

/// Starts block \p Block of \p F for the lanes sitting there.
bool Executor::Impl::enterBlock(Wave &Wv, Frame &F, int Block) {
  F.Cur = Block;
  F.InstIdx = 0;
  F.Exec = 0;
  forLanes(F.Live, [&](unsigned Lane) {
    if (F.LaneBlock[Lane] == Block)
      F.Exec |= 1ULL << Lane;
  });
  if (LastLane && !(F.Exec &= Wv.TMask))
    return failAt(*F.DF->Blocks[Block].Insts[0].I,
                  "the thread mask 0x" + utohexstr(Wv.TMask) +
                      " holds no lane of the wave");
  return true;
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
        if (!popFrame(Wv))
          break;
        continue;
      }
      if (!enterBlock(Wv, F, Best))
        return false;
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
        CallStep S = execCallSite(Wv, F, D);
        if (S == CallStep::Fail)
          return false;
        if (S == CallStep::Stop)
          return true;
        if (S == CallStep::Resume)
          break;
        continue;
      }
      uint64_t Exec = D.WWM ? FullMask : F.Exec;
      if (!execInst(F, D, Exec, F.Exec))
        return false;
      ++F.InstIdx;
    }
  }
  Wv.Done = true;
  return true;
}

} // namespace exec
} // namespace crosslane
