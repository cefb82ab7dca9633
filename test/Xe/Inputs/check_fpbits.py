# Runs opencl_fpbits.cl's kernel on crosslane-run and checks every result
# against OpenCL C 3.0 §6.15.2 computed here from the inputs' values
# (fp_ref.decode: exact Fractions): nextafter as the neighbour of x toward
# y in the ordered list of representable values (y when x == y, NaN when
# either is NaN, a zero after a subnormal signed as x; doubles
# cross-checked with Python's math.nextafter),
# ilogb and logb as the exponent of the binade holding |x| (ilogb: INT_MIN
# = FP_ILOGB0 for a zero, INT_MAX = FP_ILOGBNAN for NaN and for an
# infinity; logb: -inf, +inf, NaN), and nan(code) as the quiet NaN whose
# other significand bits are the code's low ones. NaN results match any
# NaN.
#   check_fpbits.py CROSSLANE_RUN MODULE
import math, os, random, struct, sys
from fractions import Fraction
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fp_ref
import xe_run

Run, Module = sys.argv[1], sys.argv[2]
N = 64
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
WIDTH = {'half': 16, 'float': 32, 'double': 64}


def special(fmt):
    e, m = fp_ref.FORMATS[fmt]
    top = 1 << (e + m)
    inf = ((1 << e) - 1) << m
    pats = [0, 1, (1 << m) - 1, 1 << m, inf - 1, inf, inf | 1,
            inf | (1 << (m - 1)), inf | ((1 << m) - 1),
            fp_ref.encode(fmt, Fraction(1)),
            fp_ref.encode(fmt, Fraction(3, 2))]
    return pats + [p | top for p in pats]


def pair(fmt, rnd):
    w = WIDTH[fmt]
    sp = special(fmt)
    k = rnd.randrange(6)
    x = rnd.choice(sp) if k < 2 else rnd.getrandbits(w) if k < 4 else \
        fp_ref.encode(fmt, Fraction(rnd.uniform(-100, 100)))
    j = rnd.randrange(7)
    if j == 0:
        y = x
    elif j == 1:
        y = x ^ (1 << (w - 1))  # -x
    elif j == 2:
        y = (x + rnd.choice([1, -1])) % (1 << w)
    elif j == 3:
        y = rnd.choice(sp)
    else:
        y = rnd.getrandbits(w)
    return x, y


def key(fmt, bits):
    """bits' place among the representable values (0 for both zeros)."""
    w = WIDTH[fmt]
    mag = bits & ((1 << (w - 1)) - 1)
    return -mag if bits >> (w - 1) else mag


def unkey(fmt, k, sign):
    """The value at place k; a zero reached from a nonzero x has x's sign
    (IEEE 754's nextUp(-min subnormal) is -0)."""
    w = WIDTH[fmt]
    return (1 << (w - 1)) | -k if k < 0 else k if k else sign << (w - 1)


def value(fmt, bits):
    v = fp_ref.decode(fmt, bits)
    return Fraction(0) if v == '-0' else v


def nextafter(fmt, x, y):
    vx, vy = fp_ref.decode(fmt, x), fp_ref.decode(fmt, y)
    if 'nan' in (vx, vy):
        return 'nan'
    order = lambda v: {'inf': (1, 0), '-inf': (-1, 0)}.get(v, (0, value(
        fmt, fp_ref.encode(fmt, v))))
    if order(vx) == order(vy):
        want = y
    else:
        step = 1 if order(vy) > order(vx) else -1
        want = unkey(fmt, key(fmt, x) + step, x >> (WIDTH[fmt] - 1))
    if fmt == 'double':  # a second, independent opinion
        f = lambda b: struct.unpack('<d', struct.pack('<Q', b))[0]
        ref = struct.unpack('<Q', struct.pack('<d', math.nextafter(f(x),
                                                                  f(y))))[0]
        assert ref == want, (hex(x), hex(y), hex(ref), hex(want))
    return want


def exponent(v):
    a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    return e - 1 if Fraction(2) ** e > a else e


def ilogb(fmt, x):
    v = fp_ref.decode(fmt, x)
    if v in ('nan', 'inf', '-inf'):
        return INT_MAX
    v = value(fmt, x)
    return INT_MIN if v == 0 else exponent(v)


def logb(fmt, x):
    v = fp_ref.decode(fmt, x)
    if v in ('inf', '-inf'):
        return 'inf'
    if v == 'nan':
        return 'nan'
    v = value(fmt, x)
    return '-inf' if v == 0 else Fraction(exponent(v))


def nan(fmt, code):
    e, m = fp_ref.FORMATS[fmt]
    return ((1 << e) - 1) << m | 1 << (m - 1) | (code & ((1 << m) - 1))


def codes(fmt, rnd, n):
    w = WIDTH[fmt]
    _, m = fp_ref.FORMATS[fmt]
    pool = [0, 1, (1 << w) - 1, 1 << (m - 1), (1 << (m - 1)) - 1, 1 << m,
            (1 << m) - 1]
    return [rnd.choice(pool) if rnd.random() < 0.4 else rnd.getrandbits(w)
            for _ in range(n)]


def main():
    rnd = random.Random(17)
    ins = {}
    for fmt in ('float', 'double', 'half'):
        ps = [pair(fmt, rnd) for _ in range(16 * N)]
        ins[fmt] = ([p[0] for p in ps], [p[1] for p in ps])
    C = {f: codes(f, rnd, 16 * N) for f in ('float', 'double', 'half')}
    bits = {'half': 16, 'float': 32, 'double': 64}
    inputs = [(bits[f], v) for f in ('float', 'double', 'half')
              for v in ins[f]] + [(bits[f], C[f]) for f in
                                  ('float', 'double', 'half')]
    RF, RI, RD, RH = xe_run.run(
        Run, Module, 'fpbits', inputs,
        [(32, 39 * N), (32, 31 * N), (64, 17 * N), (16, 21 * N)],
        ['--block=%d' % N])[-4:]
    RI = [r - (1 << 32) if r >> 31 else r for r in RI]
    t = xe_run.Tally()

    def check(what, fmt, got, want):
        if fmt == 'int':
            ok = got == want
        elif want == 'nan':
            ok = fp_ref.decode(fmt, got) == 'nan'
        elif isinstance(want, int):
            ok = got == want
        else:
            ok = got == fp_ref.encode(fmt, want)
        t.check('%s: got %#x, want %s' % (what, got, hex(want) if isinstance(
            want, int) else want), ok)

    # (function, format, result buffer, first element, elements)
    regions = [
        ('nextafter', 'float', RF, 0, N), ('nextafter', 'float', RF, N, 4 * N),
        ('nextafter', 'float', RF, 5 * N, 16 * N),
        ('logb', 'float', RF, 21 * N, N), ('logb', 'float', RF, 22 * N, 8 * N),
        ('nan', 'float', RF, 30 * N, N), ('nan', 'float', RF, 31 * N, 8 * N),
        ('ilogb', 'float', RI, 0, N), ('ilogb', 'float', RI, N, 16 * N),
        ('ilogb', 'double', RI, 17 * N, N),
        ('ilogb', 'double', RI, 18 * N, 4 * N),
        ('nextafter', 'double', RD, 0, N),
        ('nextafter', 'double', RD, N, 2 * N),
        ('nextafter', 'double', RD, 3 * N, 8 * N),
        ('logb', 'double', RD, 11 * N, N), ('nan', 'double', RD, 12 * N, N),
        ('nan', 'double', RD, 13 * N, 4 * N),
        ('ilogb', 'half', RI, 22 * N, N), ('ilogb', 'half', RI, 23 * N, 8 * N),
        ('nextafter', 'half', RH, 0, N),
        ('nextafter', 'half', RH, N, 16 * N), ('nan', 'half', RH, 17 * N, N),
        ('nan', 'half', RH, 18 * N, 2 * N), ('logb', 'half', RH, 20 * N, N)]
    for fn, fmt, buf, first, n in regions:
        X, Y = ins[fmt]
        for k in range(n):
            what = '%s %s [%d] (x %#x, y %#x)' % (fn, fmt, k, X[k], Y[k])
            got = buf[first + k]
            if fn == 'nextafter':
                check(what, fmt, got, nextafter(fmt, X[k], Y[k]))
            elif fn == 'ilogb':
                check(what, 'int', got, ilogb(fmt, X[k]))
            elif fn == 'logb':
                check(what, fmt, got, logb(fmt, X[k]))
            else:
                check('nan %s [%d] (code %#x)' % (fmt, k, C[fmt][k]), fmt,
                      got, nan(fmt, C[fmt][k]))
    t.report()


main()
