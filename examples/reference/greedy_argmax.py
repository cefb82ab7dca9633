#!/usr/bin/env python3
"""Reference of examples/greedy_argmax.hip (file format: _common.py).

greedy_argmax: --param ncols=N --in logits=f32[nrows*N] --out out=i32[nrows]
out[r] = first index of the max of the non-NaN values of row r, if that max
is > -inf; else -1. Independent of the wave size and of the block size --
except with --bpermute=halves (GFX10+ wave64), where the offset-32 stage is a
no-op; so the reference simulates the kernel (--wave, --block, --bpermute).
"""
import sys
import _common as C

SPEC = {"greedy_argmax": {"ins": {"logits": "f32"}, "outs": {"out": "i32"},
                          "params": ["ncols"], "wave_dependent": False}}


def greedy_row(row_bits, wave, block):
    """The kernel, thread by thread and lane by lane."""
    vals = [C.f32(b) for b in row_bits]
    n = len(vals)
    th = []
    for t in range(block):  # 1. strided serial scan, strict '>'
        m, a = float("-inf"), -1
        for col in range(t, n, block):
            if vals[col] > m:
                m, a = vals[col], col
        th.append((m, a))

    def take(mine, other):
        (m, a), (v, c) = mine, other
        return other if (v > m or (v == m and c < a)) else mine

    def butterfly(lanes):
        L = C.Lanes(wave)
        off = wave // 2
        while off > 0:
            lanes = [take(x, y) for x, y in zip(lanes, L.shfl_xor(lanes, off))]
            off //= 2
        return lanes

    nwarps = block // wave
    waves = [butterfly(th[w * wave:(w + 1) * wave]) for w in range(nwarps)]  # 2.
    if nwarps == 1:
        return waves[0][0][1]
    s = [w[0] for w in waves]  # 3. lane 0 of each wave
    lanes = [s[l] if l < nwarps else (float("-inf"), -1) for l in range(wave)]
    return butterfly(lanes)[0][1]  # 4.


def reference(kernel, bufs, params, wave, grid, block):
    n = params["ncols"]
    x = bufs["logits"]
    return {"out": [greedy_row(row, wave, block) for row in C.rows(x, n)]}


def cases(rng, wave):
    sets = []
    for si, n in enumerate(C.sizes_for(wave) + [1000]):
        block = [wave, 2 * wave, 4 * wave, 2 * wave, 4 * wave][si]
        rows = C.row_patterns(rng, n, wave)
        logits = [b for _, row in rows for b in row]
        sets.append({
            "buffers": {"logits": ["f32", logits], "out": ["i32", [-7] * len(rows)]},
            "launches": [{"kernel": "greedy_argmax", "grid": len(rows), "block": block,
                          "args": ["buf:logits", "buf:out", "i32:%d" % n]}],
            "ref": {"kernel": "greedy_argmax", "params": {"ncols": n}, "ins": ["logits"],
                    "outs": ["out"], "grid": len(rows), "block": block},
            "units": [["n=%d %s" % (n, lab), {"out": [r, 1]}] for r, (lab, _) in enumerate(rows)],
        })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
