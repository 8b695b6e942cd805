#!/bin/sh
# The "must show" shapes of MVCM on a multistage network [F], run with
# build/ibccsim mvcm on a 4-ary 3-fly (64 hosts, 16 hot sources, load 0.45
# bytes/cycle/host, hot spot after 50 000 deliveries). Measured values and
# margins (docs/scenario_mvcm.md has the tables):
# - no CMM: the congestion tree fills the network: cold latency during the
#   hot spot at least 50x the latency before it (measured 196x);
# - MVCM keeps cold latency during the hot spot below 5% of no CMM's
#   (measured 0.7%) and within 4x of its own latency before the hot spot
#   (1.36x), marks under 5% of the cold packets (2.6%) and keeps the hot
#   link at least 60% busy (77%);
# - PI marks at least 3x more cold packets than MVCM (measured 26x);
# - every run conserves packets and credits; the same run gives the same
#   bytes. Prints RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
sim=$B/ibccsim
pass=0; fail=0
if [ ! -x "$sim" ]; then
  echo "FAIL mvcm: $sim not built"; echo "RESULT 0 1"; exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
run() { # name flags...
  n=$1; shift
  if ! "$sim" mvcm --quiet --summary "$tmp/$n.csv" "$@"; then
    echo "FAIL mvcm $n: ibccsim mvcm $* failed"; fail=$((fail + 1))
  fi
}
m() { awk -F, -v k="$2" '$1 == k { print $2 }' "$tmp/$1.csv"; }
check() { # description awk-condition
  if awk "BEGIN { exit !($2) }"; then pass=$((pass + 1))
  else echo "FAIL mvcm: $1 ($2)"; fail=$((fail + 1)); fi
}
run none --cmm none
run mvcm --cmm mvcm
run pi --cmm pi
run mvcm2 --cmm mvcm
for n in none mvcm pi; do
  check "$n conserved" "$(m $n conserved) == 1"
done
check "no CMM: the hot spot spreads" "$(m none cold_latency_mean) > 50 * $(m none cold_latency_base)"
check "MVCM: cold latency far below no CMM" "$(m mvcm cold_latency_mean) < 0.05 * $(m none cold_latency_mean)"
check "MVCM: cold latency near its own base" "$(m mvcm cold_latency_mean) < 4 * $(m mvcm cold_latency_base)"
check "MVCM: almost no cold packet marked" "$(m mvcm marked_pct_cold) < 5"
check "MVCM: the hot link stays busy" "$(m mvcm hot_link_util) > 0.6"
check "PI marks more cold packets than MVCM" "$(m pi marked_pct_cold) > 3 * $(m mvcm marked_pct_cold)"
if cmp -s "$tmp/mvcm.csv" "$tmp/mvcm2.csv"; then pass=$((pass + 1))
else echo "FAIL mvcm: the same run gave different results"; fail=$((fail + 1)); fi
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
