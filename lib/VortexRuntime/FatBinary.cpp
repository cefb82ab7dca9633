//===- FatBinary.cpp - Crosslane's Vortex device-code container -----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "FatBinary.h"

#include <cstring>

using namespace crosslane::vortex;

namespace {

/// clang's wrapper around an embedded GPU binary for HIP (clang-22
/// CGCUDANV.cpp: { i32 0x48495046 "HIPF", i32 1, ptr binary, ptr null }).
struct HipFatBinaryWrapper {
  uint32_t Magic;
  uint32_t Version;
  const void *Binary;
  void *Unused;
};
constexpr uint32_t HipFatMagic = 0x48495046;

constexpr char ContainerMagic[8] = {'C', 'L', 'V', 'X', 'F', 'A', 'T', '1'};
constexpr uint32_t ContainerHeaderSize = 32;
// Sanity bounds: anything larger is a corrupt header, not a real program.
constexpr uint32_t MaxConfigSize = 4096;
constexpr uint32_t MaxMetaSize = 64u << 20;
constexpr uint64_t MaxImageSize = uint64_t(1) << 32;
constexpr uint32_t MaxArgsSize = 1u << 20;

uint32_t readU32(const uint8_t *P) {
  uint32_t V;
  std::memcpy(&V, P, sizeof(V));
  return V;
}

uint64_t readU64(const uint8_t *P) {
  uint64_t V;
  std::memcpy(&V, P, sizeof(V));
  return V;
}

/// Parses a decimal or 0x-prefixed hexadecimal number, all of \p Text.
bool parseNumber(const std::string &Text, uint64_t &Out) {
  size_t Pos = 0;
  unsigned Base = 10;
  if (Text.size() > 2 && Text[0] == '0' && (Text[1] == 'x' || Text[1] == 'X')) {
    Pos = 2;
    Base = 16;
  }
  if (Pos == Text.size())
    return false;
  uint64_t Value = 0;
  for (; Pos < Text.size(); ++Pos) {
    char C = Text[Pos];
    unsigned Digit;
    if (C >= '0' && C <= '9')
      Digit = C - '0';
    else if (Base == 16 && C >= 'a' && C <= 'f')
      Digit = C - 'a' + 10;
    else if (Base == 16 && C >= 'A' && C <= 'F')
      Digit = C - 'A' + 10;
    else
      return false;
    if (Value > (UINT64_MAX - Digit) / Base)
      return false;
    Value = Value * Base + Digit;
  }
  Out = Value;
  return true;
}

std::vector<std::string> splitFields(const std::string &Line) {
  std::vector<std::string> Fields;
  size_t Start = 0;
  while (true) {
    size_t End = Line.find(' ', Start);
    Fields.push_back(Line.substr(Start, End - Start));
    if (End == std::string::npos)
      return Fields;
    Start = End + 1;
  }
}

/// Parses fields [First, First + N) of \p Fields as numbers.
bool parseNumbers(const std::vector<std::string> &Fields, size_t First,
                  size_t N, uint64_t *Out) {
  for (size_t I = 0; I < N; ++I)
    if (!parseNumber(Fields[First + I], Out[I]))
      return false;
  return true;
}

/// Meta parser state: the kernel whose params are being read.
struct MetaParser {
  FatBinary &Bin;
  std::string &Error;
  KernelInfo *Current = nullptr;
  std::vector<bool> Seen;
  size_t ParamsLeft = 0;
  ParamInfo *Fields = nullptr; ///< the param whose field records follow
  size_t FieldsLeft = 0;

  bool fail(size_t LineNo, const std::string &Message) {
    Error = "meta line " + std::to_string(LineNo) + ": " + Message;
    return false;
  }
  bool parseKernel(const std::vector<std::string> &F, size_t LineNo);
  bool parseParam(const std::vector<std::string> &F, size_t LineNo);
  bool parseField(const std::vector<std::string> &F, size_t LineNo);
  bool parseVar(const std::vector<std::string> &F, size_t LineNo);
  bool parseLine(const std::string &Line, size_t LineNo);
};

bool MetaParser::parseKernel(const std::vector<std::string> &F, size_t LineNo) {
  uint64_t N[4];
  if (F.size() != 6 || F[1].empty() || !parseNumbers(F, 2, 4, N))
    return fail(LineNo, "expected 'kernel <name> <args_size> <args_align> "
                        "<lmem_static> <nparams>'");
  if (N[0] > MaxArgsSize || N[1] == 0 || (N[1] & (N[1] - 1)) ||
      N[2] > UINT32_MAX || N[3] > MaxArgsSize)
    return fail(LineNo, "kernel " + F[1] +
                            ": size, alignment or count "
                            "out of range");
  KernelInfo &K = Bin.Kernels[F[1]];
  if (!K.Name.empty())
    return fail(LineNo, "kernel " + F[1] + " described twice");
  K.Name = F[1];
  K.ArgsSize = uint32_t(N[0]);
  K.ArgsAlign = uint32_t(N[1]);
  K.LmemStatic = uint32_t(N[2]);
  K.Params.resize(N[3]);
  Current = &K;
  Seen.assign(N[3], false);
  ParamsLeft = N[3];
  return true;
}

bool MetaParser::parseParam(const std::vector<std::string> &F, size_t LineNo) {
  uint64_t N[5] = {0, 0, 0, 0, 0};
  if ((F.size() != 4 && F.size() != 6) || !parseNumbers(F, 1, F.size() - 1, N))
    return fail(LineNo, "expected 'param <index> <offset> <size> "
                        "[<nfields> <host_size>]'");
  if (!Current || ParamsLeft == 0)
    return fail(LineNo, "param record outside a kernel's parameter list");
  if (N[0] >= Current->Params.size() || Seen[N[0]])
    return fail(LineNo, "kernel " + Current->Name +
                            ": bad or repeated "
                            "parameter index");
  if (N[2] == 0 || N[1] > Current->ArgsSize || N[2] > Current->ArgsSize - N[1])
    return fail(LineNo, "kernel " + Current->Name + ": parameter " + F[1] +
                            " lies outside the " +
                            std::to_string(Current->ArgsSize) +
                            "-byte argument blob");
  if (N[3] > MaxArgsSize || N[4] > MaxArgsSize)
    return fail(LineNo, "kernel " + Current->Name + ": parameter " + F[1] +
                            ": field count or host size out of range");
  Seen[N[0]] = true;
  ParamInfo &P = Current->Params[N[0]];
  P.Offset = uint32_t(N[1]);
  P.Size = uint32_t(N[2]);
  P.HostSize = uint32_t(N[4]);
  P.Fields.clear();
  Fields = N[3] ? &P : nullptr;
  FieldsLeft = N[3];
  --ParamsLeft;
  return true;
}

bool MetaParser::parseField(const std::vector<std::string> &F, size_t LineNo) {
  uint64_t N[3];
  if (F.size() != 4 || !parseNumbers(F, 1, 3, N))
    return fail(LineNo, "expected 'field <host_offset> <offset> <size>'");
  if (!Fields || FieldsLeft == 0)
    return fail(LineNo, "field record outside a struct parameter");
  if (N[2] == 0 || N[1] > Fields->Size || N[2] > Fields->Size - N[1] ||
      N[0] > Fields->HostSize || N[2] > Fields->HostSize - N[0])
    return fail(LineNo,
                "kernel " + Current->Name + ": field outside its parameter");
  Fields->Fields.push_back({uint32_t(N[0]), uint32_t(N[1]), uint32_t(N[2])});
  if (--FieldsLeft == 0)
    Fields = nullptr;
  return true;
}

bool MetaParser::parseVar(const std::vector<std::string> &F, size_t LineNo) {
  uint64_t N[2];
  if (F.size() != 4 || F[1].empty() || !parseNumbers(F, 2, 2, N))
    return fail(LineNo, "expected 'var <name> <address> <size>'");
  if (N[1] == 0 || N[0] > MaxImageSize || N[1] > MaxImageSize - N[0])
    return fail(LineNo, "variable " + F[1] + ": address or size out of range");
  VarInfo &V = Bin.Vars[F[1]];
  if (!V.Name.empty())
    return fail(LineNo, "variable " + F[1] + " described twice");
  V = {F[1], N[0], N[1]};
  return true;
}

bool MetaParser::parseLine(const std::string &Line, size_t LineNo) {
  if (Line.empty())
    return true;
  std::vector<std::string> F = splitFields(Line);
  if (F[0] == "field")
    return parseField(F, LineNo);
  if (FieldsLeft != 0)
    return fail(LineNo, "kernel " + Current->Name + " lacks " +
                            std::to_string(FieldsLeft) + " field records");
  if (F[0] != "param" && ParamsLeft != 0)
    return fail(LineNo, "kernel " + Current->Name + " lacks " +
                            std::to_string(ParamsLeft) + " param records");
  if (F[0] == "kernel")
    return parseKernel(F, LineNo);
  if (F[0] == "param")
    return parseParam(F, LineNo);
  if (F[0] == "var")
    return parseVar(F, LineNo);
  return fail(LineNo, "unknown record '" + F[0] + "'");
}

} // namespace

bool crosslane::vortex::parseMeta(const std::string &Text, FatBinary &Out,
                                  std::string &Error) {
  MetaParser Parser{Out, Error};
  size_t Start = 0, LineNo = 1;
  while (Start < Text.size()) {
    size_t End = Text.find('\n', Start);
    if (End == std::string::npos)
      End = Text.size();
    std::string Line = Text.substr(Start, End - Start);
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (!Parser.parseLine(Line, LineNo))
      return false;
    Start = End + 1;
    ++LineNo;
  }
  if (Parser.ParamsLeft != 0)
    return Parser.fail(LineNo, "kernel " + Parser.Current->Name + " lacks " +
                                   std::to_string(Parser.ParamsLeft) +
                                   " param records");
  return true;
}

bool crosslane::vortex::parseFatBinaryWrapper(const void *Wrapper,
                                              FatBinary &Out,
                                              std::string &Error) {
  if (!Wrapper) {
    Error = "null fat binary wrapper";
    return false;
  }
  HipFatBinaryWrapper W;
  std::memcpy(&W, Wrapper, sizeof(W));
  if (W.Magic != HipFatMagic || W.Version != 1 || !W.Binary) {
    Error = "not clang's HIP fat binary wrapper (magic 0x48495046, version 1)";
    return false;
  }
  return parseContainer(W.Binary, UINT64_MAX, Out, Error);
}

bool crosslane::vortex::parseContainer(const void *Data, uint64_t Avail,
                                       FatBinary &Out, std::string &Error) {
  const auto *P = static_cast<const uint8_t *>(Data);
  if (Avail < ContainerHeaderSize ||
      std::memcmp(P, ContainerMagic, sizeof(ContainerMagic)) != 0) {
    Error = "GPU binary is not a Crosslane Vortex container (magic "
            "CLVXFAT1); was it packed by crosslane-vxpack.py?";
    return false;
  }
  uint32_t HeaderSize = readU32(P + 8), MetaSize = readU32(P + 12);
  uint64_t ImageSize = readU64(P + 16);
  uint32_t ConfigSize = readU32(P + 24), Reserved = readU32(P + 28);
  if (HeaderSize != ContainerHeaderSize || Reserved != 0 ||
      ConfigSize > MaxConfigSize || MetaSize > MaxMetaSize || ImageSize < 16 ||
      ImageSize > MaxImageSize) {
    Error = "corrupt Vortex container header (header " +
            std::to_string(HeaderSize) + " B, config " +
            std::to_string(ConfigSize) + " B, meta " +
            std::to_string(MetaSize) + " B, image " +
            std::to_string(ImageSize) + " B)";
    return false;
  }
  if (Avail != UINT64_MAX &&
      Avail < uint64_t(HeaderSize) + ConfigSize + MetaSize + ImageSize) {
    Error = "truncated Vortex container (" + std::to_string(Avail) +
            " bytes; its header describes " +
            std::to_string(uint64_t(HeaderSize) + ConfigSize + MetaSize +
                           ImageSize) +
            ")";
    return false;
  }
  const uint8_t *Config = P + HeaderSize;
  const uint8_t *Meta = Config + ConfigSize;
  Out.ConfigDir.assign(reinterpret_cast<const char *>(Config), ConfigSize);
  Out.Image = Meta + MetaSize;
  Out.ImageSize = ImageSize;
  std::string MetaText(reinterpret_cast<const char *>(Meta), MetaSize);
  VxbinLayout Layout;
  return parseMeta(MetaText, Out, Error) &&
         parseVxbinLayout(Out.Image, Out.ImageSize, Layout, Error);
}

bool crosslane::vortex::parseVxbinLayout(const uint8_t *Bytes, uint64_t Size,
                                         VxbinLayout &Out, std::string &Error) {
  if (Size < 16) {
    Error = "Vortex image shorter than its 16-byte header";
    return false;
  }
  Out.MinVma = readU64(Bytes);
  Out.MaxVma = readU64(Bytes + 8);
  Out.FooterSize = 0;
  // Footer, read backwards from the end: entries of 16 bytes
  // { u32 name_off, u16 name_len, u16 pad, u64 pc }, u32 count, "VXSYMTAB";
  // the names precede the entries.
  if (Size >= 16 + 12 && std::memcmp(Bytes + Size - 8, "VXSYMTAB", 8) == 0) {
    uint64_t Count = readU32(Bytes + Size - 12);
    uint64_t EntriesSize = Count * 16;
    if (Size >= 16 + 12 + EntriesSize) {
      const uint8_t *Entries = Bytes + Size - 12 - EntriesSize;
      uint64_t NamesSize = 0;
      for (uint64_t I = 0; I < Count; ++I) {
        uint64_t End = uint64_t(readU32(Entries + I * 16)) +
                       (readU32(Entries + I * 16 + 4) & 0xffff);
        NamesSize = End > NamesSize ? End : NamesSize;
      }
      if (12 + EntriesSize + NamesSize <= Size - 16)
        Out.FooterSize = 12 + EntriesSize + NamesSize;
    }
  }
  Out.BinarySize = Size - 16 - Out.FooterSize;
  if (Out.MaxVma <= Out.MinVma || Out.BinarySize > Out.MaxVma - Out.MinVma ||
      Out.MaxVma > MaxImageSize) {
    Error = "malformed Vortex image (min_vma " + std::to_string(Out.MinVma) +
            ", max_vma " + std::to_string(Out.MaxVma) + ", " +
            std::to_string(Out.BinarySize) + " bytes of binary)";
    return false;
  }
  return true;
}
