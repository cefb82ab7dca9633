#!/usr/bin/env python3
"""Counts the machine instructions an expansion adds to a kernel.

Reads llc assembly holding kernels k0 (with the operation) and k1 (the same
kernel with result = input, see gen.py copy/copyarg) and prints, for k0 - k1,
the VALU/SALU/other instruction counts. s_nop, s_waitcnt, s_delay_alu and
labels are not instructions that cost issue slots for this purpose and are
not counted.
"""
import re
import sys

SKIP = ("s_nop", "s_waitcnt", "s_delay_alu", "s_wait_", "s_endpgm",
        "s_set_inst_prefetch", ";")


def kernel_insts(asm, name):
    lines = asm.split("\n")
    out, inside = [], False
    for ln in lines:
        s = ln.strip()
        if s.startswith(name + ":"):
            inside = True
            continue
        if not inside:
            continue
        if s.startswith(".Lfunc_end"):
            break
        if not s or s.startswith(".") or s.endswith(":") or s.startswith(SKIP):
            continue
        out.append(s)
    return out


def classify(insts):
    c = {"valu": 0, "salu": 0, "other": 0}
    for i in insts:
        op = i.split()[0]
        if op.startswith(("v_readlane", "v_readfirstlane")) or op.startswith("v_"):
            c["valu"] += 1
        elif op.startswith("s_") and not op.startswith(("s_load", "s_store",
                                                         "s_buffer")):
            c["salu"] += 1
        else:
            c["other"] += 1
    return c


def main():
    asm = sys.stdin.read()
    a = classify(kernel_insts(asm, "k0"))
    b = classify(kernel_insts(asm, "k1"))
    d = {k: a[k] - b[k] for k in a}
    total = d["valu"] + d["salu"] + d["other"]
    dpp = sum(1 for i in kernel_insts(asm, "k0") if "_dpp" in i.split()[0])
    print(f"added: total={total} valu={d['valu']} salu={d['salu']} "
          f"other={d['other']} dpp={dpp}")


if __name__ == "__main__":
    main()
