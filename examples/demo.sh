#!/usr/bin/env bash
#===- demo.sh - make demo: what Crosslane does to the bundled examples ----===#
#
# For every examples/*.hip and every demo chip:
#   1. compile the device code to LLVM IR without and with the plugin,
#   2. print Crosslane's remarks (what it did, what it refused and why),
#   3. show what changed: cross-lane intrinsic counts before/after and the
#      changed lines of the IR,
#   4. run the example, compiled with the plugin, in the wave executor
#      against its host reference (examples/run-example.sh), when the
#      executor is built;
#   5. for examples/api/*.hip (Crosslane's own operations, crosslane.h):
#      run the kernel before and after the plugin in the executor on random
#      and adversarial inputs and compare bit for bit;
#   6. lowering configs: reduction kernels from IREE-style configs and from
#      the heuristic, explained, run and costed (examples/reduce/demo-reduce.sh);
#   7. Intel Xe: 2D block IO validated per chip, and formed from per-lane
#      code and run before and after (examples/xe/demo-xe.sh);
#   8. Vortex: examples/vortex/*.hip compiled for the Vortex GPU and run on
#      its simulator, without and with the divergence handling
#      (examples/vortex/demo-vortex.sh);
#   9. a summary table per chip: chains recognised and refused (with the
#      reason), static instruction counts of the changed kernels, executor
#      cases and mismatches (tools/count-recognition.py --summary).
#
# usage: examples/demo.sh [BUILD_DIR]   (make demo)
#   DEMO_CHIPS="gfx942 gfx1100" to choose chips; DEMO_DIFF_LINES=40.
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
HIPCC="$BUILD/bin/crosslane-hipcc"
CHIPS=${DEMO_CHIPS:-"gfx942 gfx1100"}
LINES=${DEMO_DIFF_LINES:-40}
OUT="$BUILD/demo"
mkdir -p "$OUT"

# Bold headings on a terminal only (a log gets no escape codes).
if [ -t 1 ]; then
  bold() { printf '\n\033[1m%s\033[0m\n' "$*"; }
else
  bold() { printf '\n%s\n' "$*"; }
fi

# Identical lines once, in first-seen order, with a count when repeated
# (a remark per unrolled copy of one source line).
aggregate() {
  awk '{ if (!($0 in n)) order[++k] = $0; n[$0]++ }
       END { for (i = 1; i <= k; i++)
               print order[i] (n[order[i]] > 1 ? "  (x" n[order[i]] ")" : "") }'
}

# The IR without what only renumbers: attribute group numbers, attribute
# group and metadata definitions and references, unnamed value and block
# numbers, so that a diff shows the code Crosslane added.
normalise_ir() {
  grep -v '^; ModuleID\|^attributes #\|^!' "$1" |
    sed -E 's/ #[0-9]+//g; s/, ![a-z.]+ ![0-9]+//g; s/%[0-9]+/%_/g; s/^[0-9]+:.*/_:/'
}

# Cross-lane operations the IR uses, one "name count" per line.
crosslane_profile() {
  grep -o '@llvm\.amdgcn\.[a-z0-9_.]*\|@__crosslane_[a-z0-9_]*' "$1" |
    grep -v '^@llvm\.amdgcn\.\(workitem\|workgroup\|dispatch\|implicitarg\|kernarg\)' |
    sed 's/^@//' | sort | uniq -c | awk '{printf "    %-44s %s\n", $2, $1}' || true
}

shopt -s nullglob
examples=("$ROOT"/examples/*.hip "$ROOT"/examples/api/*.hip)
if [ ${#examples[@]} -eq 0 ]; then
  echo "demo: no examples/*.hip" >&2
  exit 1
fi

for src in "${examples[@]}"; do
  name=$(basename "$src" .hip)
  for chip in $CHIPS; do
    bold "== ${src#$ROOT/} on $chip"
    before="$OUT/$name.$chip.before.ll" after="$OUT/$name.$chip.after.ll"
    # Same flags both times (remarks add debug locations to the IR), so the
    # diff shows only what Crosslane changed.
    "$HIPCC" --offload-arch="$chip" --cuda-device-only -nogpulib -O2 -S -emit-llvm \
      --no-crosslane -cuid=crosslane-demo -I "$ROOT/include" -Rpass='crosslane.*' -Rpass-missed='crosslane.*' \
      "$src" -o "$before" 2>/dev/null
    "$HIPCC" --offload-arch="$chip" --cuda-device-only -nogpulib -O2 -S -emit-llvm \
      -cuid=crosslane-demo -I "$ROOT/include" -Rpass='crosslane.*' -Rpass-missed='crosslane.*' \
      "$src" -o "$after" 2> "$OUT/$name.$chip.remarks" || {
      cat "$OUT/$name.$chip.remarks"; exit 1; }
    echo "-- remarks (-Rpass=crosslane.* -Rpass-missed=crosslane.*):"
    if grep -q "remark:" "$OUT/$name.$chip.remarks"; then
      grep "remark:" "$OUT/$name.$chip.remarks" | sed "s|$ROOT/||" | aggregate | sed 's/^/    /'
      if grep -q "guarded at run time" "$OUT/$name.$chip.remarks"; then
        echo "    guarded: the new code runs when the guard named above holds; otherwise the"
        echo "    original code, kept as the fallback, runs (so the 'after' counts hold both)."
      fi
    else
      echo "    (none)"
    fi
    echo "-- cross-lane operations before:"
    crosslane_profile "$before"
    echo "-- cross-lane operations after:"
    crosslane_profile "$after"
    if cmp -s <(normalise_ir "$before") <(normalise_ir "$after"); then
      echo "-- IR unchanged"
    else
      echo "-- new code (first $LINES added lines of the IR diff; full files in ${OUT#$ROOT/}/):"
      diff -u <(normalise_ir "$before") <(normalise_ir "$after") | tail -n +3 |
        grep '^+' | grep -v '^+\s*$' | head -n "$LINES" | sed 's/^/    /' || true
    fi
  done
done

if [ -x "$BUILD/bin/crosslane-run" ] && [ -x "$ROOT/examples/run-example.sh" ]; then
  bold "== running the examples, compiled with the plugin, in the wave executor against their host references"
  : > "$OUT/runs.log"
  for src in "$ROOT"/examples/*.hip; do
    name=$(basename "$src" .hip)
    for chip in $CHIPS; do
      CROSSLANE=1 "$ROOT/examples/run-example.sh" "$name" "$chip" | tee -a "$OUT/runs.log"
    done
  done
else
  bold "== wave executor not built: examples not run (see README status)"
fi

if [ -x "$BUILD/bin/crosslane-run" ]; then
  bold "== Crosslane operations: before (reference semantics) vs after (expanded code), in the executor"
  for chip in $CHIPS; do
    b="$OUT/wave_ops.$chip.before.ll" a="$OUT/wave_ops.$chip.after.ll"
    printf '%s: ' "$chip"
    # Sizes that leave partial waves; every generator; bit-for-bit compare.
    "$BUILD/bin/crosslane-run" "$b" --diff="$a" --mcpu="$chip" --kernel=wave_ops \
      --grid=2 --block=64 --sizes=1,37,64,100,128 \
      --arg=buf:f32:N:input --arg=buf:f32:N:zero --arg=buf:i32:N:zero \
      --arg=buf:f32:N:zero --arg=buf:i32:N:zero --arg=i32:N --print=none | tail -1
  done
fi

bold "== Lowering configs: reduction kernels distributed as an IREE config says (crosslane-reduce)"
bash "$ROOT/examples/reduce/demo-reduce.sh" "$BUILD"

bold "== Intel Xe: 2D block IO checked per chip (examples/xe/gemm_tile.cl, OpenCL C for spirv64)"
bash "$ROOT/examples/xe/demo-xe.sh" "$BUILD"

bold "== Vortex: HIP programs compiled by clang-22 + Crosslane, run on Vortex's simulator"
bash "$ROOT/examples/vortex/demo-vortex.sh" "$BUILD"

bold "== Summary per chip: the examples with the plugin"
echo "recognised/refused: butterfly chains (crosslane-recognize-arg remarks); ISA instr.: static"
echo "instructions of the changed kernels (llc-22 -O3), before, after (fast path + fallback),"
echo "and the fast path alone (fallbacks replaced by a trap); cases/mismatches: the executor"
echo "against the host reference (above). No GPU ran."
python3 "$ROOT/tools/count-recognition.py" --build "$BUILD" \
  --chips "$(echo $CHIPS | tr ' ' ',')" --summary "$OUT/runs.log"
