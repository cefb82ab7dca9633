#!/usr/bin/env python3
"""Xe part of `make bench`: static counts from Intel's own compiler.

bench/xe/tiles.cl loads the same tiles three ways for PVC: a 2D block read
(through crosslane-xe-block-io<chip=pvc;lower=igc>, clang-22, llc-22), 1-D
subgroup block reads and plain per-lane loads (both through ocloc's own
OpenCL front end). Debian 12's ocloc (IGC 1.0.12504) compiles each for PVC
with shader dumps; from IGC's Gen assembly this counts, per kernel, the
global-memory load messages (`load_block2d` and `load.ugm...a64`) and all
instructions. Static figures: no Intel GPU here, so no cycles. Goals (the
issue's): one 2D message per legal tile, and a GEMM K step's load count at
least 4x below the 1-D path. Prints a table and a summary line.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(HERE, "xe", "tiles.cl")
CASES = [("A 8x32 f16 (2 blocks)", "a"), ("B 16x16 f16 VNNI", "b"),
         ("GEMM K step (A + 2 B)", "step")]
LOAD = re.compile(r"load_block2d|\bload\.ugm\.\S*\.a64\b")


def run(cmd, env=None, cwd=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    if r.returncode:
        sys.exit(f"xe bench: {' '.join(cmd)} failed:\n{r.stdout}{r.stderr}")
    return r.stdout + r.stderr


def ocloc(src, dump, out, extra):
    env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=dump)
    run(["ocloc", "compile", "-file", src, "-device", "pvc", "--format",
         "zebin", "-out_dir", out, "-output", "k"] + extra, env=env)


def counts(dump):
    """{kernel: (loads, instructions)} from the Gen assembly dumps."""
    res = {}
    for asm in glob.glob(os.path.join(dump, "*.asm")):
        name, loads, insts = None, 0, 0
        for line in open(asm, errors="replace"):
            if line.startswith("//.kernel "):
                name = line.split()[1]
            s = line.strip()
            if not s or s.startswith("//") or s.endswith(":"):
                continue
            insts += 1
            loads += bool(LOAD.search(s))
        if name:
            res[name] = (loads, insts)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    a = ap.parse_args()
    if not shutil.which("ocloc"):
        print("xe bench: ocloc not found (apt-get install intel-opencl-icd): "
              "skipped")
        return 0
    plugin = os.path.join(a.build, "lib", "CrosslanePlugin.so")
    with tempfile.TemporaryDirectory() as tmp:
        ll, low, spv = (os.path.join(tmp, n) for n in ("t.ll", "low.ll",
                                                      "t.spv"))
        run(["clang-22", "-cl-std=CL3.0", "--target=spirv64", "-O2",
             "-DONLY_2D", "-S", "-emit-llvm", SRC, "-o", ll])
        rem = run(["opt-22", f"-load-pass-plugin={plugin}",
                   "-passes=crosslane-xe-block-io<chip=pvc;lower=igc>",
                   "-pass-remarks=crosslane-xe-block-io", "-S", ll, "-o",
                   low])
        lowered = rem.count(" lowered to ")
        run(["llc-22", "-mtriple=spirv64-unknown-unknown", "-filetype=obj",
             low, "-o", spv])
        d2, d1 = os.path.join(tmp, "d2"), os.path.join(tmp, "d1")
        ocloc(spv, d2, os.path.join(tmp, "o2"), ["-spirv_input"])
        ocloc(SRC, d1, os.path.join(tmp, "o1"), ["-options", "-DNO_2D"])
        c = counts(d2)
        c.update(counts(d1))
    print("Xe (PVC, IGC 1.0.12504 through ocloc; static: global-load "
          "messages / instructions per kernel)")
    print(f"{'tile':<24}{'2D (Crosslane)':>16}{'1-D block reads':>18}"
          f"{'per-lane loads':>17}{'1-D / 2D loads':>16}")
    ratios = []
    for title, key in CASES:
        v = [c.get(f"{key}_{k}") for k in ("2d", "1d", "plain")]
        cells = [f"{x[0]:>4} / {x[1]:<5}" if x else "   - /  -   " for x in v]
        r = v[1][0] / v[0][0] if v[0] and v[1] and v[0][0] else float("nan")
        ratios.append(r)
        print(f"{title:<24}{cells[0]:>16}{cells[1]:>18}{cells[2]:>17}"
              f"{r:>15.1f}x")
    print(f"({lowered} 2D reads lowered to IGC builtins; goal: one message per "
          "tile, a K step >= 4x fewer loads than 1-D)")
    print(f"summary xe_2d_reads_lowered={lowered} "
          f"xe_step_load_ratio_1d_over_2d={ratios[-1]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
