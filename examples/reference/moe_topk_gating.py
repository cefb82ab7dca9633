#!/usr/bin/env python3
"""Reference of examples/moe_topk_gating.hip (file format: _common.py).

moe_topk_e8_k2 / moe_topk_e64_k4 / moe_topk_e16_k16:
  --param nrows=R --in logits=f32[R*E] --out topk_val=f32[R*k] --out topk_idx=i32[R*k]
Round j: among experts not yet chosen with a logit > -inf and not NaN, the
largest logit, smallest expert index on ties; (-inf, -1) when none is left.
topk_val copies the logit's bits. Independent of the wave size.
"""
import sys
import _common as C

SHAPES = {"moe_topk_e8_k2": (8, 4, 2), "moe_topk_e64_k4": (64, 16, 4),
          "moe_topk_e16_k16": (16, 8, 16)}  # E, TPR, k
SPEC = {k: {"ins": {"logits": "f32"}, "outs": {"topk_val": "f32", "topk_idx": "i32"},
            "params": ["nrows"], "wave_dependent": False} for k in SHAPES}


def topk_row(bits, k):
    vals = [C.f32(b) for b in bits]
    chosen = set()
    out_v, out_i = [], []
    for _ in range(k):
        best, arg = float("-inf"), -1
        for e, v in enumerate(vals):
            if e not in chosen and v > best:  # strict: smallest index on ties
                best, arg = v, e
        if arg < 0:
            out_v.append(C.NEG_INF)
            out_i.append(-1)
        else:
            chosen.add(arg)
            out_v.append(bits[arg])
            out_i.append(arg)
    return out_v, out_i


def reference(kernel, bufs, params, wave, grid, block):
    E, _, k = SHAPES[kernel]
    R = params["nrows"]
    tv, ti = [], []
    for r in range(R):
        v, i = topk_row(bufs["logits"][r * E:(r + 1) * E], k)
        tv += v
        ti += i
    return {"topk_val": tv, "topk_idx": ti}


def cases(rng, wave):
    sets = []
    for kernel, (E, TPR, k) in SHAPES.items():
        rows = C.row_patterns(rng, E, wave)
        # Fewer than k real logits.
        r = [C.NEG_INF] * E
        r[E - 1] = C.bits32(3.0)
        rows.append(("one-real-logit", r))
        # Equal logits in every lane of the group.
        rows.append(("ties-every-lane", [C.bits32(float(e % 2)) for e in range(E)]))
        for _ in range(4):
            rows.append(("random", [C.rand_f32(rng) for _ in range(E)]))
        R = len(rows)
        B = 2 * wave
        G = (R * TPR + B - 1) // B
        sets.append({
            "buffers": {"logits": ["f32", [b for _, row in rows for b in row]],
                        "topk_val": ["f32", [C.bits32(-7.0)] * (R * k)],
                        "topk_idx": ["i32", [-7] * (R * k)]},
            "launches": [{"kernel": kernel, "grid": G, "block": B,
                          "args": ["buf:logits", "buf:topk_val", "buf:topk_idx", "i32:%d" % R]}],
            "ref": {"kernel": kernel, "params": {"nrows": R}, "ins": ["logits"],
                    "outs": ["topk_val", "topk_idx"]},
            "units": [["E=%d k=%d %s" % (E, k, lab), {"topk_val": [i * k, k], "topk_idx": [i * k, k]}]
                      for i, (lab, _) in enumerate(rows)],
        })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
