//===- Common.h - Helpers shared by Crosslane's TableGen backends -*- C++ -*-=//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_TBLGEN_COMMON_H
#define CROSSLANE_TBLGEN_COMMON_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Init;
class RecTy;
class Record;
class RecordKeeper;
class raw_ostream;
} // namespace llvm

namespace crosslane {
namespace tblgen {

/// The C++ type LLVM's SearchableTableEmitter gives a field of type \p Ty
/// (bit: bool, bits<N>: the smallest uintK_t, string: const char *); empty
/// for a type Crosslane's tables do not use.
std::string cppType(const llvm::RecTy *Ty);

/// \p V as a C++ initializer (bits in hex, strings quoted and escaped).
std::string cppValue(const llvm::Init *V);

/// The integer value of field \p Field of \p R (int, bit or bits<N>).
int64_t intField(const llvm::Record &R, llvm::StringRef Field);

/// Reports, as a TableGen error at the later record, every record of
/// \p Recs whose \p Key equals an earlier one's (with a note at the
/// earlier). \p What names the key ("ISA version", "CSR number"). Returns
/// the number of duplicates.
unsigned checkUnique(llvm::ArrayRef<const llvm::Record *> Recs,
                     llvm::StringRef What,
                     llvm::function_ref<std::string(const llvm::Record &)> Key);

/// The records of class \p Class in the order the .td defines them
/// (RecordKeeper sorts by name).
std::vector<const llvm::Record *> definitions(const llvm::RecordKeeper &RK,
                                              llvm::StringRef Class);

/// \p R's name, or for an anonymous record its Name or Mnemonic field.
std::string recordName(const llvm::Record &R);

/// `"..."` with C escapes.
std::string quote(llvm::StringRef S);

} // namespace tblgen
} // namespace crosslane

#endif // CROSSLANE_TBLGEN_COMMON_H
