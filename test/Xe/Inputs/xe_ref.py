#!/usr/bin/env python3
"""Inputs and scalar references for programs run in the executor's Xe
model (test/Xe/mlir-xegpu-exec.test, test/Xe/subgroup-builtins.test).

  xe_ref.py gen SEED KIND ROWS COLS OUT.bin
      KIND f16 | f32: values k/4 for k in -16..16 (every product and every
      sum of a 64-step dot product is exact in f32, so the summation order
      does not matter), with -0.0, 0 and the extremes placed on purpose.
  xe_ref.py gemm A.bin B.bin C0.bin OUT.bin M N K [--ab=f16|bf16|i8]
                [--acc=f32|i32]
      checks OUT = A x B + C0 (row-major) exactly (i32: wrapping).
  xe_ref.py tile IN.bin OUT.bin KIND ROWS COLS SY SX DY DX H W INIT
                    [--transpose]
      checks that OUT (ROWS x COLS, every element INIT before the kernel)
      holds IN's H x W tile at (SY, SX), read as 0 outside IN, written at
      (DY, DX) (element (r, c) at (DY + c, DX + r) with --transpose) where
      that is inside OUT, and INIT everywhere else.
  xe_ref.py vnni FRAG.bin IN.bin ROWS COLS SY SX
      checks a 16 x 16 VNNI fragment of 16-bit IN at (SY, SX) dumped lane
      after lane (16 halves each): lane L's halves 2k and 2k + 1 are rows
      SY + 2k and SY + 2k + 1 of column SX + L (0 outside IN).
  xe_ref.py subgroup-ops IN.bin OUT.bin
      checks the ten results per work-item of subgroup_ops.cl's kernel ops
      (reductions, scans, shuffles, votes, broadcast; subgroups of 16).
  xe_ref.py rowsum IN.bin OUT.bin ROWS COLS
      checks OUT[r] = the sum of IN's row r (f32; exact for gen's values).
  xe_ref.py add A.bin B.bin OUT.bin
      checks OUT = A + B element by element (f32; exact for gen's values).
Each check prints '<n> elements, <m> mismatches' and the first few.
"""
import random
import struct
import sys

FMT = {"f16": "e", "f32": "f", "bf16": None, "i8": "b", "i32": "i"}


def read(path, kind):
    data = open(path, "rb").read()
    if kind == "bf16":
        return [struct.unpack("<f", b"\0\0" + data[i:i + 2])[0]
                for i in range(0, len(data), 2)]
    n = len(data) // struct.calcsize(FMT[kind])
    return list(struct.unpack("<%d%s" % (n, FMT[kind]), data))


def write(path, kind, vals):
    if kind == "bf16":
        out = b"".join(struct.pack("<f", v)[2:] for v in vals)
    else:
        out = struct.pack("<%d%s" % (len(vals), FMT[kind]), *vals)
    open(path, "wb").write(out)


def gen(seed, kind, rows, cols, out):
    rnd = random.Random(int(seed))
    n = int(rows) * int(cols)
    vals = [rnd.randint(-16, 16) / 4 for _ in range(n)]
    for i, v in zip(range(0, n, max(1, n // 7)), [-0.0, 0.0, 4.0, -4.0, 0.25]):
        vals[i] = v
    write(out, kind, vals)


def report(n, bad):
    print("%d elements, %d mismatches" % (n, len(bad)))
    for b in bad[:5]:
        print("  mismatch at %s: got %r, expected %r" % b)
    return 0 if not bad else 1


def gemm(a, b, c0, out, m, n, k, ab="f16", acc="f32"):
    m, n, k = int(m), int(n), int(k)
    A, B, C0, C = read(a, ab), read(b, ab), read(c0, acc), read(out, acc)
    bad = []
    for i in range(m):
        for j in range(n):
            ref = C0[i * n + j] + sum(A[i * k + x] * B[x * n + j]
                                      for x in range(k))
            if acc == "i32":
                ref = (ref + 2**31) % 2**32 - 2**31
            else:
                ref = struct.unpack("<f", struct.pack("<f", ref))[0]
            if C[i * n + j] != ref:
                bad.append(((i, j), C[i * n + j], ref))
    return report(m * n, bad)


def at(vals, rows, cols, r, c):
    return vals[r * cols + c] if 0 <= r < rows and 0 <= c < cols else 0.0


def same(x, y):  # bit for bit: -0.0 is not 0.0
    return struct.pack("<d", x) == struct.pack("<d", y)


def tile(inp, out, kind, rows, cols, sy, sx, dy, dx, h, w, init,
         transpose=False):
    rows, cols, sy, sx, dy, dx, h, w = map(
        int, (rows, cols, sy, sx, dy, dx, h, w))
    I, O = read(inp, kind), read(out, kind)
    exp = [float(init)] * len(O)
    for r in range(h):
        for c in range(w):
            ty, tx = (dy + c, dx + r) if transpose else (dy + r, dx + c)
            if 0 <= ty < rows and 0 <= tx < cols:
                exp[ty * cols + tx] = at(I, rows, cols, sy + r, sx + c)
    bad = [((i // cols, i % cols), O[i], exp[i])
           for i in range(len(O)) if not same(O[i], exp[i])]
    return report(len(O), bad)


def vnni(frag, inp, rows, cols, sy, sx):
    rows, cols, sy, sx = map(int, (rows, cols, sy, sx))
    F, I = read(frag, "f16"), read(inp, "f16")
    bad = []
    for lane in range(16):
        for k in range(16):
            exp = at(I, rows, cols, sy + 2 * (k // 2) + k % 2, sx + lane)
            if not same(F[lane * 16 + k], exp):
                bad.append(((lane, k), F[lane * 16 + k], exp))
    return report(256, bad)


def add(a, b, out):
    A, B, O = read(a, "f32"), read(b, "f32"), read(out, "f32")
    bad = [(i, O[i], A[i] + B[i]) for i in range(len(A)) if O[i] != A[i] + B[i]]
    return report(len(A), bad)


def rowsum(inp, out, rows, cols):
    rows, cols = int(rows), int(cols)
    I, O = read(inp, "f32"), read(out, "f32")
    bad = [(r, O[r], sum(I[r * cols:(r + 1) * cols])) for r in range(rows)
           if O[r] != sum(I[r * cols:(r + 1) * cols])]
    return report(rows, bad)


def subgroup_ops(inp, out, sg=16):
    """The ten results of test/Xe/Inputs/subgroup_ops.cl's kernel ops."""
    I, O = read(inp, "i32"), read(out, "i32")
    exp = []
    for g0 in range(0, len(I), sg):
        v = I[g0:g0 + sg]
        for l in range(sg):
            down = l + 3
            up = l - 5
            exp += [
                sum(v),
                max(v[:l + 1]),
                sum(v[:l]),
                min(x % 2**32 for x in v) - (2**32 if min(
                    x % 2**32 for x in v) >= 2**31 else 0),
                v[sg - 1 - l],
                v[l ^ 3],
                v[down] if down < sg else v[down - sg] + 1000,
                v[up] if up >= 0 else v[up + sg] - 1000,
                int(any(x > 90 for x in v)) + 2 * int(all(x > -100 for x in v)),
                v[2],
            ]
    bad = [((i // 10, i % 10), O[i], exp[i]) for i in range(len(exp))
           if O[i] != exp[i]]
    return report(len(exp), bad)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    opts = [a for a in args if a.startswith("--")]
    args = [a for a in args if not a.startswith("--")]
    if cmd == "gen":
        sys.exit(gen(*args))
    if cmd == "gemm":
        ab = next((o[5:] for o in opts if o.startswith("--ab=")), "f16")
        acc = next((o[6:] for o in opts if o.startswith("--acc=")), "f32")
        sys.exit(gemm(*args, ab=ab, acc=acc))
    if cmd == "tile":
        sys.exit(tile(*args, transpose="--transpose" in opts))
    if cmd == "subgroup-ops":
        sys.exit(subgroup_ops(*args))
    if cmd == "rowsum":
        sys.exit(rowsum(*args))
    if cmd == "add":
        sys.exit(add(*args))
    if cmd == "vnni":
        sys.exit(vnni(*args))
    sys.exit("unknown command " + cmd)
