//===- XeSubgroup.cpp - Subgroup builtins of the Xe target model ----------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Sources: the OpenCL C specification 3.0, §6.15.16 (subgroup functions)
// and the extensions cl_khr_subgroup_shuffle, cl_khr_subgroup_shuffle_-
// relative, cl_khr_subgroup_non_uniform_arithmetic, cl_khr_subgroup_-
// clustered_reduce, cl_khr_subgroup_non_uniform_vote, cl_khr_subgroup_-
// ballot, cl_intel_subgroups (shuffles with two sources, 1-D block reads
// and writes: element k of work-item i is p[k * subgroup size + i]) and
// cl_intel_subgroup_matrix_multiply_accumulate (the operand layouts for
// subgroups of 16).
//
//===----------------------------------------------------------------------===//

#include "XeSubgroup.h"

#include "LeafOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Regex.h"

#include <limits>

using namespace llvm;

namespace crosslane {
namespace exec {
namespace xe {

/// The lanes the current subgroup has (a work-group's last subgroup can be
/// narrower than SG).
static uint64_t subgroupLanes(OpCtx &C, unsigned SG) {
  const LaunchConfig &Cfg = C.E.launch();
  uint64_t Local = uint64_t(Cfg.Block[0]) * Cfg.Block[1] * Cfg.Block[2];
  uint64_t N = std::min<uint64_t>(SG, Local - uint64_t(C.E.waveIndex()) * SG);
  return maskBits(unsigned(N));
}

bool requireWholeSubgroup(OpCtx &C, StringRef Base, unsigned SG) {
  uint64_t All = subgroupLanes(C, SG);
  if (C.Exec == All)
    return true;
  return C.fail(Base + " needs every work-item of the subgroup (lanes 0x" +
                utohexstr(All) + "), but only lanes 0x" + utohexstr(C.Exec) +
                " run it");
}

uint64_t Reduction::identity() const {
  unsigned Bits = leafBits(Ty);
  bool Float = Ty.K != LeafKind::Int;
  switch (Op) {
  case RedOp::Mul:
    return Float ? doubleToLeaf(Ty, 1.0) : 1;
  case RedOp::Min:
    return Float    ? doubleToLeaf(Ty, std::numeric_limits<double>::infinity())
           : Signed ? maskBits(Bits - 1)
                    : maskBits(Bits);
  case RedOp::Max:
    return Float    ? doubleToLeaf(Ty, -std::numeric_limits<double>::infinity())
           : Signed ? 1ULL << (Bits - 1)
                    : 0;
  case RedOp::And:
    return maskBits(Bits);
  case RedOp::LAnd:
    return 1;
  default:
    return 0;
  }
}

/// The engine's vector-reduction steps serve the arithmetic operators
/// (OpenCL's float min/max are fmin/fmax: llvm.minnum/maxnum); the
/// logical ones are OpenCL's own.
uint64_t Reduction::combine(uint64_t A, uint64_t B) const {
  unsigned Bits = leafBits(Ty);
  uint64_t M = maskBits(Bits);
  switch (Op) {
  case RedOp::LAnd:
    return (A & M) && (B & M);
  case RedOp::LOr:
    return (A & M) || (B & M);
  case RedOp::LXor:
    return bool(A & M) != bool(B & M);
  default:
    break;
  }
  if (Ty.K != LeafKind::Int)
    return reduceFPStep(fpIntrinsic(), Ty, A, B);
  return reduceIntStep(intIntrinsic(), A, B, Bits);
}

unsigned Reduction::fpIntrinsic() const {
  switch (Op) {
  case RedOp::Add:
    return Intrinsic::vector_reduce_fadd;
  case RedOp::Mul:
    return Intrinsic::vector_reduce_fmul;
  case RedOp::Min:
    return Intrinsic::vector_reduce_fmin;
  default:
    return Intrinsic::vector_reduce_fmax;
  }
}

unsigned Reduction::intIntrinsic() const {
  switch (Op) {
  case RedOp::Add:
    return Intrinsic::vector_reduce_add;
  case RedOp::Mul:
    return Intrinsic::vector_reduce_mul;
  case RedOp::Min:
    return Signed ? Intrinsic::vector_reduce_smin
                  : Intrinsic::vector_reduce_umin;
  case RedOp::Max:
    return Signed ? Intrinsic::vector_reduce_smax
                  : Intrinsic::vector_reduce_umax;
  case RedOp::And:
    return Intrinsic::vector_reduce_and;
  case RedOp::Or:
    return Intrinsic::vector_reduce_or;
  default:
    return Intrinsic::vector_reduce_xor;
  }
}

std::optional<RedOp> redOpNamed(StringRef Name) {
  return StringSwitch<std::optional<RedOp>>(Name)
      .Case("add", RedOp::Add)
      .Case("mul", RedOp::Mul)
      .Case("min", RedOp::Min)
      .Case("max", RedOp::Max)
      .Case("and", RedOp::And)
      .Case("or", RedOp::Or)
      .Case("xor", RedOp::Xor)
      .Case("logical_and", RedOp::LAnd)
      .Case("logical_or", RedOp::LOr)
      .Case("logical_xor", RedOp::LXor)
      .Default(std::nullopt);
}

namespace {

enum class Shuffle { Index, Xor, Up, Down, IntelUp, IntelDown };

/// Shuffles: lane L reads the value of a source lane; an inactive or
/// missing source gives poison (the specifications leave it undefined).
int shuffle(OpCtx &C, Shuffle K, unsigned SG) {
  bool Two = K == Shuffle::IntelUp || K == Shuffle::IntelDown;
  unsigned Sel = Two ? 2 : 1;
  if (C.numOps() != Sel + 1)
    return 0;
  unsigned Leaves = C.resLeaves();
  uint64_t Present = C.LaneMask & subgroupLanes(C, SG);
  forLanes(C.Exec, [&](unsigned L) {
    int64_t S = int64_t(int32_t(uint32_t(C.op(Sel, L))));
    unsigned Src = 0; // operand the value comes from
    switch (K) {
    case Shuffle::Index:
      break;
    case Shuffle::Xor:
      S ^= L;
      break;
    case Shuffle::Up:
      S = int64_t(L) - int64_t(uint32_t(S));
      break;
    case Shuffle::Down:
      S = int64_t(L) + int64_t(uint32_t(S));
      break;
    case Shuffle::IntelDown: // current, next, delta
      S = int64_t(L) + int64_t(uint32_t(S));
      if (S >= int64_t(SG))
        S -= SG, Src = 1;
      break;
    case Shuffle::IntelUp: // previous, current, delta
      S = int64_t(L) - int64_t(uint32_t(S));
      Src = 1;
      if (S < 0)
        S += SG, Src = 0;
      break;
    }
    bool Ok = S >= 0 && S < int64_t(SG) && ((Present >> S) & 1) &&
              !((C.opPoison(Sel) >> L) & 1);
    for (unsigned Lf = 0; Lf < Leaves; ++Lf) {
      bool P = !Ok || ((C.opPoison(Src, Lf) >> S) & 1);
      C.res(L, Lf) = P ? 0 : C.op(Src, unsigned(S), Lf);
      C.setPoisonLanes(P ? 1ULL << L : 0, 1ULL << L, Lf);
    }
  });
  return 1;
}

enum class Scan { None, Inclusive, Exclusive };

/// sub_group_[non_uniform_|clustered_]{reduce,scan_inclusive,
/// scan_exclusive}_<op>: lanes combine in increasing order, over the
/// subgroup's active lanes (non-uniform; the others need them all) or over
/// clusters of consecutive lanes.
int reduce(OpCtx &C, StringRef Base, StringRef Rest, StringRef Params,
           unsigned SG) {
  bool NonUniform = Rest.consume_front("non_uniform_");
  bool Clustered = Rest.consume_front("clustered_");
  Scan S = Rest.consume_front("reduce_")           ? Scan::None
           : Rest.consume_front("scan_inclusive_") ? Scan::Inclusive
           : Rest.consume_front("scan_exclusive_") ? Scan::Exclusive
                                                   : Scan(-1);
  std::optional<RedOp> Op = redOpNamed(Rest);
  if (!Op || S == Scan(-1) || (Clustered && S != Scan::None) ||
      C.numOps() != (Clustered ? 2u : 1u) || C.resLeaves() != 1)
    return 0;
  if (!NonUniform && !Clustered && !requireWholeSubgroup(C, Base, SG))
    return -1;
  uint64_t Cluster = SG;
  if (Clustered &&
      (!C.constOp(1, Cluster) || !isPowerOf2_64(Cluster) || Cluster > SG))
    return C.fail(Base + ": the cluster size must be a constant power of two "
                         "no larger than the subgroup"),
           -1;
  Reduction R{*Op, scalarLeaf(C.opType(0)),
              !unsignedCode(firstParamCode(Params))};
  uint64_t Poison = C.opPoison(0) & C.Exec;
  for (uint64_t Lo = 0; Lo < SG; Lo += Cluster) {
    uint64_t Lanes = C.Exec & (maskBits(unsigned(Cluster)) << Lo);
    uint64_t Acc = R.identity(), Total = Acc;
    forLanes(Lanes, [&](unsigned L) { Total = R.combine(Total, C.op(0, L)); });
    uint64_t Seen = 0;
    forLanes(Lanes, [&](unsigned L) {
      uint64_t Before = Acc;
      Acc = R.combine(Acc, C.op(0, L));
      Seen |= 1ULL << L;
      uint64_t From = S == Scan::None        ? Lanes
                      : S == Scan::Inclusive ? Seen
                                             : Seen & ~(1ULL << L);
      C.res(L) = S == Scan::None ? Total : S == Scan::Inclusive ? Acc : Before;
      C.setPoisonLanes((Poison & From) ? 1ULL << L : 0, 1ULL << L);
    });
  }
  return 1;
}

/// Votes and ballots over the active lanes.
int vote(OpCtx &C, StringRef Rest, unsigned SG) {
  uint64_t Pred = 0, Poison = C.numOps() ? C.opPoison(0) & C.Exec : 0;
  if (C.numOps() == 1)
    forLanes(C.Exec, [&](unsigned L) {
      if (C.op(0, L) & maskBits(leafBits(scalarLeaf(C.opType(0)))))
        Pred |= 1ULL << L;
    });
  auto Uniform = [&](uint64_t V, unsigned Leaf = 0) {
    forLanes(C.Exec, [&](unsigned L) { C.res(L, Leaf) = V; });
    C.setPoison(Poison ? C.Exec : 0, Leaf);
  };
  if (Rest == "elect" && C.numOps() == 0) {
    forLanes(C.Exec, [&](unsigned L) {
      C.res(L) = L == unsigned(countr_zero(C.Exec));
    });
    C.setPoison(0);
    return 1;
  }
  if (C.numOps() != 1)
    return 0;
  if (Rest == "all" || Rest == "non_uniform_all")
    return Uniform(Pred == C.Exec), 1;
  if (Rest == "any" || Rest == "non_uniform_any")
    return Uniform(Pred != 0), 1;
  if (Rest == "non_uniform_all_equal") {
    uint64_t First = C.op(0, countr_zero(C.Exec));
    bool Same = true;
    forLanes(C.Exec, [&](unsigned L) { Same &= C.op(0, L) == First; });
    return Uniform(Same), 1;
  }
  if (Rest == "ballot" && C.resLeaves() == 4) {
    for (unsigned K = 0; K < 4; ++K)
      Uniform(K < 2 ? (Pred >> (32 * K)) & 0xffffffffu : 0, K);
    return 1;
  }
  return 0;
}

/// intel_sub_group_block_read*/write*(p[, data]): element k of lane i is
/// p[k * SG + i]; p is the same in every lane and the whole subgroup runs it.
int blockRW(OpCtx &C, StringRef Base, unsigned SG) {
  bool Write = Base.starts_with("intel_sub_group_block_write");
  if (C.numOps() != (Write ? 2u : 1u) || !C.opType(0)->isPointerTy())
    return 0; // the image forms are not modelled
  if (!requireWholeSubgroup(C, Base, SG))
    return -1;
  if (C.opPoison(0) & C.Exec)
    return C.fail(Base + ": the pointer is poison"), -1;
  unsigned First = countr_zero(C.Exec);
  uint64_t P = C.op(0, First);
  bool Same = true;
  forLanes(C.Exec, [&](unsigned L) { Same &= C.op(0, L) == P; });
  if (!Same)
    return C.fail(Base + ": the pointer differs between work-items"), -1;
  Type *T = Write ? C.opType(1) : C.inst().getType();
  unsigned N = Write ? C.opSlot(1).N : C.resLeaves();
  unsigned Bytes = T->getScalarSizeInBits() / 8;
  unsigned AS = cast<PointerType>(C.opType(0))->getAddressSpace();
  bool Ok = true;
  forLanes(C.Exec, [&](unsigned L) {
    for (unsigned K = 0; Ok && K < N; ++K) {
      uint64_t Addr = P + (uint64_t(K) * SG + L) * Bytes, V;
      if (Write) {
        if ((C.opPoison(1, K) >> L) & 1)
          Ok = C.fail(Base + " writes a poison value");
        else
          Ok = C.E.storeLane(C, AS, Addr, L, Bytes, C.op(1, L, K));
        continue;
      }
      bool Poison;
      Ok = C.E.loadLane(C, AS, Addr, L, Bytes, V, Poison);
      C.res(L, K) = V;
      C.setPoisonLanes(Poison ? 1ULL << L : 0, 1ULL << L, K);
    }
  });
  return Ok ? 1 : -1;
}

} // namespace

int execSubgroupBuiltin(OpCtx &C, StringRef Base, StringRef Params,
                        unsigned SG) {
  std::optional<Shuffle> K =
      StringSwitch<std::optional<Shuffle>>(Base)
          .Cases({"sub_group_shuffle", "intel_sub_group_shuffle",
                  "sub_group_broadcast", "sub_group_non_uniform_broadcast"},
                 Shuffle::Index)
          .Cases({"sub_group_shuffle_xor", "intel_sub_group_shuffle_xor"},
                 Shuffle::Xor)
          .Case("sub_group_shuffle_up", Shuffle::Up)
          .Case("sub_group_shuffle_down", Shuffle::Down)
          .Case("intel_sub_group_shuffle_up", Shuffle::IntelUp)
          .Case("intel_sub_group_shuffle_down", Shuffle::IntelDown)
          .Default(std::nullopt);
  if (K)
    return shuffle(C, *K, SG);
  if (Base.starts_with("intel_sub_group_block_read") ||
      Base.starts_with("intel_sub_group_block_write"))
    return blockRW(C, Base, SG);
  StringRef Rest = Base;
  if (!Rest.consume_front("sub_group_"))
    return 0;
  if (int R = reduce(C, Base, Rest, Params, SG))
    return R;
  return vote(C, Rest, SG);
}

int execMatrixMad(OpCtx &C, StringRef Base, unsigned SG) {
  static const Regex Name("^intel_sub_group_(f16|bf16|i8|u8)_(f16|bf16|i8|u8)_"
                          "matrix_mad_k(16|32)$");
  SmallVector<StringRef, 4> M;
  if (!Name.match(Base, &M))
    return 0;
  unsigned Bits = M[1].ends_with("8") ? 8 : 16;
  if (M[2].ends_with("8") != (Bits == 8) || M[3] != (Bits == 8 ? "32" : "16"))
    return C.fail(Base + ": no such matrix multiply-accumulate"), -1;
  if (SG != 16)
    return C.fail(Base + ": modelled for subgroups of 16 only"), -1;
  if (!requireWholeSubgroup(C, Base, SG))
    return -1;
  unsigned Rows = C.resLeaves(), K = Bits == 8 ? 32 : 16;
  if (C.numOps() != 3 || C.opSlot(0).N != Rows || C.opSlot(1).N != 8 ||
      C.opSlot(2).N != Rows || !isPowerOf2_32(Rows) || Rows > 8)
    return C.fail(Base + ": operands do not have the extension's types"), -1;
  // One element of A or B: the j-th Bits-bit field of a packed unit.
  auto Elem = [&](StringRef Kind, uint64_t Unit, unsigned J) -> double {
    uint64_t F = (Unit >> (J * Bits)) & maskBits(Bits);
    if (Kind == "f16")
      return leafToDouble(Leaf{LeafKind::Half, 16, 0}, F);
    if (Kind == "bf16")
      return leafToDouble(Leaf{LeafKind::BFloat, 16, 0}, F);
    return Kind == "i8" ? double(sext(F, 8)) : double(F);
  };
  Leaf Acc = scalarLeaf(C.inst().getType());
  if (Acc.K == LeafKind::Int && Acc.Bits == 16 && M[1] == "bf16")
    Acc.K = LeafKind::BFloat; // bf16 accumulators travel as short
  unsigned PerA = 16 / Bits, PerB = 32 / Bits;
  uint64_t APoison = 0;
  for (unsigned R = 0; R < Rows; ++R)
    APoison |= C.opPoison(0, R) & C.Exec;
  forLanes(C.Exec, [&](unsigned N) {
    bool BPoison = false;
    for (unsigned U = 0; U < 8; ++U)
      BPoison |= (C.opPoison(1, U) >> N) & 1;
    for (unsigned R = 0; R < Rows; ++R) {
      // Products of 8- and 16-bit values are exact in double; they are
      // summed in K order there and rounded once to the result's type.
      double Sum = 0;
      int64_t ISum = 0;
      for (unsigned Kk = 0; Kk < K; ++Kk) {
        double A = Elem(M[1], C.op(0, Kk / PerA, R), Kk % PerA);
        double B = Elem(M[2], C.op(1, N, Kk / PerB), Kk % PerB);
        Sum += A * B;
        ISum += int64_t(A) * int64_t(B);
      }
      uint64_t In = C.op(2, N, R), Out;
      if (Acc.K == LeafKind::Int)
        Out = uint64_t(ISum + sext(In, Acc.Bits)) & maskBits(Acc.Bits);
      else
        Out = doubleToLeaf(Acc, Sum + leafToDouble(Acc, In));
      bool P = APoison || BPoison || ((C.opPoison(2, R) >> N) & 1);
      C.res(N, R) = P ? 0 : Out;
      C.setPoisonLanes(P ? 1ULL << N : 0, 1ULL << N, R);
    }
  });
  return 1;
}

} // namespace xe
} // namespace exec
} // namespace crosslane
