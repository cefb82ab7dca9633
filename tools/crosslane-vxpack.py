#!/usr/bin/env python3
# ===- crosslane-vxpack.py - Pack Vortex device code for clang -------------===#
#
# Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
#
# ===-----------------------------------------------------------------------===#
"""Pack a Vortex kernel image into the container Crosslane's HIP runtime
(libcrosslane_hip_vortex.so) reads, for clang's -fcuda-include-gpubinary.

  crosslane-vxpack.py --elf kernel.elf --vxbin kernel.vxbin \\
      --config-dir <vortex>/prebuilt/default --llvm-bin /usr/lib/llvm-22/bin \\
      -o kernel.fatbin

The kernel ELF's .crosslane.vortex.meta section describes the kernels and
variables (NUL bytes count as line breaks):

  kernel <name> <args_size> <args_align> <lmem_static> <nparams>
  param <index> <offset> <size>            (nparams of them)
  param <index> <offset> <size> <nfields> <host_size>
  field <host_offset> <offset> <size>      (nfields of them: a struct whose
                                           host layout differs)
  var <name> <size>

The packer gives each variable the address of its ELF symbol and writes

  0:  char magic[8] = "CLVXFAT1"
  8:  u32 header_size (32)      12: u32 meta_size
  16: u64 image_size            24: u32 config_size     28: u32 reserved (0)
  32: config directory, meta text (var <name> 0x<address> <size>), image

all little-endian. The section may be absent (no kernels, no variables).
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile

META_SECTION = ".crosslane.vortex.meta"
MAGIC = b"CLVXFAT1"
HEADER_SIZE = 32


class PackError(Exception):
    pass


def run(argv):
    """Runs a tool and returns its standard output; raises PackError."""
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
    except OSError as err:
        raise PackError("cannot run %s: %s" % (argv[0], err))
    if proc.returncode != 0:
        raise PackError("%s failed: %s" % (" ".join(argv),
                                           proc.stderr.strip()))
    return proc.stdout


def has_section(llvm_bin, elf):
    out = run([os.path.join(llvm_bin, "llvm-readelf"), "-S", "-W", elf])
    return any(META_SECTION in line.split() for line in out.splitlines())


def read_meta_section(llvm_bin, elf):
    """The meta section's text, or "" when the ELF has none."""
    if not has_section(llvm_bin, elf):
        return ""
    with tempfile.TemporaryDirectory(prefix="crosslane-vxpack-") as tmp:
        dump = os.path.join(tmp, "meta")
        # Writing a scratch copy keeps the input ELF untouched.
        run([os.path.join(llvm_bin, "llvm-objcopy"),
             "--dump-section=%s=%s" % (META_SECTION, dump), elf,
             os.path.join(tmp, "scratch.elf")])
        with open(dump, "rb") as f:
            data = f.read()
    try:
        return data.replace(b"\0", b"\n").decode("utf-8")
    except UnicodeDecodeError:
        raise PackError("%s of %s is not UTF-8 text" % (META_SECTION, elf))


def read_symbols(llvm_bin, elf):
    """Maps each defined symbol of the ELF to (address, size)."""
    out = run([os.path.join(llvm_bin, "llvm-nm"), "--defined-only", "-P",
               "-t", "x", elf])
    symbols = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3:
            size = int(fields[3], 16) if len(fields) >= 4 else 0
            symbols.setdefault(fields[0], (int(fields[2], 16), size))
    return symbols


def parse_number(text, what):
    try:
        value = int(text, 0)
    except ValueError:
        value = -1
    if value < 0:
        raise PackError("%s: '%s' is not a non-negative number" % (what, text))
    return value


def resolve_var(fields, symbols, where):
    if len(fields) != 3:
        raise PackError("%s: expected 'var <name> <size>'" % where)
    name = fields[1]
    size = parse_number(fields[2], where)
    if name not in symbols:
        raise PackError("%s: variable %s has no symbol in the ELF" %
                        (where, name))
    address, sym_size = symbols[name]
    if sym_size and sym_size != size:
        raise PackError("%s: variable %s is %d bytes in the meta but its "
                        "symbol is %d bytes" % (where, name, size, sym_size))
    return "var %s 0x%x %d" % (name, address, size)


def check_kernel(fields, where):
    if len(fields) != 6:
        raise PackError("%s: expected 'kernel <name> <args_size> "
                        "<args_align> <lmem_static> <nparams>'" % where)
    for text in fields[2:]:
        parse_number(text, where)
    return fields[1], parse_number(fields[5], where)


def check_param(fields, where):
    """Returns the number of field records that follow."""
    if len(fields) not in (4, 6):
        raise PackError("%s: expected 'param <index> <offset> <size> "
                        "[<nfields> <host_size>]'" % where)
    for text in fields[1:]:
        parse_number(text, where)
    return parse_number(fields[4], where) if len(fields) == 6 else 0


def check_field(fields, where):
    if len(fields) != 4:
        raise PackError("%s: expected 'field <host_offset> <offset> <size>'"
                        % where)
    for text in fields[1:]:
        parse_number(text, where)


def translate_meta(text, symbols):
    """Checks the section's records and resolves variable addresses."""
    lines, kernels, params_left, fields_left = [], [], 0, 0
    for number, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if not line:
            continue
        where = "%s line %d" % (META_SECTION, number)
        fields = line.split()
        if fields[0] == "field":
            if not fields_left:
                raise PackError("%s: field record outside a struct parameter"
                                % where)
            check_field(fields, where)
            fields_left -= 1
            lines.append(" ".join(fields))
            continue
        if fields_left:
            raise PackError("%s: %d field records missing" % (where, fields_left))
        if fields[0] != "param" and params_left:
            raise PackError("%s: kernel %s lacks %d param records" %
                            (where, kernels[-1], params_left))
        if fields[0] == "kernel":
            name, params_left = check_kernel(fields, where)
            if name in kernels:
                raise PackError("%s: kernel %s described twice" % (where, name))
            kernels.append(name)
        elif fields[0] == "param":
            if not params_left:
                raise PackError("%s: param record outside a kernel" % where)
            fields_left = check_param(fields, where)
            params_left -= 1
        elif fields[0] == "var":
            line = resolve_var(fields, symbols, where)
        else:
            raise PackError("%s: unknown record '%s'" % (where, fields[0]))
        lines.append(" ".join(line.split()))
    if params_left:
        raise PackError("%s: kernel %s lacks %d param records" %
                        (META_SECTION, kernels[-1], params_left))
    return "".join(l + "\n" for l in lines), kernels


def vxbin_entries(image, path):
    """Kernel entry names in a .vxbin's symbol-table footer (Vortex v3.0
    vxbin.py / sw/runtime/common/module.cpp layout)."""
    if len(image) < 16:
        raise PackError("%s is too short for a .vxbin" % path)
    min_vma, max_vma = struct.unpack_from("<QQ", image, 0)
    if max_vma <= min_vma:
        raise PackError("%s: bad .vxbin header (min_vma 0x%x, max_vma 0x%x)" %
                        (path, min_vma, max_vma))
    if len(image) < 28 or image[-8:] != b"VXSYMTAB":
        return {"main"}
    count = struct.unpack_from("<I", image, len(image) - 12)[0]
    entries_at = len(image) - 12 - 16 * count
    if entries_at < 16:
        raise PackError("%s: corrupt symbol-table footer" % path)
    entries = []
    for i in range(count):
        off, length, _pad, _pc = struct.unpack_from("<IHHQ", image,
                                                    entries_at + 16 * i)
        entries.append((off, length))
    names_size = max([off + length for off, length in entries] or [0])
    names_at = entries_at - names_size
    if names_at < 16:
        raise PackError("%s: corrupt symbol-table footer" % path)
    names = {image[names_at + off:names_at + off + length].decode("utf-8")
             for off, length in entries}
    if count == 1:
        names.add("main")
    return names


def pack(args):
    with open(args.vxbin, "rb") as f:
        image = f.read()
    entries = vxbin_entries(image, args.vxbin)
    text = read_meta_section(args.llvm_bin, args.elf)
    symbols = read_symbols(args.llvm_bin, args.elf) if "var" in text else {}
    meta, kernels = translate_meta(text, symbols)
    for name in kernels:
        if name not in entries:
            raise PackError("kernel %s has no entry in %s (link the ELF with "
                            "--defsym=__vx_kentry_%s=%s)" %
                            (name, args.vxbin, name, name))
    config = os.path.abspath(args.config_dir).encode("utf-8")
    meta_bytes = meta.encode("utf-8")
    header = MAGIC + struct.pack("<IIQII", HEADER_SIZE, len(meta_bytes),
                                 len(image), len(config), 0)
    with open(args.output, "wb") as f:
        f.write(header + config + meta_bytes + image)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--elf", required=True, help="linked kernel ELF")
    parser.add_argument("--vxbin", required=True,
                        help="the ELF converted by Vortex's vxbin.py")
    parser.add_argument("--config-dir", required=True,
                        help="Vortex configuration directory the runtime "
                             "loads by default")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin",
                        help="directory of llvm-objcopy, llvm-nm, "
                             "llvm-readelf")
    parser.add_argument("-o", dest="output", required=True,
                        help="container to write")
    args = parser.parse_args()
    try:
        pack(args)
    except (PackError, OSError) as err:
        sys.stderr.write("error: %s\n" % err)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
