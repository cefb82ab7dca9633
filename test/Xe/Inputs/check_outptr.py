# Runs opencl_outptr.cl's kernel on crosslane-run and checks every result
# and every value written through a pointer against OpenCL C 3.0 §6.15.2
# (edge cases §7.5.1) computed here: fract, modf, frexp and remquo exactly
# with Fractions (remquo: the remainder of the quotient rounded to nearest
# even, and its low 7 bits with the sign of x/y), sin, cos and lgamma with
# Python's math library to a relative 1e-6 (float) or 1e-12 (double), and
# gamma's sign from the input (0 at zero, the negative integers, NaN and
# -inf). NaN matches any NaN; the sign of a zero counts.
#   check_outptr.py CROSSLANE_RUN MODULE
import math, os, random, struct, subprocess, sys, tempfile
from fractions import Fraction
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fp_ref

Run, Module = sys.argv[1], sys.argv[2]
N = 64
NAN = float('nan')


def inputs(fmt, n, rnd):
    vals = []
    for _ in range(n):
        k = rnd.randrange(8)
        if k == 0:
            v = rnd.choice(['nan', 'inf', '-inf', '-0', Fraction(0)])
        elif k == 1:  # integers and halves (poles, remquo ties)
            v = Fraction(rnd.randrange(-40, 40), rnd.choice([1, 2]))
        elif k == 2:  # tiny, huge, subnormal
            v = rnd.choice([Fraction(1, 10 ** 30), Fraction(10) ** 30,
                            Fraction(3, 1 << 140), Fraction(10) ** 300,
                            Fraction(1, 1 << 1060)])
        else:
            v = Fraction(rnd.uniform(-50, 50))
        if not isinstance(v, str) and rnd.random() < 0.5:
            v = -v
        vals.append(fp_ref.encode(fmt, v))
    return vals


def rnd_to(fmt, v):
    return fp_ref.encode(fmt, v)


def fract(fmt, x):
    if x == 'nan':
        return ('nan', 'nan')
    if x in ('inf', '-inf'):
        return ('-0' if x == '-inf' else Fraction(0), x)
    if x == '-0' or x == 0:
        return (x, x)
    fl = Fraction(math.floor(x))
    r = fp_ref.decode(fmt, rnd_to(fmt, x - fl))
    below = Fraction((1 << 24) - 1, 1 << 24) if fmt == 'float' else \
        Fraction((1 << 53) - 1, 1 << 53)
    return (min(r, below), fl if fl != 0 or x > 0 else '-0')


def modf(fmt, x):
    if x == 'nan':
        return ('nan', 'nan')
    if x in ('inf', '-inf'):
        return ('-0' if x == '-inf' else Fraction(0), x)
    if x == '-0':
        return ('-0', '-0')
    i = Fraction(math.trunc(x))
    f = x - i
    neg = x < 0
    return (f if f != 0 or not neg else '-0', i if i != 0 or not neg else '-0')


def frexp(fmt, x):
    if isinstance(x, str) or x == 0:
        return (x, 0)
    e = x.numerator.bit_length() - x.denominator.bit_length() + 1
    m = x / Fraction(2) ** e
    while abs(m) >= 1:
        m, e = m / 2, e + 1
    while abs(m) < Fraction(1, 2):
        m, e = m * 2, e - 1
    return (m, e)


def remquo(fmt, x, y):
    if 'nan' in (x, y) or x in ('inf', '-inf') or y in ('-0', 0):
        return ('nan', 0)
    if y in ('inf', '-inf'):
        return (x, 0)
    xv = Fraction(0) if x == '-0' else x
    q = xv / y
    k = math.floor(q)
    if q - k > Fraction(1, 2) or (q - k == Fraction(1, 2) and k % 2):
        k += 1
    r = xv - k * y
    if r == 0 and (x == '-0' or xv < 0):
        r = '-0'
    neg = (x == '-0' or xv < 0) != (y < 0)
    bits = abs(k) % 128
    return (r, -bits if neg else bits)


def lgamma_sign(x):
    if x in ('nan', '-inf') or x == '-0' or (x <= 0 if not isinstance(x, str)
                                              else False):
        if isinstance(x, str) or x == math.floor(x):
            return 0
    if x == 'inf' or x > 0:
        return 1
    return -1 if math.floor(x) % 2 else 1


def approx(fmt, fn, x):
    """sin, cos or lgamma of x as a float (compared with a tolerance)."""
    xf = fp_ref.to_float(fmt, fp_ref.encode(fmt, x))
    try:
        return fn(xf)
    except (ValueError, OverflowError):
        return float('inf') if fn is math.lgamma else NAN


class Checker:
    def __init__(self):
        self.checked, self.bad = 0, []

    def exact(self, what, fmt, got, want):
        self.checked += 1
        if isinstance(want, int) and fmt == 'int':
            ok = got == want & 0xffffffff
        elif want == 'nan':
            ok = fp_ref.decode(fmt, got) == 'nan'
        else:
            ok = got == fp_ref.encode(fmt, want)
        if not ok:
            self.bad.append('%s: got %#x, want %s' % (what, got, want))

    def close(self, what, fmt, got, want):
        self.checked += 1
        g = fp_ref.to_float(fmt, got)
        tol = 1e-6 if fmt == 'float' else 1e-12
        if math.isnan(want):
            ok = math.isnan(g)
        elif math.isinf(want):
            ok = g == want
        else:
            ok = abs(g - want) <= tol * max(1.0, abs(want))
        if not ok:
            self.bad.append('%s: got %r, want %r' % (what, g, want))


def main():
    rnd = random.Random(9)
    tmp = tempfile.mkdtemp()
    X = inputs('float', 4 * N, rnd)
    Y = inputs('float', 4 * N, rnd)
    XD = inputs('double', 2 * N, rnd)
    YD = inputs('double', 2 * N, rnd)
    args = []
    for name, vals, code, t in [('X', X, 'I', 'f32'), ('Y', Y, 'I', 'f32'),
                                ('XD', XD, 'Q', 'f64'),
                                ('YD', YD, 'Q', 'f64')]:
        path = os.path.join(tmp, name)
        with open(path, 'wb') as f:
            f.write(struct.pack('<%d%s' % (len(vals), code), *vals))
        args.append('--arg=buf:%s:%d:file=%s' % (t, len(vals), path))
    args += ['--arg=buf:f32:%d:zero' % (41 * N), '--arg=buf:i32:%d:zero'
             % (13 * N), '--arg=buf:f64:%d:zero' % (11 * N),
             '--arg=buf:i32:%d:zero' % (5 * N)]
    out = os.path.join(tmp, 'out')
    subprocess.run([Run, Module, '--target=xe', '--kernel=outptr',
                    '--block=%d' % N, '--print=none', '--out=' + out] + args,
                   check=True)

    def read(k, code, n):
        with open('%s.arg%d.bin' % (out, k), 'rb') as f:
            return struct.unpack('<%d%s' % (n, code), f.read())
    R, I = read(4, 'I', 41 * N), read(5, 'i', 13 * N)
    RD, ID = read(6, 'Q', 11 * N), read(7, 'i', 5 * N)
    c = Checker()
    for fmt, R_, I_, XS, YS in [('float', R, I, X, Y),
                                ('double', RD, ID, XD, YD)]:
        for g in range(N):
            a, b = fp_ref.decode(fmt, XS[g]), fp_ref.decode(fmt, YS[g])
            at = lambda k: R_[k * N + g]
            for k, w in zip((0, 1), fract(fmt, a)):
                c.exact('%s fract %d' % (fmt, g), fmt, at(k), w)
            for k, w in zip((2, 3), modf(fmt, a)):
                c.exact('%s modf %d' % (fmt, g), fmt, at(k), w)
            m, e = frexp(fmt, a)
            c.exact('%s frexp %d' % (fmt, g), fmt, at(4), m)
            c.exact('%s frexp exp %d' % (fmt, g), 'int', I_[g] & 0xffffffff, e)
            c.close('%s sin %d' % (fmt, g), fmt, at(5), approx(fmt, math.sin, a))
            c.close('%s cos %d' % (fmt, g), fmt, at(6), approx(fmt, math.cos, a))
            r, q = remquo(fmt, a, b)
            c.exact('%s remquo %d' % (fmt, g), fmt, at(7), r)
            c.exact('%s quo %d' % (fmt, g), 'int', I_[N + g] & 0xffffffff, q)
            c.close('%s lgamma %d' % (fmt, g), fmt, at(8),
                    approx(fmt, math.lgamma, a))
            c.exact('%s sign %d' % (fmt, g), 'int', I_[2 * N + g] & 0xffffffff,
                    lgamma_sign(a))
    for g in range(N):
        a, b = fp_ref.decode('float', X[g]), fp_ref.decode('float', Y[g])
        for k, w in zip((9, 10), fract('float', b)):
            c.exact('private fract %d' % g, 'float', R[k * N + g], w)
        r, q = remquo('float', b, a)
        c.exact('private remquo %d' % g, 'float', R[11 * N + g], r)
        c.exact('private quo %d' % g, 'int', I[3 * N + g] & 0xffffffff, q)
        for k, w in zip((12, 13), modf('float', b)):
            c.exact('local modf %d' % g, 'float', R[k * N + g], w)
        m, e = frexp('float', b)
        c.exact('local frexp %d' % g, 'float', R[14 * N + g], m)
        c.exact('local frexp exp %d' % g, 'int', I[4 * N + g] & 0xffffffff, e)
    vec = lambda src, k: fp_ref.decode('float', src[k])
    for k in range(4 * N):
        c.close('sincos4 %d' % k, 'float', R[15 * N + k],
                approx('float', math.sin, vec(X, k)))
        c.close('sincos4 cos %d' % k, 'float', R[19 * N + k],
                approx('float', math.cos, vec(X, k)))
        m, e = frexp('float', vec(Y, k))
        c.exact('frexp4 %d' % k, 'float', R[23 * N + k], m)
        c.exact('frexp4 exp %d' % k, 'int', I[5 * N + k] & 0xffffffff, e)
    for k in range(3 * N):
        for j, w in zip((27, 30), fract('float', vec(Y, k))):
            c.exact('fract3 %d' % k, 'float', R[j * N + k], w)
    for k in range(2 * N):
        r, q = remquo('float', vec(X, k), vec(Y, k))
        c.exact('remquo2 %d' % k, 'float', R[33 * N + k], r)
        c.exact('remquo2 quo %d' % k, 'int', I[9 * N + k] & 0xffffffff, q)
        c.close('lgamma2 %d' % k, 'float', R[35 * N + k],
                approx('float', math.lgamma, vec(Y, k)))
        c.exact('lgamma2 sign %d' % k, 'int', I[11 * N + k] & 0xffffffff,
                lgamma_sign(vec(Y, k)))
        for j, w in zip((37, 39), modf('float', vec(X, k))):
            c.exact('modf2 %d' % k, 'float', R[j * N + k], w)
        a, b = fp_ref.decode('double', XD[k]), fp_ref.decode('double', YD[k])
        r, q = remquo('double', a, b)
        c.exact('remquo double2 %d' % k, 'double', RD[9 * N + k], r)
        c.exact('remquo double2 quo %d' % k, 'int', ID[3 * N + k] & 0xffffffff,
                q)
    for line in c.bad[:10]:
        print('mismatch:', line)
    print('checked %d values, %d mismatches' % (c.checked, len(c.bad)))


main()
