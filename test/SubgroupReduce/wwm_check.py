#!/usr/bin/env python3
"""Checks that whole-wave regions in llc assembly hold no memory accesses.

A whole-wave region starts at `s_or_saveexec_b{32,64} <sdst>, -1` and ends
at the `s_mov_b{32,64} exec[_lo], ...` that restores the mask. Crosslane
only lets values into such a region through llvm.amdgcn.set.inactive; a
load (or store) inside one means code the program guarded by a branch ran
in the lanes the branch switched off. Scalar loads are reported too: a
region is meant to hold lane moves and arithmetic only.

Prints one line per kernel (regions, memory instructions inside them) and a
summary. ds_swizzle/ds_bpermute/ds_permute are lane moves, not accesses.
Only kernels (.amdhsa_kernel) are reported when the file declares any.
Exits 1 if a kernel has a memory access in a region, or has no region at
all (the check would prove nothing) unless --allow-empty.
"""
import re
import sys

ENTER = re.compile(r"s_or_saveexec_b(32|64)\s+\S+,\s*-1\b")
LEAVE = re.compile(r"s_mov_b(32|64)\s+exec(_lo)?\s*,")
MEMORY = re.compile(r"^(global_|flat_|buffer_|scratch_|s_load|s_buffer_load|"
                    r"s_store|ds_(?!swizzle|bpermute|permute))")
LABEL = re.compile(r"^([A-Za-z_][\w.$]*):")


def scan(lines):
    kernels, name, inside = {}, None, False
    for ln in lines:
        s = ln.split(";")[0].strip()
        m = LABEL.match(s)
        if m and not s.startswith("."):
            name = m.group(1)
            kernels[name] = [0, []]
            inside = False
            continue
        if name is None or not s:
            continue
        if ENTER.search(s):
            inside = True
            kernels[name][0] += 1
            continue
        if inside and LEAVE.search(s):
            inside = False
            continue
        # Register spills in a region are the compiler's own scratch traffic.
        if inside and MEMORY.match(s) and "Spill" not in ln and "Reload" not in ln:
            kernels[name][1].append(s)
    return kernels


def main():
    allow_empty = "--allow-empty" in sys.argv
    files = [a for a in sys.argv[1:] if not a.startswith("--")]
    lines = []
    for f in files:
        with open(f) as fh:
            lines += fh.read().split("\n")
    kernels = scan(lines)
    declared = {l.split()[1] for l in lines
                if l.strip().startswith(".amdhsa_kernel ")}
    if declared:
        kernels = {k: v for k, v in kernels.items() if k in declared}
    bad, empty = 0, 0
    for name, (regions, mem) in kernels.items():
        print(f"{name}: regions={regions} memory={len(mem)}")
        for s in mem:
            print(f"  {s}")
        bad += bool(mem)
        empty += regions == 0
    print(f"kernels={len(kernels)} without-regions={empty} "
          f"with-memory-in-wwm={bad}")
    return 1 if (bad or (empty and not allow_empty)) else 0


if __name__ == "__main__":
    sys.exit(main())
