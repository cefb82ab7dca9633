//===- block_io.h - Intel Xe 2D block IO tiles for OpenCL C/C++ -*- C -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A tile API over cl_intel_subgroup_2d_block_io for OpenCL C (and C++ for
// OpenCL, below) kernels that clang compiles for spirv64. clang declares
// none of the extension's functions; this header declares every shape the
// extension's OpenCL environment guarantees and adds a surface descriptor
// with operations named as in MLIR's XeGPU dialect:
//
//   XeGPU                        here
//   create_nd_tdesc              crosslane_xe_surface_make
//   load_nd                      CROSSLANE_XE_LOAD
//   load_nd {packed} (VNNI)      CROSSLANE_XE_LOAD_VNNI
//   load_nd {transpose}          CROSSLANE_XE_LOAD_TRANSPOSED
//   store_nd                     CROSSLANE_XE_STORE
//   prefetch_nd                  CROSSLANE_XE_PREFETCH
//
// For example, in a kernel with intel_reqd_sub_group_size(16):
//
//   crosslane_xe_surface A =
//       crosslane_xe_surface_make(APtr, K, M, K, sizeof(ushort));
//   ushort AFrag[CROSSLANE_XE_LANE_BYTES(16, 8, 16, 2) / sizeof(ushort)];
//   CROSSLANE_XE_LOAD(A, 16, 8, 16, 2, K0, Row, AFrag);
//
// loads two 8-row x 16-column blocks of 16-bit elements side by side (an
// 8 x 32 tile) whose top-left element is A[Row][K0].
//
// Operation arguments, in the order of the builtin's name
// intel_sub_group_2d_block_<op>_<BITS>b_<H>r<W>x<C>c:
//   S     a crosslane_xe_surface (evaluated several times: pass a variable);
//   BITS  element size of the operation in bits: 8, 16 or 32;
//   H, W  block height (rows) and width (elements); W x H is the block;
//   C     array length: blocks side by side, block b starting at x + b * W
//         (stores take one block);
//   X, Y  offset of the block's top-left element: x in elements of the
//         operation's size, y in rows;
//   FRAG  the lane's fragment: a private array of the lane's element type
//         (below) of at least CROSSLANE_XE_LANE_BYTES*(...) bytes.
// The shape is part of the function's name, so BITS, H, W and C must be
// integer literals or macros that expand to them. Only the guaranteed
// shapes are declared; CROSSLANE_XE_DECLARE_* declare others (a chip may
// have more, e.g. Xe2's 32-wide VNNI loads). crosslane-xe-block-io
// splits a shape the chip lacks by rows or blocks, makes one only another
// chip has per-lane accesses (a missed remark), and reports any other as
// an error at the line of the call (with -gline-tables-only or -Rpass;
// otherwise at the kernel's line).
//
// Lane element types (the extension's): 16-bit operations and 8-bit ones
// 32 wide use ushort (an 8-bit 32-wide row gives each lane two adjacent
// bytes, the lower column in the low byte); 8-bit 16-wide ones use uchar;
// 32-bit, VNNI and transposed ones use uint.
//
// Out of bounds: an element outside the surface (x not in [0, width),
// y not in [0, height)) reads as 0 and is not written; a prefetch ignores
// it. The operation still has to meet the surface rules below.
//
// Fragment layout (SPV_INTEL_2d_block_io's "Mapping Block Data to
// Invocations", docs/Xe.md): the fragment holds block 0's part, then block
// 1's, and so on. For the common 16-wide blocks, lane L holds column L:
// element r of a block's part is row r. VNNI packs rows in pairs (16-bit)
// or fours (8-bit) into a uint, the lower row in the lower bits: with a
// 16-wide 16-bit block, lane L's element k is rows 2k (low half) and
// 2k + 1 (high half) of column L. A transposed load of a 32-bit 16 x 8
// block gives lane L row L: element j is column j. Blocks narrower than
// 16 put 16 / W rows in each register row (lane L holds column L % W of
// rows L / W, L / W + 16 / W, ...); wider ones give each lane W / 16
// adjacent elements per row, except as Intel's hardware does for a
// transposed load of 32 rows (lane L: rows L and L + 16, column by column)
// and a VNNI load wider than 16 (columns L, L + 16, ...), where the
// extension's text would give adjacent ones (docs/Xe.md).
//
// Rules the caller must meet (the extension's; crosslane-xe-block-io
// checks what it can prove and says what it cannot, docs/Xe.md): a
// subgroup size of 16 and the whole subgroup in uniform control flow with
// the same surface and offset; base 64-byte aligned; width * element size
// in [64, 2^24] bytes and a multiple of 4; height in [1, 2^24]; pitch *
// element size a multiple of 16 bytes and at least the width; x a multiple
// of 4 (8-bit) or 2 (16-bit).
//
// C++ for OpenCL (clang -cl-std=clc++2021, device C++ for spirv64) takes
// the macros above as they are, and has the same operations in the
// SPIR-V spelling as function templates in namespace crosslane::xe, whose
// shape is template arguments (any shape; no declarations needed):
//
//   crosslane::xe::load<16, 8, 16, 2>(A, K0, Row, AFrag);
//   crosslane::xe::load_vnni<16, 16, 16, 1>(B, Col, K0, BFrag);
//   crosslane::xe::load_transposed<32, 16, 8, 1>(T, X, Y, TFrag);
//   crosslane::xe::store<16, 8, 16>(C, Col, Row, CFrag);
//   crosslane::xe::prefetch<16, 8, 16, 2>(A, K0 + 32, Row);
//   crosslane::xe::load_cc<16, 8, 16, 2, CROSSLANE_XE_LOAD_STREAMING,
//                          CROSSLANE_XE_LOAD_CACHED>(A, K0, Row, AFrag);
//
// They call __spirv_Subgroup2DBlock{Load,LoadTransform,LoadTranspose,
// Store,Prefetch}INTEL, which LLVM's SPIR-V back end emits as the
// SPV_INTEL_2d_block_io instructions; crosslane-xe-block-io reports a call
// at the line of the template's caller. crosslane::xe::lane_bytes*<...>()
// give the fragment sizes as the macros do.
//
// Cache hints (SPV_INTEL_cache_controls): each operation has a *_CC form
// with two more arguments, the L1 and L3 controls, e.g.
//
//   CROSSLANE_XE_LOAD_CC(A, 16, 8, 16, 2, K0, Row, AFrag,
//                        CROSSLANE_XE_LOAD_STREAMING, CROSSLANE_XE_LOAD_CACHED);
//
// Loads and prefetches take CROSSLANE_XE_LOAD_*, stores
// CROSSLANE_XE_STORE_*, in the pairs the hardware's messages encode
// (docs/Xe.md). They need crosslane-xe-block-io, which turns them into
// the extension's decorations (-mllvm --spirv-ext=+SPV_INTEL_cache_controls
// for clang's SPIR-V output) or drops them with a remark where no 2D
// operation remains; without the pass the kernel calls an undefined
// __crosslane_xe_cache_controls.
//
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_XE_BLOCK_IO_H
#define CROSSLANE_XE_BLOCK_IO_H

#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_CPP_VERSION__)
#error "crosslane/xe/block_io.h is for OpenCL C and C++ for OpenCL"
#endif

/// A row-major 2D surface in global memory. Sizes are in elements of
/// elem_bytes bytes and in rows.
typedef struct {
  global void *base; ///< Row 0, element 0; 64-byte aligned.
  int width;         ///< Elements in a row.
  int height;        ///< Rows.
  int pitch;         ///< Elements from the start of a row to the next.
  int elem_bytes;    ///< Bytes in an element: 1, 2 or 4.
} crosslane_xe_surface;

static inline crosslane_xe_surface
crosslane_xe_surface_make(global void *base, int width, int height, int pitch,
                          int elem_bytes) {
  crosslane_xe_surface S_ = {base, width, height, pitch, elem_bytes};
  return S_;
}

// Builtin names. BITS_ and the others are pasted only here, one macro
// level below the operations, so that macro arguments expand first.
#define CROSSLANE_XE_NAME_(PREFIX_, BITS_, H_, W_, C_)                         \
  PREFIX_##BITS_##b_##H_##r##W_##x##C_##c
#define CROSSLANE_XE_READ_NAME_(BITS_, H_, W_, C_)                             \
  CROSSLANE_XE_NAME_(intel_sub_group_2d_block_read_, BITS_, H_, W_, C_)
#define CROSSLANE_XE_VNNI_NAME_(BITS_, H_, W_, C_)                             \
  CROSSLANE_XE_NAME_(intel_sub_group_2d_block_read_transform_, BITS_, H_, W_,  \
                     C_)
#define CROSSLANE_XE_TRANSPOSED_NAME_(BITS_, H_, W_, C_)                       \
  CROSSLANE_XE_NAME_(intel_sub_group_2d_block_read_transpose_, BITS_, H_, W_,  \
                     C_)
#define CROSSLANE_XE_WRITE_NAME_(BITS_, H_, W_, C_)                            \
  CROSSLANE_XE_NAME_(intel_sub_group_2d_block_write_, BITS_, H_, W_, C_)
#define CROSSLANE_XE_PREFETCH_NAME_(BITS_, H_, W_, C_)                         \
  CROSSLANE_XE_NAME_(intel_sub_group_2d_block_prefetch_, BITS_, H_, W_, C_)

// The surface and offset as the builtins take them: width and pitch in
// bytes, the offset as an int2.
#define CROSSLANE_XE_ARGS_(S_, X_, Y_)                                         \
  (S_).base, (S_).width * (S_).elem_bytes, (S_).height,                        \
      (S_).pitch * (S_).elem_bytes, (int2)((X_), (Y_))

// Cache controls (SPV_INTEL_cache_controls' numbering).
#define CROSSLANE_XE_LOAD_UNCACHED 0
#define CROSSLANE_XE_LOAD_CACHED 1
#define CROSSLANE_XE_LOAD_STREAMING 2
#define CROSSLANE_XE_LOAD_INVALIDATE_AFTER_READ 3
#define CROSSLANE_XE_STORE_UNCACHED 0
#define CROSSLANE_XE_STORE_WRITE_THROUGH 1
#define CROSSLANE_XE_STORE_WRITE_BACK 2
#define CROSSLANE_XE_STORE_STREAMING 3

/// The base with cache controls for the operation that takes it;
/// crosslane-xe-block-io replaces the call (it has no definition).
__attribute__((overloadable)) global void *
__crosslane_xe_cache_controls(global void *base, int l1, int l3);

#define CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_)                        \
  __crosslane_xe_cache_controls((S_).base, (L1_), (L3_)),                      \
      (S_).width * (S_).elem_bytes, (S_).height,                               \
      (S_).pitch * (S_).elem_bytes, (int2)((X_), (Y_))

#define CROSSLANE_XE_LOAD(S_, BITS_, H_, W_, C_, X_, Y_, FRAG_)                \
  CROSSLANE_XE_READ_NAME_(BITS_, H_, W_, C_)(CROSSLANE_XE_ARGS_(S_, X_, Y_),   \
                                             (FRAG_))
#define CROSSLANE_XE_LOAD_VNNI(S_, BITS_, H_, W_, C_, X_, Y_, FRAG_)           \
  CROSSLANE_XE_VNNI_NAME_(BITS_, H_, W_, C_)(CROSSLANE_XE_ARGS_(S_, X_, Y_),   \
                                             (FRAG_))
#define CROSSLANE_XE_LOAD_TRANSPOSED(S_, BITS_, H_, W_, C_, X_, Y_, FRAG_)     \
  CROSSLANE_XE_TRANSPOSED_NAME_(BITS_, H_, W_, C_)(                            \
      CROSSLANE_XE_ARGS_(S_, X_, Y_), (FRAG_))
#define CROSSLANE_XE_STORE(S_, BITS_, H_, W_, X_, Y_, FRAG_)                   \
  CROSSLANE_XE_WRITE_NAME_(BITS_, H_, W_, 1)(CROSSLANE_XE_ARGS_(S_, X_, Y_),   \
                                             (FRAG_))
#define CROSSLANE_XE_PREFETCH(S_, BITS_, H_, W_, C_, X_, Y_)                   \
  CROSSLANE_XE_PREFETCH_NAME_(BITS_, H_, W_, C_)(CROSSLANE_XE_ARGS_(S_, X_, Y_))

#define CROSSLANE_XE_LOAD_CC(S_, BITS_, H_, W_, C_, X_, Y_, FRAG_, L1_, L3_)  \
  CROSSLANE_XE_READ_NAME_(BITS_, H_, W_, C_)(                                  \
      CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_), (FRAG_))
#define CROSSLANE_XE_LOAD_VNNI_CC(S_, BITS_, H_, W_, C_, X_, Y_, FRAG_,    \
                                      L1_, L3_)                                \
  CROSSLANE_XE_VNNI_NAME_(BITS_, H_, W_, C_)(                                  \
      CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_), (FRAG_))
#define CROSSLANE_XE_LOAD_TRANSPOSED_CC(S_, BITS_, H_, W_, C_, X_, Y_,     \
                                            FRAG_, L1_, L3_)                   \
  CROSSLANE_XE_TRANSPOSED_NAME_(BITS_, H_, W_, C_)(                            \
      CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_), (FRAG_))
#define CROSSLANE_XE_STORE_CC(S_, BITS_, H_, W_, X_, Y_, FRAG_, L1_, L3_)  \
  CROSSLANE_XE_WRITE_NAME_(BITS_, H_, W_, 1)(                                  \
      CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_), (FRAG_))
#define CROSSLANE_XE_PREFETCH_CC(S_, BITS_, H_, W_, C_, X_, Y_, L1_, L3_)  \
  CROSSLANE_XE_PREFETCH_NAME_(BITS_, H_, W_, C_)(                              \
      CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_))

// Bytes of a lane's fragment (subgroup 16; H and W powers of two, as in
// every shape the hardware takes) for a load or store, a VNNI load (32 /
// BITS rows per uint) and a transposed load; divide by the size of the
// lane element type for the array length.
#define CROSSLANE_XE_LANE_BYTES(BITS_, H_, W_, C_)                             \
  ((C_) * (((H_) * (W_) + 15) / 16) * ((BITS_) / 8))
#define CROSSLANE_XE_LANE_BYTES_VNNI(BITS_, H_, W_, C_)                        \
  ((C_) * (((((H_) * (BITS_) + 31) / 32) * (W_) + 15) / 16) * 4)
#define CROSSLANE_XE_LANE_BYTES_TRANSPOSED(BITS_, H_, W_, C_)                  \
  CROSSLANE_XE_LANE_BYTES(BITS_, H_, W_, C_)

// Declarations. The functions are overloadable, as OpenCL builtins are, so
// calls carry the Itanium-mangled names Intel's compiler and MLIR's XeVM
// use (_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt); a
// kernel that declares one of them itself must declare it overloadable
// too.
#define CROSSLANE_XE_DECLARE_WITH_FRAG_(NAME_, T_)                             \
  __attribute__((overloadable)) void NAME_(global void *, int, int, int, int2, \
                                           private T_ *);
#define CROSSLANE_XE_DECLARE_LOAD(BITS_, H_, W_, C_, T_)                       \
  CROSSLANE_XE_DECLARE_WITH_FRAG_(CROSSLANE_XE_READ_NAME_(BITS_, H_, W_, C_),  \
                                  T_)
#define CROSSLANE_XE_DECLARE_LOAD_VNNI(BITS_, H_, W_, C_)                      \
  CROSSLANE_XE_DECLARE_WITH_FRAG_(CROSSLANE_XE_VNNI_NAME_(BITS_, H_, W_, C_),  \
                                  uint)
#define CROSSLANE_XE_DECLARE_LOAD_TRANSPOSED(BITS_, H_, W_, C_)                \
  CROSSLANE_XE_DECLARE_WITH_FRAG_(                                             \
      CROSSLANE_XE_TRANSPOSED_NAME_(BITS_, H_, W_, C_), uint)
#define CROSSLANE_XE_DECLARE_STORE(BITS_, H_, W_, T_)                          \
  CROSSLANE_XE_DECLARE_WITH_FRAG_(CROSSLANE_XE_WRITE_NAME_(BITS_, H_, W_, 1),  \
                                  T_)
#define CROSSLANE_XE_DECLARE_PREFETCH(BITS_, H_, W_, C_)                       \
  __attribute__((overloadable)) void CROSSLANE_XE_PREFETCH_NAME_(              \
      BITS_, H_, W_, C_)(global void *, int, int, int, int2);

// M_(A_, B_, C_, D_, H) for each height H.
#define CROSSLANE_XE_EACH_H_1_32_(M_, A_, B_, C_, D_)                          \
  M_(A_, B_, C_, D_, 1) M_(A_, B_, C_, D_, 2) M_(A_, B_, C_, D_, 4)            \
  M_(A_, B_, C_, D_, 8) M_(A_, B_, C_, D_, 16) M_(A_, B_, C_, D_, 32)
#define CROSSLANE_XE_EACH_H_1_8_(M_, A_, B_, C_, D_)                           \
  M_(A_, B_, C_, D_, 1) M_(A_, B_, C_, D_, 2) M_(A_, B_, C_, D_, 4)            \
  M_(A_, B_, C_, D_, 8)
// Every plain load shape is also a prefetch shape.
#define CROSSLANE_XE_LOAD_PREFETCH_H_(BITS_, W_, C_, T_, H_)                   \
  CROSSLANE_XE_DECLARE_LOAD(BITS_, H_, W_, C_, T_)                             \
  CROSSLANE_XE_DECLARE_PREFETCH(BITS_, H_, W_, C_)
#define CROSSLANE_XE_STORE_H_(BITS_, W_, C_, T_, H_)                           \
  CROSSLANE_XE_DECLARE_STORE(BITS_, H_, W_, T_)

// cl_intel_subgroup_2d_block_io 1.1.0's shapes.
CROSSLANE_XE_EACH_H_1_32_(CROSSLANE_XE_LOAD_PREFETCH_H_, 8, 32, 1, ushort)
CROSSLANE_XE_EACH_H_1_32_(CROSSLANE_XE_LOAD_PREFETCH_H_, 8, 32, 2, ushort)
CROSSLANE_XE_LOAD_PREFETCH_H_(8, 16, 4, uchar, 8)
CROSSLANE_XE_LOAD_PREFETCH_H_(8, 16, 4, uchar, 16)
CROSSLANE_XE_LOAD_PREFETCH_H_(8, 16, 4, uchar, 32)
CROSSLANE_XE_EACH_H_1_32_(CROSSLANE_XE_LOAD_PREFETCH_H_, 16, 16, 1, ushort)
CROSSLANE_XE_EACH_H_1_32_(CROSSLANE_XE_LOAD_PREFETCH_H_, 16, 16, 2, ushort)
CROSSLANE_XE_EACH_H_1_32_(CROSSLANE_XE_LOAD_PREFETCH_H_, 32, 8, 1, uint)
CROSSLANE_XE_EACH_H_1_32_(CROSSLANE_XE_LOAD_PREFETCH_H_, 32, 8, 2, uint)
CROSSLANE_XE_EACH_H_1_32_(CROSSLANE_XE_LOAD_PREFETCH_H_, 32, 16, 1, uint)
CROSSLANE_XE_DECLARE_PREFETCH(8, 32, 16, 1)
CROSSLANE_XE_DECLARE_PREFETCH(8, 32, 16, 2)

CROSSLANE_XE_DECLARE_LOAD_VNNI(8, 32, 16, 1)
CROSSLANE_XE_DECLARE_LOAD_VNNI(8, 32, 16, 2)
CROSSLANE_XE_DECLARE_LOAD_VNNI(8, 32, 16, 4)
CROSSLANE_XE_DECLARE_LOAD_VNNI(16, 16, 16, 1)
CROSSLANE_XE_DECLARE_LOAD_VNNI(16, 16, 16, 2)
CROSSLANE_XE_DECLARE_LOAD_VNNI(16, 32, 16, 1)
CROSSLANE_XE_DECLARE_LOAD_VNNI(16, 32, 16, 2)

CROSSLANE_XE_DECLARE_LOAD_TRANSPOSED(32, 16, 8, 1)
CROSSLANE_XE_DECLARE_LOAD_TRANSPOSED(32, 32, 8, 1)

CROSSLANE_XE_EACH_H_1_8_(CROSSLANE_XE_STORE_H_, 8, 16, 1, uchar)
CROSSLANE_XE_EACH_H_1_8_(CROSSLANE_XE_STORE_H_, 8, 32, 1, ushort)
CROSSLANE_XE_EACH_H_1_8_(CROSSLANE_XE_STORE_H_, 16, 16, 1, ushort)
CROSSLANE_XE_EACH_H_1_8_(CROSSLANE_XE_STORE_H_, 32, 16, 1, uint)

#ifdef __OPENCL_CPP_VERSION__
// The SPIR-V spelling (SPV_INTEL_2d_block_io): element size in bytes,
// block width, height and count, then the surface (width and pitch in
// bytes), the offset and the lane's fragment. Declared as the extension's
// LLVM tests spell them (_Z32__spirv_Subgroup2DBlockLoadINTELiiiiPU3AS1Kvi
// iiDv2_iPv).
void __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const global void *,
                                      int, int, int, int2, private void *);
void __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int,
                                               const global void *, int, int,
                                               int, int2, private void *);
void __spirv_Subgroup2DBlockLoadTransposeINTEL(int, int, int, int,
                                               const global void *, int, int,
                                               int, int2, private void *);
void __spirv_Subgroup2DBlockPrefetchINTEL(int, int, int, int,
                                          const global void *, int, int, int,
                                          int2);
void __spirv_Subgroup2DBlockStoreINTEL(int, int, int, int,
                                       const private void *, global void *,
                                       int, int, int, int2);

namespace crosslane {
namespace xe {

/// Bytes of a lane's fragment, as CROSSLANE_XE_LANE_BYTES* give them.
template <int Bits_, int H_, int W_, int C_ = 1> constexpr int lane_bytes() {
  return CROSSLANE_XE_LANE_BYTES(Bits_, H_, W_, C_);
}
template <int Bits_, int H_, int W_, int C_ = 1> constexpr int lane_bytes_vnni() {
  return CROSSLANE_XE_LANE_BYTES_VNNI(Bits_, H_, W_, C_);
}
template <int Bits_, int H_, int W_, int C_ = 1>
constexpr int lane_bytes_transposed() {
  return CROSSLANE_XE_LANE_BYTES_TRANSPOSED(Bits_, H_, W_, C_);
}

// A shape's arguments as the operations check them before the pass does.
#define CROSSLANE_XE_CHECK_SHAPE_(BITS_, H_, W_, C_)                           \
  static_assert((BITS_) == 8 || (BITS_) == 16 || (BITS_) == 32 ||              \
                    (BITS_) == 64,                                             \
                "crosslane::xe: the element size (Bits) must be 8, 16, 32 "    \
                "or 64 bits");                                                 \
  static_assert((H_) > 0 && (W_) > 0 && (C_) > 0,                              \
                "crosslane::xe: the block height, width and count must be "    \
                "positive")

// The fragment may be passed as any pointer to private memory (a private
// array, or a pointer the compiler sees as generic, such as a member of a
// tile object); the operation takes it as private.

// The three reads differ only in the builtin they call; each has a _cc
// form with the L1 and L3 cache controls as template arguments.
#define CROSSLANE_XE_DEFINE_READ_(NAME_, BUILTIN_)                             \
  template <int Bits_, int H_, int W_, int C_ = 1, typename T_>                     \
  __attribute__((always_inline)) inline void NAME_(                            \
      const crosslane_xe_surface &S_, int X_, int Y_, T_ *Frag_) {                  \
    CROSSLANE_XE_CHECK_SHAPE_(Bits_, H_, W_, C_);                                  \
    BUILTIN_(Bits_ / 8, W_, H_, C_, CROSSLANE_XE_ARGS_(S_, X_, Y_),                   \
             (private void *)Frag_);                                            \
  }                                                                            \
  template <int Bits_, int H_, int W_, int C_, int L1_, int L3_, typename T_>         \
  __attribute__((always_inline)) inline void NAME_##_cc(                       \
      const crosslane_xe_surface &S_, int X_, int Y_, T_ *Frag_) {                  \
    CROSSLANE_XE_CHECK_SHAPE_(Bits_, H_, W_, C_);                                  \
    BUILTIN_(Bits_ / 8, W_, H_, C_, CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_),    \
             (private void *)Frag_);                                            \
  }
/// load_nd: C blocks of H rows x W elements of Bits bits at (x, y).
CROSSLANE_XE_DEFINE_READ_(load, __spirv_Subgroup2DBlockLoadINTEL)
/// load_nd {packed}: the same, VNNI-packed into uints.
CROSSLANE_XE_DEFINE_READ_(load_vnni, __spirv_Subgroup2DBlockLoadTransformINTEL)
/// load_nd {transpose}: the block's columns become the lanes' rows.
CROSSLANE_XE_DEFINE_READ_(load_transposed,
                          __spirv_Subgroup2DBlockLoadTransposeINTEL)
#undef CROSSLANE_XE_DEFINE_READ_

/// store_nd: C blocks of H rows x W elements (the hardware stores one
/// block; crosslane-xe-block-io splits more where the chip allows).
template <int Bits_, int H_, int W_, int C_ = 1, typename T_>
__attribute__((always_inline)) inline void
store(const crosslane_xe_surface &S_, int X_, int Y_, const T_ *Frag_) {
  CROSSLANE_XE_CHECK_SHAPE_(Bits_, H_, W_, C_);
  __spirv_Subgroup2DBlockStoreINTEL(Bits_ / 8, W_, H_, C_,
                                    (const private void *)Frag_,
                                    CROSSLANE_XE_ARGS_(S_, X_, Y_));
}
/// store_nd with the L1 and L3 cache controls (CROSSLANE_XE_STORE_*).
template <int Bits_, int H_, int W_, int C_, int L1_, int L3_, typename T_>
__attribute__((always_inline)) inline void
store_cc(const crosslane_xe_surface &S_, int X_, int Y_, const T_ *Frag_) {
  CROSSLANE_XE_CHECK_SHAPE_(Bits_, H_, W_, C_);
  __spirv_Subgroup2DBlockStoreINTEL(
      Bits_ / 8, W_, H_, C_, (const private void *)Frag_,
      CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_));
}
/// prefetch_nd.
template <int Bits_, int H_, int W_, int C_ = 1>
__attribute__((always_inline)) inline void
prefetch(const crosslane_xe_surface &S_, int X_, int Y_) {
  CROSSLANE_XE_CHECK_SHAPE_(Bits_, H_, W_, C_);
  __spirv_Subgroup2DBlockPrefetchINTEL(Bits_ / 8, W_, H_, C_,
                                       CROSSLANE_XE_ARGS_(S_, X_, Y_));
}
/// prefetch_nd with the L1 and L3 cache controls (CROSSLANE_XE_LOAD_*).
template <int Bits_, int H_, int W_, int C_, int L1_, int L3_>
__attribute__((always_inline)) inline void
prefetch_cc(const crosslane_xe_surface &S_, int X_, int Y_) {
  CROSSLANE_XE_CHECK_SHAPE_(Bits_, H_, W_, C_);
  __spirv_Subgroup2DBlockPrefetchINTEL(
      Bits_ / 8, W_, H_, C_, CROSSLANE_XE_ARGS_CACHED_(S_, X_, Y_, L1_, L3_));
}

#undef CROSSLANE_XE_CHECK_SHAPE_

} // namespace xe
} // namespace crosslane
#endif // __OPENCL_CPP_VERSION__

#endif // CROSSLANE_XE_BLOCK_IO_H
