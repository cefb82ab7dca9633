#!/usr/bin/env python3
"""Generates LLVM IR kernels calling Crosslane's subgroup operations.

Used by the lit tests (IR, ISA and execution) so that the op x type x chip x
wave x cluster matrix stays compact. Each kernel spec is
    reduce:<op>:<ty>:<cluster>:<stride>
    argmax|argmin:<ty>:<ity>:<cluster>:<stride>:<nan_policy>
    argcmp:<ty>:<ity>:<cluster>:<stride>
    wave:<op>:<llvm type>            (llvm.amdgcn.wave.reduce.<op>)
Every kernel is `@k<N>(ptr addrspace(1) %in, ptr addrspace(1) %idx,
ptr addrspace(1) %out, ptr addrspace(1) %outidx, i32 %mask)`: lane L loads
in[L] (and idx[L]), and, with --divergent, only lanes whose bit in %mask is
set (bit L % 32) call the operation; results go to out[L] / outidx[L].
"""
import argparse
import re
import sys

LLTY = {"i16": "i16", "i32": "i32", "i64": "i64", "f16": "half",
        "bf16": "bfloat", "f32": "float", "f64": "double"}
INT_OPS = ["add", "mul", "smin", "smax", "umin", "umax", "and", "or", "xor"]
FP_OPS = ["add", "mul", "fmin", "fmax", "fminimum", "fmaximum"]


def ops_for(ty):
    return INT_OPS if ty[0] == "i" else FP_OPS


def kernel(n, spec, divergent):
    parts = spec.split(":")
    kind = parts[0]
    decls = []
    body = []
    lid = "%lid"
    body.append("  %lid = call i32 @llvm.amdgcn.workitem.id.x()")
    if kind == "reduce":
        op, ty, c, s = parts[1:]
        t = LLTY[ty]
        fn = f"__crosslane_reduce_{op}_{ty}"
        decls.append(f"declare {t} @{fn}({t}, i32, i32)")
        call = f"call {t} @{fn}({t} %v, i32 {c}, i32 {s})"
        ity = None
    elif kind in ("argmax", "argmin", "argcmp"):
        ty, ity_s = parts[1], parts[2]
        c, s = parts[3], parts[4]
        t, ity = LLTY[ty], LLTY[ity_s]
        fn = f"__crosslane_{kind}_{ty}_{ity_s}"
        if kind == "argcmp":
            decls.append(f"declare {{{t}, {ity}}} @{fn}({t}, {ity}, ptr, i32, i32)")
            cmpf = f"cmp_{n}"
            if ty[0] in "fb":
                pred = "fcmp ogt"
            else:
                pred = "icmp sgt"
            decls.append(f"define internal i1 @{cmpf}({t} %a, {t} %b) {{\n"
                         f"  %c = {pred} {t} %a, %b\n  ret i1 %c\n}}")
            call = (f"call {{{t}, {ity}}} @{fn}({t} %v, {ity} %i, ptr @{cmpf}, "
                    f"i32 {c}, i32 {s})")
        else:
            pol = parts[5] if len(parts) > 5 else "0"
            decls.append(f"declare {{{t}, {ity}}} @{fn}({t}, {ity}, i32, i32, i32)")
            call = (f"call {{{t}, {ity}}} @{fn}({t} %v, {ity} %i, i32 {c}, "
                    f"i32 {s}, i32 {pol})")
    elif kind in ("copy", "copyarg"):
        # Baseline for instruction counting: the same kernel without the
        # operation (result = input).
        t = LLTY[parts[1]]
        ity = LLTY[parts[2]] if kind == "copyarg" else None
        call = None
    elif kind == "wave":
        op, t = parts[1], parts[2]
        ity = None
        call = f"call {t} @llvm.amdgcn.wave.reduce.{op}.{t}({t} %v, i32 0)"
    else:
        sys.exit(f"bad spec {spec}")
    out = []
    out.append(f"define amdgpu_kernel void @k{n}(ptr addrspace(1) %in, "
               f"ptr addrspace(1) %idx, ptr addrspace(1) %out, "
               f"ptr addrspace(1) %outidx, i32 %mask) #0 {{")
    out.append("entry:")
    out += body
    out.append(f"  %gp = getelementptr {t}, ptr addrspace(1) %in, i32 %lid")
    out.append(f"  %v = load {t}, ptr addrspace(1) %gp")
    if ity:
        out.append(f"  %gi = getelementptr {ity}, ptr addrspace(1) %idx, i32 %lid")
        out.append(f"  %i = load {ity}, ptr addrspace(1) %gi")
    if divergent:
        out.append("  %b = and i32 %lid, 31")
        out.append("  %bit = shl i32 1, %b")
        out.append("  %on = and i32 %mask, %bit")
        out.append("  %c = icmp ne i32 %on, 0")
        out.append("  br i1 %c, label %then, label %exit")
        out.append("then:")
    if call is None and ity:
        out.append(f"  %rv = freeze {t} %v")
        out.append(f"  %ri = freeze {ity} %i")
    elif call is None:
        out.append(f"  %r = freeze {t} %v")
    else:
        out.append(f"  %r = {call}")
    if ity and call is not None:
        out.append(f"  %rv = extractvalue {{{t}, {ity}}} %r, 0")
        out.append(f"  %ri = extractvalue {{{t}, {ity}}} %r, 1")
    if ity:
        out.append(f"  %go = getelementptr {t}, ptr addrspace(1) %out, i32 %lid")
        out.append(f"  store {t} %rv, ptr addrspace(1) %go")
        out.append(f"  %goi = getelementptr {ity}, ptr addrspace(1) %outidx, i32 %lid")
        out.append(f"  store {ity} %ri, ptr addrspace(1) %goi")
    else:
        out.append(f"  %go = getelementptr {t}, ptr addrspace(1) %out, i32 %lid")
        out.append(f"  store {t} %r, ptr addrspace(1) %go")
    if divergent:
        out.append("  br label %exit")
        out.append("exit:")
    out.append("  ret void")
    out.append("}")
    return decls, "\n".join(out)


def multi_kernel(n, spec, divergent):
    """multi:<ty>:<ity|->:<call>|<call>|...  with each call one of
         reduce/<op>/<C>x<S>
         argmax/<pol>/<C>x<S>   argmin/<pol>/<C>x<S>   argcmp/<C>x<S>
    All calls share the loaded value (and index); call j stores to
    out[j*64 + lane] (and outidx[j*64 + lane])."""
    _, ty, ity_s, callspec = spec.split(":", 3)
    t = LLTY[ty]
    ity = LLTY[ity_s] if ity_s != "-" else None
    decls, calls = [], []
    for cs in callspec.split("|"):
        f = cs.split("/")
        c, s_ = f[-1].split("x")
        if f[0] == "reduce":
            fn = f"__crosslane_reduce_{f[1]}_{ty}"
            decls.append(f"declare {t} @{fn}({t}, i32, i32)")
            calls.append((False, f"call {t} @{fn}({t} %v, i32 {c}, i32 {s_})"))
        elif f[0] == "argcmp":
            fn = f"__crosslane_argcmp_{ty}_{ity_s}"
            decls.append(f"declare {{{t}, {ity}}} @{fn}({t}, {ity}, ptr, i32, i32)")
            cmpf = f"cmp_{ty}"
            if ty[0] in "fb":
                # `a > b`: on inputs without NaN and signed zeros argcmp is
                # then argmax (exec_matrix.py checks exactly that).
                body = f"  %c = fcmp ogt {t} %a, %b"
            else:
                body = f"  %c = icmp sgt {t} %a, %b"
            decls.append(f"define internal i1 @{cmpf}({t} %a, {t} %b) {{\n"
                         f"{body}\n  ret i1 %c\n}}")
            calls.append((True, f"call {{{t}, {ity}}} @{fn}({t} %v, {ity} %i, "
                                f"ptr @{cmpf}, i32 {c}, i32 {s_})"))
        else:
            fn = f"__crosslane_{f[0]}_{ty}_{ity_s}"
            decls.append(f"declare {{{t}, {ity}}} @{fn}({t}, {ity}, i32, i32, i32)")
            calls.append((True, f"call {{{t}, {ity}}} @{fn}({t} %v, {ity} %i, "
                                f"i32 {c}, i32 {s_}, i32 {f[1]})"))
    out = [f"define amdgpu_kernel void @k{n}(ptr addrspace(1) %in, "
           f"ptr addrspace(1) %idx, ptr addrspace(1) %out, "
           f"ptr addrspace(1) %outidx, i32 %mask) #0 {{",
           "entry:",
           "  %lid = call i32 @llvm.amdgcn.workitem.id.x()",
           f"  %gp = getelementptr {t}, ptr addrspace(1) %in, i32 %lid",
           f"  %v = load {t}, ptr addrspace(1) %gp"]
    if ity:
        out.append(f"  %gi = getelementptr {ity}, ptr addrspace(1) %idx, i32 %lid")
        out.append(f"  %i = load {ity}, ptr addrspace(1) %gi")
    if divergent:
        out += ["  %b = and i32 %lid, 31", "  %bit = shl i32 1, %b",
                "  %on = and i32 %mask, %bit", "  %c = icmp ne i32 %on, 0",
                "  br i1 %c, label %then, label %exit", "then:"]
    for j, (isarg, call) in enumerate(calls):
        out.append(f"  %o{j} = add i32 %lid, {j * 64}")
        out.append(f"  %r{j} = {call}")
        if isarg:
            out.append(f"  %rv{j} = extractvalue {{{t}, {ity}}} %r{j}, 0")
            out.append(f"  %ri{j} = extractvalue {{{t}, {ity}}} %r{j}, 1")
            out.append(f"  %go{j} = getelementptr {t}, ptr addrspace(1) %out, i32 %o{j}")
            out.append(f"  store {t} %rv{j}, ptr addrspace(1) %go{j}")
            out.append(f"  %gi{j} = getelementptr {ity}, ptr addrspace(1) %outidx, i32 %o{j}")
            out.append(f"  store {ity} %ri{j}, ptr addrspace(1) %gi{j}")
        else:
            out.append(f"  %go{j} = getelementptr {t}, ptr addrspace(1) %out, i32 %o{j}")
            out.append(f"  store {t} %r{j}, ptr addrspace(1) %go{j}")
    if divergent:
        out += ["  br label %exit", "exit:"]
    out += ["  ret void", "}"]
    return decls, "\n".join(out)


def tname(t):
    return {"half": "f16", "bfloat": "bf16", "float": "f32",
            "double": "f64"}[t]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chip", default="gfx942")
    ap.add_argument("--wave64", action="store_true")
    ap.add_argument("--divergent", action="store_true")
    ap.add_argument("--no-nans", action="store_true",
                    help='add "no-nans-fp-math"="true" to the kernels')
    ap.add_argument("--all-reduce", metavar="CLUSTERS",
                    help="every reduce op x type for these cluster:stride "
                         "pairs, e.g. 64:1,4:2")
    ap.add_argument("specs", nargs="*")
    a = ap.parse_args()
    specs = list(a.specs)
    if a.all_reduce:
        for cs in a.all_reduce.split(","):
            c, s = cs.split(":")
            for ty in LLTY:
                for op in ops_for(ty):
                    specs.append(f"reduce:{op}:{ty}:{c}:{s}")
    sys.stdout.write(module_text(a.chip, a.wave64, a.divergent, a.no_nans,
                                 specs))


def module_text(chip, wave64, divergent, no_nans, specs):
    out = ['target triple = "amdgcn-amd-amdhsa"']
    seen = set()
    kernels = []
    for n, spec in enumerate(specs):
        if spec.startswith("multi:"):
            decls, k = multi_kernel(n, spec, divergent)
        else:
            decls, k = kernel(n, spec, divergent)
        for d in decls:
            if d not in seen:
                seen.add(d)
                out.append(d)
        kernels.append(k)
    out.append("declare i32 @llvm.amdgcn.workitem.id.x()")
    out.append("\n".join(kernels))
    feats = ' "target-features"="+wavefrontsize64"' if wave64 else ""
    if no_nans:
        feats += ' "no-nans-fp-math"="true"'
    out.append(f'attributes #0 = {{ "target-cpu"="{chip}"{feats} }}')
    text = "\n".join(out) + "\n"
    return vortex_module(text, no_nans) if chip == "vortex" else text


def vortex_module(text, no_nans):
    """The same kernels as Vortex (riscv32) code: plain functions marked
    "crosslane-vortex", the lane's thread index from CSR 0xCD3."""
    text = text.replace('target triple = "amdgcn-amd-amdhsa"',
                        'target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"\n'
                        'target triple = "riscv32-unknown-elf"')
    text = text.replace("define amdgpu_kernel void", "define void")
    text = text.replace("ptr addrspace(1)", "ptr")
    text = text.replace("call i32 @llvm.amdgcn.workitem.id.x()",
                        'call i32 asm "csrr $0, 0xcd3", "=r"()')
    text = text.replace("declare i32 @llvm.amdgcn.workitem.id.x()\n", "")
    attrs = ' "no-nans-fp-math"="true"' if no_nans else ""
    text = re.sub(r"attributes #0 = \{.*\}",
                  f'attributes #0 = {{ "crosslane-vortex"{attrs} }}', text)
    return text


if __name__ == "__main__":
    main()
