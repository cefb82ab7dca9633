//===- AddressMap.cpp - Where the executor's memory regions live ----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "AddressMap.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace crosslane {
namespace exec {

// Tagged 64-bit layout: bits 63..48 tag (0 global, 1 local, 2 private);
// global: region index + 1 in bits 47..32, offset in bits 31..0; private:
// lane in bits 39..32.
static constexpr uint64_t TagLocal = 1ULL << 48, TagPrivate = 2ULL << 48;
// Flat 32-bit layout: the null page and the gap between global regions.
static constexpr uint64_t NullPage = 4096, Gap = 4096;
static constexpr unsigned MaxLanes = 64;

void AddressMap::clear() {
  Bases.clear();
  Next = Layout ? Layout->GlobalBase : 0;
}

uint64_t AddressMap::addGlobal(uint64_t Size) {
  if (!Layout) {
    Bases.push_back((uint64_t)(Bases.size() + 1) << 32);
    return Bases.back();
  }
  if (Bases.empty())
    Next = Layout->GlobalBase;
  uint64_t Base = alignTo(Next, 4096);
  if (Base + Size > Layout->PrivateBase)
    return 0;
  Bases.push_back(Base);
  Next = Base + Size + Gap;
  return Base;
}

unsigned AddressMap::globalIndex(uint64_t Base) const {
  auto It = std::lower_bound(Bases.begin(), Bases.end(), Base);
  return It - Bases.begin();
}

AddressMap::Where AddressMap::decodeGlobal(uint64_t Addr) const {
  Where W;
  if (Layout)
    return decodeFlat(Addr, 0);
  uint64_t Id = Addr >> 32;
  W.Off = Addr & 0xFFFFFFFF;
  if (Addr == 0)
    W.K = Kind::Null;
  else if (Id == 0 || Id > Bases.size())
    W.K = Kind::Nowhere;
  else
    W.K = Kind::Global, W.Index = Id - 1;
  return W;
}

AddressMap::Where AddressMap::decodeFlat(uint64_t Addr, unsigned Lane) const {
  Where W;
  if (!Layout) {
    uint64_t Tag = Addr >> 48;
    W.Off = Addr & 0xFFFFFFFF;
    if (Tag == 1)
      W.K = Kind::Local;
    else if (Tag == 2)
      W.K = Kind::Private, W.Lane = (Addr >> 32) & 0xFF;
    else if (Tag == 0)
      return decodeGlobal(Addr);
    else
      W.K = Kind::BadTag;
    return W;
  }
  Addr &= 0xFFFFFFFF;
  uint64_t PrivEnd = Layout->PrivateBase + MaxLanes * PrivateStride;
  if (Addr >= Layout->LocalBase) {
    W.K = Kind::Local, W.Off = Addr - Layout->LocalBase;
  } else if (Addr >= Layout->PrivateBase && Addr < PrivEnd) {
    W.K = Kind::Private;
    W.Lane = (Addr - Layout->PrivateBase) / PrivateStride;
    W.Off = (Addr - Layout->PrivateBase) % PrivateStride;
  } else if (Addr < NullPage) {
    W.K = Kind::Null, W.Off = Addr;
  } else {
    auto It = std::upper_bound(Bases.begin(), Bases.end(), Addr);
    if (It == Bases.begin())
      return W; // Nowhere
    W.K = Kind::Global;
    W.Index = It - Bases.begin() - 1;
    W.Off = Addr - Bases[W.Index];
  }
  return W;
}

uint64_t AddressMap::localToFlat(uint64_t Off) const {
  if (!Layout)
    return TagLocal | (Off & 0xFFFFFFFF);
  return (Layout->LocalBase + Off) & 0xFFFFFFFF;
}

uint64_t AddressMap::privateToFlat(unsigned Lane, uint64_t Off) const {
  if (!Layout)
    return TagPrivate | ((uint64_t)Lane << 32) | (Off & 0xFFFFFFFF);
  return (Layout->PrivateBase + Lane * PrivateStride + Off) & 0xFFFFFFFF;
}

uint64_t AddressMap::flatToOffset(uint64_t Addr) const {
  if (!Layout)
    return Addr & 0xFFFFFFFF;
  Where W = decodeFlat(Addr, 0);
  return W.K == Kind::Local || W.K == Kind::Private ? W.Off : Addr;
}

} // namespace exec
} // namespace crosslane
