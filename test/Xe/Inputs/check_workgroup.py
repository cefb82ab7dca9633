# Runs opencl_workgroup.cl's `collectives` kernel on crosslane-run and
# checks every result against a reference computed here from the OpenCL C
# 3.0 definitions (§6.15.18): reductions and scans in linear local id
# order, min/max of floats as fmin/fmax (a NaN operand ignored, -0 < +0),
# integer sums wrapping, each float step rounded to its format exactly
# (fp_ref.py). The inputs give order-independent float results: integers
# in a small range, or only special values (NaN, infinities, signed zeros,
# subnormals, the largest finite value).
#   check_workgroup.py CROSSLANE_RUN MODULE SG
import os, random, struct, subprocess, sys, tempfile
from fractions import Fraction
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fp_ref

Run, Module, SG = sys.argv[1], sys.argv[2], int(sys.argv[3])
TYPES = [('int', 'i32', 32, True), ('uint', 'i32', 32, False),
         ('long', 'i64', 64, True), ('ulong', 'i64', 64, False),
         ('float', 'f32', 'float', None), ('double', 'f64', 'double', None),
         ('half', 'f16', 'half', None)]
SIZE = {'i32': 4, 'i64': 8, 'f32': 4, 'f64': 8, 'f16': 2}
PACK = {'i32': '<I', 'i64': '<Q', 'f32': '<I', 'f64': '<Q', 'f16': '<H'}
STYLES = ['random', 'extreme', 'equal', 'special', 'zeros']


def int_values(bits, signed, style, n, rnd):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else \
        (0, (1 << bits) - 1)
    if style == 'random':
        return [rnd.randint(-1000 if signed else 0, 1000) for _ in range(n)]
    if style == 'equal':
        v = rnd.randint(lo, hi)
        return [v] * n
    if style == 'zeros':
        return [7 if i == n - 1 else 0 for i in range(n)]
    edge = [lo, hi, lo + 1, hi - 1, 0, 1, (1 << bits) - 1 if not signed
            else -1]
    return [rnd.choice(edge) if rnd.random() < 0.6 else rnd.randint(lo, hi)
            for _ in range(n)]


def float_values(fmt, style, n, rnd):
    """Bit patterns."""
    e, m, bias = fp_ref.params(fmt)
    big = ((1 << e) - 2) << m | ((1 << m) - 1)
    if style == 'random':
        return [fp_ref.encode(fmt, Fraction(rnd.randint(-512, 512), 16))
                for _ in range(n)]
    if style == 'equal':
        v = fp_ref.encode(fmt, Fraction(rnd.randint(-100, 100), 4))
        return [v] * n
    if style == 'zeros':  # signed zeros only: the sum of -0s is -0
        return [fp_ref.encode(fmt, rnd.choice(['-0', Fraction(0)]))
                if i % 5 == 0 else fp_ref.encode(fmt, '-0') for i in range(n)]
    if style == 'extreme':  # subnormals, zeros and the largest finite
        pool = [fp_ref.encode(fmt, '-0'), 0, big, 1, 3, (1 << (m - 1)) | 5,
                (1 << e + m) | 2]
        return [rnd.choice(pool) for _ in range(n)]
    pool = [fp_ref.encode(fmt, 'nan'), fp_ref.encode(fmt, 'inf'),
            fp_ref.encode(fmt, '-inf'), fp_ref.encode(fmt, '-0'), 0, 1, big]
    vals = [rnd.choice(pool[3:]) for _ in range(n)]
    for k in rnd.sample(range(n), 3):  # a few NaNs and infinities
        vals[k] = rnd.choice(pool[:3])
    return vals


class IntOps:
    def __init__(self, bits, signed):
        self.bits, self.signed = bits, signed
        self.mask = (1 << bits) - 1

    def val(self, x):
        x &= self.mask
        return x - (1 << self.bits) if self.signed and x >> (self.bits - 1) \
            else x

    def add(self, a, b):
        return self.val(a + b)

    def min(self, a, b):
        return min(self.val(a), self.val(b))

    def max(self, a, b):
        return max(self.val(a), self.val(b))

    def identity(self, op):
        lo = -(1 << (self.bits - 1)) if self.signed else 0
        hi = (1 << (self.bits - 1)) - 1 if self.signed else self.mask
        return {'add': 0, 'min': hi, 'max': lo}[op]

    def same(self, got, want):
        return got & self.mask == want & self.mask


class FloatOps:
    """Values as decoded by fp_ref ('nan', 'inf', '-inf', '-0' or a
    Fraction); each result encoded back with round to nearest even."""

    def __init__(self, fmt):
        self.fmt = fmt

    def num(self, v):  # for comparisons: -0 sorts below +0
        return {'-0': (Fraction(0), 0), 'inf': (Fraction(10) ** 400, 1),
                '-inf': (-Fraction(10) ** 400, 1)}.get(
                    v, (v, 1) if not isinstance(v, str) else None)

    def round(self, v):
        return fp_ref.decode(self.fmt, fp_ref.encode(self.fmt, v))

    def add(self, a, b):
        if 'nan' in (a, b):
            return 'nan'
        if {a, b} == {'inf', '-inf'}:
            return 'nan'
        for s in ('inf', '-inf'):
            if s in (a, b):
                return s
        if a == '-0' and b == '-0':
            return '-0'
        x = (0 if a == '-0' else a) + (0 if b == '-0' else b)
        return self.round(x)

    def pick(self, a, b, lower):
        if a == 'nan':
            return b
        if b == 'nan':
            return a
        return a if (self.num(a) <= self.num(b)) == lower else b

    def min(self, a, b):
        return self.pick(a, b, True)

    def max(self, a, b):
        return self.pick(a, b, False)

    def identity(self, op):
        return {'add': Fraction(0), 'min': 'inf', 'max': '-inf'}[op]

    def same(self, got, want):
        g = fp_ref.decode(self.fmt, got)
        if want == 'nan':
            return g == 'nan'
        return got == fp_ref.encode(self.fmt, want)


def expected(ops, xs, bx, by, bz, block):
    """The 12 results of every work-item of one work-group."""
    rows = [[None] * 12 for _ in xs]
    for k, op in enumerate(['add', 'min', 'max']):
        f = getattr(ops, op)
        acc = xs[0]
        for i, x in enumerate(xs):
            if i:
                rows[i][6 + k] = acc
                acc = f(acc, x)
            else:
                rows[i][6 + k] = ops.identity(op)
            rows[i][3 + k] = acc
        for r in rows:
            r[k] = acc
    for r in rows:
        r[9] = xs[bx]
        r[10] = xs[bx + by * block[0]]
        r[11] = xs[bx + by * block[0] + bz * block[0] * block[1]]
    return rows


def check(block, grid, seed):
    rnd = random.Random(seed)
    items = block[0] * block[1] * block[2]
    n = items * grid
    bx, by, bz = [rnd.randrange(b) for b in block]
    tmp = tempfile.mkdtemp()
    args, inputs = [], []
    for name, code, w, signed in TYPES:
        vals = []
        for g in range(grid):
            style = STYLES[(g + seed) % len(STYLES)]
            if signed is None:
                vals += float_values(w, style, items, rnd)
            else:
                vals += [v & ((1 << w) - 1)
                         for v in int_values(w, signed, style, items, rnd)]
        path = os.path.join(tmp, name + '.bin')
        with open(path, 'wb') as f:
            for v in vals:
                f.write(struct.pack(PACK[code], v))
        inputs.append(vals)
        args.append('--arg=buf:%s:%d:file=%s' % (code, n, path))
    for name, code, w, signed in TYPES:
        args.append('--arg=buf:%s:%d:zero' % (code, n * 12))
    args.append('--arg=buf:i32:%d:zero' % (n * 2))
    args += ['--arg=i32:%d' % bx, '--arg=i32:%d' % by, '--arg=i32:%d' % bz]
    out = os.path.join(tmp, 'out')
    subprocess.run([Run, Module, '--target=xe', '--kernel=collectives',
                    '--block=%d,%d,%d' % block, '--grid=%d' % grid,
                    '--print=none', '--out=' + out] + args, check=True)
    checked, bad = 0, []
    for t, (name, code, w, signed) in enumerate(TYPES):
        with open('%s.arg%d.bin' % (out, 7 + t), 'rb') as f:
            data = f.read()
        size = SIZE[code]
        got = [struct.unpack(PACK[code], data[k * size:(k + 1) * size])[0]
               for k in range(n * 12)]
        ops = FloatOps(w) if signed is None else IntOps(w, signed)
        for g in range(grid):
            xs = inputs[t][g * items:(g + 1) * items]
            if signed is None:
                xs = [fp_ref.decode(w, x) for x in xs]
            else:
                xs = [ops.val(x) for x in xs]
            for i, row in enumerate(expected(ops, xs, bx, by, bz, block)):
                for k, want in enumerate(row):
                    at = ((g * items + i) * 12 + k)
                    checked += 1
                    if not ops.same(got[at], want):
                        bad.append('%s item %d result %d: got %#x, want %s'
                                   % (name, g * items + i, k, got[at], want))
    with open('%s.arg14.bin' % out, 'rb') as f:
        votes = struct.unpack('<%di' % (n * 2), f.read())
    for g in range(grid):
        pi = [v & 1 for v in inputs[0][g * items:(g + 1) * items]]
        pu = [v == 7 for v in inputs[1][g * items:(g + 1) * items]]
        for i in range(items):
            at = (g * items + i) * 2
            for k, want in enumerate([int(all(pi)), int(any(pu))]):
                checked += 1
                if votes[at + k] != want:
                    bad.append('vote item %d %d: got %d, want %d'
                               % (g * items + i, k, votes[at + k], want))
    return checked, bad


# Work-groups of several subgroups, a partial last subgroup, one subgroup,
# two and three dimensions; each work-group of a launch gets another input
# style.
SHAPES = {16: [((48, 1, 1), 5), ((40, 1, 1), 5), ((16, 1, 1), 5),
               ((8, 6, 1), 5), ((4, 3, 2), 5)],
          32: [((96, 1, 1), 5), ((40, 1, 1), 5), ((8, 4, 2), 5)]}
Checked, Bad = 0, []
for k, (block, grid) in enumerate(SHAPES[SG]):
    c, b = check(block, grid, k + SG)
    Checked += c
    Bad += b
for line in Bad[:10]:
    print('mismatch:', line)
print('checked %d values, %d mismatches' % (Checked, len(Bad)))
