#!/usr/bin/env bash
# make demo, lowering-config part: crosslane-reduce builds reduction kernels
# distributed as an IREE lowering config says (docs/LoweringConfigs.md).
#   1. the seed's Example 2 config on gfx942: the distribution, thread 42
#      explained, the kernel run in the wave executor against the host
#      reference, its cost;
#   2. the same problem with the heuristic's config: its decisions and cost,
#      the ratio to the given config;
#   3. a torch-style argmax (i64 index, NaN wins) on gfx1100 (wave32),
#      heuristic config, run on random and adversarial inputs;
#   4. the row sum again for Vortex (8 warps of 32 threads): the heuristic's
#      config, the riscv32 kernel run in the executor's Vortex model, then
#      built as a module and run on simx.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
REDUCE=$BUILD/bin/crosslane-reduce
OUT=$BUILD/examples/reduce
mkdir -p "$OUT"
if [ ! -x "$REDUCE" ]; then
  echo "    SKIPPED: crosslane-reduce is not built (it needs the wave executor)"
  exit 0
fi
SEED='#iree_gpu.lowering_config<{workgroup = [16, 0], thread = [0, 1], partial_reduction = [0, 32], lane_basis = [[16, 4], [1, 0]], subgroup_basis = [[1, 2], [0, 1]]}>'
PROBLEM=(--target=gfx942 --op=add --type=f32 --dims=p1152,r384)

echo "-- row sum 1152 x 384 on gfx942, the seed's config"
"$REDUCE" "${PROBLEM[@]}" --config="$SEED" --explain=42 --run --cost \
  -o "$OUT/row_sum.seed.ll" | tee "$OUT/seed.txt" | sed 's/^/    /'
echo "-- the same problem, config chosen by the heuristic"
"$REDUCE" "${PROBLEM[@]}" --run --cost -o "$OUT/row_sum.heuristic.ll" |
  tee "$OUT/heuristic.txt" | grep -E '^(heuristic|  |config|workgroup|cost|[0-9]+ cases)' |
  grep -vE '^  d[0-9]' | sed 's/^/    /'
slots() { sed -n 's/.*: \([0-9][0-9]*\) issue slots$/\1/p' "$1"; }
S=$(slots "$OUT/seed.txt") H=$(slots "$OUT/heuristic.txt")
echo "    => issue slots: seed config $S, heuristic $H ($(python3 -c "print(f'{$S/$H:.2f}')")x fewer)"
echo "-- torch-style argmax 256 x 4096 (f32, i64 index, NaN wins) on gfx1100 wave32"
"$REDUCE" --target=gfx1100 --op=argmax:i64:nan-wins --type=f32 --dims=p256,r4096 \
  --run --cost -o "$OUT/argmax.ll" | grep -E '^(config|workgroup|cost|[0-9]+ cases)' |
  sed 's/^/    /'
echo "-- row sum 1152 x 384 on Vortex (configuration w8t32a), heuristic config"
VPROBLEM=(--target=vortex:w8t32a --op=add --type=f32 --dims=p1152,r384)
"$REDUCE" "${VPROBLEM[@]}" --run --cost -o "$OUT/row_sum.vortex.ll" |
  grep -E '^(target|config|workgroup|cross|cost|[0-9]+ cases)' | sed 's/^/    /'
VORTEX=${CROSSLANE_VORTEX_HOME:-$ROOT/../shared/vortex}
if [ -d "$VORTEX/prebuilt" ]; then
  echo "-- the same kernel built as a module and run on simx, every case"
  CROSSLANE_VORTEX_HOME=$VORTEX "$BUILD/bin/crosslane-hipcc" --target=vortex \
    --vortex-config=w8t32a --genco "$OUT/row_sum.vortex.ll" -o "$OUT/row_sum.clvx"
  CROSSLANE_VORTEX_PERF=1 "$REDUCE" "${VPROBLEM[@]}" --run \
    --launcher="$BUILD/bin/crosslane-vx-launch $OUT/row_sum.clvx crosslane_reduce" |
    grep -E '^(launcher|[0-9]+ cases)' | sed 's/^/    /'
else
  echo "    (no Vortex at $VORTEX: the simx run is skipped)"
fi
