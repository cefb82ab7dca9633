#!/usr/bin/env python3
"""Reference of examples/nearest_centroid.hip (file format: _common.py).

nearest_centroid: --param npoints=P --param k=K --param d=D
  --in points=f32[P*D] --in centroids=f32[K*D]
  --out labels=i32[P] --out min_dist=f32[P]
dist = sum_j (p_j - c_j)^2 in order, each operation rounded to binary32
(bit-exact against the kernel when every intermediate is exact -- the
generated inputs use small integers -- or inf/NaN); label = first c with
the minimum (strict '<' from +inf, label 0). Independent of the wave size.
"""
import sys
import _common as C

SPEC = {"nearest_centroid": {"ins": {"points": "f32", "centroids": "f32"},
                             "outs": {"labels": "i32", "min_dist": "f32"},
                             "params": ["npoints", "k", "d"], "wave_dependent": False}}


def reference(kernel, bufs, params, wave, grid, block):
    P, K, D = params["npoints"], params["k"], params["d"]
    pts = [C.f32(b) for b in bufs["points"]]
    cen = [C.f32(b) for b in bufs["centroids"]]
    labels, dists = [], []
    for p in range(P):
        best, lab = float("inf"), 0
        for c in range(K):
            acc = 0.0
            for j in range(D):
                diff = C.round32(pts[p * D + j] - cen[c * D + j])
                acc = C.round32(acc + C.round32(diff * diff))
            if acc < best:
                best, lab = acc, c
        labels.append(lab)
        dists.append(C.bits32(best))
    return {"labels": labels, "min_dist": dists}


def cases(rng, wave):
    sets = []
    shapes = [(1, 1, 1, 1, 1), (13, 5, 3, 1, wave), (70, 8, 4, 2, wave),
              (3 * wave + 3, 16, 7, 1, 2 * wave)]
    for P, K, D, G, B in shapes:
        ints = lambda cnt, lo=-8, hi=8: [C.bits32(float(rng.randint(lo, hi))) for _ in range(cnt)]
        variants = [
            ("random-ints", ints(P * D), ints(K * D)),
            ("ties", ints(P * D, 0, 1), [C.bits32(float(c % 2)) for c in range(K * D)]),
            ("all-equal-centroids", ints(P * D), [C.bits32(2.0)] * (K * D)),
        ]
        pts = ints(P * D)
        pts[rng.randrange(P * D)] = C.QNAN
        variants.append(("nan-in-a-point", pts, ints(K * D)))
        cen = ints(K * D)
        cen[rng.randrange(K * D)] = C.QNAN
        variants.append(("nan-in-a-centroid", ints(P * D), cen))
        variants.append(("all-nan-centroids", ints(P * D), [C.QNAN] * (K * D)))
        cen = ints(K * D)
        cen[0] = C.POS_INF
        cen[(K - 1) * D] = C.NEG_INF
        variants.append(("inf-centroids", ints(P * D), cen))
        variants.append(("huge-coordinates", [C.FLT_MAX] * (P * D),
                         [C.NEG_FLT_MAX] * (K * D)))
        variants.append(("pm-zero", [rng.choice((C.POS_ZERO, C.NEG_ZERO)) for _ in range(P * D)],
                         [rng.choice((C.POS_ZERO, C.NEG_ZERO)) for _ in range(K * D)]))
        for lab, pts, cen in variants:
            sets.append({
                "buffers": {"points": ["f32", pts], "centroids": ["f32", cen],
                            "labels": ["i32", [-7] * P], "min_dist": ["f32", [C.bits32(-7.0)] * P]},
                "launches": [{"kernel": "nearest_centroid", "grid": G, "block": B,
                              "args": ["buf:points", "buf:centroids", "buf:labels",
                                       "buf:min_dist", "i32:%d" % P, "i32:%d" % K,
                                       "i32:%d" % D]}],
                "ref": {"kernel": "nearest_centroid", "params": {"npoints": P, "k": K, "d": D},
                        "ins": ["points", "centroids"], "outs": ["labels", "min_dist"]},
                "units": [["P=%d K=%d D=%d %s point %d" % (P, K, D, lab, p),
                           {"labels": [p, 1], "min_dist": [p, 1]}] for p in range(P)],
            })
    return sets


if __name__ == "__main__":
    sys.exit(C.main(SPEC, reference))
