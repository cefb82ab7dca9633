#!/usr/bin/env python3
"""Per-control DPP / cross-lane lane tables for crosslane-run.

--emit-ir: writes a kernel that applies every control to src = lane + 1 with
old = 1000 + lane and stores the result of case c for lane i at out[c*W + i].
--check: reads crosslane-run's "arg0[K] = V" lines from stdin and compares
them with the table computed here from the ISA description (AMD GCN/RDNA
ISA manuals; LLVM AMDGPUModifierSyntax.rst; research notes §1.1, §1.2, §1.4;
for GFX12's permlane16.var/permlanex16.var, whose lane selects are per-lane
values, the pseudocode of V_PERMLANE(X)16_VAR_B32 in the RDNA4 ISA guide),
independently of the executor's C++ code.
"""
import argparse
import sys

GFX9 = {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950"}
NEWBCAST = {"gfx90a", "gfx942", "gfx950"}


def chip_family(chip):
    return 9 if chip in GFX9 else int(chip[3:-2])


def cases(chip, wave):
    """(kind, params) tuples legal on chip."""
    fam = chip_family(chip)
    cs = []
    quad = [0xE4, 0xB1, 0x4E, 0x1B, 0xFF, 0x00, 0x39, 0x93]
    ctrls = list(quad)
    ctrls += [0x100 + n for n in range(1, 16)]  # row_shl
    ctrls += [0x110 + n for n in range(1, 16)]  # row_shr
    ctrls += [0x120 + n for n in range(1, 16)]  # row_ror
    ctrls += [0x140, 0x141]                      # mirrors
    if fam == 9:
        ctrls += [0x130, 0x134, 0x138, 0x13C, 0x142, 0x143]
    if fam >= 10 or chip in NEWBCAST:
        ctrls += [0x150 + n for n in range(16)]  # row_share / row_newbcast
    if fam >= 10:
        ctrls += [0x160 + n for n in range(16)]  # row_xmask
    for c in ctrls:
        cs.append(("dpp", c, 0xF, 0xF, 0))
    # Mask and bound_ctrl variants on a few controls.
    for c in [0x111, 0x101, 0x118, 0x140, 0xB1] + ([0x142, 0x143, 0x138, 0x130]
                                                   if fam == 9 else [0x161, 0x15F]):
        for rm, bm, bc in [(0xF, 0xF, 1), (0xA, 0xF, 0), (0xA, 0xF, 1),
                           (0xF, 0x5, 0), (0x3, 0x6, 1), (0xC, 0xF, 0)]:
            cs.append(("dpp", c, rm, bm, bc))
    if fam >= 10:
        for sel in [0xFAC688, 0x0, 0xFFFFFF, 0x053977]:
            cs.append(("dpp8", sel))
        for lo, hi in [(0x76543210, 0xFEDCBA98), (0, 0), (-1, -1),
                       (0x01234567, 0x89ABCDEF)]:
            cs.append(("permlane16", lo, hi))
            cs.append(("permlanex16", lo, hi))
    if fam >= 11 and wave == 64:
        cs.append(("permlane64",))
    if fam >= 12:
        # Per-lane selects sel_i = lane * mul + add: the bits above 3 vary
        # too and must be ignored.
        for mul, add in [(1, 0), (15, 0), (7, 3), (37, 250), (0, 9),
                         (0x10001, 0x7ffffff0)]:
            cs.append(("permlane16var", mul, add))
            cs.append(("permlanex16var", mul, add))
    for off in [0x041F, 0x081F, 0x101F, 0x201F, 0x401F, 0x1E0, 0x3E0, 0x8000 | 0xB1,
                0x8000 | 0x1B, 0x0C1F | (3 << 5)]:
        cs.append(("swizzle", off))
    if fam >= 9:
        # Rotate (0xC000 | dir << 10 | count << 5 | mask) and FFT (0xE000 |
        # mask), GFX9+.
        for off in [0xC020, 0xC420, 0xC060 | 3, 0xC7E0, 0xC400 | (5 << 5) | 0x10,
                    0xE000, 0xE001, 0xE005, 0xE01F, 0xE010]:
            cs.append(("swizzle", off))
    for kind in ["bpermute_xor1", "bpermute_rev", "bpermute_xor32"]:
        cs.append((kind,))
    cs.append(("readlane", 5))
    cs.append(("readlane", wave - 1))
    return cs


def dpp_src(ctrl, i, w):
    r, j = divmod(i, 16)
    if ctrl <= 0xFF:
        return 16 * r + 4 * (j // 4) + ((ctrl >> (2 * (j % 4))) & 3)
    if 0x101 <= ctrl <= 0x10F:
        k = ctrl - 0x100
        return i + k if j + k <= 15 else None
    if 0x111 <= ctrl <= 0x11F:
        k = ctrl - 0x110
        return i - k if j - k >= 0 else None
    if 0x121 <= ctrl <= 0x12F:
        return 16 * r + (j - (ctrl - 0x120)) % 16
    if ctrl == 0x130:
        return i + 1 if i + 1 < w else None
    if ctrl == 0x134:
        return (i + 1) % w
    if ctrl == 0x138:
        return i - 1 if i > 0 else None
    if ctrl == 0x13C:
        return (i - 1) % w
    if ctrl == 0x140:
        return 16 * r + 15 - j
    if ctrl == 0x141:
        return 16 * r + (7 - j if j < 8 else 23 - j)
    if ctrl == 0x142:
        return 16 * r - 1 if r > 0 else None
    if ctrl == 0x143:
        return 31 if r >= 2 else None
    if 0x150 <= ctrl <= 0x15F:
        return 16 * r + ctrl - 0x150
    if 0x160 <= ctrl <= 0x16F:
        return 16 * r + (j ^ (ctrl - 0x160))
    raise ValueError(hex(ctrl))


def expected(case, w, chip):
    src = [i + 1 for i in range(w)]
    old = [1000 + i for i in range(w)]
    out = []
    kind = case[0]
    for i in range(w):
        r, j = divmod(i, 16)
        if kind == "dpp":
            _, ctrl, rm, bm, bc = case
            if not (rm >> r) & 1 or not (bm >> (j // 4)) & 1:
                out.append(old[i])
                continue
            s = dpp_src(ctrl, i, w)
            if s is None:
                out.append(0 if bc else old[i])
            else:
                out.append(src[s])
        elif kind == "dpp8":
            sel = case[1]
            out.append(src[8 * (i // 8) + ((sel >> (3 * (i % 8))) & 7)])
        elif kind in ("permlane16", "permlanex16"):
            lo, hi = case[1] & 0xFFFFFFFF, case[2] & 0xFFFFFFFF
            sel = (hi << 32) | lo
            row = r ^ 1 if kind == "permlanex16" else r
            out.append(src[16 * row + ((sel >> (4 * j)) & 15)])
        elif kind == "permlane64":
            out.append(src[i ^ 32])
        elif kind in ("permlane16var", "permlanex16var"):
            # RDNA4 ISA V_PERMLANE(X)16_VAR_B32: tmp[row * 16 +
            # VGPR[lane][SRC1][3:0]], row replaced by {row[1], ~row[0]}.
            sel = (i * case[1] + case[2]) & 0xFFFFFFFF
            row = r ^ 1 if kind == "permlanex16var" else r
            out.append(src[16 * row + (sel & 15)])
        elif kind == "swizzle":
            off = case[1]
            if off >= 0xE000:
                # The ISA guide's FFT pseudocode (5-bit lane reversal).
                mask = off & 0x1F
                j = int(format(i & 0x1F, "05b")[::-1], 2)
                j = j >> bin(mask).count("1")
                j |= i & mask
                j |= i & 0x20
                out.append(src[j])
            elif off >= 0xC000:
                # The ISA guide's rotate pseudocode, inside 32 lanes.
                rot, mask = (off >> 5) & 0x1F, off & 0x1F
                if off & 0x400:
                    rot = -rot
                j = ((i & mask) | ((i + rot) & ~mask)) & 0x1F
                j |= i & 0x20
                out.append(src[j])
            elif off & 0x8000:
                out.append(src[4 * (i // 4) + ((off >> (2 * (i % 4))) & 3)])
            else:
                a, o, x = off & 31, (off >> 5) & 31, (off >> 10) & 31
                out.append(src[32 * (i // 32) + (((i % 32) & a) | o) ^ x])
        elif kind.startswith("bpermute"):
            t = {"bpermute_xor1": i ^ 1, "bpermute_rev": w - 1 - i,
                 "bpermute_xor32": (i ^ 32) % w}[kind]
            if chip_family(chip) >= 10 and w == 64:
                t = (i & 32) | (t & 31)  # cannot cross 32-lane halves
            out.append(src[t])
        elif kind == "readlane":
            out.append(src[case[1]])
    return out


def emit_ir(chip, w, cs):
    decl = """declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp8.i32(i32, i32)
declare i32 @llvm.amdgcn.permlane16.i32(i32, i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.permlanex16.i32(i32, i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.permlane64.i32(i32)
declare i32 @llvm.amdgcn.permlane16.var(i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.permlanex16.var(i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
"""
    body = ["define amdgpu_kernel void @lanes(ptr addrspace(1) %out) {",
            "entry:",
            "  %lane = call i32 @llvm.amdgcn.workitem.id.x()",
            "  %src = add i32 %lane, 1",
            "  %old = add i32 %lane, 1000"]
    for n, c in enumerate(cs):
        k = c[0]
        if k == "dpp":
            _, ctrl, rm, bm, bc = c
            v = (f"call i32 @llvm.amdgcn.update.dpp.i32(i32 %old, i32 %src, "
                 f"i32 {ctrl}, i32 {rm}, i32 {bm}, i1 {'true' if bc else 'false'})")
        elif k == "dpp8":
            v = f"call i32 @llvm.amdgcn.mov.dpp8.i32(i32 %src, i32 {c[1]})"
        elif k in ("permlane16", "permlanex16"):
            v = (f"call i32 @llvm.amdgcn.{k}.i32(i32 %old, i32 %src, i32 {c[1]}, "
                 f"i32 {c[2]}, i1 false, i1 false)")
        elif k == "permlane64":
            v = "call i32 @llvm.amdgcn.permlane64.i32(i32 %src)"
        elif k in ("permlane16var", "permlanex16var"):
            body.append(f"  %m{n} = mul i32 %lane, {c[1]}")
            body.append(f"  %s{n} = add i32 %m{n}, {c[2]}")
            name = k.replace("var", ".var")
            v = (f"call i32 @llvm.amdgcn.{name}(i32 %old, i32 %src, i32 %s{n}, "
                 f"i1 false, i1 false)")
        elif k == "swizzle":
            v = f"call i32 @llvm.amdgcn.ds.swizzle(i32 %src, i32 {c[1]})"
        elif k.startswith("bpermute"):
            expr = {"bpermute_xor1": f"xor i32 %lane, 1",
                    "bpermute_rev": f"sub i32 {w - 1}, %lane",
                    "bpermute_xor32": f"xor i32 %lane, 32"}[k]
            body.append(f"  %t{n} = {expr}")
            body.append(f"  %a{n} = shl i32 %t{n}, 2")
            v = f"call i32 @llvm.amdgcn.ds.bpermute(i32 %a{n}, i32 %src)"
        elif k == "readlane":
            v = f"call i32 @llvm.amdgcn.readlane.i32(i32 %src, i32 {c[1]})"
        body.append(f"  %r{n} = {v}")
        body.append(f"  %i{n} = add i32 %lane, {n * w}")
        body.append(f"  %p{n} = getelementptr i32, ptr addrspace(1) %out, i32 %i{n}")
        body.append(f"  store i32 %r{n}, ptr addrspace(1) %p{n}, align 4")
    body += ["  ret void", "}"]
    return decl + "\n".join(body) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chip", required=True)
    ap.add_argument("--wave", type=int, required=True)
    ap.add_argument("--emit-ir", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    cs = cases(a.chip, a.wave)
    if a.emit_ir:
        sys.stdout.write(emit_ir(a.chip, a.wave, cs))
        return 0
    got = {}
    for line in sys.stdin:
        if line.startswith("arg0["):
            k, v = line.split("=")
            got[int(k.strip()[5:-1])] = int(v)
    bad = 0
    for n, c in enumerate(cs):
        exp = expected(c, a.wave, a.chip)
        for i in range(a.wave):
            g = got.get(n * a.wave + i)
            if g != exp[i]:
                bad += 1
                if bad < 20:
                    print(f"MISMATCH case {c} lane {i}: got {g} expected {exp[i]}")
    print(f"checked {len(cs)} controls x {a.wave} lanes on {a.chip}: {bad} mismatches")
    print(f"cases={len(cs)} buffer={len(cs) * a.wave}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
