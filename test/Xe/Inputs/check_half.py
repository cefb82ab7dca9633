# Runs opencl_half.cl's kernels on crosslane-run and checks every half and
# float they write against OpenCL C 3.0 §6.15.10 computed here: a stored
# value is the float or double source rounded once to half in the call's
# mode (round to nearest even by default), exactly as IEEE 754 rounds
# (fp_ref.py, integers only), a loaded one the half's exact value; any NaN
# is accepted for a NaN. Inputs: random bits and values, and adversarial
# ones (ties between halfs, in float and just off them in double, the
# half subnormal range and its edges, 65504 and the overflow boundary,
# float subnormals, NaN, infinities, signed zeros).
#   check_half.py CROSSLANE_RUN MODULE
import os, random, struct, subprocess, sys, tempfile
from fractions import Fraction
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fp_ref

Run, Module = sys.argv[1], sys.argv[2]
N = 64
MODES = ['rte', 'rte', 'rtz', 'rtp', 'rtn']


def adversarial(fmt, rnd):
    """A value (for fp_ref.encode) that is hard to round to half."""
    h = rnd.getrandbits(15)
    v = fp_ref.decode('half', h)
    if v == 'nan' or isinstance(v, str):
        v = Fraction(65504)
    ulp = Fraction(1, 1 << 24) if v < Fraction(1, 1 << 14) else \
        Fraction(2) ** (v.numerator.bit_length() - v.denominator.bit_length()
                        - 11)
    pick = rnd.randrange(9)
    if pick == 0:  # a tie (exact in float and double)
        x = v + ulp / 2
    elif pick == 1 and fmt == 'double':  # just off a tie
        x = v + ulp / 2 + rnd.choice([1, -1]) * ulp / (1 << 30)
    elif pick == 2:  # around the overflow boundary 65520
        x = Fraction(65520) + rnd.choice([0, -1, 1, -16, 16, 1 << 20])
    elif pick == 3:  # half subnormals and the smallest normal
        x = Fraction(rnd.randrange(1 << 11), 1 << 25)
    elif pick == 4:  # float subnormals
        x = Fraction(rnd.randrange(1, 1 << 23), 1 << 149)
    elif pick == 5:
        return rnd.choice(['nan', 'inf', '-inf', '-0', Fraction(0)])
    else:
        x = v + ulp * Fraction(rnd.randrange(1 << 10), 1 << 10)
    x = x if rnd.random() < 0.5 else -x
    return fp_ref.decode(fmt, fp_ref.encode(fmt, x))  # representable


def values(fmt, n, rnd):
    bits = {'float': 32, 'double': 64}[fmt]
    out = []
    for _ in range(n):
        if rnd.random() < 0.25:
            out.append(rnd.getrandbits(bits))
        else:
            out.append(fp_ref.encode(fmt, adversarial(fmt, rnd)))
    return out


def want_half(fmt, bits, mode):
    return fp_ref.encode('half', fp_ref.decode(fmt, bits), mode)


def same(fmt, got, want):
    if fp_ref.decode(fmt, want) == 'nan':
        return fp_ref.decode(fmt, got) == 'nan'
    return got == want


def run(kernel, args, tmp):
    out = os.path.join(tmp, kernel)
    subprocess.run([Run, Module, '--target=xe', '--kernel=' + kernel,
                    '--block=%d' % N, '--print=none', '--out=' + out] + args,
                   check=True)
    return out


def read(path, code, count):
    with open(path, 'rb') as f:
        return list(struct.unpack('<%d%s' % (count, code), f.read()))


def write(tmp, name, code, vals):
    path = os.path.join(tmp, name)
    with open(path, 'wb') as f:
        f.write(struct.pack('<%d%s' % (len(vals), code), *vals))
    return path


def main():
    rnd = random.Random(22)
    tmp = tempfile.mkdtemp()
    F = values('float', 16 * N, rnd)
    D = values('double', 16 * N, rnd)
    checked, bad = 0, []

    def check(what, got, want, fmt):
        nonlocal checked
        for k, (g, w) in enumerate(zip(got, want)):
            checked += 1
            if not same(fmt, g, w):
                bad.append('%s[%d]: got %#x, want %#x' % (what, k, g, w))
    out = run('stores', ['--arg=buf:f32:%d:file=%s' % (16 * N,
                         write(tmp, 'F', 'I', F)),
                         '--arg=buf:f64:%d:file=%s' % (16 * N,
                         write(tmp, 'D', 'Q', D)),
                         '--arg=buf:f16:%d:zero' % (10 * N),
                         '--arg=buf:f16:%d:zero' % (42 * N)], tmp)
    H = read(out + '.arg2.bin', 'H', 10 * N)
    want = [want_half(fmt, src[g], m) for fmt, src in (('float', F),
            ('double', D)) for m in MODES for g in range(N)]
    check('scalar stores', H, want, 'half')
    # (source, elements, stride, mode) of each vector region, in order.
    regions = [(('float', F), 2, 2, 'rtz'), (('float', F), 3, 3, 'rtp'),
               (('float', F), 3, 4, 'rtn'), (('float', F), 4, 4, 'rte'),
               (('double', D), 8, 8, 'rte'), (('double', D), 16, 16, 'rtz'),
               (('double', D), 2, 2, 'rtn'), (('double', D), 3, 3, 'rte')]
    want = []
    for (fmt, src), n, stride, mode in regions:
        for g in range(N):
            want += [want_half(fmt, src[g * n + e], mode) for e in range(n)]
            want += [0] * (stride - n)  # vstorea_half3 leaves the 4th
    V = read(out + '.arg3.bin', 'H', 42 * N)
    check('vector stores', V, want, 'half')
    # Loads: the halfs are F's rounded ones plus every kind of half.
    P = [want_half('float', F[k], 'rte') if k % 2 else rnd.getrandbits(16)
         for k in range(16 * N)]
    path = write(tmp, 'P', 'H', P)
    out = run('loads', ['--arg=buf:f16:%d:file=%s' % (16 * N, path),
                        '--arg=buf:f16:%d:file=%s' % (16 * N, path),
                        '--arg=buf:f32:%d:zero' % (42 * N)], tmp)
    got = read(out + '.arg2.bin', 'I', 42 * N)
    f32 = lambda h: fp_ref.encode('float', fp_ref.decode('half', h))
    want = []
    for g in range(N):
        idx = [g] + [2 * g + e for e in range(2)] + \
            [3 * g + e for e in range(3)] + [4 * g + e for e in range(3)] + \
            [4 * g + e for e in range(4)] * 2 + \
            [8 * g + e for e in range(8)] + [16 * g + e for e in range(16)] + \
            [g]
        want += [f32(P[k]) for k in idx]
    check('loads', got, want, 'float')
    out = run('spaces', ['--arg=buf:f32:%d:file=%s' % (16 * N,
                         write(tmp, 'F2', 'I', F)),
                         '--arg=buf:f32:%d:zero' % (5 * N)], tmp)
    got = read(out + '.arg1.bin', 'I', 5 * N)
    back = lambda b, m: f32(want_half('float', b, m))
    want = [back(F[k], 'rtz') for k in range(4 * N)] + \
        [back(F[4 * g], 'rtp') for g in range(N)]
    check('local and private', got, want, 'float')
    for line in bad[:10]:
        print('mismatch:', line)
    print('checked %d values, %d mismatches' % (checked, len(bad)))


main()
