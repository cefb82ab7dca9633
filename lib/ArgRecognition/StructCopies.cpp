//===- StructCopies.cpp - Pairs chosen through stack slots ----------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "StructCopies.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SROA.h"

#include <functional>
#include <optional>

using namespace llvm;

namespace crosslane {
namespace argrec {
namespace {

/// A scalar field of a struct.
struct Field {
  uint64_t Offset;
  Type *Ty;
};

/// Structs with more scalar fields are left alone (each copy becomes three
/// instructions per field).
constexpr size_t MaxFields = 32;

/// Appends \p Ty's scalar fields at \p Base to \p Out (structs and small
/// arrays flattened); false for a type with no fixed layout.
bool appendFields(Type *Ty, uint64_t Base, const DataLayout &DL,
                  SmallVectorImpl<Field> &Out) {
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    if (ST->isOpaque() || ST->isPacked())
      return false;
    const StructLayout *SL = DL.getStructLayout(ST);
    for (auto [I, E] : enumerate(ST->elements()))
      if (!appendFields(E, Base + SL->getElementOffset(I), DL, Out))
        return false;
    return true;
  }
  if (Out.size() > MaxFields)
    return false;
  if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    if (AT->getNumElements() > MaxFields)
      return false;
    uint64_t Stride = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      if (!appendFields(AT->getElementType(), Base + I * Stride, DL, Out))
        return false;
    return true;
  }
  if (!Ty->isIntegerTy() && !Ty->isFloatingPointTy() && !Ty->isPointerTy() &&
      !isa<FixedVectorType>(Ty))
    return false;
  Out.push_back({Base, Ty});
  return Out.size() <= MaxFields;
}

/// \p Ty's scalar fields (laid out by its StructLayout, so apart).
std::optional<SmallVector<Field, 8>> fieldsOf(Type *Ty, const DataLayout &DL) {
  SmallVector<Field, 8> Fields;
  if (!appendFields(Ty, 0, DL, Fields))
    return std::nullopt;
  return Fields;
}

/// \p GEP's offset in bytes, when it is a constant that is not negative.
std::optional<uint64_t> constantOffset(GetElementPtrInst *GEP,
                                       const DataLayout &DL) {
  APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
  if (!GEP->accumulateConstantOffset(DL, Delta) || Delta.isNegative())
    return std::nullopt;
  return Delta.getZExtValue();
}

/// The struct type both of \p Sel's operands are allocas of, when a copy
/// of \p Size bytes moves all of it.
Type *selectedSlotType(SelectInst *Sel, uint64_t Size, const DataLayout &DL) {
  auto *A = dyn_cast<AllocaInst>(Sel->getTrueValue());
  auto *B = dyn_cast<AllocaInst>(Sel->getFalseValue());
  if (!A || !B || A->isArrayAllocation() || B->isArrayAllocation() ||
      A->getAllocatedType() != B->getAllocatedType())
    return nullptr;
  Type *Ty = A->getAllocatedType();
  if (!Ty->isStructTy() || DL.getTypeAllocSize(Ty) != Size)
    return nullptr;
  return Ty;
}

/// True if every write to \p Slot (through constant offsets) is a store
/// inside a field of \p Fields or a copy from a select of \p Group's slots
/// or from one of them: no byte of its padding ever holds a value, if the
/// same holds for every slot of the group.
bool writesOnlyFields(AllocaInst *Slot, ArrayRef<Field> Fields,
                      const SmallPtrSetImpl<AllocaInst *> &Group,
                      const DataLayout &DL) {
  auto FromGroup = [&](Value *Src) {
    if (auto *Sel = dyn_cast<SelectInst>(Src))
      return Group.count(dyn_cast<AllocaInst>(Sel->getTrueValue())) &&
             Group.count(dyn_cast<AllocaInst>(Sel->getFalseValue()));
    return Group.count(dyn_cast<AllocaInst>(Src)) != 0;
  };
  auto InField = [&](uint64_t Off, uint64_t Size) {
    return any_of(Fields, [&](const Field &P) {
      return P.Offset <= Off &&
             Off + Size <= P.Offset + DL.getTypeStoreSize(P.Ty);
    });
  };
  SmallVector<std::pair<Value *, uint64_t>, 8> Work = {{Slot, 0}};
  while (!Work.empty()) {
    auto [Ptr, Off] = Work.pop_back_val();
    for (User *U : Ptr->users()) {
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        std::optional<uint64_t> Delta = constantOffset(GEP, DL);
        if (!Delta)
          return false;
        Work.push_back({GEP, Off + *Delta});
        continue;
      }
      if (isa<LoadInst>(U) || (isa<IntrinsicInst>(U) &&
                               cast<IntrinsicInst>(U)->isLifetimeStartOrEnd()))
        continue;
      if (auto *St = dyn_cast<StoreInst>(U)) {
        if (St->getValueOperand() == Ptr ||
            !InField(Off,
                     DL.getTypeStoreSize(St->getValueOperand()->getType())))
          return false;
        continue;
      }
      if (auto *MC = dyn_cast<MemCpyInst>(U)) {
        if (MC->getDest() == Ptr && !(Off == 0 && FromGroup(MC->getSource())))
          return false;
        continue;
      }
      // A select of slots read by copies only.
      if (auto *Sel = dyn_cast<SelectInst>(U)) {
        if (Sel->getCondition() == Ptr || !all_of(Sel->users(), [&](User *SU) {
              auto *MC = dyn_cast<MemCpyInst>(SU);
              return MC && MC->getSource() == Sel && MC->getDest() != Sel;
            }))
          return false;
        continue;
      }
      return false;
    }
  }
  return true;
}

void splitCopy(MemCpyInst *MC, SelectInst *Sel, ArrayRef<Field> Fields) {
  IRBuilder<> B(MC);
  auto *A = cast<AllocaInst>(Sel->getTrueValue());
  auto *C = cast<AllocaInst>(Sel->getFalseValue());
  Value *Dst = MC->getDest();
  Align DstAlign = MC->getDestAlign().valueOrOne();
  Type *I8 = B.getInt8Ty();
  // Every load before the first store: the destination may be a source.
  SmallVector<Value *, 8> Chosen;
  for (const Field &P : Fields) {
    auto Load = [&](AllocaInst *Slot) {
      Value *Ptr = B.CreateConstInBoundsGEP1_64(I8, Slot, P.Offset);
      return B.CreateAlignedLoad(P.Ty, Ptr,
                                 commonAlignment(Slot->getAlign(), P.Offset));
    };
    Value *TV = Load(A), *FV = Load(C);
    Chosen.push_back(B.CreateSelect(Sel->getCondition(), TV, FV));
  }
  for (auto [P, V] : zip(Fields, Chosen)) {
    Value *Ptr = B.CreateConstInBoundsGEP1_64(I8, Dst, P.Offset);
    B.CreateAlignedStore(V, Ptr, commonAlignment(DstAlign, P.Offset));
  }
  MC->eraseFromParent();
  if (Sel->use_empty())
    Sel->eraseFromParent();
}

/// Leaves beyond this many slots, or trees of more nodes, are left alone.
constexpr size_t MaxSlots = 4;
constexpr size_t MaxNodes = 32;

/// A tree of phis and selects choosing among stack slots, and the loads
/// that read through it.
struct SlotChoice {
  SmallVector<AllocaInst *, MaxSlots> Slots;
  SmallVector<Instruction *, 8> Nodes;
  /// Each load, with the constant offset it reads at from the chosen slot.
  SmallVector<std::pair<LoadInst *, uint64_t>, 4> Loads;
  /// Copies of the chosen slot as a whole (a choice between two slots only).
  SmallVector<MemCpyInst *, 2> Copies;
};

/// Appends the simple loads reading through \p Ptr, directly or through
/// constant non-negative GEPs, at \p Off from the chosen slot, and the
/// copies from a node, to \p Out; false if \p Ptr has any other user,
/// except phis and selects using a node (they must be nodes too, which the
/// caller checks).
bool appendReads(Value *Ptr, uint64_t Off, const DataLayout &DL,
                 SlotChoice &Out) {
  bool IsNode = isa<PHINode>(Ptr) || isa<SelectInst>(Ptr);
  for (User *U : Ptr->users()) {
    if (auto *L = dyn_cast<LoadInst>(U); L && L->isSimple()) {
      Out.Loads.push_back({L, Off});
      continue;
    }
    if (auto *MC = dyn_cast<MemCpyInst>(U);
        MC && IsNode && MC->getSource() == Ptr && MC->getDest() != Ptr &&
        !MC->isVolatile()) {
      Out.Copies.push_back(MC);
      continue;
    }
    if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
      std::optional<uint64_t> Delta = constantOffset(GEP, DL);
      if (!Delta || !appendReads(GEP, Off + *Delta, DL, Out))
        return false;
      continue;
    }
    if (!IsNode || !(isa<PHINode>(U) || isa<SelectInst>(U)))
      return false;
  }
  return true;
}

/// Collects the phis and selects of pointers under \p Root and the allocas
/// at their leaves; nullopt if a leaf is anything else, if a node has a user
/// that is neither a node nor a simple load, or if a slot is smaller than a
/// load (loading from every slot must be as safe as loading from one).
std::optional<SlotChoice> choiceOf(PHINode *Root, const DataLayout &DL) {
  SlotChoice C;
  SmallPtrSet<Value *, 16> Seen = {Root};
  SmallVector<Value *, 16> Work = {Root};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (auto *AI = dyn_cast<AllocaInst>(V)) {
      if (AI->isArrayAllocation() || C.Slots.size() == MaxSlots)
        return std::nullopt;
      C.Slots.push_back(AI);
      continue;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !(isa<PHINode>(I) || isa<SelectInst>(I)) ||
        C.Nodes.size() == MaxNodes)
      return std::nullopt;
    C.Nodes.push_back(I);
    for (Use &U : I->operands())
      if (U->getType()->isPointerTy() && Seen.insert(U.get()).second)
        Work.push_back(U.get());
    if (!appendReads(I, 0, DL, C))
      return std::nullopt;
  }
  // A phi or select using a node must be a node itself.
  SmallPtrSet<Value *, 16> NodeSet(llvm::from_range, C.Nodes);
  for (Instruction *N : C.Nodes)
    for (User *U : N->users())
      if ((isa<PHINode>(U) || isa<SelectInst>(U)) && !NodeSet.count(U))
        return std::nullopt;
  for (auto [L, Off] : C.Loads) {
    uint64_t End = Off + DL.getTypeStoreSize(L->getType());
    if (!all_of(C.Slots, [&](AllocaInst *AI) {
          std::optional<TypeSize> S = AI->getAllocationSize(DL);
          return S && !S->isScalable() && S->getFixedValue() >= End;
        }))
      return std::nullopt;
  }
  // A copy reads from a select of two slots after the rewrite, which
  // splitSelectedStructCopies then splits.
  if ((C.Loads.empty() && C.Copies.empty()) ||
      (!C.Copies.empty() && C.Slots.size() != 2))
    return std::nullopt;
  return C;
}

/// Replaces \p C's loads by loads from every slot, chosen by an index that
/// a copy of the tree computes, and erases the tree.
void speculateChoice(SlotChoice &C) {
  LLVMContext &Ctx = C.Nodes.front()->getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  DenseMap<Value *, Value *> Index;
  for (auto [K, AI] : enumerate(C.Slots))
    Index[AI] = ConstantInt::get(I32, K);
  // Phis first, so that selects and phis may refer to any of them.
  for (Instruction *N : C.Nodes)
    if (auto *Phi = dyn_cast<PHINode>(N))
      Index[N] = PHINode::Create(I32, Phi->getNumIncomingValues(),
                                 Phi->getName() + ".slot", Phi->getIterator());
  // A select's index is built where the select is, from its operands'
  // indices: constants, phis, or selects that dominate it.
  std::function<Value *(Value *)> IndexOf = [&](Value *V) -> Value * {
    if (Value *I = Index.lookup(V))
      return I;
    auto *Sel = cast<SelectInst>(V);
    Value *T = IndexOf(Sel->getTrueValue()), *F = IndexOf(Sel->getFalseValue());
    Value *I = SelectInst::Create(Sel->getCondition(), T, F,
                                  Sel->getName() + ".slot", Sel->getIterator());
    Index[V] = I;
    return I;
  };
  for (Instruction *N : C.Nodes)
    if (auto *Phi = dyn_cast<PHINode>(N)) {
      auto *IPhi = cast<PHINode>(Index[N]);
      for (auto [In, BB] : zip(Phi->incoming_values(), Phi->blocks()))
        IPhi->addIncoming(IndexOf(In), BB);
    }
  for (auto [L, Off] : C.Loads) {
    IRBuilder<> B(L);
    // The GEPs between the tree and the load are dominated by a node.
    Value *Ptr = L->getPointerOperand();
    while (!Index.count(Ptr) && !isa<PHINode>(Ptr) && !isa<SelectInst>(Ptr))
      Ptr = cast<GetElementPtrInst>(Ptr)->getPointerOperand();
    Value *Which = IndexOf(Ptr);
    // The last slot is the default; every other one is taken when the
    // index names it.
    Value *Result = nullptr;
    for (size_t K = C.Slots.size(); K-- > 0;) {
      AllocaInst *AI = C.Slots[K];
      Value *V = B.CreateAlignedLoad(
          L->getType(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), AI, Off),
          commonAlignment(AI->getAlign(), Off), L->getName() + ".slot");
      Result =
          Result
              ? B.CreateSelect(B.CreateICmpEQ(Which, ConstantInt::get(I32, K)),
                               V, Result)
              : V;
    }
    L->replaceAllUsesWith(Result);
    L->eraseFromParent();
  }
  for (MemCpyInst *MC : C.Copies) {
    IRBuilder<> B(MC);
    Value *First =
        B.CreateICmpEQ(IndexOf(MC->getSource()), ConstantInt::get(I32, 0));
    MC->setSource(B.CreateSelect(First, C.Slots[0], C.Slots[1]));
  }
  // What is left of the tree: the nodes and the GEPs between them and the
  // loads.
  SmallVector<Instruction *, 16> Dead(C.Nodes.begin(), C.Nodes.end());
  for (size_t I = 0; I < Dead.size(); ++I)
    for (User *U : Dead[I]->users())
      if (isa<GetElementPtrInst>(U) && !is_contained(Dead, U))
        Dead.push_back(cast<Instruction>(U));
  for (Instruction *D : Dead)
    D->dropAllReferences();
  for (Instruction *D : Dead)
    D->eraseFromParent();
}

} // namespace

bool speculateSlotLoads(Function &F, function_ref<void()> BeforeChange) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<SlotChoice, 4> Choices;
  SmallPtrSet<Instruction *, 16> Taken;
  for (Instruction &I : instructions(F)) {
    auto *Phi = dyn_cast<PHINode>(&I);
    if (!Phi || !Phi->getType()->isPointerTy() || Taken.count(Phi))
      continue;
    if (std::optional<SlotChoice> C = choiceOf(Phi, DL)) {
      Taken.insert_range(C->Nodes);
      Choices.push_back(std::move(*C));
    }
  }
  if (Choices.empty())
    return false;
  BeforeChange();
  for (SlotChoice &C : Choices)
    speculateChoice(C);
  return true;
}

bool splitSelectedStructCopies(Function &F, function_ref<void()> BeforeChange) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<MemCpyInst *, 4> Work;
  for (Instruction &I : instructions(F)) {
    auto *MC = dyn_cast<MemCpyInst>(&I);
    auto *Len = MC ? dyn_cast<ConstantInt>(MC->getLength()) : nullptr;
    auto *Sel = MC ? dyn_cast<SelectInst>(MC->getSource()) : nullptr;
    if (Len && Sel && !MC->isVolatile() &&
        selectedSlotType(Sel, Len->getZExtValue(), DL))
      Work.push_back(MC);
  }
  if (Work.empty())
    return false;
  // Only the fields are moved: every slot involved must have padding that
  // never holds a value (a slot filled by a copy from memory keeps its
  // padding bytes, which the original moves along; left alone).
  SmallPtrSet<AllocaInst *, 8> Group;
  for (MemCpyInst *MC : Work) {
    auto *Sel = cast<SelectInst>(MC->getSource());
    Group.insert(cast<AllocaInst>(Sel->getTrueValue()));
    Group.insert(cast<AllocaInst>(Sel->getFalseValue()));
    if (auto *Dst = dyn_cast<AllocaInst>(MC->getDest()))
      Group.insert(Dst);
  }
  // One struct type for all of them: a copy between slots of two types
  // could move one type's field into the other's padding.
  Type *Ty = (*Group.begin())->getAllocatedType();
  auto Fields = fieldsOf(Ty, DL);
  if (!Fields || !all_of(Group, [&](AllocaInst *Slot) {
        return Slot->getAllocatedType() == Ty && !Slot->isArrayAllocation() &&
               writesOnlyFields(Slot, *Fields, Group, DL);
      }))
    return false;
  BeforeChange();
  for (MemCpyInst *MC : Work)
    splitCopy(MC, cast<SelectInst>(MC->getSource()), *Fields);
  return true;
}

bool prepareStructCopies(Function &F, FunctionAnalysisManager &FAM,
                         function_ref<void()> BeforeChange) {
  bool Speculated = speculateSlotLoads(F, BeforeChange);
  if (!splitSelectedStructCopies(F, BeforeChange) && !Speculated)
    return false;
  FAM.invalidate(F, PreservedAnalyses::none());
  FAM.invalidate(F, SROAPass(SROAOptions::PreserveCFG).run(F, FAM));
  FAM.invalidate(F, InstCombinePass().run(F, FAM));
  return true;
}

} // namespace argrec
} // namespace crosslane
