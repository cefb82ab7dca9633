# Runs opencl_convert.cl's kernel on crosslane-run and checks every float
# and double it writes against OpenCL C 3.0 §6.4.3 computed here: the
# integer or double source rounded once to the destination format in the
# call's mode (round to nearest even by default), as IEEE 754 rounds
# (fp_ref.py, integers only; any NaN for a NaN). Inputs: random bits and
# adversarial values (ties and near-ties at 2^24 and 2^53, INT_MIN,
# UINT_MAX, LONG_MIN, ULONG_MAX, doubles beyond FLT_MAX, float subnormals
# and ties, NaN, infinities, signed zeros).
#   check_convert.py CROSSLANE_RUN MODULE
import os, random, struct, subprocess, sys, tempfile
from fractions import Fraction
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fp_ref

Run, Module = sys.argv[1], sys.argv[2]
N = 64
MODES = ['rte', 'rte', 'rtz', 'rtp', 'rtn']


def ints(bits, signed, rnd):
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    out = []
    for _ in range(8 * N):
        k = rnd.randrange(6)
        if k == 0:
            v = rnd.choice([lo, hi, 0, -1 if signed else 1, lo + 1, hi - 1])
        elif k == 1:  # ties and near-ties of float (24 bits) and double (53)
            p = rnd.choice([24, 25, 31, 53, 54, 62])
            v = (1 << p) + rnd.choice([1, 2, 3, 5, (1 << (p - 23)) - 1])
            v = min(v, hi)
        elif k == 2:
            v = rnd.randrange(-(1 << 26) if signed else 0, 1 << 26)
        else:
            v = rnd.randint(lo, hi)
        if signed and rnd.random() < 0.3:
            v = max(-v, lo)
        out.append(v & ((1 << bits) - 1))
    return out


def doubles(rnd):
    out = []
    for _ in range(8 * N):
        k = rnd.randrange(6)
        if k == 0:
            v = rnd.choice(['nan', 'inf', '-inf', '-0', Fraction(0)])
        elif k == 1:  # a float tie, or just off it
            f = fp_ref.decode('float', rnd.getrandbits(31))
            if isinstance(f, str):
                f = Fraction(1)
            e = f.numerator.bit_length() - f.denominator.bit_length()
            ulp = Fraction(2) ** max(e - 23, -149)
            v = f + ulp / 2 + rnd.choice([0, 0, ulp / (1 << 28)])
        elif k == 2:  # beyond FLT_MAX, around it
            v = Fraction(2) ** 128 - Fraction(2) ** rnd.choice([103, 104, 105])
        elif k == 3:  # the float subnormal range
            v = Fraction(rnd.randrange(1, 1 << 30), 1 << 179)
        else:
            out.append(rnd.getrandbits(64))
            continue
        if not isinstance(v, str) and rnd.random() < 0.5:
            v = -v
        out.append(fp_ref.encode('double', v))
    return out


def main():
    rnd = random.Random(5)
    tmp = tempfile.mkdtemp()
    srcs = [('I', 32, True), ('U', 32, False), ('L', 64, True),
            ('UL', 64, False)]
    data = {name: ints(b, s, rnd) for name, b, s in srcs}
    data['D'] = doubles(rnd)
    args = []
    for name, bits, _ in srcs + [('D', 64, None)]:
        path = os.path.join(tmp, name)
        with open(path, 'wb') as f:
            f.write(struct.pack('<%d%s' % (8 * N, 'I' if bits == 32 else 'Q'),
                                *data[name]))
        code = 'f64' if name == 'D' else 'i%d' % bits
        args.append('--arg=buf:%s:%d:file=%s' % (code, 8 * N, path))
    args += ['--arg=buf:f32:%d:zero' % (42 * N),
             '--arg=buf:f64:%d:zero' % (10 * N)]
    out = os.path.join(tmp, 'out')
    subprocess.run([Run, Module, '--target=xe', '--kernel=to_float',
                    '--block=%d' % N, '--print=none', '--out=' + out] + args,
                   check=True)

    def value(name, k):
        if name == 'D':
            return fp_ref.decode('double', data['D'][k])
        bits, signed = {n: (b, s) for n, b, s in srcs}[name]
        v = data[name][k]
        return Fraction(v - (1 << bits) if signed and v >> (bits - 1) else v)
    want_f = []
    for name in ['I', 'U', 'L', 'UL', 'D']:
        for m in MODES:
            want_f += [fp_ref.encode('float', value(name, g), m)
                       for g in range(N)]
    for name, n, m in [('I', 4, 'rtp'), ('UL', 2, 'rtn'), ('D', 8, 'rtz'),
                       ('L', 3, 'rtn')]:
        want_f += [fp_ref.encode('float', value(name, k), m)
                   for k in range(n * N)]
    want_d = [fp_ref.encode('double', value(name, g), m)
              for name in ['L', 'UL'] for m in MODES for g in range(N)]
    checked, bad = 0, []
    for fmt, path, want, code in [('float', out + '.arg5.bin', want_f, 'I'),
                                  ('double', out + '.arg6.bin', want_d, 'Q')]:
        with open(path, 'rb') as f:
            got = struct.unpack('<%d%s' % (len(want), code), f.read())
        for k, (g, w) in enumerate(zip(got, want)):
            checked += 1
            nan = fp_ref.decode(fmt, w) == 'nan'
            if (fp_ref.decode(fmt, g) == 'nan') != nan or (not nan and g != w):
                bad.append('%s[%d]: got %#x, want %#x' % (fmt, k, g, w))
    for line in bad[:10]:
        print('mismatch:', line)
    print('checked %d values, %d mismatches' % (checked, len(bad)))


main()
