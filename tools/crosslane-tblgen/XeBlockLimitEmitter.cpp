//===- XeBlockLimitEmitter.cpp - Xe 2D block IO chips and shape limits ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// -gen-xe-block-io: the BlockOp enum, the per-operation, per-element-size
/// shape limits and the guaranteed shapes of include/crosslane/Xe/
/// XeBlockIO.td (its chips are a GenericTable), checked against the rules
/// every 2D block message obeys
/// (../shared/research/xe-block-io.md §4; IGC's Constraints records): a
/// block row is at least a dword and at most 64 bytes wide, at most 32
/// rows, at most 4 blocks, bounds are powers of two (a prefetched row as
/// wide as its generation's PrefetchRowBytes).
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

class XeBlockIOEmitter {
  const RecordKeeper &Records;

public:
  explicit XeBlockIOEmitter(const RecordKeeper &R) : Records(R) {}
  void run(raw_ostream &OS);

private:
  void checkLimit(const Record &L) const;
  void emitGens(ArrayRef<const Record *> Gens, raw_ostream &OS) const;
  void checkCoverage(ArrayRef<const Record *> Ops,
                     ArrayRef<const Record *> Limits) const;
  void emitOps(ArrayRef<const Record *> Ops, raw_ostream &OS) const;
  void emitLimits(ArrayRef<const Record *> Limits, raw_ostream &OS) const;
  void emitGuaranteed(ArrayRef<const Record *> Shapes,
                      ArrayRef<const Record *> Limits, raw_ostream &OS) const;
};

} // namespace

/// One rule of the element-size table: \p Ok, or an error at \p L.
static void rule(const Record &L, bool Ok, const Twine &Msg) {
  if (!Ok)
    PrintError(&L, "'" + L.getName() + "': " + Msg);
}

/// The generation of limit \p L.
static const Record *gen(const Record &L) { return L.getValueAsDef("Gen"); }
static bool isBase(const Record &L) { return intField(*gen(L), "Rank") == 0; }

void XeBlockIOEmitter::checkLimit(const Record &L) const {
  int64_t E = intField(L, "ElemBytes");
  int64_t MinH = intField(L, "MinH"), MaxH = intField(L, "MaxH");
  int64_t MinW = intField(L, "MinW"), MaxW = intField(L, "MaxW");
  int64_t MaxC = intField(L, "MaxC"), MaxWC = intField(L, "MaxWC");
  int64_t MinWC = intField(L, "MinWC");
  if (E != 1 && E != 2 && E != 4 && E != 8) {
    rule(L, false, "element size " + Twine(E) + " is not 1, 2, 4 or 8 bytes");
    return;
  }
  for (int64_t V : {MinH, MaxH, MinW, MaxW, MaxC, MinWC, MaxWC})
    if (V <= 0 || !isPowerOf2_64(V)) {
      rule(L, false, "bound " + Twine(V) + " is not a power of two");
      return;
    }
  // Rows of up to 64 bytes; prefetches as wide as the generation allows.
  int64_t RowBytes = 64;
  if (L.getValueAsDef("Op")->getValueAsString("Enumerator") == "Prefetch")
    RowBytes = intField(*gen(L), "PrefetchRowBytes");
  rule(L, MinH <= MaxH && MinW <= MaxW && MinWC <= MaxWC,
       "a minimum exceeds its maximum");
  rule(L, MaxH <= 32, "more than 32 rows (" + Twine(MaxH) + ")");
  rule(L, MinW * E >= 4,
       "a block row of " + Twine(MinW) + " x " + Twine(E) +
           " bytes is narrower than a dword");
  rule(L, MaxW * E <= RowBytes,
       "a block row of " + Twine(MaxW) + " x " + Twine(E) + " bytes exceeds " +
           Twine(RowBytes) + " bytes");
  rule(L, MaxC <= 4, "more than 4 blocks (" + Twine(MaxC) + ")");
  rule(L, MaxWC >= MaxW && MinWC >= MinW && MaxWC * E <= RowBytes,
       "width x count of " + Twine(MaxWC) + " x " + Twine(E) +
           " bytes is below the width or exceeds " + Twine(RowBytes) +
           " bytes");
}

/// Every operation has limits or says why it takes no such elements; a
/// limit of a later generation adds to one that every chip has.
void XeBlockIOEmitter::checkCoverage(ArrayRef<const Record *> Ops,
                                     ArrayRef<const Record *> Limits) const {
  for (const Record *Op : Ops) {
    unsigned Sizes = 0;
    for (const Record *L : Limits)
      if (L->getValueAsDef("Op") == Op && isBase(*L))
        ++Sizes;
    if (Sizes == 0)
      PrintError(Op, "'" + Op->getName() + "' has no XeBlockLimit");
    else if (Sizes < 4 && Op->getValueAsString("NoElemWhy").empty())
      PrintError(Op, "'" + Op->getName() + "' takes only some element " +
                         "sizes and needs a NoElemWhy");
  }
  for (const Record *L : Limits) {
    if (isBase(*L))
      continue;
    bool Base = any_of(Limits, [&](const Record *M) {
      return isBase(*M) && M->getValueAsDef("Op") == L->getValueAsDef("Op") &&
             intField(*M, "ElemBytes") == intField(*L, "ElemBytes");
    });
    if (!Base)
      PrintError(L, "'" + L->getName() + "' adds to no limit that every chip " +
                        "has");
  }
}

/// The generations' names, by rank (which must be 0, 1, 2, ...).
void XeBlockIOEmitter::emitGens(ArrayRef<const Record *> Gens,
                                raw_ostream &OS) const {
  std::vector<const Record *> ByRank(Gens.size());
  for (const Record *G : Gens) {
    int64_t R = intField(*G, "Rank");
    if (R < 0 || R >= int64_t(Gens.size()) || ByRank[R])
      PrintError(G, "'" + G->getName() + "': rank " + Twine(R) +
                        " is not unique or leaves a gap");
    else
      ByRank[R] = G;
  }
  OS << "#ifdef GET_XE_BLOCK_GENS\n"
     << "static const char *const BlockGenNames[] = {";
  ListSeparator Sep;
  for (const Record *G : ByRank)
    OS << Sep << (G ? quote(G->getValueAsString("Name")) : "\"\"");
  OS << "};\n#endif\n#undef GET_XE_BLOCK_GENS\n\n";
}

void XeBlockIOEmitter::emitOps(ArrayRef<const Record *> Ops,
                               raw_ostream &OS) const {
  OS << "#ifdef GET_XE_BLOCK_OP_ENUM\n"
     << "enum class BlockOp : uint8_t {\n";
  for (const Record *Op : Ops)
    OS << "  " << Op->getValueAsString("Enumerator") << ",\n";
  OS << "};\n#endif\n#undef GET_XE_BLOCK_OP_ENUM\n\n";
  OS << "#ifdef GET_XE_BLOCK_OPS\n"
     << "static const XeBlockOpInfo BlockOps[] = {\n";
  for (const Record *Op : Ops)
    OS << "    {" << quote(Op->getValueAsString("Name")) << ", "
       << quote(Op->getValueAsString("NoElemWhy")) << "},\n";
  OS << "};\n#endif\n#undef GET_XE_BLOCK_OPS\n\n";
}

void XeBlockIOEmitter::emitLimits(ArrayRef<const Record *> Limits,
                                  raw_ostream &OS) const {
  OS << "#ifdef GET_XE_BLOCK_LIMITS\n"
     << "static const BlockLimit BlockLimits[] = {\n";
  for (const Record *L : Limits) {
    OS << "    {BlockOp::"
       << L->getValueAsDef("Op")->getValueAsString("Enumerator") << ", "
       << intField(*L, "ElemBytes") << ", " << intField(*gen(*L), "Rank")
       << ", {";
    ListSeparator Sep;
    for (StringRef F :
         {"MinH", "MaxH", "MinW", "MaxW", "MaxC", "MinWC", "MaxWC"})
      OS << Sep << intField(*L, F);
    OS << "}}, // " << L->getName() << "\n";
  }
  OS << "};\n#endif\n#undef GET_XE_BLOCK_LIMITS\n\n";
}

/// The limit every chip has for \p Op and \p ElemBytes, or nullptr.
static const Record *baseLimit(ArrayRef<const Record *> Limits,
                               const Record *Op, int64_t ElemBytes) {
  for (const Record *L : Limits)
    if (L->getValueAsDef("Op") == Op && isBase(*L) &&
        intField(*L, "ElemBytes") == ElemBytes)
      return L;
  return nullptr;
}

/// Every guaranteed shape, expanded, after checking it lies within the
/// limits every chip has (a guarantee the limits break is an error in one
/// of the two tables).
void XeBlockIOEmitter::emitGuaranteed(ArrayRef<const Record *> Shapes,
                                      ArrayRef<const Record *> Limits,
                                      raw_ostream &OS) const {
  OS << "#ifdef GET_XE_GUARANTEED_SHAPES\n"
     << "static const GuaranteedShape GuaranteedShapes[] = {\n";
  for (const Record *G : Shapes) {
    const Record *Op = G->getValueAsDef("Op");
    int64_t E = intField(*G, "ElemBytes");
    const Record *L = baseLimit(Limits, Op, E);
    if (!L) {
      PrintError(G, "no limit for " + Op->getName() + " of " + Twine(E) +
                        "-byte elements");
      continue;
    }
    for (int64_t W : G->getValueAsListOfInts("Widths"))
      for (int64_t H : G->getValueAsListOfInts("Heights"))
        for (int64_t C : G->getValueAsListOfInts("Counts")) {
          if (!isPowerOf2_64(W) || !isPowerOf2_64(H) || !isPowerOf2_64(C) ||
              H < intField(*L, "MinH") || H > intField(*L, "MaxH") ||
              W < intField(*L, "MinW") || W > intField(*L, "MaxW") ||
              C > intField(*L, "MaxC") || W * C > intField(*L, "MaxWC"))
            PrintError(G, "guaranteed shape " + Twine(H) + "r" + Twine(W) +
                              "x" + Twine(C) + "c is outside '" + L->getName() +
                              "'");
          OS << "    {BlockOp::" << Op->getValueAsString("Enumerator") << ", "
             << E << ", " << W << ", " << H << ", " << C << "},\n";
        }
  }
  OS << "};\n#endif\n#undef GET_XE_GUARANTEED_SHAPES\n\n";
}

void XeBlockIOEmitter::run(raw_ostream &OS) {
  emitSourceFileHeader("Crosslane Xe 2D block IO chips and limits", OS,
                       Records);
  std::vector<const Record *> Ops = definitions(Records, "XeBlockOp");
  std::vector<const Record *> Chips = definitions(Records, "XeChip");
  std::vector<const Record *> Limits = definitions(Records, "XeBlockLimit");
  checkUnique(Chips, "chip name",
              [](const Record &R) { return R.getValueAsString("Name").str(); });
  checkUnique(Ops, "enumerator", [](const Record &R) {
    return R.getValueAsString("Enumerator").str();
  });
  checkUnique(Limits, "operation, element size and generation",
              [](const Record &R) {
                return (R.getValueAsDef("Op")->getName() + ", " +
                        Twine(intField(R, "ElemBytes")) + " bytes" + ", " +
                        gen(R)->getValueAsString("Name"))
                    .str();
              });
  for (const Record *L : Limits)
    checkLimit(*L);
  checkCoverage(Ops, Limits);
  emitOps(Ops, OS);
  emitGens(definitions(Records, "XeBlockGen"), OS);
  emitLimits(Limits, OS);
  emitGuaranteed(definitions(Records, "XeGuaranteedShape"), Limits, OS);
}

static TableGen::Emitter::OptClass<XeBlockIOEmitter>
    X("gen-xe-block-io",
      "Xe 2D block IO: operations, chips and checked shape limits");
