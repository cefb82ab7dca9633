#!/usr/bin/env python3
"""Run one example family in the wave executor and compare with its reference.

usage: harness.py NAME --ll MODULE.ll --wave 32|64 [--chip CHIP]
                  [--run build/bin/crosslane-run] [--seed 1] [--workdir DIR]
                  [--gen-only] [--max-report 5]

For the family examples/NAME.hip (reference: examples/reference/NAME.py):
 1. NAME.cases(rng, wave) builds "launch sets" from a deterministic seed:
      {"buffers":  {buf: [dtype, initial elements]},
       "launches": [{"kernel", "grid", "block", "args": ["buf:NAME" | "i32:V"]}],
       "ref":      {"kernel", "params", "ins": [bufs], "outs": [bufs],
                    "grid", "block"},
       "units":    [[label, {out_buf: [start, count]}]]}
    Every unit is one "case" (one row / one result of one input pattern).
 2. The initial buffers are written as raw little-endian files
    (examples/reference/_common.py) under DIR/setNNN/.
 3. Each launch runs in crosslane-run with --arg buf:TYPE:COUNT:file=PATH
    and --out; the written buffers become the state for the next launch.
 4. The reference script runs as a separate process on the initial files
    (python3 NAME.py --kernel ... --in ... --out ...).
 5. Each unit's slices are compared bit for bit.
Prints "NAME CHIP: N cases, M mismatches" and exits 1 on a mismatch.
With --gen-only, steps 3 and 5 are skipped (inputs + expected outputs only).
"""

import argparse
import importlib
import os
import random
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # keep the source tree clean
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import _common as C  # noqa: E402

RUN_TYPE = {"f32": "f32", "f16": "f16", "i32": "i32", "i64": "i64", "u64": "i64"}


def fmt_elem(v, dtype):
    if dtype == "f32":
        return "%r(0x%08x)" % (C.f32(v), v & 0xFFFFFFFF)
    if dtype == "f16":
        return "%r(0x%04x)" % (C.f16(v), v & 0xFFFF)
    if dtype == "u64":
        return "0x%016x" % v
    return str(v)


class _Failed(object):
    def __init__(self, msg):
        self.returncode, self.stdout = 127, msg


def run_executor(cmd, tries=3):
    """Runs crosslane-run; retries briefly if the binary is missing or being
    relinked (a concurrent build), then reports the failure as the case's."""
    for t in range(tries):
        try:
            return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  universal_newlines=True)
        except OSError as e:
            err = e
            time.sleep(2)
    return _Failed("cannot run %s: %s" % (cmd[0], err))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("--ll")
    ap.add_argument("--wave", type=int, choices=(32, 64), required=True)
    ap.add_argument("--chip", default="?")
    ap.add_argument("--run", default=os.path.join(HERE, "..", "..", "build", "bin", "crosslane-run"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--gen-only", action="store_true")
    ap.add_argument("--max-report", type=int, default=5)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    mod = importlib.import_module(a.name)
    rng = random.Random("%s:%d:%d" % (a.name, a.seed, a.wave))
    sets = mod.cases(rng, a.wave)
    work = a.workdir or os.path.join(os.getcwd(), "%s.%s.w%d.run" % (a.name, a.chip, a.wave))
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)

    # GFX10+ in wave64: ds_bpermute stays within 32-lane halves.
    bperm = "halves" if (a.wave == 64 and a.chip.startswith("gfx1")) else "full"
    ncases = nmis = reported = nhalf = 0
    for si, s in enumerate(sets):
        d = os.path.join(work, "set%03d" % si)
        init = os.path.join(d, "init")
        os.makedirs(init)
        dtypes = {k: v[0] for k, v in s["buffers"].items()}
        for k, (dt, vals) in s["buffers"].items():
            C.write_array(os.path.join(init, k + ".bin"), vals, dt)
            shutil.copy(os.path.join(init, k + ".bin"), os.path.join(d, k + ".bin"))

        # Reference, as its own process on the initial files.
        r = s["ref"]
        cmd = [sys.executable, os.path.join(HERE, a.name + ".py"), "--kernel=" + r["kernel"],
               "--wave=%d" % a.wave, "--grid=%d" % r.get("grid", 1),
               "--block=%d" % r.get("block", 64), "--bpermute=" + bperm]
        for k, v in r.get("params", {}).items():
            cmd += ["--param", "%s=%d" % (k, v)]
        for k in r["ins"]:
            cmd += ["--in", "%s=%s" % (k, os.path.join(init, k + ".bin"))]
        for k in r["outs"]:
            cmd += ["--out", "%s=%s" % (k, os.path.join(d, k + ".expected.bin"))]
        subprocess.run(cmd, check=True)
        full = None
        if bperm == "halves":
            # Also what a wave with a full 64-lane ds_bpermute would give,
            # to count the cases the half-wave permute changes.
            cmd = [c.replace("--bpermute=halves", "--bpermute=full").replace(
                ".expected.bin", ".fullwave.bin") for c in cmd]
            subprocess.run(cmd, check=True)
            full = {k: C.read_array(os.path.join(d, k + ".fullwave.bin"), dtypes[k])
                    for k in r["outs"]}
            exp_h = {k: C.read_array(os.path.join(d, k + ".expected.bin"), dtypes[k])
                     for k in r["outs"]}
            for label, slices in s["units"]:
                if any(full[k][st:st + c] != exp_h[k][st:st + c] for k, (st, c) in slices.items()):
                    nhalf += 1
        if a.gen_only:
            ncases += len(s["units"])
            continue

        # The kernel(s), in the executor.
        failed = None
        for li, l in enumerate(s["launches"]):
            prefix = os.path.join(d, "launch%d" % li)
            cmd = [a.run, a.ll, "--kernel=" + l["kernel"], "--grid=%d" % l["grid"],
                   "--block=%d" % l["block"], "--print=none", "--out=" + prefix]
            bufargs = {}
            for ai, arg in enumerate(l["args"]):
                if arg.startswith("buf:"):
                    k = arg[4:]
                    n = len(s["buffers"][k][1])
                    cmd.append("--arg=buf:%s:%d:file=%s" % (RUN_TYPE[dtypes[k]], n,
                                                            os.path.join(d, k + ".bin")))
                    bufargs[ai] = k
                else:
                    cmd.append("--arg=" + arg)
            if a.verbose:
                print(" ".join(cmd))
            p = run_executor(cmd)
            if p.returncode != 0:
                failed = "crosslane-run failed (%d): %s\n  %s" % (
                    p.returncode, " ".join(cmd), p.stdout.strip().replace("\n", "\n  "))
                break
            for ai, k in bufargs.items():
                shutil.copy("%s.arg%d.bin" % (prefix, ai), os.path.join(d, k + ".bin"))

        got, exp = {}, {}
        if not failed:
            for k in r["outs"]:
                got[k] = C.read_array(os.path.join(d, k + ".bin"), dtypes[k])
                exp[k] = C.read_array(os.path.join(d, k + ".expected.bin"), dtypes[k])
        for label, slices in s["units"]:
            ncases += 1
            bad = []
            if failed:
                bad.append(failed)
            else:
                for k, (start, cnt) in slices.items():
                    g, e = got[k][start:start + cnt], exp[k][start:start + cnt]
                    if g != e:
                        bad.append("%s[%d:%d]: got [%s], expected [%s]" % (
                            k, start, start + cnt,
                            ", ".join(fmt_elem(v, dtypes[k]) for v in g[:8]),
                            ", ".join(fmt_elem(v, dtypes[k]) for v in e[:8])))
            if bad:
                nmis += 1
                if reported < a.max_report:
                    reported += 1
                    print("MISMATCH %s set%03d %s (%s): %s" % (
                        a.name, si, label, s["launches"][0]["kernel"], "; ".join(bad)))
    what = "cases prepared (executor not run)" if a.gen_only else "cases"
    tag = a.chip + (".w64" if (a.wave == 64 and a.chip.startswith("gfx1")) else "")
    extra = ""
    if bperm == "halves":
        extra = " (%d of the cases differ from a full 64-lane bpermute: ds_bpermute " \
                "stays within 32-lane halves here)" % nhalf
    print("%s %s: %d %s, %d mismatches%s" % (a.name, tag, ncases, what, nmis, extra))
    return 1 if nmis else 0


if __name__ == "__main__":
    sys.exit(main())
