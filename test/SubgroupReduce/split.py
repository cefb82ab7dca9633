#!/usr/bin/env python3
"""split-file replacement (lit.cfg.py does not substitute split-file):
writes each `;--- NAME` section of FILE to DIR/NAME."""
import os
import sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
cur = None
for line in open(src):
    if line.startswith(";--- "):
        if cur:
            cur.close()
        cur = open(os.path.join(out, line[5:].strip()), "w")
    elif cur:
        cur.write(line)
if cur:
    cur.close()
