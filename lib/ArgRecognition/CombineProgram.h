//===- CombineProgram.h - A butterfly stage's combine as straight code ----===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The recogniser proves a stage's combine by evaluating it on thousands of
/// (self, partner) representatives. Walking the IR for each of them cost
/// ~75 ms per chain, so the combine is compiled once into a small program of
/// nodes in dependency order, and the program is what gets evaluated, node
/// by node over a block of pairs.
///
/// The program is a pure function of (self words, partner words): everything
/// the IR walk decided (which values are partners, which are the lane's own
/// words, branch structure, unsupported operations) is fixed at compile time.
/// Two stages whose programs serialise to the same key therefore combine
/// identically, which lets the recogniser reuse one stage's proof for the
/// next stage of a chain and for the same code in other kernels.
///
/// Failure is lazy, as in the IR: a node that cannot be evaluated (an
/// unsupported operation, a value from outside the combine) only fails a
/// result whose evaluation actually reaches it (the untaken arm of a select
/// does not fail it).
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_LIB_ARGRECOGNITION_COMBINEPROGRAM_H
#define CROSSLANE_LIB_ARGRECOGNITION_COMBINEPROGRAM_H

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

#include <optional>
#include <string>

namespace crosslane {
namespace argrec {

/// True for the floating-point min/max intrinsics a combine may use
/// (maxnum, minnum, maximum, minimum, maximumnum, minimumnum).
bool isFloatMinMax(llvm::Intrinsic::ID ID);

/// True if \p Base holds for (\p A, \p B), or A and B are phis of one
/// block whose incoming values from each predecessor are so related, and so
/// on through the stages of a chain (a cycle of phis is assumed to hold).
/// For state a chain carries in parallel phis: a float beside the i32 phi
/// of its bits, an i64 beside the word of a zero-extended index.
/// An equality `(shl W, K) == C` (or `!=`), 0 < K < W's width: the compare
/// reads only W's low \c Narrow bits (clang tests `(short)w == -1` as `(w <<
/// 16) == -65536`).
struct ShiftedEquality {
  llvm::Value *W;
  unsigned Narrow;
  /// C's bits above K (Narrow bits); none when C has bits below K, which
  /// the shifted value never equals.
  std::optional<llvm::APInt> Low;
};
std::optional<ShiftedEquality> shiftedEquality(const llvm::ICmpInst *Cmp);

bool relatedThroughPhis(
    llvm::Value *A, llvm::Value *B,
    llvm::function_ref<bool(llvm::Value *, llvm::Value *)> Base);

/// What a stage's words hold beyond 32 integer bits.
struct WordKinds {
  /// Words that hold f32 bits or half of f64 bits.
  llvm::SmallVector<unsigned, 2> Float;
  /// Words that hold f16 bits zero-extended (also float words).
  llvm::SmallVector<unsigned, 2> Half;
  /// Words that hold an integer in [Least, Most] (an 8- or 16-bit value
  /// extended): masking or sign-extending them to a type that holds the
  /// range changes nothing.
  struct Range {
    unsigned Word;
    int64_t Least, Most;
  };
  llvm::SmallVector<Range, 2> Narrow;
};

class CombineProgram {
public:
  enum class Op : uint8_t {
    SelfWord,    ///< Imm = word index
    SelfPair,    ///< Imm = lo word | hi word << 32
    PartnerWord, ///< Imm = word index
    Const,       ///< Imm = bits
    Fail,        ///< Imm = message index
    Select,      ///< (cond, true, false)
    FCmp,        ///< (a, b); Aux = predicate; Bits = 32 or 64
    ICmp,        ///< (a, b); Aux = predicate; Bits = operand width
    Copy,        ///< (a): bitcast, zext
    SExt,        ///< (a); Aux = source width
    Trunc,       ///< (a)
    And,
    Or,
    Xor, ///< (a, b) on i1, or Or on disjoint bits
    Shl32,
    LShr32,  ///< (a): moving a word within an i64
    MinMax,  ///< (a, b); Aux = llvm::Intrinsic::ID
    FMinMax, ///< (a, b) f32: maxnum/minnum(-num), maximum/minimum; Aux = ID
    FAbs,
    FNeg,
    LazyAnd, ///< (a, b): 0 when a is 0 (b is not looked at), else b
    AnyOf,   ///< (terms...): or, failing when any term fails
    Phi,     ///< (taken0, value0, taken1, ...): the first taken value;
             ///< Imm = message index when none is taken
  };
  struct Node {
    Op Opc;
    uint8_t Bits = 0;
    uint32_t Aux = 0;
    uint32_t FirstOp = 0, NumOps = 0;
    uint64_t Imm = 0;
  };

  /// Compiles the combine of the stage whose calls are \p Partners (the
  /// ds.bpermute results) reading \p Words (the lane's own words), made of
  /// \p Closure instructions in the region \p StageBB dominates (a block
  /// that post-dominates \p StageBB is reached, whatever the branches before
  /// it test: two combines one after the other are compiled apart).
  /// \p Kinds says which words hold floats and narrow integers. \p Gate, when
  /// given, is a condition on lanes alone (`lane + M < valid`) that the program
  /// takes to be \p GateOn.
  CombineProgram(llvm::ArrayRef<llvm::CallInst *> Partners,
                 llvm::BasicBlock *StageBB,
                 const llvm::SmallSetVector<llvm::Instruction *, 32> &Closure,
                 const WordKinds &Kinds, llvm::DominatorTree &DT,
                 const llvm::PostDominatorTree &PDT,
                 llvm::Value *Gate = nullptr, bool GateOn = true);

  /// Adds \p V as a result; returns its node.
  unsigned addOutput(llvm::Value *V);

  /// True when \p V provably holds the lane's own state words (a word, the
  /// i64 its halves are cut from, a float beside the phi of its bits).
  bool isOwnState(llvm::Value *V) { return aliasOf(V).has_value(); }

  /// The first value the combine reads that is neither the lane's state nor
  /// its partner's (a candidate gate), or null.
  llvm::Value *foreignInput() const { return Foreign; }

  /// Evaluates every node for \p Rows (self, partner) inputs at once.
  /// \p Self and \p Partner hold word W of row R at W * Rows + R; \p Val
  /// gets node I of row R at I * Rows + R, and so does \p FailAt for the
  /// outputs (addOutput's nodes; other nodes' rows no row fails are left
  /// unwritten). FailAt is -1 or the failing message index. Returns false
  /// when no output fails on any of the rows.
  bool run(llvm::ArrayRef<uint64_t> Self, llvm::ArrayRef<uint64_t> Partner,
           unsigned Rows, llvm::MutableArrayRef<uint64_t> Val,
           llvm::MutableArrayRef<int32_t> FailAt) const;

  size_t size() const { return Nodes.size(); }
  const std::string &message(int32_t I) const { return Messages[I]; }
  /// Constants the program compares floats (\p Float, of \p FloatBits) or
  /// integers with.
  llvm::SmallVector<uint64_t, 8>
  comparedConstants(bool Float, unsigned FloatBits = 32) const;
  /// True when some node of the program is an \p O.
  bool has(Op O) const;
  /// True when the program may read word \p Lo or \p Hi of an i64 on its
  /// own rather than as the pair (then each word meets constants alone).
  bool splitsPair(unsigned Lo, unsigned Hi) const;
  /// A serialisation that two programs share iff they compute the same
  /// (message texts aside: equal keys have message indices in the same
  /// places, each program has its own texts).
  std::string key() const;

private:
  llvm::SmallVector<Node, 64> Nodes;
  llvm::SmallVector<uint32_t, 128> Operands;
  llvm::SmallVector<std::string, 4> Messages;
  llvm::SmallVector<unsigned, 8> Outputs;

  // Compile state.
  llvm::ArrayRef<llvm::CallInst *> Partners;
  llvm::BasicBlock *StageBB;
  const llvm::SmallSetVector<llvm::Instruction *, 32> &Closure;
  llvm::DominatorTree &DT;
  const llvm::PostDominatorTree &PDT;
  llvm::Value *Gate, *Foreign = nullptr;
  bool GateOn;
  llvm::DenseMap<llvm::Value *, unsigned> WordIdx, PartnerIdx, Compiled;
  llvm::DenseMap<llvm::BasicBlock *, unsigned> ReachNode;
  llvm::SmallVector<bool, 4> IsFloatWord;
  /// Per word, the signed range of its integer.
  llvm::SmallVector<std::pair<int64_t, int64_t>, 4> WordRange;

  unsigned add(Op O, unsigned Bits, llvm::ArrayRef<unsigned> Ops = {},
               uint64_t Imm = 0, uint32_t Aux = 0);
  unsigned fail(const llvm::Twine &Why);
  enum class WordPart { All, Low, High };
  bool readsFloatBits(llvm::Value *V, WordPart Part, unsigned Depth = 0);
  unsigned constant(uint64_t V, unsigned Bits) {
    return add(Op::Const, Bits, {}, V);
  }
  unsigned compile(llvm::Value *V, unsigned Depth);
  unsigned compileInst(llvm::Instruction *I, unsigned Depth);
  unsigned compilePhi(llvm::PHINode *Phi, unsigned Depth);
  unsigned reach(llvm::BasicBlock *BB, unsigned Depth);
  unsigned edge(llvm::BasicBlock *From, llvm::BasicBlock *To, unsigned Depth);
  std::optional<std::pair<int, int>> aliasOf(llvm::Value *V);
  bool isSelfDerived(llvm::Value *V, unsigned Depth);
  std::optional<unsigned> shiftedSelfWord(llvm::Value *V);
  std::optional<unsigned> selectedSelfWord(llvm::Value *V);
  bool fitsIn(llvm::Value *V, unsigned Bits, bool Signed) const;
  std::optional<unsigned> compileShiftedEquality(llvm::ICmpInst *Cmp,
                                                 unsigned Depth);
  std::optional<unsigned> compileOffsetCompare(llvm::ICmpInst *Cmp,
                                               unsigned Depth);
};

} // namespace argrec
} // namespace crosslane

#endif // CROSSLANE_LIB_ARGRECOGNITION_COMBINEPROGRAM_H
