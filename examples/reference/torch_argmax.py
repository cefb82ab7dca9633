#!/usr/bin/env python3
"""Reference of examples/torch_argmax.hip (file format: _common.py).

torch_argmax_f32: --param n=N --in in=f32[nrows*N] --out out=i64[nrows]
torch_argmax_f16: --param n=N --in in=f16[nrows*N] --out out=i64[nrows]
out[r] = torch.argmax(row r): the first NaN if any, else the first index of
the max (-0.0 == +0.0); 0 for an all -inf row. Independent of the wave size
and the block size, except with --bpermute=halves (GFX10+ wave64: the
offset-32 __shfl_down step reads the lane itself); so the reference simulates
the kernel (--wave, --block, --bpermute).
"""
import struct
import sys
import _common as C

SPEC = {
    "torch_argmax_f32": {"ins": {"in": "f32"}, "outs": {"out": "i64"}, "params": ["n"],
                         "wave_dependent": False},
    "torch_argmax_f16": {"ins": {"in": "f16"}, "outs": {"out": "i64"}, "params": ["n"],
                         "wave_dependent": False},
}


def keep_a(a, b):
    """greater_or_nan: should (value, index) pair a be kept over b?"""
    (va, ia), (vb, ib) = a, b
    if C.isnan(va):
        return ib > ia if C.isnan(vb) else True
    return ia < ib if va == vb else va > vb


def combine(a, b):
    return a if keep_a(a, b) else b


def torch_argmax_row(vals, wave, block, VT=4):
    """The kernel, thread by thread and lane by lane."""
    n = len(vals)
    ident = (float("-inf"), 0)
    th = []
    for t in range(block):
        acc = [ident] * VT
        base = t * VT
        while base < n:
            for j in range(VT):
                if base + j < n:
                    acc[j] = combine(acc[j], (vals[base + j], base + j))
            base += block * VT
        v = acc[0]
        for j in range(1, VT):
            v = combine(v, acc[j])
        th.append(v)
    if block > wave:  # shared-memory tree down to one wave
        s = list(th)
        off = block // 2
        while off >= wave:
            for t in range(off):
                s[t] = combine(s[t], s[t + off])
            off //= 2
        th = s
    lanes = th[:wave]
    L = C.Lanes(wave)
    off = 1
    while off < min(block, wave):  # __shfl_down ladder, increasing offsets
        lanes = [combine(x, y) for x, y in zip(lanes, L.shfl_down(lanes, off))]
        off <<= 1
    return lanes[0][1]


def reference(kernel, bufs, params, wave, grid, block):
    n = params["n"]
    conv = C.f32 if kernel.endswith("f32") else C.f16
    x = [conv(b) for b in bufs["in"]]
    return {"out": [torch_argmax_row(row, wave, block) for row in C.rows(x, n)]}


def to_f16_bits(b32):
    """binary32 pattern -> binary16 pattern for the generated rows."""
    if b32 == C.FLT_MAX:
        return 0x7BFF
    if b32 == C.NEG_FLT_MAX:
        return 0xFBFF
    v = C.f32(b32)
    if C.isnan(v):
        return 0xFE00 if b32 & 0x80000000 else 0x7E00
    try:
        return struct.unpack("<H", struct.pack("<e", v))[0]
    except OverflowError:
        return 0xFC00 if v < 0 else 0x7C00


def cases(rng, wave):
    sets = []
    for kernel, dt in (("torch_argmax_f32", "f32"), ("torch_argmax_f16", "f16")):
        for si, n in enumerate(C.sizes_for(wave) + [700]):
            block = [wave, 2 * wave, 4 * wave, wave, 4 * wave][si]
            rows = C.row_patterns(rng, n, wave)
            if dt == "f16":
                rows = [(lab, [to_f16_bits(b) for b in row]) for lab, row in rows]
            x = [b for _, row in rows for b in row]
            sets.append({
                "buffers": {"in": [dt, x], "out": ["i64", [-7] * len(rows)]},
                "launches": [{"kernel": kernel, "grid": len(rows), "block": block,
                              "args": ["buf:in", "buf:out", "i32:%d" % n]}],
                "ref": {"kernel": kernel, "params": {"n": n}, "ins": ["in"], "outs": ["out"],
                        "grid": len(rows), "block": block},
                "units": [["%s n=%d %s" % (dt, n, lab), {"out": [r, 1]}]
                          for r, (lab, _) in enumerate(rows)],
            })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
