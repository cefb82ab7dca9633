"""Shared helpers of the example references (python3 standard library only).

File format
-----------
Every buffer is a raw file of little-endian elements, no header; the element
count is the file size divided by the element size. Element types:

  f32  IEEE binary32 (handled as its 32-bit pattern, so NaN payloads survive)
  f16  IEEE binary16 (16-bit pattern)
  i32  two's complement 32-bit      i64  two's complement 64-bit
  u64  unsigned 64-bit

Reference command line (every examples/reference/<name>.py)
------------------------------------------------------------
  python3 <name>.py --kernel=K [--wave=32|64] [--grid=G] [--block=B]
                    [--param NAME=INT ...] --in NAME=PATH ... --out NAME=PATH ...

reads the kernel's input buffers, computes what kernel K writes (its exact
semantics, see the .hip header comment) and writes the output buffers.
--wave matters only for the kernels whose result depends on the wave size.
--bpermute=halves models GFX10+ in wave64, where ds_bpermute (which ROCm
5.2's __shfl, __shfl_xor and __shfl_down use) only reads within the lane's
own 32-lane half: the references simulate the kernels' cross-lane steps
lane by lane through Lanes below, so they give what the kernel computes on
such a chip (not the idealised result). Default: full (gfx9 wave64, wave32).
`python3 <name>.py --list` prints the kernels with their buffers/params.

Module interface (used by harness.py)
-------------------------------------
  SPEC = {kernel: {"ins": {name: dtype}, "outs": {name: dtype},
                   "params": [names], "wave_dependent": bool}}
  reference(kernel, bufs, params, wave, grid, block) -> {out_name: [elems]}
  cases(rng, wave) -> list of "launch sets" (see harness.py)
Float elements are passed as bit patterns; use f32()/f16()/bits32().
"""

import argparse
import math
import struct
import sys

FMT = {"f32": "<I", "f16": "<H", "i32": "<i", "i64": "<q", "u64": "<Q"}
SIZE = {"f32": 4, "f16": 2, "i32": 4, "i64": 8, "u64": 8}

NEG_INF = 0xFF800000
POS_INF = 0x7F800000
QNAN = 0x7FC00000
NEG_QNAN = 0xFFC00000
FLT_MAX = 0x7F7FFFFF
NEG_FLT_MAX = 0xFF7FFFFF
NEG_ZERO = 0x80000000
POS_ZERO = 0x00000000

INT64_MAX = (1 << 63) - 1


def f32(bits):
    """Bit pattern -> Python float (exact)."""
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def f16(bits):
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


def bits32(x):
    """Python float -> binary32 bit pattern, rounding to nearest even."""
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:  # rounds to +-inf
        return NEG_INF if x < 0 else POS_INF


def round32(x):
    """Round a Python float to the nearest binary32 value."""
    return f32(bits32(x))


def isnan(x):
    return x != x


def read_array(path, dtype):
    with open(path, "rb") as fh:
        data = fh.read()
    size = SIZE[dtype]
    if len(data) % size:
        raise SystemExit("%s: %d bytes is not a multiple of %s" % (path, len(data), dtype))
    fmt = FMT[dtype]
    return [struct.unpack_from(fmt, data, k * size)[0] for k in range(len(data) // size)]


def pack_array(values, dtype):
    fmt = FMT[dtype]
    out = bytearray()
    for v in values:
        if dtype == "f32":
            v &= 0xFFFFFFFF
        elif dtype == "f16":
            v &= 0xFFFF
        out += struct.pack(fmt, v)
    return bytes(out)


def write_array(path, values, dtype):
    with open(path, "wb") as fh:
        fh.write(pack_array(values, dtype))


def main(spec, reference):
    ap = argparse.ArgumentParser(description="Host reference of an example kernel "
                                 "(file format: see examples/reference/_common.py)")
    ap.add_argument("--kernel")
    ap.add_argument("--wave", type=int, choices=(32, 64), default=64)
    ap.add_argument("--grid", type=int, default=1)
    ap.add_argument("--block", type=int, default=64)
    ap.add_argument("--param", action="append", default=[], metavar="NAME=INT")
    ap.add_argument("--in", dest="ins", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--out", dest="outs", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--bpermute", choices=("full", "halves"), default="full")
    ap.add_argument("--list", action="store_true", help="list kernels and exit")
    a = ap.parse_args()
    if a.list or not a.kernel:
        for k, s in spec.items():
            print("%s: ins %s outs %s params %s%s" % (
                k, s["ins"], s["outs"], s["params"],
                " (wave dependent)" if s.get("wave_dependent") else ""))
        return 0
    if a.kernel not in spec:
        raise SystemExit("unknown kernel %r (--list)" % a.kernel)
    s = spec[a.kernel]
    global BPERMUTE_HALVES
    BPERMUTE_HALVES = a.bpermute == "halves"
    params = {}
    for p in a.param:
        k, v = p.split("=", 1)
        params[k] = int(v, 0)
    missing = [p for p in s["params"] if p not in params]
    if missing:
        raise SystemExit("missing --param %s" % ", ".join(missing))
    bufs = {}
    for item in a.ins:
        k, path = item.split("=", 1)
        if k not in s["ins"]:
            raise SystemExit("kernel %s has no input buffer %r" % (a.kernel, k))
        bufs[k] = read_array(path, s["ins"][k])
    missing = [k for k in s["ins"] if k not in bufs]
    if missing:
        raise SystemExit("missing --in %s" % ", ".join(missing))
    res = reference(a.kernel, bufs, params, a.wave, a.grid, a.block)
    for item in a.outs:
        k, path = item.split("=", 1)
        if k not in s["outs"]:
            raise SystemExit("kernel %s has no output buffer %r" % (a.kernel, k))
        write_array(path, res[k], s["outs"][k])
    return 0


# ---------------------------------------------------------------------------
# Cross-lane steps, lane by lane, as ROCm 5.2's HIP headers implement them.
# ---------------------------------------------------------------------------

BPERMUTE_HALVES = False  # set by --bpermute=halves


class Lanes:
    """One wave of W lanes; values are per-lane Python objects (tuples are
    shuffled as a whole, as the kernels shuffle each part with one index)."""

    def __init__(self, wave):
        self.W = wave
        self.halves = BPERMUTE_HALVES and wave == 64

    def bpermute(self, vals, index):
        """ds_bpermute: lane L reads vals[index[L] mod W] (GFX10+ wave64:
        within L's own 32-lane half)."""
        out = []
        for L in range(self.W):
            t = index[L] & (self.W - 1)
            if self.halves:
                t = (L & 32) | (t & 31)
            out.append(vals[t])
        return out

    def shfl_xor(self, vals, mask, width=None):
        w = width or self.W
        idx = []
        for L in range(self.W):
            i = L ^ mask
            idx.append(L if i >= ((L + w) & ~(w - 1)) else i)
        return self.bpermute(vals, idx)

    def shfl_down(self, vals, delta, width=None):
        w = width or self.W
        return self.bpermute(vals, [L if (L & (w - 1)) + delta >= w else L + delta
                                    for L in range(self.W)])

    def butterfly(self, vals, take, down=False):
        """Offsets W/2, ..., 1: every lane becomes take(own, read), where
        read comes from __shfl_xor (or __shfl_down)."""
        o = self.W // 2
        while o > 0:
            src = self.shfl_down(vals, o) if down else self.shfl_xor(vals, o)
            vals = [take(m, s) for m, s in zip(vals, src)]
            o //= 2
        return vals

    def shfl(self, vals, src, width=None):
        w = width or self.W
        return self.bpermute(vals, [src + (L & ~(w - 1)) for L in range(self.W)])


# ---------------------------------------------------------------------------
# Input generation shared by the families: 1-D float rows, as bit patterns.
# ---------------------------------------------------------------------------

def rand_f32(rng, scale=8.0):
    return bits32(rng.gauss(0.0, scale))


def row_patterns(rng, n, wave):
    """(label, bits) rows of length n: random and adversarial."""
    rows = []
    rows.append(("random", [rand_f32(rng) for _ in range(n)]))
    rows.append(("random-small-ints", [bits32(float(rng.randint(-3, 3))) for _ in range(n)]))
    rows.append(("all-equal", [bits32(1.5)] * n))
    # The maximum at several positions in different lanes.
    r = [bits32(float(rng.randint(-50, 50))) for _ in range(n)]
    pos = sorted(rng.sample(range(n), min(n, 3)))
    for p in pos:
        r[p] = bits32(100.0)
    rows.append(("ties-across-lanes", r))
    if n > wave + 2:
        # The first max sits in a higher lane than a later one (lane order
        # differs from index order).
        r = [bits32(0.0)] * n
        r[2] = bits32(7.0)
        r[wave + 1] = bits32(7.0)
        rows.append(("tie-lane-order", r))
    r = [rand_f32(rng) for _ in range(n)]
    r[rng.randrange(n)] = QNAN
    rows.append(("nan-at-random", r))
    r = [rand_f32(rng) for _ in range(n)]
    r[0] = QNAN
    rows.append(("nan-at-0", r))
    r = [rand_f32(rng) for _ in range(n)]
    r[n - 1] = NEG_QNAN
    rows.append(("negnan-at-last", r))
    rows.append(("all-nan", [QNAN] * n))
    rows.append(("all-neg-inf", [NEG_INF] * n))
    rows.append(("all-neg-flt-max", [NEG_FLT_MAX] * n))
    rows.append(("neg-inf-and-neg-flt-max", [rng.choice((NEG_INF, NEG_FLT_MAX)) for _ in range(n)]))
    rows.append(("pm-zero", [rng.choice((POS_ZERO, NEG_ZERO)) for _ in range(n)]))
    rows.append(("neg-zero-first", [NEG_ZERO] + [POS_ZERO] * (n - 1)))
    rows.append(("pm-inf", [rng.choice((POS_INF, NEG_INF, bits32(1.0))) for _ in range(n)]))
    rows.append(("nan-and-neg-inf", [rng.choice((QNAN, NEG_INF)) for _ in range(n)]))
    return rows


def sizes_for(wave):
    """n = 1, a non-multiple of the wave size, an exact multiple, a longer row."""
    return [1, 37, 2 * wave, 3 * wave + 5]


def rows(x, n):
    """The rows of a row-major buffer of n-element rows (none when n == 0)."""
    return [x[r * n:(r + 1) * n] for r in range(len(x) // n)] if n else []
