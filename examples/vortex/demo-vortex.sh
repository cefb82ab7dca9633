#!/usr/bin/env bash
#===- demo-vortex.sh - make demo, Vortex part ------------------------------===#
#
# For every examples/vortex/*.hip: compile it for Vortex with
# `crosslane-hipcc --target=vortex` without and with Crosslane, show the
# remarks and the Vortex instructions the plugin added, and run both on
# Vortex's simulator (simx) with its PERF line. Then builds one of Vortex's
# own regression tests (dotproduct) with plain clang-22 and with the plugin.
#
# usage: examples/vortex/demo-vortex.sh [BUILD_DIR]
#   DEMO_VORTEX_CONFIG=default|w16t16a|w8t32a (default: default)
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
HIPCC="$BUILD/bin/crosslane-hipcc"
CONFIG=${DEMO_VORTEX_CONFIG:-default}
VORTEX=${CROSSLANE_VORTEX_HOME:-$ROOT/../shared/vortex}
OUT="$BUILD/demo/vortex"
mkdir -p "$OUT"

if [ ! -f "$VORTEX/prebuilt/$CONFIG/runtime/lib/libvortex.so" ]; then
  echo "demo: *** Vortex part skipped: no Vortex installation at $VORTEX"
  echo "demo:     (set CROSSLANE_VORTEX_HOME to one)"
  exit 0
fi
export CROSSLANE_VORTEX_HOME=$VORTEX

# Vortex warp-control instructions in an assembly file: .insn r 11, F3, 0.
count_insn() {
  grep -c "\.insn r 11, $2, 0" "$1" || true
}

run() { # program, log, program arguments...
  local prog=$1 log=$2
  shift 2
  (cd "$OUT" && CROSSLANE_VORTEX_PERF=1 timeout 300 "$prog" "$@" > "$log" 2>&1) || true
  grep -E "PASSED|FAILED|PERF|error" "$log" | sed 's/^/    /'
}

for src in "$ROOT"/examples/vortex/*.hip; do
  name=$(basename "$src" .hip)
  echo
  echo "== ${src#$ROOT/} on Vortex ($CONFIG)"
  "$HIPCC" --target=vortex --vortex-config="$CONFIG" -O2 -S "$src" \
    -o "$OUT/$name.s" -Rpass='crosslane-vortex.*' \
    -Rpass-analysis='crosslane-vortex.*' 2> "$OUT/$name.remarks"
  # The baseline keeps Crosslane's kernel entries (without them a HIP
  # kernel cannot be launched at all) and leaves out the divergence handling.
  nosj=(-mllvm -crosslane-vortex-split-join=false)
  "$HIPCC" --target=vortex --vortex-config="$CONFIG" -O2 -S "${nosj[@]}" \
    "$src" -o "$OUT/$name.plain.s" 2> "$OUT/$name.plain.warnings"
  echo "-- remarks:"
  grep "remark:" "$OUT/$name.remarks" | sed "s|$ROOT/||; s/^/    /"
  printf -- "-- Vortex instructions in the kernel code: %s vx_split, %s vx_join, %s vx_pred (without the divergence handling: %s)\n" \
    "$(count_insn "$OUT/$name.s" 2)" "$(count_insn "$OUT/$name.s" 3)" \
    "$(count_insn "$OUT/$name.s" 5)" \
    "$(( $(count_insn "$OUT/$name.plain.s" 2) + $(count_insn "$OUT/$name.plain.s" 5) ))"
  echo "-- without it, Crosslane's machine-level check warns at $(grep -c 'warning: the code generator made a branch' "$OUT/$name.plain.warnings" || true) uncovered divergent branches (first one):"
  grep -m1 -A2 "warning:" "$OUT/$name.plain.warnings" | sed "s|$ROOT/||; s/^/    /" || true
  "$HIPCC" --target=vortex --vortex-config="$CONFIG" -O2 "${nosj[@]}" \
    "$src" -o "$OUT/$name.plain" 2> /dev/null
  "$HIPCC" --target=vortex --vortex-config="$CONFIG" -O2 "$src" -o "$OUT/$name"
  echo "-- run on simx without the divergence handling (branches follow the warp's last active lane):"
  run "$OUT/$name.plain" "$OUT/$name.plain.log"
  echo "-- run on simx, with Crosslane:"
  run "$OUT/$name" "$OUT/$name.log"
done

echo
echo "== Crosslane's subgroup operations on Vortex ($CONFIG): bench/vortex/warp_reduce.hip"
echo "   (64 warp sums per thread: a hand-written __shfl_xor butterfly, then crosslane::reduce_add)"
"$HIPCC" --target=vortex --vortex-config="$CONFIG" -O3 "$ROOT/bench/vortex/warp_reduce.hip" \
  -o "$OUT/warp_reduce" -Rpass=crosslane-expand-subgroup 2> "$OUT/warp_reduce.remarks"
echo "-- remark:"
grep -m1 "remark:" "$OUT/warp_reduce.remarks" | sed "s|$ROOT/||; s/^/    /"
echo "-- __shfl_xor butterfly:"
run "$OUT/warp_reduce" "$OUT/warp_reduce.0.log" -m 0
echo "-- crosslane::reduce_add:"
run "$OUT/warp_reduce" "$OUT/warp_reduce.1.log" -m 1

echo
echo "== Vortex's own regression test 'dotproduct' ($CONFIG), built by Vortex's vx-test.sh"
for mode in plain crosslane; do
  flags="-Xclang -target-feature -Xclang +zicond"
  [ $mode = crosslane ] && flags="$flags -Xclang -target-feature -Xclang +xvortex -fpass-plugin=$BUILD/lib/CrosslanePlugin.so"
  log="$OUT/dotproduct.$mode.log"
  VX_KERNEL_FLAGS="$flags" "$VORTEX/scripts/vx-test.sh" -c "$VORTEX/prebuilt/$CONFIG" \
    -o "$OUT/vx-$mode" -t 120 dotproduct > "$log" 2>&1 || true
  echo "-- $mode: $(grep -E 'PASSED|FAILED|errors|PERF' "$log" | tr '\n' ' ')"
done
