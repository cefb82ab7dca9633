#!/usr/bin/env bash
#===- format.sh - clang-format the project's C++ (LLVM style) -------------===#
#
# The C++ Crosslane keeps clang-format clean with clang-format-22: the
# passes and their headers, the tools, the unit tests and the clang plugin.
# Not the examples and test inputs (written in the style of the projects
# they imitate) nor the headers user code includes
# (include/crosslane/{hip,vortex,xe}).
#
#   tools/format.sh            reformat in place (make format)
#   tools/format.sh --check    list the files that are not clean, exit 1 if any
#
#===----------------------------------------------------------------------===#
set -euo pipefail
CHECK=0
if [ "${1:-}" = "--check" ]; then CHECK=1; shift; fi
ROOT=${1:-$(cd "$(dirname "$0")/.." && pwd)}
FORMAT=${CLANG_FORMAT:-clang-format-22}
command -v "$FORMAT" >/dev/null || FORMAT=/usr/lib/llvm-22/bin/clang-format
cd "$ROOT"
mapfile -t FILES < <(find lib tools unittests clang-plugin include/crosslane \
  \( -path include/crosslane/hip -o -path include/crosslane/vortex -o \
     -path include/crosslane/xe \) -prune -o \
  \( -name '*.cpp' -o -name '*.h' \) -print | sort)
if [ $CHECK -eq 0 ]; then
  "$FORMAT" -i "${FILES[@]}"
  exit 0
fi
bad=0
for f in "${FILES[@]}"; do
  if ! "$FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not clang-format clean: $f"
    bad=$((bad + 1))
  fi
done
echo "format: ${#FILES[@]} files, $bad not clean ($("$FORMAT" --version | head -1))"
[ $bad -eq 0 ]
