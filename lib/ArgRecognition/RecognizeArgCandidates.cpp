//===- RecognizeArgCandidates.cpp - Candidate semantics of a chain --------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// crosslane-recognize-arg's candidate semantics (RecognizeArgInternal.h):
/// the operations a chain may implement (min/max, argmax/argmin with their
/// rules for ties, NaN, zeros and "no element" indices), how each ranks a
/// (self, partner) pair, their remark text, and the order representatives
/// a stage's combine is evaluated on (docs/ArgRecognition.md).
///
//===----------------------------------------------------------------------===//

#include "RecognizeArgInternal.h"

#include "LaneMap.h"
#include "crosslane/Support/Compare.h"

#include <cfloat>
#include <cmath>
#include <limits>

using namespace llvm;
using namespace crosslane::subgroup;
using namespace crosslane::argrec;

namespace crosslane {
namespace recognize {

//===----------------------------------------------------------------------===//
// Order representatives
//===----------------------------------------------------------------------===//

/// Adds each float constant of \p Consts (bits of \p FloatT) and its two
/// neighbours through \p Add; also negated when \p Negated (under fabs or
/// fneg a constant meets the values of the other sign).
template <typename FloatT, typename BitsT, typename AddFn>
static void addFloatConstants(ArrayRef<uint64_t> Consts, bool Negated,
                              AddFn Add) {
  for (uint64_t C : Consts)
    for (bool Neg : {false, true}) {
      if (Neg && !Negated)
        continue;
      FloatT F = bit_cast<FloatT>(BitsT(C));
      if (Neg)
        F = -F;
      Add(bit_cast<BitsT>(F));
      if (!std::isnan(F)) {
        Add(bit_cast<BitsT>(std::nextafter(F, FloatT(INFINITY))));
        Add(bit_cast<BitsT>(std::nextafter(F, -FloatT(INFINITY))));
      }
    }
}

/// Values that realise every order type of a compare/select function whose
/// constants are \p Consts: the constants, their neighbours, and two points in
/// each interval between them and the extremes (docs/ArgRecognition.md).
SmallVector<uint64_t, 32> representatives(SlotKind K, ArrayRef<uint64_t> Consts,
                                          bool Negated, bool Words,
                                          int64_t Least, int64_t Most) {
  SmallVector<uint64_t, 32> R;
  auto Add = [&](uint64_t V) {
    if (!is_contained(R, V))
      R.push_back(V);
  };
  if (K == SlotKind::Float32) {
    for (float F : {-INFINITY, -FLT_MAX, -2.5f, -1.0f, -FLT_TRUE_MIN, -0.0f,
                    0.0f, FLT_TRUE_MIN, 1.0f, 2.5f, FLT_MAX, INFINITY})
      Add(bit_cast<uint32_t>(F));
    Add(0x7FC00000); // qNaN
    Add(0xFFC00001); // a negative NaN with a payload
    addFloatConstants<float, uint32_t>(Consts, Negated, Add);
    return R;
  }
  if (K == SlotKind::Float16) {
    // -inf, -65504, -2.5, -1, -min subnormal, -0, +0, min subnormal, 1, 2.5,
    // 65504, +inf, a quiet NaN, a negative NaN with a payload.
    for (uint64_t H : {0xFC00, 0xFBFF, 0xC100, 0xBC00, 0x8001, 0x8000, 0x0000,
                       0x0001, 0x3C00, 0x4100, 0x7BFF, 0x7C00, 0x7E00, 0xFE01})
      Add(H);
    for (uint64_t C : Consts) {
      Add(C & 0xFFFF);
      // Neighbours in the order of half values (bit patterns step by one
      // within a sign; zero and the infinities are already present).
      if (!std::isnan(halfToDouble(C)))
        for (int D : {-1, 1})
          if (uint64_t N = (C + D) & 0xFFFF; !std::isnan(halfToDouble(N)))
            Add(N);
    }
    return R;
  }
  if (K == SlotKind::Float64) {
    const double Inf = std::numeric_limits<double>::infinity();
    for (double F :
         {-Inf, -DBL_MAX, double(-FLT_MAX), -2.5, -1.0, -DBL_TRUE_MIN, -0.0,
          0.0, DBL_TRUE_MIN, 1.0, 2.5, double(FLT_MAX), DBL_MAX, Inf})
      Add(bit_cast<uint64_t>(F));
    Add(0x7FF8000000000000ull); // qNaN
    Add(0xFFF8000000000001ull); // a negative NaN with a payload
    addFloatConstants<double, uint64_t>(Consts, Negated, Add);
    return R;
  }
  unsigned Bits = K == SlotKind::Int32 ? 32 : 64;
  int64_t Min = Bits == 32 ? INT32_MIN : INT64_MIN;
  int64_t Max = Bits == 32 ? INT32_MAX : INT64_MAX;
  for (int64_t V : {Min, Min + 1, int64_t(-2), int64_t(-1), int64_t(0),
                    int64_t(1), int64_t(2), int64_t(3), Max - 1, Max})
    Add(maskTo(uint64_t(V), Bits));
  if (Bits == 64)
    for (uint64_t V : {0xFFFFFFFFull, 0x100000000ull, 0x100000001ull,
                       0x7FC0000000000005ull, 0x8000000100000000ull})
      Add(V);
  for (uint64_t C : Consts)
    for (int D : {-1, 0, 1}) {
      Add(maskTo(C + uint64_t(int64_t(D)), Bits));
      // A narrow word meets an 8- or 16-bit constant as its signed value
      // too (`icmp ne i8 %v, -100` compares with 0x9C).
      if (Most < Max)
        for (unsigned W : {8u, 16u})
          if (C == maskTo(C, W))
            Add(maskTo(uint64_t(sext(C, W) + D), Bits));
    }
  // A program that reads an i64's words apart compares each word on its
  // own: the constants and their neighbours as the low word under several
  // high words, and as the high word.
  if (Bits == 64 && Words)
    for (uint64_t C : Consts)
      for (int D : {-1, 0, 1}) {
        uint64_t W = maskTo(C + uint64_t(int64_t(D)), 32);
        for (uint64_t Hi :
             {uint64_t(1), uint64_t(0x80000000), uint64_t(0xFFFFFFFF)})
          Add(Hi << 32 | W);
        for (uint64_t Lo : {uint64_t(0), uint64_t(1), uint64_t(0xFFFFFFFF)})
          Add(W << 32 | Lo);
      }
  // Words holding a narrow integer: the range's ends, and the 8- and 16-bit
  // types' ends inside it (a combine may compare the truncated value).
  if (Most < Max)
    for (int64_t V :
         {Least, Least + 1, Most - 1, Most, int64_t(INT8_MIN) - 1,
          int64_t(INT8_MIN), int64_t(INT8_MAX), int64_t(UINT8_MAX),
          int64_t(UINT8_MAX) + 1, int64_t(INT16_MIN) - 1, int64_t(INT16_MIN),
          int64_t(INT16_MAX), int64_t(INT16_MAX) + 1})
      Add(maskTo(uint64_t(V), Bits));
  erase_if(R, [&](uint64_t V) {
    return sext(V, Bits) < Least || sext(V, Bits) > Most;
  });
  return R;
}

//===----------------------------------------------------------------------===//
// Candidate semantics
//===----------------------------------------------------------------------===//
/// -1, 0, +1: how \p A compares with \p B in "goodness" for the candidate's
/// value order (0: the same class).
int compareValue(const Candidate &C, const Component &VC, uint64_t A,
                 uint64_t B) {
  if (VC.isFloat()) {
    double X = VC.toDouble(A), Y = VC.toDouble(B);
    bool NX = std::isnan(X), NY = std::isnan(Y);
    if (NX || NY) {
      if (NX && NY)
        return 0;
      int NaNGood = C.NaNWins ? 1 : -1; // how a NaN ranks against numbers
      return NX ? NaNGood : -NaNGood;
    }
    int Ord;
    if (X == 0 && Y == 0)
      Ord = C.ZerosEqual ? 0 : int(!std::signbit(X)) - int(!std::signbit(Y));
    else
      Ord = X < Y ? -1 : X > Y ? 1 : 0;
    return C.Max ? Ord : -Ord;
  }
  unsigned Bits = VC.is64() ? 64 : 32;
  int64_t X = sext(A, Bits), Y = sext(B, Bits);
  uint64_t UX = maskTo(A, Bits), UY = maskTo(B, Bits);
  if (!C.IsArg) {
    switch (C.Op) {
    case ReduceOp::UMin:
      return UX < UY ? 1 : UX > UY ? -1 : 0;
    case ReduceOp::UMax:
      return UX > UY ? 1 : UX < UY ? -1 : 0;
    case ReduceOp::SMin:
      return X < Y ? 1 : X > Y ? -1 : 0;
    default:
      return X > Y ? 1 : X < Y ? -1 : 0;
    }
  }
  int Ord = C.UnsignedVal ? (UX < UY   ? -1
                             : UX > UY ? 1
                                       : 0)
                          : (X < Y   ? -1
                             : X > Y ? 1
                                     : 0);
  return C.Max ? Ord : -Ord;
}

std::string describe(const Candidate &C, ArrayRef<Component> Comps) {
  if (!C.IsArg && Comps[0].isFloat())
    return std::string(getName(C.Op)) + " " + Comps[0].typeName() +
           (C.ZerosEqual ? ", -0 == +0" : ", -0 < +0");
  if (!C.IsArg)
    return std::string(getName(C.Op)) + (Comps[0].is64() ? " i64" : " i32");
  std::string S = C.Max ? "argmax" : "argmin";
  const Component &V = Comps[C.ValSlot];
  S += std::string(" ") + V.typeName() + (C.UnsignedVal ? " (unsigned)" : "");
  if (const char *N = V.narrowName())
    S += std::string(" (") + N + " values)";
  S += Comps[C.IdxSlot].is64() ? "/i64" : "/i32";
  if (C.TiesByLane)
    S += ", ties: by lane order";
  else
    S += std::string(", ties: ") +
         (C.LargestIdx ? "largest index" : "smallest index") +
         (C.UnsignedIdx ? " (unsigned)" : "");
  if (V.isFloat())
    S += std::string(C.NaNWins ? ", NaN wins" : ", NaN ignored") +
         (C.ZerosEqual ? ", -0 == +0" : ", -0 < +0");
  if (C.Sentinel)
    S += ", index " +
         std::to_string(sext(*C.Sentinel, Comps[C.IdxSlot].is64() ? 64 : 32)) +
         " = no element";
  return S;
}

/// The semantics a chain over \p Comps may have, in order of preference:
/// for (value, index) pairs, with indices ordered as signed numbers, then
/// (\p UnsignedCompares) as unsigned ones, then signed with each index in
/// \p Sentinels marking "no element".
SmallVector<Candidate, 16> candidatesFor(ArrayRef<Component> Comps,
                                         ArrayRef<uint64_t> Sentinels,
                                         bool UnsignedCompares) {
  SmallVector<Candidate, 16> Cands;
  if (Comps.size() == 1 && Comps[0].isFloat()) {
    // fmax/fmin (NaN ignored) or fmaximum/fminimum (NaN wins), -0 < +0
    // first; with -0 == +0 the zero's sign is checked at run time.
    for (bool Zeros : {false, true})
      for (bool NaNWins : {false, true})
        for (bool Max : {true, false}) {
          Candidate C;
          C.Op = NaNWins ? (Max ? ReduceOp::FMaximum : ReduceOp::FMinimum)
                         : (Max ? ReduceOp::FMax : ReduceOp::FMin);
          C.Max = Max;
          C.NaNWins = NaNWins;
          C.ZerosEqual = Zeros;
          Cands.push_back(C);
        }
  } else if (Comps.size() == 1) {
    // Signed orders first unless the combine compares unsigned (on values
    // proven non-negative both orders agree; the remark names the code's).
    SmallVector<ReduceOp, 4> Ops = {ReduceOp::SMin, ReduceOp::SMax,
                                    ReduceOp::UMin, ReduceOp::UMax};
    if (UnsignedCompares)
      std::rotate(Ops.begin(), Ops.begin() + 2, Ops.end());
    for (ReduceOp Op : Ops) {
      Candidate C;
      C.Op = Op;
      Cands.push_back(C);
    }
  } else {
    for (unsigned V = 0; V < 2; ++V) {
      if (Comps[1 - V].isFloat())
        continue;
      for (bool Max : {true, false})
        for (bool NaNWins : {false, true})
          for (bool Zeros : {false, true}) {
            if (!Comps[V].isFloat() && (NaNWins || Zeros))
              continue;
            Candidate C;
            C.IsArg = true;
            C.Max = Max;
            C.NaNWins = NaNWins;
            C.ZerosEqual = Zeros;
            C.ValSlot = V;
            C.IdxSlot = 1 - V;
            Cands.push_back(C);
          }
    }
    unsigned NSigned = Cands.size();
    for (unsigned K = 0; UnsignedCompares && K < NSigned; ++K) {
      Candidate C = Cands[K];
      C.UnsignedIdx = true;
      Cands.push_back(C);
    }
    // Indices proven not negative are ordered alike as signed and unsigned
    // numbers: the order the code compares in comes first.
    if (UnsignedCompares && any_of(Comps, [](const Component &C) {
          return !C.isFloat() && C.Least >= 0;
        }))
      std::rotate(Cands.begin(), Cands.begin() + NSigned, Cands.end());
    // The last occurrence wins ties, in either index order.
    for (unsigned K = 0, N = Cands.size(); K < N; ++K) {
      Candidate C = Cands[K];
      C.LargestIdx = true;
      Cands.push_back(C);
    }
    // Unsigned integer values, with either index order.
    for (unsigned K = 0, N = Cands.size(); UnsignedCompares && K < N; ++K) {
      if (Comps[Cands[K].ValSlot].isFloat())
        continue;
      Candidate C = Cands[K];
      C.UnsignedVal = true;
      Cands.push_back(C);
    }
    // "No element" in any index order but the last occurrence's.
    for (uint64_t S : Sentinels)
      for (unsigned K = 0, N = Cands.size(); K < N; ++K) {
        if (Cands[K].LargestIdx)
          continue;
        Candidate C = Cands[K];
        C.Sentinel = S;
        Cands.push_back(C);
      }
  }
  return Cands;
}

} // namespace recognize
} // namespace crosslane
