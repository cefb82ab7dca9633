#!/usr/bin/env python3
"""Reference of examples/serial_argmax.hip (file format: _common.py).

serial_argmax_cols:     --param rows=R --param cols=M --in x=f32[R*M] --out out=i32[M]
  out[c] = index of the first strict maximum scanning rows 0.. from
  best = x[0][c] (a NaN in row 0 sticks; 0 if R <= 0).
serial_argmin_rows_nan: --param rows=R --param cols=M --in x=f32[R*M] --out out=i64[R]
  out[r] = first NaN of row r if any, else first index of its minimum.
Independent of the wave size.
"""
import sys
import _common as C

SPEC = {
    "serial_argmax_cols": {"ins": {"x": "f32"}, "outs": {"out": "i32"},
                           "params": ["rows", "cols"], "wave_dependent": False},
    "serial_argmin_rows_nan": {"ins": {"x": "f32"}, "outs": {"out": "i64"},
                               "params": ["rows", "cols"], "wave_dependent": False},
}


def reference(kernel, bufs, params, wave, grid, block):
    R, M = params["rows"], params["cols"]
    x = [C.f32(b) for b in bufs["x"]]
    out = []
    if kernel == "serial_argmax_cols":
        for c in range(M):
            bi = 0
            if R > 0:
                best = x[c]
                for r in range(1, R):
                    if x[r * M + c] > best:
                        best, bi = x[r * M + c], r
            out.append(bi)
    else:
        for r in range(R):
            best, bi = float("inf"), 0
            for i in range(M):
                v = x[r * M + i]
                if C.isnan(v):
                    bi = i
                    break
                if v < best:
                    best, bi = v, i
            out.append(bi)
    return {"out": out}


def cases(rng, wave):
    sets = []
    for n in (1, 37, 2 * wave + 3):
        rows = C.row_patterns(rng, n, wave)
        # argmin rows: the patterns as rows of x (R rows of n).
        R = len(rows)
        x = [b for _, row in rows for b in row]
        B = wave
        sets.append({
            "buffers": {"x": ["f32", x], "out": ["i64", [-7] * R]},
            "launches": [{"kernel": "serial_argmin_rows_nan", "grid": (R + B - 1) // B, "block": B,
                          "args": ["buf:x", "buf:out", "i32:%d" % R, "i32:%d" % n]}],
            "ref": {"kernel": "serial_argmin_rows_nan", "params": {"rows": R, "cols": n},
                    "ins": ["x"], "outs": ["out"]},
            "units": [["argmin n=%d %s" % (n, lab), {"out": [r, 1]}] for r, (lab, _) in enumerate(rows)],
        })
        # argmax over columns: the patterns as columns (n rows of R columns).
        xt = [rows[c][1][r] for r in range(n) for c in range(R)]
        sets.append({
            "buffers": {"x": ["f32", xt], "out": ["i32", [-7] * R]},
            "launches": [{"kernel": "serial_argmax_cols", "grid": (R + B - 1) // B, "block": B,
                          "args": ["buf:x", "buf:out", "i32:%d" % n, "i32:%d" % R]}],
            "ref": {"kernel": "serial_argmax_cols", "params": {"rows": n, "cols": R},
                    "ins": ["x"], "outs": ["out"]},
            "units": [["argmax-cols n=%d %s" % (n, lab), {"out": [c, 1]}] for c, (lab, _) in enumerate(rows)],
        })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
