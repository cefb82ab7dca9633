#!/usr/bin/env python3
"""Runs the launches test/Vortex/Inputs/model_check.hip printed on simx
again in crosslane-run's Vortex model and compares every output byte.

usage: model_check.py CROSSLANE_RUN IR DIR [crosslane-run options...]
                      [--known=K1,K2]

DIR holds the program's stdout as DIR/launches.txt and the files it wrote.
Each `launch` line is re-run with the same grid, block and input files;
output buffer K of kernel X must equal DIR/X.argK.bin byte for byte.
--known lists kernels whose mismatch is understood (printed, not failed).
Prints one line per kernel and a total; exits 1 on an unexpected mismatch
or a crosslane-run error.
"""
import os
import subprocess
import sys


def main():
    run, ir, d = sys.argv[1:4]
    extra, known = [], set()
    for a in sys.argv[4:]:
        if a.startswith("--known="):
            known |= set(a[len("--known="):].split(","))
        else:
            extra.append(a)
    launches = [l.split() for l in open(os.path.join(d, "launches.txt"))
                if l.startswith("launch ")]
    total = differing = bad = 0
    for f in launches:
        kernel, grid, block = f[1], f[3], f[5]
        args = f[f.index("args") + 1:f.index("outs")]
        outs = f[f.index("outs") + 1:]
        prefix = "model." + kernel
        cmd = [run, os.path.abspath(ir), "--kernel=" + kernel,
               "--grid=" + grid, "--block=" + block, "--print=none",
               "--out=" + prefix] + ["--arg=" + a for a in args] + extra
        p = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
        if p.returncode:
            print("kernel %s: crosslane-run failed: %s" %
                  (kernel, p.stderr.strip()))
            bad += 1
            continue
        for k in outs:
            sim = open(os.path.join(d, "%s.arg%s.bin" % (kernel, k)),
                       "rb").read()
            mod = open(os.path.join(d, "%s.arg%s.bin" % (prefix, k)),
                       "rb").read()
            diff = sum(a != b for a, b in zip(sim, mod)) + abs(len(sim) -
                                                               len(mod))
            total += len(sim)
            differing += diff
            verdict = "identical" if not diff else (
                "%d bytes differ (known)" % diff if kernel in known else
                "%d bytes differ" % diff)
            if diff and kernel not in known:
                bad += 1
            print("kernel %s arg%s: %d bytes, %s" % (kernel, k, len(sim),
                                                     verdict))
    print("model-vs-simx: %d launches, %d bytes, %d differing, %d "
          "unexpected" % (len(launches), total, differing, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
