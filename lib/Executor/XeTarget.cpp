//===- XeTarget.cpp - The executor's Intel Xe target model ----------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Sources: SPV_INTEL_2d_block_io (rev 2), "Restrictions" and "Mapping Block
// Data to Invocations"; cl_intel_subgroup_2d_block_io 1.1.0 (names and
// per-lane types); IGC's vISA documentation of LOAD_BLOCK2D (the register
// image) and IGCBiF_Intrinsics.cl (the flat read builtins of IGC 1.0.12504)
// as summarised in research/xe-block-io.md §2, §4.1, §6 and
// research/xe-referees.md §1.3. The 2D decoding here is the executor's own:
// it does not use the compiler's (lib/Xe).
//
//===----------------------------------------------------------------------===//

#include "crosslane/Executor/XeTarget.h"

#include "XeSubgroup.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Regex.h"
#include "llvm/TargetParser/Triple.h"

#include <cstring>

using namespace llvm;

namespace crosslane {
namespace exec {

bool isXeModule(const Module &M) {
  return Triple(M.getTargetTriple()).isSPIRV();
}

namespace {

enum class Op2D { Load, Transform, Transpose, Prefetch, Store };

/// A 2D block call: its operation, shape, and where its operands are.
struct Block2D {
  Op2D Op = Op2D::Load;
  unsigned Es = 0, W = 0, H = 0, C = 0;
  /// IGC flat builtin: the hardware register image, read as a vector of
  /// LaneBits-bit elements; its operands are minus-one sizes.
  bool IGC = false;
  unsigned LaneBits = 0;
  /// Operand indices: base, width, height, pitch, coordinate, private
  /// buffer (-1: none).
  int Base = 0, Width = 1, Height = 2, Pitch = 3, Coord = 4, Private = -1;
};

/// The function name inside an Itanium-mangled \p Name (\p Name itself
/// when not mangled); \p Params gets the parameter codes after it.
StringRef itaniumBase(StringRef Name, StringRef *Params = nullptr) {
  StringRef S = Name;
  size_t Len = 0;
  if (!S.consume_front("_Z") || S.consumeInteger(10, Len) || Len > S.size())
    return Name;
  if (Params)
    *Params = S.drop_front(Len);
  return S.take_front(Len);
}

/// The SPIR-V spelling: shape operands 0-3, then (Src,) Base, Width,
/// Height, Pitch, Coord (, Dst).
bool spirvBlock(OpCtx &C, StringRef Base, Block2D &B) {
  std::optional<Op2D> Op =
      StringSwitch<std::optional<Op2D>>(Base)
          .Case("__spirv_Subgroup2DBlockLoadINTEL", Op2D::Load)
          .Case("__spirv_Subgroup2DBlockLoadTransformINTEL", Op2D::Transform)
          .Case("__spirv_Subgroup2DBlockLoadTransposeINTEL", Op2D::Transpose)
          .Case("__spirv_Subgroup2DBlockPrefetchINTEL", Op2D::Prefetch)
          .Case("__spirv_Subgroup2DBlockStoreINTEL", Op2D::Store)
          .Default(std::nullopt);
  if (!Op)
    return false;
  B.Op = *Op;
  uint64_t V[4];
  for (unsigned K = 0; K < 4; ++K)
    if (!C.constOp(K, V[K]))
      return C.fail(Base + ": the element size and block shape must be "
                           "constants"),
             true;
  B.Es = V[0], B.W = V[1], B.H = V[2], B.C = V[3];
  int A = 4;
  if (B.Op == Op2D::Store)
    B.Private = A++;
  B.Base = A, B.Width = A + 1, B.Height = A + 2, B.Pitch = A + 3;
  B.Coord = A + 4;
  if (B.Op != Op2D::Store && B.Op != Op2D::Prefetch)
    B.Private = A + 5;
  return true;
}

/// The OpenCL spelling and IGC's flat read builtins (shape in the name).
bool namedBlock(StringRef Base, Block2D &B) {
  static const Regex CL("^intel_sub_group_2d_block_(read_transform|read_"
                        "transpose|read|write|prefetch)_([0-9]+)b_([0-9]+)r(["
                        "0-9]+)x([0-9]+)c$");
  static const Regex IB("^__builtin_IB_subgroup_block_read_flat_(u8|u16)_m(["
                        "0-9]+)k(16|32)v2$");
  SmallVector<StringRef, 6> M;
  if (CL.match(Base, &M)) {
    B.Op = StringSwitch<Op2D>(M[1])
               .Case("read_transform", Op2D::Transform)
               .Case("read_transpose", Op2D::Transpose)
               .Case("read", Op2D::Load)
               .Case("write", Op2D::Store)
               .Default(Op2D::Prefetch);
    unsigned Bits = 0; // the pattern's digits always parse
    M[2].getAsInteger(10, Bits);
    M[3].getAsInteger(10, B.H);
    M[4].getAsInteger(10, B.W);
    M[5].getAsInteger(10, B.C);
    B.Es = Bits / 8;
    if (B.Op != Op2D::Prefetch)
      B.Private = 5;
    return true;
  }
  B.IGC = true;
  if (IB.match(Base, &M)) {
    B.Op = Op2D::Load;
    B.Es = M[1] == "u8" ? 1 : 2;
    M[2].getAsInteger(10, B.H);
    M[3].getAsInteger(10, B.W);
    B.C = 2;
    B.LaneBits = 16;
    return true;
  }
  B.LaneBits = 32;
  B.C = 1;
  if (Base == "__builtin_IB_subgroup_block_read_flat_transform_u8_k32") {
    B.Op = Op2D::Transform, B.Es = 1, B.W = 16, B.H = 32;
    return true;
  }
  if (Base == "__builtin_IB_subgroup_block_read_flat_transform_u16_k16") {
    B.Op = Op2D::Transform, B.Es = 2, B.W = 16, B.H = 16;
    return true;
  }
  if (Base == "__builtin_IB_subgroup_block_read_flat_transpose_u32_k8") {
    B.Op = Op2D::Transpose, B.Es = 4, B.W = 8, B.H = 16;
    return true;
  }
  return false;
}

/// The surface and coordinate, the same in every active lane.
struct Surface {
  uint64_t Base = 0;
  int64_t Width = 0, Height = 0, Pitch = 0, X = 0, Y = 0;
};

/// One unit of a lane's fragment: an element, or a VNNI dword of K rows
/// of one column (lowest row in the low bits); Pad reads 0.
struct Unit {
  bool Pad = true;
  unsigned B = 0, R = 0, Col = 0, K = 1;
};

class XeTarget : public TargetModel {
  unsigned SG;
  xe::WorkGroupCollectives WG;

public:
  explicit XeTarget(unsigned SG) : SG(SG) {}
  StringRef name() const override { return "xe"; }
  unsigned waveSize() const override { return SG; }
  MemSpace memSpace(unsigned AS) const override {
    switch (AS) {
    case 0:
      return MemSpace::Private;
    case 1:
      return MemSpace::Global;
    case 2:
      return MemSpace::Constant;
    case 3:
      return MemSpace::Local;
    case 4:
      return MemSpace::Flat;
    default:
      return MemSpace::Other;
    }
  }
  void buildDispatch(const LaunchConfig &, uint64_t, std::vector<uint8_t> &P,
                     std::vector<uint8_t> &I) const override {
    P.clear();
    I.clear();
  }
  int execIntrinsic(OpCtx &, unsigned) override { return 0; }
  /// IGC keeps private arrays in 64-byte registers, so an access may
  /// assume more alignment than the alloca states (MLIR's XeVM lowering
  /// loads `<8 x i32>` with align 32 from an `alloca [8 x i32], align 4`).
  unsigned minPrivateAlign() const override { return 64; }
  int execExternal(OpCtx &C, StringRef Name) override;
  bool isBarrierCall(const Function &Callee) const override {
    StringRef Base = itaniumBase(Callee.getName());
    return Base == "barrier" || Base == "work_group_barrier" ||
           Base == "__spirv_ControlBarrier";
  }
  bool isCollectiveCall(const Function &Callee) const override {
    return xe::WorkGroupCollectives::isCollective(itaniumBase(Callee.getName()),
                                                  Callee);
  }
  void beginWorkgroup(Engine &E, unsigned NumWaves) override {
    const LaunchConfig &Cfg = E.launch();
    WG.begin(Cfg.Block[0] * Cfg.Block[1] * Cfg.Block[2], NumWaves);
  }
  int arriveCollective(OpCtx &C, StringRef) override {
    return WG.arrive(C, SG);
  }
  int completeCollective(OpCtx &C, StringRef Name) override {
    StringRef Params;
    StringRef Base = itaniumBase(Name, &Params);
    return WG.complete(C, Base, Params, SG);
  }

private:
  int workItem(OpCtx &C, StringRef Base);
  int block2D(OpCtx &C, const Block2D &B);
  bool surface(OpCtx &C, const Block2D &B, Surface &S);
  std::vector<std::vector<Unit>> specLayout(const Block2D &B) const;
  bool readUnit(OpCtx &C, const Block2D &B, const Surface &S, const Unit &U,
                uint64_t &V);
  int igcRead(OpCtx &C, const Block2D &B, const Surface &S);
};

int XeTarget::execExternal(OpCtx &C, StringRef Name) {
  StringRef Params;
  StringRef Base = itaniumBase(Name, &Params);
  if (Base.starts_with("get_"))
    return workItem(C, Base);
  Block2D B;
  if (spirvBlock(C, Base, B) || namedBlock(Base, B))
    return block2D(C, B);
  if (int R = xe::execMatrixMad(C, Base, SG))
    return R;
  if (int R = xe::execOpenCLBuiltin(C, Base, Params, SG))
    return R;
  return xe::execSubgroupBuiltin(C, Base, Params, SG);
}

/// OpenCL work-item and subgroup queries; the subgroup is the wave.
int XeTarget::workItem(OpCtx &C, StringRef Base) {
  Engine &E = C.E;
  const LaunchConfig &Cfg = E.launch();
  unsigned Local = Cfg.Block[0] * Cfg.Block[1] * Cfg.Block[2];
  std::optional<uint64_t> Uniform =
      StringSwitch<std::optional<uint64_t>>(Base)
          .Case("get_sub_group_id", E.waveIndex())
          .Case("get_sub_group_size",
                std::min<uint64_t>(SG, Local - E.waveIndex() * SG))
          .Case("get_max_sub_group_size", SG)
          .Case("get_num_sub_groups", divideCeil(Local, SG))
          .Case("get_work_dim", Cfg.Grid[2] * Cfg.Block[2] > 1   ? 3
                                : Cfg.Grid[1] * Cfg.Block[1] > 1 ? 2
                                                                 : 1)
          .Default(std::nullopt);
  if (Uniform) {
    forLanes(C.Exec, [&](unsigned L) { C.res(L) = *Uniform; });
    C.setPoison(0);
    return 1;
  }
  if (Base == "get_sub_group_local_id") {
    forLanes(C.Exec, [&](unsigned L) { C.res(L) = L; });
    C.setPoison(0);
    return 1;
  }
  // OpenCL C 3.0 §6.15.1: the linear ids (the global offset is 0).
  if (Base == "get_local_linear_id" || Base == "get_global_linear_id") {
    bool Global = Base == "get_global_linear_id";
    forLanes(C.Exec, [&](unsigned L) {
      uint64_t Id = 0;
      for (int D = 2; D >= 0; --D) {
        uint64_t Size = Cfg.Block[D], Own = E.workitemId(L, D);
        if (Global) {
          Own += uint64_t(E.workgroupId(D)) * Cfg.Block[D];
          Size *= Cfg.Grid[D];
        }
        Id = Id * Size + Own;
      }
      C.res(L) = Id;
    });
    C.setPoison(0);
    return 1;
  }
  if (C.numOps() != 1)
    return 0;
  if (C.opPoison(0) & C.Exec)
    return C.fail(Base + " dimension is poison"), -1;
  bool Known = true;
  forLanes(C.Exec, [&](unsigned L) {
    uint64_t D = C.op(0, L);
    bool Size = Base.contains("size") || Base == "get_num_groups";
    if (D > 2) {
      C.res(L) = Size ? 1 : 0;
      return;
    }
    if (Base == "get_local_id")
      C.res(L) = E.workitemId(L, D);
    else if (Base == "get_group_id")
      C.res(L) = E.workgroupId(D);
    else if (Base == "get_local_size" || Base == "get_enqueued_local_size")
      C.res(L) = Cfg.Block[D];
    else if (Base == "get_num_groups")
      C.res(L) = Cfg.Grid[D];
    else if (Base == "get_global_size")
      C.res(L) = uint64_t(Cfg.Grid[D]) * Cfg.Block[D];
    else if (Base == "get_global_id")
      C.res(L) = uint64_t(E.workgroupId(D)) * Cfg.Block[D] + E.workitemId(L, D);
    else if (Base == "get_global_offset")
      C.res(L) = 0;
    else
      Known = false;
  });
  if (!Known)
    return 0;
  C.setPoison(0);
  return 1;
}

/// The operands every lane must agree on (SPV_INTEL_2d_block_io: UB
/// otherwise), from the active lanes; the whole subgroup must run it.
bool XeTarget::surface(OpCtx &C, const Block2D &B, Surface &S) {
  if (C.Exec != C.LaneMask || unsigned(popcount(C.Exec)) != SG)
    return C.fail("a 2D block operation needs the whole subgroup active");
  unsigned First = countr_zero(C.Exec);
  int Ops[] = {B.Base, B.Width, B.Height, B.Pitch};
  uint64_t V[4];
  for (unsigned K = 0; K < 4; ++K) {
    if (C.opPoison(Ops[K]) & C.Exec)
      return C.fail("a 2D block operand is poison");
    V[K] = C.op(Ops[K], First);
    bool Same = true;
    forLanes(C.Exec, [&](unsigned L) { Same &= C.op(Ops[K], L) == V[K]; });
    if (!Same)
      return C.fail("a 2D block operand differs between lanes");
  }
  int64_t X = int32_t(C.op(B.Coord, First, 0)),
          Y = int32_t(C.op(B.Coord, First, 1));
  if ((C.opPoison(B.Coord, 0) | C.opPoison(B.Coord, 1)) & C.Exec)
    return C.fail("the 2D block coordinate is poison");
  bool Same = true;
  forLanes(C.Exec, [&](unsigned L) {
    Same &=
        int32_t(C.op(B.Coord, L, 0)) == X && int32_t(C.op(B.Coord, L, 1)) == Y;
  });
  if (!Same)
    return C.fail("the 2D block coordinate differs between lanes");
  int64_t Adj = B.IGC ? 1 : 0; // IGC's builtins take sizes minus one
  // The hardware ignores the base's low 6 bits (SPV_INTEL_2d_block_io
  // requires 64-byte alignment): a misaligned base would silently read or
  // write other elements.
  if (V[0] % 64)
    return C.fail("the 2D block base 0x" + utohexstr(V[0]) +
                  " is not 64-byte aligned (it is " + Twine(V[0] % 64) +
                  " modulo 64)");
  // x's alignment for 1- and 2-byte elements (SPV_INTEL_2d_block_io,
  // "Restrictions").
  if (B.Es < 4 && X % (4 / B.Es))
    return C.fail("the 2D block x coordinate " + Twine(X) +
                  " is not a multiple of " + Twine(4 / B.Es) + " (" +
                  Twine(B.Es) + "-byte elements)");
  S.Base = V[0];
  S.Width = int64_t(uint32_t(V[1])) + Adj;
  S.Height = int64_t(uint32_t(V[2])) + Adj;
  S.Pitch = int64_t(uint32_t(V[3])) + Adj;
  S.X = X, S.Y = Y;
  // The surface's own rules (SPV_INTEL_2d_block_io, "Restrictions"): the
  // hardware's behaviour outside them is undefined.
  int64_t Max = int64_t(1) << 24;
  if (S.Width < 64 || S.Width > Max || S.Width % std::max<int64_t>(4, B.Es))
    return C.fail("the 2D block surface width " + Twine(S.Width) +
                  " bytes is not a multiple of " +
                  Twine(std::max<int64_t>(4, B.Es)) + " from 64 to 2^24");
  if (S.Height < 1 || S.Height > Max)
    return C.fail("the 2D block surface height " + Twine(S.Height) +
                  " is not from 1 to 2^24 rows");
  if (S.Pitch < S.Width || S.Pitch > Max || S.Pitch % 16)
    return C.fail("the 2D block surface pitch " + Twine(S.Pitch) +
                  " bytes is not a multiple of 16 from the width (" +
                  Twine(S.Width) + ") to 2^24");
  return true;
}

/// Lane i's units, by the extension's mapping: pad (W to a power of two;
/// VNNI H to a multiple of 4 / es rows; transposed H to a power of two),
/// then hand rows to lanes (one element per lane when the row is as wide as
/// the subgroup, several rows per lane set when narrower, consecutive
/// elements when wider, but the hardware's order where it differs), block
/// after block.
std::vector<std::vector<Unit>> XeTarget::specLayout(const Block2D &B) const {
  std::vector<std::vector<Unit>> Lanes(SG);
  for (unsigned Blk = 0; Blk < B.C; ++Blk) {
    std::vector<std::vector<Unit>> Rows;
    if (B.Op == Op2D::Transpose) {
      unsigned Hp = PowerOf2Ceil(B.H);
      for (unsigned Col = 0; Col < B.W; ++Col) {
        Rows.emplace_back(Hp);
        for (unsigned R = 0; R < B.H; ++R)
          Rows.back()[R] = {false, Blk, R, Col, 1};
      }
    } else {
      unsigned K = B.Op == Op2D::Transform ? 4 / B.Es : 1;
      unsigned Wp = PowerOf2Ceil(B.W), Hp = alignTo(B.H, K);
      for (unsigned R = 0; R < Hp; R += K) {
        Rows.emplace_back(Wp);
        for (unsigned Col = 0; Col < B.W; ++Col)
          Rows.back()[Col] = {false, Blk, R, Col, K};
      }
    }
    unsigned Width = Rows[0].size();
    if (Width >= SG) {
      unsigned N = Width / SG;
      // research/xe-block-io.md §6.3: transposed loads of more than 16 rows
      // and VNNI loads wider than 16 give lane L cells L, L + 16, ... of a
      // row on Intel's hardware (IGC's lane type, XeGPU's lane layout), not
      // the text's L * N, L * N + 1, ...
      bool Strided = (B.Op == Op2D::Transpose && B.H > 16) ||
                     (B.Op == Op2D::Transform && B.W > 16);
      for (auto &Row : Rows)
        for (unsigned L = 0; L < SG; ++L)
          for (unsigned E = 0; E < N; ++E)
            Lanes[L].push_back(Row[Strided ? L + E * SG : L * N + E]);
      continue;
    }
    unsigned PerReg = SG / Width;
    for (unsigned R0 = 0; R0 < Rows.size(); R0 += PerReg)
      for (unsigned L = 0; L < SG; ++L) {
        unsigned R = R0 + L / Width;
        Lanes[L].push_back(R < Rows.size() ? Rows[R][L % Width] : Unit());
      }
  }
  return Lanes;
}

/// The value of unit \p U (0 where padded or out of bounds).
bool XeTarget::readUnit(OpCtx &C, const Block2D &B, const Surface &S,
                        const Unit &U, uint64_t &V) {
  V = 0;
  if (U.Pad)
    return true;
  for (unsigned I = 0; I < U.K; ++I) {
    int64_t Row = S.Y + U.R + I, Col = S.X + int64_t(U.B) * B.W + U.Col;
    if (U.R + I >= B.H || Row < 0 || Row >= S.Height || Col < 0 ||
        (Col + 1) * B.Es > S.Width)
      continue;
    uint64_t E;
    bool Poison;
    uint64_t Addr = S.Base + Row * S.Pitch + Col * B.Es;
    if (!C.E.loadLane(C, 1, Addr, countr_zero(C.Exec), B.Es, E, Poison))
      return false;
    if (Poison)
      return C.fail("a 2D block load reads uninitialised memory");
    V |= E << (8 * B.Es * I);
  }
  return true;
}

int XeTarget::block2D(OpCtx &C, const Block2D &B) {
  if (B.Es == 0 || B.W == 0 || B.H == 0 || B.C == 0)
    return C.fail("a 2D block operation with an empty shape"), -1;
  Surface S;
  if (!surface(C, B, S))
    return -1;
  if (B.Op == Op2D::Prefetch)
    return 1;
  if (B.IGC)
    return igcRead(C, B, S);
  std::vector<std::vector<Unit>> Lanes = specLayout(B);
  unsigned UnitBytes = B.Op == Op2D::Transform ? 4 : B.Es;
  bool Ok = true;
  forLanes(C.Exec, [&](unsigned L) {
    uint64_t Dst = C.op(B.Private, L);
    for (unsigned K = 0; Ok && K < Lanes[L].size(); ++K) {
      const Unit &U = Lanes[L][K];
      uint64_t Addr = Dst + K * UnitBytes, V;
      if (B.Op != Op2D::Store) {
        Ok = readUnit(C, B, S, U, V) &&
             C.E.storeLane(C, 0, Addr, L, UnitBytes, V);
        continue;
      }
      bool Poison;
      Ok = C.E.loadLane(C, 0, Addr, L, UnitBytes, V, Poison);
      int64_t Row = S.Y + U.R, Col = S.X + U.Col;
      if (!Ok || U.Pad || Row < 0 || Row >= S.Height || Col < 0 ||
          (Col + 1) * B.Es > S.Width)
        continue;
      if (Poison) {
        Ok = C.fail("a 2D block store writes an uninitialised element");
        continue;
      }
      Ok = C.E.storeLane(C, 1, S.Base + Row * S.Pitch + Col * B.Es, L, B.Es, V);
    }
  });
  return Ok ? 1 : -1;
}

/// IGC's flat reads: the register image LOAD_BLOCK2D writes (each block's
/// rows at a power-of-two pitch, the block padded to 64-byte registers),
/// read as element k of lane i = bytes [(k * SG + i) * s, +s).
int XeTarget::igcRead(OpCtx &C, const Block2D &B, const Surface &S) {
  std::vector<uint8_t> Image;
  for (unsigned Blk = 0; Blk < B.C; ++Blk) {
    bool T = B.Op == Op2D::Transpose, Vnni = B.Op == Op2D::Transform;
    unsigned K = Vnni ? 4 / B.Es : 1;
    unsigned RowsIn = T ? B.W : alignTo(B.H, K) / K;
    unsigned Cells = T ? PowerOf2Ceil(B.H) : PowerOf2Ceil(B.W);
    unsigned CellBytes = Vnni ? 4 : B.Es;
    size_t Start = Image.size();
    Image.resize(Start + size_t(RowsIn) * Cells * CellBytes, 0);
    for (unsigned R = 0; R < RowsIn; ++R)
      for (unsigned Cl = 0; Cl < Cells; ++Cl) {
        Unit U = T ? Unit{Cl >= B.H, Blk, Cl, R, 1}
                   : Unit{Cl >= B.W, Blk, R * K, Cl, K};
        uint64_t V;
        if (!readUnit(C, B, S, U, V))
          return -1;
        std::memcpy(&Image[Start + (size_t(R) * Cells + Cl) * CellBytes], &V,
                    CellBytes);
      }
    Image.resize(alignTo(Image.size(), 64), 0);
  }
  unsigned Bytes = B.LaneBits / 8, N = C.resLeaves();
  forLanes(C.Exec, [&](unsigned L) {
    for (unsigned E = 0; E < N; ++E) {
      uint64_t V = 0;
      size_t At = (size_t(E) * SG + L) * Bytes;
      if (At + Bytes <= Image.size())
        std::memcpy(&V, &Image[At], Bytes);
      C.res(L, E) = V;
    }
  });
  for (unsigned E = 0; E < N; ++E)
    C.setPoison(0, E);
  return 1;
}

} // namespace

std::unique_ptr<TargetModel> createXeTarget(unsigned SubgroupSize,
                                            std::string &Err) {
  if (SubgroupSize != 16 && SubgroupSize != 32) {
    Err =
        "Xe subgroups have 16 or 32 lanes, not " + std::to_string(SubgroupSize);
    return nullptr;
  }
  return std::make_unique<XeTarget>(SubgroupSize);
}

} // namespace exec
} // namespace crosslane
