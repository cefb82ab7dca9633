#!/usr/bin/env python3
"""Reference of examples/ballot_argmax.hip (file format: _common.py).

ballot_argmax_firstlane / ballot_argmax_minidx:
  --param n=N --in in=f32[nrows*N] --out out=i64[nrows]  (--wave matters
  for firstlane: lane L scans x[L], x[L+W], ...)
minidx:    first index of the max of the non-NaN values; 0 if none > -inf.
firstlane: the first index, within its own lane, of the LOWEST lane that
           holds the wave max; 0 if no element is > -inf.
The reference simulates the lanes (--wave, --bpermute).
"""
import sys
import _common as C

SPEC = {
    "ballot_argmax_firstlane": {"ins": {"in": "f32"}, "outs": {"out": "i64"},
                                "params": ["n"], "wave_dependent": True},
    "ballot_argmax_minidx": {"ins": {"in": "f32"}, "outs": {"out": "i64"},
                             "params": ["n"], "wave_dependent": False},
}


def lane_scans(vals, wave):
    scans = []
    for lane in range(wave):
        m, idx = float("-inf"), 0
        for i in range(lane, len(vals), wave):
            if vals[i] > m:
                m, idx = vals[i], i
        scans.append((m, idx))
    return scans


def row_result(kernel, vals, wave):
    """The kernel lane by lane (per-lane wave max: with --bpermute=halves the
    two 32-lane halves never exchange values)."""
    L = C.Lanes(wave)
    scans = lane_scans(vals, wave)
    wg = [m for m, _ in scans]
    off = wave // 2
    while off > 0:  # maxnum butterfly; values are never NaN here
        wg = [max(a, b) for a, b in zip(wg, L.shfl_xor(wg, off))]
        off //= 2
    tied_lanes = [l for l in range(wave) if scans[l][0] == wg[l]]  # the ballot
    first = tied_lanes[0]
    if kernel == "ballot_argmax_firstlane":
        return scans[first][1]
    idx = [i for _, i in scans]
    if len(tied_lanes) > 1:
        idx = [idx[l] if scans[l][0] == wg[l] else C.INT64_MAX for l in range(wave)]
        off = wave // 2
        while off > 0:
            idx = [min(a, b) for a, b in zip(idx, L.shfl_xor(idx, off))]
            off //= 2
    else:
        idx = L.shfl(idx, first)
    return idx[0]


def reference(kernel, bufs, params, wave, grid, block):
    n = params["n"]
    x = [C.f32(b) for b in bufs["in"]]
    return {"out": [row_result(kernel, row, wave) for row in C.rows(x, n)]}


def cases(rng, wave):
    sets = []
    for kernel in ("ballot_argmax_firstlane", "ballot_argmax_minidx"):
        for n in C.sizes_for(wave) + [500]:
            rows = C.row_patterns(rng, n, wave)
            x = [b for _, row in rows for b in row]
            sets.append({
                "buffers": {"in": ["f32", x], "out": ["i64", [-7] * len(rows)]},
                "launches": [{"kernel": kernel, "grid": len(rows), "block": wave,
                              "args": ["buf:in", "buf:out", "i32:%d" % n]}],
                "ref": {"kernel": kernel, "params": {"n": n}, "ins": ["in"], "outs": ["out"],
                        "grid": len(rows), "block": wave},
                "units": [["n=%d %s" % (n, lab), {"out": [r, 1]}] for r, (lab, _) in enumerate(rows)],
            })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
