#!/bin/sh
# The cost of including ibcc.h's implementation: compile time (median of
# 3 runs of `cc -O2 -c`) and object size (text + data, from size(1)),
# with the fabric (layer L3) and without it (IBCC_NO_FABRIC), and in the
# firmware profile. Prints one line per build; the header's top comment
# quotes them (re-run: sh tools/header_cost.sh).
set -u
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ibcc-cost.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
printf '#define IBCC_IMPLEMENTATION\n#include "ibcc.h"\n' > "$tmp/impl.c"
one() {  # name, flags
  name=$1; shift
  t=""
  for i in 1 2 3; do
    s=$(date +%s.%N)
    $CC -std=c99 -O2 -I. "$@" -c "$tmp/impl.c" -o "$tmp/impl.o" || exit 1
    e=$(date +%s.%N)
    t="$t $(awk -v a="$s" -v b="$e" 'BEGIN { print b - a }')"
  done
  med=$(printf '%s\n' $t | sort -n | sed -n 2p)
  sz=$(size "$tmp/impl.o" | awk 'NR == 2 { print $1 + $2 }')
  printf '%-28s compile %.2f s   object %d KiB\n' "$name" "$med" $((sz / 1024))
}
one "with the fabric"
one "IBCC_NO_FABRIC" -DIBCC_NO_FABRIC
one "IBCC_FIRMWARE" -DIBCC_FIRMWARE
