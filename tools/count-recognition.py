#!/usr/bin/env python3
"""Counts what crosslane-recognize-arg does to the bundled examples, per chip.

usage: tools/count-recognition.py [--build BUILD] [--chips gfx942,gfx1100,gfx1100:64]
                                  [--examples greedy_argmax,...]

For every example and chip it compiles the kernel without the plugin
(clang -O2 IR), runs the device pipeline's recognition steps with opt-22
(crosslane-recognize-arg, adce, simplifycfg, crosslane-expand-subgroup) and
reads the optimisation remarks (YAML). It prints:
  * per chip: butterfly chains examined, rewritten (plain / guarded), and
    refused per reason; per-lane atomics combined into one per wave, and
    those left alone;
  * per kernel with a rewrite: the static instruction count of the kernel's
    ISA (llc-22 -O3, VALU/SALU/memory lines, not directives) before and after.
    A guarded rewrite keeps the original butterfly as the slow path, so its
    kernel holds both. The column "guards hold" counts the same kernel
    compiled with -crosslane-fallback-trap (a hidden, measurement-only
    option): every fallback edge goes to an s_trap instead, so the kernel
    holds the guards and the code that runs when they hold, which is what a
    wave executes on inputs the guards accept. All counts are static, not
    executed instructions, and no GPU ran.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIPELINE = "crosslane-recognize-arg,adce,simplifycfg,crosslane-expand-subgroup"


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("count-recognition: failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    return p.stdout


def remarks(path):
    """(kind, name, function, message) of each crosslane-recognize-arg remark."""
    out = []
    text = open(path).read() if os.path.exists(path) else ""
    for doc in text.split("\n--- ")[0:]:
        kind = re.match(r"(?:--- )?!(\w+)", doc.strip())
        if not kind or "Pass:            crosslane-recognize-arg" not in doc:
            continue
        name = re.search(r"\nName:\s+(\S+)", doc).group(1)
        fn = re.search(r"\nFunction:\s+(\S+)", doc).group(1).strip("'")
        # One remark stands for the copies of its line (an unrolled loop).
        copies = re.search(r"\n\s*- Copies:\s+'?(\d+)", doc)
        out += [(kind.group(1), name, fn)] * (int(copies.group(1)) if copies else 1)
    return out


def isa_counts(ll, chip, wave, work, tag):
    """Instructions per function in llc's assembly."""
    attrs = ["-mattr=+wavefrontsize64"] if wave == 64 and chip.startswith("gfx1") else []
    asm = os.path.join(work, tag + ".s")
    run(["llc-22", "-O3", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + chip] + attrs +
        [ll, "-o", asm])
    counts, fn = collections.Counter(), None
    for line in open(asm):
        m = re.match(r"^([A-Za-z_][\w.$]*):", line)
        if m and not m.group(1).startswith(".L"):
            fn = m.group(1)
            continue
        if line.startswith("\t.end_amdhsa_kernel") or re.match(r"^\.Lfunc_end", line):
            fn = None
        s = line.strip()
        if fn and re.match(r"^[sv]_|^(global|buffer|flat|ds|scratch)_", s) \
                and not s.startswith(("s_nop", "s_delay_alu", "s_waitcnt")):
            counts[fn] += 1
    return counts


def count_chip(a, hipcc, plugin, names, work, chip, wave):
    """Compiles every example for one chip; returns (per_reason counter,
    rows of (example, kernel, before, after, fast or None, guarded), and
    per example: Counter of 'recognised' and 'refused: Reason')."""
    flags = ["-mwavefrontsize64"] if chip.startswith("gfx1") and wave == 64 else []
    per_reason = collections.Counter()
    per_example = collections.defaultdict(collections.Counter)
    rows = []
    for name in names:
        tag = "%s.%s.w%d" % (name, chip, wave)
        before = os.path.join(work, tag + ".ll")
        after = os.path.join(work, tag + ".rec.ll")
        yaml = os.path.join(work, tag + ".yaml")
        run([hipcc, "--offload-arch=" + chip] + flags +
            ["--cuda-device-only", "--no-crosslane", "-nogpulib", "-O2", "-S",
             "-emit-llvm", "-I", os.path.join(ROOT, "include"),
             os.path.join(ROOT, "examples", name + ".hip"), "-o", before])
        run(["opt-22", "-load-pass-plugin=" + plugin, "-passes=" + PIPELINE,
             "-pass-remarks-output=" + yaml, "-S", before, "-o", after])
        fast = os.path.join(work, tag + ".fast.ll")
        run(["opt-22", "-load-pass-plugin=" + plugin, "-passes=" + PIPELINE,
             "-crosslane-fallback-trap", "-S", before, "-o", fast])
        rs = remarks(yaml)
        changed = set()
        for kind, rname, fn in rs:
            if rname == "LaneAtomic":  # per-lane atomics, not chains
                per_reason["atomics " + kind] += 1
                if kind == "Passed":
                    changed.add(fn)
                    per_example[name]["atomics"] += 1
                continue
            if kind == "Passed":
                per_reason["rewritten"] += 1
                per_example[name]["recognised"] += 1
                changed.add(fn)
            elif kind == "Missed":
                per_reason["refused: " + rname] += 1
                per_example[name]["refused: " + rname] += 1
        per_reason["chains"] += sum(1 for k, r, _ in rs
                                    if k in ("Passed", "Missed") and r != "LaneAtomic")
        if changed:
            cb = isa_counts(before, chip, wave, work, tag + ".before")
            ca = isa_counts(after, chip, wave, work, tag + ".after")
            cf = isa_counts(fast, chip, wave, work, tag + ".fast")
            bodies = re.split(r"\ndefine ", open(after).read())
            for fn in sorted(changed):
                body = next((b for b in bodies if re.search(r"@%s\(" % re.escape(fn),
                                                             b.split("\n", 1)[0])), "")
                guarded = "crosslane.fast" in body
                rows.append((name, fn, cb.get(fn, 0), ca.get(fn, 0),
                             cf.get(fn, 0) if guarded else None, guarded))
    return per_reason, rows, per_example


def print_counts(chip, wave, per_reason, rows):
    print("## %s wave%d" % (chip, wave))
    print("chains %d, rewritten %d" % (per_reason.pop("chains", 0),
                                       per_reason.pop("rewritten", 0)))
    print("per-lane atomics combined into one per wave %d, left alone %d"
          % (per_reason.pop("atomics Passed", 0), per_reason.pop("atomics Missed", 0)))
    for reason, n in sorted(per_reason.items()):
        print("  %s: %d" % (reason, n))
    if rows:
        print("\n| example | kernel | ISA instructions before | after "
              "| after, guards hold | guarded |")
        print("|---|---|---|---|---|---|")
        for name, fn, b, c, f, g in rows:
            print("| %s | %s | %d | %d | %s | %s |" % (
                name, fn, b, c, "%d" % f if g else "= after", "yes" if g else "no"))
    print()


RUN_LINE = re.compile(r"^(\S+) (\S+): (\d+) cases, (\d+) mismatches", re.M)


def print_summary(chip, wave, names, rows, per_example, runs):
    """One line per example: what the recogniser did, the static ISA size of
    the changed kernels (whole, and with the guards holding), and the
    executor's verdict from run-example.sh's log (\p runs)."""
    print("%s (wave%d)" % (chip, wave))
    head = ("example", "recognised", "refused (reason)",
            "ISA instr. before", "after", "fast path", "cases", "mismatches")
    table = [head]
    for name in names:
        ex = per_example.get(name, collections.Counter())
        refused = ", ".join("%s x%d" % (k[len("refused: "):], n)
                            for k, n in sorted(ex.items()) if k.startswith("refused: "))
        mine = [r for r in rows if r[0] == name]
        before = sum(r[2] for r in mine)
        after = sum(r[3] for r in mine)
        fast = sum(r[4] if r[4] is not None else r[3] for r in mine)
        rec = "%d" % ex["recognised"]
        if ex["atomics"]:
            rec += " (+%d atomic%s)" % (ex["atomics"], "s" if ex["atomics"] > 1 else "")
        cases, bad = runs.get((name, chip), ("-", "-"))
        table.append((name, rec, refused or "-",
                      "%d" % before if mine else "-", "%d" % after if mine else "-",
                      "%d" % fast if mine else "-", cases, bad))
    widths = [max(len(str(r[k])) for r in table) for k in range(len(head))]
    for i, r in enumerate(table):
        print("  " + "  ".join(str(c).ljust(w) if k < 3 else str(c).rjust(w)
                               for k, (c, w) in enumerate(zip(r, widths))))
        if i == 0:
            print("  " + "  ".join("-" * w for w in widths))
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--chips", default="gfx942,gfx1100,gfx1100:64")
    ap.add_argument("--examples", default="")
    ap.add_argument("--summary", metavar="RUNLOG", default=None,
                    help="print make demo's per-chip summary table instead, "
                         "with the executor results read from RUNLOG "
                         "(run-example.sh's 'NAME CHIP: N cases, M "
                         "mismatches' lines)")
    a = ap.parse_args()
    hipcc = os.path.join(a.build, "bin", "crosslane-hipcc")
    plugin = os.path.join(a.build, "lib", "CrosslanePlugin.so")
    names = a.examples.split(",") if a.examples else sorted(
        f[:-4] for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".hip"))
    work = tempfile.mkdtemp(prefix="crosslane-count-")
    runs = {}
    if a.summary is not None:
        text = open(a.summary).read() if os.path.exists(a.summary) else ""
        runs = {(m.group(1), m.group(2)): (m.group(3), m.group(4))
                for m in RUN_LINE.finditer(text)}
    else:
        print("Static counts: no GPU ran. Chains = ds_bpermute butterfly chains the "
              "recogniser examined.\n")
    for spec in a.chips.split(","):
        chip, _, w = spec.partition(":")
        wave = int(w) if w else (64 if chip.startswith("gfx9") else 32)
        per_reason, rows, per_example = count_chip(a, hipcc, plugin, names, work,
                                                   chip, wave)
        if a.summary is not None:
            print_summary(chip, wave, names, rows, per_example, runs)
        else:
            print_counts(chip, wave, per_reason, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
