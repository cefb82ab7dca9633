#!/usr/bin/env python3
"""Buffers for the tile API tests (test/Xe/tile-api-*.test).

  tile_grid.py fill FILE BITS PITCH ROWS
      writes a ROWS x PITCH buffer whose element (r, c) is 100 * r + c, so
      that a value names its row and column;
  tile_grid.py show FILE BITS PITCH ROWS COLS [--label=y] [--blank=V]
      prints part of a buffer crosslane-run wrote (--out), one line per
      row: "LABEL R: v v v ...", a value equal to V shown as '.'; ROWS and
      COLS are inclusive ranges A-B; then, with --blank, how many
      elements of the whole buffer differ from V.

BITS is 16 or 32 (unsigned, little-endian).
"""
import argparse
import struct


def span(text):
    first, last = text.split("-")
    return range(int(first), int(last) + 1)


def code(bits):
    return "H" if bits == 16 else "I"


def fill(args):
    values = [100 * r + c for r in range(args.rows) for c in range(args.pitch)]
    with open(args.file, "wb") as out:
        layout = "<%d%s" % (len(values), code(args.bits))
        out.write(struct.pack(layout, *values))


def show(args):
    with open(args.file, "rb") as data_file:
        data = data_file.read()
    count = len(data) * 8 // args.bits
    values = struct.unpack("<%d%s" % (count, code(args.bits)), data)
    for row in args.rows:
        cells = []
        for col in args.cols:
            value = values[row * args.pitch + col]
            cells.append("." if value == args.blank else str(value))
        print("%s %d: %s" % (args.label, row, " ".join(cells)))
    if args.blank is not None:
        changed = sum(1 for value in values if value != args.blank)
        print("not %d: %d of %d" % (args.blank, changed, count))


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    fill_cmd = commands.add_parser("fill")
    show_cmd = commands.add_parser("show")
    for cmd in (fill_cmd, show_cmd):
        cmd.add_argument("file")
        cmd.add_argument("bits", type=int, choices=[16, 32])
        cmd.add_argument("pitch", type=int)
    fill_cmd.add_argument("rows", type=int)
    show_cmd.add_argument("rows", type=span)
    show_cmd.add_argument("cols", type=span)
    show_cmd.add_argument("--label", default="y")
    show_cmd.add_argument("--blank", type=int)
    args = parser.parse_args()
    if args.command == "fill":
        fill(args)
    else:
        show(args)


if __name__ == "__main__":
    main()
