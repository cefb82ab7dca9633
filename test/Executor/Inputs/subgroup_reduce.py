#!/usr/bin/env python3
"""MLIR gpu.subgroup_reduce validation inputs.

--mlir W: functions @r_<op>_<ty>_c<size> doing gpu.subgroup_reduce with
  cluster sizes 2..min(64, W) (a cluster of W is the whole-subgroup form).
--wrapper W: an amdgcn kernel @k(in_i32, in_f32, out_i32, out_f32) calling
  every function (to be linked with the lowered MLIR) and storing the result
  of function f in lane i at out[f*W + i].
--reference W: the same kernel computing each clustered reduction serially
  from LDS (no cross-lane intrinsics), in cluster lane order.
"""
import sys

INT_OPS = [("add", "add i32 {a}, {b}"), ("mul", "mul i32 {a}, {b}"),
           ("maxsi", "call i32 @llvm.smax.i32(i32 {a}, i32 {b})"),
           ("minui", "call i32 @llvm.umin.i32(i32 {a}, i32 {b})"),
           ("and", "and i32 {a}, {b}"), ("or", "or i32 {a}, {b}"),
           ("xor", "xor i32 {a}, {b}")]
F_OPS = [("add", "fadd float {a}, {b}"),
         ("maximumf", "call float @llvm.maximum.f32(float {a}, float {b})"),
         ("minimumf", "call float @llvm.minimum.f32(float {a}, float {b})")]
HEAD = """target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare float @llvm.maximum.f32(float, float)
declare float @llvm.minimum.f32(float, float)
"""


def funcs(w):
    fs = []
    c = 2
    while c <= min(64, w):
        for op, _ in INT_OPS:
            fs.append(("i32", op, c))
        for op, _ in F_OPS:
            fs.append(("f32", op, c))
        c *= 2
    return fs


def name(f):
    ty, op, c = f
    return f"r_{op}_{ty}_c{c}"


def mlir(w):
    out = []
    for f in funcs(w):
        ty, op, c = f
        t = "i32" if ty == "i32" else "f32"
        out.append(f"func.func @{name(f)}(%x: {t}) -> {t} {{\n"
                   f"  %r = gpu.subgroup_reduce {op} %x cluster(size = {c}) : ({t}) -> {t}\n"
                   f"  return %r : {t}\n}}")
    return "\n".join(out) + "\n"


def kernel(w, ref):
    fs = funcs(w)
    L = [HEAD]
    if ref:
        L.append(f"@lds_i = internal addrspace(3) global [{w} x i32] poison, align 4")
        L.append(f"@lds_f = internal addrspace(3) global [{w} x float] poison, align 4")
    else:
        for f in fs:
            t = "i32" if f[0] == "i32" else "float"
            L.append(f"declare {t} @{name(f)}({t})")
    L.append("define amdgpu_kernel void @k(ptr addrspace(1) %ini, ptr addrspace(1) %inf, "
             "ptr addrspace(1) %outi, ptr addrspace(1) %outf) {")
    L.append("entry:")
    L.append("  %lane = call i32 @llvm.amdgcn.workitem.id.x()")
    L.append("  %pi = getelementptr i32, ptr addrspace(1) %ini, i32 %lane")
    L.append("  %xi = load i32, ptr addrspace(1) %pi, align 4")
    L.append("  %pf = getelementptr float, ptr addrspace(1) %inf, i32 %lane")
    L.append("  %xf = load float, ptr addrspace(1) %pf, align 4")
    if ref:
        L.append(f"  %li = getelementptr [{w} x i32], ptr addrspace(3) @lds_i, i32 0, i32 %lane")
        L.append("  store i32 %xi, ptr addrspace(3) %li, align 4")
        L.append(f"  %lf = getelementptr [{w} x float], ptr addrspace(3) @lds_f, i32 0, i32 %lane")
        L.append("  store float %xf, ptr addrspace(3) %lf, align 4")
        L.append("  call void @llvm.amdgcn.s.barrier()")
    cnt = {"i32": 0, "f32": 0}
    for n, f in enumerate(fs):
        ty, op, c = f
        t = "i32" if ty == "i32" else "float"
        if not ref:
            L.append(f"  %r{n} = call {t} @{name(f)}({t} %x{'i' if ty == 'i32' else 'f'})")
        else:
            tmpl = dict(INT_OPS if ty == "i32" else F_OPS)[op]
            arr = "@lds_i" if ty == "i32" else "@lds_f"
            L.append(f"  %b{n} = and i32 %lane, {-c}")
            acc = None
            for j in range(c):
                L.append(f"  %e{n}_{j} = add i32 %b{n}, {j}")
                L.append(f"  %q{n}_{j} = getelementptr [{w} x {t}], ptr addrspace(3) {arr}, i32 0, i32 %e{n}_{j}")
                L.append(f"  %v{n}_{j} = load {t}, ptr addrspace(3) %q{n}_{j}, align 4")
                if acc is None:
                    acc = f"%v{n}_{j}"
                else:
                    L.append(f"  %a{n}_{j} = " + tmpl.format(a=acc, b=f"%v{n}_{j}"))
                    acc = f"%a{n}_{j}"
            L.append(f"  %r{n} = {'add i32' if ty == 'i32' else 'fadd float'} {acc}, {'0' if ty == 'i32' else '-0.0'}")
        k = cnt[ty]
        cnt[ty] += 1
        out = "%outi" if ty == "i32" else "%outf"
        L.append(f"  %o{n} = add i32 %lane, {k * w}")
        L.append(f"  %op{n} = getelementptr {t}, ptr addrspace(1) {out}, i32 %o{n}")
        L.append(f"  store {t} %r{n}, ptr addrspace(1) %op{n}, align 4")
    L.append("  ret void\n}")
    return "\n".join(L) + "\n"


mode, w = sys.argv[1], int(sys.argv[2])
if mode == "--mlir":
    sys.stdout.write(mlir(w))
elif mode == "--wrapper":
    sys.stdout.write(kernel(w, False))
elif mode == "--reference":
    sys.stdout.write(kernel(w, True))
else:
    sys.stdout.write(f"{len([f for f in funcs(w) if f[0]=='i32'])*w} {len([f for f in funcs(w) if f[0]=='f32'])*w}\n")
