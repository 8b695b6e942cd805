#!/bin/sh
# [F] Ferrer et al., MVCM on k-ary n-flies of CIOQ switches: every result
# of the paper's evaluation beside ibcc's (tools/fidelity/run.sh writes the
# table into docs/scenario_mvcm.md). v1: the code before issue 25.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tools/fidelity/lib.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fid-f.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# the 4-ary 5-fly of Figs 5, 6, 9-14, 16, shortened hot spot
B5="--n 5 --hot-sources 16 --hot-packets 250"
run() { # name args...
  nm=$1; shift
  nice -n 10 "$SIM" mvcm --quiet --summary "$tmp/$nm.csv" --series "$tmp/$nm.ser" "$@" \
    || { echo "f.sh: ibccsim mvcm $* failed" >&2; exit 1; }
}
m() { awk -F, -v k="$2" '$1 == k { print $2 }' "$tmp/$1.csv"; }
peak() { fid_csv_col "$tmp/$1.ser" cold_latency | sort -g | tail -n 1; }
cmd() { echo "build/ibccsim mvcm $*"; }

for c in none rp pi mvcm; do run "$c" $B5 --cmm "$c"; done
run piv $B5 --cmm pi --validated
run nowarm $B5 --cmm mvcm --no-warm
run nocap $B5 --cmm mvcm --no-cap

v=$(peak none)
fid_row "§5.2.1, Fig 5a" "no CMM: cold latency during the hot spot rises above 140 000 cycles" "> 140 000" "$v" \
  "$(fid_true "$v > 140000")" "$(cmd $B5 --cmm none --series F)" "peak of the cold-latency series (20 us bins)"
v=$(peak mvcm)
fid_row "§5.2.1, Fig 5a" "MVCM: peak cold latency about 3 000 cycles" "about 3 000" "$v" \
  "$(fid_mark_num 3000 "$v")" "$(cmd $B5 --cmm mvcm --series F)" ""
a=$(m none cold_throughput); b=$(m mvcm cold_throughput)
fid_row "§5.2.1, Fig 5b" "cold throughput drops during the hot spot without a CMM; MVCM avoids the drop" "drop; none with MVCM" "none $a, MVCM $b" \
  "$(fid_true "$b > 1.05 * $a")" "$(cmd $B5 --cmm X)" "cold_throughput, bytes/cycle/host"
v=$(m mvcm hot_link_util)
fid_row "§5.2.1, Fig 6b" "MVCM keeps the hot-spot link 100% busy during the hot spot" "1.00" "$v" \
  "$(fid_mark_num 1 "$v")" "$(cmd $B5 --cmm mvcm)" "hot_link_util"
for nk in "4 4" "4 3" "8 3"; do
  set -- $nk
  run "none$1$2" --k "$1" --n "$2" --cmm none
  run "mvcm$1$2" --k "$1" --n "$2" --cmm mvcm
  a=$(peak "none$1$2"); b=$(peak "mvcm$1$2")
  case $1$2 in 44) f=7a ;; 43) f=7b ;; 83) f=7c ;; esac
  fid_row "§5.2.1, Fig $f" "$1-ary $2-fly: MVCM cuts the peak cold latency well below no CMM's" "much lower" "none $a, MVCM $b" \
    "$(fid_true "$b < 0.5 * $a")" "$(cmd --k "$1" --n "$2" --cmm X --series F)" ""
done
fid_row "§5.2.1, Fig 7d" "application traces (DL_POLY, CPMD) on a 4-ary 3-fly: MVCM lowers cold latency" "lower" "-" notrun "" \
  "needs trace-driven workloads (the workload issue's traces)"
fid_row "§5.2.1, Fig 8" "2-ary 3-fly, two flows 000-111 and 011-111 congest a 2nd-stage switch; MVCM protects the traced cold flows 001/010 to 101" "protected" "-" notrun "" \
  "ibccsim mvcm has no explicit flow list"
for c in none rp pi mvcm; do eval "l_$c=\$(m $c latency_mean)"; done
fid_row "§5.2.2, Fig 9a" "RP has the highest mean latency of the three CMMs, MVCM the lowest" "RP > PI > MVCM" "RP $l_rp, PI $l_pi, MVCM $l_mvcm" \
  "$(fid_true "$l_rp > $l_pi && $l_pi > $l_mvcm")" "$(cmd $B5 --cmm X)" "latency_mean, all packets, one load"
for c in rp pi mvcm; do
  v=$(m $c marked_pct_cold)
  case $c in rp) p=11 ;; pi) p=5 ;; mvcm) p=0.1 ;; esac
  fid_row "§5.2.2, Fig 10" "$c marks about $p% of the cold packets" "$p %" "$v %" \
    "$(fid_mark_num "$p" "$v")" "$(cmd $B5 --cmm $c)" "marked_pct_cold"
done
a=$(m rp marked_pct_hot); b=$(m pi marked_pct_hot); c2=$(m mvcm marked_pct_hot)
fid_row "§5.2.2, Fig 10" "hot packets: PI marks the most, RP the fewest, MVCM slightly below PI" "PI > MVCM > RP" "PI $b, MVCM $c2, RP $a" \
  "$(fid_true "$b >= $c2 && $c2 > $a")" "$(cmd $B5 --cmm X)" "marked_pct_hot"
for c in none rp pi mvcm; do eval "p_$c=\$(peak $c)"; done
fid_row "§5.2.2, Fig 11a1" "RP: peak cold latency up to 10 000 cycles" "10 000" "$p_rp" "$(fid_mark_num 10000 "$p_rp")" "$(cmd $B5 --cmm rp --series F)" ""
fid_row "§5.2.2, Fig 11b1" "PI: peak cold latency a little over 8 000 cycles" "> 8 000" "$p_pi" "$(fid_mark_range 8000 10000 "$p_pi")" "$(cmd $B5 --cmm pi --series F)" ""
fid_row "§5.2.2, Fig 11" "both RP and PI improve on no CMM; MVCM best" "none > RP, PI > MVCM" "none $p_none, RP $p_rp, PI $p_pi, MVCM $p_mvcm" \
  "$(fid_true "$p_none > $p_rp && $p_none > $p_pi && $p_rp > $p_mvcm && $p_pi > $p_mvcm")" "$(cmd $B5 --cmm X --series F)" ""
v=$(peak piv)
fid_row "§5.2.2, Fig 12" "PI acting only on validated packets lowers cold latency against plain PI" "lower" "PI $p_pi, validated $v" \
  "$(fid_true "$v < $p_pi")" "$(cmd $B5 --cmm pi --validated --series F)" ""
fid_row "§5.2.2, Fig 13" "MVCM acting on input marks only (no validation) raises cold latency against MVCM" "higher" "-" notrun "" \
  "no such variant yet"
a=$(m mvcm cold_latency_mean); b=$(m nowarm cold_latency_mean)
fid_row "§5.2.2, Fig 14" "MVCM without warm marking: cold latency penalised" "higher" "MVCM $a, no warm $b" \
  "$(fid_true "$b > 1.02 * $a")" "$(cmd $B5 --cmm mvcm --no-warm)" "cold_latency_mean"
fid_row "§5.2.2, Fig 15" "traces on a 4-ary 3-fly: MVCM peak < 5 000, mean 1 300; RP peak 12 000, PI 10 000, mean 4 500 cycles" "see claim" "-" notrun "" \
  "needs trace-driven workloads (the workload issue's traces)"
a=$(m mvcm hot_link_util); b=$(m nocap hot_link_util)
fid_row "§5.2.3, Fig 16b" "MVCM without the cap on waiting slots: gaps in hot traffic" "gaps (lower hot throughput)" "MVCM $a, no cap $b" \
  "$(fid_true "$b < 0.98 * $a")" "$(cmd $B5 --cmm mvcm --no-cap)" "hot_link_util"
