#!/bin/sh
# What one VL costs against the fabric before VLs: bench/ab_prev.sh runs
# bench/bench_vl.c built against ibcc.h and against the header of PREV
# (the last commit before the fabric had VLs) in turn ROUNDS times; this
# prints each 1-VL median, their ratio and the medians with 2, 4, 8 VLs.
#   sh bench/vl_cost.sh [ROUNDS]
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
PREV=${PREV:-a7c4849}
ROUNDS=${1:-3}
sh bench/ab_prev.sh vl "$PREV" "$ROUNDS" || exit $?
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
