#!/usr/bin/env python3
"""Random reductions and lowering configs through crosslane-reduce.

Three kinds of case, from one seed:
  valid    a random problem (rank 1-4, static or dynamic sizes, any combiner
           and type) and a random config that satisfies every rule by
           construction (or none: the heuristic's); `--run` must end with
           "N cases, 0 mismatches".
  invalid  a valid config with one rule broken; the tool must exit 1 with
           "error:" naming an attribute or option.
  garbage  random text in the config syntax; exit 0 or 1, never a crash.
A crash, a hang (60 s), a mismatch or an unexpected exit code is a failure;
failing command lines go to --out. Usage:
  fuzz-configs.py --build build --cases 100 --seed 1
"""
import argparse
import random
import shlex
import subprocess
import sys
import time

# (target, wave size, subgroups a workgroup may have at most)
TARGETS = [("gfx942", 64, 16), ("gfx90a", 64, 16), ("gfx1100", 32, 32),
           ("gfx1100:w64", 64, 16), ("gfx1201", 32, 32), ("gfx950", 64, 16),
           ("pvc", 16, 64), ("bmg:w32", 32, 32), ("dg2", 16, 64),
           ("vortex", 4, 4), ("vortex:w16t16a", 16, 16),
           ("vortex:w8t32a", 32, 8)]
FLOAT_OPS = ["add", "mul", "min", "max", "minimum", "maximum", "argmax",
             "argmin"]
INT_OPS = ["add", "mul", "min", "max", "umin", "umax", "and", "or", "xor",
           "argmax", "argmin"]
ATTRS = ["workgroup", "thread", "partial_reduction", "lane_basis",
         "subgroup_basis"]


def split_bits(rng, bits, parts):
    """Distributes 2**bits over `parts` counts (powers of two)."""
    counts = [1] * parts
    for _ in range(bits):
        counts[rng.randrange(parts)] *= 2
    return counts


def random_problem(rng):
    rank = rng.randint(1, 4)
    kinds = [rng.choice("pr") for _ in range(rank)]
    if "r" not in kinds:
        kinds[rng.randrange(rank)] = "r"
    sizes = []
    budget = 60000
    for k in kinds:
        if rng.random() < 0.15:
            sizes.append("?")
            continue
        s = rng.choice([1, 2, 3, 7, 16, 31, 64, 97, 128, 255, 300, 1000])
        s = max(1, min(s, budget))
        budget //= s
        budget = max(budget, 1)
        sizes.append(str(s))
    elem = rng.choice(["f16", "bf16", "f32", "f64", "i32", "i64"])
    is_float = elem[0] in "fb"
    op = rng.choice(FLOAT_OPS if is_float else INT_OPS)
    acc = elem
    if op in ("add", "mul") and rng.random() < 0.4:
        acc = {"f16": "f32", "bf16": "f32", "f32": "f64", "f64": "f64",
               "i32": "i64", "i64": "i64"}[elem]
    if op.startswith("arg"):
        op += rng.choice(["", ":i64"])
        if is_float:
            op += rng.choice(["", ":nan-wins"]) + rng.choice(["", ":zeros-equal"])
    dims = ",".join(k + s for k, s in zip(kinds, sizes))
    typ = elem if acc == elem else elem + ":" + acc
    return kinds, sizes, op, typ, dims


def random_config(rng, kinds, wave, max_sg):
    rank = len(kinds)
    lane = split_bits(rng, wave.bit_length() - 1, rank)
    sg = split_bits(rng, rng.randint(0, min(3, max_sg.bit_length() - 1)), rank)
    lmap = list(range(rank))
    smap = list(range(rank))
    rng.shuffle(lmap)
    rng.shuffle(smap)
    # counts[j] goes to dim map[j]
    lanes_of = [1] * rank
    sgs_of = [1] * rank
    for j in range(rank):
        lanes_of[lmap[j]] = lane[j]
        sgs_of[smap[j]] = sg[j]
    wg, thr, pr = [0] * rank, [0] * rank, [0] * rank
    accs, loads = 1, 1
    for d in range(rank):
        if kinds[d] == "p":
            b = rng.choice([1, 1, 2, 3, 4])
            while accs * b > 16 and b > 1:
                b -= 1
            accs *= b
            wg[d] = sgs_of[d] * lanes_of[d] * b
        else:
            t = rng.choice([1, 1, 2, 3, 4, 8])
            while loads * t > 16 and t > 1:
                t //= 2
            loads *= t
            thr[d] = t
            pr[d] = sgs_of[d] * lanes_of[d] * t * rng.choice([1, 1, 2, 3])
    cfg = {"workgroup": wg, "thread": thr, "partial_reduction": pr,
           "lane_basis": [lane, lmap], "subgroup_basis": [sg, smap]}
    return cfg


def render(cfg, wrapped):
    body = ", ".join("%s = %s" % (k, str(v)) for k, v in cfg.items())
    return ("#iree_gpu.lowering_config<{%s}>" if wrapped else "{%s}") % body


def break_rule(rng, cfg, kinds):
    """One rule broken; returns the attribute the error must name."""
    rank = len(kinds)
    choice = rng.randrange(7)
    red = [d for d in range(rank) if kinds[d] == "r"]
    par = [d for d in range(rank) if kinds[d] == "p"]
    if choice == 0:
        cfg["lane_basis"][0][rng.randrange(rank)] *= 2
        return "lane_basis"
    if choice == 1 and rank > 1:
        cfg["subgroup_basis"][1][0] = cfg["subgroup_basis"][1][1]
        return "subgroup_basis"
    if choice == 2:
        d = rng.choice(red)
        cfg["workgroup"][d] = 4
        return "workgroup"
    if choice == 3 and par:
        cfg["thread"][rng.choice(par)] = 2
        return "thread"
    if choice == 4:
        # A chunk smaller than one load of every thread, or no load at all.
        d = rng.choice(red)
        if cfg["thread"][d] >= 2:
            cfg["partial_reduction"][d] = cfg["thread"][d] - 1
            return "partial_reduction"
        cfg["thread"][d] = 0
        return "thread"
    if choice == 5:
        key = rng.choice(["workgroup", "thread", "partial_reduction"])
        cfg[key] = cfg[key] + [0]
        return key
    key = rng.choice(ATTRS)
    del cfg[key]
    return key


def garbage(rng):
    atoms = ["{", "}", "[", "]", ",", "=", "<", ">", "#iree_gpu.lowering_config",
             "workgroup", "thread", "lane_basis", "subgroup_basis",
             "partial_reduction", "reduction", "0", "1", "-3", "64",
             "99999999999999999999", '"s"', ":", "i64", " "]
    return "".join(rng.choice(atoms) for _ in range(rng.randint(1, 40)))


def run(tool, args, timeout=60):
    t = time.time()
    try:
        p = subprocess.run([tool] + args, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", time.time() - t
    return p.returncode, p.stdout + p.stderr, time.time() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="fuzz-configs.failures")
    a = ap.parse_args()
    tool = a.build + "/bin/crosslane-reduce"
    rng = random.Random(a.seed)
    counts = {"valid": 0, "heuristic": 0, "invalid": 0, "garbage": 0}
    failures = []
    executed = 0
    start = time.time()
    for i in range(a.cases):
        target, wave, max_sg = rng.choice(TARGETS)
        kinds, sizes, op, typ, dims = random_problem(rng)
        base = ["--target=" + target, "--op=" + op, "--type=" + typ,
                "--dims=" + dims, "--seed=%d" % rng.randrange(1000)]
        kind = rng.choice(["valid", "valid", "heuristic", "invalid", "garbage"])
        cfg = random_config(rng, kinds, wave, max_sg)
        args = list(base)
        want = None
        if kind == "valid":
            args.append("--config=" + render(cfg, rng.random() < 0.5))
        elif kind == "invalid":
            want = break_rule(rng, cfg, kinds)
            args.append("--config=" + render(cfg, False))
        elif kind == "garbage":
            args.append("--config=" + garbage(rng))
        if kind in ("valid", "heuristic"):
            args.append("--run")
        counts[kind] += 1
        rc, out, _ = run(tool, args)
        cmd = shlex.join([tool] + args)
        why = None
        if rc is None:
            why = "hang"
        elif rc < 0 or rc > 1 or "Stack dump" in out or "Assertion" in out:
            why = "crash (exit %s)" % rc
        elif kind in ("valid", "heuristic"):
            if "generator unrolls at most" in out and rc == 1:
                pass  # a documented generator limit, not a failure
            elif rc != 0 or " 0 mismatches" not in out:
                why = "valid config failed"
            else:
                executed += 1
        elif kind == "invalid":
            if rc != 1 or "error:" not in out or (
                    want not in out and "--" not in out):
                why = "expected an error naming '%s'" % want
        elif rc == 1 and "error:" not in out:
            why = "exit 1 without an error"
        if why:
            failures.append("%s: %s\n%s\n" % (why, cmd, out[-2000:]))
    with open(a.out, "w") as f:
        f.write("\n".join(failures))
    print("fuzz-configs: %d cases (%d valid, %d heuristic, %d invalid, %d "
          "garbage; %d kernels run) in %d s: %d failures" %
          (a.cases, counts["valid"], counts["heuristic"], counts["invalid"],
           counts["garbage"], executed, time.time() - start, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
