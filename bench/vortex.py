#!/usr/bin/env python3
"""Vortex part of `make bench`: simx cycles and instructions of Vortex's own
regression kernels (written against Vortex's kernel API, built by clang-22
with Crosslane's plugin for divergence, by Vortex's vx-test.sh) against the
same problems written in HIP and built by `crosslane-hipcc --target=vortex`
(bench/vortex/*.hip, same sizes, same grids), on each configuration; plus a
warp sum by Crosslane's `reduce_add` against a hand-written `__shfl_xor`
butterfly in the same program; and a hand-written warp argmax as written
(the recogniser's default on Vortex) against its forced replacement.

Each figure is simx's PERF line for the whole run of one program (one
kernel launch). Static columns count, in the kernel's code: thread-mask
instructions `vx_split`/`vx_join`/`vx_pred` (divergence handling) and
`csrr` of the thread/block-id CSRs (0xCD3-0xCDE). Prints a table, writes
bench/results/vortex.csv and ends with a machine-readable summary line.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (name, Vortex test, HIP program, size argument)
KERNELS = [
    ("vecadd", "vecadd", "vecadd.hip", 4096),
    ("sgemm", "sgemm", "sgemm.hip", 32),
    ("sgemmx (shared)", "sgemmx", "sgemmx.hip", 64),
    ("dotproduct", "dotproduct", "dotproduct.hip", 512),
]
PERF = re.compile(r"PERF: instrs=(\d+), cycles=(\d+)")


def run(cmd, env=None, cwd=None, timeout=600):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd,
                       timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def perf(text):
    m = PERF.search(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def static_counts(elf, llvm_bin, symbols):
    """(split/join/pred, thread-id csrr) in the functions whose names match
    one of `symbols` (regexes), from the raw instruction words."""
    r = subprocess.run([os.path.join(llvm_bin, "llvm-objdump"), "-d", elf],
                       capture_output=True, text=True)
    wctl = csr = 0
    inside = False
    for line in r.stdout.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            inside = any(re.search(s, m.group(1)) for s in symbols)
            continue
        if not inside:
            continue
        m = re.match(r"^\s*[0-9a-f]+:\s+([0-9a-f]{8})\s", line)
        if not m:
            continue
        word = int(m.group(1), 16)
        opcode, funct3, funct7 = word & 0x7F, (word >> 12) & 7, word >> 25
        if opcode == 0x0B and funct7 == 0 and funct3 in (2, 3, 5):
            wctl += 1
        if opcode == 0x73 and funct3 == 2:  # csrrs rd, csr, x0
            csr_no = word >> 20
            if 0xCD3 <= csr_no <= 0xCDE:
                csr += 1
    return wctl, csr


def vortex_side(a, cfg, test, size, out):
    env = dict(os.environ, VX_KENTRY="none", VX_KERNEL_FLAGS=(
        "-Xclang -target-feature -Xclang +xvortex -Xclang -target-feature "
        f"-Xclang +zicond -fpass-plugin={a.plugin}"))
    code, text = run([os.path.join(a.vortex_home, "scripts", "vx-test.sh"),
                      "-c", cfg, "-o", out, "-t", "600", test, f"-n{size}"],
                     env=env, timeout=900)
    p = perf(text)
    ok = "PASSED" in text and code == 0
    elf = os.path.join(out, test, "kernel.elf")
    counts = static_counts(elf, a.llvm_bin, [r"kernel_main$"]) \
        if os.path.exists(elf) else (None, None)
    return p, ok, counts


def hip_side(a, cfg_name, prog, args, out, tag, flags=()):
    exe = os.path.join(out, tag)
    temps = exe + ".vortex-temps"
    code, text = run([a.hipcc, "--target=vortex", f"--vortex-config={cfg_name}",
                      "-O3", "--save-temps", *flags,
                      os.path.join(HERE, "vortex", prog), "-o", exe], cwd=out)
    if code:
        return None, False, (None, None), text
    env = dict(os.environ, CROSSLANE_VORTEX_PERF="1")
    code, text = run([exe] + args, env=env, cwd=out, timeout=900)
    elf = os.path.join(temps, "kernel.elf")
    counts = static_counts(elf, a.llvm_bin,
                           [r"^__crosslane_vx_entry\.", r"\.fullwarps$"])
    return perf(text), code == 0 and "PASSED" in text, counts, text


def fmt(p):
    return f"{p[1]:>9} / {p[0]:>8}" if p else "        - /        -"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--vortex-home", default=os.environ.get(
        "CROSSLANE_VORTEX_HOME",
        os.path.normpath(os.path.join(ROOT, "..", "shared", "vortex"))))
    ap.add_argument("--configs", default="default,w16t16a,w8t32a")
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--kernels", default=",".join(
        [k[0].split()[0] for k in KERNELS] + ["warp_reduce", "warp_argmax"]))
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.vortex_home, "prebuilt")):
        print(f"vortex bench: no Vortex at {a.vortex_home} "
              "(set CROSSLANE_VORTEX_HOME): skipped")
        return 0
    a.plugin = os.path.join(a.build, "lib", "CrosslanePlugin.so")
    a.hipcc = os.path.join(a.build, "bin", "crosslane-hipcc")
    wanted = a.kernels.split(",")
    rows, failures = [], []
    print("Vortex (simx cycles / instructions, whole program run; "
          "split+join+pred and thread-id csrr in the kernel)")
    print(f"{'kernel':<18}{'config':<9}{'Vortex kernel':>21}  "
          f"{'Crosslane HIP':>21}  {'ratio':>6}  {'wctl':>9}  {'tid csrr':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for cfg_name in a.configs.split(","):
            cfg = os.path.join(a.vortex_home, "prebuilt", cfg_name)
            for name, test, prog, size in KERNELS:
                if name.split()[0] not in wanted:
                    continue
                out = os.path.join(tmp, cfg_name)
                os.makedirs(out, exist_ok=True)
                vp, vok, vc = vortex_side(a, cfg, test, size, out)
                hp, hok, hc, text = hip_side(a, cfg_name, prog,
                                             ["-n", str(size)], out,
                                             test + "-hip")
                ratio = hp[1] / vp[1] if hp and vp else float("nan")
                if not hok:
                    failures.append(f"{name} {cfg_name}: {text.strip()[-300:]}")
                print(f"{name:<18}{cfg_name:<9}{fmt(vp)}{'' if vok else '*'}  "
                      f"{fmt(hp)}  {ratio:>6.3f}  {vc[0]!s:>4}/{hc[0]!s:<4}  "
                      f"{vc[1]!s:>4}/{hc[1]!s:<4}")
                rows.append([name, cfg_name, vp and vp[1], vp and vp[0],
                             hp and hp[1], hp and hp[0], ratio, vok, hok])
            out = os.path.join(tmp, cfg_name)
            os.makedirs(out, exist_ok=True)
            if "warp_reduce" in wanted:
                res = []
                for mode in (0, 1):
                    hp, hok, _, text = hip_side(a, cfg_name, "warp_reduce.hip",
                                                ["-m", str(mode)], out,
                                                f"warp_reduce{mode}")
                    if not hok:
                        failures.append(f"warp_reduce -m {mode} {cfg_name}: "
                                        f"{text.strip()[-300:]}")
                    res.append(hp)
                ratio = res[0][1] / res[1][1] if res[0] and res[1] else \
                    float("nan")
                print(f"{'warp sum x64':<18}{cfg_name:<9}{fmt(res[0])}   "
                      f"{fmt(res[1])}  {ratio:>6.3f}  (shfl_xor / crosslane: "
                      "speed-up)")
                rows.append(["warp_sum shfl_xor vs crosslane", cfg_name,
                             res[0] and res[0][1], res[0] and res[0][0],
                             res[1] and res[1][1], res[1] and res[1][0], ratio,
                             True, True])
            if "warp_argmax" in wanted:
                res = []
                for tag, flags in (("kept", ()), ("replaced", (
                        "-mllvm", "-crosslane-vortex-replace-arg"))):
                    hp, hok, _, text = hip_side(a, cfg_name, "warp_argmax.hip",
                                                [], out, "warp_argmax_" + tag,
                                                flags)
                    if not hok:
                        failures.append(f"warp_argmax ({tag}) {cfg_name}: "
                                        f"{text.strip()[-300:]}")
                    res.append(hp)
                ratio = res[1][1] / res[0][1] if res[0] and res[1] else \
                    float("nan")
                print(f"{'warp argmax x32':<18}{cfg_name:<9}{fmt(res[0])}   "
                      f"{fmt(res[1])}  {ratio:>6.3f}  (as written / "
                      "replaced: cost of replacing)")
                rows.append(["warp_argmax written vs replaced", cfg_name,
                             res[0] and res[0][1], res[0] and res[0][0],
                             res[1] and res[1][1], res[1] and res[1][0], ratio,
                             True, True])
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "vortex.csv"), "w",
              newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "config", "vortex_cycles", "vortex_instrs",
                    "crosslane_cycles", "crosslane_instrs", "ratio",
                    "vortex_passed", "crosslane_passed"])
        w.writerows(rows)
    kern = [r[6] for r in rows if not r[0].startswith("warp_")
            and r[6] == r[6]]
    warp = [r[6] for r in rows if r[0].startswith("warp_sum") and r[6] == r[6]]
    worst = max(kern) if kern else float("nan")
    least = min(warp) if warp else float("nan")
    print("(* = Vortex's own check failed on that run; ratio = Crosslane "
          "cycles / Vortex cycles, goal <= 1.05; warp sum: butterfly / "
          "reduce_add, the same vx_shfl_bfly steps plus reduce_add's "
          "lanes-off check; warp argmax: replaced / as written, what "
          "replacing would cost: the recogniser keeps Vortex butterflies)")
    for f in failures:
        print("FAILED:", f)
    print(f"summary vortex_worst_ratio={worst:.3f} "
          f"vortex_warp_sum_speedup_min={least:.2f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
