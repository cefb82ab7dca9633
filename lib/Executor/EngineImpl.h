//===- EngineImpl.h - Decoded functions, frames, waves ----------*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Private structures of the engine: every function is decoded once into
/// blocks (in reverse post order) of DInst records that name operand slots,
/// so execution never looks up llvm::Value maps per lane.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_EXECUTOR_ENGINEIMPL_H
#define CROSSLANE_LIB_EXECUTOR_ENGINEIMPL_H

#include "crosslane/Executor/Builtins.h"
#include "crosslane/Executor/Engine.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/BasicBlock.h"

namespace crosslane {
namespace exec {


struct DecodedFunc;

/// One decoded instruction.
struct DInst {
  const llvm::Instruction *I = nullptr;
  unsigned Opc = 0; ///< llvm::Instruction opcode
  unsigned IID = 0; ///< intrinsic id for calls
  int32_t Res = -1; ///< result slot
  llvm::SmallVector<int32_t, 4> Ops;
  uint32_t NonUniformOps = 0; ///< bit k: operand k may be undefined in
                              ///< inactive lanes (not uniform, not WWM)
  bool WWM = false;           ///< runs for all lanes (whole-wave slice)
  unsigned Index = 0;         ///< 1-based number within its block
  // Memory.
  unsigned AS = 0, Align = 1, EltSize = 0;
  /// Aggregate loads/stores: each leaf's (byte offset, size); empty for
  /// scalars and vectors (leaf L at L * EltSize).
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 4> LeafMem;
  unsigned MemBytes = 0; ///< bytes an aggregate access covers
  /// Arithmetic, compare or cast on integers of 65..128 bits (execWide).
  bool Wide = false;
  // GEP: constant offset plus scaled variable indices.
  int64_t ConstOff = 0;
  llvm::SmallVector<std::pair<int32_t, int64_t>, 2> GepIdx;
  // extract/insertvalue: leaf offset; shufflevector mask.
  unsigned LeafOff = 0;
  llvm::SmallVector<int, 8> Mask;
  // Calls.
  DecodedFunc *Callee = nullptr;
  const BuiltinFn *Builtin = nullptr;
  bool External = false;
  bool AssertFail = false; ///< HIP's __assert_fail: a failed device assert
  /// Inline assembly that is only a comment (ockl's "hoisting hack"s): it
  /// runs nothing; the result, if any, is the operand its output is tied
  /// to (-1: no result).
  bool AsmComment = false;
  int AsmTiedOp = -1;
  /// Inline assembly the target models (TargetModel::decodeAsm), 0: none.
  unsigned TargetAsm = 0;
  /// ockl's printf protocol (__ockl_[f]printf_*): 1 begin, 2 append a
  /// string, 3 append arguments. 0: not a printf call.
  unsigned Printf = 0;
  // Switch case values, one per successor after the default.
  llvm::SmallVector<uint64_t, 4> Cases;
  /// Not modelled: the error, raised only if the instruction runs (code on
  /// cold paths, e.g. assert's __assert_fail or printf, must not stop a
  /// kernel that never reaches it).
  std::string Unsupported;
};

/// A CFG edge with the phi copies it performs.
struct Edge {
  int Target = -1;
  llvm::SmallVector<std::pair<int32_t, int32_t>, 4> Copies; ///< phi <- src
  std::string Unsupported; ///< a phi copy not modelled: fails if taken
};

struct DBlock {
  const llvm::BasicBlock *BB = nullptr;
  std::vector<DInst> Insts; ///< non-phi instructions, terminator last
  llvm::SmallVector<Edge, 2> Succ;
};

struct DecodedFunc {
  const llvm::Function *F = nullptr;
  std::vector<SlotInfo> Slots;
  std::vector<Leaf> Leaves;
  uint32_t DataSize = 0, PoisSize = 0;
  std::vector<uint64_t> InitD, InitP; ///< constants pre-filled
  std::vector<DBlock> Blocks;         ///< RPO order; 0 = entry
  std::vector<int32_t> ArgSlots;
  uint32_t PrivateSize = 0;                  ///< static allocas per lane
  llvm::SmallVector<int32_t, 1> RetLeafSlot; ///< unused placeholder
  unsigned RetLeaves = 0;
};

/// One activation of a function in a wave.
struct Frame {
  DecodedFunc *DF = nullptr;
  std::vector<uint64_t> D, P;
  llvm::SmallVector<int16_t, 64> LaneBlock; ///< -1: returned
  uint64_t Live = 0;                        ///< lanes not yet returned
  int Cur = -1; ///< executing block, -1: choose next
  unsigned InstIdx = 0;
  uint64_t Exec = 0;
  uint32_t PrivBase = 0;      ///< per-lane private offset of this frame
  std::vector<uint64_t> RetD; ///< return value leaves x W
  std::vector<uint64_t> RetP;
};

} // namespace exec
} // namespace crosslane

#endif
