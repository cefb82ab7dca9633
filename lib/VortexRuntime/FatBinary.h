//===- FatBinary.h - Crosslane's Vortex device-code container --*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The container clang embeds with -fcuda-include-gpubinary (written by
// tools/crosslane-vxpack.py):
//
//   0:  char magic[8] = "CLVXFAT1"
//   8:  u32 header_size (= 32)
//   12: u32 meta_size
//   16: u64 image_size
//   24: u32 config_size
//   28: u32 reserved (0)
//   32: config directory (UTF-8, no NUL), meta text, image (a Vortex .vxbin)
//
// All integers are little-endian. The meta text has one record per line,
// fields separated by single spaces:
//
//   kernel <name> <args_size> <args_align> <lmem_static> <nparams>
//   param <index> <offset> <size>          (exactly nparams of them)
//   param <index> <offset> <size> <nfields> <host_size>
//                                          (a struct whose host layout
//                                          differs, followed by nfields
//   field <host_offset> <offset> <size>     field records: copy size bytes
//                                          from the host value + host_offset
//                                          to the parameter + offset)
//   var <name> <address> <size>           (address: 0x-hex or decimal)
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_VORTEXRUNTIME_FATBINARY_H
#define CROSSLANE_LIB_VORTEXRUNTIME_FATBINARY_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace crosslane {
namespace vortex {

/// One scalar of a struct parameter whose host and device layouts differ.
struct FieldInfo {
  uint32_t HostOffset = 0;
  uint32_t Offset = 0; ///< from the parameter's start in the blob
  uint32_t Size = 0;   ///< device size: the low bytes of the host value
};

/// Where parameter i of a kernel goes in the device argument blob. Without
/// fields, its Size bytes are the low bytes of the host value.
struct ParamInfo {
  uint32_t Offset = 0;
  uint32_t Size = 0;
  uint32_t HostSize = 0; ///< with fields: the host value's size
  std::vector<FieldInfo> Fields;
};

/// One `kernel` record and its `param` records.
struct KernelInfo {
  std::string Name;
  uint32_t ArgsSize = 0;
  uint32_t ArgsAlign = 1;
  uint32_t LmemStatic = 0;
  std::vector<ParamInfo> Params;
};

/// One `var` record: a __device__ or __constant__ variable of the image.
struct VarInfo {
  std::string Name;
  uint64_t Address = 0;
  uint64_t Size = 0;
};

/// A parsed container. Image points into the embedded container, which
/// lives as long as the program.
struct FatBinary {
  std::string ConfigDir;
  const uint8_t *Image = nullptr;
  uint64_t ImageSize = 0;
  std::map<std::string, KernelInfo> Kernels;
  std::map<std::string, VarInfo> Vars;
};

/// Parses what clang hands to __hipRegisterFatBinary: its wrapper
/// { u32 magic "HIPF", u32 version 1, const void *binary, void *unused }
/// and the container `binary` points to. Returns false with a message.
bool parseFatBinaryWrapper(const void *Wrapper, FatBinary &Out,
                           std::string &Error);

/// Parses a container (magic CLVXFAT1) at \p Data of \p Avail bytes
/// (UINT64_MAX: unknown, as for an embedded one). Returns false with a
/// message.
bool parseContainer(const void *Data, uint64_t Avail, FatBinary &Out,
                    std::string &Error);

/// Parses the meta text into Out.Kernels and Out.Vars.
bool parseMeta(const std::string &Text, FatBinary &Out, std::string &Error);

/// The layout of a Vortex .vxbin (Vortex v3.0 sw/runtime/common/module.cpp):
/// u64 min_vma, u64 max_vma, the binary (loaded at min_vma), then an
/// optional symbol-table footer ending in "VXSYMTAB".
struct VxbinLayout {
  uint64_t MinVma = 0;
  uint64_t MaxVma = 0;
  uint64_t BinarySize = 0; ///< Bytes of binary after the 16-byte header.
  uint64_t FooterSize = 0; ///< Bytes after the binary (0: no footer).
};

/// Splits a .vxbin into header, binary and footer the way Vortex's loader
/// does. Returns false with a message when the image is malformed.
bool parseVxbinLayout(const uint8_t *Bytes, uint64_t Size, VxbinLayout &Out,
                      std::string &Error);

} // namespace vortex
} // namespace crosslane

#endif // CROSSLANE_LIB_VORTEXRUNTIME_FATBINARY_H
