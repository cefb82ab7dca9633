# Runs opencl_shuffle.cl's kernel on crosslane-run and checks every result
# against OpenCL C 3.0 §6.15.13 computed here: element i of shuffle(x,
# mask) is x[mask[i] mod n], of shuffle2(x, y, mask) element mask[i] mod 2n
# of x's elements followed by y's (n a power of two: the mask's low
# ilogb(2n - 1) bits, shuffle2 one more), bit for bit (NaN payloads too).
#   check_shuffle.py CROSSLANE_RUN MODULE
import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xe_run

Run, Module = sys.argv[1], sys.argv[2]
N = 32
TYPES = {8: 2, 16: 3, 32: 3, 64: 3}  # element types of each size
WIDTHS = (2, 4, 8, 16)


def sources(bits, rnd, n):
    """Random bit patterns and NaNs, infinities, zeros of the float type
    of that size (quiet and signalling NaNs must come through unchanged)."""
    e = {16: 5, 32: 8, 64: 11}.get(bits, 4)
    m = bits - 1 - e
    inf = ((1 << e) - 1) << m
    pool = [0, 1 << (bits - 1), inf, inf | 1, inf | (1 << (m - 1)),
            inf | 1 << (bits - 1) | 5, (1 << bits) - 1]
    return [rnd.choice(pool) if rnd.random() < 0.25 else rnd.getrandbits(bits)
            for _ in range(n)]


def masks(bits, rnd, n):
    """Indices inside the sources, at their ends, just past them, and
    random bits far beyond (all ones, the top bit alone)."""
    pool = [0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, (1 << bits) - 1,
            1 << (bits - 1), (1 << bits) - 2]
    out = []
    for _ in range(n):
        k = rnd.randrange(3)
        out.append(rnd.choice(pool) if k == 0 else rnd.randrange(40)
                   if k == 1 else rnd.getrandbits(bits))
    return out


def main():
    rnd = random.Random(31)
    S, T, K = {}, {}, {}
    for b in (8, 16, 32, 64):
        S[b], T[b], K[b] = (sources(b, rnd, 16 * N), sources(b, rnd, 16 * N),
                            masks(b, rnd, 16 * N))
    per_type = 2 * len(WIDTHS) * sum(WIDTHS) * N
    size = {b: TYPES[b] * per_type for b in TYPES}
    inputs = [(b, X[b]) for b in (8, 16, 32, 64) for X in (S, T, K)]
    res = xe_run.run(Run, Module, 'shuffles', inputs,
                     [(b, size[b]) for b in (8, 16, 32, 64)],
                     ['--block=%d' % N])[12:]
    t = xe_run.Tally()
    for O, b in zip(res, (8, 16, 32, 64)):
        at = 0
        for ty in range(TYPES[b]):
            for fn in ('shuffle', 'shuffle2'):
                for n in WIDTHS:
                    for m in WIDTHS:
                        for g in range(N):
                            src = S[b][n * g:n * g + n]
                            if fn == 'shuffle2':
                                src = src + T[b][n * g:n * g + n]
                            for i in range(m):
                                mask = K[b][m * g + i]
                                want = src[mask % len(src)]
                                got = O[at + m * g + i]
                                t.check(
                                    '%s type %d/%d-bit n=%d m=%d item %d '
                                    'element %d (mask %#x): got %#x, want %#x'
                                    % (fn, ty, b, n, m, g, i, mask, got,
                                       want), got == want)
                        at += m * N
    t.report()


main()
