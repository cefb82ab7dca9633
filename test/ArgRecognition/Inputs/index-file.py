#!/usr/bin/env python3
"""Writes an i32 index buffer for the sentinel tests.

usage: index-file.py PATTERN NONE COUNT OUT
  PATTERN  mixed: every third index is NONE, the others k + 1
           all: every index is NONE
           one: NONE except one element (lane COUNT - 1 gets index 7)
           dup: indices from {NONE, 1, 2, 5, INT32_MAX} (duplicates, the
                largest index, which ties with a "no element" encoding)
  NONE     the "no element" index (0, -1, ...)
"""
import random
import struct
import sys

pattern, none, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(7)
if pattern == "mixed":
    idx = [none if k % 3 == 0 else k + 1 for k in range(count)]
elif pattern == "all":
    idx = [none] * count
elif pattern == "one":
    idx = [none] * (count - 1) + [7]
elif pattern == "dup":
    idx = [rng.choice((none, 1, 2, 5, 2**31 - 1)) for _ in range(count)]
else:
    sys.exit("index-file.py: unknown pattern " + pattern)
with open(out, "wb") as fh:
    fh.write(struct.pack("<%di" % count, *idx))
