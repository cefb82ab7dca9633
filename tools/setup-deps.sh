#!/usr/bin/env bash
#===- setup-deps.sh - install what Crosslane needs from Debian 12 ---------===#
#
# Installs exactly the missing packages, non-interactively and idempotently,
# as root or through sudo. Called by `make demo`, `make check`, `make bench`.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

PKGS=(
  # LLVM 22 toolchain (bookworm-security carries 22.1.x)
  llvm-22-dev llvm-22-tools clang-22 libclang-22-dev lld-22 mlir-22-tools
  # clang-offload-bundler (HIP objects), packaged separately from clang-22
  clang-tools-22
  # ROCm 5.2 HIP headers and device libraries (crosslane-hipcc adapts them)
  libamdhip64-dev rocm-device-libs
  # Vortex kernels: rv32 libgcc.a and picolibc's C headers; readelf for
  # Vortex's vxbin.py
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils
  # Intel Xe referees: ocloc (IGC 1.0.12504) and GenX_IR, the vISA verifier
  intel-opencl-icd libigc-tools
  # build and test
  cmake ninja-build python3 libgtest-dev
  # the format check (test/Foundation/format.test, make format)
  clang-format-22
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo -n"; else
    echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
