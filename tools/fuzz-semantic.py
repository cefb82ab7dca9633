#!/usr/bin/env python3
"""Semantic fuzzing of the arg-reduction recogniser (docs/Testing.md).

Generates random HIP kernels holding wave-level reductions and
arg-reductions written the way people write them -- xor butterflies with
__shfl_xor, __shfl_down ladders, (value, index) pairs with and without an
index tie-break, value-only max/min butterflies, the ballot idioms,
sub-wave clusters (a width argument or masked offsets), loops over the
offsets or unrolled steps, pairs in structs or separate variables,
float/half/int keys, fmaxf vs > vs >= comparators, NaN tests (x != x,
isnan), -1/INT_MAX sentinels, 32- and 64-bit indices -- and near misses
the recogniser must refuse or guard (>= for >, a tie-break to the larger
index, offsets without 1, with a repeated or missing step or that do not
halve, xor mixed with down, a lane-dependent gate, a width that is not a
power of two, literal 32/64 where warpSize was meant).

Each kernel is compiled to device IR twice with crosslane-hipcc (without
the plugin, and with it plus -Rpass/-Rpass-missed=crosslane-recognize-arg
for the verdict), and both modules run in crosslane-run --diff on every
input generator, several sizes (partial waves too) and block sizes that
are and are not a multiple of the wave. A mismatch, a crash, an error of
either tool, or a hang (60 s) fails the run: the kernel and the commands
that reproduce it are kept in --out. Deterministic for a --seed (also with
--jobs). Prints totals (kernels, compiles, chains rewritten, refusals by
reason, cases, mismatches); exits 1 on any failure. Each kernel runs on
--chips-per-kernel chips drawn from --chips; --exclude leaves out kernels
with given choices (a known finding), --corrupt-after breaks the rewritten
modules on purpose (a self-test: the run must fail).

--chips=vortex4,vortex16,vortex32 runs the kernels on Vortex (its prebuilt
default, w16t16a and w8t32a configurations: 4-, 16- and 32-lane warps):
compiled by crosslane-hipcc --target=vortex without the recogniser and
with it forced to replace what it proves (-crosslane-vortex-replace-arg),
run in the executor's Vortex model on whole warps only (a shuffle from a
lane that is off reads a stale register on Vortex).

  nice -n 10 tools/fuzz-semantic.py --build build --cases 200 --seed 1
  tools/fuzz-semantic.py --seed 1 --print-kernel 7
"""
import argparse
import concurrent.futures
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name: (offload arch, wave size, extra hipcc flags, crosslane-run flags);
# Vortex: the arch is "vortex:CONFIG" (one of Vortex's prebuilt hardware
# configurations). AMDGPU chips are the default set; Vortex runs only on
# request (--chips), since it keeps recognised chains as written unless
# told (-crosslane-vortex-replace-arg, which the fuzzer passes).
CHIPS = {
    "gfx942": ("gfx942", 64, [], []),
    "gfx1100": ("gfx1100", 32, [], []),
    "gfx1100w64": ("gfx1100", 64, ["-mwavefrontsize64"],
                   ["--mattr=+wavefrontsize64"]),
    "gfx90a": ("gfx90a", 64, [], []),
    "gfx1030": ("gfx1030", 32, [], []),
}
VORTEX = {
    "vortex4": ("vortex:default", 4, [], ["--vortex-config=default"]),
    "vortex16": ("vortex:w16t16a", 16, [], ["--vortex-config=w16t16a"]),
    "vortex32": ("vortex:w8t32a", 32, [], ["--vortex-config=w8t32a"]),
}
ALL_CHIPS = {**CHIPS, **VORTEX}


def compile_commands(hipcc, chip, hip, before, after):
    """The two compiles of a kernel for \p chip: without the recogniser
    (\p before) and with it, remarks on (\p after)."""
    arch, wave, flags, _ = ALL_CHIPS[chip]
    remarks = ["-Rpass=crosslane-recognize-arg",
               "-Rpass-missed=crosslane-recognize-arg"]
    if arch.startswith("vortex:"):
        base = [hipcc, "--target=vortex",
                "--vortex-config=" + arch.split(":", 1)[1], "-O2", "-S",
                "-emit-llvm"] + flags
        return (base + ["-mllvm", "-crosslane-recognize=0", hip, "-o",
                        before],
                base + ["-mllvm", "-crosslane-vortex-replace-arg"] + remarks +
                [hip, "-o", after])
    base = [hipcc, f"--offload-arch={arch}"] + flags + [
        "--cuda-device-only", "-nogpulib", "-O2", "-S", "-emit-llvm"]
    return (base[:1] + ["--no-crosslane"] + base[1:] + [hip, "-o", before],
            base + remarks + [hip, "-o", after])

# Key types: C type, crosslane-run buffer type, is float.
KEYS = {"f32": ("float", "f32", True), "f16": ("_Float16", "f16", True),
        "i32": ("int", "i32", False)}
# Index types: C type, buffer type, signed, max value.
INDICES = {"i32": ("int", "i32", True, "INT_MAX"),
           "i64": ("long long", "i64", True, "LLONG_MAX"),
           "u32": ("unsigned", "i32", False, "UINT_MAX")}

PAIR_CMPS = ["tie_small", "tie_small", "tie_small", "tie_large", "notie",
             "ge", "ge_or", "nan_total", "nan_last", "caffe", "fmax_pair"]
NEAR_MISSES = ["no1", "repeat", "skip", "nonhalving", "mixed", "gate",
               "gate_inside", "npot_width", "literal", "down_nowidth"]


def run(cmd, timeout=60):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return None, "timeout after %d s" % timeout


def crashed(code, text):
    return code is not None and (code < 0 or any(
        s in text for s in ("Stack dump", "LLVM ERROR", "Assertion",
                            "PLEASE submit a bug report")))


# --------------------------------------------------------------------------
# The generator. A kernel is a dict of choices (its "spec"); source() turns
# it into HIP. Every kernel reads in[0..n), and thread gt (the global id of
# a 1-D launch) writes only out_val[gt] and out_idx[gt], so it is race free
# and in bounds for every grid, block and n the runs use; a shuffle from an
# inactive lane reads 0 (ds_bpermute), which the executor models.
# --------------------------------------------------------------------------

def excluded(spec, exclude):
    """Does spec match one of the KEY=VALUE[,KEY=VALUE] patterns?"""
    for pat in exclude:
        if all(str(spec.get(k)) == v or (isinstance(spec.get(k), list) and
                                         v in spec[k])
               for k, v in (kv.split("=", 1) for kv in pat.split(","))):
            return True
    return False


def draw_spec(rng, exclude):
    """A spec that none of --exclude matches (drawn again from the same
    stream otherwise, so the run stays deterministic)."""
    for _ in range(1000):
        spec = choose_spec(rng)
        if not excluded(spec, exclude):
            return spec
    sys.exit("fuzz-semantic: --exclude leaves no kernel")


def choose_spec(rng):
    """Draws one kernel's choices (see the module docstring)."""
    s = {}
    s["family"] = rng.choices(["pair", "value", "ballot"], [6, 2, 2])[0]
    s["key"] = rng.choices(["f32", "f16", "i32"], [5, 2, 3])[0]
    s["idx"] = rng.choices(["i32", "i64", "u32"], [6, 3, 1])[0]
    s["op"] = rng.choice(["max", "min"])
    s["lane"] = rng.choice(["__lane_id()", "(int)(threadIdx.x % warpSize)",
                            "(int)(threadIdx.x & (warpSize - 1))"])
    s["cand"] = rng.choice(["direct", "scan"])
    s["scan_cmp"] = rng.choice(["strict", "strict", "nonstrict", "nanskip",
                                "nanfirst"])
    s["nan"] = rng.choice(["ne", "isnan", "builtin"])
    if s["key"] == "f16" and s["nan"] == "isnan":
        s["nan"] = "builtin"
    s["sent_v"] = rng.choice(["inf", "max"])
    s["sent_i"] = rng.choice(["-1", "-1", "IMAX", "n"])
    if s["idx"] == "u32" and s["sent_i"] == "-1":
        s["sent_i"] = "IMAX"
    s["f16_xchg"] = rng.choice(["bits", "float"])
    # The exchange: xor butterfly or shfl_down ladder, over the wave or a
    # cluster of C lanes ("W": warpSize).
    s["xop"] = rng.choice(["xor", "down"])
    s["cluster"] = rng.choices(["W", 4, 8, 16, 32], [6, 1, 1, 2, 1])[0]
    s["width"] = rng.choice(["default", "cluster"])
    s["form"] = rng.choice(["loop_down", "loop_up", "unrolled", "lambda",
                            "loop_rt"])
    s["loop_step"] = rng.choice(["shift", "div"])
    s["read"] = rng.choice(["all", "lane0", "bcast", "tid0"])
    if s["family"] == "pair":
        s["cmp"] = rng.choice(PAIR_CMPS)
        if s["cmp"] == "caffe" and (s["idx"] == "u32" or s["sent_i"] != "-1"):
            s["cmp"] = "tie_small"
        if not KEYS[s["key"]][2] and s["cmp"] in ("nan_total", "nan_last",
                                                  "fmax_pair"):
            s["cmp"] = "tie_small"
        if s["cmp"] == "fmax_pair" and s["key"] != "f32":
            s["cmp"] = "tie_small"
        s["store"] = rng.choice(["vars_if", "vars_sel", "struct_if",
                                 "struct_sel", "struct_fn"])
        if s["xop"] == "down" and rng.random() < 0.25:
            # CUB's lane + off < valid_items, with the wave's count, n
            # itself, or on threadIdx.x
            s["prefix_gate"] = rng.choice(["wave", "arg", "tid"])
    else:
        vc = ["sel_gt", "sel_ge", "sel_nan"]
        vc += ["fmax"] * 2 if s["key"] != "i32" else ["imax"] * 2
        s["vcmp"] = rng.choice(vc)
        if s["vcmp"] == "sel_nan" and s["key"] == "i32":
            s["vcmp"] = "sel_gt"
    if s["family"] == "ballot":
        s["cluster"] = "W"
        s["ballot"] = rng.choice(["firstlane", "minidx"])
        s["bcast_max"] = rng.random() < 0.3
    # Near misses: about 40% of the kernels carry one (rarely two).
    s["miss"] = []
    if rng.random() < 0.4:
        s["miss"].append(rng.choice(NEAR_MISSES))
        if rng.random() < 0.15:
            s["miss"].append(rng.choice(NEAR_MISSES))
    if "npot_width" in s["miss"]:
        s["npot"] = rng.choice([12, 20, 24, 40, 48])
    if "literal" in s["miss"]:
        s["cluster"] = rng.choice([32, 64])
        s["literal"] = True
    if "gate" in s["miss"] or "gate_inside" in s["miss"]:
        s["gate"] = rng.choice(["tree", "lt", "mod3"])
        s["gate_k"] = rng.randint(1, 40)
    if "nonhalving" in s["miss"]:
        s["nonhalving"] = rng.choice(["div3", "shr2", "mul23", "list"])
    if "mixed" in s["miss"]:
        s["mix_at"] = rng.choice([2, 4, 8])
    s["offs_seed"] = rng.randint(0, 1 << 30)
    s["int_range"] = rng.random() < 0.5
    s["block_mult"] = rng.choice([1, 2])
    return s


class Gen:
    """Builds the source of one kernel from its spec."""

    def __init__(self, s):
        self.s = s
        self.K, self.kbuf, self.kfloat = KEYS[s["key"]]
        self.I, self.ibuf, self.isigned, self.imax = INDICES[s["idx"]]
        self.gt = ">" if s["op"] == "max" else "<"
        self.ge = ">=" if s["op"] == "max" else "<="
        self.nan_equal = False

    # Pieces -------------------------------------------------------------
    def isnan(self, x):
        return {"ne": f"({x} != {x})", "isnan": f"isnan({x})",
                "builtin": f"__builtin_isnan({x})"}[self.s["nan"]]

    def sentinel_v(self):
        s, worst_low = self.s, self.s["op"] == "max"
        if self.kfloat:
            if s["sent_v"] == "inf":
                v = "-INFINITY" if worst_low else "INFINITY"
            else:
                m = "FLT_MAX" if self.K == "float" else "65504.0f"
                v = "-" + m if worst_low else m
            return f"({self.K})({v})"
        return "INT_MIN" if worst_low else "INT_MAX"

    def sentinel_i(self):
        si = self.s["sent_i"]
        if si == "IMAX":
            return f"({self.I}){self.imax}"
        if si == "n":
            return f"({self.I})n"
        return f"({self.I})-1"

    def cluster_expr(self):
        c = self.s["cluster"]
        return "warpSize" if c == "W" else str(c)

    def width_arg(self):
        s = self.s
        if "npot_width" in s["miss"]:
            return f", {s['npot']}"
        if s["width"] == "cluster" or (s["xop"] == "down" and
                                       s["cluster"] != "W" and
                                       "down_nowidth" not in s["miss"]
                                       and not s.get("literal")):
            return f", {self.cluster_expr()}"
        return ""

    def shfl(self, e, ty, src, width=""):
        """__shfl (read lane src) of a value of type ty."""
        if ty == "_Float16":
            return ("__builtin_bit_cast(_Float16, (unsigned short)__shfl("
                    f"(int)__builtin_bit_cast(unsigned short, {e}), {src}"
                    f"{width}))")
        return f"__shfl({e}, {src}{width})"

    def xchg(self, e, ty, op, off, width):
        fn = "__shfl_xor" if op == "xor" else "__shfl_down"
        if ty == "_Float16":
            if self.s["f16_xchg"] == "bits":
                return ("__builtin_bit_cast(_Float16, (unsigned short)"
                        f"{fn}((int)__builtin_bit_cast(unsigned short, {e}),"
                        f" {off}{width}))")
            self.nan_equal = True   # fpext/fptrunc may quiet a NaN
            return f"(_Float16){fn}((float){e}, {off}{width})"
        return f"{fn}({e}, {off}{width})"

    def take(self, pv, pi, sv, si):
        """The pair combine: take the partner (pv, pi) over (sv, si)?"""
        c, gt, ge, N = self.s["cmp"], self.gt, self.ge, self.isnan
        tie = f"({pv} == {sv} && {pi} < {si})"
        if c == "tie_small":
            return f"{pv} {gt} {sv} || {tie}"
        if c == "tie_large":
            return f"{pv} {gt} {sv} || ({pv} == {sv} && {pi} > {si})"
        if c == "notie":
            return f"{pv} {gt} {sv}"
        if c == "ge":
            return f"{pv} {ge} {sv}"
        if c == "ge_or":
            return f"{pv} {gt} {sv} || ({pv} {ge} {sv} && {pi} < {si})"
        if c == "nan_total":
            return (f"{N(pv)} ? (!{N(sv)} || {pi} < {si}) : "
                    f"(!{N(sv)} && ({pv} {gt} {sv} || {tie}))")
        if c == "nan_last":
            return f"!{N(pv)} && ({N(sv)} || {pv} {gt} {sv} || {tie})"
        if c == "caffe":
            return (f"{pi} >= 0 && ({si} < 0 || {pv} {gt} {sv} || {tie})")
        raise ValueError(c)

    def vcombine(self, v, ov):
        """Value-only combine: the new value of v."""
        c, gt, ge = self.s["vcmp"], self.gt, self.ge
        if c == "fmax":
            self.nan_equal = True
            fn = "fmaxf" if self.s["op"] == "max" else "fminf"
            if self.K == "_Float16":
                return f"(_Float16){fn}((float){v}, (float){ov})"
            return f"{fn}({v}, {ov})"
        if c == "imax":
            return f"{self.s['op']}({v}, {ov})"
        if c == "sel_gt":
            return f"({ov} {gt} {v}) ? {ov} : {v}"
        if c == "sel_ge":
            return f"({ov} {ge} {v}) ? {ov} : {v}"
        if c == "sel_nan":
            return f"({ov} {gt} {v} || {self.isnan(ov)}) ? {ov} : {v}"
        raise ValueError(c)

    # Offsets ------------------------------------------------------------
    def offsets(self, c):
        """The literal offset list of an unrolled chain over c lanes (c a
        number; 64 when the cluster is warpSize: steps >= 32 are then
        guarded by warpSize at run time)."""
        s, r = self.s, random.Random(self.s["offs_seed"])
        full = []
        o = c // 2
        while o >= 1:
            full.append(o)
            o //= 2
        if s["form"] == "loop_up" or r.random() < 0.2:
            full.reverse()
        if "no1" in s["miss"]:
            full = [x for x in full if x != 1]
        if "repeat" in s["miss"] and full:
            k = r.randrange(len(full))
            full.insert(k, full[k])
        if "skip" in s["miss"] and len(full) > 1:
            full.pop(r.randrange(len(full)))
        if s.get("nonhalving") == "list":
            n = max(1, len(full) + r.choice([-1, 0, 1]))
            full = [r.randrange(1, c) for _ in range(n)]
        if s["form"] in ("unrolled", "lambda") and r.random() < 0.15 and \
                not s["miss"]:
            r.shuffle(full)   # any order of a butterfly's offsets
        return full

    def steps_ops(self, offs):
        s = self.s
        if "mixed" in s["miss"]:
            k = s["mix_at"]
            other = "down" if s["xop"] == "xor" else "xor"
            return [(s["xop"] if o >= k else other) for o in offs]
        return [s["xop"]] * len(offs)

    def gate(self, off):
        s = self.s
        g = s.get("gate")
        if g == "tree":
            return f"(lane & {off}) == 0"
        if g == "lt":
            return f"lane < {s['gate_k']}"
        if g == "mod3":
            return "lane % 3 != 2"
        pg = s.get("prefix_gate")
        if pg == "tid":
            return f"(int)threadIdx.x + {off} < n"
        if pg:
            return f"lane + {off} < {'valid' if pg == 'wave' else 'n'}"
        return None

    # The reduction ------------------------------------------------------
    def step_body(self, op, off, width, names):
        """One exchange-and-combine of the state names."""
        s, K, I = self.s, self.K, self.I
        fam, lines = s["family"], []
        if fam == "pair":
            if s["store"].startswith("struct"):
                lines.append("Pair o;")
                lines.append(f"o.v = {self.xchg('p.v', K, op, off, width)};")
                lines.append(f"o.i = {self.xchg('p.i', I, op, off, width)};")
                if s["cmp"] == "fmax_pair":
                    upd = ["p = combine(p, o);"]
                elif s["store"] == "struct_if":
                    upd = ["if (better(o, p)) p = o;"]
                elif s["store"] == "struct_sel":
                    upd = ["p = better(o, p) ? o : p;"]
                else:
                    upd = ["p = combine(p, o);"]
            else:
                lines.append(f"{K} ov = {self.xchg('v', K, op, off, width)};")
                lines.append(f"{I} oi = {self.xchg('i', I, op, off, width)};")
                if s["cmp"] == "fmax_pair":
                    fn = "fmaxf" if s["op"] == "max" else "fminf"
                    self.nan_equal = True
                    upd = [f"{K} m = {fn}(v, ov);",
                           f"{I} mi = (m == ov && (m != v || oi < i)) ? "
                           "oi : i;", "v = m;", "i = mi;"]
                elif s["store"] == "vars_if":
                    upd = [f"if ({self.take('ov', 'oi', 'v', 'i')}) {{",
                           "  v = ov;", "  i = oi;", "}"]
                else:
                    upd = [f"bool t = {self.take('ov', 'oi', 'v', 'i')};",
                           "v = t ? ov : v;", "i = t ? oi : i;"]
        elif names == "c":   # the ballot idiom's index min
            lines.append(f"{I} oc = {self.xchg('c', I, op, off, width)};")
            upd = ["c = oc < c ? oc : c;"]
        else:
            lines.append(f"{K} ov = {self.xchg('v', K, op, off, width)};")
            upd = [f"v = {self.vcombine('v', 'ov')};"]
        g = self.gate(off) if names != "c" else None
        if g is None:
            return lines + upd
        if "gate_inside" in s["miss"]:
            return [f"if ({g}) {{"] + ["  " + x for x in lines + upd] + ["}"]
        return lines + [f"if ({g}) {{"] + ["  " + x for x in upd] + ["}"]

    def chain(self, names="v"):
        """The whole reduction over the offsets, as lines."""
        s = self.s
        ce = self.cluster_expr()
        width = self.width_arg() if names != "c" else ""
        form = s["form"]
        if names == "c":
            form = "loop_down"
        nh = s.get("nonhalving")
        mixed = "mixed" in s["miss"]
        if form in ("unrolled", "lambda") or (
                names != "c" and (mixed or nh == "list" or
                                  any(m in s["miss"] for m in
                                      ("repeat", "skip")))):
            c = 64 if s["cluster"] == "W" else s["cluster"]
            offs = self.offsets(c)
            ops = self.steps_ops(offs)
            out = []
            if form == "lambda" and not mixed:
                out.append("auto step = [&](int off) {")
                out += ["  " + x for x in
                        self.step_body(ops[0] if ops else s["xop"], "off",
                                       width, names)]
                out.append("};")
                for o in offs:
                    call = f"step({o});"
                    if s["cluster"] == "W" and o >= 32:
                        call = f"if (warpSize > {o}) {call}"
                    out.append(call)
                return out
            for o, op in zip(offs, ops):
                body = self.step_body(op, str(o), width, names)
                guard = (s["cluster"] == "W" and o >= 32)
                out.append(f"if (warpSize > {o}) {{" if guard else "{")
                out += ["  " + x for x in body]
                out.append("}")
            return out
        step = ">>= 1" if s["loop_step"] == "shift" else "/= 2"
        up = "<<= 1" if s["loop_step"] == "shift" else "*= 2"
        stop = "off > 1" if "no1" in s["miss"] and names != "c" else "off > 0"
        if names != "c" and nh == "div3":
            head = f"for (int off = {ce} / 2; {stop}; off /= 3)"
        elif names != "c" and nh == "shr2":
            head = f"for (int off = {ce} / 2; {stop}; off >>= 2)"
        elif names != "c" and nh == "mul23":
            head = f"for (int off = {ce} / 2; {stop}; off = off * 2 / 3)"
        elif form in ("loop_up", "loop_rt"):
            first = "2" if "no1" in s["miss"] else "1"
            lim = ce if form == "loop_up" else "lim"
            head = f"for (int off = {first}; off < {lim}; off {up})"
        else:
            head = f"for (int off = {ce} / 2; {stop}; off {step})"
        out = []
        if form == "loop_rt":   # PyTorch's dim_x-bounded ladder
            out.append(f"const int lim = (int)blockDim.x < {ce} ? "
                       f"(int)blockDim.x : {ce};")
        out.append(head + " {")
        out += ["  " + x for x in self.step_body(s["xop"], "off", width,
                                                 names)]
        out.append("}")
        return out

    # The kernel ---------------------------------------------------------
    def candidate(self):
        s, K, I = self.s, self.K, self.I
        sv, si = self.sentinel_v(), self.sentinel_i()
        if s["cand"] == "direct":
            return [f"{K} v = gt < n ? in[gt] : {sv};",
                    f"{I} i = gt < n ? ({I})gt : {si};"]
        gt, ge = self.gt, self.ge
        cmp = {"strict": f"x {gt} v", "nonstrict": f"x {ge} v",
               "nanskip": f"!{self.isnan('x')} && x {gt} v",
               "nanfirst": f"x {gt} v || ({self.isnan('x')} && "
                           f"!{self.isnan('v')})"}[s["scan_cmp"]]
        if not self.kfloat and s["scan_cmp"] in ("nanskip", "nanfirst"):
            cmp = f"x {gt} v"
        return [f"{K} v = {sv};", f"{I} i = {si};",
                "for (int k = gt; k < n; k += gridDim.x * blockDim.x) {",
                f"  const {K} x = in[k];",
                f"  if ({cmp}) {{", "    v = x;", f"    i = ({I})k;", "  }",
                "}"]

    def leader(self):
        c = self.s["cluster"]
        if c == "W" or self.s["family"] == "ballot":
            return "lane == 0"
        return f"(lane & {int(c) - 1}) == 0"

    def write(self, val, idx):
        s, rd = self.s, self.s["read"]
        if rd == "bcast":
            w = "" if s["cluster"] == "W" or s["family"] == "ballot" \
                else f", {s['cluster']}"
            return [f"const {self.K} rv = {self.shfl(val, self.K, 0, w)};",
                    f"const {self.I} ri = {self.shfl(idx, self.I, 0, w)};",
                    "out_val[gt] = rv;", "out_idx[gt] = ri;"]
        cond = {"all": None, "lane0": self.leader(),
                "tid0": "threadIdx.x == 0"}[rd]
        body = [f"out_val[gt] = {val};", f"out_idx[gt] = {idx};"]
        if cond is None:
            return body
        return [f"if ({cond}) {{"] + ["  " + x for x in body] + ["}"]

    def source(self, name):
        s, K, I = self.s, self.K, self.I
        pre, body = [], []
        if s["family"] == "pair" and s["store"].startswith("struct"):
            pre += [f"struct Pair {{", f"  {K} v;", f"  {I} i;", "};", ""]
            if s["cmp"] == "fmax_pair":
                fn = "fmaxf" if s["op"] == "max" else "fminf"
                self.nan_equal = True
                pre += ["__device__ inline Pair combine(Pair a, Pair b) {",
                        "  Pair r;", f"  r.v = {fn}(a.v, b.v);",
                        "  r.i = (r.v == b.v && (r.v != a.v || b.i < a.i))"
                        " ? b.i : a.i;", "  return r;", "}", ""]
            else:
                pre += ["__device__ inline bool better(const Pair &a, "
                        "const Pair &b) {",
                        f"  return {self.take('a.v', 'a.i', 'b.v', 'b.i')};",
                        "}", ""]
                if s["store"] == "struct_fn":
                    pre += ["__device__ inline Pair combine(Pair self, "
                            "Pair other) {",
                            "  if (better(other, self))", "    return other;",
                            "  return self;", "}", ""]
        body.append("const int gt = blockIdx.x * blockDim.x + threadIdx.x;")
        body.append(f"const int lane = {s['lane']};")
        if s.get("prefix_gate") == "wave":
            body.append("const int valid = n - (gt - lane);")
        body += self.candidate()
        if s["family"] == "pair":
            if s["store"].startswith("struct"):
                body.append("Pair p;")
                body += ["p.v = v;", "p.i = i;"]
                body += self.chain()
                body += self.write("p.v", "p.i")
            else:
                body += self.chain()
                body += self.write("v", "i")
        elif s["family"] == "value":
            body.append(f"const {K} mine = v;")
            body += self.chain()
            body.append(f"const {I} flag = mine == v ? i : "
                        f"{self.sentinel_i()};")
            body += self.write("v", "flag")
        else:
            body += [f"const {K} mine = v;", f"const {I} mi = i;"]
            body += self.chain()
            if s["bcast_max"]:
                body.append(f"v = {self.shfl('v', K, 0)};")
            if s["ballot"] == "firstlane":
                body += ["const unsigned long long b = __ballot(mine == v);",
                         "const int src = b ? (int)__ffsll(b) - 1 : 0;",
                         f"const {I} c = __shfl(mi, src);"]
            else:
                body.append(f"{I} c = mine == v ? mi : ({I}){self.imax};")
                body += self.chain("c")
            body += self.write("v", "c")
        text = ["#include <hip/hip_runtime.h>", "#include <cfloat>",
                "#include <climits>", ""]
        text += pre
        text.append(f'extern "C" __global__ void {name}(const {K} *in, '
                    f"{K} *out_val, {I} *out_idx, int n) {{")
        text += ["  " + x if x else "" for x in body]
        text.append("}")
        return "\n".join(text) + "\n"


# --------------------------------------------------------------------------
# Running one kernel.
# --------------------------------------------------------------------------

def corrupt(path):
    """--corrupt-after: turns every strict compare of path around (a
    wrong rewrite on purpose, to show that the harness catches one)."""
    swap = {"slt": "sgt", "sgt": "slt", "ult": "ugt", "ugt": "ult",
            "olt": "ogt", "ogt": "olt"}
    text = open(path).read()
    text = re.sub(r"\b(icmp|fcmp)( [a-z]+)? (slt|sgt|ult|ugt|olt|ogt)\b",
                  lambda m: "%s%s %s" % (m.group(1), m.group(2) or "",
                                         swap[m.group(3)]), text)
    open(path, "w").write(text)


def run_plans(chip, spec, gen, kseed, cases=1):
    """The crosslane-run command lines (without the modules) for a kernel;
    cases: random draws per input generator and size."""
    wave = ALL_CHIPS[chip][1]
    kb, ib = gen.kbuf, gen.ibuf
    common = ["--inputs=all", "--print=none", f"--cases={cases}",
              "--max-nan-positions=24", f"--seed={kseed}",
              "--max-lane-instructions=200000000"] + ALL_CHIPS[chip][3]
    if gen.nan_equal:
        common.append("--nan-equal")
    if kb == "i32" and spec["int_range"]:
        common.append("--int-range=-6:6")
    b = wave * spec["block_mult"]
    full = sorted({1, wave // 2 + 3, wave, 2 * wave + 1,
                   2 * b + wave // 2 + 1})
    plans = [["--grid=2", f"--block={b}",
              "--sizes=" + ",".join(map(str, full)),
              f"--arg=buf:{kb}:N:input", f"--arg=buf:{kb}:{2 * b}:zero",
              f"--arg=buf:{ib}:{2 * b}:zero", "--arg=i32:N"] + common]
    # Partial warps: on Vortex a shuffle from a lane that is off reads a
    # stale register (simx), so the kernels, which shuffle over the whole
    # warp, are undefined there; AMDGPU's reads of such lanes give 0.
    if chip in VORTEX:
        return plans
    part = sorted({1, 7, wave // 2 + 1, wave + 3})
    plans.append(["--grid=2", "--block=N",
                  "--sizes=" + ",".join(map(str, part)),
                  f"--arg=buf:{kb}:N*2:input", f"--arg=buf:{kb}:N*2:zero",
                  f"--arg=buf:{ib}:N*2:zero", "--arg=i32:N*2"] + common)
    return plans


REMARK_OK = re.compile(r"remark: recognised (.*?) over (\d+) lanes \(([^,]*)")
REMARK_MISS = re.compile(r"not replaced \((\w+)\)(?:: (.*?))?(?: \[-Rpass|$)",
                         re.M)


def why_bucket(reason, why):
    """A refusal's reason plus the gist of its text, without the names and
    numbers of one kernel."""
    why = re.sub(r"'[^'\s]*'", "'_'", why or "")
    why = re.sub(r"%[\w.]+", "%_", why)
    why = re.sub(r"gfx\w+", "gfxN", why)
    why = re.sub(r"\d+", "N", why)
    why = re.split(r"[:;(\[]", why)[0].strip()
    if len(why) > 120:
        why = why[:117] + "..."
    return reason + (": " + why if why else "")
DIFF = re.compile(r"^diff: (\d+) cases, (\d+) mismatches", re.M)
COPIES = re.compile(r"\[(\d+) copies of this line\]")


def spec_comment(seed, index, spec):
    return "// fuzz-semantic seed %d kernel %d: %s\n" % (
        seed, index, " ".join(f"{k}={v}" for k, v in sorted(spec.items())))


def one_kernel(a, index, tmp_root):
    """Generates, compiles and runs kernel index; returns a result dict."""
    rng = random.Random(f"{a.seed}:{index}")
    spec = draw_spec(rng, a.exclude)
    chips = list(a.chips)
    if a.chips_per_kernel and a.chips_per_kernel < len(chips):
        chips = rng.sample(chips, a.chips_per_kernel)
    # An exchange inside a lane-dependent gate reads lanes that are off,
    # whose registers are stale on Vortex: such a kernel is undefined there
    # (the executor stops on the poison it reads), not a test of the
    # recogniser.
    if "gate_inside" in spec["miss"]:
        chips = [c for c in chips if c not in VORTEX]
    kseed = rng.randint(1, 1 << 30)
    name = "fz"
    gen = Gen(spec)
    src = spec_comment(a.seed, index, spec) + gen.source(name)
    tmp = tempfile.mkdtemp(prefix="k%d-" % index, dir=tmp_root)
    hip = os.path.join(tmp, "kernel.hip")
    with open(hip, "w") as f:
        f.write(src)
    hipcc = os.path.join(a.build, "bin", "crosslane-hipcc")
    runner = os.path.join(a.build, "bin", "crosslane-run")
    res = {"index": index, "spec": spec, "compiled": 0, "recognised": 0,
           "chains_ok": 0, "guarded": 0, "refused": {}, "why": {}, "cases": 0,
           "mismatches": 0, "failures": [], "chips": {}, "no_remark": 0,
           "compile_runs": 0}
    for chip in chips:
        before = os.path.join(tmp, f"before.{chip}.ll")
        after = os.path.join(tmp, f"after.{chip}.ll")
        cmds = []
        c1, c2 = compile_commands(hipcc, chip, hip, before, after)
        failed = None
        for c in (c1, c2):
            cmds.append(c)
            code, text = run(c, a.timeout)
            if code != 0:
                kind = ("hang" if code is None else "crash"
                        if crashed(code, text) else "compile error")
                failed = (kind, c, text)
                break
        res["compile_runs"] += 1
        chipres = {"recognised": 0, "refused": [], "cases": 0,
                   "mismatches": 0}
        if failed:
            res["failures"].append(dict(chip=chip, kind=failed[0],
                                        cmds=cmds, text=failed[2]))
            res["chips"][chip] = chipres
            continue
        res["compiled"] += 1
        remarks = text
        if a.corrupt_after:
            corrupt(after)
        # A remark stands for the copies of its line ("[N copies of this
        # line]", an unrolled loop): counted that many times.
        ok, miss, guarded = [], [], 0
        for line in remarks.splitlines():
            n = COPIES.search(line)
            n = int(n.group(1)) if n else 1
            ok += REMARK_OK.findall(line) * n
            miss += REMARK_MISS.findall(line) * n
            guarded += n * ("guarded at run time" in line)
        chipres["recognised"] = len(ok)
        chipres["refused"] = [m[0] for m in miss]
        res["chains_ok"] += len(ok)
        res["guarded"] += guarded
        if ok:
            res["recognised"] += 1
        if not ok and not miss:
            res["no_remark"] += 1
        for m, why in miss:
            res["refused"][m] = res["refused"].get(m, 0) + 1
            b = why_bucket(m, why)
            res["why"][b] = res["why"].get(b, 0) + 1
        chipres["remarks"] = [l for l in remarks.splitlines()
                              if "remark:" in l]
        for plan in run_plans(chip, spec, gen, kseed, a.run_cases):
            arch = ALL_CHIPS[chip][0]
            target = (["--vortex-semantics=structured,structured"]
                      if arch.startswith("vortex:") else [f"--mcpu={arch}"])
            c = [runner, before, f"--diff={after}"] + target + [
                f"--kernel={name}"] + plan
            cmds.append(c)
            code, text = run(c, a.timeout)
            m = DIFF.search(text)
            kind = None
            if code is None:
                kind = "hang"
            elif crashed(code, text):
                kind = "crash"
            elif not m or "error:" in text:
                kind = "executor error"
            else:
                chipres["cases"] += int(m.group(1))
                chipres["mismatches"] += int(m.group(2))
                if int(m.group(2)):
                    kind = "mismatch"
            if kind:
                res["failures"].append(dict(chip=chip, kind=kind, cmds=cmds[:],
                                            text=text, plan=c))
        res["cases"] += chipres["cases"]
        res["mismatches"] += chipres["mismatches"]
        res["chips"][chip] = chipres
    if res["failures"]:
        keep(a, res, src, tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    return res


def narrow(a, cmd):
    """For a mismatching crosslane-run command: the first (size, input)
    that alone still mismatches, as a shorter command, and its first
    mismatch line."""
    sizes = next(x for x in cmd if x.startswith("--sizes=")).split("=")[1]
    gens = ["random", "all-equal", "ties", "nan-each", "all-nan", "pm-zero",
            "pm-inf", "denorm", "neg-max"]
    for sz in sizes.split(","):
        for g in gens:
            c = [x for x in cmd if not x.startswith(("--sizes=", "--inputs="))]
            c += [f"--sizes={sz}", f"--inputs={g}"]
            code, text = run(c, a.timeout)
            m = DIFF.search(text)
            if m and int(m.group(2)):
                first = next((l for l in text.splitlines()
                              if l.startswith("mismatch:")), "")
                return c, first
    return None, ""


def mismatch_class(text):
    """What the mismatching elements differ in: 'nan-bits' (both NaN, the
    payload or sign differs), 'zero-sign' (+0 vs -0) or 'value'."""
    kinds = set()
    for m in re.finditer(r"^mismatch: arg\d+\[\d+\]: (\S+) vs (\S+)",
                         text, re.M):
        x, y = m.group(1), m.group(2)
        if x.startswith("nan") and y.startswith("nan"):
            kinds.add("nan-bits")
        elif {x, y} == {"0", "-0"}:
            kinds.add("zero-sign")
        else:
            kinds.add("value")
    if "value" in kinds or not kinds:
        return "value"
    return "+".join(sorted(kinds))


def keep(a, res, src, tmp):
    """Saves a failing kernel, its modules and the commands to --out."""
    d = os.path.join(a.out, "seed%d-kernel%d" % (a.seed, res["index"]))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kernel.hip"), "w") as f:
        f.write(src)
    for fn in os.listdir(tmp):
        if fn.endswith(".ll"):
            shutil.copy(os.path.join(tmp, fn), os.path.join(d, fn))

    def line(cmd):
        return " ".join(shlex.quote(x.replace(tmp + os.sep, ""))
                        for x in cmd)
    lines = ["#!/bin/sh",
             "# Reproduces seed %d kernel %d of tools/fuzz-semantic.py "
             "(the kernel's choices are in kernel.hip's first line)."
             % (a.seed, res["index"]), "set -x", "cd \"$(dirname \"$0\")\""]
    report, compiled = [], set()
    for fl in res["failures"]:
        lines.append("")
        lines.append("# %s on %s" % (fl["kind"], fl["chip"]))
        cmds = fl["cmds"]
        if fl["chip"] not in compiled or "plan" not in fl:
            lines += [line(c) for c in cmds[:2]]
            compiled.add(fl["chip"])
        if "plan" in fl:
            lines.append(line(fl["plan"]))
        report.append("%s on %s:\n%s" % (fl["kind"], fl["chip"],
                                         fl["text"][-4000:]))
        if fl["kind"] == "mismatch":
            fl["class"] = mismatch_class(fl["text"])
            small, first = narrow(a, fl["plan"])
            if small:
                lines.append("# smallest: " + first)
                lines.append(line(small))
                fl["first"] = first
                fl["small"] = small
    with open(os.path.join(d, "repro.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(os.path.join(d, "repro.sh"), 0o755)
    with open(os.path.join(d, "log.txt"), "w") as f:
        f.write("\n\n".join(report) + "\n")
        for chip, cr in res["chips"].items():
            f.write("\n%s remarks:\n  %s\n" % (chip, "\n  ".join(
                x.replace(tmp + os.sep, "") for x in cr.get("remarks", []))))
    res["saved"] = d


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cases", type=int, default=50,
                    help="kernels to generate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--run-cases", type=int, default=1,
                    help="random draws per input generator and size in "
                         "each crosslane-run (more executed cases per "
                         "compile)")
    ap.add_argument("--chips", default=",".join(CHIPS),
                    help="comma list of " + ", ".join(ALL_CHIPS) +
                         " (gfx1100w64: gfx1100 -mwavefrontsize64)")
    ap.add_argument("--chips-per-kernel", type=int, default=2,
                    help="chips each kernel runs on, drawn from --chips "
                         "(0: all)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds per compile or run before it counts as "
                         "a hang")
    ap.add_argument("--time-budget", type=float, default=0,
                    help="stop generating new kernels after this many "
                         "seconds (0: no limit)")
    ap.add_argument("--out", default=None,
                    help="where failing kernels go (default "
                         "BUILD/fuzz-semantic-failures)")
    ap.add_argument("--exclude", action="append", default=[],
                    metavar="KEY=VALUE[,KEY=VALUE]",
                    help="do not generate kernels whose choices (kernel.hip's "
                         "first line) match, e.g. vcmp=sel_nan for a known "
                         "finding; repeatable")
    ap.add_argument("--corrupt-after", action="store_true",
                    help="self-test: flip the strict compares of every "
                         "'after' module, which must give mismatches")
    ap.add_argument("--print-kernel", type=int, default=None,
                    help="print the source of kernel K of --seed and exit")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="one line per kernel")
    a = ap.parse_args()
    a.chips = [c for c in a.chips.split(",") if c]
    for c in a.chips:
        if c not in ALL_CHIPS:
            ap.error("unknown chip '%s' (known: %s)" % (c,
                                                         ", ".join(ALL_CHIPS)))
    if a.print_kernel is not None:
        spec = draw_spec(random.Random(f"{a.seed}:{a.print_kernel}"),
                         a.exclude)
        sys.stdout.write(spec_comment(a.seed, a.print_kernel, spec) +
                         Gen(spec).source("fz"))
        return 0
    a.build = os.path.abspath(a.build)
    a.out = os.path.abspath(a.out or os.path.join(a.build,
                                                  "fuzz-semantic-failures"))
    for tool in ("crosslane-hipcc", "crosslane-run"):
        p = os.path.join(a.build, "bin", tool)
        for _ in range(5):   # the build directory may be being rebuilt
            if os.path.exists(p):
                break
            time.sleep(60)
        if not os.path.exists(p):
            sys.exit("fuzz-semantic: no %s" % p)
    tmp_root = tempfile.mkdtemp(prefix="crosslane-fuzz-semantic-")
    start = time.time()
    tot = {"kernels": 0, "compiled": 0, "compile_runs": 0, "recognised": 0,
           "chains_ok": 0, "guarded": 0, "cases": 0, "mismatches": 0,
           "no_remark": 0}
    refused, failures, kinds, per_chip, classes = {}, [], {}, {}, {}
    whys = {}

    def account(r):
        tot["kernels"] += 1
        for k in ("compiled", "compile_runs", "recognised", "chains_ok",
                  "guarded", "cases", "mismatches", "no_remark"):
            tot[k] += r[k]
        for k, v in r["refused"].items():
            refused[k] = refused.get(k, 0) + v
        for k, v in r["why"].items():
            whys[k] = whys.get(k, 0) + v
        for chip, cr in r["chips"].items():
            pc = per_chip.setdefault(chip, [0, 0, 0, 0])
            pc[0] += 1
            pc[1] += cr["recognised"]
            pc[2] += len(cr["refused"])
            pc[3] += cr["cases"]
        for fl in r["failures"]:
            kinds[fl["kind"]] = kinds.get(fl["kind"], 0) + 1
            if fl.get("class"):
                classes[fl["class"]] = classes.get(fl["class"], 0) + 1
            failures.append((r, fl))
            print("FAIL kernel %d: %s%s on %s -> %s" % (
                r["index"], fl["kind"],
                " (%s)" % fl["class"] if fl.get("class") else "",
                fl["chip"], r.get("saved")))
            if fl.get("first"):
                print("  " + fl["first"])
            else:
                print("  " + "\n  ".join(fl["text"].strip().splitlines()[:6]))
        if a.verbose:
            print("kernel %d: %s; %d cases, %d mismatches" % (
                r["index"], "; ".join(
                    "%s: %d recognised, refused %s" % (
                        c, cr["recognised"], ",".join(cr["refused"]) or "-")
                    for c, cr in r["chips"].items()),
                r["cases"], r["mismatches"]), flush=True)

    def budget_left():
        return not a.time_budget or time.time() - start < a.time_budget

    try:
        if a.jobs <= 1:
            for k in range(a.cases):
                if not budget_left():
                    break
                account(one_kernel(a, k, tmp_root))
        else:
            with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
                futs, k = [], 0
                while k < a.cases and len(futs) < a.jobs * 2:
                    futs.append(pool.submit(one_kernel, a, k, tmp_root))
                    k += 1
                while futs:
                    account(futs.pop(0).result())
                    if k < a.cases and budget_left():
                        futs.append(pool.submit(one_kernel, a, k, tmp_root))
                        k += 1
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)
    secs = time.time() - start
    print("fuzz-semantic: seed %d, %d kernels generated in %.0f s on %s "
          "(%d per kernel)" % (a.seed, tot["kernels"], secs,
                               ",".join(a.chips), a.chips_per_kernel
                               or len(a.chips)))
    print("  compiled (kernel x chip): %d of %d" % (tot["compiled"],
                                                    tot["compile_runs"]))
    print("  recognised (rewritten): %d kernel x chip with a rewrite, %d "
          "chains (%d guarded at run time)" % (tot["recognised"],
                                               tot["chains_ok"],
                                               tot["guarded"]))
    print("  refused: %s" % (", ".join(
        "%s %d" % (k, v) for k, v in sorted(refused.items(),
                                              key=lambda x: -x[1])) or "none"))
    for k, v in sorted(whys.items(), key=lambda x: (-x[1], x[0])):
        print("    %5d  %s" % (v, k))
    print("  no remark (no cross-lane chain left): %d kernel x chip"
          % tot["no_remark"])
    for chip in sorted(per_chip):
        pc = per_chip[chip]
        print("  %s: %d kernels, %d chains recognised, %d refused, %d cases"
              % (chip, pc[0], pc[1], pc[2], pc[3]))
    print("  failures: %s" % (", ".join("%s %d" % kv for kv in
                                         sorted(kinds.items())) or "none"))
    if classes:
        print("  mismatching runs by what differs: %s" % ", ".join(
            "%s %d" % kv for kv in sorted(classes.items())))
    print("fuzz-semantic: %d kernels, %d compiled, %d executed cases, "
          "%d mismatches (elements, in %d runs), %d crashes, %d hangs, "
          "%d errors" % (
              tot["kernels"], tot["compiled"], tot["cases"],
              tot["mismatches"], kinds.get("mismatch", 0),
              kinds.get("crash", 0), kinds.get("hang", 0),
              kinds.get("compile error", 0) + kinds.get("executor error", 0)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
