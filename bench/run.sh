#!/usr/bin/env bash
# make bench: static cost of Crosslane's cross-lane code vs the best known
# sequences, per chip, then (full runs) simx cycles of HIP on Vortex against
# Vortex's own kernels, Intel Xe tile loads as ocloc compiles them, and
# reduction kernels from lowering configs (see
# bench/README.md). Extra arguments go to bench.py
# and skip the Vortex part.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
shift || true
python3 "$ROOT/bench/bench.py" --build "$BUILD" "$@"
rc=$?
if [ $# -eq 0 ]; then
  echo
  python3 "$ROOT/bench/vortex.py" --build "$BUILD" || rc=1
  echo
  python3 "$ROOT/bench/xe.py" --build "$BUILD" || rc=1
  echo
  python3 "$ROOT/bench/reduce.py" --build "$BUILD" || rc=1
fi
exit $rc
