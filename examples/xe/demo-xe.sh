#!/usr/bin/env bash
# make demo, Intel Xe part: examples/xe/gemm_tile.cl (OpenCL C, Crosslane's tile API over
# cl_intel_subgroup_2d_block_io) through clang-22 + Crosslane for pvc, bmg
# and dg2: the 2D block IO validator's remarks (dg2 has no 2D block
# hardware: its operations become per-lane loads and stores), then the
# SPIR-V LLVM 22 emits for pvc; then examples/xe/row_scale.cl, per-lane
# code that never calls the extension, formed into 2D blocks for pvc and
# run before and after in the executor.
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
PLUGIN=$BUILD/lib/CrosslanePlugin.so
SRC=$ROOT/examples/xe/gemm_tile.cl
OUT=$BUILD/examples/xe
mkdir -p "$OUT"
CLANG=(clang-22 -cl-std=CL3.0 --target=spirv64 -O2 -gline-tables-only -I "$ROOT/include"
       -fpass-plugin="$PLUGIN")
for chip in pvc bmg dg2; do
  echo "-- $chip: crosslane-xe-block-io"
  if "${CLANG[@]}" -mllvm -crosslane-xe-chip=$chip -Rpass=crosslane-xe-block-io \
       -S -emit-llvm "$SRC" -o "$OUT/gemm_tile.$chip.ll" 2> "$OUT/gemm_tile.$chip.log"; then
    status="compiled"
  else
    status="rejected"
  fi
  grep -E "remark:|error:" "$OUT/gemm_tile.$chip.log" | sed "s|$ROOT/||; s/ \[-Rpass=.*//; s/^/    /"
  echo "    => $status"
done
echo "-- pvc: SPIR-V from LLVM 22 (the 2D block calls are imports IGC resolves)"
"${CLANG[@]}" -mllvm -crosslane-xe-chip=pvc -S "$SRC" -o "$OUT/gemm_tile.spvasm"
grep -E 'LinkageAttributes "[^"]*intel_sub_group_2d_block' "$OUT/gemm_tile.spvasm" | sed 's/^[[:space:]]*/    /'
grep -E 'OpExecutionMode .* SubgroupSize' "$OUT/gemm_tile.spvasm" | sed 's/^[[:space:]]*/    /'
if command -v ocloc > /dev/null; then
  echo "-- pvc through Debian 12's Intel compiler (lower=igc: the reads become IGC 1.0.12504's"
  echo "   2D read builtins; its vISA shows the 2D load message each becomes)"
  clang-22 -cl-std=CL3.0 --target=spirv64 -O2 -I "$ROOT/include" -S -emit-llvm "$SRC" \
    -o "$OUT/gemm_tile.ll"
  opt-22 -load-pass-plugin="$PLUGIN" -passes='crosslane-xe-block-io<chip=pvc;lower=igc>' \
    -pass-remarks=crosslane-xe-block-io -pass-remarks-missed=crosslane-xe-block-io \
    -S "$OUT/gemm_tile.ll" -o "$OUT/gemm_tile.igc.ll" 2>&1 \
    | grep -E "lowered to|kept" | sed 's/^remark: [^ ]* /    /'
  llc-22 -mtriple=spirv64-unknown-unknown -filetype=obj "$OUT/gemm_tile.igc.ll" -o "$OUT/gemm_tile.spv"
  rm -rf "$OUT/ocloc" && mkdir -p "$OUT/ocloc"
  IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir="$OUT/ocloc/dump" \
    ocloc compile -file "$OUT/gemm_tile.spv" -spirv_input -device pvc --format zebin \
      -out_dir "$OUT/ocloc" -output gemm_tile > "$OUT/ocloc/ocloc.log" 2>&1
  grep -ho 'lsc_load_block2d[^[]*' "$OUT"/ocloc/dump/*.visaasm | sed 's/^/    /'
else
  echo "-- ocloc not installed: the IGC sends are not shown (tools/setup-deps.sh installs intel-opencl-icd)"
fi

ROWS=$ROOT/examples/xe/row_scale.cl
echo "-- pvc: crosslane-xe-form-blocks on per-lane code (examples/xe/row_scale.cl)"
clang-22 -cl-std=CL3.0 --target=spirv64 -O2 -S -emit-llvm "$ROWS" -o "$OUT/row_scale.plain.ll"
"${CLANG[@]}" -mllvm -crosslane-xe-chip=pvc -Rpass=crosslane-xe-form-blocks -S -emit-llvm \
  "$ROWS" -o "$OUT/row_scale.pvc.ll" 2> "$OUT/row_scale.log"
grep -E "remark:" "$OUT/row_scale.log" | sed "s|$ROOT/||; s/; taken when.*//; s/^/    /"
Kernel() { awk '/^define spir_kernel/,/^}/' "$1"; }
Loads=$(Kernel "$OUT/row_scale.plain.ll" | grep -cE "= load .*addrspace\(1\)" || true)
Stores=$(Kernel "$OUT/row_scale.plain.ll" | grep -cE "^ *store .*addrspace\(1\)" || true)
Blocks=$(Kernel "$OUT/row_scale.pvc.ll" | grep -cE "call .*intel_sub_group_2d_block_(read|write)" || true)
echo "    global memory operations per subgroup: $Loads loads + $Stores stores before;" \
  "$Blocks 2D block operations after where the guard holds (the original ones otherwise)"
if [ -x "$BUILD/bin/crosslane-run" ]; then
  for Pitch in 64 66; do
    Why="2D path"
    [ "$Pitch" = 66 ] && Why="guard fails: 264-byte pitch is not a multiple of 16"
    printf '    pitch %s floats (%s): ' "$Pitch" "$Why"
    "$BUILD/bin/crosslane-run" "$OUT/row_scale.plain.ll" --diff="$OUT/row_scale.pvc.ll" \
      --target=xe --kernel=row_scale --grid=1,2 --block=32 --arg=buf:f32:4096:input \
      --arg=buf:f32:4096:input --arg=i32:$Pitch --arg=f32:1.5 | tail -1
  done
fi
