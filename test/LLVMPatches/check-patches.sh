#!/usr/bin/env bash
# Checks every llvm-patches/*.patch against LLVM as Debian's llvm-N-dev
# installs it (test/LLVMPatches/patches-apply.test runs it).
#
#   check-patches.sh PATCH_DIR WORK_DIR LLVM_TBLGEN [INCLUDE_DIR]
#
# For each patch, in name order (a series):
#  - form: `git apply --numstat` reads it, its header has From: and
#    Subject: [PATCH] lines, and a message precedes the `---` line;
#  - the files it touches that are installed (under llvm/include/) or that it
#    creates are applied to WORK_DIR/tree, a scratch tree with llvm-project's
#    layout holding every installed .td file (and any other installed file a
#    patch touches); the others are reported as "GAP: <file> is not
#    installed ..." (llvm/lib/**/*.cpp) and checked for form only.
# Then, for each patched or new llvm/include/llvm/IR/*.td, llvm-tblgen runs on
# the patched tree and on an unpatched copy (WORK_DIR/debian), writing
# WORK_DIR/gen/<prefix>-enums.inc, debian-<prefix>-enums.inc (intrinsic
# enums of the file's TargetPrefix), impl.inc and debian-impl.inc
# (-gen-intrinsic-impl); the unpatched enums must equal the installed
# generated header. Exit status 1 if anything fails.

set -u
export LC_ALL=C
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

if [ $# -lt 3 ]; then
  echo "usage: $0 PATCH_DIR WORK_DIR LLVM_TBLGEN [INCLUDE_DIR]" >&2
  exit 2
fi
PATCH_DIR=$1
WORK=$2
TBLGEN=$3
LLVM_CONFIG=$(dirname "$TBLGEN")/llvm-config
INC=${4:-$("$LLVM_CONFIG" --includedir 2>/dev/null)}
MAJOR=$("$LLVM_CONFIG" --version 2>/dev/null | cut -d. -f1)
PKG="Debian's llvm-${MAJOR:-?}-dev"

status=0
# Failures go to stderr as well, so that lit shows them when stdout is a log.
fail() { echo "FAIL: $*"; echo "FAIL: $*" >&2; status=1; }

command -v git >/dev/null || { fail "git not found"; exit 1; }
[ -x "$TBLGEN" ] || { fail "$TBLGEN not found"; exit 1; }
[ -f "$INC/llvm/IR/Intrinsics.td" ] ||
  { fail "no llvm/IR/Intrinsics.td under '$INC'"; exit 1; }

TREE=$WORK/tree
PRISTINE=$WORK/debian
GEN=$WORK/gen
rm -rf "$TREE" "$PRISTINE" "$GEN"
mkdir -p "$TREE" "$PRISTINE" "$GEN"
# The scratch tree is a repository of its own: git apply run inside another
# repository (the build directory is in Crosslane's) would take paths as
# relative to that one and skip the patch's files.
git init -q "$TREE" || { fail "git init $TREE"; exit 1; }

# Every installed .td file, as llvm/include/llvm/... in both trees.
(cd "$INC" && find llvm/ -name '*.td' | sort) > "$WORK/td-files.txt"
while read -r f; do
  for root in "$TREE" "$PRISTINE"; do
    mkdir -p "$root/llvm/include/$(dirname "$f")"
    cp "$INC/$f" "$root/llvm/include/$f"
  done
done < "$WORK/td-files.txt"
echo "TREE: $(wc -l < "$WORK/td-files.txt") .td files from $INC"

gitapply() { git -C "$TREE" apply --whitespace=nowarn "$@"; }

: > "$WORK/td-changed.txt"
npatches=0
for P in "$PATCH_DIR"/*.patch; do
  [ -e "$P" ] || { fail "no patches in $PATCH_DIR"; break; }
  npatches=$((npatches + 1))
  name=$(basename "$P")

  # Form.
  if ! gitapply --numstat "$P" > "$WORK/numstat.txt" 2> "$WORK/err.txt"; then
    fail "$name: git apply --numstat: $(head -1 "$WORK/err.txt")"
    continue
  fi
  [ -s "$WORK/numstat.txt" ] || fail "$name: touches no file"
  sed '/^$/q' "$P" > "$WORK/header.txt"
  grep -q '^From: ..*' "$WORK/header.txt" || fail "$name: no From: line"
  grep -q '^Subject: \[PATCH' "$WORK/header.txt" ||
    fail "$name: no Subject: [PATCH] line"
  # The message: non-blank lines after the header's blank line, before ---.
  msg=$(awk 'body && /^---$/ { exit } body && NF { n++ } !body && /^$/ { body = 1 }
             END { print n + 0 }' "$P")
  [ "$msg" -gt 0 ] || fail "$name: no commit message"
  grep -q '^---$' "$P" || fail "$name: no --- line before the diff"

  # Which files can be checked.
  gitapply --summary "$P" | awk '$1 == "create" { print $NF }' > "$WORK/created.txt"
  includes=()
  : > "$WORK/td-patch.txt"
  napply=0
  ngap=0
  while IFS=$'\t' read -r _ _ path; do
    if grep -qxF "$path" "$WORK/created.txt"; then
      includes+=("--include=$path")
    elif [ "${path#llvm/include/}" != "$path" ] &&
         [ -f "$INC/${path#llvm/include/}" ]; then
      if [ ! -f "$TREE/$path" ]; then
        mkdir -p "$TREE/$(dirname "$path")"
        cp "$INC/${path#llvm/include/}" "$TREE/$path"
      fi
      includes+=("--include=$path")
    else
      echo "GAP: $path is not installed by $PKG; apply not checked"
      ngap=$((ngap + 1))
      continue
    fi
    napply=$((napply + 1))
    case "$path" in
      llvm/include/llvm/IR/*.td) echo "$path" >> "$WORK/td-patch.txt" ;;
    esac
  done < "$WORK/numstat.txt"

  if [ "$napply" -gt 0 ]; then
    if gitapply --check "${includes[@]}" "$P" 2> "$WORK/err.txt" &&
       gitapply "${includes[@]}" "$P" 2>> "$WORK/err.txt"; then
      echo "APPLIED: $name (files: $napply applied, $ngap not checked)"
      cat "$WORK/td-patch.txt" >> "$WORK/td-changed.txt"
    else
      sed 's/^/  /' "$WORK/err.txt"
      sed 's/^/  /' "$WORK/err.txt" >&2
      fail "$name does not apply to the files of $PKG"
    fi
  else
    echo "FORM ONLY: $name (files: $ngap not checked)"
  fi
done

# llvm-tblgen on the patched .td files under llvm/include/llvm/IR.
enum_names() { sed -n 's|.*// \(llvm\.[^ ]*\) (.*|\1|p' "$1" | sort; }
impl_done=
while read -r path; do
  file=$(basename "$path")
  case "$file" in
    Intrinsics*.td)
      prefix=$(sed -n 's/.*TargetPrefix *= *"\([A-Za-z0-9_]*\)".*/\1/p' \
               "$TREE/$path" | head -1)
      if [ -n "$prefix" ] && [ ! -f "$GEN/$prefix-enums.inc" ]; then
        upper=$(echo "$prefix" | tr a-z A-Z)
        for side in tree debian; do
          root=$TREE out=$GEN/$prefix-enums.inc
          [ $side = debian ] && root=$PRISTINE out=$GEN/debian-$prefix-enums.inc
          "$TBLGEN" -gen-intrinsic-enums -intrinsic-prefix="$prefix" \
            -I "$root/llvm/include" "$root/llvm/include/llvm/IR/Intrinsics.td" \
            -o "$out" || fail "$path: llvm-tblgen -gen-intrinsic-enums ($side)"
        done
        # The unpatched tree must give what Debian's build generated.
        hdr=$(grep -l "LLVM_IR_INTRINSIC_${upper}_ENUMS_H" \
              "$INC"/llvm/IR/Intrinsics*.h 2>/dev/null | head -1)
        if [ -n "$hdr" ]; then
          cmp -s "$hdr" "$GEN/debian-$prefix-enums.inc" ||
            fail "unpatched enums for '$prefix' differ from $hdr"
        fi
        comm -13 <(enum_names "$GEN/debian-$prefix-enums.inc") \
                 <(enum_names "$GEN/$prefix-enums.inc") > "$GEN/$prefix-new.txt"
        echo "TBLGEN: $path: -gen-intrinsic-enums -intrinsic-prefix=$prefix:" \
             "$(wc -l < "$GEN/$prefix-new.txt") new intrinsics"
      fi
      if [ -z "$impl_done" ]; then
        impl_done=1
        "$TBLGEN" -gen-intrinsic-impl -I "$TREE/llvm/include" \
          "$TREE/llvm/include/llvm/IR/Intrinsics.td" -o "$GEN/impl.inc" ||
          fail "$path: llvm-tblgen -gen-intrinsic-impl"
        "$TBLGEN" -gen-intrinsic-impl -I "$PRISTINE/llvm/include" \
          "$PRISTINE/llvm/include/llvm/IR/Intrinsics.td" \
          -o "$GEN/debian-impl.inc" ||
          fail "$path: llvm-tblgen -gen-intrinsic-impl (debian)"
        echo "TBLGEN: $path: -gen-intrinsic-impl"
      fi
      ;;
    *)
      # Any other IR .td: it must still parse.
      "$TBLGEN" -print-records -I "$TREE/llvm/include" "$TREE/$path" \
        -o /dev/null || fail "$path: llvm-tblgen -print-records"
      echo "TBLGEN: $path: -print-records"
      ;;
  esac
done < <(sort -u "$WORK/td-changed.txt")

if [ "$status" -eq 0 ]; then
  echo "RESULT: OK ($npatches patches)"
else
  echo "RESULT: FAILED"
fi
exit "$status"
