//===- KernelTarget.cpp - What a reduction kernel needs from a GPU --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelTarget.h"
#include "crosslane/Support/OpenCLBuiltins.h"
#include "crosslane/Vortex/VortexISA.h"
#include "crosslane/Vortex/VortexKernelABI.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crosslane {
namespace lc {

KernelTarget::~KernelTarget() = default;

namespace {

/// A module-scope array of \p Ty in address space \p AS, one per
/// work-group.
GlobalVariable *workgroupArray(Module &M, ArrayType *Ty, StringRef Name,
                               unsigned AS) {
  return new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                            PoisonValue::get(Ty), Name, nullptr,
                            GlobalValue::NotThreadLocal, AS);
}

/// amdgcn-amd-amdhsa: HIP's kernel ABI, buffers in addrspace(1), LDS in
/// addrspace(3).
class AMDGPUKernelTarget : public KernelTarget {
public:
  using KernelTarget::KernelTarget;
  Triple triple() const override { return Triple("amdgcn-amd-amdhsa"); }
  std::string cpu() const override { return T.Chip; }
  std::string features() const override { return T.Features; }
  unsigned globalAddrSpace() const override { return 1; }
  Value *localId(IRBuilder<> &B) const override {
    CallInst *Id = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_x, {});
    Id->setMetadata(LLVMContext::MD_range,
                    MDBuilder(B.getContext())
                        .createRange(APInt(32, 0), APInt(32, WorkgroupSize)));
    return Id;
  }
  Value *groupId(IRBuilder<> &B) const override {
    return B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_x, {});
  }
  void barrier(IRBuilder<> &B) const override {
    SyncScope::ID WG = B.getContext().getOrInsertSyncScopeID("workgroup");
    B.CreateFence(AtomicOrdering::Release, WG);
    B.CreateIntrinsic(Intrinsic::amdgcn_s_barrier, {});
    B.CreateFence(AtomicOrdering::Acquire, WG);
  }
  GlobalVariable *localArray(Module &M, ArrayType *Ty,
                             StringRef Name) const override {
    return workgroupArray(M, Ty, Name, 3);
  }
  /// The chip, features and the exact work-group size as attributes.
  void setKernelAttributes(Function &F) const override {
    F.setCallingConv(CallingConv::AMDGPU_KERNEL);
    F.addFnAttr("target-cpu", T.Chip);
    if (!T.Features.empty())
      F.addFnAttr("target-features", T.Features);
    std::string WG = std::to_string(WorkgroupSize);
    F.addFnAttr("amdgpu-flat-work-group-size", WG + "," + WG);
    F.addFnAttr("uniform-work-group-size", "true");
  }
};

/// spirv64 OpenCL kernels: work-item queries and the barrier are OpenCL
/// builtins, local arrays in addrspace(3).
class XeKernelTarget : public KernelTarget {
public:
  using KernelTarget::KernelTarget;
  Triple triple() const override { return Triple("spirv64-unknown-unknown"); }
  unsigned globalAddrSpace() const override { return 1; }
  GlobalVariable *localArray(Module &M, ArrayType *Ty,
                             StringRef Name) const override {
    return workgroupArray(M, Ty, Name, 3);
  }
  Value *localId(IRBuilder<> &B) const override {
    return emitOpenCLCall(B, "_Z12get_local_idj", B.getInt64Ty(),
                          {B.getInt32(0)});
  }
  Value *groupId(IRBuilder<> &B) const override {
    return emitOpenCLCall(B, "_Z12get_group_idj", B.getInt64Ty(),
                          {B.getInt32(0)});
  }
  void barrier(IRBuilder<> &B) const override {
    // barrier(CLK_LOCAL_MEM_FENCE)
    emitOpenCLCall(B, "_Z7barrierj", B.getVoidTy(), {B.getInt32(1)},
                   /*Convergent=*/true);
  }
  /// An OpenCL kernel with its required subgroup and work-group sizes.
  void setKernelAttributes(Function &F) const override {
    F.setCallingConv(CallingConv::SPIR_KERNEL);
    LLVMContext &Ctx = F.getContext();
    auto MDInt = [&](unsigned V) {
      return ConstantAsMetadata::get(
          ConstantInt::get(Type::getInt32Ty(Ctx), V));
    };
    F.setMetadata("intel_reqd_sub_group_size",
                  MDNode::get(Ctx, {MDInt(T.WaveSize)}));
    F.setMetadata("reqd_work_group_size",
                  MDNode::get(Ctx, {MDInt(WorkgroupSize), MDInt(1), MDInt(1)}));
  }
};

/// riscv32 HIP kernels for Vortex, in the form clang gives a HIP kernel
/// written with Crosslane's hip_runtime.h before crosslane-vortex-abi: the
/// kernel and its `__shared__` arrays carry the header's annotations,
/// work-item queries and the barrier are the header's CSR reads and
/// vx_barrier. crosslane-vortex-abi then gives the kernel its entry, its
/// kernel record and its local memory.
class VortexKernelTarget : public KernelTarget {
public:
  using KernelTarget::KernelTarget;
  Triple triple() const override { return Triple("riscv32-unknown-elf"); }
  std::string cpu() const override { return "generic-rv32"; }
  /// What crosslane-hipcc compiles device code with (-march=rv32imf_zicond).
  std::string features() const override { return "+m,+f,+zicond,+zicsr"; }
  unsigned globalAddrSpace() const override { return 0; }
  Value *localId(IRBuilder<> &B) const override {
    return vortex::emitCSRRead(B, 0xCD3); // threadIdx.x
  }
  Value *groupId(IRBuilder<> &B) const override {
    return vortex::emitCSRRead(B, 0xCD6); // blockIdx.x
  }
  void barrier(IRBuilder<> &B) const override { vortex::emitCTABarrier(B); }
  GlobalVariable *localArray(Module &M, ArrayType *Ty,
                             StringRef Name) const override {
    GlobalVariable *GV = workgroupArray(M, Ty, Name, 0);
    annotate(M, GV, "crosslane.vortex.shared");
    return GV;
  }
  void setKernelAttributes(Function &F) const override {
    F.addFnAttr("target-cpu", cpu());
    F.addFnAttr("target-features", features());
    F.addFnAttr(vortex::VortexAttr);
    F.addFnAttr("crosslane-vortex-warp-size", std::to_string(T.WaveSize));
    annotate(*F.getParent(), &F, "crosslane.vortex.kernel");
  }
  void addPipelineStartPasses(ModulePassManager &MPM) const override {
    MPM.addPass(VortexKernelABIPass());
  }

private:
  /// Adds {\p G, \p Text} to llvm.global.annotations, as clang does for
  /// `__attribute__((annotate(Text)))`.
  static void annotate(Module &M, GlobalValue *G, StringRef Text);
};

void VortexKernelTarget::annotate(Module &M, GlobalValue *G, StringRef Text) {
  LLVMContext &Ctx = M.getContext();
  Constant *Str = ConstantDataArray::getString(Ctx, Text);
  auto *S = new GlobalVariable(M, Str->getType(), true,
                               GlobalValue::PrivateLinkage, Str, ".str");
  S->setSection("llvm.metadata");
  PointerType *Ptr = PointerType::get(Ctx, 0);
  StructType *EntryTy =
      StructType::get(Ptr, Ptr, Ptr, Type::getInt32Ty(Ctx), Ptr);
  Constant *Entry =
      ConstantStruct::get(EntryTy, {G, S, ConstantPointerNull::get(Ptr),
                                    ConstantInt::get(Type::getInt32Ty(Ctx), 0),
                                    ConstantPointerNull::get(Ptr)});
  SmallVector<Constant *, 4> Entries;
  if (GlobalVariable *Old = M.getGlobalVariable("llvm.global.annotations")) {
    if (auto *A = dyn_cast<ConstantArray>(Old->getInitializer()))
      for (Value *Op : A->operands())
        Entries.push_back(cast<Constant>(Op));
    Old->eraseFromParent();
  }
  Entries.push_back(Entry);
  ArrayType *Ty = ArrayType::get(EntryTy, Entries.size());
  auto *GA = new GlobalVariable(M, Ty, false, GlobalValue::AppendingLinkage,
                                ConstantArray::get(Ty, Entries),
                                "llvm.global.annotations");
  GA->setSection("llvm.metadata");
}

} // namespace

std::unique_ptr<KernelTarget> KernelTarget::create(const TargetDesc &T,
                                                   unsigned WorkgroupSize) {
  switch (T.Kind) {
  case TargetKind::AMDGPU:
    return std::make_unique<AMDGPUKernelTarget>(T, WorkgroupSize);
  case TargetKind::Xe:
    return std::make_unique<XeKernelTarget>(T, WorkgroupSize);
  case TargetKind::Vortex:
    return std::make_unique<VortexKernelTarget>(T, WorkgroupSize);
  }
  llvm_unreachable("unknown target kind");
}

} // namespace lc
} // namespace crosslane
