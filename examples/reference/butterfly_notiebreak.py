#!/usr/bin/env python3
"""Reference of examples/butterfly_notiebreak.hip (file format: _common.py).

argmax_notiebreak_xor / argmax_notiebreak_down (WAVE DEPENDENT: --wave):
  --param n=N --in in=f32[nrows*N] --out out_val=f32[nrows] --out out_idx=i32[nrows]
Simulates the kernel lane by lane: lane L's strided scan (strict '>' from
(-inf, -1)), then for o = W/2, ..., 1 every lane takes its source lane's
pair iff the source value is strictly greater (source L^o, or L+o if < W
else L for __shfl_down; --bpermute=halves: within the 32-lane half). Lane
0's pair is the result (value bits kept).
"""
import sys
import _common as C

SPEC = {k: {"ins": {"in": "f32"}, "outs": {"out_val": "f32", "out_idx": "i32"},
            "params": ["n"], "wave_dependent": True}
        for k in ("argmax_notiebreak_xor", "argmax_notiebreak_down")}


def simulate(kernel, bits, wave):
    lanes = []
    for lane in range(wave):
        vb, v, idx = C.NEG_INF, float("-inf"), -1
        for i in range(lane, len(bits), wave):
            x = C.f32(bits[i])
            if x > v:
                vb, v, idx = bits[i], x, i
        lanes.append((v, vb, idx))
    lanes = C.Lanes(wave).butterfly(
        lanes, lambda m, s: s if s[0] > m[0] else m,
        down=kernel != "argmax_notiebreak_xor")
    return lanes[0][1], lanes[0][2]


def reference(kernel, bufs, params, wave, grid, block):
    n = params["n"]
    x = bufs["in"]
    res = [simulate(kernel, row, wave) for row in C.rows(x, n)]
    return {"out_val": [v for v, _ in res], "out_idx": [i for _, i in res]}


def cases(rng, wave):
    sets = []
    for kernel in SPEC:
        for n in C.sizes_for(wave) + [400]:
            rows = C.row_patterns(rng, n, wave)
            if n >= wave:
                # Ties at lanes W/2 and W/4 (lane W/2 wins for lane 0), and
                # at lanes 1 and W-1.
                for a, b in ((wave // 4, wave // 2), (1, wave - 1)):
                    r = [C.bits32(0.0)] * n
                    r[a] = r[b] = C.bits32(5.0)
                    rows.append(("tie-lanes-%d-%d" % (a, b), r))
            x = [b for _, row in rows for b in row]
            R = len(rows)
            sets.append({
                "buffers": {"in": ["f32", x], "out_val": ["f32", [C.bits32(-7.0)] * R],
                            "out_idx": ["i32", [-7] * R]},
                "launches": [{"kernel": kernel, "grid": R, "block": wave,
                              "args": ["buf:in", "buf:out_val", "buf:out_idx", "i32:%d" % n]}],
                "ref": {"kernel": kernel, "params": {"n": n}, "ins": ["in"],
                        "outs": ["out_val", "out_idx"], "grid": R, "block": wave},
                "units": [["n=%d %s" % (n, lab), {"out_val": [r, 1], "out_idx": [r, 1]}]
                          for r, (lab, _) in enumerate(rows)],
            })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
