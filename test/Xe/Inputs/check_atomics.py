# Runs opencl_atomics_c11.cl's `c11` kernel on crosslane-run and checks
# every result and every atomic object's final value against a simulation
# of OpenCL C 3.0 §6.15.12 written here: the work-items of a subgroup run
# each call in turn, in lane order (the executor's order; each subgroup
# has its own objects, so the order of subgroups does not matter), with
# two's complement wrap-around, signed or unsigned min/max as the object's
# type says, compare-exchange comparing bits and writing the object's value
# back to *expected on failure, and atomic_flag set = non-zero.
#   check_atomics.py CROSSLANE_RUN MODULE SG
import os, random, struct, subprocess, sys, tempfile

Run, Module, SG = sys.argv[1], sys.argv[2], int(sys.argv[3])
INTS = [('int', 32, True), ('uint', 32, False), ('long', 64, True),
        ('ulong', 64, False)]
FLOATS = [('float', 32), ('double', 64)]


def pack(bits, vals):
    return struct.pack('<%d%s' % (len(vals), 'I' if bits == 32 else 'Q'),
                       *vals)


def unpack(bits, data):
    return list(struct.unpack('<%d%s' % (len(data) * 8 // bits,
                                          'I' if bits == 32 else 'Q'), data))


def signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def edge_ints(bits, rnd, n):
    m = (1 << bits) - 1
    pool = [0, 1, m, 1 << (bits - 1), m >> 1, 0x5a5a, m ^ 0x5a5a]
    return [rnd.choice(pool) if rnd.random() < 0.4 else rnd.getrandbits(bits)
            if rnd.random() < 0.5 else rnd.randrange(64) for _ in range(n)]


def edge_floats(bits, rnd, n):
    if bits == 32:
        pool = [0x7fc00000, 0x7f800001, 0x7f800000, 0xff800000, 0x80000000, 0,
                1, 0x807fffff, 0x7f7fffff, 0x3f000000]
    else:
        pool = [0x7ff8000000000000, 0x7ff0000000000001, 0x7ff0000000000000,
                0xfff0000000000000, 1 << 63, 0, 1, 0x7fefffffffffffff,
                0xbfd0000000000000]
    return [rnd.choice(pool) if rnd.random() < 0.5 else rnd.getrandbits(bits)
            for _ in range(n)]


def int_ops(objs, xs, es, bits, sgn, res):
    """One subgroup's OPS macro: objs its 16 objects (bit patterns), xs/es
    its lanes' values and expected values; fills res[lane][16]."""
    m = (1 << bits) - 1
    val = (lambda v: signed(v, bits)) if sgn else (lambda v: v)
    steps = [(0, lambda o, x: o + x), (1, lambda o, x: o - x),
             (2, lambda o, x: o | x), (3, lambda o, x: o ^ x),
             (4, lambda o, x: o & x),
             (5, lambda o, x: o if val(o) <= val(x) else x),
             (6, lambda o, x: o if val(o) >= val(x) else x),
             (7, lambda o, x: x)]
    objs[14] = 100
    for k, f in steps:
        for l, x in enumerate(xs):
            res[l][k] = objs[k]
            objs[k] = f(objs[k], x) & m
    for slot, obj in ((8, 8), (10, 9)):
        for l, (x, e) in enumerate(zip(xs, es)):
            ok = objs[obj] == e
            res[l][slot] = int(ok)
            res[l][slot + 1] = e if ok else objs[obj]
            if ok:
                objs[obj] = x
    for l, x in enumerate(xs):
        objs[10] = x
    for l, x in enumerate(xs):
        res[l][12] = objs[10]
    for l, (x, e) in enumerate(zip(xs, es)):
        objs[11] = x ^ e
    for l, x in enumerate(xs):
        res[l][13] = objs[11]
    for l, x in enumerate(xs):
        res[l][14] = objs[14]
        objs[14] = x
    for l in range(len(xs)):
        res[l][15] = objs[0]


# 1.0 and the values atomic_init gives the float (0.5f) and double (-0.25)
# objects.
ONE_F = {32: 0x3f800000, 64: 0x3ff0000000000000}
HALF_F = {32: 0x3f000000, 64: 0xbfd0000000000000}


def float_ops(objs, xs, es, bits, res):
    """The float and double block; the CAS's bool is stored as 1.0 or 0."""
    objs[0] = HALF_F[bits]
    for l, x in enumerate(xs):
        res[l][0] = objs[0]
        objs[0] = x
    for l, (x, e) in enumerate(zip(xs, es)):
        ok = objs[1] == e
        res[l][1] = ONE_F[bits] if ok else 0
        res[l][2] = e if ok else objs[1]
        if ok:
            objs[1] = x
    for x in xs:
        objs[2] = x
    for l in range(len(xs)):
        res[l][3] = objs[2]


def expected_for(objs, slot, xs, rnd):
    """Expected values that match the object's value when the lane gets to
    it about half the time (a simulation of the CAS on that object)."""
    cur, es = objs[slot], []
    for x in xs:
        e = cur if rnd.random() < 0.5 else (rnd.choice([x, cur ^ 1]))
        es.append(e)
        if e == cur:
            cur = x
    return es


def check(block, grid, seed):
    rnd = random.Random(seed)
    n = block * grid
    subs = grid * ((block + SG - 1) // SG)
    lanes = [list(range(s * SG, min((s + 1) * SG, n)))
             for s in range(subs)]  # block is a multiple of SG here
    tmp = tempfile.mkdtemp()
    arg, files = [], {}

    def buf(name, bits, vals, kind='i'):
        path = os.path.join(tmp, name)
        with open(path, 'wb') as f:
            f.write(pack(bits, vals))
        code = ('i' if kind == 'i' else 'f') + str(bits)
        return '--arg=buf:%s:%d:file=%s' % (code, len(vals), path)

    objs, vs, es = {}, {}, {}
    for name, bits, sgn in INTS:
        objs[name] = edge_ints(bits, rnd, subs * 16)
        vs[name] = edge_ints(bits, rnd, n)
        for s in range(subs):  # the weak CAS's object starts as the strong's
            objs[name][s * 16 + 9] = objs[name][s * 16 + 8]
        es[name] = []
        for s in range(subs):
            es[name] += expected_for(objs[name], s * 16 + 8,
                                     [vs[name][g] for g in lanes[s]], rnd)
    for name, bits in FLOATS:
        objs[name] = edge_floats(bits, rnd, subs * 4)
        vs[name] = edge_floats(bits, rnd, n)
        es[name] = []
        for s in range(subs):
            es[name] += expected_for(objs[name], s * 4 + 1,
                                     [vs[name][g] for g in lanes[s]], rnd)
    order = [t[0] for t in INTS] + [t[0] for t in FLOATS]
    bits_of = dict([(t[0], t[1]) for t in INTS] + FLOATS)
    kind = lambda t: 'f' if t in ('float', 'double') else 'i'
    for src in (objs, vs, es):
        for t in order:
            arg.append(buf('%s%d' % (t, len(arg)), bits_of[t], src[t],
                           kind(t)))
    for t in order:
        w = 4 if kind(t) == 'f' else 16
        arg.append('--arg=buf:%s%d:%d:zero' % (kind(t), bits_of[t], n * w))
    arg.append('--arg=buf:i32:%d:zero' % (n * 16))
    arg.append('--arg=buf:i32:%d:zero' % subs)
    out = os.path.join(tmp, 'out')
    subprocess.run([Run, Module, '--target=xe', '--kernel=c11',
                    '--block=%d' % block, '--grid=%d' % grid, '--print=none',
                    '--out=' + out] + arg, check=True)

    def got(k, bits):
        with open('%s.arg%d.bin' % (out, k), 'rb') as f:
            return unpack(bits, f.read())
    checked, bad = 0, []

    def compare(what, g, want):
        nonlocal checked
        for k, (a, b) in enumerate(zip(g, want)):
            checked += 1
            if a != b:
                bad.append('%s[%d]: got %#x, want %#x' % (what, k, a, b))
    want_local = [[0] * 16 for _ in range(n)]
    for t in order:
        bits = bits_of[t]
        w = 4 if kind(t) == 'f' else 16
        res = [[0] * w for _ in range(n)]
        final = list(objs[t])
        for s in range(subs):
            o = final[s * w:(s + 1) * w]
            xs = [vs[t][g] for g in lanes[s]]
            ex = [es[t][g] for g in lanes[s]]
            r = [res[g] for g in lanes[s]]
            if kind(t) == 'f':
                float_ops(o, xs, ex, bits, r)
            else:
                int_ops(o, xs, ex, bits, dict((a, c) for a, b, c in INTS)[t],
                        r)
            final[s * w:(s + 1) * w] = o
            if t == 'int':  # the local objects start from these
                lo = [(v ^ 0x5a5a) & 0xffffffff for v in o]
                int_ops(lo, xs, ex, 32, True,
                        [want_local[g] for g in lanes[s]])
        compare(t + ' objects', got(order.index(t), bits), final)
        compare(t + ' results', got(18 + order.index(t), bits),
                [v & ((1 << bits) - 1) for row in res for v in row])
    for s in range(subs):
        for k, g in enumerate(lanes[s]):
            want_local[g][15] = int(k > 0)
            want_local[g][14] = int(k > 0)  # lane 3 cleared it
    compare('local results and flags', got(24, 32),
            [v & 0xffffffff for row in want_local for v in row])
    compare('flags', got(25, 32), [1] * subs)
    return checked, bad


SHAPES = {16: [(48, 2), (16, 3)], 32: [(64, 2), (32, 1)]}
Checked, Bad = 0, []
for k, (block, grid) in enumerate(SHAPES[SG]):
    c, b = check(block, grid, 7 * k + SG)
    Checked += c
    Bad += b
for line in Bad[:10]:
    print('mismatch:', line)
print('checked %d values, %d mismatches' % (Checked, len(Bad)))
