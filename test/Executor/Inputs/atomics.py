#!/usr/bin/env python3
"""Kernel with atomicrmw add/sub/min/max/umin/umax/and/or/xor (i32 and i64)
from every lane (uniform active set) and from lanes with lane % 3 == 0
(divergent), for the LLVM atomic-optimizer validation. With --used each
lane stores the value its atomic returned."""
import sys

OPS = ["add", "sub", "min", "max", "umin", "umax", "and", "or", "xor"]
TYPES = [("i32", "%v32", "%acc32", "%res32", 4), ("i64", "%v64", "%acc64", "%res64", 8)]
if "--float" in sys.argv:
    # Floating-point variant: the buffers hold float and double.
    # fsub is left out: the optimiser computes old - (a + b), which differs
    # from (old - a) - b in the sign of zero results and on overflow.
    OPS = ["fadd", "fmax", "fmin"]
    TYPES = [("float", "%v32", "%acc32", "%res32", 4),
             ("double", "%v64", "%acc64", "%res64", 8)]
used = "--used" in sys.argv
lines = ["""declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

define amdgpu_kernel void @atomics(ptr addrspace(1) %in32, ptr addrspace(1) %in64,
    ptr addrspace(1) %acc32, ptr addrspace(1) %acc64, ptr addrspace(1) %res32,
    ptr addrspace(1) %res64, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %wg, %n
  %gid = add i32 %base, %tid
  %inb = icmp ult i32 %tid, %n
  br i1 %inb, label %body, label %exit

body:
  %p32 = getelementptr i32, ptr addrspace(1) %in32, i32 %gid
  %v32 = load {T32}, ptr addrspace(1) %p32, align 4
  %p64 = getelementptr {T64}, ptr addrspace(1) %in64, i32 %gid
  %v64 = load {T64}, ptr addrspace(1) %p64, align 8"""
         .replace("{T32}", TYPES[0][0]).replace("{T64}", TYPES[1][0])]


def emit(prefix, slot0):
    for k, op in enumerate(OPS):
        for ty, v, acc, res, sz in TYPES:
            s = slot0 + k
            n = f"{prefix}{op}{ty}"
            lines.append(f"  %a.{n} = getelementptr {ty}, ptr addrspace(1) {acc}, i32 {s}")
            lines.append(f"  %o.{n} = atomicrmw {op} ptr addrspace(1) %a.{n}, {ty} {v} "
                         f"syncscope(\"agent\") monotonic, align {sz}")
            if used:
                lines.append(f"  %ri.{n} = mul i32 %gid, {2 * len(OPS)}")
                lines.append(f"  %rj.{n} = add i32 %ri.{n}, {s}")
                lines.append(f"  %r.{n} = getelementptr {ty}, ptr addrspace(1) {res}, i32 %rj.{n}")
                lines.append(f"  store {ty} %o.{n}, ptr addrspace(1) %r.{n}, align {sz}")


emit("u", 0)
lines.append("""  %m = urem i32 %tid, 3
  %d = icmp eq i32 %m, 0
  br i1 %d, label %div, label %exit

div:""")
emit("d", len(OPS))
lines.append("""  br label %exit

exit:
  ret void
}""")
print("\n".join(lines))
