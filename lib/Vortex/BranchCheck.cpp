//===- BranchCheck.cpp - Every divergent machine branch is covered --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A verifier-style machine pass, run on Vortex functions right after
/// instruction selection has expanded its pseudos (finalize-isel, still
/// SSA): a conditional branch whose operands depend on the lane (thread-id
/// CSRs, shuffles, unknown asm, atomics, call results, arguments of
/// non-kernel functions, stack slots that received such values) must follow
/// a vx_split or vx_pred in its block; otherwise the warp would follow its
/// last active lane there. The check follows data dependences only (not the
/// joins of divergent branches, which crosslane-vortex-divergence handles in
/// IR), so it catches what the code generator adds after that pass: a
/// select or a 64-bit comparison expanded into a branch diamond (no Zicond),
/// a jump table. Each uncovered branch is a warning at the user's line.
///
//===----------------------------------------------------------------------===//

#include "crosslane/Vortex/VortexDivergence.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"

using namespace llvm;

#define DEBUG_TYPE "crosslane-vortex-branch-check"

STATISTIC(NumUncovered, "Divergent machine branches without split/pred");

namespace crosslane {
namespace {

/// The asm text of \p MI with each `$N` whose operand is an immediate
/// replaced by its value.
std::string asmText(const MachineInstr &MI) {
  StringRef S = MI.getOperand(InlineAsm::MIOp_AsmString).getSymbolName();
  SmallVector<std::optional<int64_t>, 8> Imms;
  for (unsigned I = InlineAsm::MIOp_FirstOperand; I < MI.getNumOperands();) {
    const MachineOperand &FlagOp = MI.getOperand(I);
    if (!FlagOp.isImm())
      break;
    InlineAsm::Flag F(FlagOp.getImm());
    unsigned N = F.getNumOperandRegisters();
    std::optional<int64_t> Imm;
    if (F.isImmKind() && N == 1 && MI.getOperand(I + 1).isImm())
      Imm = MI.getOperand(I + 1).getImm();
    Imms.push_back(Imm);
    I += 1 + N;
  }
  return vortex::substituteOperands(
      S, [&](unsigned N) { return N < Imms.size() ? Imms[N] : std::nullopt; });
}

std::optional<vortex::AsmInfo> asmInfo(const MachineInstr &MI) {
  if (!MI.isInlineAsm())
    return std::nullopt;
  return vortex::decodeAsmText(asmText(MI));
}

/// The argument registers (by name, e.g. "X10") of the arguments the IR
/// pass recorded as uniform. Only the leading arguments the RISC-V
/// convention puts in one integer or FP register each are mapped.
StringSet<> uniformArgRegs(const MachineFunction &MF) {
  StringSet<> Out;
  const Function &F = MF.getFunction();
  Attribute A = F.getFnAttribute("crosslane-vortex-uniform-args");
  if (!A.isValid())
    return Out;
  SmallVector<StringRef, 8> Items;
  A.getValueAsString().split(Items, ',');
  SmallVector<unsigned, 8> Uniform;
  for (StringRef Item : Items)
    Uniform.push_back(std::stoul(Item.str()));
  unsigned GPR = 10, FPR = 10; // a0 = x10, fa0 = f10
  for (const Argument &Arg : F.args()) {
    Type *T = Arg.getType();
    bool Float = T->isFloatTy();
    if (!Float && !T->isPointerTy() &&
        !(T->isIntegerTy() && T->getIntegerBitWidth() <= 32))
      break; // a pair, a struct or a double: the rest is not mapped
    unsigned &Next = Float ? FPR : GPR;
    if (Next > 17)
      break;
    if (is_contained(Uniform, Arg.getArgNo()))
      Out.insert((Float ? "F" : "X") + std::to_string(Next) +
                 (Float ? "_F" : ""));
    ++Next;
  }
  return Out;
}

class Taint {
public:
  Taint(const MachineFunction &MF)
      : MF(MF), MRI(MF.getRegInfo()), UniformArgs(uniformArgRegs(MF)) {}
  void run();
  bool isTainted(const MachineInstr &MI) const {
    return any_of(MI.uses(), [&](const MachineOperand &MO) {
      return MO.isReg() && MO.getReg().isVirtual() &&
             Regs.contains(MO.getReg());
    });
  }

private:
  const MachineFunction &MF;
  const MachineRegisterInfo &MRI;
  StringSet<> UniformArgs;
  DenseSet<Register> Regs;
  DenseSet<int> Slots;
  SmallVector<Register, 32> Work;

  void taintDefs(const MachineInstr &MI) {
    for (const MachineOperand &MO : MI.operands())
      if (MO.isReg() && MO.isDef() && MO.getReg().isVirtual() &&
          Regs.insert(MO.getReg()).second)
        Work.push_back(MO.getReg());
  }
  bool seeds(const MachineInstr &MI, bool Kernel) const;
  bool isUniformArg(Register PReg) const {
    const TargetRegisterInfo *TRI = MRI.getTargetRegisterInfo();
    return UniformArgs.contains(TRI->getName(PReg));
  }
  void taintSlot(int FI);
};

bool Taint::seeds(const MachineInstr &MI, bool Kernel) const {
  if (auto Info = asmInfo(MI))
    return vortex::asmResultDivergent(*Info);
  if (MI.mayLoad() && MI.mayStore())
    return true; // atomic
  if (MI.isCopy() && MI.getOperand(1).getReg().isPhysical()) {
    // Arguments of a kernel entry are the same in every lane, and so are
    // those the IR pass found uniform; other physical-register copies are
    // call results or arguments.
    Register Src = MI.getOperand(1).getReg();
    bool EntryArg = &*MF.begin() == MI.getParent() && MRI.isLiveIn(Src);
    if (EntryArg && (Kernel || isUniformArg(Src)))
      return false;
    return !MRI.isConstantPhysReg(Src);
  }
  return false;
}

void Taint::taintSlot(int FI) {
  if (!Slots.insert(FI).second)
    return;
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if (MI.mayLoad() && any_of(MI.operands(), [&](const MachineOperand &MO) {
            return MO.isFI() && MO.getIndex() == FI;
          }))
        taintDefs(MI);
}

void Taint::run() {
  bool Kernel = isVortexKernel(MF.getFunction());
  if (!Kernel)
    for (auto [PReg, VReg] : MRI.liveins())
      if (VReg && !isUniformArg(PReg) && Regs.insert(VReg).second)
        Work.push_back(VReg);
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if (seeds(MI, Kernel))
        taintDefs(MI);
  while (!Work.empty()) {
    Register R = Work.pop_back_val();
    for (const MachineInstr &MI : MRI.use_nodbg_instructions(R)) {
      if (MI.mayStore() && !MI.mayLoad()) {
        for (const MachineOperand &MO : MI.operands())
          if (MO.isFI())
            taintSlot(MO.getIndex());
        continue;
      }
      taintDefs(MI);
    }
  }
}

/// True if \p MBB was made from the block of an instruction
/// crosslane-vortex-divergence runs one lane at a time (LaneSerialize.cpp):
/// one lane is active there, so its branches cannot diverge.
bool runsOneLane(const MachineBasicBlock &MBB) {
  const BasicBlock *BB = MBB.getBasicBlock();
  return BB && any_of(*BB, [](const Instruction &I) {
           return I.hasMetadata(vortex::OneLaneMD);
         });
}

/// True if a vx_split or vx_pred precedes \p Br in its block (after any
/// earlier terminator), or its block runs one lane at a time.
bool isCovered(const MachineInstr &Br) {
  if (runsOneLane(*Br.getParent()))
    return true;
  MachineBasicBlock::const_reverse_iterator It(Br), E = Br.getParent()->rend();
  while (++It != E) {
    if (It->isTerminator())
      return false;
    if (auto Info = asmInfo(*It))
      if (Info->Kind == vortex::AsmKind::Split ||
          Info->Kind == vortex::AsmKind::Pred)
        return true;
  }
  return false;
}

struct VortexBranchCheck : public MachineFunctionPass {
  static char ID;
  VortexBranchCheck() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "Crosslane Vortex branch check";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;
};
char VortexBranchCheck::ID = 0;

bool VortexBranchCheck::runOnMachineFunction(MachineFunction &MF) {
  const Function &F = MF.getFunction();
  if (!vortex::isVortexFunction(F) || !MF.getRegInfo().isSSA())
    return false;
  Taint T(MF);
  T.run();
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB) {
      if (!MI.isConditionalBranch() || !T.isTainted(MI) || isCovered(MI))
        continue;
      ++NumUncovered;
      F.getContext().diagnose(DiagnosticInfoUnsupported(
          F,
          "the code generator made a branch on a lane-dependent value that "
          "no vx_split/vx_pred covers: on Vortex the warp follows its last "
          "active lane here",
          vortex::userLocation(MI.getDebugLoc()), DS_Warning));
    }
  return false;
}

} // namespace

Pass *createVortexBranchCheckPass() { return new VortexBranchCheck(); }

} // namespace crosslane
