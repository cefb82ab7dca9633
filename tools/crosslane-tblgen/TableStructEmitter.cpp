//===- TableStructEmitter.cpp - Structs and key checks for GenericTables --===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// -gen-table-structs: for every GenericTable (llvm/TableGen/
/// SearchableTable.td) of the input, the C++ struct whose layout
/// llvm-tblgen -gen-searchable-tables initialises (LLVM leaves writing it to
/// the user, field by field), and a check LLVM does not make: no two
/// records of a table may share its primary key, or the key of a
/// SearchIndex that returns one record (llvm-tblgen would emit both and
/// the lookup would find either).
///
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;
using namespace crosslane::tblgen;

namespace {

class TableStructEmitter {
  const RecordKeeper &Records;

public:
  explicit TableStructEmitter(const RecordKeeper &R) : Records(R) {}
  void run(raw_ostream &OS);

private:
  std::vector<const Record *> rows(const Record &Table) const;
  void emitStruct(const Record &Table, raw_ostream &OS) const;
  void checkKey(const Record &Table, StringRef Index,
                ArrayRef<StringRef> Key) const;
  void checkKeys(const Record &Table) const;
};

} // namespace

/// The records a table holds: its FilterClass, less those whose
/// FilterClassField is false.
std::vector<const Record *>
TableStructEmitter::rows(const Record &Table) const {
  std::vector<const Record *> Out;
  StringRef Field =
      Table.getValueAsOptionalString("FilterClassField").value_or(StringRef());
  for (const Record *R :
       definitions(Records, Table.getValueAsString("FilterClass")))
    if (Field.empty() || R->getValueAsBit(Field))
      Out.push_back(R);
  return Out;
}

void TableStructEmitter::emitStruct(const Record &Table,
                                    raw_ostream &OS) const {
  StringRef Type = Table.getValueAsString("CppTypeName");
  const Record *Class = Records.getClass(Table.getValueAsString("FilterClass"));
  if (!Class)
    PrintFatalError(&Table,
                    "FilterClass of '" + Table.getName() + "' is not a class");
  OS << "#ifdef GET_" << Table.getName() << "_STRUCT\n";
  OS << "/// A row of " << Table.getName() << " (class " << Class->getName()
     << ").\n";
  OS << "struct " << Type << " {\n";
  for (StringRef Field : Table.getValueAsListOfStrings("Fields")) {
    const RecordVal *V = Class->getValue(Field);
    if (!V)
      PrintFatalError(&Table, "class '" + Class->getName() +
                                  "' has no field '" + Field + "'");
    std::string Ty = cppType(V->getType());
    if (Ty.empty())
      PrintFatalError(V, "field '" + Field + "' has type " +
                             V->getType()->getAsString() +
                             "; Crosslane's tables take bit, bits<N> and "
                             "string fields");
    OS << "  " << Ty << (StringRef(Ty).ends_with("*") ? "" : " ") << Field
       << ";\n";
  }
  OS << "};\n#endif\n#undef GET_" << Table.getName() << "_STRUCT\n\n";
}

/// No two rows of \p Table may share the key \p Key (its primary key,
/// unless it returns ranges, or a SearchIndex's key): LLVM's lookup would find
/// either. Strings compare as the generated lookup does, ignoring case.
void TableStructEmitter::checkKey(const Record &Table, StringRef Index,
                                  ArrayRef<StringRef> Key) const {
  if (Key.empty())
    return;
  std::string What = Table.getName().str() + " key";
  for (StringRef K : Key)
    What += (K == Key.front() ? " " : ", ") + K.str();
  if (!Index.empty())
    What += " (searched by " + Index.str() + ")";
  checkUnique(rows(Table), What, [&](const Record &R) {
    std::string S;
    for (StringRef K : Key) {
      const Init *V = R.getValueInit(K);
      std::string Text = cppValue(V);
      S += (S.empty() ? "" : ", ") +
           (isa<StringInit>(V) ? StringRef(Text).upper() : Text);
    }
    return S;
  });
}

void TableStructEmitter::checkKeys(const Record &Table) const {
  const RecordVal *PK = Table.getValue("PrimaryKey");
  if (PK && PK->getValue()->isComplete() &&
      !Table.getValueAsBit("PrimaryKeyReturnRange"))
    checkKey(Table, "", Table.getValueAsListOfStrings("PrimaryKey"));
  for (const Record *I :
       Records.getAllDerivedDefinitionsIfDefined("SearchIndex"))
    if (I->getValueAsDef("Table") == &Table)
      checkKey(Table, I->getName(), I->getValueAsListOfStrings("Key"));
}

void TableStructEmitter::run(raw_ostream &OS) {
  emitSourceFileHeader("Crosslane GenericTable row types", OS, Records);
  for (const Record *Table : definitions(Records, "GenericTable")) {
    checkKeys(*Table);
    emitStruct(*Table, OS);
  }
}

static TableGen::Emitter::OptClass<TableStructEmitter>
    X("gen-table-structs",
      "Row structs of GenericTables, with primary-key uniqueness checks");
