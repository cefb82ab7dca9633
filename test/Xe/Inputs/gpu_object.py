#!/usr/bin/env python3
"""gpu_object.py IN.mlir OUT [FIELD]: writes the payload of the first
#gpu.object in IN.mlir (what mlir-opt's --gpu-lower-to-xevm-pipeline with
binary-format=llvm leaves in a gpu.binary: FIELD 'offload', LLVM bitcode;
with binary-format=isa: 'assembly', SPIR-V text) to OUT, decoding MLIR's
string escapes (\\XX hex, \\\\, \\", \\n, \\t)."""
import re
import sys


def payload(text, field):
    m = re.search(r"#gpu\.object<.*?\b%s = \"" % re.escape(field), text,
                  re.S)
    if not m:
        sys.exit("no #gpu.object with a '%s' payload" % field)
    out, i = bytearray(), m.end()
    simple = {"\\": 0x5C, '"': 0x22, "n": 0x0A, "t": 0x09}
    while text[i] != '"':
        if text[i] != "\\":
            out += text[i].encode()
            i += 1
        elif text[i + 1] in simple:
            out.append(simple[text[i + 1]])
            i += 2
        else:
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
    return bytes(out)


if __name__ == "__main__":
    field = sys.argv[3] if len(sys.argv) > 3 else "offload"
    data = payload(open(sys.argv[1], encoding="latin-1").read(), field)
    open(sys.argv[2], "wb").write(data)
