#!/usr/bin/env python3
"""Reference of examples/blas_iamax.hip (file format: _common.py).

iamax: the result of iamax_stage1 (grid G, block B) followed by
  iamax_stage2 (block B2), simulated lane by lane (--wave, --bpermute):
  --param n=N --param incx=INC --param G=. --param B=. --param B2=.
  --in x=f32[...] --out result=i32[1] [--out part_val=f32[G] part_idx=i32[G]]
result = 0 if n <= 0 or incx <= 0; else 1 + the first k whose |x[k*incx]|
is NaN if any; else 1 + the first k with |x[k*incx]| == max. Independent of
the wave size, G and B, except with --bpermute=halves (GFX10+ wave64).
part_val/part_idx: stage 1's per-workgroup candidates, (-1.0, 0) for a
workgroup that owns no element (a "no element" pair must stay one).
"""
import sys
import _common as C

SPEC = {"iamax": {"ins": {"x": "f32"},
                  "outs": {"result": "i32", "part_val": "f32", "part_idx": "i32"},
                  "params": ["n", "incx", "G", "B", "B2"], "wave_dependent": False}}


def better(a, b):
    """iamax_better: should candidate b (value, 1-based index) replace a?"""
    (av, ai), (bv, bi) = a, b
    if bi == 0:
        return False
    if ai == 0:
        return True
    an, bn = C.isnan(av), C.isnan(bv)
    if an or bn:
        return bn and (not an or bi < ai)
    return bv > av or (bv == av and bi < ai)


EMPTY = (-1.0, 0)


def block_reduce(th, wave):
    """The kernel's block_reduce, lane by lane; returns thread 0's candidate."""
    L = C.Lanes(wave)

    def wave_reduce(lanes):
        off = wave // 2
        while off > 0:
            lanes = [o if better(m, o) else m for m, o in zip(lanes, L.shfl_xor(lanes, off))]
            off //= 2
        return lanes

    nwaves = len(th) // wave
    s = [wave_reduce(th[w * wave:(w + 1) * wave])[0] for w in range(nwaves)]
    return wave_reduce([s[l] if l < nwaves else EMPTY for l in range(wave)])[0]


def iamax(xbits, n, incx, G, B, B2, wave):
    """Stage 1 (G workgroups of B) then stage 2 (one workgroup of B2):
    (result, stage 1's candidates)."""
    parts = []
    for g in range(G):
        th = []
        for t in range(B):
            iv = EMPTY
            if incx > 0:
                k = g * B + t
                while k < n:
                    e = (abs(C.f32(xbits[k * incx])), k + 1)
                    if better(iv, e):
                        iv = e
                    k += G * B
            th.append(iv)
        parts.append(block_reduce(th, wave))
    th = []
    for t in range(B2):
        iv = EMPTY
        for p in range(t, G, B2):
            if better(iv, parts[p]):
                iv = parts[p]
        th.append(iv)
    r = block_reduce(th, wave)
    return 0 if (n <= 0 or incx <= 0) else r[1], parts


def iamax_ideal(xbits, n, incx):
    """What BLAS users expect; equal to iamax() unless --bpermute=halves."""
    if n <= 0 or incx <= 0:
        return 0
    best, arg = -1.0, 0
    for k in range(n):
        a = abs(C.f32(xbits[k * incx]))
        if C.isnan(a):
            return k + 1
        if a > best:
            best, arg = a, k + 1
    return arg


def reference(kernel, bufs, params, wave, grid, block):
    r, parts = iamax(bufs["x"], params["n"], params["incx"], params["G"],
                     params["B"], params["B2"], wave)
    return {"result": [r], "part_val": [C.bits32(v) for v, _ in parts],
            "part_idx": [i for _, i in parts]}


def cases(rng, wave):
    sets = []
    shapes = [(1, 1, 1, wave), (37, 1, 2, wave), (37, 2, 1, 2 * wave),
              (3 * wave + 5, 1, 3, 2 * wave), (3 * wave + 5, 3, 2, wave)]
    for n, incx, G, B in shapes:
        for lab, row in C.row_patterns(rng, n, wave):
            # Elements between the strided ones are never read: fill them
            # with values that would win if they were.
            x = [C.QNAN if (i % incx) else row[i // incx] for i in range(n * incx)]
            sets.append(make_set("n=%d incx=%d G=%d B=%d %s" % (n, incx, G, B, lab),
                                 x, n, incx, G, B, wave))
    # BLAS quick returns.
    sets.append(make_set("n=0", [C.bits32(1.0)], 0, 1, 1, wave, wave))
    sets.append(make_set("n=-3", [C.bits32(1.0)], -3, 1, 1, wave, wave))
    sets.append(make_set("incx=0", [C.bits32(1.0)] * 4, 4, 0, 1, wave, wave))
    sets.append(make_set("incx=-1", [C.bits32(1.0)] * 4, 4, -1, 1, wave, wave))
    return sets


def make_set(label, x, n, incx, G, B, wave):
    return {
        "buffers": {"x": ["f32", x], "part_val": ["f32", [C.bits32(-9.0)] * G],
                    "part_idx": ["i32", [-9] * G], "result": ["i32", [-7]]},
        "launches": [
            {"kernel": "iamax_stage1", "grid": G, "block": B,
             "args": ["i32:%d" % n, "buf:x", "i32:%d" % incx, "buf:part_val", "buf:part_idx"]},
            {"kernel": "iamax_stage2", "grid": 1, "block": wave,
             "args": ["i32:%d" % n, "i32:%d" % incx, "i32:%d" % G, "buf:part_val",
                      "buf:part_idx", "buf:result"]},
        ],
        "ref": {"kernel": "iamax", "params": {"n": n, "incx": incx, "G": G, "B": B, "B2": wave},
                "ins": ["x"],
                "outs": ["result", "part_val", "part_idx"]},
        "units": [[label, {"result": [0, 1], "part_val": [0, G], "part_idx": [0, G]}]],
    }


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
