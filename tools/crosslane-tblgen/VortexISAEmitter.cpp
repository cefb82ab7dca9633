//===- VortexISAEmitter.cpp - Vortex CSRs, instructions, configurations ---===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// -gen-vortex-isa: from include/crosslane/Vortex/VortexISA.td, the CSR
/// enum, the AsmKind enum and the custom-instruction table (opcode, funct3,
/// funct7, operand roles), after checking that no CSR number, CSR name or
/// instruction encoding is used twice and that every hardware
/// configuration is one Vortex can build (VX_config.toml's ranges). The
/// lookups by CSR number and by configuration name are GenericTables
/// (llvm-tblgen -gen-searchable-tables on the same file).
///
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;
using namespace crosslane::tblgen;

namespace {

class VortexISAEmitter {
  const RecordKeeper &Records;

public:
  explicit VortexISAEmitter(const RecordKeeper &R) : Records(R) {}
  void run(raw_ostream &OS);

private:
  void checkConfig(const Record &C) const;
  void emitCSRs(ArrayRef<const Record *> CSRs, raw_ostream &OS) const;
  void emitKinds(ArrayRef<const Record *> Kinds, raw_ostream &OS) const;
  void emitInsns(ArrayRef<const Record *> Insns, raw_ostream &OS) const;
};

} // namespace

/// \p V in [Lo, Hi], a power of two if \p Pow2.
static void inRange(const Record &C, StringRef Field, int64_t Lo, int64_t Hi,
                    bool Pow2) {
  int64_t V = intField(C, Field);
  if (V < Lo || V > Hi || (Pow2 && !isPowerOf2_64(V)))
    PrintError(&C, "'" + C.getName() + "': " + Field + " = " + Twine(V) +
                       " is not " + (Pow2 ? "a power of two " : "") + "in [" +
                       Twine(Lo) + ", " + Twine(Hi) + "]");
}

void VortexISAEmitter::checkConfig(const Record &C) const {
  // Thread and warp masks are 32-bit CSRs on RV32 (0xCC3, 0xCC4) and a
  // ballot is one register.
  inRange(C, "Threads", 1, 32, /*Pow2=*/true);
  inRange(C, "Warps", 1, 32, /*Pow2=*/false);
  inRange(C, "Cores", 1, 256, /*Pow2=*/false);
  inRange(C, "Barriers", 1, 32, /*Pow2=*/false);
  inRange(C, "LmemLogSize", 10, 24, /*Pow2=*/false);
}

void VortexISAEmitter::emitCSRs(ArrayRef<const Record *> CSRs,
                                raw_ostream &OS) const {
  OS << "#ifdef GET_VORTEX_CSR_ENUM\n"
     << "enum CSR : unsigned {\n";
  for (const Record *R : CSRs) {
    StringRef E = R->getValueAsString("Enumerator");
    if (!E.empty())
      OS << "  " << E << " = " << cppValue(R->getValueInit("Number"))
         << ", ///< " << R->getValueAsString("Name") << ": "
         << R->getValueAsString("Doc") << "\n";
  }
  OS << "};\n#endif\n#undef GET_VORTEX_CSR_ENUM\n\n";
}

void VortexISAEmitter::emitKinds(ArrayRef<const Record *> Kinds,
                                 raw_ostream &OS) const {
  OS << "#ifdef GET_VORTEX_ASM_KIND_ENUM\n"
     << "enum class AsmKind : uint8_t {\n";
  for (const Record *K : Kinds)
    OS << "  " << K->getValueAsString("Enumerator") << ", ///< "
       << K->getValueAsString("Doc") << "\n";
  OS << "};\n#endif\n#undef GET_VORTEX_ASM_KIND_ENUM\n\n";
}

void VortexISAEmitter::emitInsns(ArrayRef<const Record *> Insns,
                                 raw_ostream &OS) const {
  OS << "#ifdef GET_VORTEX_INSNS\n"
     << "static const InsnInfo Insns[] = {\n";
  for (const Record *I : Insns) {
    OS << "    {" << quote(I->getValueAsString("Mnemonic")) << ", "
       << cppValue(I->getValueInit("Opcode")) << ", " << intField(*I, "Funct3")
       << ", " << intField(*I, "Funct7") << ", AsmKind::"
       << I->getValueAsDef("Kind")->getValueAsString("Enumerator");
    for (StringRef F : {"Rd", "Rs1", "Rs2"})
      OS << ", " << quote(I->getValueAsString(F));
    OS << "},\n";
  }
  OS << "};\n#endif\n#undef GET_VORTEX_INSNS\n\n";
}

void VortexISAEmitter::run(raw_ostream &OS) {
  emitSourceFileHeader("Crosslane Vortex CSRs and custom instructions", OS,
                       Records);
  std::vector<const Record *> CSRs = definitions(Records, "VortexCSR");
  std::vector<const Record *> Kinds = definitions(Records, "VortexAsmKind");
  std::vector<const Record *> Insns = definitions(Records, "VortexInsn");
  std::vector<const Record *> Configs = definitions(Records, "VortexHWConfig");
  checkUnique(CSRs, "CSR number", [](const Record &R) {
    return cppValue(R.getValueInit("Number"));
  });
  checkUnique(CSRs, "CSR name",
              [](const Record &R) { return R.getValueAsString("Name").str(); });
  checkUnique(Kinds, "enumerator", [](const Record &R) {
    return R.getValueAsString("Enumerator").str();
  });
  checkUnique(Insns, "encoding (opcode, funct3, funct7)", [](const Record &R) {
    return (cppValue(R.getValueInit("Opcode")) + ", " +
            Twine(intField(R, "Funct3")) + ", " + Twine(intField(R, "Funct7")))
        .str();
  });
  checkUnique(Configs, "configuration name",
              [](const Record &R) { return R.getValueAsString("Name").str(); });
  for (const Record *C : Configs)
    checkConfig(*C);
  emitCSRs(CSRs, OS);
  emitKinds(Kinds, OS);
  emitInsns(Insns, OS);
}

static TableGen::Emitter::OptClass<VortexISAEmitter>
    X("gen-vortex-isa", "Vortex CSRs, AsmKind and custom instructions, "
                        "with encoding and configuration checks");
