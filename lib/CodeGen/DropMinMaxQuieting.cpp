//===- DropMinMaxQuieting.cpp - maxnum without sNaN quieting --------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// At this point of the pipeline (machine SSA, after PeepholeOptimizer) a
/// step of a relaxed reduction reads
///
///   %m = V_MOV_B32_dpp %old, %x, <ctrl>, 15, 15, <bound_ctrl>
///   %q = V_MAX_F32_e64 0, %m, 0, %m, 0, 0        ; the quieting
///   %y = V_MAX_F32_e64 0, %x, 0, %q, 0, 0        ; maxnum
///
/// and becomes %y = V_MAX_F32_e64 0, %x, 0, %m, 0, 0, which GCNDPPCombine
/// then fuses into one v_max_f32_dpp. See DropMinMaxQuieting.h for why
/// this is maxnum's semantics.
///
//===----------------------------------------------------------------------===//

#include "crosslane/CodeGen/DropMinMaxQuieting.h"
#include "crosslane/CodeGen/RelaxNaNGuard.h"
#include "crosslane/Support/Debug.h"
#include "crosslane/Vortex/VortexDivergence.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/PassRegistry.h"
#include "llvm/Target/TargetMachine.h"

#include <optional>
#include <vector>

#define DEBUG_TYPE "crosslane-drop-minmax-quieting"

using namespace llvm;

CROSSLANE_STATISTIC(NumDropped,
                    "Number of maxnum/minnum operand quietings dropped");

namespace crosslane {
namespace {

/// The AMDGPU opcodes the pass reads, recognised by name (no target header
/// is installed with LLVM); each opcode's name is looked at once per target,
/// and the kinds are a table indexed by opcode (the pass reads every
/// machine instruction of a relaxed function).
class Opcodes {
public:
  enum Kind : uint8_t { Other, MaxF32, MinF32, LaneMove, ScalarLaneMove, New };

  explicit Opcodes(const TargetInstrInfo &TII)
      : TII(TII), Kinds(TII.getNumOpcodes(), New) {}

  Kind kind(unsigned Opc) {
    if (Opc >= Kinds.size())
      return Other;
    Kind &K = Kinds[Opc];
    if (K == New)
      K = classify(TII.getName(Opc));
    return K;
  }

private:
  static Kind classify(StringRef Name) {
    if (Name == "V_MAX_F32_e64")
      return MaxF32;
    if (Name == "V_MIN_F32_e64")
      return MinF32;
    static constexpr StringLiteral Moves[] = {
        "V_MOV_B32_dpp", "V_SET_INACTIVE_B32", "V_PERMLANEX16_B32_e64",
        "V_PERMLANE16_B32_e64", "V_PERMLANE64_B32"};
    if (Name == "V_READLANE_B32")
      return ScalarLaneMove;
    return is_contained(Moves, Name) ? LaneMove : Other;
  }

  const TargetInstrInfo &TII;
  std::vector<Kind> Kinds;
};

/// V_MAX/MIN_F32_e64 dst, mods0, src0, mods1, src1, clamp, omod with every
/// modifier zero.
bool isPlainMinMax(const MachineInstr &MI, Opcodes &O) {
  Opcodes::Kind K = O.kind(MI.getOpcode());
  if (K != Opcodes::MaxF32 && K != Opcodes::MinF32)
    return false;
  if (MI.getNumExplicitOperands() != 7)
    return false;
  for (unsigned Idx : {1u, 3u, 5u, 6u})
    if (!MI.getOperand(Idx).isImm() || MI.getOperand(Idx).getImm() != 0)
      return false;
  return MI.getOperand(2).isReg() && MI.getOperand(4).isReg();
}

/// The quieting `V_MAX_F32_e64 %q, %x, %x` of a lane move %x; null otherwise.
Register quietedLaneMove(const MachineInstr &MI, Opcodes &O,
                         const MachineRegisterInfo &MRI) {
  if (O.kind(MI.getOpcode()) != Opcodes::MaxF32 || !isPlainMinMax(MI, O))
    return Register();
  const MachineOperand &A = MI.getOperand(2), &B = MI.getOperand(4);
  if (A.getReg() != B.getReg() || A.getSubReg() || B.getSubReg() ||
      !A.getReg().isVirtual() || !MI.getOperand(0).getReg().isVirtual())
    return Register();
  const MachineInstr *Def = MRI.getUniqueVRegDef(A.getReg());
  if (!Def)
    return Register();
  Opcodes::Kind K = O.kind(Def->getOpcode());
  if (K != Opcodes::LaneMove && K != Opcodes::ScalarLaneMove)
    return Register();
  return A.getReg();
}

/// Whether the users of the quieting may read \p X itself: same register
/// class, or an SGPR (a readlane; AMDGPU's uniform register classes are the
/// SGPR ones) where a VOP3 may read two SGPRs (GFX10+: the user, a
/// v_max/v_min of two registers, then reads at most two, the constant-bus
/// limit).
bool mayReadDirectly(Register X, Register Q, const MachineFunction &MF) {
  const MachineRegisterInfo &MRI = MF.getRegInfo();
  if (MRI.getRegClass(X) == MRI.getRegClass(Q))
    return true;
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  return !TRI.isDivergentRegClass(MRI.getRegClass(X)) &&
         MF.getSubtarget().checkFeatures("+gfx10-insts");
}

bool onlyFeedsMinMax(Register R, Opcodes &O, const MachineRegisterInfo &MRI) {
  bool Any = false;
  for (const MachineInstr &User : MRI.use_nodbg_instructions(R)) {
    if (!isPlainMinMax(User, O))
      return false;
    Any = true;
  }
  return Any;
}

class DropMinMaxQuieting : public MachineFunctionPass {
public:
  static char ID;
  DropMinMaxQuieting() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override {
    return "Crosslane: drop maxnum/minnum quieting of lane moves";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool doInitialization(Module &) override {
    noteStatisticsCounted();
    return false;
  }
  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  /// Opcode names looked at so far, for the target of the last function
  /// (the pass instance lives for the whole module).
  std::optional<Opcodes> Ops;
  const TargetInstrInfo *OpsFor = nullptr;
  QuietingCalls Quieting;
};

} // namespace

bool DropMinMaxQuieting::runOnMachineFunction(MachineFunction &MF) {
  const Function &F = MF.getFunction();
  if (!F.hasFnAttribute(RelaxedMinMaxAttr) || Quieting.in(F))
    return false;
  MachineRegisterInfo &MRI = MF.getRegInfo();
  if (!MRI.isSSA())
    return false;
  const TargetInstrInfo *TII = MF.getSubtarget().getInstrInfo();
  if (OpsFor != TII) {
    Ops.emplace(*TII);
    OpsFor = TII;
  }
  Opcodes &O = *Ops;

  SmallVector<MachineInstr *, 16> Quietings;
  for (MachineBasicBlock &MBB : MF)
    for (MachineInstr &MI : MBB)
      if (Register X = quietedLaneMove(MI, O, MRI);
          X && onlyFeedsMinMax(MI.getOperand(0).getReg(), O, MRI) &&
          mayReadDirectly(X, MI.getOperand(0).getReg(), MF))
        Quietings.push_back(&MI);

  for (MachineInstr *MI : Quietings) {
    Register Q = MI->getOperand(0).getReg(), X = MI->getOperand(2).getReg();
    MRI.replaceRegWith(Q, X);
    MRI.clearKillFlags(X);
    MI->eraseFromParent();
    ++NumDropped;
  }
  return !Quietings.empty();
}

char DropMinMaxQuieting::ID = 0;
char &DropMinMaxQuietingID = DropMinMaxQuieting::ID;

static RegisterPass<DropMinMaxQuieting>
    RegisterDrop(DEBUG_TYPE,
                 "Crosslane: drop maxnum/minnum quieting of lane moves",
                 /*CFGOnly=*/false, /*is_analysis=*/false);

void addCodeGenPasses(TargetMachine &TM, legacy::PassManagerBase &PM,
                      TargetPassConfig *PassConfig) {
  if (TM.getTargetTriple().isRISCV() && PassConfig) {
    addVortexCodeGenPasses(*PassConfig);
    return;
  }
  if (!TM.getTargetTriple().isAMDGPU() || !PassConfig ||
      TM.getOptLevel() == CodeGenOptLevel::None)
    return;
  PM.add(createRelaxNaNGuardLegacyPass());
  PassConfig->insertPass(&PeepholeOptimizerLegacyID, &DropMinMaxQuietingID);
}

} // namespace crosslane
