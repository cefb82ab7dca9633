//===- XeUniformity.cpp - Divergence of OpenCL/SPIR-V device code ---------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "XeUniformity.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace crosslane {
namespace xe {

StringRef demangledBase(StringRef Name) {
  StringRef S = Name;
  if (!S.consume_front("_Z"))
    return Name;
  size_t Len = 0;
  if (S.consumeInteger(10, Len) || Len > S.size())
    return Name;
  return S.take_front(Len);
}

/// The one store to \p Slot when nothing else writes it or lets it escape
/// (its other users load from it), else null.
static const StoreInst *onlyStore(const AllocaInst *Slot) {
  const StoreInst *Only = nullptr;
  for (const User *U : Slot->users()) {
    if (const auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getPointerOperand() != Slot || Only)
        return nullptr;
      Only = S;
    } else if (const auto *L = dyn_cast<LoadInst>(U)) {
      if (L->getPointerOperand() != Slot)
        return nullptr;
    } else if (const auto *II = dyn_cast<IntrinsicInst>(U)) {
      if (!II->isLifetimeStartOrEnd() && !isa<DbgInfoIntrinsic>(II))
        return nullptr;
    } else {
      return nullptr;
    }
  }
  return Only;
}

const Value *slotValue(const Value *V) {
  const auto *L = dyn_cast<LoadInst>(V);
  const auto *Slot =
      L && L->getType()->isPointerTy()
          ? dyn_cast<AllocaInst>(L->getPointerOperand()->stripPointerCasts())
          : nullptr;
  const StoreInst *S = Slot ? onlyStore(Slot) : nullptr;
  return S ? S->getValueOperand() : nullptr;
}

const Value *privateObject(const Value *Ptr) {
  const Value *O = getUnderlyingObject(Ptr);
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const Value *Stored = slotValue(O);
    if (!Stored)
      break;
    O = getUnderlyingObject(Stored);
  }
  return O;
}

/// Work-item ids: a different value in each lane of a subgroup. The
/// SPIR-V builtins' function forms (`__spirv_BuiltInLocalInvocationId(i)`,
/// `__spirv_LocalInvocationId_x()`) and LLVM's `llvm.spv.*` intrinsics too.
static bool isLaneIdBuiltin(StringRef Base) {
  if (is_contained({"get_local_id", "get_global_id", "get_sub_group_local_id",
                    "get_local_linear_id", "get_global_linear_id"},
                   Base))
    return true;
  if (Base.starts_with("__spirv_"))
    return Base.contains("InvocationId") || Base.contains("InvocationIndex") ||
           Base.contains("GlobalLinearId");
  if (Base.starts_with("llvm.spv."))
    return Base.contains("invocation.id") || Base.contains("thread.id") ||
           Base.contains("global.id");
  return false;
}

/// The dimension of an OpenCL work-item id call (get_local_id(d),
/// get_global_id(d)) with a constant d, else -1.
static int idDimension(const CallBase &CB, StringRef Base) {
  if (Base != "get_local_id" && Base != "get_global_id")
    return -1;
  const auto *D =
      CB.arg_size() == 1 ? dyn_cast<ConstantInt>(CB.getArgOperand(0)) : nullptr;
  return D ? int(D->getZExtValue()) : -1;
}

/// Subgroup collectives and work-group queries: one value for the whole
/// subgroup, whatever their operands.
static bool isSubgroupUniform(StringRef Base) {
  for (StringRef P : {"sub_group_broadcast",
                      "__spirv_GroupNonUniformBroadcast",
                      "__spirv_GroupBroadcast",
                      "sub_group_reduce_",
                      "sub_group_all",
                      "sub_group_any",
                      "sub_group_non_uniform_broadcast_first",
                      "sub_group_non_uniform_all",
                      "sub_group_non_uniform_any",
                      "sub_group_non_uniform_reduce_",
                      "work_group_broadcast",
                      "work_group_reduce_",
                      "work_group_all",
                      "work_group_any",
                      "get_sub_group_id",
                      "get_group_id",
                      "get_local_size",
                      "get_enqueued_local_size",
                      "get_global_size",
                      "get_num_groups",
                      "get_sub_group_size",
                      "get_max_sub_group_size",
                      "get_num_sub_groups",
                      "get_work_dim",
                      "get_global_offset"})
    if (Base.starts_with(P))
      return true;
  return false;
}

static bool isLaneIdVariable(const Value *Ptr) {
  const auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  if (!GV)
    return false;
  StringRef N = GV->getName();
  return N.starts_with("__spirv_BuiltIn") &&
         (N.contains("InvocationId") || N.contains("InvocationIndex") ||
          N.contains("GlobalLinearId"));
}

/// Whether \p F (a defined function) may compute lane-dependent values of
/// its own: a work-item id, an atomic, a call it cannot look into (a
/// declaration that is not a known uniform builtin), to depth \p Depth.
static bool makesLaneData(const Function &F, unsigned Depth) {
  if (Depth == 0)
    return true;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
        return true;
      if (const auto *L = dyn_cast<LoadInst>(&I))
        if (isLaneIdVariable(L->getPointerOperand()))
          return true;
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || isa<DbgInfoIntrinsic>(CB) || CB->isLifetimeStartOrEnd())
        continue;
      const Function *G = CB->getCalledFunction();
      if (!G)
        return true;
      StringRef Base = demangledBase(G->getName());
      if (isLaneIdBuiltin(Base))
        return true;
      if (G->isDeclaration()) {
        if (!isSubgroupUniform(Base) && !G->isIntrinsic())
          return true;
        continue;
      }
      if (makesLaneData(*G, Depth - 1))
        return true;
    }
  return false;
}

/// True if memory through \p Ptr (a pointer in a function) may be written
/// there: a store to it or to something derived from it, or a use this
/// does not follow. Followed: loads, GEPs and casts, -O0's slots (the
/// pointer stored once to an alloca that is otherwise only loaded), and
/// calls to defined functions (their parameter, to depth \p Depth).
static bool mayWriteThrough(const Value *Ptr, unsigned Depth) {
  if (Depth == 0)
    return true;
  for (const Use &U : Ptr->uses()) {
    const auto *I = dyn_cast<Instruction>(U.getUser());
    if (!I)
      return true;
    if (isa<LoadInst>(I))
      continue;
    if (isa<GetElementPtrInst, CastInst>(I)) {
      if (mayWriteThrough(I, Depth - 1))
        return true;
      continue;
    }
    if (const auto *S = dyn_cast<StoreInst>(I)) {
      const auto *Slot =
          dyn_cast<AllocaInst>(S->getPointerOperand()->stripPointerCasts());
      if (U.getOperandNo() != 0 || !Slot || onlyStore(Slot) != S)
        return true;
      for (const User *SU : Slot->users())
        if (isa<LoadInst>(SU) && mayWriteThrough(SU, Depth - 1))
          return true;
      continue;
    }
    if (const auto *CB = dyn_cast<CallBase>(I)) {
      if (CB->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(CB))
        continue;
      const Function *G = CB->getCalledFunction();
      if (!G || G->isDeclaration() || !CB->isArgOperand(&U) ||
          CB->getArgOperandNo(&U) >= G->arg_size() ||
          mayWriteThrough(G->getArg(CB->getArgOperandNo(&U)), Depth - 1))
        return true;
      continue;
    }
    return true;
  }
  return false;
}

/// Private or generic memory (what an untraced pointer may reach).
static bool mayBePrivate(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS == 0 || AS == 4;
}

/// True if \p F stores one of its pointer parameters (to private or generic
/// memory) somewhere other than its own stack slots: a caller's variable
/// may then hold a pointer to another.
static bool storesPointerParam(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *S = dyn_cast<StoreInst>(&I);
      if (!S || !S->getValueOperand()->getType()->isPointerTy())
        continue;
      const Value *V = S->getValueOperand()->stripPointerCasts();
      if (const Value *Held = slotValue(V))
        V = Held->stripPointerCasts();
      const auto *A = dyn_cast<Argument>(V);
      if (!A || !mayBePrivate(A))
        continue;
      const auto *Slot =
          dyn_cast<AllocaInst>(S->getPointerOperand()->stripPointerCasts());
      if (!Slot || onlyStore(Slot) != S)
        return true;
    }
  return false;
}

/// A work-item id that is the same in every lane of a subgroup: dimension
/// 1 or 2 when the work-group's x size is a multiple of the subgroup size
/// (subgroups are consecutive linear ids).
bool XeUniformity::idUniform(int Dim) const {
  return Dim >= 1 && XMultipleOfSG;
}

Lanes XeUniformity::seed(const Instruction &I) const {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *Callee = CB->getCalledFunction()) {
      StringRef Base = demangledBase(Callee->getName());
      if (isLaneIdBuiltin(Base))
        return idUniform(idDimension(*CB, Base)) ? Lanes::Uniform
                                                 : Lanes::Divergent;
      // A function that computes lane data of its own; others follow
      // their operands.
      if (!Callee->isDeclaration() && makesLaneData(*Callee, 4))
        return Lanes::Divergent;
    }
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
    return Lanes::Divergent;
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    if (isLaneIdVariable(L->getPointerOperand()))
      return Lanes::Divergent;
    // Private memory: what was stored there (-O0 keeps every variable in
    // an alloca).
    if (const auto *A =
            dyn_cast<AllocaInst>(privateObject(L->getPointerOperand())))
      return memory(A, L->getParent());
  }
  return Lanes::Uniform;
}

/// True if \p V is the lane's id in its subgroup or work-group (through
/// casts): below the work-group size, so never negative, also as an `int`.
static bool isNonNegativeId(const Value *V) {
  while (isa<ZExtInst, TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  const auto *CB = dyn_cast<CallBase>(V);
  const Function *F = CB ? CB->getCalledFunction() : nullptr;
  StringRef Base = F ? demangledBase(F->getName()) : "";
  return Base == "get_sub_group_local_id" || Base == "get_local_id";
}

/// The bits of \p V that differ between the lanes of a subgroup when \p V
/// is computed from an x id by casts, shifts, masks and constants (the low
/// log2(SG) bits of the id, when subgroups are aligned rows of x); nullopt
/// for anything else. `(get_local_id(0) / 16) * 8`, which InstCombine
/// turns into `(id >> 1) & -8`, depends on none of them.
std::optional<APInt> XeUniformity::laneBits(const Value *V,
                                            unsigned Depth) const {
  unsigned Bits = V->getType()->getScalarSizeInBits();
  if (!V->getType()->isIntegerTy() || Depth > 8)
    return std::nullopt;
  if (const auto *CB = dyn_cast<CallBase>(V)) {
    const Function *F = CB->getCalledFunction();
    StringRef Base = F ? demangledBase(F->getName()) : "";
    // The lane's id in its subgroup is below the stated subgroup size; an
    // x id's low bits are it when subgroups are aligned rows of x.
    if (!(SGKnown && Base == "get_sub_group_local_id") &&
        !(XMultipleOfSG && idDimension(*CB, Base) == 0))
      return std::nullopt;
    return APInt::getLowBitsSet(Bits, Log2_32(SG));
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return std::nullopt;
  if (isa<ZExtInst, TruncInst>(I)) {
    std::optional<APInt> Op = laneBits(I->getOperand(0), Depth + 1);
    return Op ? std::optional<APInt>(Op->zextOrTrunc(Bits)) : std::nullopt;
  }
  const auto *BO = dyn_cast<BinaryOperator>(I);
  const auto *C = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
  if (!C)
    return std::nullopt;
  std::optional<APInt> Op = laneBits(BO->getOperand(0), Depth + 1);
  if (!Op)
    return std::nullopt;
  const APInt &K = C->getValue();
  switch (BO->getOpcode()) {
  case Instruction::AShr:
  case Instruction::SDiv:
    // `(int)get_sub_group_local_id() / 16`: on an id, which is never
    // negative, the signed forms are udiv and lshr.
    if (!isNonNegativeId(BO->getOperand(0)))
      return std::nullopt;
    if (BO->getOpcode() == Instruction::AShr)
      return Op->lshr(K.getLimitedValue(Bits));
    if (!K.isPowerOf2() || K.isNegative())
      return std::nullopt;
    return Op->lshr(K.logBase2());
  case Instruction::LShr:
    return Op->lshr(K.getLimitedValue(Bits));
  case Instruction::Shl:
    return Op->shl(K.getLimitedValue(Bits));
  case Instruction::UDiv:
    if (!K.isPowerOf2())
      return std::nullopt;
    return Op->lshr(K.logBase2());
  case Instruction::Mul:
    if (!K.isPowerOf2())
      return std::nullopt;
    return Op->shl(K.logBase2());
  case Instruction::And:
    return *Op & K;
  case Instruction::Or:
  case Instruction::Xor:
    return *Op;
  case Instruction::Add:
  case Instruction::Sub:
    // A carry can reach every bit above the lowest that differs.
    if (Op->isZero())
      return *Op;
    return APInt::getBitsSetFrom(Bits, Op->countr_zero());
  default:
    return std::nullopt;
  }
}

/// True for the results of subgroup collectives and queries.
static bool collectiveResult(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  return Callee && isSubgroupUniform(demangledBase(Callee->getName()));
}

/// The lane index of a shuffle (`sub_group_shuffle(v, i)`,
/// `intel_sub_group_shuffle`, `__spirv_GroupNonUniformShuffle(scope, v,
/// i)`): where it is uniform, every lane reads the same lane's value.
static const Value *shuffleIndex(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  if (!Callee)
    return nullptr;
  StringRef Base = demangledBase(Callee->getName());
  unsigned Idx = Base == "__spirv_GroupNonUniformShuffle" ? 2 : 1;
  bool Shuffle = Base == "sub_group_shuffle" ||
                 Base == "intel_sub_group_shuffle" ||
                 Base == "__spirv_GroupNonUniformShuffle";
  return Shuffle && CB->arg_size() == Idx + 1 ? CB->getArgOperand(Idx)
                                              : nullptr;
}

bool XeUniformity::update(const Value *V, Lanes L) {
  Lanes &S = State[V];
  if (L <= S)
    return false;
  S = L;
  return true;
}

Lanes XeUniformity::of(const Value *V) const {
  if (isa<Constant>(V))
    return Lanes::Uniform;
  auto It = State.find(V);
  return It == State.end() ? Lanes::Uniform : It->second;
}

Lanes XeUniformity::control(const BasicBlock *BB,
                            const Instruction **Branch) const {
  auto It = Control.find(BB);
  if (It == Control.end())
    return Lanes::Uniform;
  if (Branch)
    *Branch = It->second.second;
  return It->second.first;
}

bool XeUniformity::escapes(const AllocaInst *A) const {
  auto [It, New] = Escapes.try_emplace(A, false);
  if (!New)
    return It->second;
  SmallVector<const Value *, 8> Work{A};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    for (const Use &U : P->uses()) {
      const auto *I = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst>(I)) {
        Work.push_back(I);
        continue;
      }
      if (isa<LoadInst>(I) || isa<DbgInfoIntrinsic>(I) ||
          (isa<StoreInst>(I) && U.getOperandNo() == 1))
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(I);
          II && II->isLifetimeStartOrEnd())
        continue;
      return Escapes[A] = true;
    }
  }
  return false;
}

/// A write of \p L through \p Ptr when \p Ptr is private memory no
/// alloca is traced for.
bool XeUniformity::raiseEscaped(const Value *Ptr, Lanes L) {
  // (Traced to an alloca, or to an object in another address space, such
  // as a global buffer reached through a generic pointer: not this.)
  const Value *O = privateObject(Ptr);
  if (!mayBePrivate(Ptr) || isa<AllocaInst>(O) || !mayBePrivate(O) ||
      L <= EscapedWrite)
    return false;
  EscapedWrite = L;
  return true;
}

Lanes XeUniformity::memory(const AllocaInst *A,
                           const BasicBlock *Reader) const {
  auto It = Memory.find(A);
  Lanes L = It == Memory.end() ? Lanes::Uniform : It->second;
  if (EscapedWrite != Lanes::Uniform && escapes(A))
    L = std::max(L, EscapedWrite);
  // Stored under a divergent branch: lanes that skipped the store hold
  // something else, except for a reader under that same branch.
  auto B = StoreBranches.find(A);
  if (B != StoreBranches.end()) {
    const Instruction *Mine = nullptr;
    control(Reader, &Mine);
    // (Without flow sensitivity a later uniform store may have replaced
    // the value: not proven rather than divergent.)
    for (auto [Br, State] : B->second)
      if (Br != Mine)
        L = std::max(L, Lanes::Unknown);
  }
  return L;
}

/// What \p I puts in private memory: a stored value's state, or (an alloca
/// passed to a call, such as a 2D load's buffer) each lane's own data.
bool XeUniformity::noteMemory(const Instruction &I) {
  auto Raise = [&](const Value *Ptr, Lanes L) {
    const auto *A = dyn_cast<AllocaInst>(privateObject(Ptr));
    if (!A)
      return false;
    Lanes &M = Memory[A];
    if (L <= M)
      return false;
    M = L;
    return true;
  };
  if (const auto *S = dyn_cast<StoreInst>(&I)) {
    // A store under a divergent branch (memory()).
    const Instruction *Br = nullptr;
    Lanes C = control(S->getParent(), &Br);
    bool Changed = false;
    if (C != Lanes::Uniform)
      if (const auto *A = dyn_cast<AllocaInst>(
              getUnderlyingObject(S->getPointerOperand()))) {
        Lanes &Old = StoreBranches[A][Br];
        Changed = C > Old;
        Old = std::max(Old, C);
      }
    Lanes Value =
        std::max({C, of(S->getValueOperand()), of(S->getPointerOperand())});
    if (S->getValueOperand()->getType()->isPointerTy() &&
        mayBePrivate(S->getValueOperand()))
      if (const auto *A =
              dyn_cast<AllocaInst>(privateObject(S->getPointerOperand())))
        HoldsPrivatePointers.insert(A);
    return Raise(S->getPointerOperand(),
                 std::max(of(S->getValueOperand()),
                          of(S->getPointerOperand()))) ||
           raiseEscaped(S->getPointerOperand(), Value) || Changed;
  }
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || CB->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(CB))
    return false;
  // -O0's initialisations and copies of structs (a surface descriptor):
  // the value set, or what the source holds.
  Lanes Here = control(I.getParent());
  if (const auto *MS = dyn_cast<MemSetInst>(CB))
    return Raise(MS->getDest(),
                 std::max({Here, of(MS->getValue()), of(MS->getLength()),
                           of(MS->getDest())}));
  if (const auto *MT = dyn_cast<MemTransferInst>(CB)) {
    const auto *Src = dyn_cast<AllocaInst>(privateObject(MT->getSource()));
    Lanes From = Src ? memory(Src, I.getParent()) : of(MT->getSource());
    return Raise(MT->getDest(), std::max({Here, From, of(MT->getLength()),
                                          of(MT->getDest())}));
  }
  // A function whose body makes no lane data of its own stores what its
  // arguments give it (-O0 out-parameters); anything else per-lane data.
  const Function *Callee = CB->getCalledFunction();
  Lanes Stored = Lanes::Divergent;
  if (Callee && !Callee->isDeclaration() && !makesLaneData(*Callee, 4)) {
    Stored = control(I.getParent());
    for (const Value *Arg : CB->args())
      Stored = std::max(Stored, of(Arg));
  }
  // (A pointer the callee only reads through keeps what it holds: a
  // surface passed by address to a helper at -O0.)
  // A defined function may also write through pointers it loads from
  // what it is given (a struct holding a pointer to another variable).
  bool Changed = false;
  if (Callee && !Callee->isDeclaration() && storesPointerParam(*Callee))
    for (const Value *Arg : CB->args())
      if (Arg->getType()->isPointerTy())
        if (const auto *A = dyn_cast<AllocaInst>(privateObject(Arg)))
          Changed |= HoldsPrivatePointers.insert(A).second;
  for (const Use &Arg : CB->args()) {
    if (!Arg->getType()->isPointerTy())
      continue;
    bool Defined = Callee && !Callee->isDeclaration() &&
                   CB->getArgOperandNo(&Arg) < Callee->arg_size();
    const auto *A = dyn_cast<AllocaInst>(privateObject(Arg));
    if (Defined && A && HoldsPrivatePointers.count(A) &&
        Stored > EscapedWrite) {
      EscapedWrite = Stored;
      Changed = true;
    }
    if (Defined &&
        !mayWriteThrough(Callee->getArg(CB->getArgOperandNo(&Arg)), 6))
      continue;
    Changed |= Raise(Arg, Stored);
    Changed |= raiseEscaped(Arg, Stored);
  }
  return Changed;
}

/// One round over the function; true if some state grew.
bool XeUniformity::propagate(Function &F, const PostDominatorTree &PDT) {
  bool Changed = false;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT) {
    for (Instruction &I : *BB) {
      Changed |= noteMemory(I);
      Lanes L = seed(I);
      std::optional<APInt> LB = laneBits(&I, 0);
      if (LB && !LB->isZero())
        L = Lanes::Divergent;
      else if (const Value *Idx = shuffleIndex(I); Idx && !LB)
        L = std::max(L, of(Idx));
      else if (!collectiveResult(I) && !LB)
        for (const Use &Op : I.operands())
          if (!isa<BasicBlock>(Op.get()) && !isa<Function>(Op.get()))
            L = std::max(L, of(Op.get()));
      Changed |= update(&I, L);
    }
    // A branch on a non-uniform condition: the blocks it controls, and the
    // phis where their paths join.
    Instruction *T = BB->getTerminator();
    Value *Cond = nullptr;
    if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
      Cond = Br->getCondition();
    else if (auto *Sw = dyn_cast<SwitchInst>(T))
      Cond = Sw->getCondition();
    Lanes CL = Cond ? of(Cond) : Lanes::Uniform;
    if (CL == Lanes::Uniform)
      continue;
    const DomTreeNode *N = PDT.getNode(BB);
    BasicBlock *Join = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
    SmallVector<BasicBlock *, 8> Work(successors(BB));
    SmallPtrSet<BasicBlock *, 16> Region;
    while (!Work.empty()) {
      BasicBlock *S = Work.pop_back_val();
      if (S == Join || !Region.insert(S).second)
        continue;
      append_range(Work, successors(S));
    }
    for (BasicBlock *R : Region) {
      auto &C = Control[R];
      if (CL > C.first) {
        C = {CL, T};
        Changed = true;
      }
    }
    // (Loop-exit values in LCSSA form are phis there too.)
    if (Join)
      for (PHINode &P : Join->phis())
        Changed |= update(&P, CL);
  }
  return Changed;
}

XeUniformity::XeUniformity(Function &F, const PostDominatorTree &PDT)
    // clang's copy of an OpenCL kernel's body is called with the kernel's
    // own arguments.
    : IsKernel(F.getCallingConv() == CallingConv::SPIR_KERNEL ||
               F.getName().starts_with("__clang_ocl_kern_imp_")) {
  if (MDNode *MD = F.getMetadata("intel_reqd_sub_group_size"))
    if (auto *C = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0))) {
      SG = unsigned(C->getZExtValue());
      SGKnown = isPowerOf2_32(SG);
    }
  if (MDNode *MD = F.getMetadata("reqd_work_group_size"))
    if (auto *X = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0)))
      XMultipleOfSG = SG && X->getZExtValue() % SG == 0;
  if (!IsKernel)
    for (Argument &A : F.args())
      State[&A] = Lanes::Unknown;
  while (propagate(F, PDT)) {
  }
}

} // namespace xe
} // namespace crosslane
