//===- ConfigParser.cpp - IREE lowering_config attribute syntax -----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads `#iree_gpu.lowering_config<{key = value, ...}>` (or the bare
/// dictionary) as IREE prints it: integer arrays for the tile sizes, pairs
/// of integer arrays for the bases. Keys crosslane-reduce does not use
/// (`promote_operands`, `mma_kind`, ...) are skipped with balanced brackets
/// and reported as ignored.
///
//===----------------------------------------------------------------------===//

#include "crosslane/LoweringConfig/LoweringConfig.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace crosslane {
namespace lc {

namespace {

class Parser {
public:
  explicit Parser(StringRef Text) : Text(Text) {}

  Expected<LoweringConfig> parse();

private:
  StringRef Text;
  size_t Pos = 0;
  std::string Key; ///< the entry being read, for messages

  void skipSpace() {
    while (Pos < Text.size() && isSpace(Text[Pos]))
      ++Pos;
  }
  bool consume(StringRef S) {
    skipSpace();
    if (!Text.substr(Pos).starts_with(S))
      return false;
    Pos += S.size();
    return true;
  }
  Error error(const Twine &Msg) const {
    std::string Where = Key.empty() ? "lowering config" : Key;
    return createStringError(inconvertibleErrorCode(),
                             Where + ": " + Msg + " (at column " +
                                 Twine(Pos + 1) + " of the config)");
  }
  Error expect(StringRef S) {
    if (consume(S))
      return Error::success();
    return error("expected '" + S + "'");
  }
  Expected<int64_t> parseInt();
  Expected<SmallVector<int64_t, 4>> parseIntArray();
  Error parseBasis(Basis &B);
  Error skipValue();
  Error parseEntry(LoweringConfig &C, StringSet<> &Seen);
};

Expected<int64_t> Parser::parseInt() {
  skipSpace();
  size_t Start = Pos;
  if (Pos < Text.size() && Text[Pos] == '-')
    ++Pos;
  while (Pos < Text.size() && isDigit(Text[Pos]))
    ++Pos;
  int64_t V;
  if (Text.slice(Start, Pos).getAsInteger(10, V)) {
    Pos = Start;
    return error("expected an integer");
  }
  // An IREE integer attribute may carry a type: `16 : i64`.
  size_t Save = Pos;
  if (consume(":")) {
    skipSpace();
    while (Pos < Text.size() && isAlnum(Text[Pos]))
      ++Pos;
    if (Pos == Save + 1)
      Pos = Save;
  }
  return V;
}

Expected<SmallVector<int64_t, 4>> Parser::parseIntArray() {
  SmallVector<int64_t, 4> R;
  if (Error E = expect("["))
    return std::move(E);
  if (consume("]"))
    return R;
  do {
    Expected<int64_t> V = parseInt();
    if (!V)
      return V.takeError();
    R.push_back(*V);
  } while (consume(","));
  if (Error E = expect("]"))
    return std::move(E);
  return R;
}

Error Parser::parseBasis(Basis &B) {
  if (Error E = expect("["))
    return E;
  Expected<SmallVector<int64_t, 4>> Counts = parseIntArray();
  if (!Counts)
    return Counts.takeError();
  if (Error E = expect(","))
    return E;
  Expected<SmallVector<int64_t, 4>> Mapping = parseIntArray();
  if (!Mapping)
    return Mapping.takeError();
  B.Counts = *Counts;
  B.Mapping = *Mapping;
  return expect("]");
}

/// Skips one attribute value of any shape, up to the ',' or '}' that ends
/// the entry.
Error Parser::skipValue() {
  SmallVector<char, 8> Stack;
  skipSpace();
  size_t Start = Pos;
  for (; Pos < Text.size(); ++Pos) {
    char C = Text[Pos];
    if (C == '"') {
      size_t End = Text.find('"', Pos + 1);
      if (End == StringRef::npos)
        return error("unterminated string");
      Pos = End;
      continue;
    }
    if (Stack.empty() && (C == ',' || C == '}'))
      break;
    if (C == '[' || C == '{' || C == '<' || C == '(')
      Stack.push_back(C == '[' ? ']' : C == '{' ? '}' : C == '<' ? '>' : ')');
    else if (C == ']' || C == '}' || C == '>' || C == ')') {
      if (Stack.empty() || Stack.back() != C)
        return error(Twine("unbalanced '") + Twine(C) + "'");
      Stack.pop_back();
    }
  }
  if (!Stack.empty() || Pos == Start)
    return error("expected a value");
  return Error::success();
}

Error Parser::parseEntry(LoweringConfig &C, StringSet<> &Seen) {
  skipSpace();
  size_t Start = Pos;
  while (Pos < Text.size() && (isAlnum(Text[Pos]) || Text[Pos] == '_'))
    ++Pos;
  Key = Text.slice(Start, Pos).str();
  if (Key.empty())
    return error("expected an attribute name");
  if (!Seen.insert(Key).second) {
    Pos = Start; // the column of the repeated name
    return error("given twice");
  }
  if (Error E = expect("="))
    return E;
  auto ReadArray = [&](SmallVectorImpl<int64_t> &Out) -> Error {
    Expected<SmallVector<int64_t, 4>> V = parseIntArray();
    if (!V)
      return V.takeError();
    Out.assign(V->begin(), V->end());
    return Error::success();
  };
  if (Key == "workgroup")
    return ReadArray(C.Workgroup);
  if (Key == "thread")
    return ReadArray(C.Thread);
  if (Key == "partial_reduction")
    return ReadArray(C.PartialReduction);
  if (Key == "reduction") {
    // IREE's serial `reduction` tiling: the same chunking of the reduction
    // dimensions for this generator, used when partial_reduction is absent.
    SmallVector<int64_t, 4> R;
    if (Error E = ReadArray(R))
      return E;
    if (!Seen.contains("partial_reduction"))
      C.PartialReduction = R;
    return Error::success();
  }
  if (Key == "lane_basis")
    return parseBasis(C.Lane);
  if (Key == "subgroup_basis")
    return parseBasis(C.Subgroup);
  C.Ignored.push_back(Key);
  return skipValue();
}

Expected<LoweringConfig> Parser::parse() {
  bool Wrapped = consume("#iree_gpu.lowering_config");
  if (Wrapped)
    if (Error E = expect("<"))
      return std::move(E);
  if (Error E = expect("{"))
    return std::move(E);
  LoweringConfig C;
  StringSet<> Seen;
  if (!consume("}")) {
    do {
      if (Error E = parseEntry(C, Seen))
        return std::move(E);
    } while (consume(","));
    Key.clear();
    if (Error E = expect("}"))
      return std::move(E);
  }
  Key.clear();
  if (Wrapped)
    if (Error E = expect(">"))
      return std::move(E);
  skipSpace();
  if (Pos != Text.size())
    return error("unexpected text after the config");
  if (Seen.contains("reduction") && Seen.contains("partial_reduction"))
    C.Ignored.push_back("reduction");
  for (StringRef Required : {"workgroup", "thread", "partial_reduction",
                             "lane_basis", "subgroup_basis"})
    if (!Seen.contains(Required) &&
        !(Required == "partial_reduction" && Seen.contains("reduction")))
      return createStringError(inconvertibleErrorCode(),
                               Required + StringRef(": missing from the "
                                                    "config"));
  return C;
}

} // namespace

Expected<LoweringConfig> parseLoweringConfig(StringRef Text) {
  return Parser(Text.trim()).parse();
}

void LoweringConfig::print(raw_ostream &OS) const {
  auto PrintBasis = [&](const Basis &B) {
    OS << '[';
    printList<int64_t>(OS, B.Counts);
    OS << ", ";
    printList<int64_t>(OS, B.Mapping);
    OS << ']';
  };
  OS << "#iree_gpu.lowering_config<{lane_basis = ";
  PrintBasis(Lane);
  OS << ", partial_reduction = ";
  printList<int64_t>(OS, PartialReduction);
  OS << ", subgroup_basis = ";
  PrintBasis(Subgroup);
  OS << ", thread = ";
  printList<int64_t>(OS, Thread);
  OS << ", workgroup = ";
  printList<int64_t>(OS, Workgroup);
  OS << "}>";
}

std::string LoweringConfig::str() const {
  std::string S;
  raw_string_ostream OS(S);
  print(OS);
  return S;
}

int64_t Basis::product() const {
  int64_t P = 1;
  for (int64_t C : Counts)
    P *= C;
  return P;
}

} // namespace lc
} // namespace crosslane
