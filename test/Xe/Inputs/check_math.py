# Checks crosslane-run's --print output of opencl_math.cl's kernel (math,
# or the one the argument names: vectors, conversions, more, extra) against
# Python's math library (floats to a relative 1e-6, ints as 32-bit
# patterns).
import math, re, sys
Mode = sys.argv[1] if len(sys.argv) > 1 else 'math'
def f32(x):
    import struct
    return struct.unpack('f', struct.pack('f', x))[0]
Want = {}
for i in range(32):
    v = f32(i * 0.25 - 3.0)
    row = [math.sqrt(abs(v)), math.exp(v), max(v, 0.5), min(v, -1.0),
           v * 2 + 1, min(max(v, -1.0), 1.0), 1 / (v + 10), max(v, 1.0),
           v / 3, v * v - v]
    for k, x in enumerate(row):
        Want[(1, i * 10 + k)] = x
    n = i - 16
    for k, x in enumerate([min(n, 3), max(n, -5), min(max(n, -4), 4)]):
        Want[(2, i * 4 + k)] = x
    Want[(3, i * 2)] = abs(n)
    Want[(3, i * 2 + 1)] = max(n & 0xFFFFFFFF, 5)
if len(sys.argv) > 1 and sys.argv[1] == 'vectors':
    Want = {}
    for i in range(32):
        w = [f32(x * 0.125 - 2.0) for x in range(4 * i, 4 * i + 4)]
        rows = [[max(x, 0.25) for x in w], [math.sqrt(abs(x)) for x in w],
                [min(max(x, -1.0), 1.0) for x in w],
                [x + (1.0 - x) * 0.25 for x in w]]
        for k, r in enumerate(rows):
            for e, x in enumerate(r):
                Want[(1, (i * 4 + k) * 4 + e)] = x
        Want[(1, 512 + i)] = sum(x * (e + 1) for e, x in enumerate(w))
        v = [4 * i + 1, 4 * i + 2]
        Want[(1, 544 + i)] = v[0] * v[0] + v[1] * v[1]
if len(sys.argv) > 1 and sys.argv[1] == 'conversions':
    Want = {}
    def sat(x, lo, hi):
        return min(max(x, lo), hi)
    def wrap(x, bits, signed):
        x &= (1 << bits) - 1
        return x - (1 << bits) if signed and x >> (bits - 1) else x
    for i in range(32):
        v = f32(i * 0.75 - 12.0)
        n = (i - 16) * 1000
        big = f32(v * 1e9)
        row = [math.trunc(v), round(v), math.ceil(v), math.floor(v),
               sat(math.trunc(f32(v * 30)), 0, 255), wrap(n, 8, True),
               sat(n * 40, -32768, 32767), sat(math.trunc(v), 0, 2**32 - 1)]
        for k, x in enumerate(row):
            Want[(1, i * 8 + k)] = x
        Want[(2, i * 3)] = n + 7
        Want[(2, i * 3 + 1)] = sat(math.trunc(big), -2**31, 2**31 - 1)
        Want[(2, i * 3 + 2)] = wrap(n, 8, False)
if Mode == 'more':
    Want = {}
    M32 = 2**32
    def s32(x):
        x %= M32
        return x - M32 if x >= 2**31 else x
    def sat(x, lo, hi):
        return min(max(x, lo), hi)
    for i in range(32):
        n = (i - 16) * 7
        a, b = [n, -n, 2 * n, 100], [3, 3, -40, 200]
        rows = [[max(x, y) for x, y in zip(a, b)],
                [sat(x, -20, 20) for x in a],
                [abs(x - y) for x, y in zip(a, b)],
                [sat(s32(x * 30000000) + s32(y * 30000000), -2**31, 2**31 - 1)
                 for x, y in zip(a, b)]]
        for k, r in enumerate(rows):
            for e, x in enumerate(r):
                Want[(1, i * 16 + k * 4 + e)] = x
        m = (n * 2654435761) % M32
        r = i % 32
        u = [bin(m).count('1'), 32 - m.bit_length(),
             (m & -m).bit_length() - 1 if m else 32,
             ((m << r) | (m >> (32 - r))) % M32 if r else m,
             (m * 3000000000) >> 32, (n * -2000000000) >> 32,
             (m + 4000000000) >> 1, (n + 3 + 1) >> 1]
        for k, x in enumerate(u):
            Want[(2, i * 8 + k)] = x
        v = f32(i * 0.25 - 3.0)
        g = [v, 1.0, -2.0, 0.5]
        ln = math.sqrt(sum(x * x for x in g))
        Want[(3, i * 12)] = ln
        Want[(3, i * 12 + 1)] = math.sqrt(sum((x - 1) ** 2 for x in g))
        for e in range(4):
            Want[(3, i * 12 + 4 + e)] = g[e] / ln
        h = [0.5, -1.0, 2.0, 0.0]
        cr = [g[1] * h[2] - g[2] * h[1], g[2] * h[0] - g[0] * h[2],
              g[0] * h[1] - g[1] * h[0], 0.0]
        for e in range(4):
            Want[(3, i * 12 + 8 + e)] = cr[e]
        nan = [v == 0 and x == 0 for x in g]  # 0 / 0 only (v is never NaN)
        l = [(-1 if x < 0 else 0) | (16 if q else 0) for x, q in zip(g, nan)]
        anyl = any(x < 0 for x in l)
        alll = all(x < 0 for x in l)
        Want[(3, i * 12 + 2)] = (2.0 if anyl else 1.0) + alll + (v > 1) * 4
        Want[(3, i * 12 + 3)] = sum(5 if x < 0 else 1 for x in l)
if Mode == 'extra':
    Want = {}
    def sign(x):
        return 1.0 if x > 0 else -1.0 if x < 0 else x
    def pown(x, e):
        if x == 0 and e < 0:
            return math.copysign(math.inf, x) if e % 2 else math.inf
        return x ** e
    def mag(x, y, big):
        if abs(x) == abs(y):
            return max(x, y) if big else min(x, y)
        return x if (abs(x) > abs(y)) == big else y
    for i in range(32):
        v = f32(i * 0.25 - 3.0)
        n = i - 16
        t = min(max((v + 2) / 4, 0.0), 1.0)
        rv = math.copysign(abs(f32(f32(v * v) * v)) ** (1 / 3), v) if v else 0.0
        row = [math.ldexp(v, n), pown(v, int(math.fmod(n, 5))), rv, sign(v),
               mag(v, -1.5, True), mag(v, -1.5, False), 0.0 if v < 0.5 else 1.0,
               t * t * (3 - 2 * t), v * 180 / math.pi, math.atanh(f32(v * 0.2)),
               math.sin(math.pi * v), 2 * v + 4 * v]
        for k, x in enumerate(row):
            Want[(1, i * 12 + k)] = x
Got = {}
for Line in sys.stdin:
    M = re.match(r'arg(\d+)\[(\d+)\] = (\S+)', Line)
    if M:
        Got[(int(M[1]), int(M[2]))] = float(M[3])
def close(k, x):
    if k not in Got:
        return False
    # ints, printed signed: compare as 32-bit patterns
    if k[0] in {'math': (2, 3), 'vectors': (), 'conversions': (1,),
                'more': (1, 2), 'extra': ()}[Mode]:
        return int(Got[k]) % 2**32 == x % 2**32
    if math.isinf(x):
        return Got[k] == x
    return abs(Got[k] - x) <= 1e-6 * max(1.0, abs(x))
Bad = [k for k, x in Want.items() if not close(k, x)]
for k in Bad[:10]:
    print('mismatch: arg%d[%d] = %s, want %s' % (k[0], k[1], Got.get(k), Want[k]))
print('checked %d values, %d mismatches' % (len(Want), len(Bad)))
