//===- StructCopies.cpp - Copies of a struct chosen by a select -----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "StructCopies.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

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
        APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (!GEP->accumulateConstantOffset(DL, Delta) || Delta.isNegative())
          return false;
        Work.push_back({GEP, Off + Delta.getZExtValue()});
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

} // namespace

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

} // namespace argrec
} // namespace crosslane
