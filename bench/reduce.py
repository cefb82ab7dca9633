#!/usr/bin/env python3
"""Reduction kernels from lowering configs: heuristic vs exhaustive search vs
IREE's published configs vs hand-written HIP kernels.

For each shape, every kernel is measured the same way (Crosslane's cost
measure, crosslane-reduce --cost and docs/LoweringConfigs.md): the wave
executor runs workgroup 0 and reports its critical path P (per barrier
phase, its longest wave's instructions); the estimate is
    slots = ceil(workgroups * waves per workgroup / concurrent waves) * P,
with 4 concurrent waves per compute unit (AMDGPU, Xe) or 1 per core (Vortex).
Static figures come from llc-22 -O3 for the chip: instructions of the
innermost loop and of the rest of the kernel, and llvm-mca-22 cycles of each
(-iterations=1). Before it is measured, every generated kernel runs with
--run (random and adversarial inputs against the host reference) and every
hand-written one is checked against a host sum / torch.argmax on random
inputs. No GPU runs here.

Intel Xe shapes (pvc, bmg) and Vortex shapes (its three configurations)
are measured the same way in the executor's Xe and Vortex models, heuristic
against the search only.

Goals (issue): heuristic within 1.10x of the search's best on every shape,
and no slower than the hand-written kernel of the same job. The last line is
`summary reduce_heuristic_vs_best_max=... reduce_vs_handwritten_max=...
reduce_xe_heuristic_vs_best_max=... reduce_vortex_heuristic_vs_best_max=...
reduce_vortex_simx_heuristic_vs_best_max=...`. With a Vortex installation,
each Vortex row also gives simx cycles of one launch of the heuristic's
and of the search's best kernel (built with crosslane-hipcc --genco, run by
crosslane-vx-launch): a check of the cost measure on the machine.
"""
import argparse
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

LLVM = "/usr/lib/llvm-22/bin"
CUS = {"gfx942": 304, "gfx1100": 96}

# (chip, op, type, dims, IREE's config for the same problem or None,
#  the test it comes from, hand-written kernel or None)
SHAPES = [
    ("gfx942", "add", "f32", "p1152,r384",
     "{workgroup = [16, 0], thread = [0, 1], partial_reduction = [0, 32], "
     "lane_basis = [[16, 4], [1, 0]], subgroup_basis = [[1, 2], [0, 1]]}",
     "lowering-config doc, Example 2", "row_sum"),
    ("gfx942", "add", "f32", "p4,r4096",
     "{workgroup = [1, 0], thread = [0, 4], partial_reduction = [0, 4096], "
     "lane_basis = [[1, 64], [0, 1]], subgroup_basis = [[1, 16], [0, 1]]}",
     "IREE test_multiple_stores", "row_sum"),
    ("gfx942", "add", "f32", "p4096,r64",
     "{workgroup = [1, 0], thread = [0, 1], partial_reduction = [0, 64], "
     "lane_basis = [[1, 64], [0, 1]], subgroup_basis = [[1, 1], [0, 1]]}",
     "IREE test_gather_config", "row_sum"),
    ("gfx942", "add", "f32", "p64,r61440",
     "{workgroup = [1, 0], thread = [0, 4], partial_reduction = [0, 4096], "
     "lane_basis = [[1, 64], [0, 1]], subgroup_basis = [[1, 16], [0, 1]]}",
     "IREE reduction_small_parallel", "row_sum"),
    ("gfx942", "add", "f32", "p320,r64",
     "{workgroup = [1, 0], thread = [0, 1], partial_reduction = [0, 64], "
     "lane_basis = [[1, 64], [0, 1]], subgroup_basis = [[1, 1], [0, 1]]}",
     "IREE fused_elementwise", "row_sum"),
    ("gfx942", "argmax:i64:nan-wins:zeros-equal", "f32", "p256,r4096", None,
     None, "torch_argmax_f32"),
    ("gfx942", "add", "f16:f32", "p10000,r128", None, None, None),
    ("gfx1100", "add", "f32", "p1152,r384", None, None, "row_sum"),
    ("gfx1100", "argmax:i64:nan-wins:zeros-equal", "f32", "p256,r4096", None,
     None, "torch_argmax_f32"),
]

# Intel Xe: heuristic vs search only (no llvm-mca model, no hand-written
# OpenCL kernel here); each generated kernel runs with --run first.
XE_SHAPES = [
    ("pvc", "add", "f32", "p1152,r384"),
    ("bmg:w32", "add", "f16:f32", "p10000,r128"),
]

# Vortex configurations (the executor's Vortex model: one core issuing one
# warp instruction per cycle, so the slots are the warps' instructions).
VORTEX_SHAPES = [
    ("vortex", "add", "f32", "p64,r4096"),
    ("vortex:w16t16a", "add", "f16:f32", "p1000,r128"),
    ("vortex:w8t32a", "argmax", "f32", "p16,r2000"),
]

HANDWRITTEN = {
    "row_sum": ("examples/reduce/row_sum.hip", 256),
    "torch_argmax_f32": ("examples/torch_argmax.hip", 256),
}


class BenchError(Exception):
    pass


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise BenchError("%s failed:\n%s%s" % (" ".join(cmd[:3]), p.stdout[-3000:],
                                               p.stderr[-3000:]))
    return p.stdout


def short(cfg):
    """lanes/subgroups/thread/chunk/workgroup of a printed config."""
    m = re.search(r"lane_basis = \[\[([^\]]*)\]", cfg)
    s = re.search(r"subgroup_basis = \[\[([^\]]*)\]", cfg)
    t = re.search(r"thread = \[([^\]]*)\]", cfg)
    p = re.search(r"partial_reduction = \[([^\]]*)\]", cfg)
    w = re.search(r"workgroup = \[([^\]]*)\]", cfg)
    return "L[%s] G[%s] T[%s] S[%s] W[%s]" % tuple(
        x.group(1).replace(" ", "") for x in (m, s, t, p, w))


class Bench:
    def __init__(self, build, work):
        self.build = build
        self.work = work
        self.reduce = os.path.join(build, "bin", "crosslane-reduce")
        self.runner = os.path.join(build, "bin", "crosslane-run")
        self.hipcc = os.path.join(build, "bin", "crosslane-hipcc")
        self.root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def crosslane(self, chip, op, typ, dims, cfg=None, search=False, out=None):
        cmd = [self.reduce, "--target=" + chip, "--op=" + op, "--type=" + typ,
               "--dims=" + dims, "--cost"]
        if cfg:
            cmd.append("--config=" + cfg)
        if search:
            cmd += ["--search", "--top=1"]
        if out:
            cmd += ["-o", out, "--run"]
        text = run(cmd)
        r = {}
        m = re.search(r"^config: (.*)$", text, re.M)
        r["config"] = m.group(1)
        m = re.search(r"critical path (\d+)\), (\d+) workgroups of (\d+) wave"
                      r".*: (\d+) issue slots", text)
        r["cp"], r["wgs"], r["waves"], r["slots"] = map(int, m.groups())
        if out and not re.search(r"^\d+ cases, 0 mismatches$", text, re.M):
            raise BenchError("generated kernel failed --run:\n" + text[-2000:])
        if search:
            m = re.search(r"^  #1 (\d+) slots: (.*)$", text, re.M)
            r["best_slots"], r["best_config"] = int(m.group(1)), m.group(2)
            m = re.search(r"search: (\d+) configs measured", text)
            r["space"] = int(m.group(1))
        return r

    def handwritten(self, name, chip, dims):
        src, block = HANDWRITTEN[name]
        rows, n = [int(d[1:]) for d in dims.split(",")]
        ll = os.path.join(self.work, "%s.%s.ll" % (name, chip))
        wave = 64 if chip.startswith("gfx9") else 32
        run([self.hipcc, "--no-crosslane", "--offload-arch=" + chip, "-nogpulib",
             "--cuda-device-only", "-O3", "-emit-llvm", "-S",
             os.path.join(self.root, src), "-o", ll])
        kernel = name if name == "row_sum" else [
            l for l in open(ll) if "define" in l and "torch_argmax_f32" in l][0]
        kernel = name if name == "row_sum" else re.search(
            r"@([\w.]+)\(", kernel).group(1)
        out_t = "f32" if name == "row_sum" else "i64"
        stats = run([self.runner, ll, "--kernel=" + kernel, "--grid=1",
                     "--block=%d" % block, "--arg=buf:f32:%d:random" % n,
                     "--arg=buf:%s:1:zero" % out_t, "--arg=i32:%d" % n,
                     "--stats", "--print=none"])
        cp = int(re.search(r"critical path (\d+)", stats).group(1))
        self.check_handwritten(ll, kernel, name, block, n, out_t)
        waves = block // wave
        rounds = math.ceil(rows * waves / (4 * CUS[chip]))
        return dict(cp=cp, wgs=rows, waves=waves, slots=rounds * cp, ll=ll,
                    kernel=kernel)

    def check_handwritten(self, ll, kernel, name, block, n, out_t):
        """The hand-written kernel computes the job (3 rows, random inputs)."""
        rng = random.Random(7)
        vals = [rng.uniform(-1, 1) for _ in range(3 * n)]
        inp = os.path.join(self.work, "hw.in")
        with open(inp, "wb") as f:
            f.write(struct.pack("<%df" % len(vals), *vals))
        text = run([self.runner, ll, "--kernel=" + kernel, "--grid=3",
                    "--block=%d" % block,
                    "--arg=buf:f32:%d:file=%s" % (3 * n, inp),
                    "--arg=buf:%s:3:zero" % out_t, "--arg=i32:%d" % n,
                    "--print=1"])
        got = [float(x) for x in re.findall(r"= (\S+)", text)]
        rows = [[struct.unpack("f", struct.pack("f", v))[0]
                 for v in vals[r * n:(r + 1) * n]] for r in range(3)]
        for r, g in zip(rows, got):
            want = sum(r) if name == "row_sum" else r.index(max(r))
            if abs(g - want) > 1e-3 * max(1, sum(abs(v) for v in r)):
                raise BenchError("%s computes %s, want %s" % (name, g, want))

    def static(self, ll, chip, kernel):
        """Loop and rest: instructions and mca cycles."""
        s = os.path.join(self.work, os.path.basename(ll) + ".s")
        run([os.path.join(LLVM, "llc"), "-O3", ll, "-o", s])
        lines = []
        active = False
        for l in open(s):
            if re.match(r"^%s:" % re.escape(kernel), l):
                active = True
                continue
            if active and l.startswith("\ts_endpgm"):
                lines.append(l.strip())
                break
            if active:
                lines.append(l.rstrip())
        insts = [l.strip() for l in lines
                 if re.match(r"^\s+[a-z_0-9]+(\s|$)", l)
                 and not l.strip().startswith(".")]
        labels = {}
        for i, l in enumerate(lines):
            m = re.match(r"^(\.LBB\d+_\d+):", l)
            if m:
                labels[m.group(1)] = i
        loop = None
        for i, l in enumerate(lines):
            m = re.search(r"s_c?branch\w* (\.LBB\d+_\d+)", l)
            if m and m.group(1) in labels and labels[m.group(1)] < i:
                body = (labels[m.group(1)], i)
                if loop is None or body[1] - body[0] < loop[1] - loop[0]:
                    loop = body
        loop_insts = []
        if loop:
            loop_insts = [l.strip() for l in lines[loop[0]:loop[1] + 1]
                          if re.match(r"^\s+[a-z_0-9]+(\s|$)", l)
                          and not l.strip().startswith(".")]
        rest = len(insts) - len(loop_insts)
        return dict(loop=len(loop_insts), rest=rest,
                    loop_mca=self.mca(loop_insts, chip) if loop_insts else 0,
                    all_mca=self.mca(insts, chip))

    def mca(self, insts, chip):
        f = os.path.join(self.work, "mca.s")
        with open(f, "w") as o:
            o.write("\n".join(i for i in insts if not i.startswith("s_endpgm"))
                    + "\n")
        out = run([os.path.join(LLVM, "llvm-mca"), "-mtriple=amdgcn-amd-amdhsa",
                   "-mcpu=" + chip, "-iterations=1", f])
        return int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))


def random_shapes(rng, count):
    shapes = []
    for _ in range(count):
        p = rng.choice([1, 7, 64, 300, 2048, 20000])
        r = rng.choice([32, 100, 513, 2048, 10000, 65536])
        op = rng.choice(["add", "max", "argmax"])
        typ = rng.choice(["f32", "f16:f32" if op == "add" else "f16", "i32"])
        shapes.append(("gfx942", op, typ, "p%d,r%d" % (p, r), None, None, None))
    return shapes


SIMX_RATIOS = []  # heuristic / model-best simx cycles, per Vortex shape
BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i32": 4, "i64": 8}


def simx_cycles(b, chip, op, typ, dims, cfg, work):
    """simx cycles of one launch of the kernel crosslane-reduce generates for
    `cfg` (zero inputs; correctness is test/Vortex's business), built with
    crosslane-hipcc --genco and run by crosslane-vx-launch. None without a
    Vortex installation."""
    home = os.environ.get("CROSSLANE_VORTEX_HOME", os.path.join(
        b.root, "..", "shared", "vortex"))
    if not os.path.isdir(os.path.join(home, "prebuilt")):
        return None
    config = chip.split(":")[1] if ":" in chip else "default"
    ll, mod = os.path.join(work, "simx.ll"), os.path.join(work, "simx.clvx")
    text = run([b.reduce, "--target=" + chip, "--op=" + op, "--type=" + typ,
                "--dims=" + dims, "--config=" + cfg, "-o", ll])
    m = re.search(r"^workgroup: (\d+) threads .*; (\d+) workgroups", text, re.M)
    block, grid = int(m.group(1)), int(m.group(2))
    run([b.hipcc, "--target=vortex", "--vortex-config=" + config, "--genco", ll,
         "-o", mod])
    elem, acc = (typ.split(":") + [typ])[:2]
    sizes = [int(d[1:]) for d in dims.split(",")]
    total = math.prod(sizes)
    outputs = math.prod(int(d[1:]) for d in dims.split(",") if d[0] == "p")
    bufs = [total * BYTES[elem], outputs * BYTES[acc]]
    if op.startswith("arg"):
        bufs.append(outputs * (8 if ":i64" in op else 4))
    args = []
    for i, n in enumerate(bufs):
        f = os.path.join(work, "simx.buf%d" % i)
        with open(f, "wb") as fh:
            fh.write(bytes(n))
        args.append("buf:" + f)
    out = run([os.path.join(b.build, "bin", "crosslane-vx-launch"), mod,
               "crosslane_reduce", str(grid), str(block)] + args,
              env=dict(os.environ, CROSSLANE_VORTEX_PERF="1"))
    return int(re.search(r"cycles=(\d+)", out).group(1))


def target_table(b, work, title, shapes):
    """Rows of another target (Intel Xe, Vortex): the heuristic's config
    against the search's best, in that target's executor model; returns the
    worst ratio."""
    print("\n%s (same cost measure, no static columns):" % title)
    worst = 0.0
    for chip, op, typ, dims in shapes:
        ll = os.path.join(work, "t.%s.ll" % chip.replace(":", "_"))
        h = b.crosslane(chip, op, typ, dims, search=True, out=ll)
        ratio = h["slots"] / h["best_slots"]
        worst = max(worst, ratio)
        print("%-14s %-34s %-10s %8d %8d %6.3f" %
              (chip, "%s %s %s" % (dims, typ, op), "heuristic", h["slots"],
               h["best_slots"], ratio))
        print("%-14s   heuristic %s" % ("", short(h["config"])))
        print("%-14s   best      %s (of %d)" % ("", short(h["best_config"]),
                                                h["space"]))
        if chip.startswith("vortex"):
            hc = simx_cycles(b, chip, op, typ, dims, h["config"], work)
            bc = simx_cycles(b, chip, op, typ, dims, h["best_config"], work)
            if hc and bc:
                SIMX_RATIOS.append(hc / bc)
                print("%-14s   simx cycles: heuristic %d, best %d (%.3f)" %
                      ("", hc, bc, hc / bc))
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--random", type=int, default=4,
                    help="extra random shapes (heuristic vs best only)")
    ap.add_argument("--seed", type=int, default=2)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="crosslane-reduce-bench.")
    b = Bench(a.build, work)
    print("Lowering configs: generated reduction kernels (crosslane-reduce), "
          "Crosslane's cost measure in wave-instruction issue slots "
          "(executor critical path x rounds), llc-22 -O3 static counts and "
          "llvm-mca-22 cycles. No GPU ran.\n")
    hdr = ("%-8s %-34s %-10s %8s %8s %6s %8s %10s %9s %9s" %
           ("chip", "problem", "kernel", "slots", "best", "ratio", "IREE",
            "handwrit", "loop", "rest"))
    print(hdr)
    print("-" * len(hdr))
    worst_best, worst_hand = 0.0, 0.0
    rows = []
    shapes = SHAPES + random_shapes(random.Random(a.seed), a.random)
    for chip, op, typ, dims, iree, iree_src, hand in shapes:
        ll = os.path.join(work, "gen.%s.ll" % len(rows))
        h = b.crosslane(chip, op, typ, dims, search=True, out=ll)
        st = b.static(ll, chip, "crosslane_reduce")
        ratio = h["slots"] / h["best_slots"]
        worst_best = max(worst_best, ratio)
        iree_s = hand_s = "-"
        if iree:
            i = b.crosslane(chip, op, typ, dims, cfg=iree)
            iree_s = str(i["slots"])
        if hand:
            hw = b.handwritten(hand, chip, dims)
            hand_s = str(hw["slots"])
            worst_hand = max(worst_hand, h["slots"] / hw["slots"])
            hst = b.static(hw["ll"], chip, hw["kernel"])
        prob = "%s %s %s" % (dims, typ, op.split(":")[0])
        print("%-8s %-34s %-10s %8d %8d %6.3f %8s %10s %4d/%-4d %4d/%-4d" %
              (chip, prob, "heuristic", h["slots"], h["best_slots"], ratio,
               iree_s, hand_s, st["loop"], st["loop_mca"], st["rest"],
               st["all_mca"]))
        print("%-8s   heuristic %s" % ("", short(h["config"])))
        print("%-8s   best      %s (of %d)" % ("", short(h["best_config"]),
                                               h["space"]))
        if iree:
            print("%-8s   IREE      %s (%s)" % ("", short(iree), iree_src))
        if hand:
            print("%-8s   hand      %s, block %d: %d workgroups x %d waves, "
                  "critical path %d; loop %d/%d, rest %d/%d" %
                  ("", HANDWRITTEN[hand][0], HANDWRITTEN[hand][1], hw["wgs"],
                   hw["waves"], hw["cp"], hst["loop"], hst["loop_mca"],
                   hst["rest"], hst["all_mca"]))
        rows.append(h)
    worst_xe = target_table(b, work, "Intel Xe (the executor's Xe model)",
                            XE_SHAPES)
    worst_vx = target_table(b, work, "Vortex (the executor's Vortex model)",
                            VORTEX_SHAPES)
    print("\ncolumns: slots = heuristic config's cost; best = exhaustive "
          "search's best; ratio = slots / best; IREE = IREE's config for the "
          "same problem; handwrit = the hand-written kernel, same measure; "
          "loop / rest = static instructions / llvm-mca cycles of the "
          "generated kernel's innermost loop and of the whole kernel.")
    print("summary reduce_heuristic_vs_best_max=%.3f "
          "reduce_vs_handwritten_max=%.3f reduce_xe_heuristic_vs_best_max=%.3f "
          "reduce_vortex_heuristic_vs_best_max=%.3f "
          "reduce_vortex_simx_heuristic_vs_best_max=%s"
          % (worst_best, worst_hand, worst_xe, worst_vx,
             "%.3f" % max(SIMX_RATIOS) if SIMX_RATIOS else "-"))
    return (0 if max(worst_best, worst_xe, worst_vx) <= 1.10 and
            worst_hand <= 1.0 else 1)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        print("bench error: %s" % e)
        sys.exit(1)
