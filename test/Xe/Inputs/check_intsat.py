# Runs opencl_intsat.cl's kernel on crosslane-run and checks every result
# against OpenCL C 3.0 §6.15.3 computed here with Python's unbounded
# integers: mad_sat(a, b, c) = a * b + c clamped to the type's range
# (signed or unsigned), upsample(hi, lo) = hi * 2^n + lo for n-bit
# elements, lo unsigned, hi signed or not, in the 2n-bit result.
#   check_intsat.py CROSSLANE_RUN MODULE
import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xe_run

Run, Module = sys.argv[1], sys.argv[2]
N = 64


def signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def edges(bits, rnd, n):
    """Random bit patterns, small values and the saturation edges: 0, 1,
    -1, INT_MIN, INT_MAX, UINT_MAX, their neighbours, square roots of the
    limits (products just inside and just past them)."""
    m = (1 << bits) - 1
    root = 1 << (bits // 2)
    pool = [0, 1, 2, m, m - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1,
            (1 << (bits - 1)) + 1, root, root - 1, root + 1,
            1 << (bits // 2 - 1), (-root) & m, (-(root >> 1)) & m]
    out = []
    for _ in range(n):
        k = rnd.randrange(4)
        out.append(rnd.choice(pool) if k < 2 else rnd.getrandbits(bits)
                   if k == 2 else rnd.randrange(-8, 8) & m)
    return out


def mad_sat(bits, sgn, a, b, c):
    if sgn:
        a, b, c = signed(a, bits), signed(b, bits), signed(c, bits)
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    else:
        lo, hi = 0, (1 << bits) - 1
    return min(max(a * b + c, lo), hi) & ((1 << bits) - 1)


def upsample(bits, sgn, hi, lo):
    h = signed(hi, bits) if sgn else hi
    return (h * (1 << bits) + lo) & ((1 << (2 * bits)) - 1)


def main():
    rnd = random.Random(23)
    ins = {b: [edges(b, rnd, 16 * N) for _ in range(3)]
           for b in (8, 16, 32, 64)}
    sizes = [(8, 20), (16, 14), (32, 26), (64, 12), (16, 26), (32, 8),
             (64, 26)]
    inputs = [(b, v) for b in (8, 16, 32, 64) for v in ins[b]]
    res = xe_run.run(Run, Module, 'intsat', inputs,
                     [(b, n * N) for b, n in sizes], ['--block=%d' % N])[12:]
    M = dict(zip((8, 16, 32, 64), res[:4]))
    U = dict(zip((8, 16, 32), res[4:]))
    # (bits, signed, first region (K), vector elements), as the kernel.
    mads = [(8, True, 0, 16), (8, False, 17, 2), (16, True, 0, 8),
            (16, False, 9, 4), (32, True, 0, 4), (32, False, 5, 16),
            (64, True, 0, 2), (64, False, 3, 8), (32, True, 22, 3)]
    ups = [(8, True, 0, 8), (8, False, 9, 16), (16, True, 0, 2),
           (16, False, 3, 4), (32, True, 0, 16), (32, False, 17, 8)]
    t = xe_run.Tally()
    for fn, table, res in (('mad_sat', mads, M), ('upsample', ups, U)):
        for bits, sgn, K, vn in table:
            A, B, C = ins[bits]
            for first, n in ((K * N, N), ((K + 1) * N, vn * N)):
                for e in range(n):
                    if fn == 'mad_sat':
                        want = mad_sat(bits, sgn, A[e], B[e], C[e])
                    else:
                        want = upsample(bits, sgn, A[e], B[e])
                    got = res[bits][first + e]
                    t.check('%s %s%d [%d] (%#x, %#x, %#x): got %#x, want %#x'
                            % (fn, 'i' if sgn else 'u', bits, e, A[e], B[e],
                               C[e], got, want), got == want)
    t.report()


main()
