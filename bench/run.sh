#!/usr/bin/env bash
# make bench: static cost of Crosslane's cross-lane code vs the best known
# sequences, per chip (see bench/README.md). Extra arguments go to bench.py.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
shift || true
exec python3 "$ROOT/bench/bench.py" --build "$BUILD" "$@"
