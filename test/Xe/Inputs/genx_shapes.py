#!/usr/bin/env python3
"""Referee for the validator's shape rules (test/Xe/genx-shapes.test).

For each 2D read shape: Intel's side -- an LLVM 22 module calling IGC's
`llvm.genx.GenISA.LSC2DBlockRead` intrinsic with that shape (the per-lane
vector type IGC itself would use), compiled by ocloc for PVC; GenX_IR, the
vISA verifier, checks the dumped message -- and Crosslane's side -- the
same shape as `__spirv_Subgroup2DBlock*INTEL` through
`crosslane-xe-block-io<chip=pvc>`. Every shape Intel's tools reject must
be rejected by Crosslane (its rules are meant to be stricter: ocloc itself
accepts them all silently) or split into pieces, and then Intel's tools
must accept the piece. Prints one line per shape and a summary.

usage: genx_shapes.py OPT PLUGIN LLC WORKDIR
"""
import os
import re
import subprocess
import sys

# (element bits, W, H, count, transpose, vnni)
SHAPES = [
    (16, 16, 8, 2, 0, 0), (8, 32, 4, 2, 0, 0), (32, 16, 8, 1, 0, 0),
    (32, 8, 16, 2, 0, 0), (16, 16, 32, 1, 0, 0), (16, 16, 16, 1, 0, 1),
    (8, 16, 32, 1, 0, 1), (32, 8, 16, 1, 1, 0), (64, 4, 8, 1, 1, 0),
    (16, 16, 64, 1, 0, 0),   # 64 rows
    (16, 32, 8, 2, 0, 0),    # 128 bytes per row
    (32, 16, 8, 2, 0, 0),    # 32-bit W16 with 2 blocks
    (32, 8, 8, 4, 0, 0),     # 32-bit, 4 blocks
    (32, 8, 16, 2, 1, 0),    # transposed, 2 blocks
    (16, 16, 8, 8, 0, 0),    # 8 blocks
    (32, 16, 16, 1, 0, 1),   # 32-bit VNNI
    (16, 16, 8, 1, 1, 1),    # transposed and VNNI
    (16, 12, 8, 1, 0, 0),    # width 12
    (16, 16, 16, 1, 1, 0),   # 16-bit transpose
    (8, 64, 4, 1, 0, 0), (64, 8, 8, 1, 0, 0), (16, 32, 16, 1, 0, 1),
]


def lane_type(bits, w, h, c, t, v):
    """IGC's per-lane result type (research/xe-block-io.md §4.1)."""
    sg = 16
    if v:
        n = max(w * (h // (32 // bits)) // sg, 1) * c
        return n, 32
    n = max(c * h // max(sg // w, 1), c)
    return n, bits * max(w // sg, 1)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return r.returncode, r.stdout + r.stderr


def intel_verdict(llc, work, shape):
    bits, w, h, c, t, v = shape
    n, eb = lane_type(*shape)
    # SPIR-V vectors stop at 16 elements; the vISA message (what GenX_IR
    # checks) takes its shape from the operands, not from this type.
    n = min(n, 16)
    vt = f"<{n} x i{eb}>"
    fn = f"llvm.genx.GenISA.LSC2DBlockRead.v{n}i{eb}"
    ir = f"""target triple = "spirv64-unknown-unknown"
declare spir_func {vt} @{fn}(i64, i32, i32, i32, i32, i32, i32, i32, i32, i32, i1, i1)
define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {{
  %b = ptrtoint ptr addrspace(1) %in to i64
  %r = call spir_func {vt} @{fn}(i64 %b, i32 255, i32 63, i32 255, i32 0, i32 0, i32 {bits}, i32 {w}, i32 {h}, i32 {c}, i1 {'true' if t else 'false'}, i1 {'true' if v else 'false'})
  %e = extractelement {vt} %r, i32 0
  store i{eb} %e, ptr addrspace(1) %out
  ret void
}}
!0 = !{{i32 16}}
"""
    name = f"s{bits}_{w}x{h}x{c}{'t' if t else ''}{'v' if v else ''}"
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "g.ll"), "w").write(ir)
    code, out = run([llc, "-mtriple=spirv64-unknown-unknown", "-filetype=obj",
                     "g.ll", "-o", "g.spv"], cwd=d)
    if code:  # SPIR-V vectors stop at 16 elements
        return "unchecked (llc: lane vector too wide)", name
    env = dict(os.environ, IGC_ShaderDumpEnable="1",
               IGC_DumpToCustomDir=os.path.join(d, "dump"))
    code, out = run(["ocloc", "compile", "-file", "g.spv", "-spirv_input",
                     "-device", "pvc", "--format", "zebin", "-out_dir", d,
                     "-output", "g"], cwd=d, env=env)
    if code:
        return "rejected by ocloc", name
    dump = os.path.join(d, "dump")
    visa = [f for f in os.listdir(dump) if f.endswith(".visaasm")] \
        if os.path.isdir(dump) else []
    if not visa:
        return "no vISA", name
    for f in visa:
        src = open(os.path.join(dump, f)).read()
        if "block2d" not in src:
            return "no 2D message", name
        open(os.path.join(d, "c.visaasm"), "w").write(src)
        code, out = run(["GenX_IR", "c.visaasm", "-platform", "PVC",
                         "-output"], cwd=d)
        if code:
            err = os.path.join(d, "c.errors.txt")
            why = open(err).read().strip().splitlines()[-1] \
                if os.path.exists(err) else "rejected"
            return "rejected by GenX_IR: " + why.strip(" *"), name
    return "accepted", name


def crosslane_verdict(opt, plugin, work, shape, name):
    bits, w, h, c, t, v = shape
    op = "LoadTranspose" if t else "LoadTransform" if v else "Load"
    if t and v:
        return "rejected (no transposed VNNI form)"
    fn = f"__spirv_Subgroup2DBlock{op}INTEL"
    ir = f"""target triple = "spirv64-unknown-unknown"
declare spir_func void @{fn}(i32, i32, i32, i32, ptr addrspace(1), i32, i32, i32, <2 x i32>, ptr)
define spir_kernel void @k(ptr addrspace(1) align 64 %a) !intel_reqd_sub_group_size !0 {{
  %buf = alloca [512 x i8], align 64
  call spir_func void @{fn}(i32 {bits // 8}, i32 {w}, i32 {h}, i32 {c}, ptr addrspace(1) %a, i32 256, i32 64, i32 256, <2 x i32> zeroinitializer, ptr %buf)
  ret void
}}
!0 = !{{i32 16}}
"""
    path = os.path.join(work, name, "x.ll")
    open(path, "w").write(ir)
    code, out = run([opt, f"-load-pass-plugin={plugin}",
                     "-passes=crosslane-xe-block-io<chip=pvc>",
                     "-pass-remarks=crosslane-xe-block-io",
                     "-disable-output", path])
    if code:
        msg = [l for l in out.splitlines() if "error:" in l]
        return "rejected: " + (msg[0].split("pvc: ")[-1] if msg else "?")
    m = re.search(r"split into (\d+) x \S+ (\d+)b_(\d+)r(\d+)x(\d+)c", out)
    if m:
        n, pb, ph, pw, pc = (int(g) for g in m.groups())
        return f"split into {n} x {pb}b_{ph}r{pw}x{pc}c", (pb, pw, ph, pc, t, v)
    return "accepted"


def main():
    opt, plugin, llc, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    bad = 0
    intel_rejects = 0
    splits = 0
    for shape in SHAPES:
        iv, name = intel_verdict(llc, work, shape)
        cv = crosslane_verdict(opt, plugin, work, shape, name)
        piece_ok = True
        if isinstance(cv, tuple):  # split: Intel's tools referee the piece
            cv, piece = cv
            pv, _ = intel_verdict(llc, work, piece)
            piece_ok = not pv.startswith("rejected")
            cv += " (piece " + ("accepted" if piece_ok else pv) + ")"
            splits += 1
        intel_bad = iv.startswith("rejected")
        intel_rejects += intel_bad
        ok = piece_ok and (not intel_bad or not cv.startswith("accepted"))
        bad += not ok
        print(f"{'ok  ' if ok else 'MISS'} {name:<16} intel: {iv:<60} "
              f"crosslane: {cv}")
    print(f"genx-shapes: {len(SHAPES)} shapes, {intel_rejects} rejected by "
          f"Intel's tools, {splits} split by Crosslane into pieces Intel's "
          f"tools accept, {bad} wrong (an Intel-rejected shape emitted as "
          f"is, or a piece Intel rejects)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
