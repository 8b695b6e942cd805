#!/bin/sh
# What PFC costs: bench/ab_prev.sh runs bench/bench_pfc.c built against
# ibcc.h (credit and PFC links in turn, their ratio per run) and, for the
# credit row, against the header of PREV (the last commit before PFC
# links) in turn ROUNDS times; this prints the medians and ratios.
#   sh bench/pfc_cost.sh [ROUNDS]
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
PREV=${PREV:-d2dcddb}
ROUNDS=${1:-3}
sh bench/ab_prev.sh pfc "$PREV" "$ROUNDS" || exit $?
med() { sort -n | awk '{v[NR] = $1} END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
o=$(awk -F, '$1 == "fabric_credit_ns_per_hop" {print $2}' "$B/pfcprev/old.csv" | med)
c=$(awk -F, '$1 == "fabric_credit_ns_per_hop" {print $2}' "$B/pfcprev/new.csv" | med)
p=$(awk -F, '$1 == "fabric_pfc_ns_per_hop" {print $2}' "$B/pfcprev/new.csv" | med)
r=$(awk -F, '$1 == "fabric_pfc_over_credit" {print $2}' "$B/pfcprev/new.csv" | med)
dp=$(awk -F, '$1 == "fabric_credit_deep_ns_per_hop" {print $2}' "$B/pfcprev/new.csv" | med)
dr=$(awk -F, '$1 == "fabric_credit_deep_over_credit" {print $2}' "$B/pfcprev/new.csv" | med)
echo "credit links before PFC: $o ns per packet-hop (median of $ROUNDS medians)"
echo "credit links now:        $c ns per packet-hop"
awk -v o="$o" -v n="$c" 'BEGIN { printf "ratio now/before:        %.3f\n", n / o }'
echo "PFC links:               $p ns per packet-hop"
echo "PFC / credit (same run): $r"
echo "credit, PFC's depth:     $dp ns per packet-hop ($dr x credit, same run)"
