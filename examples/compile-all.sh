#!/usr/bin/env bash
#===- compile-all.sh - compile every example for every corpus chip ---------===#
#
# Compiles each examples/<name>.hip without the Crosslane plugin, without
# device libraries, at -O2, to LLVM IR:
#   $OUT/<name>.gfx942.ll        (wave64)
#   $OUT/<name>.gfx1100.ll       (wave32)
#   $OUT/<name>.gfx1100.w64.ll   (wave64 on gfx11)
#   $OUT/<name>.gfx1030.ll       (wave32)
# and stops with a non-zero status at the first error.
#
# usage: examples/compile-all.sh [OUT_DIR] [BUILD_DIR]
#   OUT defaults to $OUT, then build/examples; BUILD to build/.
#   EXAMPLES="greedy_argmax torch_argmax" restricts the set; JOBS=N runs N
#   compiles at once (default 1).
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-${OUT:-$ROOT/build/examples}}
BUILD=${2:-$ROOT/build}
HIPCC="$BUILD/bin/crosslane-hipcc"
if [ ! -x "$HIPCC" ]; then
  echo "compile-all.sh: error: $HIPCC not found (build Crosslane first)" >&2
  exit 2
fi
mkdir -p "$OUT"

if [ -n "${EXAMPLES:-}" ]; then
  names=($EXAMPLES)
else
  names=()
  for src in "$ROOT"/examples/*.hip; do names+=("$(basename "$src" .hip)"); done
fi
if [ ${#names[@]} -eq 0 ]; then
  echo "compile-all.sh: error: no examples/*.hip" >&2
  exit 1
fi

# chip, extra flag, file suffix
configs=("gfx942||gfx942" "gfx1100||gfx1100" "gfx1100|-mwavefrontsize64|gfx1100.w64"
         "gfx1030||gfx1030")

# One compile; prints what failed and returns non-zero on error.
compile_one() {
  local name=$1 chip=$2 flag=$3 suffix=$4
  if ! "$HIPCC" --offload-arch="$chip" $flag --cuda-device-only --no-crosslane \
       -nogpulib -O2 -S -emit-llvm "$ROOT/examples/$name.hip" \
       -o "$OUT/$name.$suffix.ll"; then
    echo "compile-all.sh: FAILED: $name for $suffix" >&2
    return 1
  fi
}
export -f compile_one
export HIPCC ROOT OUT

jobs_list=()
for name in "${names[@]}"; do
  [ -f "$ROOT/examples/$name.hip" ] || { echo "compile-all.sh: error: no examples/$name.hip" >&2; exit 1; }
  for cfg in "${configs[@]}"; do
    IFS='|' read -r chip flag suffix <<<"$cfg"
    jobs_list+=("$name|$chip|$flag|$suffix")
  done
done
count=${#jobs_list[@]}
# JOBS=N compiles N at a time (default 1).
if ! printf '%s\n' "${jobs_list[@]}" |
     xargs -d '\n' -P "${JOBS:-1}" -I{} bash -c 'IFS="|" read -r n c f s <<<"$1"; compile_one "$n" "$c" "$f" "$s"' _ {}; then
  echo "compile-all.sh: error: some compiles failed (see above)" >&2
  exit 1
fi
echo "compile-all.sh: compiled ${#names[@]} examples, $count modules into $OUT"
