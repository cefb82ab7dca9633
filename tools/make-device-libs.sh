#!/usr/bin/env bash
#===- make-device-libs.sh - ROCm device libraries for every Crosslane chip ===#
#
# Debian 12 ships ROCm 5.2's device libraries (ocml, ockl, oclc_*) but no
# oclc_isa_version_*.bc for chips newer than gfx940 (gfx942, gfx950, gfx11,
# gfx12). Those files only define the constant __oclc_ISA_version. This script
# makes a directory with links to Debian's bitcode plus generated ISA-version
# files, so clang 22 can link the device libraries for every chip Crosslane
# supports (with -mcode-object-version=5: clang 22 defaults to ABI 6, which
# needs ROCm 6.3 libraries).
#
# clang 22 no longer links oclc_daz_opt_*.bc, but ROCm 5.2's ocml still
# reads __oclc_daz_opt (rsqrt, sqrt, exp, log, pow, fmod, cbrt, atan2, ...
# for f32): left undefined, lld fails ("undefined symbol: __oclc_daz_opt").
# ocml.bc here is Debian's ocml with that declaration turned into
# oclc_daz_opt_off.bc's definition (0): the denormal-preserving paths, which
# are correct whether or not the kernel flushes denormals. (llvm-link would
# drop ocml's linkonce_odr functions, which nothing references yet.)
#
# usage: make-device-libs.sh <clang-22> <debian-bitcode-dir> <out-dir>
#===----------------------------------------------------------------------===#
set -euo pipefail
CLANG=$1 SRC=$2 OUT=$3
LLVM_AS="$(dirname "$CLANG")/llvm-as"
mkdir -p "$OUT"
if [ ! -d "$SRC" ]; then
  echo "make-device-libs: $SRC missing (install rocm-device-libs)" >&2
  exit 1
fi
LLVM_DIS="$(dirname "$CLANG")/llvm-dis"
for f in "$SRC"/*.bc; do ln -sf "$f" "$OUT/"; done
rm -f "$OUT/ocml.bc"
"$LLVM_DIS" "$SRC/ocml.bc" -o - |
  sed 's/^@__oclc_daz_opt = external local_unnamed_addr addrspace(4) constant i8, align 1$/@__oclc_daz_opt = linkonce_odr protected local_unnamed_addr addrspace(4) constant i8 0, align 1/' |
  "$LLVM_AS" -o "$OUT/ocml.bc"
if "$LLVM_DIS" "$OUT/ocml.bc" -o - | grep -q '^@__oclc_daz_opt = external'; then
  echo "make-device-libs: could not define __oclc_daz_opt in ocml.bc" >&2
  exit 1
fi

# The data layout clang 22 uses for amdgcn, so the linker does not warn.
DL=$(echo "" | "$CLANG" -x c -target amdgcn-amd-amdhsa -nogpulib -S -emit-llvm -o - - |
     sed -n 's/^target datalayout = "\(.*\)"/\1/p')

# chip:ISA-version (major*1000 + minor*100 + stepping, as ROCm encodes it).
for entry in 941:9401 942:9402 950:9500 \
             1100:11000 1101:11001 1102:11002 1103:11003 1150:11500 1151:11501 \
             1200:12000 1201:12001; do
  chip=${entry%%:*} ver=${entry##*:}
  dst="$OUT/oclc_isa_version_$chip.bc"
  [ -e "$dst" ] && continue
  printf 'target datalayout = "%s"\ntarget triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 %s, align 4\n' \
    "$DL" "$ver" | "$LLVM_AS" -o "$dst"
done
touch "$OUT/.stamp"
