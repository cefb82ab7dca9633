#!/usr/bin/env python3
"""ALU intrinsic cases for crosslane-run, checked against code nobody here
wrote or against the ISA's pseudocode.

Every case calls one intrinsic on fixed inputs. Two kernels are written with
the same cases: in the "const" kernel the inputs are IR constants, in the
"buffer" kernel they are loaded from a buffer (so nothing can fold them).
Each case stores its result's bits, zero-extended to i64, at out[case].

--suite=fold: the const kernel goes through `opt -passes=instcombine`, so
LLVM's own constant folder (ConstantFolding.cpp and the AMDGPU instcombine
hooks) computes every result; --check then requires that every call folded
and compares the folded constants with crosslane-run's results for the
buffer kernel. Floating-point reductions, which LLVM does not fold, are
written in the const kernel as the scalar operation chain the LangRef
defines them by (fadd/fmul in order from the start value; llvm.maxnum,
minnum, maximum, minimum), which LLVM does fold.

--suite=doc: intrinsics LLVM does not fold; --check compares crosslane-run's
results with the Python functions below, written from the instructions'
pseudocode in AMD's CDNA3 and RDNA4 ISA guides.

Usage:
  alu.py --suite=S --emit=const|buffer [--inputs=FILE]
  alu.py --suite=S --check --folded=FOLDED.ll --llvm=BIN --exec=BIN
  alu.py --suite=doc --check --exec=BIN
"""
import argparse
import math
import random
import re
import struct
import sys
from fractions import Fraction

OUT_SLOTS = 16384  # i64 result slots (crosslane-run --arg=buf:i64:16384)
IN_SLOTS = 49152   # i64 input slots

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------

WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "half": 16,
         "float": 32, "double": 64, "<2 x half>": 32, "<2 x i16>": 32}
FLOATS = {"half", "float", "double"}


def intty(ty):
    return "i%d" % WIDTH[ty]


def mask(bits):
    return (1 << bits) - 1


def const(ty, bits):
    """An IR constant of type ty with the given bit pattern."""
    if ty in FLOATS or ty.startswith("<"):
        return "%s bitcast (%s %d to %s)" % (ty, intty(ty), bits, ty)
    if ty == "i1":
        return "i1 %s" % ("true" if bits & 1 else "false")
    return "%s %d" % (ty, bits)


# ---------------------------------------------------------------------------
# Interesting inputs
# ---------------------------------------------------------------------------

R = random.Random(20250611)

I32 = [0, 1, 2, 3, 7, 8, 15, 16, 23, 24, 31, 32, 33, 63, 64, 65, 0x7f, 0x80,
       0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffff, 0x800000,
       0xffffff, 0x1000000, 0x12345678, 0x80808080, 0x7f7f7f7f, 0x01010101,
       0xfefefefe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
       0xffffffff, 0xdeadbeef, 0x00ff00ff, 0xff00ff00]
I32_R = I32 + [R.getrandbits(32) for _ in range(24)]

F32 = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x40000000,
       0x3f000000, 0x3eaaaaab, 0x40490fdb, 0xc0490fdb, 0x7f800000, 0xff800000,
       0x7fc00000, 0xffc00000, 0x7fc12345, 0x7f800001, 0xff812345,
       0x00000001, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff,
       0xff7fffff, 0x477fe000, 0x477ff000, 0x477fefff, 0x47800000,
       0x38800000, 0x387fffff, 0x33800000, 0x33000000, 0x337fffff,
       0xb3800001, 0x3c010000, 0x41200000, 0xc2c80000, 0x4b000001,
       0x3dcccccd]
F32_R = F32 + [R.getrandbits(32) for _ in range(16)] + \
    [struct.unpack("<I", struct.pack("<f", R.uniform(-4, 4)))[0]
     for _ in range(16)]

F64 = [0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000,
       0xbff0000000000000, 0x400921fb54442d18, 0x7ff0000000000000,
       0xfff0000000000000, 0x7ff8000000000000, 0x7ff4000000000001,
       0x0000000000000001, 0x000fffffffffffff, 0x0010000000000000,
       0x7fefffffffffffff, 0x4330000000000000, 0x4340000000000000,
       0x41d0000000000000, 0xc1e0000000000000, 0x43e0000000000000,
       0xc3e0000000000000, 0x43f0000000000000, 0x3fe0000000000000,
       0xbfe8000000000000, 0x40effffc00000000]


def f64bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32val(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f64val(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def isnan32(b):
    return (b & 0x7f800000) == 0x7f800000 and (b & 0x7fffff) != 0


def issnan32(b):
    return isnan32(b) and not b & 0x400000


def pairs(xs, ys, n=None):
    ps = [(x, y) for x in xs for y in ys]
    if n is not None and len(ps) > n:
        ps = R.sample(ps, n)
    return ps


def triples(xs, ys, zs, n):
    return [(R.choice(xs), R.choice(ys), R.choice(zs)) for _ in range(n)]


# ---------------------------------------------------------------------------
# Case builders: each returns (IR lines, result value) for operand values
# ---------------------------------------------------------------------------


def call(name, retty, nargs):
    """A call of intrinsic `name` on the case's nargs operands."""
    def build(vals, n):
        assert len(vals) == nargs
        args = ", ".join(vals)
        return ["  %%r%d = call %s @%s(%s)" % (n, retty, name, args)], "%%r%d" % n
    return build


def vector_of(ty, vals, n):
    """Builds a vector from scalar values (insertelement chain)."""
    lines, cur = [], "poison"
    for k, v in enumerate(vals):
        lines.append("  %%v%d.%d = insertelement <%d x %s> %s, %s, i32 %d" %
                     (n, k, len(vals), ty, cur, v, k))
        cur = "%%v%d.%d" % (n, k)
    return lines, "<%d x %s> %s" % (len(vals), ty, cur)


def reduce_call(op, ety, count, start=False):
    def build(vals, n):
        lines, vec = vector_of(ety, vals[1:] if start else vals, n)
        args = ([vals[0]] if start else []) + [vec]
        lines.append("  %%r%d = call %s @llvm.vector.reduce.%s.v%d%s(%s)" %
                     (n, ety, op, count, short(ety), ", ".join(args)))
        return lines, "%%r%d" % n
    return build


def short(ty):
    return {"half": "f16", "float": "f32", "double": "f64"}.get(ty, ty)


def reduce_chain(op, ety):
    """The LangRef definition of the FP reductions as a chain of scalar
    operations, in element order (start value first for fadd/fmul)."""
    scalar = {"fadd": "fadd", "fmul": "fmul", "fmax": "llvm.maxnum",
              "fmin": "llvm.minnum", "fmaximum": "llvm.maximum",
              "fminimum": "llvm.minimum"}[op]

    def build(vals, n):
        lines, acc = [], vals[0]
        for k, v in enumerate(vals[1:]):
            name = "%%c%d.%d" % (n, k)
            if scalar.startswith("llvm."):
                lines.append("  %s = call %s @%s.%s(%s, %s)" %
                             (name, ety, scalar, short(ety), acc, v))
            else:
                lines.append("  %s = %s %s %s, %s" %
                             (name, scalar, ety, acc.split(" ", 1)[1],
                              v.split(" ", 1)[1]))
            acc = "%s %s" % (ety, name)
        return lines, acc.split(" ", 1)[1]
    return build


class Op:
    def __init__(self, name, argtys, retty, cases, build, const_build=None,
                 ref=None, nan_loose=False):
        self.name, self.argtys, self.retty = name, argtys, retty
        self.cases, self.build = cases, build
        self.const_build = const_build or build
        self.ref = ref
        # A NaN result of IEEE arithmetic (fadd, fmul, fma) may have any
        # sign and payload (LangRef "Behavior of Floating-Point NaN
        # values"; the ISA does not pin them down either): such results
        # only have to be NaN on both sides.
        self.nan_loose = nan_loose


# ---------------------------------------------------------------------------
# Suite "fold": results computed by LLVM's constant folder
# ---------------------------------------------------------------------------


def fold_ops():
    ops = []
    small = [0, 1, 4, 7, 8, 16, 24, 31, 32, 33, 40, 63, 64, 0x81, 0xffffffe0,
             0xffffffff, 0x80000000]
    for nm in ("ubfe", "sbfe"):
        cases = [(R.choice(I32_R), o, w) for o in small for w in small]
        cases += triples(I32_R, I32_R, I32_R, 64)
        ops.append(Op("llvm.amdgcn.%s.i32" % nm, ["i32"] * 3, "i32", cases,
                      call("llvm.amdgcn.%s.i32" % nm, "i32", 3)))
    sels = [0x03020100, 0x07060504, 0x0c0c0c0c, 0x0d0e0f10, 0x08090a0b,
            0xffffffff, 0x00010203, 0x05040706, 0x0b0a0908, 0x0c0d0e0f]
    sels += [R.getrandbits(32) for _ in range(8)]
    sels += [R.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 255]) *
             0x01010101 for _ in range(6)]
    ops.append(Op("llvm.amdgcn.perm", ["i32"] * 3, "i32",
                  [(R.choice(I32_R), R.choice(I32_R), s) for s in sels
                   for _ in range(6)],
                  call("llvm.amdgcn.perm", "i32", 3)))
    ops.append(Op("llvm.amdgcn.cvt.pkrtz", ["float"] * 2, "<2 x half>",
                  pairs(F32_R, F32_R, 500),
                  call("llvm.amdgcn.cvt.pkrtz", "<2 x half>", 2)))
    ops.append(Op("llvm.amdgcn.fmul.legacy", ["float"] * 2, "float",
                  pairs(F32_R, F32_R, 500),
                  call("llvm.amdgcn.fmul.legacy", "float", 2), nan_loose=True))
    # fma.legacy: LLVM folds a zero product to +0.0 + c, the ISA gives c
    # itself; they differ for c = -0 and signaling NaNs (see AMDGPUTarget).
    fl = [c for c in triples(F32_R, F32_R, F32_R, 700)
          if not (((c[0] & 0x7fffffff) == 0 or (c[1] & 0x7fffffff) == 0)
                  and (c[2] == 0x80000000 or issnan32(c[2])))]
    fl += [(0, x, 0x3f800000) for x in (0x7f800000, 0x7fc00000, 0xff800001)]
    ops.append(Op("llvm.amdgcn.fma.legacy", ["float"] * 3, "float", fl,
                  call("llvm.amdgcn.fma.legacy", "float", 3), nan_loose=True))
    for nm in ("cubeid", "cubesc", "cubetc", "cubema"):
        cs = triples(F32_R, F32_R, F32_R, 250)
        cs += [(x, y, z) for x in (0x3f800000, 0xbf800000, 0)
               for y in (0x3f800000, 0xbf800000, 0x80000000)
               for z in (0x3f800000, 0xbf800000, 0x7fc00000)]
        ops.append(Op("llvm.amdgcn.%s" % nm, ["float"] * 3, "float", cs,
                      call("llvm.amdgcn.%s" % nm, "float", 3)))
    # trig.preop: LLVM folds NaN inputs to NaN and shifts of 1120..1200 to 0,
    # where the ISA uses the exponent field and a 1201-bit 2/pi; those inputs
    # are in the doc suite instead.
    tp = []
    for x in F64 + [R.getrandbits(64) for _ in range(60)]:
        for seg in (0, 1, 2, 3, 5, 10, 20, 21, 22, 25, 31, 32, 33, 0xffffffff):
            e = (x >> 52) & 0x7ff
            shift = (seg & 31) * 53 + (e - 1077 if e > 1077 else 0)
            nan = e == 0x7ff and x & mask(52)
            if not nan and not 1120 <= shift <= 1200:
                tp.append((x, seg))
    ops.append(Op("llvm.amdgcn.trig.preop.f64", ["double", "i32"], "double",
                  tp, call("llvm.amdgcn.trig.preop.f64", "double", 2)))
    # fmed3: with a NaN operand the ISA takes v_min3 (IEEE mode: a signaling
    # NaN comes out quieted from the first v_min). LLVM's folder agrees on
    # quiet NaNs except when an infinity comes first: it folds
    # fmed3(-inf, NaN, x) to minnum(NaN, x) = x, where v_min3 gives -inf.
    # Signaling NaNs and infinities next to NaNs are in the doc suite.
    f16pool = [0, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x0001,
               0x03ff, 0x0400, 0x7bff, 0x3555, 0x4248, 0xc000, 0x3800]
    for ty, pool in (("float", F32_R), ("half", f16pool)):
        nan = (lambda b: isnan32(b)) if ty == "float" else \
            (lambda b: (b & 0x7c00) == 0x7c00 and b & 0x3ff)
        snan = (lambda b: issnan32(b)) if ty == "float" else \
            (lambda b: nan(b) and not b & 0x200)
        inf = (lambda b: b & 0x7fffffff == 0x7f800000) if ty == "float" \
            else (lambda b: b & 0x7fff == 0x7c00)
        cs = [c for c in triples(pool, pool, pool, 400)
              if not any(snan(x) for x in c)
              and not (any(map(nan, c)) and any(map(inf, c)))]
        cs += [(x, y, z) for x in (0, 0x8000 if ty == "half" else 0x80000000)
               for y in (0, 0x8000 if ty == "half" else 0x80000000)
               for z in (0, 0x8000 if ty == "half" else 0x80000000)]
        name = "llvm.amdgcn.fmed3.%s" % short(ty)
        ops.append(Op(name, [ty] * 3, ty, cs, call(name, ty, 3)))
    for ty, pool in (("float", F32_R), ("double", F64), ("half", f16pool)):
        # frexp.mant: the ISA returns NaNs unchanged, LLVM quiets signaling
        # ones; those are in the doc suite.
        for nm in ("fract", "frexp.mant"):
            name = "llvm.amdgcn.%s.%s" % (nm, short(ty))
            ops.append(Op(name, [ty], ty,
                          [(v,) for v in pool if nm == "fract" or
                           not is_snan(ty, v)],
                          call(name, ty, 1)))
        name = "llvm.amdgcn.frexp.exp.i32.%s" % short(ty)
        ops.append(Op(name, [ty], "i32", [(v,) for v in pool],
                      call(name, "i32", 1)))
        name = "llvm.amdgcn.class.%s" % short(ty)
        ops.append(Op(name, [ty, "i32"], "i1",
                      [(v, 1 << k) for v in pool for k in range(10)] +
                      [(v, 0x3ff) for v in pool[:4]],
                      call(name, "i1", 2)))
    for nm, ty in (("s.quadmask", "i32"), ("s.quadmask", "i64"),
                   ("s.wqm", "i32"), ("s.wqm", "i64")):
        vals = I32_R if ty == "i32" else [R.getrandbits(64) for _ in range(40)] \
            + [0, mask(64), 0x8000000000000001, 0x0f0f0f0f0f0f0f0f]
        ops.append(Op("llvm.amdgcn.%s.%s" % (nm, ty), [ty], ty,
                      [(v,) for v in vals],
                      call("llvm.amdgcn.%s.%s" % (nm, ty), ty, 1)))
    ops.append(Op("llvm.amdgcn.s.bitreplicate", ["i32"], "i64",
                  [(v,) for v in I32_R],
                  call("llvm.amdgcn.s.bitreplicate", "i64", 1)))
    # Generic LLVM intrinsics.
    for op in ("add", "mul", "and", "or", "xor", "smin", "smax", "umin",
               "umax"):
        for ety, cnt in (("i32", 4), ("i8", 8), ("i64", 3), ("i16", 5)):
            b = WIDTH[ety]
            pool = [v & mask(b) for v in I32_R] + [mask(b), 1 << (b - 1)]
            if b == 64:
                pool += [R.getrandbits(64) for _ in range(8)]
            cases = [tuple(R.choice(pool) for _ in range(cnt))
                     for _ in range(16)]
            ops.append(Op("llvm.vector.reduce.%s.v%d%s" % (op, cnt, ety),
                          [ety] * cnt, ety, cases,
                          reduce_call(op, ety, cnt)))
    # FP reductions: LLVM does not fold them; the const kernel holds the
    # LangRef's scalar chain. Signaling NaNs are left out of the maxnum/
    # minnum ones (LLVM does not fold maxnum on them; the LangRef lets
    # either the quiet NaN or the other operand be returned).
    fpools = {"float": [b for b in F32_R if not issnan32(b)],
              "double": [b for b in F64 if b != 0x7ff4000000000001],
              "half": f16pool}
    for op in ("fadd", "fmul", "fmax", "fmin", "fmaximum", "fminimum"):
        for ety, cnt in (("float", 4), ("double", 3), ("half", 4)):
            start = op in ("fadd", "fmul")
            n = cnt + (1 if start else 0)
            cases = [tuple(R.choice(fpools[ety]) for _ in range(n))
                     for _ in range(24)]
            ops.append(Op("llvm.vector.reduce.%s.v%d%s" % (op, cnt, short(ety)),
                          [ety] * n, ety, cases,
                          reduce_call(op, ety, cnt, start),
                          reduce_chain(op, ety), nan_loose=start))
    for nm in ("scmp", "ucmp"):
        for rty, aty in (("i8", "i32"), ("i32", "i32"), ("i8", "i64"),
                         ("i16", "i8")):
            b = WIDTH[aty]
            pool = [v & mask(b) for v in I32] + [mask(b), 1 << (b - 1)]
            ops.append(Op("llvm.%s.%s.%s" % (nm, rty, aty), [aty, aty], rty,
                          pairs(pool, pool, 120),
                          call("llvm.%s.%s.%s" % (nm, rty, aty), rty, 2)))
    for nm in ("fptosi", "fptoui"):
        for rty, aty, pool in (("i32", "float", F32_R), ("i8", "float", F32_R),
                               ("i64", "double", F64 + [f64bits(x) for x in (
                                   -1.5, -0.5, 255.5, 256.0, -128.5, 1e19,
                                   -9.3e18, 1.8446744073709552e19)]),
                               ("i16", "double", F64 + [f64bits(x) for x in (
                                   32767.9, 32768.0, -32768.9, 65535.5,
                                   65536.0, -1.0)]),
                               ("i32", "half", f16pool)):
            name = "llvm.%s.sat.%s.%s" % (nm, rty, short(aty))
            ops.append(Op(name, [aty], rty, [(v,) for v in pool],
                          call(name, rty, 1)))
    return ops


# ---------------------------------------------------------------------------
# Suite "doc": Python models of the ISA pseudocode (CDNA3 and RDNA4 guides)
# ---------------------------------------------------------------------------


def sext(v, b):
    v &= mask(b)
    return v - (1 << b) if v >> (b - 1) else v


def ref_alignbyte(a, b, c):
    # V_ALIGNBYTE_B32: ({S0, S1} >> (S2[1:0] * 8)) & 0xffffffff
    return (((a << 32) | b) >> ((c & 3) * 8)) & mask(32)


def ref_lerp(a, b, c):
    # V_LERP_U8: per byte (S0 + S1 + S2[8i]) >> 1
    r = 0
    for i in range(4):
        s = ((a >> 8 * i) & 255) + ((b >> 8 * i) & 255) + ((c >> 8 * i) & 1)
        r |= (s >> 1) << (8 * i)
    return r


def absdiff(x, y):
    return x - y if x > y else y - x


def ref_sad_u8(a, b, c, masked=False):
    t = c
    for i in range(4):
        x, y = (a >> 8 * i) & 255, (b >> 8 * i) & 255
        if masked and y == 0:
            continue
        t += absdiff(x, y)
    return t & mask(32)


def ref_sad_hi_u8(a, b, c):
    return ((ref_sad_u8(a, b, 0) << 16) + c) & mask(32)


def ref_sad_u16(a, b, c):
    return (c + absdiff(a & 0xffff, b & 0xffff) + absdiff(a >> 16, b >> 16)) \
        & mask(32)


def ref_mul24(a, b, signed, hi, wide):
    x, y = a & 0xffffff, b & 0xffffff
    if signed:
        x, y = sext(x, 24), sext(y, 24)
    p = (x * y) & mask(64)
    if wide:
        return p
    return (p >> 32) & mask(32) if hi else p & mask(32)


def ref_ffbh_i32(a):
    # V_FFBH_I32: first bit (from bit 30 down) that differs from bit 31.
    for i in range(1, 32):
        if (a >> (31 - i)) & 1 != a >> 31:
            return i
    return mask(32)


def ref_cvt_pk(a, b, signed):
    def one(v):
        if signed:
            return max(-32768, min(32767, sext(v, 32))) & 0xffff
        return min(v, 0xffff)
    return one(a) | one(b) << 16


FMT = {16: (5, 10), 32: (8, 23), 64: (11, 52)}


def ref_div_fixup(q, d, n, bits):
    eb, mb = FMT[bits]
    sign = 1 << (bits - 1)
    emax = mask(eb)

    def exp(v):
        return (v >> mb) & emax

    def nan(v):
        return exp(v) == emax and v & mask(mb)

    def inf(v):
        return exp(v) == emax and not v & mask(mb)

    def zero(v):
        return not v & (sign - 1)
    so = (d ^ n) & sign
    if nan(n):
        return n | 1 << (mb - 1)
    if nan(d):
        return d | 1 << (mb - 1)
    if (zero(d) and zero(n)) or (inf(d) and inf(n)):
        return sign | emax << mb | 1 << (mb - 1)
    if zero(d) or inf(n):
        return so | emax << mb
    if inf(d) or zero(n):
        return so
    under = {32: -150, 64: -1075}.get(bits)
    if under is not None and exp(n) - exp(d) < under:
        return None   # UNDERFLOW_F32/F64: not defined by the ISA
    return so | (q & (sign - 1))


def twopi_bits():
    """The first 1201 fraction bits of 2/pi, computed here with Python's
    integers (pi = 16 atan(1/5) - 4 atan(1/239))."""
    prec = 1300
    one = 1 << prec

    def atan_inv(x):
        total = term = one // x
        k, s = 1, -1
        while term:
            term //= x * x
            total += s * (term // (2 * k + 1))
            s, k = -s, k + 1
        return total
    pi = 16 * atan_inv(5) - 4 * atan_inv(239)
    return (2 * one << 1201) // pi   # floor(2/pi * 2^1201)


TWOPI = twopi_bits()


def ref_trig_preop(x, seg):
    # shift = S1[4:0] * 53 (+ exponent - 1077); 53 bits of 2/pi after
    # `shift` fraction bits, times 2^(-53 - shift) (+128 if exponent >= 1968).
    e = (x >> 52) & 0x7ff
    shift = (seg & 31) * 53 + (e - 1077 if e > 1077 else 0)
    lo = 1201 - shift - 53
    w = (TWOPI >> lo) & mask(53) if lo >= 0 else (TWOPI << -lo) & mask(53)
    scale = -53 - shift + (128 if e >= 1968 else 0)
    return f64bits(math.ldexp(float(w), scale))


def ref_div_fmas(a, b, c, vcc, bits=32):
    """V_DIV_FMAS_F32/F64: fma(S0, S1, S2), times 2^32 (f64: 2^64) when VCC
    is set. None for the cases left out: NaN results (the host's default
    NaN is not the GPU's) and underflowing fmas with VCC set (not
    modelled)."""
    val = f32val if bits == 32 else f64val
    eb, mb = FMT[bits]
    emin = 2 - (1 << (eb - 1))          # -126 / -1022
    sign = 1 << (bits - 1)
    fa, fb, fc = val(a), val(b), val(c)
    if any(math.isnan(v) for v in (fa, fb, fc)):
        return None
    if any(math.isinf(v) for v in (fa, fb, fc)):
        r = fa * fb + fc
        if math.isnan(r):
            return None
        return (sign if r < 0 else 0) | mask(eb) << mb
    exact = Fraction(fa) * Fraction(fb) + Fraction(fc)
    if exact == 0:
        pzero = fa == 0 or fb == 0
        r = sign if pzero and (a ^ b) & sign and fc == 0 and c & sign else 0
    else:
        r = round_fp(exact, bits)
    if not vcc:
        return r
    if exact != 0 and abs(exact) <= Fraction(2) ** emin and \
            Fraction(val(r)) != exact:
        return None
    if r & ~sign == mask(eb) << mb:
        return r
    return round_fp(Fraction(val(r)) * 2 ** (bits), bits) if val(r) else r


def round_fp(q, bits):
    """Round a nonzero Fraction to the nearest f32/f64 (ties to even), as
    bits."""
    eb, mb = FMT[bits]
    emin, emax = 2 - (1 << (eb - 1)), (1 << (eb - 1)) - 1
    s = 1 << (bits - 1) if q < 0 else 0
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - mb)
    m = q / ulp
    n = int(m)
    rem = m - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1):
        n += 1
    v = n * ulp
    if v >= Fraction(2) ** (emax + 1):
        return s | mask(eb) << mb
    if bits == 32:
        return s | f32bits(float(v))
    return s | f64bits(float(v))


def ref_min_ieee(a, b):
    # V_MIN_F32 with WAVE_MODE.IEEE: signaling NaNs (S0 first) come out
    # quieted, a quiet NaN gives the other operand, -0 < +0.
    if issnan32(a):
        return a | 0x400000
    if issnan32(b):
        return b | 0x400000
    if isnan32(a):
        return b
    if isnan32(b):
        return a
    x, y = f32val(a), f32val(b)
    if x == y:
        return a if a & 0x80000000 else b
    return a if x < y else b


def ref_med3_ieee(a, b, c):
    # V_MED3_F32 with a NaN operand: v_min3_f32(S0, S1, S2).
    return ref_min_ieee(ref_min_ieee(a, b), c)


def doc_ops():
    ops = []
    i3 = triples(I32_R, I32_R, I32_R, 300)
    spec3 = [(a, b, c) for a in I32[::3] for b in I32[1::4] for c in
             (0, 1, 2, 3, 4, 5, 0x100, 0xffffffff, 0x01010101)][:400]
    for nm, fn in (("alignbyte", ref_alignbyte), ("lerp", ref_lerp),
                   ("sad.u8", ref_sad_u8), ("sad.hi.u8", ref_sad_hi_u8),
                   ("sad.u16", ref_sad_u16),
                   ("msad.u8", lambda a, b, c: ref_sad_u8(a, b, c, True))):
        ops.append(Op("llvm.amdgcn.%s" % nm, ["i32"] * 3, "i32", i3 + spec3,
                      call("llvm.amdgcn.%s" % nm, "i32", 3), ref=fn))
    i2 = pairs(I32_R, I32_R, 500)
    for nm, s, hi, rty in (("mul.u24.i32", 0, 0, "i32"),
                           ("mul.i24.i32", 1, 0, "i32"),
                           ("mul.u24.i64", 0, 0, "i64"),
                           ("mul.i24.i64", 1, 0, "i64"),
                           ("mulhi.u24", 0, 1, "i32"),
                           ("mulhi.i24", 1, 1, "i32")):
        ops.append(Op("llvm.amdgcn.%s" % nm, ["i32"] * 2, rty, i2,
                      call("llvm.amdgcn.%s" % nm, rty, 2),
                      ref=lambda a, b, s=s, hi=hi, w=rty == "i64":
                      ref_mul24(a, b, s, hi, w)))
    ops.append(Op("llvm.amdgcn.sffbh.i32", ["i32"], "i32",
                  [(v,) for v in I32_R] + [(0x40000000,), (0x0fffffff,),
                                           (0xffff0000,)],
                  call("llvm.amdgcn.sffbh.i32", "i32", 1), ref=ref_ffbh_i32))
    for nm, s in (("cvt.pk.i16", True), ("cvt.pk.u16", False)):
        ops.append(Op("llvm.amdgcn.%s" % nm, ["i32"] * 2, "<2 x i16>", i2,
                      call("llvm.amdgcn.%s" % nm, "<2 x i16>", 2),
                      ref=lambda a, b, s=s: ref_cvt_pk(a, b, s)))
    f16 = [0, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0xfe55,
           0x0001, 0x03ff, 0x0400, 0x7bff, 0x3555, 0x4248, 0xc000, 0x3800]
    for ty, pool in (("half", f16), ("float", F32_R), ("double", F64)):
        b = WIDTH[ty]
        cases = [c for c in triples(pool, pool, pool, 300)
                 if ref_div_fixup(c[0], c[1], c[2], b) is not None]
        name = "llvm.amdgcn.div.fixup.%s" % short(ty)
        ops.append(Op(name, [ty] * 3, ty, cases, call(name, ty, 3),
                      ref=lambda q, d, n, b=b: ref_div_fixup(q, d, n, b)))
    # trig.preop inputs LLVM's folder disagrees on (NaN; shift 1120..1200)
    # and a sample of ordinary ones.
    tp = [(x, seg) for x in (0x7ff8000000000000, 0xfff0000000000001,
                             0x7ff4000000000000, 0x3ff0000000000000,
                             0x7fefffffffffffff, 0x4350000000000000)
          for seg in range(0, 32)]
    tp += [(R.getrandbits(64), R.getrandbits(32)) for _ in range(80)]
    ops.append(Op("llvm.amdgcn.trig.preop.f64", ["double", "i32"], "double",
                  tp, call("llvm.amdgcn.trig.preop.f64", "double", 2),
                  ref=ref_trig_preop))
    # fma.legacy with a +-0 factor: the ISA's V_FMA_DX9_ZERO_F32 returns S2
    # itself (LLVM's folder returns +0.0 + S2; see AMDGPUTarget.cpp).
    zl = [(z, x, c) for z in (0, 0x80000000) for x in F32[::2]
          for c in (0x80000000, 0x7f800001, 0xff812345, 0x3f800000, 0)]
    zl += [(x, z, c) for z, x, c in zl]
    ops.append(Op("llvm.amdgcn.fma.legacy", ["float"] * 3, "float", zl,
                  call("llvm.amdgcn.fma.legacy", "float", 3),
                  ref=lambda a, b, c: c))
    # fmed3 with NaN operands (gfx942: IEEE mode) and frexp.mant of
    # signaling NaNs.
    f32n = [0x7fc00000, 0x7f800001, 0xffc12345, 0xff812345]
    f32o = [0, 0x80000000, 0x7f800000, 0xff800000, 0x3f800000, 0xc0490fdb,
            0x00000001, 0x7f7fffff]
    med = [(a, b, c) for a in f32n + f32o for b in f32n + f32o
           for c in f32n + f32o
           if isnan32(a) or isnan32(b) or isnan32(c)]
    ops.append(Op("llvm.amdgcn.fmed3.f32", ["float"] * 3, "float", med,
                  call("llvm.amdgcn.fmed3.f32", "float", 3),
                  ref=ref_med3_ieee))
    for ty, vals in (("float", [0x7f800001, 0xff812345, 0x7fa00000]),
                     ("double", [0x7ff4000000000001, 0xfff0000000000123]),
                     ("half", [0x7c01, 0xfd55])):
        name = "llvm.amdgcn.frexp.mant.%s" % short(ty)
        ops.append(Op(name, [ty], ty, [(v,) for v in vals],
                      call(name, ty, 1), ref=lambda v: v))
    fm = []
    for a, b, c in triples(F32[:12] + F32[16:22], F32_R, F32_R, 400):
        for vcc in (0, 1):
            if ref_div_fmas(a, b, c, vcc) is not None:
                fm.append((a, b, c, vcc))
    ops.append(Op("llvm.amdgcn.div.fmas.f32", ["float"] * 3 + ["i1"],
                  "float", fm, call("llvm.amdgcn.div.fmas.f32", "float", 4),
                  ref=ref_div_fmas))
    f64s = F64 + [R.getrandbits(64) for _ in range(12)] + \
        [f64bits(R.uniform(-8, 8)) for _ in range(12)]
    fm = []
    for a, b, c in triples(f64s, f64s, f64s, 400):
        for vcc in (0, 1):
            if ref_div_fmas(a, b, c, vcc, 64) is not None:
                fm.append((a, b, c, vcc))
    ops.append(Op("llvm.amdgcn.div.fmas.f64", ["double"] * 3 + ["i1"],
                  "double", fm, call("llvm.amdgcn.div.fmas.f64", "double", 4),
                  ref=lambda a, b, c, v: ref_div_fmas(a, b, c, v, 64)))
    return ops


# ---------------------------------------------------------------------------
# Emission and checking
# ---------------------------------------------------------------------------


def all_cases(ops):
    for op in ops:
        for c in op.cases:
            yield op, c


def emit(ops, mode, inputs):
    lines = ['target triple = "amdgcn-amd-amdhsa"', "",
             "define amdgpu_kernel void @alu(ptr addrspace(1) %out, "
             "ptr addrspace(1) %in) {", "entry:"]
    slot, words = 0, []
    for n, (op, c) in enumerate(all_cases(ops)):
        vals = []
        for k, (ty, bits) in enumerate(zip(op.argtys, c)):
            bits &= mask(WIDTH[ty])
            if mode == "const":
                vals.append(const(ty, bits))
                continue
            it = intty(ty)
            lines.append("  %%ip%d.%d = getelementptr i64, ptr addrspace(1) "
                         "%%in, i64 %d" % (n, k, slot))
            lines.append("  %%iw%d.%d = load i64, ptr addrspace(1) %%ip%d.%d, "
                         "align 8" % (n, k, n, k))
            src = "%%iw%d.%d" % (n, k)
            if it != "i64":
                lines.append("  %%it%d.%d = trunc i64 %s to %s" % (n, k, src, it))
                src = "%%it%d.%d" % (n, k)
            if it != ty:
                lines.append("  %%ib%d.%d = bitcast %s %s to %s" %
                             (n, k, it, src, ty))
                src = "%%ib%d.%d" % (n, k)
            vals.append("%s %s" % (ty, src))
            words.append(bits)
            slot += 1
        build = op.const_build if mode == "const" else op.build
        body, res = build(vals, n)
        lines += body
        rt = op.retty
        if rt in FLOATS or rt.startswith("<"):
            lines.append("  %%rb%d = bitcast %s %s to %s" % (n, rt, res, intty(rt)))
            res, rt = "%%rb%d" % n, intty(rt)
        if rt != "i64":
            lines.append("  %%rz%d = zext %s %s to i64" % (n, rt, res))
            res = "%%rz%d" % n
        lines.append("  %%op%d = getelementptr i64, ptr addrspace(1) %%out, "
                     "i64 %d" % (n, n))
        lines.append("  store i64 %s, ptr addrspace(1) %%op%d, align 8" % (res, n))
    assert n < OUT_SLOTS and slot <= IN_SLOTS, (n, slot)
    lines += ["  ret void", "}"]
    if inputs:
        words += [0] * (IN_SLOTS - len(words))
        with open(inputs, "wb") as f:
            f.write(struct.pack("<%dQ" % len(words), *words))
    return "\n".join(lines) + "\n"


def is_nan(ty, bits):
    if ty not in FLOATS:
        return False
    eb, mb = FMT[WIDTH[ty]]
    return (bits >> mb) & mask(eb) == mask(eb) and bits & mask(mb) != 0


def is_snan(ty, bits):
    return is_nan(ty, bits) and not bits >> (FMT[WIDTH[ty]][1] - 1) & 1


def read_words(path):
    data = open(path, "rb").read()
    return struct.unpack("<%dQ" % (len(data) // 8), data)


def check(ops, suite, a):
    got = read_words(a.exec)
    if suite == "fold":
        text = open(a.folded).read()
        unfolded = [l.strip() for l in text.splitlines()
                    if re.search(r"call .*@llvm\.(amdgcn|vector|[su]cmp|fpto|"
                                 r"maxnum|minnum|maximum|minimum)", l)]
        want = read_words(a.llvm)
    bad, count, loose, per = 0, 0, 0, {}
    for n, (op, c) in enumerate(all_cases(ops)):
        count += 1
        w = WIDTH[op.retty] if op.retty in WIDTH else int(op.retty[1:])
        if suite == "fold":
            exp = want[n]
        else:
            exp = op.ref(*c)
        exp &= mask(w)
        per[op.name] = per.get(op.name, 0) + 1
        if op.nan_loose and is_nan(op.retty, exp) and is_nan(op.retty, got[n]):
            loose += int(got[n] != exp)
            continue
        if got[n] != exp:
            bad += 1
            if bad <= 40:
                print("MISMATCH %s(%s): %s %#x, crosslane-run %#x" %
                      (op.name, ", ".join("%#x" % x for x in c),
                       "LLVM" if suite == "fold" else "ISA", exp, got[n]))
    print("%d intrinsics/types" % len(per))
    if suite == "fold":
        for l in unfolded[:10]:
            print("NOT FOLDED: " + l)
        print("%d calls left unfolded by LLVM" % len(unfolded))
    if loose:
        print("%d NaN results with another sign or payload (allowed)" % loose)
    print("%d cases, %d mismatches" % (count, bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--suite", choices=["fold", "doc"], required=True)
    ap.add_argument("--emit", choices=["const", "buffer"])
    ap.add_argument("--inputs")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--folded")
    ap.add_argument("--llvm")
    ap.add_argument("--exec")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    ops = fold_ops() if a.suite == "fold" else doc_ops()
    if a.list:
        for op in ops:
            print("%s: %d cases" % (op.name, len(op.cases)))
        return 0
    if a.emit:
        sys.stdout.write(emit(ops, a.emit, a.inputs))
        return 0
    return check(ops, a.suite, a)


if __name__ == "__main__":
    sys.exit(main())
