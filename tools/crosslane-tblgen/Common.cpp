//===- Common.cpp - Helpers shared by Crosslane's TableGen backends -------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"

using namespace llvm;

namespace crosslane {
namespace tblgen {

std::string cppType(const RecTy *Ty) {
  if (isa<BitRecTy>(Ty))
    return "bool";
  if (const auto *B = dyn_cast<BitsRecTy>(Ty)) {
    unsigned N = B->getNumBits();
    return N <= 8    ? "uint8_t"
           : N <= 16 ? "uint16_t"
           : N <= 32 ? "uint32_t"
                     : "uint64_t";
  }
  if (isa<StringRecTy>(Ty))
    return "const char *";
  return "";
}

std::string quote(StringRef S) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << '"';
  OS.write_escaped(S);
  OS << '"';
  return Out;
}

std::string cppValue(const Init *V) {
  if (const auto *B = dyn_cast<BitInit>(V))
    return B->getValue() ? "true" : "false";
  if (const auto *S = dyn_cast<StringInit>(V))
    return quote(S->getValue());
  if (const auto *I = dyn_cast<IntInit>(V))
    return std::to_string(I->getValue());
  if (const auto *Bits = dyn_cast<BitsInit>(V)) {
    std::optional<int64_t> X = Bits->convertInitializerToInt();
    if (X)
      return "0x" + utohexstr(uint64_t(*X));
  }
  return V->getAsString();
}

int64_t intField(const Record &R, StringRef Field) {
  const Init *V = R.getValueInit(Field);
  if (const auto *B = dyn_cast<BitInit>(V))
    return B->getValue();
  if (const auto *I = dyn_cast<IntInit>(V))
    return I->getValue();
  if (const auto *Bits = dyn_cast<BitsInit>(V))
    if (std::optional<int64_t> X = Bits->convertInitializerToInt())
      return *X;
  PrintFatalError(&R, "field '" + Field + "' of '" + R.getName() +
                          "' is not a known integer");
}

std::vector<const Record *> definitions(const RecordKeeper &RK,
                                        StringRef Class) {
  std::vector<const Record *> Out(RK.getAllDerivedDefinitionsIfDefined(Class));
  llvm::sort(Out, LessRecordByID());
  return Out;
}

std::string recordName(const Record &R) {
  if (!R.isAnonymous())
    return R.getName().str();
  for (StringRef F : {"Name", "Mnemonic"})
    if (const RecordVal *V = R.getValue(F))
      if (const auto *S = dyn_cast<StringInit>(V->getValue()))
        return S->getValue().str();
  return R.getName().str();
}

unsigned checkUnique(ArrayRef<const Record *> Recs, StringRef What,
                     function_ref<std::string(const Record &)> Key) {
  StringMap<const Record *> Seen;
  unsigned Dups = 0;
  for (const Record *R : Recs) {
    std::string K = Key(*R);
    auto [It, New] = Seen.try_emplace(K, R);
    if (New)
      continue;
    ++Dups;
    PrintError(R, "'" + recordName(*R) + "' has the same " + What + " (" + K +
                      ") as '" + recordName(*It->second) + "'");
    PrintNote(It->second->getLoc(),
              "'" + recordName(*It->second) + "' is defined here");
  }
  return Dups;
}

} // namespace tblgen
} // namespace crosslane
