//===- Decode.cpp - Decoding functions into instruction records -----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every function is decoded once per module: blocks in scheduling order
/// (a topological order in which each loop's blocks are contiguous, so
/// lanes reconverge at loop exits), whole-wave-mode slices, frame slots,
/// phi copies on edges, static allocas, and one DInst record per
/// instruction naming its operand slots and what execution needs
/// (memory access sizes, GEP offsets, leaf offsets, shuffle masks, switch
/// cases, callees, builtins, inline assembly). What the engine cannot model
/// is recorded as an error raised only if the instruction runs.
///
//===----------------------------------------------------------------------===//

#include "EngineImpl.h"
#include "LeafOps.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

#include <functional>

using namespace llvm;

namespace crosslane {
namespace exec {

//===----------------------------------------------------------------------===//
// Scheduling order and whole-wave slices
//===----------------------------------------------------------------------===//

/// The blocks of \p F in the order the scheduler prefers them: a
/// topological order of the CFG without back edges in which the blocks of
/// each loop are contiguous, so every exit of a loop comes after all of its
/// blocks. Lanes that leave a loop then wait at the exit until the other
/// lanes have left it too (plain reverse post order may put an exit before
/// the loop body: `header: br %c, %body, %exit`). Irreducible cycles are
/// not loops here and keep their DFS order.
static SmallVector<const BasicBlock *, 32> schedulingOrder(const Function &F) {
  auto &MF = const_cast<Function &>(F);
  DominatorTree DT(MF);
  LoopInfo LI(DT);
  SmallVector<const BasicBlock *, 32> Out;
  // The node of \p BB in region \p R (a loop, or the whole function when
  // null): BB itself, the header of the child loop of R holding it, or null
  // when BB is outside R.
  auto NodeOf = [&](const Loop *R, const BasicBlock *BB) -> const BasicBlock * {
    const Loop *L = LI.getLoopFor(BB);
    if (L == R)
      return BB;
    while (L && L->getParentLoop() != R)
      L = L->getParentLoop();
    return L ? L->getHeader() : nullptr;
  };
  std::function<void(const Loop *)> Emit = [&](const Loop *R) {
    const BasicBlock *Entry = R ? R->getHeader() : &F.getEntryBlock();
    auto Succs = [&](const BasicBlock *N) {
      SmallVector<const BasicBlock *, 4> Res;
      const Loop *Child =
          N != Entry && LI.getLoopFor(N) != R ? LI.getLoopFor(N) : nullptr;
      while (Child && Child->getParentLoop() != R)
        Child = Child->getParentLoop();
      auto Add = [&](const BasicBlock *From) {
        for (const BasicBlock *S : successors(From)) {
          const BasicBlock *SN = NodeOf(R, S);
          if (SN && SN != Entry && SN != N && !is_contained(Res, SN))
            Res.push_back(SN);
        }
      };
      if (Child)
        for (const BasicBlock *BB : Child->blocks())
          Add(BB);
      else
        Add(N);
      return Res;
    };
    // Iterative DFS post order over the region's nodes.
    SmallVector<const BasicBlock *, 16> Post;
    DenseSet<const BasicBlock *> Seen{Entry};
    SmallVector<
        std::pair<const BasicBlock *, SmallVector<const BasicBlock *, 4>>, 16>
        Stack;
    Stack.push_back({Entry, Succs(Entry)});
    while (!Stack.empty()) {
      auto &[N, Rest] = Stack.back();
      if (Rest.empty()) {
        Post.push_back(N);
        Stack.pop_back();
        continue;
      }
      const BasicBlock *S = Rest.front();
      Rest.erase(Rest.begin());
      if (Seen.insert(S).second)
        Stack.push_back({S, Succs(S)});
    }
    for (const BasicBlock *N : reverse(Post)) {
      const Loop *L = LI.getLoopFor(N);
      if (N != Entry && L != R && L && L->getHeader() == N)
        Emit(L);
      else
        Out.push_back(N);
    }
  };
  Emit(nullptr);
  // Every reachable block once, or the plain reverse post order.
  ReversePostOrderTraversal<const Function *> RPOT(&F);
  if (Out.size() != size_t(std::distance(RPOT.begin(), RPOT.end())))
    return SmallVector<const BasicBlock *, 32>(RPOT.begin(), RPOT.end());
  return Out;
}

/// Backward slice of whole-wave-mode operands (stops at set.inactive, phis,
/// memory and non-intrinsic calls).
static DenseSet<const Instruction *> wwmSlice(const Function &F) {
  DenseSet<const Instruction *> Set;
  // The whole-wave region is the WWM intrinsic's block: values from other
  // blocks were computed only for the lanes active there.
  SmallVector<std::pair<const Instruction *, const BasicBlock *>, 16> Work;
  for (const Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::amdgcn_strict_wwm ||
          II->getIntrinsicID() == Intrinsic::amdgcn_wwm)
        if (auto *D = dyn_cast<Instruction>(II->getArgOperand(0)))
          Work.push_back({D, II->getParent()});
  while (!Work.empty()) {
    auto [I, Root] = Work.pop_back_val();
    if (I->getParent() != Root || isa<PHINode>(I))
      continue;
    if (auto *CB = dyn_cast<CallBase>(I))
      if (!isa<IntrinsicInst>(CB))
        continue;
    if ((I->mayReadOrWriteMemory() && !isa<IntrinsicInst>(I)) ||
        I->isTerminator())
      continue;
    if (!Set.insert(I).second)
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(I))
      if (II->getIntrinsicID() == Intrinsic::amdgcn_set_inactive ||
          II->getIntrinsicID() == Intrinsic::amdgcn_set_inactive_chain_arg)
        continue;
    for (const Use &U : I->operands())
      if (auto *D = dyn_cast<Instruction>(U.get()))
        Work.push_back({D, Root});
  }
  return Set;
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

DecodedFunc *Executor::Impl::decode(const Function &F) {
  auto It = Decoded.find(&F);
  if (It != Decoded.end())
    return It->second.get();
  auto DFP = std::make_unique<DecodedFunc>();
  DFP->F = &F;
  DecodedFunc *DF = DFP.get();
  Decoded[&F] = std::move(DFP);
  if (!decodeBody(F, *DF)) {
    Decoded.erase(&F);
    return nullptr;
  }
  return DF;
}

bool Executor::Impl::decodeBody(const Function &F, DecodedFunc &DF) {
  std::string Why;
  DenseMap<const Value *, int32_t> SlotOf;
  bool IsKernel = F.getCallingConv() == CallingConv::AMDGPU_KERNEL ||
                  F.getCallingConv() == CallingConv::SPIR_KERNEL;
  for (const Argument &A : F.args()) {
    int32_t S = newSlot(DF, A.getType(), Why);
    if (S < 0) {
      Err = "function '" + F.getName().str() + "' argument: " + Why;
      return false;
    }
    DF.Slots[S].Uniform = IsKernel;
    SlotOf[&A] = S;
    DF.ArgSlots.push_back(S);
  }
  DenseSet<const Instruction *> WWMSet = wwmSlice(F);
  // Blocks in scheduling order; slots for every instruction result.
  SmallVector<const BasicBlock *, 32> Order = schedulingOrder(F);
  DenseMap<const BasicBlock *, int> BlockIdx;
  for (const BasicBlock *BB : Order) {
    BlockIdx[BB] = DF.Blocks.size();
    DF.Blocks.emplace_back();
    DF.Blocks.back().BB = BB;
  }
  // Instructions the executor cannot hold or run fail only when they run.
  DenseMap<const Instruction *, std::string> Deferred;
  auto TakeErr = [&]() {
    std::string E = std::move(Err);
    Err.clear();
    size_t At = E.rfind(" in workgroup (");
    return At == std::string::npos ? E : E.substr(0, At);
  };
  auto Defer = [&](const Instruction &I) { Deferred[&I] = TakeErr(); };
  for (const BasicBlock *BB : Order)
    for (const Instruction &I : *BB) {
      if (I.getType()->isVoidTy())
        continue;
      int32_t S = newSlot(DF, I.getType(), Why);
      if (S < 0) {
        failAt(I, Why);
        Defer(I);
        continue;
      }
      DF.Slots[S].WWMDef = WWMSet.count(&I);
      SlotOf[&I] = S;
    }
  for (DBlock &B : DF.Blocks) {
    unsigned N = 0;
    for (const Instruction &I : *B.BB) {
      ++N;
      if (isa<PHINode>(I))
        continue;
      DInst D;
      D.I = &I;
      D.Index = N;
      if (auto It = Deferred.find(&I); It != Deferred.end()) {
        D.Unsupported = It->second;
      } else if (!decodeInst(DF, I, D, SlotOf, WWMSet)) {
        D.Unsupported = TakeErr();
      }
      B.Insts.push_back(std::move(D));
    }
    // Edges with phi copies.
    const Instruction *T = B.BB->getTerminator();
    for (unsigned S = 0; S < T->getNumSuccessors(); ++S) {
      const BasicBlock *Succ = T->getSuccessor(S);
      Edge E;
      E.Target = BlockIdx.lookup(Succ);
      for (const PHINode &Phi : Succ->phis()) {
        int32_t Src =
            slotFor(DF, Phi.getIncomingValueForBlock(B.BB), SlotOf, Why);
        auto PhiSlot = SlotOf.find(&Phi);
        if (Src < 0 || PhiSlot == SlotOf.end()) {
          failAt(Phi, Src < 0 ? Twine(Why) : Twine(Deferred[&Phi]));
          E.Unsupported = TakeErr();
          E.Copies.clear();
          break;
        }
        E.Copies.push_back({PhiSlot->second, Src});
      }
      B.Succ.push_back(std::move(E));
    }
  }
  if (!layoutAllocas(F, DF))
    return false;
  DF.InitD.resize(DF.DataSize, 0);
  DF.InitP.resize(DF.PoisSize, 0);
  // A value a lane has not computed yet is poison in that lane (only reads
  // of inactive lanes' values, OpCtx::opHeldPoison, can see it).
  for (const Instruction &I : instructions(F))
    if (auto It = SlotOf.find(&I); It != SlotOf.end()) {
      const SlotInfo &SI = DF.Slots[It->second];
      std::fill_n(DF.InitP.begin() + SI.Pois, SI.N, ~0ULL);
    }
  if (!F.getReturnType()->isVoidTy())
    DF.RetLeaves = countLeaves(F.getReturnType());
  return true;
}

/// Static allocas: per-lane private offsets.
bool Executor::Impl::layoutAllocas(const Function &F, DecodedFunc &DF) {
  for (const Instruction &I : instructions(F))
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      auto Size = AI->getAllocationSize(DL);
      if (!Size || Size->isScalable()) {
        failAt(I, "dynamic alloca is not modelled");
        return false;
      }
      uint32_t A =
          std::max<uint32_t>(AI->getAlign().value(), TM->minPrivateAlign());
      DF.PrivateAlign = std::max(DF.PrivateAlign, A);
      DF.PrivateSize = alignTo(DF.PrivateSize, A);
      for (DBlock &B : DF.Blocks)
        for (DInst &D : B.Insts)
          if (D.I == AI)
            D.ConstOff = DF.PrivateSize;
      DF.PrivateSize += Size->getFixedValue();
    }
  DF.PrivateSize = alignTo(DF.PrivateSize, 16);
  return true;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

/// A struct or array load/store (clang emits them at -O0, e.g. copying a
/// cooperative_groups object): one access per leaf, at the data layout's
/// offsets; padding is neither read nor written.
bool Executor::Impl::decodeAggregateAccess(const Instruction &I, Type *T,
                                           DInst &D) {
  std::vector<MemLeaf> Leaves;
  if (!collectMemLeaves(T, 0, 0, Leaves, DL))
    return failAt(I, "aggregate access with a leaf that is not a byte-sized "
                     "scalar is not modelled");
  for (const MemLeaf &L : Leaves)
    D.LeafMem.push_back(
        {uint32_t(L.Offset), uint32_t(DL.getTypeStoreSize(L.Ty))});
  D.MemBytes = DL.getTypeStoreSize(T);
  return true;
}

/// Integers of 65..128 bits (instcombine makes `mul i128` of __umul64hi's
/// 64-bit halves) are two leaves, low 64 bits first. Instructions that move
/// them whole (phi, select, freeze, extract/insertvalue, calls and returns
/// of defined functions) need nothing more; arithmetic, compares and casts
/// run in execWide; loads and stores access the two leaves at 0 and 8.
/// Anything else on them is an error.
bool Executor::Impl::decodeWide(const Instruction &I, DInst &D) {
  // Scalars and vectors: a vector of wide integers is refused below.
  auto Wide = [](const Value *V) {
    return isWideInt(V->getType()->getScalarType());
  };
  bool Any = Wide(&I) ||
             any_of(I.operands(), [&](const Use &U) { return Wide(U.get()); });
  if (isa<StoreInst>(I))
    Any = Wide(cast<StoreInst>(I).getValueOperand());
  if (!Any)
    return true;
  if (any_of(I.operands(),
             [](const Use &U) {
               Type *T = U->getType();
               return T->isVectorTy() && isWideInt(T->getScalarType());
             }) ||
      (I.getType()->isVectorTy() && isWideInt(I.getType()->getScalarType())))
    return failAt(I, "vectors of integers wider than 64 bits are not "
                     "modelled");
  // Integer binary operators (an integer operand makes one integer),
  // compares and integer casts compute in execWide.
  if (I.isBinaryOp() || isa<ICmpInst, ZExtInst, SExtInst, TruncInst>(I)) {
    D.Wide = true;
    return true;
  }
  switch (I.getOpcode()) {
  case Instruction::Select:
  case Instruction::Freeze:
  case Instruction::ExtractValue:
  case Instruction::InsertValue:
  case Instruction::Ret:
    return true;
  case Instruction::Load:
  case Instruction::Store: {
    Type *T = isa<LoadInst>(I)
                  ? I.getType()
                  : cast<StoreInst>(I).getValueOperand()->getType();
    D.MemBytes = DL.getTypeStoreSize(T);
    D.LeafMem = {{0, 8}, {8, D.MemBytes - 8}};
    return true;
  }
  case Instruction::Call: {
    const Function *Callee = cast<CallInst>(I).getCalledFunction();
    if (Callee && !Callee->isIntrinsic() && !Callee->isDeclaration())
      return true;
    break;
  }
  default:
    break;
  }
  return failAt(I, "this operation on an integer wider than 64 bits is not "
                   "modelled");
}

/// Inline assembly is modelled only when its text is nothing but comments
/// (ROCm's ockl wraps ballots and readfirstlane in `asm sideeffect "; ockl
/// ... hack $0", "=v,0"(x)` to stop LLVM from moving them): no instruction
/// runs, and an output tied to an input ("0") holds that input.
bool Executor::Impl::decodeInlineAsm(const CallBase &CB, DInst &D) {
  const auto *IA = cast<InlineAsm>(CB.getCalledOperand());
  SmallVector<StringRef, 4> Lines;
  StringRef(IA->getAsmString()).split(Lines, '\n');
  if (!all_of(Lines, [](StringRef L) {
        L = L.trim();
        return L.empty() || L.starts_with(";");
      }))
    return failAt(CB, "inline assembly is not modelled (only text that is "
                      "all comments is)");
  D.AsmComment = true;
  if (CB.getType()->isVoidTy())
    return true;
  // The input operand tied to output 0 (the only output allowed).
  InlineAsm::ConstraintInfoVector Cons = IA->ParseConstraints();
  unsigned Outputs = 0, OpNo = 0;
  for (const InlineAsm::ConstraintInfo &CI : Cons) {
    if (CI.Type == InlineAsm::isOutput) {
      ++Outputs;
      if (CI.isIndirect)
        ++OpNo;
      continue;
    }
    if (CI.Type != InlineAsm::isInput)
      continue;
    if (!CI.Codes.empty() && CI.Codes[0] == "0" && D.AsmTiedOp < 0)
      D.AsmTiedOp = OpNo;
    ++OpNo;
  }
  if (Outputs != 1 || D.AsmTiedOp < 0 ||
      CB.getArgOperand(D.AsmTiedOp)->getType() != CB.getType())
    return failAt(CB, "inline assembly (a comment) whose result is not an "
                      "input tied to it is not modelled");
  return true;
}

/// Address space, alignment and element size of a load, store or atomic.
bool Executor::Impl::decodeMemAccess(const Instruction &I, DInst &D) {
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    D.AS = LI->getPointerAddressSpace();
    D.Align = LI->getAlign().value();
    Type *T = LI->getType();
    if (T->isStructTy() || T->isArrayTy())
      return decodeAggregateAccess(I, T, D);
    D.EltSize = DL.getTypeStoreSize(T->getScalarType());
    if (T->getScalarSizeInBits() % 8 && T->getScalarSizeInBits() != 1)
      return failAt(I, "loads of non-byte-sized elements are not modelled");
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    D.AS = SI->getPointerAddressSpace();
    D.Align = SI->getAlign().value();
    Type *T = SI->getValueOperand()->getType();
    if (T->isStructTy() || T->isArrayTy())
      return decodeAggregateAccess(I, T, D);
    D.EltSize = DL.getTypeStoreSize(T->getScalarType());
    if (T->getScalarSizeInBits() % 8 && T->getScalarSizeInBits() != 1)
      return failAt(I, "stores of non-byte-sized elements are not modelled");
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    D.AS = RMW->getPointerAddressSpace();
    D.Align = RMW->getAlign().value();
    D.EltSize = DL.getTypeStoreSize(RMW->getValOperand()->getType());
    if (RMW->getValOperand()->getType()->isVectorTy())
      return failAt(I, "vector atomics are not modelled");
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    D.AS = CX->getPointerAddressSpace();
    D.Align = CX->getAlign().value();
    D.EltSize = DL.getTypeStoreSize(CX->getCompareOperand()->getType());
  }
  return true;
}

/// Calls: inline assembly, intrinsics, assert, printf, defined functions
/// (decoded in turn) and bodiless ones (builtins).
bool Executor::Impl::decodeCall(const CallBase &CB, DInst &D) {
  const Function *Callee = CB.getCalledFunction();
  if (CB.isInlineAsm()) {
    std::string Why;
    if ((D.TargetAsm = TM->decodeAsm(CB, Why)))
      return true;
    return Why.empty() ? decodeInlineAsm(CB, D) : failAt(CB, Why);
  }
  if (!Callee)
    return failAt(CB, "indirect calls are not modelled");
  D.IID = Callee->getIntrinsicID();
  D.Barrier = D.IID == Intrinsic::amdgcn_s_barrier ||
              D.IID == Intrinsic::amdgcn_s_barrier_wait ||
              (Callee->isDeclaration() && TM->isBarrierCall(*Callee));
  D.Collective =
      !D.Barrier && Callee->isDeclaration() && TM->isCollectiveCall(*Callee);
  if (D.Barrier || D.Collective)
    return true;
  // assert() in HIP device code calls __assert_fail(expr, file, line,
  // function); its body prints through hostcalls the executor does not
  // model. A failed assert is reported as one.
  if (Callee->getName() == "__assert_fail" && CB.arg_size() == 4) {
    D.AssertFail = true;
    return true;
  }
  // printf (clang's lowering and ROCm's assert message) goes through
  // ockl's hostcall buffer; the executor formats it on the host.
  StringRef CN = Callee->getName();
  if (CN == "__ockl_printf_begin" || CN == "__ockl_fprintf_stderr_begin")
    D.Printf = 1;
  else if (CN == "__ockl_printf_append_string_n" ||
           CN == "__ockl_fprintf_append_string_n")
    D.Printf = 2;
  else if (CN == "__ockl_printf_append_args" ||
           CN == "__ockl_fprintf_append_args")
    D.Printf = 3;
  if (D.Printf)
    return true;
  if (!D.IID) {
    if (!Callee->isDeclaration()) {
      D.Callee = decode(*Callee);
      if (!D.Callee)
        return false;
    } else {
      D.External = true;
      D.Builtin = lookupBuiltin(Callee->getName());
    }
  }
  return true;
}

bool Executor::Impl::decodeInst(DecodedFunc &DF, const Instruction &I, DInst &D,
                                DenseMap<const Value *, int32_t> &SlotOf,
                                const DenseSet<const Instruction *> &WWMSet) {
  std::string Why;
  D.Opc = I.getOpcode();
  D.WWM = WWMSet.count(&I);
  auto It = SlotOf.find(&I);
  if (It != SlotOf.end())
    D.Res = It->second;
  unsigned NOps = I.getNumOperands();
  if (auto *CB = dyn_cast<CallBase>(&I))
    NOps = CB->arg_size();
  for (unsigned K = 0; K < NOps; ++K) {
    const Value *V = I.getOperand(K);
    if (isa<BasicBlock>(V)) {
      D.Ops.push_back(-1);
      continue;
    }
    int32_t S = slotFor(DF, V, SlotOf, Why);
    if (S == -1)
      return failAt(I, Why);
    D.Ops.push_back(S);
    if (S >= 0 && !DF.Slots[S].Uniform && !DF.Slots[S].WWMDef && K < 32)
      D.NonUniformOps |= 1u << K;
  }
  if (!decodeWide(I, D))
    return false;
  if (isa<LoadInst, StoreInst, AtomicRMWInst, AtomicCmpXchgInst>(I))
    return decodeMemAccess(I, D);
  if (auto *CB = dyn_cast<CallBase>(&I))
    return decodeCall(*CB, D);
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    if (GEP->getType()->isVectorTy())
      return failAt(I, "vector GEPs are not modelled");
    int64_t Off = 0;
    unsigned K = 1;
    for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
         GTI != E; ++GTI, ++K) {
      const Value *Idx = GTI.getOperand();
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        unsigned FI = cast<ConstantInt>(Idx)->getZExtValue();
        Off += DL.getStructLayout(ST)->getElementOffset(FI);
        continue;
      }
      int64_t Scale = GTI.getSequentialElementStride(DL);
      if (auto *CI = dyn_cast<ConstantInt>(Idx)) {
        Off += CI->getSExtValue() * Scale;
        continue;
      }
      D.GepIdx.push_back({(int32_t)K, Scale});
    }
    D.ConstOff = Off;
  } else if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    D.LeafOff =
        leafOffset(EV->getAggregateOperand()->getType(), EV->getIndices());
  } else if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    D.LeafOff =
        leafOffset(IV->getAggregateOperand()->getType(), IV->getIndices());
  } else if (auto *SV = dyn_cast<ShuffleVectorInst>(&I)) {
    SV->getShuffleMask(D.Mask);
  } else if (auto *SW = dyn_cast<SwitchInst>(&I)) {
    for (auto Case : SW->cases())
      D.Cases.push_back(Case.getCaseValue()->getZExtValue());
  }
  return true;
}

} // namespace exec
} // namespace crosslane
