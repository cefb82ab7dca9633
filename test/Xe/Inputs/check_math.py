# Checks crosslane-run's --print output of opencl_math.cl's kernel (math,
# or vectors with the argument 'vectors') against
# Python's math library (floats to a relative 1e-6, ints as 32-bit
# patterns).
import math, re, sys
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
Got = {}
for Line in sys.stdin:
    M = re.match(r'arg(\d+)\[(\d+)\] = (\S+)', Line)
    if M:
        Got[(int(M[1]), int(M[2]))] = float(M[3])
def close(k, x):
    if k not in Got:
        return False
    if k[0] > 1:  # ints, printed signed: compare as 32-bit patterns
        return int(Got[k]) % 2**32 == x % 2**32
    return abs(Got[k] - x) <= 1e-6 * max(1.0, abs(x))
Bad = [k for k, x in Want.items() if not close(k, x)]
for k in Bad[:10]:
    print('mismatch: arg%d[%d] = %s, want %s' % (k[0], k[1], Got.get(k), Want[k]))
print('checked %d values, %d mismatches' % (len(Want), len(Bad)))
