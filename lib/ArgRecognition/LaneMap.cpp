//===- LaneMap.cpp - Lane expressions of a wave, evaluated ----------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LaneMap.h"
#include "VortexLaneOps.h"
#include "crosslane/Support/Compare.h"
#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/bit.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace crosslane {
namespace argrec {

/// The dimension of the work-item id \p V reads: the intrinsic, or ROCm's
/// `__ockl_get_local_id(dim)` when device libraries are not linked in.
static std::optional<unsigned> workItemIdDim(const Value *V) {
  auto *CB = dyn_cast<CallBase>(V);
  if (!CB)
    return std::nullopt;
  // Vortex: threadIdx.{x,y,z} are CSRs 0xCD3..0xCD5.
  if (std::optional<unsigned> Csr = vortexCSRRead(CB)) {
    if (*Csr >= vortex::CSRThreadIdxX && *Csr < vortex::CSRThreadIdxX + 3)
      return *Csr - vortex::CSRThreadIdxX;
    return std::nullopt;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::amdgcn_workitem_id_x:
      return 0;
    case Intrinsic::amdgcn_workitem_id_y:
      return 1;
    case Intrinsic::amdgcn_workitem_id_z:
      return 2;
    default:
      return std::nullopt;
    }
  }
  Function *Fn = CB->getCalledFunction();
  auto *Dim = CB->arg_size() == 1 ? dyn_cast<ConstantInt>(CB->getArgOperand(0))
                                  : nullptr;
  if (!Fn || Fn->getName() != "__ockl_get_local_id" || !Dim ||
      Dim->getZExtValue() > 2)
    return std::nullopt;
  return unsigned(Dim->getZExtValue());
}

bool isWorkItemIdX(const Value *V) { return workItemIdDim(V) == 0u; }

bool isWorkItemId(const Value *V) { return workItemIdDim(V).has_value(); }

/// True if \p V reads threadIdx.y or threadIdx.z within a few operations.
static bool readsWorkItemIdYZ(const Value *V, unsigned Depth) {
  if (workItemIdDim(V).value_or(0) != 0)
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0 || isa<PHINode>(I) || isa<CallBase>(I))
    return false;
  return any_of(I->operands(), [&](const Value *Op) {
    return readsWorkItemIdYZ(Op, Depth - 1);
  });
}

static const Value *stripIdCasts(const Value *V) {
  while (isa<TruncInst, ZExtInst, SExtInst, FreezeInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

bool isLinearThreadId(const Value *V) {
  auto *I = dyn_cast<BinaryOperator>(V);
  if (!I || !(I->getOpcode() == Instruction::Add ||
              (I->getOpcode() == Instruction::Or &&
               cast<PossiblyDisjointInst>(I)->isDisjoint())))
    return false;
  for (unsigned K = 0; K < 2; ++K) {
    const Value *Id = stripIdCasts(I->getOperand(K));
    if ((isWorkItemIdX(Id) || isLinearThreadId(Id)) &&
        readsWorkItemIdYZ(I->getOperand(1 - K), 6))
      return true;
  }
  return false;
}

LaneOp decodeLaneOp(const Instruction *I) {
  LaneOp Op;
  auto Width = [](const Type *T) {
    return T->isIntegerTy() ? T->getIntegerBitWidth() : 0;
  };
  if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    // mbcnt(-1, base) counts the lanes below this one: the lane id.
    auto *M = II->arg_size() >= 2 ? dyn_cast<ConstantInt>(II->getArgOperand(0))
                                  : nullptr;
    if (M && M->isMinusOne()) {
      if (II->getIntrinsicID() == Intrinsic::amdgcn_mbcnt_lo)
        Op.Kind = LaneOp::MbcntLo;
      else if (II->getIntrinsicID() == Intrinsic::amdgcn_mbcnt_hi)
        Op.Kind = LaneOp::MbcntHi;
    }
  } else if (isa<SelectInst>(I)) {
    Op.Kind = LaneOp::Select;
  } else if (isa<FreezeInst>(I)) {
    Op.Kind = LaneOp::Freeze;
  } else if (isa<ZExtInst, SExtInst, TruncInst>(I)) {
    Op.SrcBits = Width(I->getOperand(0)->getType());
    Op.Bits = Width(I->getType());
    if (Op.SrcBits && Op.Bits)
      Op.Kind = isa<SExtInst>(I) ? LaneOp::SExt : LaneOp::ZExtOrTrunc;
  } else if (auto *Cmp = dyn_cast<ICmpInst>(I)) {
    Op.SrcBits = Width(Cmp->getOperand(0)->getType());
    Op.Opcode = Cmp->getPredicate();
    if (Op.SrcBits)
      Op.Kind = LaneOp::ICmp;
  } else if (isa<BinaryOperator>(I) && I->getType()->isIntegerTy()) {
    Op.Kind = LaneOp::Binary;
    Op.Opcode = I->getOpcode();
    Op.Bits = Width(I->getType());
  }
  return Op;
}

/// Binary operator \p Opc on \p W-bit \p X and \p Y (sign-extended
/// values); false where it has no value (division by zero, overflow).
LLVM_ATTRIBUTE_ALWAYS_INLINE static bool
binaryLane(unsigned Opc, unsigned W, uint64_t X, uint64_t Y, uint64_t &R) {
  switch (Opc) {
  case Instruction::Add:
    R = X + Y;
    return true;
  case Instruction::Sub:
    R = X - Y;
    return true;
  case Instruction::Mul:
    R = X * Y;
    return true;
  case Instruction::And:
    R = X & Y;
    return true;
  case Instruction::Or:
    R = X | Y;
    return true;
  case Instruction::Xor:
    R = X ^ Y;
    return true;
  case Instruction::Shl:
    R = Y < W ? X << Y : 0;
    return true;
  case Instruction::LShr:
    R = Y < W ? maskTo(X, W) >> Y : 0;
    return true;
  case Instruction::AShr:
    R = Y < W ? uint64_t(sext(X, W) >> Y) : 0;
    return true;
  case Instruction::URem:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::SDiv:
    break;
  default:
    return false;
  }
  uint64_t UX = maskTo(X, W), UY = maskTo(Y, W);
  int64_t SX = sext(X, W), SY = sext(Y, W);
  if (UY == 0 || (SX == INT64_MIN && SY == -1))
    return false;
  switch (Opc) {
  case Instruction::URem:
    R = UX % UY;
    break;
  case Instruction::UDiv:
    R = UX / UY;
    break;
  case Instruction::SRem:
    R = uint64_t(SX % SY);
    break;
  default:
    R = uint64_t(SX / SY);
    break;
  }
  return true;
}

/// The operations of a LaneOp on one lane's operand values: one definition
/// for the per-lane form (applyLaneOp) and the per-row one (evalLaneRow).
static int64_t mbcntLane(LaneOp::KindTy K, int64_t Base, unsigned L,
                         unsigned Wave) {
  if (K == LaneOp::MbcntLo)
    return Base + std::min(L, 32u);
  return Base + (Wave == 64 && L > 32 ? L - 32 : 0);
}
static int64_t castLane(const LaneOp &Op, int64_t X) {
  uint64_t U = maskTo(uint64_t(X), Op.SrcBits);
  if (Op.Kind == LaneOp::SExt)
    return sext(U, Op.SrcBits);
  return sext(maskTo(U, Op.Bits), Op.Bits);
}
static int64_t icmpLane(const LaneOp &Op, int64_t X, int64_t Y) {
  return evalICmp(CmpInst::Predicate(Op.Opcode), uint64_t(X), uint64_t(Y),
                  Op.SrcBits)
             ? 1
             : 0;
}
LLVM_ATTRIBUTE_ALWAYS_INLINE static LaneValue
binaryLaneValue(const LaneOp &Op, int64_t X, int64_t Y) {
  uint64_t R;
  if (!binaryLane(Op.Opcode, Op.Bits, X, Y, R))
    return std::nullopt;
  return sext(maskTo(R, Op.Bits), Op.Bits);
}

/// The value of \p Op in lane \p L of a \p Wave-lane wave from its
/// operands' values there (nullopt for an operand that cannot be evaluated;
/// a select ignores its untaken arm); nullopt when there is none.
static LaneValue applyLaneOp(const LaneOp &Op, ArrayRef<LaneValue> Ops,
                             unsigned L, unsigned Wave) {
  switch (Op.Kind) {
  case LaneOp::Opaque:
    return std::nullopt;
  case LaneOp::MbcntLo:
  case LaneOp::MbcntHi:
    return Ops[1] ? LaneValue(mbcntLane(Op.Kind, *Ops[1], L, Wave))
                  : std::nullopt;
  case LaneOp::Select:
    if (!Ops[0])
      return std::nullopt;
    return *Ops[0] ? Ops[1] : Ops[2];
  case LaneOp::Freeze:
    return Ops[0];
  case LaneOp::SExt:
  case LaneOp::ZExtOrTrunc:
    return Ops[0] ? LaneValue(castLane(Op, *Ops[0])) : std::nullopt;
  case LaneOp::ICmp:
    return Ops[0] && Ops[1] ? LaneValue(icmpLane(Op, *Ops[0], *Ops[1]))
                            : std::nullopt;
  case LaneOp::Binary:
    return Ops[0] && Ops[1] ? binaryLaneValue(Op, *Ops[0], *Ops[1])
                            : std::nullopt;
  }
  llvm_unreachable("covered switch");
}

bool evalLaneRow(const LaneOp &Op, ArrayRef<const LaneVector *> Ops,
                 unsigned Wave, LaneVector &Out) {
  Out.resize(Wave);
  auto Needs = [&](std::initializer_list<unsigned> Ns) {
    return all_of(Ns, [&](unsigned N) { return Ops[N] != nullptr; });
  };
  switch (Op.Kind) {
  case LaneOp::Opaque:
    return false;
  case LaneOp::MbcntLo:
  case LaneOp::MbcntHi:
    if (!Needs({1}))
      return false;
    for (unsigned L = 0; L < Wave; ++L)
      Out[L] = mbcntLane(Op.Kind, (*Ops[1])[L], L, Wave);
    return true;
  case LaneOp::Select:
    if (!Needs({0}))
      return false;
    for (unsigned L = 0; L < Wave; ++L) {
      const LaneVector *Arm = (*Ops[0])[L] ? Ops[1] : Ops[2];
      if (!Arm)
        return false;
      Out[L] = (*Arm)[L];
    }
    return true;
  case LaneOp::Freeze:
    if (!Needs({0}))
      return false;
    Out = *Ops[0];
    return true;
  case LaneOp::SExt:
  case LaneOp::ZExtOrTrunc:
    if (!Needs({0}))
      return false;
    for (unsigned L = 0; L < Wave; ++L)
      Out[L] = castLane(Op, (*Ops[0])[L]);
    return true;
  case LaneOp::ICmp: {
    if (!Needs({0, 1}))
      return false;
    ICmpTester Test(CmpInst::Predicate(Op.Opcode), Op.SrcBits);
    for (unsigned L = 0; L < Wave; ++L)
      Out[L] = Test((*Ops[0])[L], (*Ops[1])[L]);
    return true;
  }
  case LaneOp::Binary:
    if (!Needs({0, 1}))
      return false;
    for (unsigned L = 0; L < Wave; ++L) {
      LaneValue R = binaryLaneValue(Op, (*Ops[0])[L], (*Ops[1])[L]);
      if (!R)
        return false;
      Out[L] = *R;
    }
    return true;
  }
  llvm_unreachable("covered switch");
}

/// Evaluates an address expression in lane \p L; nullopt when it depends on
/// anything but the lane id and constants, or threadIdx.x when \p TidX
/// gives its value.
LaneValue evalLane(Value *V, unsigned L, unsigned Wave,
                   std::optional<unsigned> TidX, TidLeafSet *Leaves,
                   unsigned Depth) {
  if (Depth > 24)
    return std::nullopt;
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getSExtValue();
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return std::nullopt;
  // A linear id is taken for threadIdx.x only when the caller collects it
  // for the run-time check.
  if (TidX && (isWorkItemIdX(I) || (Leaves && isLinearThreadId(I)))) {
    if (Leaves)
      Leaves->insert(I);
    return *TidX;
  }
  // Vortex: the lane's index in its warp is CSR 0xCC0.
  if (vortexCSRRead(I) == unsigned(vortex::CSRThreadId))
    return int64_t(L);
  auto Op = [&](unsigned N) {
    return evalLane(I->getOperand(N), L, Wave, TidX, Leaves, Depth + 1);
  };
  SmallVector<LaneValue, 3> Ops;
  if (isa<SelectInst>(I)) { // only the taken arm
    LaneValue C = Op(0);
    Ops = {C, C && *C ? Op(1) : std::nullopt, C && !*C ? Op(2) : std::nullopt};
  } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    if (II->arg_size() != 2)
      return std::nullopt;
    Ops = {std::nullopt, Op(1)};
  } else {
    for (unsigned N = 0; N < I->getNumOperands(); ++N)
      Ops.push_back(Op(N));
  }
  return applyLaneOp(decodeLaneOp(I), Ops, L, Wave);
}

/// The xor offset of a lane map (lane L reads Src[L] = L ^ Offset), or -1.
int xorOffsetOf(ArrayRef<unsigned> Src) {
  int Offset = int(Src[0]);
  for (auto [L, From] : enumerate(Src))
    if (int(From ^ L) != Offset)
      return -1;
  return Offset;
}

/// True if in every segment of \p Cluster lanes, each lane L whose L + D is
/// still in the segment reads lane L + D (__shfl_down's in-range lanes; what
/// the others read never reaches a segment's first lane).
bool isDownMap(ArrayRef<unsigned> Src, unsigned D, unsigned Cluster) {
  for (auto [L, From] : enumerate(Src))
    if (L % Cluster + D < Cluster && From != L + D)
      return false;
  return true;
}

/// True if \p Cond == \p Want (a branch condition's value in lane L, taking
/// the edge) implies that L is one of \p Lanes, in every lane. A condition on
/// threadIdx.x is tried with threadIdx.x = L + k * W for every k a
/// 1024-lane block allows, which holds exactly when threadIdx.x % W is the
/// lane id (1-D blocks); \p UsesTid says that the guard must check that.
bool impliesLaneIn(Value *Cond, bool Want, unsigned W, uint64_t Lanes,
                   bool &UsesTid, TidLeafSet *Leaves) {
  // `lane == 0 && x`: true only where the lane test is (and `lane != 0 ||
  // x` false only where it is false), whatever x is in each lane.
  using namespace PatternMatch;
  Value *A, *B;
  if ((Want && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))) ||
      (!Want && match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))))
    return impliesLaneIn(A, Want, W, Lanes, UsesTid, Leaves) ||
           impliesLaneIn(B, Want, W, Lanes, UsesTid, Leaves);
  TidLeafSet Read;
  auto Check = [&](std::optional<unsigned> Wave) -> std::optional<bool> {
    for (unsigned L = 0; L < W; ++L) {
      std::optional<unsigned> Tid;
      if (Wave)
        Tid = L + *Wave * W;
      auto C = evalLane(Cond, L, W, Tid, Leaves ? &Read : nullptr);
      if (!C)
        return std::nullopt;
      if ((*C != 0) == Want && !((Lanes >> L) & 1))
        return false;
    }
    return true;
  };
  if (auto R = Check(std::nullopt))
    return *R;
  for (unsigned K = 0; K < 1024 / W; ++K)
    if (Check(K) != std::optional<bool>(true))
      return false;
  UsesTid = true;
  if (Leaves)
    Leaves->insert_range(Read);
  return true;
}

unsigned exchangedWordOperand(const CallInst *CI) {
  if (decodeVortexShuffle(CI))
    return 0;
  auto *II = dyn_cast<IntrinsicInst>(CI);
  switch (II ? II->getIntrinsicID() : Intrinsic::not_intrinsic) {
  case Intrinsic::amdgcn_ds_bpermute:
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_permlane16:
  case Intrinsic::amdgcn_permlanex16:
    return 1;
  case Intrinsic::amdgcn_permlane64:
  case Intrinsic::amdgcn_mov_dpp:
  case Intrinsic::amdgcn_ds_swizzle:
  case Intrinsic::amdgcn_readlane:
    return 0;
  default:
    return NoLane;
  }
}

bool hasExchanges(const Function &F) {
  return any_of(instructions(F), [](const Instruction &I) {
    auto *CI = dyn_cast<CallInst>(&I);
    return CI && exchangedWordOperand(CI) != NoLane;
  });
}

Value *exchangedWord(const CallInst *CI) {
  unsigned K = exchangedWordOperand(CI);
  return K == NoLane ? nullptr : CI->getArgOperand(K);
}

Value *lowWordSource(Value *V) {
  using namespace PatternMatch;
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    Value *X;
    if (!(match(V, m_AShr(m_Shl(m_Value(X), m_SpecificInt(32)),
                          m_SpecificInt(32))) ||
          match(V, m_ZExtOrSExt(m_Trunc(m_Value(X)))) ||
          // (H << 32) + X: H moves only high bits (Eigen's row offset).
          match(V, m_c_Add(m_Shl(m_Value(), m_SpecificInt(32)), m_Value(X))) ||
          match(V, m_And(m_Value(X), m_SpecificInt(0xFFFFFFFFu)))) ||
        !X->getType()->isIntegerTy(64) || !V->getType()->isIntegerTy(64) ||
        (isa<ZExtInst, SExtInst>(V) &&
         !cast<Instruction>(V)->getOperand(0)->getType()->isIntegerTy(32)))
      return V;
    V = X;
  }
  return V;
}

uint64_t segmentStarts(unsigned W, unsigned Cluster) {
  uint64_t M = 0;
  for (unsigned L = 0; L < W; L += Cluster)
    M |= uint64_t(1) << L;
  return M;
}

uint64_t groupOf(unsigned L, unsigned C) { return allLanes(C) << (L / C * C); }

std::optional<ReductionLanes>
reductionLanes(ArrayRef<SmallVector<unsigned, 64>> Maps, unsigned W) {
  // Covered[L]: the lanes whose inputs lane L's value is the best of;
  // 0 once the lane read a zero fill or an undefined value.
  SmallVector<uint64_t, 64> Covered(W), Next(W);
  for (unsigned L = 0; L < W; ++L)
    Covered[L] = uint64_t(1) << L;
  for (const SmallVector<unsigned, 64> &Src : Maps) {
    if (Src.size() != W)
      return std::nullopt;
    for (unsigned L = 0; L < W; ++L) {
      unsigned From = Src[L];
      Next[L] = From < W && Covered[L] && Covered[From]
                    ? Covered[L] | Covered[From]
                    : 0;
    }
    Covered.swap(Next);
  }
  for (unsigned C = W; C >= 2; C /= 2) {
    ReductionLanes R{C, 0};
    for (unsigned L = 0; L < W; ++L)
      if (Covered[L] == groupOf(L, C))
        R.Lanes |= uint64_t(1) << L;
    if (R.Lanes)
      return R;
  }
  return std::nullopt;
}

/// "lane 3", "lanes 16-31" or "5 lanes" for \p Lanes within one group.
static std::string describeRun(uint64_t Lanes) {
  unsigned Lo = countr_zero(Lanes), Hi = 63 - countl_zero(Lanes);
  uint64_t Run = (Hi - Lo == 63) ? ~uint64_t(0)
                                 : ((uint64_t(1) << (Hi - Lo + 1)) - 1) << Lo;
  if (Lanes != Run)
    return std::to_string(popcount(Lanes)) + " lanes";
  return Lo == Hi ? "lane " + std::to_string(Lo)
                  : "lanes " + std::to_string(Lo) + "-" + std::to_string(Hi);
}

std::string describeLanes(uint64_t Lanes, unsigned W, unsigned Cluster) {
  uint64_t All = allLanes(W);
  Lanes &= All;
  if (Lanes == All)
    return "every lane";
  if (!Lanes)
    return "no lane";
  // The same lanes in every group: describe one group.
  uint64_t First = Lanes & groupOf(0, Cluster);
  bool Periodic = Cluster < W;
  for (unsigned G = Cluster; G < W && Periodic; G += Cluster)
    Periodic = ((Lanes >> G) & groupOf(0, Cluster)) == First;
  if (!Periodic || !First)
    return describeRun(Lanes);
  std::string One = describeRun(First);
  if (One == "lane 0")
    One = "the first lane";
  return One + " of each " + std::to_string(Cluster) + "-lane group";
}

} // namespace argrec
} // namespace crosslane
