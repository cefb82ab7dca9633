//===- Launch.cpp - Loading Vortex images, launching kernels, symbols -----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Loading an image so that its variables stay writable.
//
// vx_module_load_bytes (Vortex v3.0 sw/runtime/common/module.cpp) reserves
// the image's whole range [min_vma, max_vma) with an internal buffer it never
// hands out, uploads the binary and zeroes the rest. Every vortex2.h transfer
// (vx_enqueue_write/read/copy) needs a vx_buffer_h covering the target range,
// and vx_buffer_reserve over a range the module reserved fails (the device
// allocator rejects overlapping reservations, sw/common/mem_alloc.h), so
// after a plain load the host could never write a __device__ variable.
//
// The runtime therefore gives vx_module_load_bytes only the image's first
// page: a copy whose header says [min_vma, min_vma + 4096), with the first
// page of the binary and the original symbol-table footer (the kernel entry
// PCs in it are absolute, and the launch starts every warp at min_vma, the
// module's base). It then reserves the rest of the range itself with
// vx_buffer_reserve, uploads the remaining binary bytes and zeroes the BSS.
// 4096 is the allocator's reservation granularity (RAM_PAGE_SIZE in
// sw/runtime/common/common.h); Vortex's link script starts the writable data
// on a new page, so variables land in the part this runtime owns. An image
// of one page or less is loaded whole, and its variables cannot be written
// (hipErrorNotSupported).
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstring>

using namespace crosslane::vortex;

namespace {

/// Vortex's device-allocator page (RAM_PAGE_SIZE, sw/runtime/common/common.h).
constexpr uint64_t VortexPageSize = 4096;
/// Static local memory is rounded up to this before dynamic memory follows.
constexpr uint64_t LmemStaticAlign = 16;

void writeU64(uint8_t *P, uint64_t V) { std::memcpy(P, &V, sizeof(V)); }

std::string dims(dim3 D) {
  return std::to_string(D.x) + "x" + std::to_string(D.y) + "x" +
         std::to_string(D.z);
}

/// Names a failed load. Images are linked at fixed addresses: two images
/// whose ranges overlap cannot be loaded together.
std::string loadWhat(const VxbinLayout &Layout) {
  return "loading the Vortex image at [" + hex(Layout.MinVma) + ", " +
         hex(Layout.MaxVma) +
         ") (another image loaded there?) with vx_module_load_bytes";
}

} // namespace

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

Status Device::loadCode(CodeObject &Code) {
  if (Code.Loaded)
    return Status::success();
  if (!Code.Invalid.ok())
    return Code.Invalid;
  if (Status St = checkUsable(); !St.ok())
    return St;
  VxbinLayout Layout;
  std::string Error;
  if (!parseVxbinLayout(Code.Bin.Image, Code.Bin.ImageSize, Layout, Error))
    return Status::error(hipErrorInvalidImage, Error);
  if (Layout.MaxVma - Layout.MinVma > VortexPageSize)
    return loadSplitImage(Code, Code.Bin.Image, Layout);
  // Copied: the loader reads 64-bit fields in place, and the embedded
  // container gives no alignment guarantee.
  std::vector<uint8_t> Bytes(Code.Bin.Image,
                             Code.Bin.Image + Code.Bin.ImageSize);
  VxResult R = Api.vx_module_load_bytes(Handle, Bytes.data(), Bytes.size(),
                                        &Code.Module);
  if (R != VxSuccess)
    return vortexError(loadWhat(Layout), R, hipErrorInvalidImage);
  Code.Loaded = true;
  return Status::success();
}

Status Device::loadSplitImage(CodeObject &Code, const uint8_t *Image,
                              const VxbinLayout &Layout) {
  uint64_t Head = std::min(Layout.BinarySize, VortexPageSize);
  std::vector<uint8_t> Bytes(16 + Head + Layout.FooterSize);
  writeU64(Bytes.data(), Layout.MinVma);
  writeU64(Bytes.data() + 8, Layout.MinVma + VortexPageSize);
  std::memcpy(Bytes.data() + 16, Image + 16, Head);
  std::memcpy(Bytes.data() + 16 + Head, Image + 16 + Layout.BinarySize,
              Layout.FooterSize);
  VxResult R = Api.vx_module_load_bytes(Handle, Bytes.data(), Bytes.size(),
                                        &Code.Module);
  if (R != VxSuccess)
    return vortexError(loadWhat(Layout), R, hipErrorInvalidImage);
  if (Status St = uploadData(Code, Image, Layout); !St.ok()) {
    if (!Lost)
      Api.vx_module_release(Code.Module);
    Code.Module = nullptr;
    return St;
  }
  Code.Loaded = true;
  return Status::success();
}

Status Device::uploadData(CodeObject &Code, const uint8_t *Image,
                          const VxbinLayout &Layout) {
  uint64_t Base = Layout.MinVma + VortexPageSize;
  uint64_t Size = Layout.MaxVma - Base;
  VxResult R =
      Api.vx_buffer_reserve(Handle, Base, Size, VxMemReadWrite, &Code.Data);
  if (R != VxSuccess) {
    Code.Data = nullptr;
    return vortexError("reserving the image range [" + hex(Base) + ", " +
                           hex(Layout.MaxVma) + ") with vx_buffer_reserve",
                       R, hipErrorOutOfMemory);
  }
  Code.DataBase = Base;
  Code.DataSize = Size;
  Allocations[Base] = {Code.Data, Size, /*Owned=*/false};
  uint64_t Copied = Layout.BinarySize > VortexPageSize
                        ? Layout.BinarySize - VortexPageSize
                        : 0;
  VxBuffer Data = Code.Data;
  VxQueue Q = NullStream.Queue;
  const uint8_t *Bytes = Image + 16 + VortexPageSize;
  Status St = Status::success();
  if (Copied)
    St = submit(NullStream, PendingOp{nullptr, "loading the Vortex image"},
                [&](uint32_t N, const VxEvent *W, VxEvent *E) {
                  return Api.vx_enqueue_write(Q, Data, 0, Bytes, Copied, N, W,
                                              E);
                });
  uint8_t Zero = 0;
  if (St.ok() && Size > Copied)
    St = submit(NullStream, PendingOp{nullptr, "zeroing the image's BSS"},
                [&](uint32_t N, const VxEvent *W, VxEvent *E) {
                  return Api.vx_enqueue_fill_buffer(
                      Q, Data, Copied, Size - Copied, &Zero, 1, N, W, E);
                });
  if (St.ok())
    St = synchronize(NullStream);
  if (!St.ok() && !Lost) {
    Allocations.erase(Base);
    Api.vx_buffer_release(Data);
    Code.Data = nullptr;
    Code.DataBase = Code.DataSize = 0;
  }
  return St;
}

void Device::unloadCode(CodeObject &Code) {
  if (Lost)
    return;
  for (auto &Entry : Code.KernelHandles)
    Api.vx_kernel_release(Entry.second);
  Code.KernelHandles.clear();
  if (Code.Module)
    Api.vx_module_release(Code.Module);
  Code.Module = nullptr;
  if (Code.Data) {
    Allocations.erase(Code.DataBase);
    Api.vx_buffer_release(Code.Data);
  }
  Code.Data = nullptr;
  Code.DataBase = Code.DataSize = 0;
  Code.Loaded = false;
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

Status Device::checkLaunch(const KernelInfo &Kernel, dim3 Grid, dim3 Block,
                           size_t SharedMem, uint32_t &LmemSize) {
  std::string Name = "kernel " + Kernel.Name;
  if (!Grid.x || !Grid.y || !Grid.z || !Block.x || !Block.y || !Block.z)
    return Status::error(hipErrorInvalidConfiguration,
                         Name + ": zero-sized launch (grid " + dims(Grid) +
                             ", block " + dims(Block) + ")");
  uint64_t Threads = uint64_t(Block.x) * Block.y * Block.z;
  uint64_t MaxThreads = NumWarps * NumThreads;
  if (Threads > MaxThreads)
    return Status::error(
        hipErrorInvalidConfiguration,
        Name + ": a block of " + std::to_string(Threads) + " threads (" +
            dims(Block) + ") exceeds Vortex's limit of " +
            std::to_string(NumWarps) + " warps x " +
            std::to_string(NumThreads) +
            " threads = " + std::to_string(MaxThreads) + " threads per block");
  uint64_t Blocks = uint64_t(Grid.x) * Grid.y * Grid.z;
  if (Grid.x > uint32_t(INT32_MAX) || Grid.y > 65535 || Grid.z > 65535 ||
      Blocks > UINT32_MAX)
    return Status::error(hipErrorInvalidConfiguration,
                         Name + ": grid " + dims(Grid) +
                             " exceeds the limits 2147483647x65535x65535 "
                             "(and 2^32-1 blocks in all)");
  uint64_t Static = (uint64_t(Kernel.LmemStatic) + LmemStaticAlign - 1) &
                    ~(LmemStaticAlign - 1);
  uint64_t Total = Static + SharedMem;
  if (SharedMem > LocalMemSize || Total > LocalMemSize)
    return Status::error(
        hipErrorInvalidConfiguration,
        Name + ": needs " + std::to_string(Total) + " bytes of local memory (" +
            std::to_string(Static) + " static + " + std::to_string(SharedMem) +
            " dynamic), more than Vortex's " + std::to_string(LocalMemSize) +
            " bytes per core");
  LmemSize = uint32_t(Total);
  return Status::success();
}

Status Device::kernelHandle(CodeObject &Code, const KernelInfo &Kernel,
                            bool FullWarps, VxKernel &Handle) {
  // crosslane-vortex-abi gives each kernel two entries: __vx_kentry_<name>,
  // a stub that sets up every lane of a partial warp, and
  // __vx_kentry_<name>.fullwarps, the entry itself, for launches whose
  // blocks are whole warps (lib/Vortex/EntryStub.cpp). Images from other
  // compilers have the first only.
  const std::string Names[2] = {Kernel.Name + ".fullwarps", Kernel.Name};
  VxResult R = VxSuccess;
  for (int I = FullWarps ? 0 : 1; I < 2; ++I) {
    auto It = Code.KernelHandles.find(Names[I]);
    if (It != Code.KernelHandles.end()) {
      Handle = It->second;
      return Status::success();
    }
    R = Api.vx_module_get_kernel(Code.Module, Names[I].c_str(), &Handle);
    if (R == VxSuccess) {
      Code.KernelHandles[Names[I]] = Handle;
      return Status::success();
    }
  }
  return vortexError("kernel " + Kernel.Name +
                         ": the Vortex image has no entry for it (link it "
                         "with --defsym=__vx_kentry_" +
                         Kernel.Name + "=" + Kernel.Name +
                         "); vx_module_get_kernel",
                     R, hipErrorInvalidDeviceFunction);
}

Status Device::launch(CodeObject &Code, const KernelInfo &Kernel, dim3 Grid,
                      dim3 Block, void **Args, size_t SharedMem, Stream &S) {
  if (Status St = checkUsable(); !St.ok())
    return St;
  uint32_t LmemSize = 0;
  if (Status St = checkLaunch(Kernel, Grid, Block, SharedMem, LmemSize);
      !St.ok())
    return St;
  if (!Args && !Kernel.Params.empty())
    return Status::error(hipErrorInvalidValue,
                         "kernel " + Kernel.Name + ": null argument array");
  // Parameter i is the low Size bytes of the host value args[i] points to:
  // both sides are little-endian and no device parameter is wider than its
  // host counterpart (pointers: 4 bytes on rv32, 8 on the host).
  std::vector<uint8_t> Blob(Kernel.ArgsSize, 0);
  for (size_t I = 0; I < Kernel.Params.size(); ++I) {
    if (!Args[I])
      return Status::error(hipErrorInvalidValue,
                           "kernel " + Kernel.Name + ": argument " +
                               std::to_string(I) + " is a null pointer");
    const ParamInfo &P = Kernel.Params[I];
    if (P.Fields.empty()) {
      std::memcpy(Blob.data() + P.Offset, Args[I], P.Size);
      continue;
    }
    // A struct laid out differently on the host (8-byte pointers and
    // longs): each scalar field is the low bytes of the host field.
    for (const FieldInfo &F : P.Fields)
      std::memcpy(Blob.data() + P.Offset + F.Offset,
                  static_cast<const uint8_t *>(Args[I]) + F.HostOffset, F.Size);
  }
  if (Status St = loadCode(Code); !St.ok())
    return St;
  VxKernel KernelHandle = nullptr;
  uint64_t BlockThreads = uint64_t(Block.x) * Block.y * Block.z;
  bool FullWarps = NumThreads && BlockThreads % NumThreads == 0;
  if (Status St = kernelHandle(Code, Kernel, FullWarps, KernelHandle); !St.ok())
    return St;
  VxLaunchInfo Info = {};
  Info.StructSize = sizeof(Info);
  Info.Kernel = KernelHandle;
  Info.ArgsHost = Blob.empty() ? nullptr : Blob.data();
  Info.ArgsSize = Blob.size();
  Info.NDim = 3;
  const uint32_t GridDims[3] = {Grid.x, Grid.y, Grid.z};
  const uint32_t BlockDims[3] = {Block.x, Block.y, Block.z};
  for (int I = 0; I < 3; ++I) {
    Info.GridDim[I] = GridDims[I];
    Info.BlockDim[I] = BlockDims[I];
  }
  Info.LmemSize = LmemSize;
  // vx_enqueue_launch copies the argument blob before it returns.
  VxQueue Q = S.Queue;
  return submit(S, PendingOp{nullptr, "kernel " + Kernel.Name, true},
                [&](uint32_t N, const VxEvent *W, VxEvent *E) {
                  return Api.vx_enqueue_launch(Q, &Info, N, W, E);
                });
}

//===----------------------------------------------------------------------===//
// Symbols
//===----------------------------------------------------------------------===//

Status Device::symbolAddress(CodeObject &Code, const VarInfo &Var,
                             uint64_t &Address) {
  if (Status St = loadCode(Code); !St.ok())
    return St;
  Address = Var.Address;
  return Status::success();
}

Status Device::symbolRange(CodeObject &Code, const VarInfo &Var, size_t Offset,
                           size_t Size, void *&Ptr) {
  if (Offset > Var.Size || Size > Var.Size - Offset)
    return Status::error(
        hipErrorInvalidValue,
        "variable " + Var.Name + ": bytes [" + std::to_string(Offset) + ", " +
            std::to_string(Offset + Size) + ") lie outside its " +
            std::to_string(Var.Size) + " bytes");
  if (Status St = loadCode(Code); !St.ok())
    return St;
  uint64_t Address = Var.Address + Offset;
  if (!Code.Data || Address < Code.DataBase ||
      Address + Size > Code.DataBase + Code.DataSize)
    return Status::error(
        hipErrorNotSupported,
        "variable " + Var.Name + " at " + hex(Var.Address) +
            " lies in the first 4 KiB page of its Vortex image, which "
            "vx_module_load_bytes keeps to itself; the host can only reach "
            "variables placed after that page");
  Ptr = reinterpret_cast<void *>(uintptr_t(Address));
  return Status::success();
}
