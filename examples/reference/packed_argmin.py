#!/usr/bin/env python3
"""Reference of examples/packed_argmin.hip (file format: _common.py).

packed_argmin_atomic / packed_argmin_wave:
  --param n=N --in x=f32[N] --in result=u64[1] --out result=u64[1]
result = min(initial result, min over i of (key(bits(x[i])) << 32) | i),
key(b) = ~b if the sign bit is set, else b | 0x80000000 (32-bit). Independent
of the wave size and the launch shape, except for packed_argmin_wave with
--bpermute=halves (GFX10+ wave64); the reference simulates the kernel
(--grid, --block, --wave, --bpermute).
"""
import sys
import _common as C

SPEC = {k: {"ins": {"x": "f32", "result": "u64"}, "outs": {"result": "u64"},
            "params": ["n"], "wave_dependent": False}
        for k in ("packed_argmin_atomic", "packed_argmin_wave")}


def order_key(b):
    return (~b & 0xFFFFFFFF) if b & 0x80000000 else (b | 0x80000000)


def reference(kernel, bufs, params, wave, grid, block):
    """Thread folds, then (wave kernel) the lane-by-lane u64 min butterfly
    and one atomicMin per wave from lane 0."""
    n, x = params["n"], bufs["x"]
    best = bufs["result"][0]
    ALL = (1 << 64) - 1
    nthreads = grid * block
    folds = []
    for t in range(nthreads):
        f = ALL
        for i in range(t, max(n, 0), nthreads):
            f = min(f, (order_key(x[i]) << 32) | i)
        folds.append(f)
    if kernel == "packed_argmin_atomic":
        return {"result": [min([best] + folds)]}
    L = C.Lanes(wave)
    for w in range(0, nthreads, wave):
        lanes = folds[w:w + wave]
        off = wave // 2
        while off > 0:
            lanes = [min(a, b) for a, b in zip(lanes, L.shfl_xor(lanes, off))]
            off //= 2
        best = min(best, lanes[0])
    return {"result": [best]}


def cases(rng, wave):
    sets = []
    shapes = [(1, 1, wave), (37, 1, wave), (3 * wave + 5, 2, 2 * wave), (300, 3, wave)]
    for kernel in ("packed_argmin_atomic", "packed_argmin_wave"):
        for n, G, B in shapes:
            rows = C.row_patterns(rng, n, wave)
            r = [C.rand_f32(rng) for _ in range(n)]
            r[rng.randrange(n)] = 0xFFFFFFFF  # negative NaN, largest payload
            rows.append(("negnan-large-payload", r))
            rows.append(("all-pos-inf", [C.POS_INF] * n))
            for lab, x in rows:
                sets.append({
                    "buffers": {"x": ["f32", x], "result": ["u64", [(1 << 64) - 1]]},
                    "launches": [{"kernel": kernel, "grid": G, "block": B,
                                  "args": ["buf:x", "i32:%d" % n, "buf:result"]}],
                    "ref": {"kernel": kernel, "params": {"n": n}, "ins": ["x", "result"],
                            "outs": ["result"], "grid": G, "block": B},
                    "units": [["%s n=%d G=%d B=%d %s" % (kernel, n, G, B, lab), {"result": [0, 1]}]],
                })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
