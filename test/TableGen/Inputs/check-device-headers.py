"""Checks the Vortex facts Crosslane's device headers spell out against the
generated VortexISA.inc (the device headers are compiled by users' clang
without the build tree, so they keep literal encodings; this test keeps
them equal to VortexISA.td).

usage: check-device-headers.py VortexISA.inc header.h...
Prints one line per fact checked and exits 1 on the first disagreement.
"""
import re
import sys


def table(inc):
    text = open(inc).read()
    csrs = {int(n, 16): name for name, n in
            re.findall(r"^  (CSR\w+) = 0x([0-9A-F]+),", text, re.M)}
    insns = {}
    for m in re.finditer(r'\{"(vx_\w+)", 0x([0-9A-F]+), (\d+), (\d+), '
                         r'AsmKind::\w+', text):
        insns[m.group(1)] = (int(m.group(2), 16), int(m.group(3)),
                             int(m.group(4)))
    return csrs, insns


def fail(msg):
    print("MISMATCH: " + msg)
    sys.exit(1)


def main():
    csrs, insns = table(sys.argv[1])
    if len(csrs) < 20 or len(insns) < 16:
        fail("could not read the table in " + sys.argv[1])
    checked = 0
    for path in sys.argv[2:]:
        text = open(path).read()
        # CSR reads: __CROSSLANE_VX_CSR(0xcc0) and the DIM3 triples.
        for n in re.findall(r"__CROSSLANE_VX_CSR\((0x[0-9a-fA-F]+)\)", text):
            if int(n, 16) not in csrs:
                fail("%s reads CSR %s, which VortexISA.td lacks" % (path, n))
            print("CSR %s = %s" % (n, csrs[int(n, 16)]))
            checked += 1
        # Shuffles and votes: the function is named after the mnemonic.
        for kind, name, f3 in re.findall(
                r"__CROSSLANE_VX_(SHFL|VOTE)\(__crosslane_(vx_\w+), (\d+)\)",
                text):
            want = insns.get(name)
            if want != (0x0B, int(f3), 1):
                fail("%s encodes %s as (0x0b, %s, 1), VortexISA.td as %s" %
                     (path, name, f3, want))
            print("INSN %s = .insn r 0x0b, %s, 1" % (name, f3))
            checked += 1
        # Literal instructions with a comment naming them nearby: the
        # barrier of __syncthreads.
        for f3, f7 in re.findall(r'\.insn r 0x0b, (\d+), (\d+), x0, %0, %1"',
                                 text):
            enc = (0x0B, int(f3), int(f7))
            names = [n for n, e in insns.items() if e == enc]
            if names != ["vx_barrier"]:
                fail("%s: .insn r 0x0b, %s, %s is %s in VortexISA.td, "
                     "expected vx_barrier" % (path, f3, f7, names))
            print("INSN vx_barrier = .insn r 0x0b, %s, %s" % (f3, f7))
            checked += 1
    print("%d facts checked" % checked)


main()
