#!/usr/bin/env python3
"""Reference of examples/wave_argmax_lane.hip (file format: _common.py).

wave_argmax_lane (WAVE DEPENDENT): --param n=N (N <= W)
  --in x=f32[nrows*N] --out out_val=f32[nrows] --out out_idx=i32[nrows]
tile_argmax_col (WAVE DEPENDENT): --param n=W
  --in x=f32[nrows*W] --out out_val=f32[nrows] --out out_col=i32[nrows]
Simulates the butterfly lane by lane: for o = W/2, ..., 1 every lane takes
its xor partner's (value bits, index) iff the partner's value is greater,
or equal (-0 == +0) with a smaller index; NaN compares false. Lane 0's pair
is the result, value bits kept (--bpermute=halves: within 32-lane halves).
"""
import sys
import _common as C

SPEC = {
    "wave_argmax_lane": {"ins": {"x": "f32"}, "outs": {"out_val": "f32", "out_idx": "i32"},
                         "params": ["n"], "wave_dependent": True},
    "tile_argmax_col": {"ins": {"x": "f32"}, "outs": {"out_val": "f32", "out_col": "i32"},
                        "params": ["n"], "wave_dependent": True},
}


def butterfly(lanes, wave):
    """lanes: [(value, bits, index)]; returns lane 0's (bits, index)."""
    lanes = C.Lanes(wave).butterfly(
        lanes, lambda m, s: s if (s[0] > m[0] or (s[0] == m[0] and s[2] < m[2])) else m)
    return lanes[0][1], lanes[0][2]


def reference(kernel, bufs, params, wave, grid, block):
    n = params["n"]
    x = bufs["x"]
    vals, idxs = [], []
    for row in C.rows(x, n):
        if kernel == "wave_argmax_lane":
            lanes = [(C.f32(row[L]), row[L], L) if L < n else
                     (float("-inf"), C.NEG_INF, -1) for L in range(wave)]
        else:
            lanes = [(C.f32(row[L]), row[L], L % (wave // 2)) for L in range(wave)]
        b, i = butterfly(lanes, wave)
        vals.append(b)
        idxs.append(i)
    out = "out_idx" if kernel == "wave_argmax_lane" else "out_col"
    return {"out_val": vals, out: idxs}


def zero_column_rows(rng, wave):
    """Tile rows whose maximum is 0 with -0 and +0 in one column (the same
    index with different bits), in either lane order."""
    half = wave // 2
    rows = []
    for first, second in ((C.NEG_ZERO, C.POS_ZERO), (C.POS_ZERO, C.NEG_ZERO)):
        for col in (0, 3 % half, half - 1):
            r = [C.bits32(-float(rng.randint(1, 9))) for _ in range(wave)]
            r[col], r[col + half] = first, second
            rows.append(("zero-column-%d-%s" % (col, "neg-first" if first == C.NEG_ZERO
                                                 else "pos-first"), r))
    return rows


def cases(rng, wave):
    sets = []
    for kernel in SPEC:
        sizes = [1, 5, wave // 2 + 3, wave] if kernel == "wave_argmax_lane" else [wave]
        out = "out_idx" if kernel == "wave_argmax_lane" else "out_col"
        for n in sizes:
            rows = C.row_patterns(rng, n, wave)
            if kernel == "tile_argmax_col":
                rows += zero_column_rows(rng, wave)
            x = [b for _, row in rows for b in row]
            R = len(rows)
            args = ["buf:x", "buf:out_val", "buf:" + out]
            if kernel == "wave_argmax_lane":
                args.append("i32:%d" % n)
            sets.append({
                "buffers": {"x": ["f32", x], "out_val": ["f32", [C.bits32(-7.0)] * R],
                            out: ["i32", [-7] * R]},
                "launches": [{"kernel": kernel, "grid": R, "block": wave, "args": args}],
                "ref": {"kernel": kernel, "params": {"n": n}, "ins": ["x"],
                        "outs": ["out_val", out], "grid": R, "block": wave},
                "units": [["%s n=%d %s" % (kernel, n, lab), {"out_val": [r, 1], out: [r, 1]}]
                          for r, (lab, _) in enumerate(rows)],
            })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
