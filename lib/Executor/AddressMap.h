//===- AddressMap.h - Where the executor's memory regions live --*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The addresses a kernel sees for the executor's memory regions. Two
/// encodings:
///  * tagged 64-bit (the default, AMDGPU): global region I (0-based) at
///    (I + 1) << 32; flat local-memory addresses carry tag 1 in bits 63..48,
///    flat private addresses tag 2 and the lane in bits 39..32; local and
///    private address spaces hold plain 32-bit offsets;
///  * flat 32-bit (targets with 32-bit pointers, Vortex's riscv32): global
///    regions one after another from Flat32Layout::GlobalBase (4 KiB aligned,
///    at least 4 KiB apart), the workgroup's local memory at LocalBase, and
///    lane L's private memory at PrivateBase + L * 1 MiB.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_EXECUTOR_ADDRESSMAP_H
#define CROSSLANE_LIB_EXECUTOR_ADDRESSMAP_H

#include "crosslane/Executor/Engine.h"

#include <optional>
#include <vector>

namespace crosslane {
namespace exec {

class AddressMap {
public:
  /// What an address points into.
  enum class Kind : uint8_t {
    Global,  ///< global region Index
    Local,   ///< the workgroup's local memory (LDS)
    Private, ///< lane Lane's private memory
    Null,    ///< the null page
    Nowhere, ///< a global-looking address in no region
    BadTag,  ///< a tagged address outside every aperture
  };
  struct Where {
    Kind K = Kind::Nowhere;
    unsigned Index = 0; ///< global region
    unsigned Lane = 0;  ///< private memory
    uint64_t Off = 0;   ///< byte offset in the region
  };

  /// Bytes of private memory per lane the flat 32-bit layout reserves.
  static constexpr uint64_t PrivateStride = 1u << 20;

  explicit AddressMap(std::optional<Flat32Layout> L = std::nullopt)
      : Layout(L) {}
  bool isFlat32() const { return Layout.has_value(); }
  /// Forgets every global region.
  void clear();
  /// The address of a new global region of \p Size bytes; its index is the
  /// number of regions added before it. 0 if the address space is full.
  uint64_t addGlobal(uint64_t Size);
  /// The index of the global region at \p Base (an addGlobal result).
  unsigned globalIndex(uint64_t Base) const;
  /// Decodes a flat (generic) address; \p Lane is the accessing lane.
  Where decodeFlat(uint64_t Addr, unsigned Lane) const;
  /// Decodes an address of a global/constant address space.
  Where decodeGlobal(uint64_t Addr) const;
  /// Flat addresses of local-memory and private offsets.
  uint64_t localToFlat(uint64_t Off) const;
  uint64_t privateToFlat(unsigned Lane, uint64_t Off) const;
  /// The offset a flat address has in local or private memory.
  uint64_t flatToOffset(uint64_t Addr) const;

private:
  std::optional<Flat32Layout> Layout;
  std::vector<uint64_t> Bases; ///< flat 32-bit: base of each global region
  uint64_t Next = 0;           ///< flat 32-bit: next free address
};

} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_LIB_EXECUTOR_ADDRESSMAP_H
