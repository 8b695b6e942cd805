#!/bin/sh
# What one VL costs against the fabric before VLs: builds bench/bench_vl.c
# twice, against ibcc.h and against the header of PREV (the last commit
# before the fabric had VLs; git needed), and runs the two binaries in
# turn ROUNDS times; prints each 1-VL median and their ratio.
#   sh bench/vl_cost.sh [ROUNDS]
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
PREV=${PREV:-a7c4849}
ROUNDS=${1:-3}
CC=${CC:-cc}
F="-std=c99 -O2 -DNDEBUG -D_POSIX_C_SOURCE=199309L -Wall -Wextra -Werror -pedantic -I. -Ibench"
mkdir -p "$B/vlprev" || exit 1
git show "$PREV:ibcc.h" > "$B/vlprev/ibcc_prev.h" 2>/dev/null \
  || { echo "vl_cost: needs git and commit $PREV"; exit 2; }
$CC $F bench/bench_vl.c -o "$B/bench_vl" -lm || exit 1
$CC $F -I"$B/vlprev" -DBENCH_VL_PREV bench/bench_vl.c -o "$B/bench_vl_prev" -lm || exit 1
rm -f "$B/vlprev/old.csv" "$B/vlprev/new.csv"
i=0
while [ $i -lt "$ROUNDS" ]; do     # in turn, so both see the same load
  "$B/bench_vl_prev" "$B/vlprev/old.csv" > /dev/null || exit 1
  "$B/bench_vl" "$B/vlprev/new.csv" > /dev/null || exit 1
  i=$((i + 1))
done
awk -F, '/fabric_prev_1vl_ns_per_hop/ {print $2}' "$B/vlprev/old.csv" | sort -n > "$B/vlprev/old.v"
awk -F, '/fabric_1vl_ns_per_hop/ {print $2}' "$B/vlprev/new.csv" | sort -n > "$B/vlprev/new.v"
med() { awk '{v[NR] = $1} END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$1"; }
o=$(med "$B/vlprev/old.v"); n=$(med "$B/vlprev/new.v")
echo "before VLs: $o ns per packet-hop (median of $ROUNDS medians)"
echo "1 VL now:   $n ns per packet-hop"
awk -v o="$o" -v n="$n" 'BEGIN { printf "ratio:      %.3f\n", n / o }'
for v in 2 4 8; do
  awk -F, -v k="fabric_${v}vl_ns_per_hop" '$1 == k {print $2}' "$B/vlprev/new.csv" | sort -n > "$B/vlprev/v$v"
  echo "$v VLs:      $(med "$B/vlprev/v$v") ns per packet-hop"
done
