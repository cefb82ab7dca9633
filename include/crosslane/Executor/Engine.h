//===- Engine.h - Shared executor core and the target-model seam -*- C++
//-*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internals shared by the target-independent engine (lib/Executor/Engine.cpp)
/// and the target models (lib/Executor/AMDGPUTarget.cpp, VortexTarget.cpp).
/// A value is stored for all W lanes of a wave as a sequence of scalar
/// *leaves* (one per vector element or flattened struct member), each leaf
/// holding W 64-bit words and a W-bit poison mask.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_EXECUTOR_ENGINE_H
#define CROSSLANE_EXECUTOR_ENGINE_H

#include "crosslane/Executor/Executor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/bit.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class Instruction;
class Module;
class Type;
} // namespace llvm

namespace crosslane {
namespace exec {

/// Calls \p F for every lane whose bit is set in \p Exec, in lane order.
template <typename Fn> inline void forLanes(uint64_t Exec, Fn F) {
  while (Exec) {
    unsigned L = llvm::countr_zero(Exec);
    Exec &= Exec - 1;
    F(L);
  }
}

/// Scalar kinds a leaf can have.
enum class LeafKind : uint8_t { Int, Half, BFloat, Float, Double, Ptr };

/// The type of one leaf.
struct Leaf {
  LeafKind K = LeafKind::Int;
  uint8_t Bits = 0; ///< integer / pointer width
  uint16_t AS = 0;  ///< pointer address space
};

/// Where a value lives in a frame.
struct SlotInfo {
  uint32_t Data = 0; ///< index of leaf 0 lane 0 in Frame::D
  uint32_t Pois = 0; ///< index of leaf 0's poison mask in Frame::P
  uint32_t LeafBegin = 0;
  uint16_t N = 0;       ///< number of leaves
  bool Uniform = false; ///< constant or kernel argument: valid in all lanes
  bool WWMDef = false;  ///< computed in whole-wave mode
};

/// Memory kinds a target maps its address spaces to.
enum class MemSpace : uint8_t { Global, Constant, Local, Private, Flat, Other };

/// How branches move the lanes of a wave.
enum class BranchModel : uint8_t {
  /// Each lane follows its own path and lanes reconverge at joins
  /// (structured SIMT: what AMDGPU's EXEC-mask code computes, and the
  /// reference meaning of a program).
  Reconverging,
  /// The whole wave goes where its last (highest-numbered) active lane
  /// goes, and only the target's warp-control instructions change the
  /// wave's thread mask (Vortex hardware: simx's alu_unit.cpp resolves
  /// branches with `thread_last`).
  LastActiveLane,
};

/// Targets whose pointers are 32 bits wide (riscv32 for Vortex) see one flat
/// 32-bit address space: global regions are placed one after another from
/// GlobalBase, lane L's private memory is at PrivateBase + L * 1 MiB, and
/// the workgroup's local memory at LocalBase.
struct Flat32Layout {
  uint32_t GlobalBase = 0x10000;
  uint32_t PrivateBase = 0xF0000000u;
  uint32_t LocalBase = 0xFFFF0000u;
};

/// A point of the current wave's code: frame depth (0 = kernel), block
/// (scheduling-order index) and instruction index in the block.
struct CodePoint {
  unsigned Depth = 0;
  int Block = -1;
  unsigned Inst = 0;
};

class Engine;
struct Frame;
struct DInst;

/// What an instruction handler sees: operand/result accessors for the lanes
/// in Exec. Operand poison includes lanes whose value is not defined here
/// (inactive lanes for non-WWM values).
struct OpCtx {
  Engine &E;
  Frame &F;
  const DInst &I;
  uint64_t Exec;     ///< lanes executing this instruction
  uint64_t LaneMask; ///< lanes really active at this point (exec)
  unsigned W;

  unsigned numOps() const;
  const SlotInfo &opSlot(unsigned Op) const;
  uint64_t op(unsigned Op, unsigned Lane, unsigned LeafIdx = 0) const;
  uint64_t opPoison(unsigned Op, unsigned LeafIdx = 0) const;
  /// Poison of operand \p Op as every lane holds it, inactive lanes
  /// included (each lane's last value of it: what a register read of an
  /// inactive lane returns); poison in lanes that never computed it and in
  /// lanes the frame does not hold (past the block, returned).
  uint64_t opHeldPoison(unsigned Op, unsigned LeafIdx = 0) const;
  /// Operand \p Op if it is a constant (uniform, not poison) integer.
  bool constOp(unsigned Op, uint64_t &V) const;
  uint64_t &res(unsigned Lane, unsigned LeafIdx = 0);
  /// Sets the result's poison for the lanes in Exec.
  void setPoison(uint64_t Mask, unsigned LeafIdx = 0);
  /// Sets the result's poison for the lanes in \p Which (ignoring Exec).
  void setPoisonLanes(uint64_t Mask, uint64_t Which, unsigned LeafIdx = 0);
  unsigned resLeaves() const;
  /// Records an error at this instruction and returns false.
  bool fail(const llvm::Twine &Msg);
  const llvm::Instruction &inst() const;
  llvm::Type *opType(unsigned Op) const;
};

/// Per-GPU semantics behind the shared engine.
class TargetModel {
public:
  virtual ~TargetModel();
  virtual llvm::StringRef name() const = 0;
  virtual unsigned waveSize() const = 0;
  virtual MemSpace memSpace(unsigned AS) const = 0;
  /// Bytes of dispatch packet / implicit arguments to build per launch.
  virtual void buildDispatch(const LaunchConfig &Cfg, uint64_t KernargAddr,
                             std::vector<uint8_t> &Packet,
                             std::vector<uint8_t> &Implicit) const = 0;
  /// Implicit-argument slots that point at runtime buffers the executor
  /// does not model, as (byte offset, description): each points at an
  /// empty region named by the description, so an access says what it hit.
  virtual std::vector<std::pair<unsigned, std::string>>
  unmodelledBuffers() const {
    return {};
  }
  /// Runs intrinsic \p IID. Returns 1 if handled (true result), 0 if not a
  /// target intrinsic, -1 on error (already reported through C.fail()).
  virtual int execIntrinsic(OpCtx &C, unsigned IID) = 0;
  /// Non-intrinsic calls to bodiless functions the target knows (ockl
  /// helpers); same return convention.
  virtual int execExternal(OpCtx &C, llvm::StringRef Name) = 0;
  /// True if a call of \p Callee (a declaration) is a work-group barrier:
  /// the engine suspends the wave there as at s_barrier (after checking
  /// that the wave is converged) until every wave of the workgroup arrives.
  virtual bool isBarrierCall(const llvm::Function &Callee) const {
    return false;
  }
  /// True if a call of \p Callee (a declaration) is a work-group
  /// collective: every work-item of the work-group runs it, and it
  /// synchronises the work-group as a barrier does. The engine runs it in
  /// two steps: arriveCollective in each wave as it reaches the call (with
  /// all its work-items: else an error), then, once every wave of the
  /// work-group waits at the same call, completeCollective in each wave,
  /// which writes the result. Both return 1 done or -1 error (C.fail()).
  virtual bool isCollectiveCall(const llvm::Function &Callee) const {
    return false;
  }
  virtual int arriveCollective(OpCtx &C, llvm::StringRef Name) { return -1; }
  virtual int completeCollective(OpCtx &C, llvm::StringRef Name) { return -1; }

  // Hooks with defaults (AMDGPU uses none of them).

  virtual BranchModel branchModel() const { return BranchModel::Reconverging; }
  /// The 32-bit flat address layout, for targets with 32-bit pointers.
  virtual std::optional<Flat32Layout> flat32() const { return std::nullopt; }
  /// Checks a launch shape beyond the engine's own checks (false: \p Err).
  virtual bool checkLaunch(const llvm::Function &K, const LaunchConfig &C,
                           std::string &Err) const {
    return true;
  }
  /// The function a launch of \p K with \p C runs (Vortex's runtime enters
  /// launches of whole warps through a kernel's `.fullwarps` entry).
  virtual const llvm::Function &launchEntry(const llvm::Function &K,
                                            const LaunchConfig &C) const {
    return K;
  }
  /// Kernels whose parameters are passed in memory (Vortex's KMU passes one
  /// pointer to an argument blob): lays the launch arguments out in \p
  /// Blob (buffer I is at address \p BufAddr[I]); the kernel's only
  /// parameter is then the blob's address. Returns 0 if \p K takes its
  /// parameters directly, 1 when packed, -1 on error (\p Err).
  virtual int packArguments(const llvm::Function &K, const LaunchConfig &C,
                            llvm::ArrayRef<uint64_t> BufAddr,
                            std::vector<uint8_t> &Blob,
                            std::string &Err) const {
    return 0;
  }
  /// Bytes of local memory \p K uses besides the module's LDS variables
  /// (placed first; dynamic LDS follows, 16-byte aligned).
  virtual uint64_t staticLocalBytes(const llvm::Function &K) const { return 0; }
  /// The least alignment the target gives every alloca (more than its IR
  /// alignment where the target keeps private arrays in registers).
  virtual unsigned minPrivateAlign() const { return 1; }
  /// Inline assembly the target models: a nonzero kind the engine passes
  /// back to execAsm, or 0 (with \p Why set if it is the target's but not
  /// modelled; an error when it runs).
  virtual unsigned decodeAsm(const llvm::CallBase &CB, std::string &Why) {
    return 0;
  }
  /// Runs inline assembly of kind \p Kind; 1 done, -1 error (C.fail()).
  virtual int execAsm(OpCtx &C, unsigned Kind) { return -1; }
  /// A workgroup of \p NumWaves waves starts (per-workgroup state).
  virtual void beginWorkgroup(Engine &E, unsigned NumWaves) {}
  /// A wave's outermost frame returns: 1 fine, -1 error (C.fail()).
  virtual int kernelReturn(OpCtx &C) { return 1; }
};

/// AMDGPU target model for \p CPU / \p Features (chip facts from ChipInfo).
/// Returns nullptr and sets \p Err for unknown chips.
std::unique_ptr<TargetModel> createAMDGPUTarget(llvm::StringRef CPU,
                                                llvm::StringRef Features,
                                                std::string &Err);

/// Engine services a target model needs.
class Engine {
public:
  virtual ~Engine();
  virtual unsigned workgroupId(unsigned Dim) const = 0;
  virtual unsigned workitemId(unsigned Lane, unsigned Dim) const = 0;
  virtual uint64_t dispatchPtr() const = 0;
  virtual uint64_t implicitArgPtr() const = 0;
  virtual uint64_t kernargPtr() const = 0;
  virtual const LaunchConfig &launch() const = 0;
  /// The wave index within its workgroup and lane count of the workgroup.
  virtual unsigned waveIndex() const = 0;
  /// Per-lane memory access for the target's memory-touching intrinsics.
  virtual bool loadLane(OpCtx &C, unsigned AS, uint64_t Addr, unsigned Lane,
                        unsigned Size, uint64_t &V, bool &Poison) = 0;
  virtual bool storeLane(OpCtx &C, unsigned AS, uint64_t Addr, unsigned Lane,
                         unsigned Size, uint64_t V) = 0;
  /// Lane-instruction counter for builtins that model loops.
  virtual void countWork(uint64_t LaneInsts) = 0;
  /// What the executor's clocks read: the wave instructions executed since
  /// the executor was created (monotonic and deterministic, not cycles).
  virtual uint64_t clock() const = 0;

  // Warp control, for targets' inline assembly (execAsm).

  /// Waves in the current workgroup.
  virtual unsigned numWaves() const = 0;
  /// The current wave's thread mask: under BranchModel::LastActiveLane the
  /// wave's mask, otherwise the lanes executing the current block.
  virtual uint64_t threadMask() const = 0;
  /// LastActiveLane: sets the thread mask from the next instruction on; an
  /// empty mask retires the wave.
  virtual void setThreadMask(uint64_t Mask) = 0;
  /// The instruction after the current one, and a jump to such a point
  /// (LastActiveLane; the wave's lanes go there together).
  virtual CodePoint nextPoint() const = 0;
  virtual void jumpTo(const CodePoint &P) = 0;
  /// Live lanes of the wave that are not executing the current instruction
  /// (in other blocks or frames); 0 under LastActiveLane.
  virtual uint64_t lanesElsewhere() const = 0;
  /// Suspends the current wave after this instruction until releaseWave().
  virtual void blockWave() = 0;
  virtual void releaseWave(unsigned WaveIndex) = 0;
};

/// Float helpers shared by the core and target models (bit patterns).
double leafToDouble(Leaf L, uint64_t Bits);
/// The leaf of scalar type \p T (the element type for a vector): its FP
/// kind, or its integer width, or a pointer of \p PtrBits.
Leaf scalarLeaf(llvm::Type *T, unsigned PtrBits = 64);
uint64_t doubleToLeaf(Leaf L, double D);
bool leafIsNaN(Leaf L, uint64_t Bits);

} // namespace exec
} // namespace crosslane

#endif // CROSSLANE_EXECUTOR_ENGINE_H
