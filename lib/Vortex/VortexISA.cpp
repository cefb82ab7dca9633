//===- VortexISA.cpp - Vortex's custom instructions and CSRs --------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

static cl::opt<bool> AllVortex(
    "crosslane-vortex",
    cl::desc("Treat every RISC-V function as Vortex code, as if its target "
             "features had +xvortex (which upstream LLVM warns about)"),
    cl::init(false));

namespace crosslane {
namespace vortex {

#define GET_VortexCSRTable_IMPL
#define GET_VortexHWConfigTable_IMPL
#include "crosslane/Vortex/VortexISATables.inc"

#define GET_VORTEX_INSNS
#include "crosslane/Vortex/VortexISA.inc"

ArrayRef<HWConfig> hwConfigs() { return VortexHWConfigTable; }

std::string hwConfigNames() {
  std::string Names;
  for (const HWConfig &C : hwConfigs())
    Names += (Names.empty() ? "" : ", ") + std::string(C.Name);
  return Names;
}

bool isDivergentCSR(unsigned Csr) {
  const CSRInfo *I = Csr <= 0xFFF ? lookupCSR(Csr) : nullptr;
  return I && I->Divergent;
}

const InsnInfo &insn(StringRef Mnemonic) {
  for (const InsnInfo &I : Insns)
    if (Mnemonic == I.Mnemonic)
      return I;
  llvm_unreachable("no such Vortex instruction in VortexISA.td");
}

const InsnInfo *lookupInsn(unsigned Opcode, unsigned Funct3, unsigned Funct7) {
  for (const InsnInfo &I : Insns)
    if (I.Opcode == Opcode && I.Funct3 == Funct3 && I.Funct7 == Funct7)
      return &I;
  return nullptr;
}

std::string insnAsm(const InsnInfo &I, StringRef Rd, StringRef Rs1,
                    StringRef Rs2) {
  return (".insn r 0x" + utohexstr(I.Opcode, /*LowerCase=*/true, 2) + ", " +
          Twine(I.Funct3) + ", " + Twine(I.Funct7) + ", " + Rd + ", " + Rs1 +
          ", " + Rs2)
      .str();
}

/// The asm string with every `$N` whose operand is a constant integer
/// replaced by its value, so `.insn r $1, 2, 0, ...` with "i"(0x0b) reads
/// like `.insn r 11, 2, 0, ...`.
std::string
substituteOperands(StringRef Asm,
                   function_ref<std::optional<int64_t>(unsigned)> Imm) {
  std::string Out;
  for (size_t I = 0; I < Asm.size(); ++I) {
    size_t J = I + 1;
    if (Asm[I] != '$' || J >= Asm.size() || !isDigit(Asm[J])) {
      Out += Asm[I];
      continue;
    }
    unsigned N = 0;
    while (J < Asm.size() && isDigit(Asm[J]))
      N = N * 10 + (Asm[J++] - '0');
    if (std::optional<int64_t> V = Imm(N))
      Out += std::to_string(*V);
    else
      Out += Asm.substr(I, J - I).str();
    I = J - 1;
  }
  return Out;
}

/// The asm string of \p CB with its constant operands substituted.
static std::string substituteConstants(const CallBase &CB,
                                       const InlineAsm &IA) {
  // Operand numbering: outputs first (not call operands), then inputs.
  unsigned NumOutputs = 0;
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints())
    if (C.Type == InlineAsm::isOutput)
      ++NumOutputs;
  return substituteOperands(
      IA.getAsmString(), [&](unsigned N) -> std::optional<int64_t> {
        if (N < NumOutputs || N - NumOutputs >= CB.arg_size())
          return std::nullopt;
        if (auto *C = dyn_cast<ConstantInt>(CB.getArgOperand(N - NumOutputs)))
          return C->getZExtValue();
        return std::nullopt;
      });
}

static std::optional<uint64_t> parseNumber(StringRef S) {
  S = S.trim();
  uint64_t V;
  if (S.consume_front("0x") || S.consume_front("0X")) {
    if (S.getAsInteger(16, V))
      return std::nullopt;
    return V;
  }
  if (S.getAsInteger(10, V))
    return std::nullopt;
  return V;
}

/// `.insn r OPC, F3, F7, ...`: the instruction VortexISA.td encodes so.
static AsmKind decodeInsn(ArrayRef<StringRef> Fields) {
  if (Fields.size() < 6)
    return AsmKind::Unknown;
  auto Opc = parseNumber(Fields[0]), F3 = parseNumber(Fields[1]),
       F7 = parseNumber(Fields[2]);
  if (!Opc || !F3 || !F7)
    return AsmKind::Unknown;
  const InsnInfo *I = lookupInsn(*Opc, *F3, *F7);
  return I ? I->Kind : AsmKind::Unknown;
}

StringRef splitLoadPrefix(StringRef Asm, StringRef &Dest, StringRef &Src) {
  StringRef S = Asm.trim();
  Dest = Src = StringRef();
  if (!S.consume_front("li ") && !S.consume_front("li\t"))
    return S;
  auto [Line, Rest] = S.split('\n');
  auto [D, Sv] = Line.split(',');
  Dest = D.trim();
  Src = Sv.trim();
  return Rest.trim();
}

AsmInfo decodeAsmText(StringRef Text) {
  StringRef Dest, Src;
  StringRef S = splitLoadPrefix(Text, Dest, Src);
  AsmInfo Info;
  SmallVector<StringRef, 8> Fields;
  if (S.consume_front("csrr ")) {
    S.split(Fields, ',');
    if (Fields.size() == 2)
      if (auto Csr = parseNumber(Fields[1])) {
        Info.Kind = AsmKind::CSRRead;
        Info.Csr = *Csr;
      }
    return Info;
  }
  if (S.consume_front(".insn r ") || S.consume_front(".insn r\t")) {
    S.split(Fields, ',');
    for (StringRef &F : Fields)
      F = F.trim();
    Info.Kind = decodeInsn(Fields);
  }
  return Info;
}

std::optional<AsmInfo> decodeAsm(const CallBase &CB) {
  const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
  if (!IA)
    return std::nullopt;
  return decodeAsmText(substituteConstants(CB, *IA));
}

bool asmResultDivergent(const AsmInfo &Info) {
  switch (Info.Kind) {
  case AsmKind::CSRRead:
    return isDivergentCSR(Info.Csr);
  case AsmKind::Split:
  case AsmKind::Vote:
  case AsmKind::BarrierAsync:
    return false;
  default:
    return true;
  }
}

CallInst *emitAsm(IRBuilderBase &B, Type *Ret, ArrayRef<Value *> Args,
                  StringRef Asm, StringRef Constraints, bool SideEffects) {
  SmallVector<Type *, 2> Tys;
  for (Value *A : Args)
    Tys.push_back(A->getType());
  auto *FTy = FunctionType::get(Ret, Tys, false);
  InlineAsm *IA = InlineAsm::get(FTy, Asm, Constraints, SideEffects);
  CallInst *CI = B.CreateCall(FTy, IA, Args);
  CI->addFnAttr(Attribute::Convergent);
  CI->addFnAttr(Attribute::NoUnwind);
  return CI;
}

Value *emitCSRRead(IRBuilderBase &B, unsigned Csr) {
  std::string Asm = "csrr $0, 0x" + utohexstr(Csr, /*LowerCase=*/true);
  CallInst *CI = emitAsm(B, B.getInt32Ty(), {}, Asm, "=r", false);
  CI->setOnlyAccessesInaccessibleMemory();
  CI->setOnlyReadsMemory();
  return CI;
}

Value *emitSplit(IRBuilderBase &B, Value *Pred) {
  Value *P = B.CreateZExt(Pred, B.getInt32Ty());
  return emitAsm(B, B.getInt32Ty(), {P},
                 insnAsm(insn("vx_split"), "$0", "$1", "x0"), "=r,r,~{memory}",
                 true);
}

void emitJoin(IRBuilderBase &B, Value *Token) {
  emitAsm(B, B.getVoidTy(), {Token}, insnAsm(insn("vx_join"), "x0", "$0", "x0"),
          "r,~{memory}", true);
}

void emitCTABarrier(IRBuilderBase &B) {
  Value *Id = emitCSRRead(B, 0xCD0), *Warps = emitCSRRead(B, 0xCD2);
  emitAsm(B, B.getVoidTy(), {Id, Warps},
          insnAsm(insn("vx_barrier"), "x0", "$0", "$1"), "r,r,~{memory}", true);
}

void emitPred(IRBuilderBase &B, Value *Keep, Value *RestoreMask) {
  Value *K = B.CreateZExt(Keep, B.getInt32Ty());
  emitAsm(B, B.getVoidTy(), {K, RestoreMask},
          insnAsm(insn("vx_pred"), "x0", "$0", "$1"), "r,r,~{memory}", true);
}

Value *emitBallot(IRBuilderBase &B, Value *Cond) {
  return emitAsm(B, B.getInt32Ty(), {B.CreateZExt(Cond, B.getInt32Ty())},
                 insnAsm(insn("vx_vote_ballot"), "$0", "$1", "x0"),
                 "=r,r,~{memory}", true);
}

Value *emitThreadMask(IRBuilderBase &B) {
  // vx_vote_ballot of 1, not `csrr 0xcc4`: simx reads the thread-mask CSR
  // when the instruction executes (csr_unit.cpp get_csr), after a
  // warp-control instruction issued behind it (a join) may have changed the
  // mask; a vote uses the mask the instruction issued with (alu_unit.cpp).
  // The constant 1 is loaded inside the asm (splitLoadPrefix).
  return emitAsm(B, B.getInt32Ty(), {B.getInt32(1)},
                 "li $0, $1\n\t" +
                     insnAsm(insn("vx_vote_ballot"), "$0", "$0", "x0"),
                 "=r,i,~{memory}", true);
}

static cl::opt<unsigned>
    WarpSize("crosslane-vortex-warp-size",
             cl::desc("Lanes per Vortex warp (crosslane-hipcc sets it from the "
                      "configuration; 0: code reads it at run time)"),
             cl::init(0));

unsigned knownWarpSize(const Function &F) {
  if (WarpSize)
    return WarpSize;
  Attribute A = F.getFnAttribute("crosslane-vortex-warp-size");
  unsigned N = 0;
  if (A.isValid() && !A.getValueAsString().getAsInteger(10, N))
    return N;
  return 0;
}

bool isVortexFunction(const Function &F) {
  if (!F.getParent() || !Triple(F.getParent()->getTargetTriple()).isRISCV())
    return false;
  if (F.hasFnAttribute(VortexAttr) || AllVortex)
    return true;
  Attribute A = F.getFnAttribute("target-features");
  if (!A.isValid())
    return false;
  SmallVector<StringRef, 16> Features;
  A.getValueAsString().split(Features, ',');
  return is_contained(Features, "+xvortex");
}

SmallVector<std::string, 8> demangledParams(StringRef Name) {
  SmallVector<std::string, 8> Out;
  // The demangler keeps pointers into the name: it must outlive D's use.
  std::string Mangled = Name.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()))
    return Out;
  char *Buf = D.getFunctionParameters(nullptr, nullptr);
  if (!Buf)
    return Out;
  StringRef S(Buf);
  S.consume_front("(");
  S.consume_back(")");
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= S.size(); ++I) {
    char C = I < S.size() ? S[I] : ',';
    if (C == '(' || C == '<' || C == '[')
      ++Depth;
    else if (C == ')' || C == '>' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      StringRef P = S.slice(Start, I).trim();
      if (!P.empty() && P != "void")
        Out.push_back(P.str());
      Start = I + 1;
    }
  }
  std::free(Buf);
  return Out;
}

bool isInOurHeaders(const DILocation *L) {
  if (!L)
    return false;
  std::string Path = (L->getDirectory() + "/" + L->getFilename()).str();
  return Path.find("include/crosslane/vortex/") != std::string::npos;
}

DebugLoc userLocation(const DebugLoc &DL) {
  for (DILocation *L = DL.get(); L; L = L->getInlinedAt())
    if (!isInOurHeaders(L))
      return DebugLoc(L);
  return DL;
}

void markVortexFunction(Function &F) {
  F.addFnAttr(VortexAttr);
  Attribute A = F.getFnAttribute("target-features");
  if (!A.isValid())
    return;
  SmallVector<StringRef, 16> Features;
  A.getValueAsString().split(Features, ',');
  std::string Kept;
  for (StringRef Feature : Features)
    if (Feature != "+xvortex")
      Kept += (Kept.empty() ? "" : ",") + Feature.str();
  F.addFnAttr("target-features", Kept);
}

} // namespace vortex
} // namespace crosslane
