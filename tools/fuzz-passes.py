#!/usr/bin/env python3
"""Crash and verifier fuzzing of Crosslane's passes (docs/Testing.md).

Seeds: real device IR -- the examples compiled for AMDGPU chips without the
plugin (hand-written cross-lane butterflies), the subgroup-operation
generator's modules for several chips, Vortex HIP programs compiled without
the recogniser, OpenCL 2D block kernels for spirv64 -- plus the lit tests'
own .ll files. Each case takes a seed, reshapes it with a random pipeline
of LLVM's own passes (so the passes meet IR no test wrote), then runs one
Crosslane pass (or the whole device pipeline) and the verifier. A case
fails when opt crashes, prints an LLVM ERROR, or the verifier rejects the
result; an error diagnostic for bad input is not a failure. Prints totals
and exits non-zero on any failure; failing inputs are kept in --out.
With --executor it runs random crosslane-run command lines (argument
types, counts, sizes, grids, --diff) on the seeds instead, and with --ir
on seeds with one random change each (see mutate_ir): a hang (60 s) or a
crash fails, an error message does not.

  tools/fuzz-passes.py --build build --cases 2000 --seed 1
"""
import argparse
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LLVM = "/usr/lib/llvm-22/bin"

RESHAPE = ["instcombine", "simplifycfg", "sroa", "early-cse", "gvn", "licm",
           "loop-rotate", "loop-unroll", "jump-threading", "reassociate",
           "sccp", "adce", "dce", "mem2reg", "lower-switch", "loop-simplify",
           "lcssa", "indvars", "tailcallelim", "structurizecfg",
           "fix-irreducible", "unify-loop-exits", "loop-instsimplify",
           "correlated-propagation", "dse", "mldst-motion", "sink",
           "instsimplify", "break-crit-edges", "loop-sink", "gvn-hoist"]
PASSES = {
    "amdgcn": ["crosslane-recognize-arg", "crosslane-expand-subgroup",
               "crosslane-expand-subgroup<no-wwm>",
               "crosslane-relax-nan-guard", "crosslane-device-pipeline"],
    "riscv32": ["crosslane-recognize-arg", "crosslane-expand-subgroup",
                "crosslane-vortex-divergence", "crosslane-device-pipeline"],
    "spirv64": ["crosslane-xe-block-io<chip=pvc>",
                "crosslane-xe-form-blocks<chip=pvc>",
                "crosslane-xe-form-blocks<chip=bmg>,"
                "crosslane-xe-block-io<chip=bmg;base=assume>",
                "crosslane-xe-block-io<chip=bmg;lower=igc>",
                "crosslane-xe-block-io<chip=dg2>",
                "crosslane-device-pipeline"],
}


def run(cmd, timeout=60, **kw):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, **kw)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return -1000, "timeout"


def seeds(build, cache):
    """Builds (once) and lists the seed modules."""
    os.makedirs(cache, exist_ok=True)
    hipcc = os.path.join(build, "bin", "crosslane-hipcc")
    jobs = []
    for src in sorted(glob.glob(os.path.join(ROOT, "examples", "*.hip"))):
        for chip in ("gfx942", "gfx1100"):
            jobs.append(([hipcc, f"--offload-arch={chip}",
                          "--cuda-device-only", "--no-crosslane", "-nogpulib",
                          "-O2", "-S", "-emit-llvm", src], chip))
    for src in ("arg_reductions.hip", "warp_idioms.hip", "lp64_softfloat.hip"):
        jobs.append(([hipcc, "--target=vortex", "-O2", "-S", "-emit-llvm",
                      "-mllvm", "-crosslane-recognize=0",
                      os.path.join(ROOT, "test", "Vortex", "Inputs", src)],
                     "vortex"))
    for src in (glob.glob(os.path.join(ROOT, "test", "Xe", "Inputs", "*.cl")) +
                glob.glob(os.path.join(ROOT, "examples", "xe", "*.cl"))):
        jobs.append((["clang-22", "-cl-std=CL3.0", "--target=spirv64", "-O1",
                      "-I", os.path.join(ROOT, "include"), "-S", "-emit-llvm",
                      src], "xe"))
    for cmd, tag in jobs:
        out = os.path.join(cache, tag + "-" +
                           os.path.basename(cmd[-1]).replace(".", "_") + ".ll")
        if not os.path.exists(out):
            run(cmd + ["-o", out], timeout=300)
    gen = os.path.join(ROOT, "test", "SubgroupReduce", "gen.py")
    for chip in ("gfx900", "gfx942", "gfx1030", "gfx1201"):
        out = os.path.join(cache, f"gen-{chip}.ll")
        if not os.path.exists(out):
            code, text = run([sys.executable, gen, "--chip", chip,
                              "reduce:add:i32:64:1", "reduce:fmax:f32:32:1",
                              "argmax:f32:i32:64:1"])
            if code == 0:
                open(out, "w").write(text)
    files = [f for f in glob.glob(os.path.join(cache, "*.ll"))
             if os.path.getsize(f) > 0]
    files += [f for f in glob.glob(os.path.join(ROOT, "test", "*", "*.ll"))
              if "Executor" not in f]
    return sorted(files)


def arch(path):
    for line in open(path, errors="replace"):
        if line.startswith("target triple"):
            for a in PASSES:
                if a in line:
                    return a
            return None
    return None


def kernels(path):
    """(name, [parameter types]) of the kernels defined in \p path."""
    out = []
    for line in open(path, errors="replace"):
        if not line.startswith("define ") or not any(
                cc in line for cc in ("amdgpu_kernel", "spir_kernel",
                                      "__crosslane_vx_entry")):
            continue
        name = line.split("@", 1)[1].split("(", 1)[0].strip('"')
        params = line.split("(", 1)[1].rsplit(")", 1)[0]
        out.append((name, [p.strip().split(" ")[0] for p in params.split(",")
                           if p.strip()]))
    return out


def executor_case(rng, run_tool, seed, target, module=None):
    """One random crosslane-run command line for \p seed's kernels, run on
    \p module (default: the seed): returns (crashed, text)."""
    ks = kernels(seed)
    if not ks:
        return None, ""
    name, params = rng.choice(ks)
    types = ["i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]
    args = []
    for p in params:
        if p.startswith("ptr") and rng.random() < 0.95:
            args.append(f"--arg=buf:{rng.choice(types)}:"
                        f"{rng.choice(['1', '7', 'N', 'N*3', '4096'])}:"
                        f"{rng.choice(['random', 'zero', 'iota', 'input'])}")
        else:
            args.append(f"--arg={rng.choice(['i32', 'i64', 'f32'])}:"
                        f"{rng.choice(['0', '1', '-1', '17', '2147483647'])}")
    if rng.random() < 0.1:  # a wrong argument count
        args = args[:-1] if args and rng.random() < 0.5 else args + \
            ["--arg=i32:3"]
    kname = name.split("__crosslane_vx_entry.", 1)[-1]
    module = module or seed
    cmd = [run_tool, module, f"--kernel={kname}",
           f"--grid={rng.choice(['1', '2', '3,2'])}",
           f"--block={rng.choice(['1', '16', '33', '64', '256'])}",
           "--print=none", "--max-lane-instructions=20000000"] + args
    if rng.random() < 0.3:
        cmd += [f"--diff={module}", "--cases=1",
                f"--sizes={rng.choice(['1', '5', '64'])}"]
    code, text = run(cmd, timeout=60)
    crashed = code < 0 or "Stack dump" in text or "LLVM ERROR" in text or \
        "Assertion" in text
    return crashed, " ".join(cmd) + "\n" + text


BINOPS = ["add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr",
          "ashr", "and", "or", "xor"]
BIG = ["0", "-1", "1", "2147483647", "-2147483648", "4294967295",
       "9223372036854775807", "65535", "1024", "33"]


def mutate_ir(rng, text):
    """\p text with one random change: (kind, new text). Most keep the
    module parseable and change what it computes (an operation, a constant:
    divisions by zero, shifts past the width, endless loops, far addresses);
    others break it (a line dropped, the file cut, bytes that are not IR)."""
    lines = text.split("\n")
    body = [i for i, l in enumerate(lines) if l.startswith("  ") and
            "=" in l and not l.lstrip().startswith(";")]
    kind = rng.choice(["opcode", "opcode", "constant", "constant",
                       "drop-line", "truncate", "garbage"])
    # Seeds without such lines fall through to the next kind.
    if kind == "opcode" and body:
        cands = [i for i in body
                 if any(f"= {op} " in lines[i] for op in BINOPS)]
        if cands:
            i = rng.choice(cands)
            for op in BINOPS:
                if f"= {op} " in lines[i]:
                    lines[i] = lines[i].replace(f"= {op} ",
                                                f"= {rng.choice(BINOPS)} ", 1)
                    lines[i] = lines[i].replace(" nuw ", " ").replace(
                        " nsw ", " ").replace(" exact ", " ").replace(
                        " disjoint ", " ")
                    break
            return kind, "\n".join(lines)
    if kind in ("opcode", "constant") and body:
        cands = [i for i in body if any(c.isdigit() for c in
                                        lines[i].split("=", 1)[1])]
        if cands:
            i = rng.choice(cands)
            head, tail = lines[i].split("=", 1)
            toks = tail.split(" ")
            nums = [k for k, t in enumerate(toks)
                    if t.rstrip(",").lstrip("-").isdigit()]
            if nums:
                k = rng.choice(nums)
                comma = "," if toks[k].endswith(",") else ""
                toks[k] = rng.choice(BIG) + comma
                lines[i] = head + "=" + " ".join(toks)
                return "constant", "\n".join(lines)
    if kind in ("opcode", "constant", "drop-line") and body:
        del lines[rng.choice(body)]
        return "drop-line", "\n".join(lines)
    if kind == "truncate":
        return kind, text[:rng.randrange(max(1, len(text)))]
    return "garbage", "".join(chr(rng.choice([9, 10] + list(range(32, 127))))
                              for _ in range(rng.randint(0, 400)))


def keep_failure(out, module, name, what, text, lines=6):
    """Copies the failing input \p module to \p out/\p name and prints
    \p what with the first lines of the tool's output."""
    os.makedirs(out, exist_ok=True)
    kept = os.path.join(out, name)
    shutil.copy(module, kept)
    print(f"FAIL {what} -> {kept}\n  " +
          "\n  ".join(text.strip().splitlines()[:lines]))


def fuzz_executor(a, pool, rng, out):
    """Random crosslane-run command lines on the seeds, and with --ir on
    mutated seeds: a crash or a hang fails, a clear error does not."""
    tool = os.path.join(a.build, "bin", "crosslane-run")
    ran = crashes = 0
    outcomes = {}
    start = time.time()
    tmp = tempfile.mkdtemp(prefix="crosslane-fuzz-exec-")
    for case in range(a.cases):
        seed, target = rng.choice(pool)
        kind = "as is"
        if a.ir:
            kind, text = mutate_ir(rng, open(seed, errors="replace").read())
            mutated = os.path.join(tmp, "mutated.ll")
            with open(mutated, "w") as f:
                f.write(text)
            # The command line is drawn from the seed's kernels (a mutation
            # may leave none to find).
            crashed, text = executor_case(rng, tool, seed, target,
                                          module=mutated)
        else:
            crashed, text = executor_case(rng, tool, seed, target)
        if crashed is None:
            continue
        ran += 1
        verdict = ("crash or hang" if crashed else
                   "error" if "error:" in text else "ran")
        outcomes[(kind, verdict)] = outcomes.get((kind, verdict), 0) + 1
        if crashed:
            crashes += 1
            keep_failure(out, mutated if a.ir else seed, f"exec{case}.ll",
                         f"executor case {case} ({kind})", text, lines=8)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"fuzz-executor: {ran} runs in {time.time() - start:.0f} s: "
          f"{crashes} crashes or hangs")
    for (kind, verdict), n in sorted(outcomes.items()):
        print(f"  {kind}: {n} {verdict}")
    return 1 if crashes else 0


def classify(code, text, fatal_is_crash):
    """(crash, broken) for a tool's exit: a signal, a stack dump or an
    assertion (with \p fatal_is_crash, any LLVM ERROR) is a crash; an IR or
    machine verifier failure is broken."""
    crash = code < 0 or any(m in text for m in
                            ("Stack dump", "Assertion", "UNREACHABLE"))
    crash = crash or (fatal_is_crash and "LLVM ERROR" in text)
    broken = any(m in text for m in ("Broken module", "verification failed",
                                     "Bad machine code"))
    return crash, broken


def llc_fails(llc, args, module):
    code, text = run([llc, *args, "-O2", "-verify-machineinstrs", module,
                      "-o", os.devnull], timeout=120)
    return (code, text, *classify(code, text, fatal_is_crash=False))


# What llc needs per target, as Crosslane's drivers and docs give it
# (crosslane-vortex-cc: rv32imaf with Zicond, which module-level asm such
# as the Vortex entry stub is assembled with; spirv64: the 2D block IO
# extension).
LLC_ARGS = {"riscv32": ["-mattr=+m,+a,+f,+zicond"],
            "spirv64": ["--spirv-ext=+SPV_INTEL_2d_block_io"]}


def codegen(plugin, target, before, module, case, out, totals):
    """llc -verify-machineinstrs on \p module with the plugin loaded: its
    code-generation passes (crosslane-relax-nan-guard and
    crosslane-drop-minmax-quieting on AMDGPU, crosslane-vortex-divergence
    and the branch check on RISC-V) run inside llc."""
    llc = os.path.join(LLVM, "llc")
    extra = LLC_ARGS.get(target, [])
    code, text, crash, broken = llc_fails(llc, [f"-load={plugin}", *extra],
                                          module)
    totals["llc"] += 1
    if (crash or broken) and any(llc_fails(llc, extra, before)[2:]):
        # The module before Crosslane fails the same way without the
        # plugin: LLVM's (or the seed's) limit, not Crosslane's.
        totals["llc-baseline"] += 1
        return
    if code != 0 and not crash and not broken:
        totals["llc-error"] += 1
        lines = text.strip().splitlines() or ["(no output)"]
        first = next((l for l in lines if "error" in l), lines[0])
        reason = first.split("error:")[-1].strip()[:90]
        totals.setdefault("llc-reasons", {})
        totals["llc-reasons"][reason] = totals["llc-reasons"].get(reason, 0) + 1
    if crash or broken:
        totals["llc-crash" if crash else "machine-verifier"] += 1
        keep_failure(out, module, f"case{case}-codegen.ll",
                     f"case {case}: llc -verify-machineinstrs", text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None, help="where failing inputs go")
    ap.add_argument("--executor", action="store_true",
                    help="fuzz crosslane-run's command line on the seeds "
                         "instead of the passes")
    ap.add_argument("--ir", action="store_true",
                    help="with --executor: run each command line on the seed "
                         "with one random change (an operation, a constant, "
                         "a line dropped, the file cut, bytes that are not "
                         "IR)")
    ap.add_argument("--codegen", action="store_true",
                    help="also compile each transformed module with llc "
                         "-verify-machineinstrs, the plugin loaded (its "
                         "code-generation passes run)")
    a = ap.parse_args()
    plugin = os.path.join(a.build, "lib", "CrosslanePlugin.so")
    cache = os.path.join(a.build, "fuzz-seeds")
    out = a.out or os.path.join(a.build, "fuzz-failures")
    rng = random.Random(a.seed)
    pool = [(f, arch(f)) for f in seeds(a.build, cache)]
    pool = [(f, t) for f, t in pool if t]
    if not pool:
        sys.exit("fuzz: no seed modules")
    if a.executor:
        return fuzz_executor(a, pool, rng, out)
    opt = os.path.join(LLVM, "opt")
    totals = {"cases": 0, "crash": 0, "verifier": 0, "error-diag": 0,
              "reshape-skipped": 0, "llc": 0, "llc-crash": 0,
              "machine-verifier": 0, "llc-error": 0, "llc-baseline": 0}
    start = time.time()
    tmp = tempfile.mkdtemp(prefix="crosslane-fuzz-")
    for case in range(a.cases):
        seed, target = rng.choice(pool)
        steps = rng.sample(RESHAPE, rng.randint(0, 4))
        shaped = os.path.join(tmp, "shaped.ll")
        if steps:
            code, _ = run([opt, "-S", f"-passes={','.join(steps)}", seed,
                           "-o", shaped])
            if code != 0:
                totals["reshape-skipped"] += 1
                continue
        else:
            shutil.copy(seed, shaped)
        p = rng.choice(PASSES[target])
        after = os.path.join(tmp, "after.ll")
        code, text = run([opt, f"-load-pass-plugin={plugin}",
                          f"-passes={p},verify", "-S", shaped, "-o", after])
        totals["cases"] += 1
        crash, broken = classify(code, text, fatal_is_crash=True)
        if code != 0 and not crash and not broken:
            totals["error-diag"] += 1
        if crash or broken:
            totals["crash" if crash else "verifier"] += 1
            keep_failure(out, shaped, f"case{case}.ll",
                         f"case {case}: {p} on {os.path.basename(seed)} after "
                         f"[{','.join(steps)}]", text)
        elif a.codegen and code == 0:
            codegen(plugin, target, shaped, after, case, out, totals)
    shutil.rmtree(tmp, ignore_errors=True)
    secs = time.time() - start
    print(f"fuzz: {totals['cases']} cases from {len(pool)} seeds in "
          f"{secs:.0f} s: {totals['crash']} crashes, {totals['verifier']} "
          f"verifier failures, {totals['error-diag']} error diagnostics "
          f"(bad input, expected), {totals['reshape-skipped']} reshapes "
          "LLVM itself rejected")
    if a.codegen:
        print(f"fuzz-codegen: {totals['llc']} llc runs: "
              f"{totals['llc-crash']} crashes, {totals['machine-verifier']} "
              f"machine verifier failures, {totals['llc-error']} errors "
              "reported cleanly, "
              f"{totals['llc-baseline']} failures llc has without Crosslane "
              "too")
        for reason, n in sorted(totals.get("llc-reasons", {}).items(),
                                key=lambda kv: -kv[1])[:5]:
            print(f"  llc error x{n}: {reason}")
    return 1 if (totals["crash"] or totals["verifier"] or
                 totals["llc-crash"] or totals["machine-verifier"]) else 0


if __name__ == "__main__":
    sys.exit(main())
