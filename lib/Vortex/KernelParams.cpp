//===- KernelParams.cpp - Host and device layouts of kernel parameters ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Layout rules: rv32 ilp32f (device) and x86-64 SysV (host) agree on every
/// scalar except pointers (4 / 8 bytes) and `long` (4 / 8 bytes); both align
/// scalars to their size and structs to their strictest member. The device
/// layout is the one clang recorded in the debug info; the host layout is
/// recomputed member by member with the host sizes.
///
//===----------------------------------------------------------------------===//

#include "KernelParams.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace crosslane {
namespace {

/// A type's layouts on both sides and its scalars.
struct Layout {
  uint64_t DevSize = 0, DevAlign = 1, HostSize = 0, HostAlign = 1;
  SmallVector<ParamLeaf, 4> Leaves;
};

const DIType *stripQualifiers(const DIType *T) {
  while (const auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    unsigned Tag = D->getTag();
    if (Tag != dwarf::DW_TAG_typedef && Tag != dwarf::DW_TAG_const_type &&
        Tag != dwarf::DW_TAG_volatile_type &&
        Tag != dwarf::DW_TAG_restrict_type && Tag != dwarf::DW_TAG_atomic_type)
      break;
    T = D->getBaseType();
  }
  return T;
}

class LayoutReader {
public:
  std::string Why;
  bool read(const DIType *T, Layout &L);

private:
  bool basic(const DIBasicType &B, Layout &L);
  bool record(const DICompositeType &C, Layout &L);
  bool array(const DICompositeType &C, Layout &L);
  void scalar(Layout &L, uint64_t Dev, uint64_t Host, bool IsFloat) {
    L = {Dev, Dev, Host, Host, {}};
    L.Leaves.push_back({0, 0, Dev, IsFloat});
  }
};

bool LayoutReader::basic(const DIBasicType &B, Layout &L) {
  uint64_t Size = B.getSizeInBits() / 8;
  StringRef Name = B.getName();
  bool IsFloat = B.getEncoding() == dwarf::DW_ATE_float;
  if (IsFloat && Size > 8) {
    Why = "'" + Name.str() + "' has another format on the host";
    return false;
  }
  // `long` is 4 bytes on rv32, 8 on x86-64 (the device gets the low bytes).
  bool Long = Size == 4 && Name.contains("long") && !Name.contains("long long");
  scalar(L, Size, Long ? 8 : Size, IsFloat);
  return Size != 0 || (Why = "a parameter of unknown size", false);
}

bool LayoutReader::record(const DICompositeType &C, Layout &L) {
  L = {C.getSizeInBits() / 8, 1, 0, 1, {}};
  uint64_t HostCursor = 0;
  bool Union = C.getTag() == dwarf::DW_TAG_union_type;
  for (const DINode *E : C.getElements()) {
    const auto *M = dyn_cast<DIDerivedType>(E);
    if (!M ||
        (M->getTag() != dwarf::DW_TAG_member &&
         M->getTag() != dwarf::DW_TAG_inheritance) ||
        M->isStaticMember())
      continue;
    if (M->isBitField()) {
      Why = "bit-field '" + M->getName().str() + "'";
      return false;
    }
    Layout Sub;
    if (!read(M->getBaseType(), Sub))
      return false;
    uint64_t Dev = M->getOffsetInBits() / 8;
    uint64_t Host = Union ? 0 : alignTo(HostCursor, Sub.HostAlign);
    for (ParamLeaf Leaf : Sub.Leaves) {
      Leaf.DevOffset += Dev;
      Leaf.HostOffset += Host;
      L.Leaves.push_back(Leaf);
    }
    L.DevAlign = std::max(L.DevAlign, Sub.DevAlign);
    L.HostAlign = std::max(L.HostAlign, Sub.HostAlign);
    HostCursor = std::max(HostCursor, Host + Sub.HostSize);
  }
  if (Union && L.Leaves.size() > 1 && HostCursor != L.DevSize) {
    Why = "union '" + C.getName().str() + "' has another layout on the host";
    return false;
  }
  L.HostSize = alignTo(HostCursor, L.HostAlign);
  return true;
}

bool LayoutReader::array(const DICompositeType &C, Layout &L) {
  Layout Elt;
  if (!read(C.getBaseType(), Elt))
    return false;
  uint64_t Count = 1;
  for (const DINode *N : C.getElements())
    if (const auto *R = dyn_cast<DISubrange>(N)) {
      auto *CI = dyn_cast_if_present<ConstantInt *>(R->getCount());
      if (!CI) {
        Why = "an array of unknown size";
        return false;
      }
      Count *= CI->getZExtValue();
    }
  L = {Elt.DevSize * Count,
       Elt.DevAlign,
       Elt.HostSize * Count,
       Elt.HostAlign,
       {}};
  for (uint64_t I = 0; I < Count; ++I)
    for (ParamLeaf Leaf : Elt.Leaves) {
      Leaf.DevOffset += I * Elt.DevSize;
      Leaf.HostOffset += I * Elt.HostSize;
      L.Leaves.push_back(Leaf);
    }
  return true;
}

bool LayoutReader::read(const DIType *T, Layout &L) {
  T = stripQualifiers(T);
  if (!T) {
    Why = "a parameter without a type";
    return false;
  }
  if (const auto *B = dyn_cast<DIBasicType>(T))
    return basic(*B, L);
  unsigned Tag = T->getTag();
  if (Tag == dwarf::DW_TAG_pointer_type ||
      Tag == dwarf::DW_TAG_reference_type ||
      Tag == dwarf::DW_TAG_rvalue_reference_type) {
    scalar(L, 4, 8, false);
    return true;
  }
  const auto *C = dyn_cast<DICompositeType>(T);
  if (C && Tag == dwarf::DW_TAG_enumeration_type) {
    scalar(L, C->getSizeInBits() / 8, C->getSizeInBits() / 8, false);
    return true;
  }
  if (C && Tag == dwarf::DW_TAG_array_type)
    return array(*C, L);
  if (C && (Tag == dwarf::DW_TAG_structure_type ||
            Tag == dwarf::DW_TAG_class_type || Tag == dwarf::DW_TAG_union_type))
    return record(*C, L);
  Why = "type '" + T->getName().str() + "'";
  return false;
}

} // namespace

SmallVector<ParamLeaf, 4> SourceParam::copies() const {
  // Adjacent leaves that are contiguous on both sides become one copy.
  SmallVector<ParamLeaf, 4> Out;
  for (const ParamLeaf &L : Leaves) {
    if (!Out.empty()) {
      ParamLeaf &B = Out.back();
      if (B.DevOffset + B.Size == L.DevOffset &&
          B.HostOffset + B.Size == L.HostOffset) {
        B.Size += L.Size;
        continue;
      }
    }
    Out.push_back(L);
  }
  return Out;
}

bool SourceParam::sameLayout() const {
  if (DevSize != HostSize)
    return false;
  return all_of(Leaves,
                [](const ParamLeaf &L) { return L.DevOffset == L.HostOffset; });
}

bool describeKernelParams(const Function &K, SmallVectorImpl<SourceParam> &Out,
                          std::string &Why) {
  const DISubprogram *SP = K.getSubprogram();
  const DISubroutineType *ST = SP ? SP->getType() : nullptr;
  if (!ST || ST->getTypeArray().size() == 0) {
    Why = "no debug info describes the kernel's parameters";
    return false;
  }
  auto Types = ST->getTypeArray();
  LayoutReader R;
  for (unsigned I = 1, E = Types.size(); I < E; ++I) {
    Layout L;
    const DIType *T = Types[I];
    SourceParam P;
    const DIType *Bare = stripQualifiers(T);
    P.TypeName = Bare && !Bare->getName().empty() ? Bare->getName().str()
                                                  : std::string("?");
    if (!R.read(T, L)) {
      Why = "parameter " + std::to_string(I) + " of type '" + P.TypeName +
            "': " + R.Why;
      return false;
    }
    P.IsAggregate = isa<DICompositeType>(Bare) &&
                    Bare->getTag() != dwarf::DW_TAG_enumeration_type;
    P.DevSize = L.DevSize;
    P.DevAlign = L.DevAlign;
    P.HostSize = L.HostSize;
    P.HostAlign = L.HostAlign;
    P.Leaves = std::move(L.Leaves);
    Out.push_back(std::move(P));
  }
  return true;
}

} // namespace crosslane
