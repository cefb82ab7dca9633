#!/usr/bin/env bash
#===- run-example.sh - run one example in the wave executor vs. its reference ===#
#
# usage: examples/run-example.sh NAME CHIP [w64]
#   NAME  an examples/NAME.hip family (its reference: examples/reference/NAME.py)
#   CHIP  gfx942, gfx1100, gfx1030, ... ; "w64" compiles gfx10+/gfx11+ in wave64
#
# 1. compiles examples/NAME.hip for CHIP (--no-crosslane -nogpulib -O2 IR),
#    or with the plugin when CROSSLANE=1 (then also through
#    crosslane-relax-nan-guard, as the code generator does);
# 2. generates inputs (random + adversarial: all equal, ties across lanes,
#    NaN at a position, all NaN, all -inf, -FLT_MAX, +-0, n = 1, n not a
#    multiple of the wave size) from a deterministic seed (SEED, default 1);
# 3. runs every launch in build/bin/crosslane-run with the inputs read from
#    files and the buffers written back to files;
# 4. runs the host reference on the same input files;
# 5. compares the outputs bit for bit and prints
#      NAME CHIP: N cases, M mismatches
#    exiting 1 on any mismatch (the first few are printed).
# Environment: BUILD (default build/), WORK (scratch dir, default
# $BUILD/examples-run), SEED, CROSSLANE=1, GEN_ONLY=1 (steps 1, 2, 4 only).
#===----------------------------------------------------------------------===#
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ] || { [ $# -eq 3 ] && [ "$3" != w64 ]; }; then
  echo "usage: $0 NAME CHIP [w64]" >&2
  exit 2
fi
name=$1 chip=$2 w64=${3:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
WORK=${WORK:-$BUILD/examples-run}
HIPCC="$BUILD/bin/crosslane-hipcc"
RUN="$BUILD/bin/crosslane-run"
src="$ROOT/examples/$name.hip"
[ -f "$src" ] || { echo "run-example.sh: error: no $src" >&2; exit 2; }
[ -f "$ROOT/examples/reference/$name.py" ] || { echo "run-example.sh: error: no reference for $name" >&2; exit 2; }

flags=() wave=64 tag=$chip
case "$chip" in
  gfx9*) wave=64 ;;
  gfx1*) if [ "$w64" = w64 ]; then wave=64 flags=(-mwavefrontsize64) tag=$chip.w64; else wave=32; fi ;;
  *) echo "run-example.sh: error: unknown chip '$chip'" >&2; exit 2 ;;
esac
plugin=(--no-crosslane)
[ "${CROSSLANE:-0}" = 1 ] && plugin=() && tag=$tag.crosslane
mkdir -p "$WORK"
ll="$WORK/$name.$tag.ll"
"$HIPCC" --offload-arch="$chip" "${flags[@]}" --cuda-device-only "${plugin[@]}" \
  -nogpulib -O2 -S -emit-llvm "$src" -o "$ll"
if [ "${CROSSLANE:-0}" = 1 ]; then
  # What the code generator compiles: with the plugin loaded there, it
  # first runs crosslane-relax-nan-guard (docs/CodeGen.md).
  "${OPT:-/usr/lib/llvm-22/bin/opt}" -load-pass-plugin="$BUILD/lib/CrosslanePlugin.so" \
    -passes=crosslane-relax-nan-guard -S "$ll" -o "$ll.cg"
  mv "$ll.cg" "$ll"
fi

extra=()
if [ "${GEN_ONLY:-0}" = 1 ]; then
  extra=(--gen-only)
elif [ ! -x "$RUN" ]; then
  echo "run-example.sh: error: $RUN not built (cmake --build $BUILD --target crosslane-run), or GEN_ONLY=1" >&2
  exit 2
fi
cd "$ROOT/examples/reference"
exec python3 harness.py "$name" --ll "$ll" --wave "$wave" --chip "$chip" --run "$RUN" \
  --seed "${SEED:-1}" --workdir "$WORK/$name.$tag.run" "${extra[@]}"
