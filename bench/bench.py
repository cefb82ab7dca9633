#!/usr/bin/env python3
"""Crosslane's cross-lane benchmark: static cost of wave reductions per chip.

There is no AMD GPU here, so every figure is *static*: the number of VALU and
SALU instructions llc-22 emits inside the reduction region, and llvm-mca-22's
cycle estimate for that region (-mcpu=<chip>). Nothing here is a timing.

For each operation x chip x wave size the script builds these variants of one
kernel (`bench(const T *in, T *out, int *out_idx)`, one wave, lane i reads
in[i] and writes the result to out[i] / out_idx[i]):

  crosslane   the Crosslane operation (__crosslane_*), expanded by the plugin
  shfl_xor    the HIP __shfl_xor butterfly (on (value, index) for arg ops)
  iree        butterfly max + ballot + min over tied indices (arg ops; the
              IREE AMDGPU argmax ukernel's algorithm, written from its
              description)
  wave_reduce LLVM 22's llvm.amdgcn.wave.reduce.* (where LLVM has the op)
  mlir        MLIR's gpu.subgroup_reduce DPP lowering (where MLIR has it)
  bound       the hand lower bound (bench/bounds/<family>.s, justified there)

The region is delimited by inline-asm markers that take the reduction's
inputs and results as register operands ("+v"), so no instruction of the
reduction can move across them; the instructions between the markers are
counted (hazard s_nop / s_delay_alu and s_waitcnt are listed separately).

Before a variant is counted it is *run* in the wave executor
(build/bin/crosslane-run) against the Crosslane reference semantics on
random and adversarial inputs; a variant that computes a different answer is
reported as DIFFERS(<generators>) and never wins (it is left out of the
ratios). NaN results compare equal to any NaN (--nan-equal); signed zeros
and indices must match exactly.

Output: a markdown table on stdout, a CSV under bench/results/, and a last
line `summary ...` with ratios of mca cycles (lower is better).
"""

import argparse
import csv
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"

# (chip, wave size)
CHIPS = [("gfx90a", 64), ("gfx942", 64), ("gfx950", 64),
         ("gfx1030", 32), ("gfx1030", 64), ("gfx1100", 32), ("gfx1100", 64),
         ("gfx1201", 32), ("gfx1201", 64)]

# Operation table. kind: reduce | arg. `hip_t` is the HIP element type,
# `combine` the HIP expression a butterfly uses, `api` the crosslane.h call,
# `wave_reduce` the clang builtin (None: LLVM 22 has none), `mlir` the
# gpu.subgroup_reduce kind and MLIR type (None: MLIR has none).
OPS = {
    "max_f32": dict(kind="reduce", hip_t="float", shfl_t="float",
                    combine="fmaxf({a}, {b})", api="reduce_max",
                    wave_reduce="__builtin_amdgcn_wave_reduce_fmax_f32",
                    mlir=("maxnumf", "f32"), inputs="float"),
    # Wrapping add (signed overflow is UB in C++ and poison in the IR).
    "add_i32": dict(kind="reduce", hip_t="int", shfl_t="int",
                    combine="(int)((unsigned){a} + (unsigned){b})", api="reduce_add",
                    wave_reduce="(int)__builtin_amdgcn_wave_reduce_add_u32",
                    wave_reduce_cast="(unsigned)", mlir=("add", "i32"),
                    inputs="int"),
    "max_f16": dict(kind="reduce", hip_t="_Float16", shfl_t="float",
                    combine="(_Float16)fmaxf((float){a}, (float){b})",
                    api="reduce_max", wave_reduce=None,
                    mlir=("maxnumf", "f16"), inputs="half"),
    "add_f64": dict(kind="reduce", hip_t="double", shfl_t="double",
                    combine="{a} + {b}", api="reduce_add",
                    wave_reduce=None, mlir=("add", "f64"), inputs="double-exact"),
    "argmax_f32": dict(kind="arg", hip_t="float", key="v", nan="ignore",
                       inputs="float"),
    "argmax_f32_nanwins": dict(kind="arg", hip_t="float", key="v", nan="wins",
                               inputs="float"),
    "iamax_f32": dict(kind="arg", hip_t="float", key="fabsf(v)", nan="ignore",
                      inputs="float"),
}

MARKERS = r"""
#ifdef BENCH_EXEC  /* the executor runs IR, not inline assembly */
#define BENCH_BEGIN1(a)
#define BENCH_BEGIN2(a, b)
#define BENCH_END1(a)
#define BENCH_END2(a, b)
#define BENCH_PIN(a, b)
#else
#define BENCH_PIN(a, b) asm volatile("" : "+v"(a), "+v"(b))
#define BENCH_BEGIN1(a) asm volatile("; BENCH_BEGIN" : "+v"(a))
#define BENCH_BEGIN2(a, b) asm volatile("; BENCH_BEGIN" : "+v"(a), "+v"(b))
#define BENCH_END1(a) asm volatile("; BENCH_END" : "+v"(a))
#define BENCH_END2(a, b) asm volatile("; BENCH_END" : "+v"(a), "+v"(b))
#endif
"""


# The order Crosslane's argmax specifies (docs/SubgroupOps.md): -0 < +0,
# all NaNs alike. The anchors implement the same specification, so every
# column computes the same answer and the comparison is like for like.
ORDER_HELPERS = r"""
__device__ inline bool cl_gt(float a, float b) {
  return a > b || (a == b && !__builtin_signbit(a) && __builtin_signbit(b));
}
__device__ inline bool cl_same(float a, float b) {
  return (a == b && __builtin_signbit(a) == __builtin_signbit(b)) ||
         (__builtin_isnan(a) && __builtin_isnan(b));
}
"""


def hip_prologue(op):
    t = op["hip_t"]
    load = "in[threadIdx.x]"
    if op["kind"] == "arg" and op["key"] != "v":
        # Arg variants all reduce the key (|x| for iamax) and output it with
        # the winning index; the key is computed before the region.
        load = op["key"].replace("v", load)
    return f"""#include <hip/hip_runtime.h>
{MARKERS}
{ORDER_HELPERS}
extern "C" __global__ void bench(const {t} *in, {t} *out, int *out_idx) {{
  {t} v = {load};
  {t} *p = out + threadIdx.x;
  int *pi = out_idx + threadIdx.x;
  BENCH_PIN(p, pi);
"""


def better_expr(op, ka, ia, kb, ib):
    """HIP condition: candidate (ka, ia) beats incumbent (kb, ib)."""
    nan_first = (f"(__builtin_isnan({ka}) && !__builtin_isnan({kb}))" if op["nan"] == "wins"
                 else f"(__builtin_isnan({kb}) && !__builtin_isnan({ka}))")
    # NaN wins: NaN is the largest key. NaN ignored: NaN never wins unless
    # everything is NaN. Equal keys (same value, or both NaN): smaller index.
    return (f"({nan_first} || "
            f"(!__builtin_isnan({ka}) && !__builtin_isnan({kb}) && cl_gt({ka}, {kb})) || "
            f"(cl_same({ka}, {kb}) && {ia} < {ib}))")


def variant_shfl_xor(op):
    src = hip_prologue(op)
    if op["kind"] == "reduce":
        st = op["shfl_t"]
        comb = op["combine"].format(a="v", b="b")
        src += f"""  BENCH_BEGIN1(v);
  for (int o = 1; o < warpSize; o <<= 1) {{
    {op['hip_t']} b = ({op['hip_t']})__shfl_xor(({st})v, o);
    v = {comb};
  }}
  BENCH_END1(v);
  *p = v;
  *pi = 0;
}}
"""
        return src
    src += f"""  int idx = threadIdx.x;
  BENCH_BEGIN2(v, idx);
  float k = v;
  for (int o = 1; o < warpSize; o <<= 1) {{
    float ko = __shfl_xor(k, o);
    float vo = __shfl_xor(v, o);
    int io = __shfl_xor(idx, o);
    bool take = {better_expr(op, 'ko', 'io', 'k', 'idx')};
    k = take ? ko : k;
    v = take ? vo : v;
    idx = take ? io : idx;
  }}
  BENCH_END2(v, idx);
  *p = v;
  *pi = idx;
}}
"""
    return src


def variant_iree(op):
    """Butterfly max of the key, ballot of the lanes holding it, then the
    smallest index among them (a min-butterfly over indices when more than
    one lane ties)."""
    if op["kind"] != "arg":
        return None
    if op["nan"] == "wins":
        maxf = "(__builtin_isnan(a) ? a : __builtin_isnan(b) ? b : cl_gt(b, a) ? b : a)"
    else:
        maxf = "(__builtin_isnan(a) ? b : __builtin_isnan(b) ? a : cl_gt(b, a) ? b : a)"
    tie = "cl_same(k, m)"
    src = hip_prologue(op)
    src += f"""  int idx = threadIdx.x;
  BENCH_BEGIN2(v, idx);
  float k = v;
  float m = k;
  for (int o = 1; o < warpSize; o <<= 1) {{
    float a = m, b = __shfl_xor(m, o);
    m = {maxf};
  }}
  unsigned long long mask = __ballot({tie});
  int lane;
  if (__popcll(mask) == 1) {{
    lane = __ffsll((long long)mask) - 1;
  }} else {{
    int cand = {tie} ? idx : 0x7fffffff;
    for (int o = 1; o < warpSize; o <<= 1)
      cand = min(cand, __shfl_xor(cand, o));
    lane = cand;  /* lane id == index here */
  }}
  v = __shfl(v, lane);
  idx = lane;
  BENCH_END2(v, idx);
  *p = v;
  *pi = idx;
}}
"""
    return src


def variant_crosslane(op):
    """The Crosslane operation through its HIP API (crosslane/hip/crosslane.h)."""
    src = hip_prologue(op).replace("#include <hip/hip_runtime.h>",
                                   "#include <hip/hip_runtime.h>\n#include <crosslane/hip/crosslane.h>")
    if op["kind"] == "reduce":
        src += f"""  BENCH_BEGIN1(v);
  v = crosslane::{op['api']}(v);
  BENCH_END1(v);
  *p = v;
  *pi = 0;
}}
"""
        return src
    policy = "CROSSLANE_NAN_WINS" if op["nan"] == "wins" else "CROSSLANE_NAN_IGNORE"
    src += f"""  int idx = threadIdx.x;
  BENCH_BEGIN2(v, idx);
  auto r = crosslane::argmax<CROSSLANE_WAVE_SIZE, 1, {policy}>(v, idx);
  v = r.value;
  idx = r.index;
  BENCH_END2(v, idx);
  *p = v;
  *pi = idx;
}}
"""
    return src


def variant_wave_reduce(op):
    if op["kind"] != "reduce" or not op.get("wave_reduce"):
        return None
    cast = op.get("wave_reduce_cast", "")
    src = hip_prologue(op)
    src += f"""  BENCH_BEGIN1(v);
  v = {op['wave_reduce']}({cast}v, 0);
  BENCH_END1(v);
  *p = v;
  *pi = 0;
}}
"""
    return src


# ----------------------------------------------------------------------------
# MLIR: gpu.subgroup_reduce through MLIR's DPP lowering, wrapped in the same
# kernel (written in LLVM IR, markers as inline asm).
# ----------------------------------------------------------------------------
IR_TY = {"f32": "float", "i32": "i32", "f16": "half", "f64": "double"}


def mlir_module(kind, mty, wave):
    cluster = "" if wave == 64 else " cluster(size = 32)"
    return (f"func.func @reduce(%x: {mty}) -> {mty} {{\n"
            f"  %r = gpu.subgroup_reduce {kind} %x{cluster} : ({mty}) -> {mty}\n"
            f"  return %r : {mty}\n}}\n")


def mlir_kernel_ir(mty, execute=False):
    t = IR_TY[mty]
    if execute:  # no inline-asm markers: the executor runs IR only
        begin = f"%b = bitcast {t} %v to {t}"
        end = f"%e = bitcast {t} %r to {t}"
    else:
        begin = f'%b = call {t} asm sideeffect "; BENCH_BEGIN", "=v,0"({t} %v)'
        end = f'%e = call {t} asm sideeffect "; BENCH_END", "=v,0"({t} %r)'
    return f"""target triple = "amdgcn-amd-amdhsa"
declare {t} @reduce({t})
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @bench(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %oi) #0 {{
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pin = getelementptr {t}, ptr addrspace(1) %in, i32 %tid
  %v = load {t}, ptr addrspace(1) %pin
  %pout = getelementptr {t}, ptr addrspace(1) %out, i32 %tid
  %poi = getelementptr i32, ptr addrspace(1) %oi, i32 %tid
  {begin}
  %r = call {t} @reduce({t} %b)
  {end}
  store {t} %e, ptr addrspace(1) %pout
  store i32 0, ptr addrspace(1) %poi
  ret void
}}
attributes #0 = {{ "amdgpu-flat-work-group-size"="1,64" }}
"""


# ----------------------------------------------------------------------------
# Tool plumbing
# ----------------------------------------------------------------------------
class BenchError(Exception):
    pass


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise BenchError(f"{' '.join(cmd)}\n{p.stderr.strip()[:2000]}")
    return p.stdout


def tool(name):
    return os.path.join(LLVM_BIN, name)


def chip_flags(chip, wave):
    return ["-mwavefrontsize64"] if wave == 64 and chip.startswith("gfx1") else []


def llc_attr(chip, wave):
    return ["-mattr=+wavefrontsize64"] if wave == 64 and chip.startswith("gfx1") else []


class Builder:
    def __init__(self, build, work, codegen_passes=True):
        self.build = build
        self.work = work
        # Crosslane's code-generation passes in llc for the Crosslane variant
        # (docs/CodeGen.md); --stock-llc measures opt output through a stock
        # llc instead.
        self.codegen_passes = codegen_passes
        self.hipcc = os.path.join(build, "bin", "crosslane-hipcc")

    def path(self, name):
        return os.path.join(self.work, name)

    def hip_to_ll(self, src, name, chip, wave, plugin, execute=False):
        hip = self.path(name + ".hip")
        with open(hip, "w") as f:
            f.write(src)
        ll = self.path(name + (".exec.ll" if execute else ".ll"))
        cmd = [self.hipcc, f"--offload-arch={chip}", "--cuda-device-only",
               "-nogpulib", "-O2", "-S", "-emit-llvm", "-I",
               os.path.join(ROOT, "include"), hip, "-o", ll]
        cmd += chip_flags(chip, wave)
        if not plugin:
            cmd.append("--no-crosslane")
        if execute:
            cmd.append("-DBENCH_EXEC")
        run(cmd)
        return ll

    def mlir_to_ll(self, op, name, chip, wave, execute=False):
        kind, mty = op["mlir"]
        mlir = self.path(name + ".mlir")
        with open(mlir, "w") as f:
            f.write(mlir_module(kind, mty, wave))
        lowered = self.path(name + ".llvm.mlir")
        run([tool("mlir-opt"),
             f"--test-gpu-subgroup-reduce-lowering=expand-to-shuffles target={chip}",
             f"--convert-amdgpu-to-rocdl=chipset={chip}", "--convert-arith-to-llvm",
             "--convert-func-to-llvm", "--reconcile-unrealized-casts", mlir,
             "-o", lowered])
        fn = self.path(name + ".fn.ll")
        run([tool("mlir-translate"), "--mlir-to-llvmir", lowered, "-o", fn])
        sfx = ".exec" if execute else ""
        kern = self.path(name + sfx + ".kern.ll")
        with open(kern, "w") as f:
            f.write(mlir_kernel_ir(mty, execute))
        linked = self.path(name + sfx + ".linked.bc")
        run([tool("llvm-link"), kern, fn, "-o", linked])
        feats = "+wavefrontsize64" if wave == 64 and chip.startswith("gfx1") else ""
        ll = self.path(name + sfx + ".ll")
        # Inline the reduction into the kernel, as a real compile would.
        run([tool("opt"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={chip}"] +
            ([f"-mattr={feats}"] if feats else []) +
            ["-passes=always-inline,inline,default<O2>", "-S", linked, "-o", ll])
        return ll

    def plugin(self):
        return os.path.join(self.build, "lib", "CrosslanePlugin.so")

    def ll_to_asm(self, ll, chip, wave, plugin=False):
        """llc, with Crosslane's code-generation passes when `plugin` (as
        clang -fpass-plugin runs them: the plugin is in the backend too)."""
        s = ll[:-3] + ".s"
        load = [f"-load={self.plugin()}"] if plugin else []
        run([tool("llc")] + load + ["-O3", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={chip}"] +
            llc_attr(chip, wave) + [ll, "-o", s])
        return s

    def codegen_ir(self, ll):
        """The IR Crosslane's code-generation passes hand to instruction
        selection (crosslane-relax-nan-guard), so the executor checks what
        llc compiles rather than what clang's optimizer left."""
        out = ll[:-3] + ".cg.ll"
        run([tool("opt"), f"-load-pass-plugin={self.plugin()}",
             "-passes=crosslane-relax-nan-guard", "-S", ll, "-o", out])
        return out


# ----------------------------------------------------------------------------
# Counting
# ----------------------------------------------------------------------------
HAZARD = re.compile(r"^(s_nop|s_delay_alu|s_waitcnt|s_wait_)")


def region(asm_path, wave):
    """Instructions between the BENCH markers of the kernel body, as
    executed by one full wave: a loop inside the region (a branch back to a
    label in the region, e.g. LLVM 22's readlane loop for wave.reduce) runs
    once per active lane, so its body is counted `wave` times."""
    lines = open(asm_path).read().splitlines()
    out, inside, seen, labels = [], False, 0, {}
    for line in lines:
        t = line.strip()
        if "BENCH_BEGIN" in t:
            inside, seen = True, seen + 1
            continue
        if "BENCH_END" in t:
            inside = False
            continue
        t = t.split(";")[0].strip()
        if not inside or not t:
            continue
        lab = re.match(r"^([.\w$]+):$", t)
        if lab:
            labels[lab.group(1)] = len(out)
            continue
        if t.startswith("."):  # directive
            continue
        inst = t
        m = re.match(r"s_cbranch_\w+\s+(\S+)|s_branch\s+(\S+)", inst)
        out.append(inst)
        if m:
            target = m.group(1) or m.group(2)
            if target in labels:  # back edge: a loop over the lanes
                body = out[labels[target]:]
                out.extend(body * (wave - 1))
    if seen != 1:
        raise BenchError(f"{asm_path}: expected one BENCH_BEGIN marker, saw {seen}")
    return out


def classify(insts):
    work = [i for i in insts if not HAZARD.match(i)]
    hazard = [i for i in insts if HAZARD.match(i)]
    valu = sum(1 for i in work if i.startswith("v_"))
    salu = sum(1 for i in work if i.startswith("s_"))
    other = len(work) - valu - salu  # ds_*, global_*, buffer_* ...
    return dict(valu=valu, salu=salu, other=other, hazard=len(hazard),
                count=valu + salu + other)


def mca_cycles(insts, chip, wave, work):
    s = os.path.join(work, f"mca.{chip}.{wave}.s")
    with open(s, "w") as f:
        f.write("\n".join(insts) + "\n")
    out = run([tool("llvm-mca"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={chip}",
               "-iterations=1"] + llc_attr(chip, wave) + [s])
    m = re.search(r"Total Cycles:\s+(\d+)", out)
    if not m:
        raise BenchError("llvm-mca printed no cycle count")
    return int(m.group(1))


# ----------------------------------------------------------------------------
# Required wait states. The bound is assembly we write by hand, so it must
# carry the s_nop the hardware requires, as LLVM's GCNHazardRecognizer puts
# them into the compiled variants. Rules used (only those the bounds meet):
#   gfx9:           VALU writes a VGPR -> DPP instruction reads it: 2
#                   (research notes amdgpu-dpp.md §1, "Hazards"; GFX9 ISA
#                   manual, "Manually inserted wait states").
#   gfx94x, gfx950: VALU writes a VGPR -> v_readlane/v_readfirstlane reads
#                   it: 1; a VALU (v_cmp, v_readlane, ...) writes an SGPR or
#                   VCC -> a VALU reads it: 2 (AMD's rocRoller hazard tables).
# gfx10+ interlock these (s_delay_alu on gfx11+ is a scheduling hint, not a
# requirement), so no wait states are added there.
# ----------------------------------------------------------------------------
_VREG = re.compile(r"\bv(\d+)\b|\bv\[(\d+):(\d+)\]")
_SREG = re.compile(r"\bs(\d+)\b|\bs\[(\d+):(\d+)\]|\b(vcc)\b")


def _regs(pattern, text):
    out = set()
    for m in pattern.finditer(text):
        if m.group(1) is not None:
            out.add(int(m.group(1)))
        elif m.lastindex == 4:
            out.add(m.group(4))
        else:
            out.update(range(int(m.group(2)), int(m.group(3)) + 1))
    return out


def _operands(inst):
    parts = inst.split(None, 1)
    if len(parts) == 1:
        return parts[0], []
    # Operands are comma separated; DPP/SDWA modifiers follow the last one.
    ops = [o.strip() for o in parts[1].split(",")]
    ops[-1] = ops[-1].split()[0]
    return parts[0], ops


def wait_states_needed(chip, insts):
    """For each instruction, the wait states it needs after the previous
    writes in `insts` (nops excluded from `insts`)."""
    gfx9 = chip.startswith("gfx9")
    gfx94 = chip.startswith("gfx94") or chip == "gfx950"
    vwrite, swrite = {}, {}  # register -> index of the VALU writing it
    need, now = [], 0
    for inst in insts:
        name, ops = _operands(inst)
        dst, srcs = (ops[0], ops[1:]) if ops else ("", [])
        vreads = set().union(*[_regs(_VREG, o) for o in srcs]) if srcs else set()
        sreads = set().union(*[_regs(_SREG, o) for o in srcs]) if srcs else set()
        want = 0
        valu = name.startswith("v_")
        readlane = name.startswith(("v_readlane", "v_readfirstlane"))
        for r in vreads:
            if r in vwrite:
                since = now - vwrite[r] - 1
                if gfx9 and "_dpp" in name:
                    want = max(want, 2 - since)
                if gfx94 and readlane:
                    want = max(want, 1 - since)
        if gfx94 and valu:
            for r in sreads:
                if r in swrite:
                    want = max(want, 2 - (now - swrite[r] - 1))
        want = max(want, 0)
        need.append(want)
        now += want + 1
        if valu:
            for r in _regs(_VREG, dst):
                vwrite[r] = now - 1
            for r in _regs(_SREG, dst):
                swrite[r] = now - 1
    return need


def hazard_agreement(chip, insts):
    """(instructions where this model asks for the wait states LLVM's hazard
    recognizer inserted, instructions compared) over a compiled region. The
    first instruction is skipped: its producers lie before the region."""
    plain, waits, acc = [], [], 0
    for inst in insts:
        m = re.match(r"s_nop\s+(\d+)", inst)
        if m:
            acc += int(m.group(1)) + 1
            continue
        plain.append(inst)
        waits.append(acc)
        acc = 0
    mine = wait_states_needed(chip, plain)
    pairs = list(zip(waits, mine))[1:]
    return sum(1 for a, b in pairs if a == b), len(pairs)


def with_wait_states(chip, insts):
    out = []
    for inst, want in zip(insts, wait_states_needed(chip, insts)):
        if want:
            out.append(f"s_nop {want - 1}")
        out.append(inst)
    return out


# ----------------------------------------------------------------------------
# The hand lower bound (see bench/BOUNDS.md for the reasoning). Each bound is
# real assembly for the chip, so llvm-mca can time it like the others.
# ----------------------------------------------------------------------------
def _exec(wave):
    return ("s_or_saveexec_b64 s[2:3], -1", "s_mov_b64 exec, s[2:3]", "s[2:3]") \
        if wave == 64 else ("s_or_saveexec_b32 s2, -1", "s_mov_b32 exec_lo, s2", "s2")


def _vop(chip, name):
    # gfx12 renamed the IEEE-less min/max to *_num_*.
    if chip.startswith("gfx12") and name in ("v_max_f32", "v_min_f32"):
        return name.replace("_f32", "_num_f32")
    # gfx10+ spells the carry-less add v_add_nc_u32.
    if chip.startswith("gfx1") and name == "v_add_u32":
        return "v_add_nc_u32"
    return name


def _steps32(chip, op):
    gfx9 = chip.startswith("gfx9")
    ctrls = ["row_shr:1", "row_shr:2", "row_shr:4", "row_shr:8",
             "row_bcast:15", "row_bcast:31"] if gfx9 else \
            ["row_xmask:1", "row_xmask:2", "row_xmask:4", "row_xmask:8"]
    return [f"{_vop(chip, op)}_dpp v1, v1, v1 {c} row_mask:0xf bank_mask:0xf bound_ctrl:1"
            for c in ctrls]


def _cross32(chip, wave, op):
    """Steps past the row (gfx10+), leaving the total in v1 or s4."""
    if chip.startswith("gfx9"):
        return ["v_readlane_b32 s4, v1, 63", None]  # None: result in s4
    seq = ["v_permlanex16_b32 v2, v1, 0, 0", f"{_vop(chip, op)}_e32 v1, v1, v2"]
    if wave == 64:
        if chip.startswith("gfx10"):
            seq += ["v_readlane_b32 s4, v1, 0", "v_readlane_b32 s5, v1, 32",
                    f"{_vop(chip, op)}_e64 v1, s4, s5"]
        else:
            seq += ["v_permlane64_b32 v2, v1", f"{_vop(chip, op)}_e32 v1, v1, v2"]
    return seq


def bound_reduce32(chip, wave, op):
    save, restore, mask = _exec(wave)
    # v3 holds the identity, materialised before the region (the compiled
    # variants hoist that constant too).
    body = [save, f"v_cndmask_b32_e64 v1, v3, v0, {mask}"]
    body += _steps32(chip, op)
    cross = _cross32(chip, wave, op)
    if cross[-1] is None:
        body += [cross[0], restore, "v_mov_b32_e32 v0, s4"]
    else:
        body += cross + [restore, "v_mov_b32_e32 v0, v1"]
    return body


def bound_reduce64(chip, wave):
    """f64 add: no 64-bit DPP add outside row_newbcast, so each step is two
    32-bit DPP moves and one v_add_f64."""
    save, restore, mask = _exec(wave)
    # v[4:5] holds the identity -0.0, materialised before the region.
    body = [save, f"v_cndmask_b32_e64 v2, v4, v0, {mask}",
            f"v_cndmask_b32_e64 v3, v5, v1, {mask}"]
    gfx9 = chip.startswith("gfx9")
    ctrls = ["row_shr:1", "row_shr:2", "row_shr:4", "row_shr:8",
             "row_bcast:15", "row_bcast:31"] if gfx9 else \
            ["row_xmask:1", "row_xmask:2", "row_xmask:4", "row_xmask:8"]
    for c in ctrls:
        body += [f"v_mov_b32_dpp v6, v2 {c} row_mask:0xf bank_mask:0xf bound_ctrl:1",
                 f"v_mov_b32_dpp v7, v3 {c} row_mask:0xf bank_mask:0xf bound_ctrl:1",
                 "v_add_f64 v[2:3], v[2:3], v[6:7]"]
    if gfx9:
        body += ["v_readlane_b32 s4, v2, 63", "v_readlane_b32 s5, v3, 63", restore,
                 "v_mov_b32_e32 v0, s4", "v_mov_b32_e32 v1, s5"]
        return body
    body += ["v_permlanex16_b32 v6, v2, 0, 0", "v_permlanex16_b32 v7, v3, 0, 0",
             "v_add_f64 v[2:3], v[2:3], v[6:7]"]
    if wave == 64:
        if chip.startswith("gfx10"):
            body += ["v_readlane_b32 s4, v2, 0", "v_readlane_b32 s5, v3, 0",
                     "v_readlane_b32 s6, v2, 32", "v_readlane_b32 s7, v3, 32",
                     "v_add_f64 v[2:3], s[4:5], s[6:7]"]
        else:
            body += ["v_permlane64_b32 v6, v2", "v_permlane64_b32 v7, v3",
                     "v_add_f64 v[2:3], v[2:3], v[6:7]"]
    body += [restore, "v_mov_b32_e32 v0, v2", "v_mov_b32_e32 v1, v3"]
    return body


def bound_argmax(chip, wave, nan_wins):
    """Value reduction, then the smallest index among the lanes holding the
    maximum: a compare (masked by the original exec), the index or UINT_MAX,
    and a fused umin reduction of those indices. NaN-wins first maps the
    value to an order-preserving integer key with every NaN on top."""
    save, restore, mask = _exec(wave)
    body = [save]
    if nan_wins:
        body += ["v_ashrrev_i32_e32 v8, 31, v0", "v_or_b32_e32 v8, 0x80000000, v8",
                 "v_xor_b32_e32 v8, v0, v8", f"v_cmp_u_f32_e64 {mask.replace('2', '8', 1) if wave == 64 else 's8'}, v0, v0".replace("s[8:3]", "s[8:9]"),
                 f"v_cndmask_b32_e64 v0, v8, -1, {('s[8:9]' if wave == 64 else 's8')}"]
        op = "v_max_u32"
    else:
        op = "v_max_f32"
    body += [f"v_cndmask_b32_e64 v1, v3, v0, {mask}"]  # v3: identity, as above
    body += _steps32(chip, op)
    cross = _cross32(chip, wave, op)
    if cross[-1] is None:
        body += [cross[0], "v_mov_b32_e32 v1, s4"]
    else:
        body += cross
    cmpm = "s[6:7]" if wave == 64 else "s6"
    andm = "s_and_b64 s[6:7], s[6:7], s[2:3]" if wave == 64 else "s_and_b32 s6, s6, s2"
    cmp = "v_cmp_eq_u32_e64" if nan_wins else "v_cmp_eq_f32_e64"
    body += [f"{cmp} {cmpm}, v0, v1", andm,
             f"v_cndmask_b32_e64 v9, -1, v10, {cmpm}"]
    body += [l.replace("v1", "v9") for l in _steps32(chip, "v_min_u32")]
    cross = [l.replace("v1", "v9") if l else l for l in _cross32(chip, wave, "v_min_u32")]
    if cross[-1] is None:
        body += [cross[0], restore, "v_mov_b32_e32 v10, s4"]
    else:
        body += cross + [restore, "v_mov_b32_e32 v10, v9"]
    return body


def bound(opname, chip, wave):
    return with_wait_states(chip, _bound(opname, chip, wave))


def _bound(opname, chip, wave):
    if opname in ("max_f32", "max_f16"):
        return bound_reduce32(chip, wave, "v_max_f32")
    if opname == "add_i32":
        return bound_reduce32(chip, wave, "v_add_u32")
    if opname == "add_f64":
        return bound_reduce64(chip, wave)
    if opname in ("argmax_f32", "iamax_f32"):
        return bound_argmax(chip, wave, False)
    if opname == "argmax_f32_nanwins":
        return bound_argmax(chip, wave, True)
    raise KeyError(opname)


# ----------------------------------------------------------------------------
# Correctness: run every variant in the wave executor against the reference
# semantics of the Crosslane operation (the crosslane variant compiled
# without the plugin, whose __crosslane_* calls the executor evaluates with
# its reference builtins).
# ----------------------------------------------------------------------------
ELEM = {"float": "f32", "int": "i32", "_Float16": "f16", "double": "f64"}
INPUTS = "random,all-equal,ties,nan-each,all-nan,pm-zero,pm-inf,denorm,neg-max"


def _exact_input_files(work, et, wave, count=3):
    """Buffers of small integers: their sums are exact in any order, so FP
    additions in different tree shapes must agree bit for bit."""
    import random
    import struct
    rng = random.Random(7)
    fmt = {"f64": "<d", "f32": "<f"}[et]
    paths = []
    for k in range(count):
        path = os.path.join(work, f"exact.{et}.{wave}.{k}.bin")
        with open(path, "wb") as f:
            for _ in range(wave):
                f.write(struct.pack(fmt, float(rng.randint(-1000, 1000))))
        paths.append(path)
    return paths


def _diff(cmd):
    """Runs one crosslane-run --diff; returns (no mismatch, cases run)."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"diff: (\d+) cases, (\d+) mismatches", p.stdout + p.stderr)
    if p.returncode != 0 or not m or m.group(2) != "0":
        return False, 0
    return True, int(m.group(1))


def verify(build, work, ref_ll, ll, op, chip, wave):
    """Runs `ll` against the reference kernel on the same inputs; returns
    ok(<cases>) or DIFFERS(<inputs>). FP add reductions run on exactly
    summable inputs."""
    runner = os.path.join(build, "bin", "crosslane-run")
    if not os.path.exists(runner):
        return "unverified"
    et = ELEM[op["hip_t"]]
    # --nan-equal: LLVM leaves the payload and sign of a NaN result open, so
    # any NaN matches any NaN; everything else must match bit for bit.
    base = [runner, ref_ll, f"--diff={ll}", "--kernel=bench", f"--mcpu={chip}",
            "--grid=1", f"--block={wave}", "--seed=1", "--print=none", "--nan-equal"]
    base += ["--mattr=+wavefrontsize64"] if wave == 64 and chip.startswith("gfx1") else []
    rest = [f"--arg=buf:{et}:{wave}:zero", f"--arg=buf:i32:{wave}:zero"]
    if op["inputs"] == "double-exact":
        runs = [base + [f"--arg=buf:{et}:{wave}:file={p}"] + rest
                for p in _exact_input_files(work, et, wave)]
    else:
        gens = INPUTS if et.startswith("f") else "random,all-equal,ties"
        whole = base + [f"--arg=buf:{et}:{wave}:input"] + rest + [f"--inputs={gens}"]
        ok, cases = _diff(whole)
        if ok:
            return f"ok({cases})"
        # Name the generators that differ (one run each, only on failure).
        runs = [base + [f"--arg=buf:{et}:{wave}:input"] + rest + [f"--inputs={g}"]
                for g in gens.split(",")]
    cases, failed = 0, []
    for cmd in runs:
        ok, n = _diff(cmd)
        if not ok:
            g = [a for a in cmd if a.startswith(("--inputs=", "--arg=buf:" + et + ":" + str(wave) + ":file"))]
            failed.append(g[0].split("=", 1)[1].split("/")[-1] if g else "?")
            continue
        cases += n
    if failed:
        return "DIFFERS(" + ",".join(failed) + ")"
    return f"ok({cases})"


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------
VARIANTS = ["crosslane", "shfl_xor", "iree", "wave_reduce", "mlir", "bound"]
HIP_VARIANTS = {"crosslane": variant_crosslane, "shfl_xor": variant_shfl_xor,
                "iree": variant_iree, "wave_reduce": variant_wave_reduce}


def measure(b, build, opname, op, chip, wave):
    """Returns {variant: dict(count, valu, salu, other, hazard, cycles, ok)}."""
    res = {}
    tag = f"{opname}.{chip}.w{wave}"
    ref_ll = None
    src = variant_crosslane(op)
    try:
        ref_ll = b.hip_to_ll(src, tag + ".ref", chip, wave, plugin=False, execute=True)
    except BenchError as e:
        print(f"bench: reference for {tag} failed: {e}", file=sys.stderr)
    for v in VARIANTS:
        # The Crosslane variant goes through Crosslane's code-generation
        # passes unless --stock-llc.
        cg = v == "crosslane" and b.codegen_passes
        try:
            if v == "bound":
                insts = bound(opname, chip, wave)
                r = classify(insts)
                r["cycles"] = mca_cycles(insts, chip, wave, b.work)
                r["ok"] = "bound"
                res[v] = r
                continue
            if v == "mlir":
                if op["kind"] != "reduce" or not op.get("mlir"):
                    continue
                ll = b.mlir_to_ll(op, f"{tag}.mlir", chip, wave)
                exe = b.mlir_to_ll(op, f"{tag}.mlir", chip, wave, execute=True)
            else:
                src = HIP_VARIANTS[v](op)
                if src is None:
                    continue
                ll = b.hip_to_ll(src, f"{tag}.{v}", chip, wave, plugin=(v == "crosslane"))
                exe = b.hip_to_ll(src, f"{tag}.{v}", chip, wave, plugin=(v == "crosslane"),
                                  execute=True)
                if cg:
                    exe = b.codegen_ir(exe)
            insts = region(b.ll_to_asm(ll, chip, wave, plugin=cg), wave)
            r = classify(insts)
            r["hazard_check"] = hazard_agreement(chip, insts)
            r["cycles"] = mca_cycles(insts, chip, wave, b.work)
            r["ok"] = verify(build, b.work, ref_ll, exe, op, chip, wave) if ref_ll else "unverified"
            res[v] = r
        except BenchError as e:
            res[v] = dict(error=str(e).splitlines()[-1][:120])
    return res


def fmt(r):
    if r is None:
        return "—"
    if "error" in r:
        return "error"
    s = f"{r['count']} ({r['valu']}v+{r['salu']}s"
    if r["other"]:
        s += f"+{r['other']}m"
    s += f") / {r['cycles']}c"
    if r["ok"] not in ("bound",) and not r["ok"].startswith("ok"):
        s += f" {r['ok']}"
    return s


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def _plugin_share(hipcc, src, work):
    """Crosslane passes' wall time over the whole clang -O2 compile, from
    clang's -ftime-report (per-pass timings), so other load on the machine
    cancels out."""
    t0 = time.perf_counter()
    p = subprocess.run([hipcc, "--offload-arch=gfx942", "--cuda-device-only",
                        "-O2", "-c", "-ftime-report", "-I", os.path.join(ROOT, "include"),
                        src, "-o", os.path.join(work, "ct.o")],
                       capture_output=True, text=True)
    total = time.perf_counter() - t0
    if p.returncode != 0:
        raise BenchError(p.stderr[-500:])
    ours = 0.0
    for line in p.stderr.splitlines():
        # New-PM passes print their class (crosslane::...), the legacy
        # code-generation passes their name ("Crosslane: ...").
        if "crosslane::" in line or "Crosslane: " in line:
            cols = re.findall(r"([0-9.]+) \(", line)
            if len(cols) >= 3:
                ours += float(cols[-1])  # wall-clock column
    return ours / total


def generated_module(work, kernels=300):
    """A large HIP module: many kernels with butterflies, ballots and
    Crosslane calls, to see how the plugin's time scales."""
    path = os.path.join(work, "generated.hip")
    with open(path, "w") as f:
        f.write('#include <hip/hip_runtime.h>\n'
                'extern "C" __device__ float __crosslane_reduce_fmax_f32(float, int, int);\n')
        for i in range(kernels):
            f.write(f"""extern "C" __global__ void k{i}(const float *in, float *out, int n) {{
  float v = -INFINITY; int idx = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    if (in[j] > v) {{ v = in[j]; idx = j; }}
  for (int o = warpSize / 2; o > 0; o /= 2) {{
    float w = __shfl_xor(v, o); int wi = __shfl_xor(idx, o);
    if (w > v || (w == v && wi < idx)) {{ v = w; idx = wi; }}
  }}
  unsigned long long b = __ballot(v == in[{i} % 7]);
  out[threadIdx.x] = v + (float)idx + (float)__popcll(b) +
                     __crosslane_reduce_fmax_f32(v, {2 ** (1 + i % 6)}, 1);
}}
""")
    return path


def compile_overhead(build, work, repeats):
    """Plugin share of clang -O2 time on the largest example and on a large
    generated module (median of `repeats` runs)."""
    hipcc = os.path.join(build, "bin", "crosslane-hipcc")
    exdir = os.path.join(ROOT, "examples")
    exs = [os.path.join(exdir, f) for f in os.listdir(exdir) if f.endswith(".hip")] \
        if os.path.isdir(exdir) else []
    out = []
    for src in ([max(exs, key=os.path.getsize)] if exs else []) + [generated_module(work)]:
        shares = sorted(_plugin_share(hipcc, src, work) for _ in range(repeats))
        out.append((os.path.basename(src), shares[len(shares) // 2]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--chips", default=",".join(f"{c}:{w}" for c, w in CHIPS),
                    help="comma list of chip:wave")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--repeats", type=int, default=5,
                    help="compile-time samples per module (at least 1)")
    ap.add_argument("--stock-llc", action="store_true",
                    help="compile the Crosslane variant with a stock llc (no "
                         "code-generation passes: what opt output gets)")
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="crosslane-bench-")
    b = Builder(os.path.abspath(a.build), work, codegen_passes=not a.stock_llc)
    chips = [(c.split(":")[0], int(c.split(":")[1])) for c in a.chips.split(",")]
    rows = []
    print("Static figures: VALU+SALU(+memory) instructions in the reduction region, "
          "and llvm-mca-22 cycles for that region (-iterations=1). No GPU ran.\n")
    print("| op | chip | wave | " + " | ".join(VARIANTS) + " |")
    print("|---|---|---|" + "---|" * len(VARIANTS))
    for opname in a.ops.split(","):
        op = OPS[opname]
        for chip, wave in chips:
            res = measure(b, a.build, opname, op, chip, wave)
            rows.append((opname, chip, wave, res))
            print(f"| {opname} | {chip} | {wave} | " +
                  " | ".join(fmt(res.get(v)) for v in VARIANTS) + " |", flush=True)

    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    csv_path = os.path.join(ROOT, "bench", "results", "bench.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["op", "chip", "wave", "variant", "count", "valu", "salu", "mem",
                    "hazard", "mca_cycles", "verified"])
        for opname, chip, wave, res in rows:
            for v, r in res.items():
                if "error" in r:
                    w.writerow([opname, chip, wave, v, "", "", "", "", "", "", "error: " + r["error"]])
                else:
                    w.writerow([opname, chip, wave, v, r["count"], r["valu"], r["salu"],
                                r["other"], r["hazard"], r["cycles"], r["ok"]])

    def cyc(opname, chip, wave, v):
        for o, c, w, res in rows:
            if (o, c, w) == (opname, chip, wave):
                r = res.get(v)
                if r and "error" not in r and (r["ok"] == "bound" or r["ok"].startswith("ok")
                                               or r["ok"] == "unverified"):
                    return r["cycles"]
        return None

    def ratio(x, y):
        return f"{x / y:.2f}" if x and y else "nan"

    anchors = ["shfl_xor", "iree", "wave_reduce", "mlir"]
    per_chip = {}
    for opname, chip, wave, res in rows:
        c = cyc(opname, chip, wave, "crosslane")
        best = [cyc(opname, chip, wave, v) for v in anchors]
        best = [x for x in best if x]
        if c and best:
            per_chip.setdefault(f"{chip}:{wave}", []).append(c / min(best))
    per_row = [r for rs in per_chip.values() for r in rs]
    # A Crosslane row that failed to build or to verify is not left out of
    # the figures quietly: it is listed, the geomean becomes nan and the
    # run fails.
    failed = [f"{o}/{c}/w{w}" for o, c, w, _ in rows
              if cyc(o, c, w, "crosslane") is None]
    overheads = compile_overhead(a.build, work, max(1, a.repeats))
    print(f"\nCSV: {os.path.relpath(csv_path, ROOT)}")
    agree = total = 0
    for _, _, _, res in rows:
        for r in res.values():
            if "hazard_check" in r:
                agree += r["hazard_check"][0]
                total += r["hazard_check"][1]
    print(f"hazard model (wait states added to the bounds): agrees with LLVM's "
          f"s_nop placement on {agree} of {total} compiled-region instructions")
    for name, share in overheads:
        print(f"compile-time: Crosslane passes' share of clang -O2 -c on {name}: "
              f"{share * 100:.2f}% (-ftime-report)")
    ct = max(sh for _, sh in overheads) if overheads else None
    # The goal is < 1 on every chip: the geomean over the rows of each chip
    # and wave size that have a verified anchor (and how many rows that is).
    print("geomean_vs_best_anchor per chip: " + " ".join(
        f"{k}={geomean(v):.2f}({len(v)})" for k, v in per_chip.items()))
    if failed:
        print("crosslane rows that failed (error or wrong answer): " + " ".join(failed))
    print("summary "
          f"argmax_f32_gfx942_w64_vs_bound={ratio(cyc('argmax_f32', 'gfx942', 64, 'crosslane'), cyc('argmax_f32', 'gfx942', 64, 'bound'))} "
          f"argmax_vs_shfl_xor={ratio(cyc('argmax_f32', 'gfx942', 64, 'crosslane'), cyc('argmax_f32', 'gfx942', 64, 'shfl_xor'))} "
          f"reduce_f32_gfx942_w64_vs_bound={ratio(cyc('max_f32', 'gfx942', 64, 'crosslane'), cyc('max_f32', 'gfx942', 64, 'bound'))} "
          f"geomean_vs_best_anchor={'nan' if failed else f'{geomean(per_row):.2f}'}"
          + (f" compile_overhead={ct:.3f}" if ct is not None else ""))
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"work directory: {work}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
