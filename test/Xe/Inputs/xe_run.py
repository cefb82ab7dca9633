# Runs one kernel of an OpenCL module on crosslane-run's Xe model with
# integer buffers (bit patterns) and reads its output buffers back, for
# the executor's OpenCL checkers (check_fpbits.py, check_intsat.py,
# check_shuffle.py, check_xchg_float.py), and keeps their tally.
import os, struct, subprocess, tempfile

CODE = {8: 'B', 16: 'H', 32: 'I', 64: 'Q'}


def run(runner, module, kernel, inputs, outputs, extra=()):
    """inputs: (bits, values) buffers, filled in order; outputs: (bits,
    count) buffers after them, zeroed; extra: more crosslane-run options
    (--grid, --block, local arguments after the buffers). Returns every
    buffer's unsigned values after the run, inputs then outputs."""
    tmp = tempfile.mkdtemp()
    args = []
    for k, (bits, vals) in enumerate(inputs):
        path = os.path.join(tmp, 'in%d' % k)
        with open(path, 'wb') as f:
            f.write(struct.pack('<%d%s' % (len(vals), CODE[bits]), *vals))
        args.append('--arg=buf:i%d:%d:file=%s' % (bits, len(vals), path))
    args += ['--arg=buf:i%d:%d:zero' % o for o in outputs]
    out = os.path.join(tmp, 'out')
    subprocess.run([runner, module, '--target=xe', '--kernel=' + kernel,
                    '--print=none', '--out=' + out] + args + list(extra),
                   check=True)
    res = []
    buffers = [(bits, len(vals)) for bits, vals in inputs] + list(outputs)
    for k, (bits, n) in enumerate(buffers):
        with open('%s.arg%d.bin' % (out, k), 'rb') as f:
            res.append(struct.unpack('<%d%s' % (n, CODE[bits]), f.read()))
    return res


class Tally:
    """Counts the values checked and keeps the mismatches."""

    def __init__(self):
        self.checked, self.bad = 0, []

    def check(self, what, ok):
        self.checked += 1
        if not ok:
            self.bad.append(what)

    def report(self):
        for line in self.bad[:10]:
            print('mismatch:', line)
        print('checked %d values, %d mismatches' % (self.checked,
                                                    len(self.bad)))
