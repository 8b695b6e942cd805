#!/bin/sh
# ns-3 side of the event-loop hold-model comparison (run by `make bench`
# after build/bench_loop has written its loop_hold_N* rows).
# Usage: sh bench/ns3.sh [CSV]   (default build/bench.csv; env BUILD, CXX)
# If ns-3's development files are installed, builds bench/ns3_hold.cc
# against ns3-core, runs the hold model on ns-3's Map, Heap and Calendar
# schedulers (and through the full Simulator), appends its rows, then the
# ratio rows ratio_ibcc_over_ns3_<sched>_N<N> = ibcc ns/event / ns-3
# ns/event, both medians from the same CSV (below 1: ibcc is faster).
# Without ns-3: prints how to get it and exits 0.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
CXX=${CXX:-c++}
csv=${1:-$B/bench.csv}
skip() {
  echo "skip: ns-3 not found; apt-get install libns3-dev to compare against ns-3's schedulers"
  exit 0
}
command -v "$CXX" >/dev/null 2>&1 || CXX=g++
command -v "$CXX" >/dev/null 2>&1 || { echo "skip: no C++ compiler for the ns-3 comparison (apt-get install g++)"; exit 0; }
mkdir -p "$B"

# Compiler flags of ns-3's core module: tools/ns3-detect.sh (shared with
# the ns-3 model, examples/ns3) works around Debian's broken .pc files.
vars=$(CXX=$CXX sh tools/ns3-detect.sh --sh core 2>/dev/null) || skip
eval "$vars"
cflags=$NS3_CFLAGS; libs=$NS3_LIBS; version=$NS3_VERSION
[ -f /usr/include/ns3/map-scheduler.h ] || [ -n "$cflags" ] || skip

echo "ns-3 ${version:-(version unknown)}: building bench/ns3_hold.cc"
if ! $CXX -std=c++17 -O2 -DNDEBUG -I. -Ibench $cflags \
      -DNS3_VERSION_TEXT="\"${version:-unknown}\"" \
      bench/ns3_hold.cc -o "$B/ns3_hold" $libs >"$B/ns3_hold.log" 2>&1; then
  if [ -z "$version" ]; then skip; fi
  echo "FAIL: ns-3 $version is installed but bench/ns3_hold.cc did not build:"
  head -n 30 "$B/ns3_hold.log"
  exit 1
fi
"$B/ns3_hold" "$csv" || { echo "FAIL: $B/ns3_hold"; exit 1; }

# Ratios and the side-by-side table, from the medians now in the CSV.
awk -F, -v csv="$csv" '
  $3 == "ns/event" && $1 ~ /^loop_hold_N/    { n = substr($1, 12); ib[n] = $2 }
  $3 == "ns/event" && $1 ~ /^ns3_.*_hold_N/  {
      s = $1; sub(/^ns3_/, "", s); i = index(s, "_hold_N")
      k = substr(s, 1, i - 1); n = substr(s, i + 7); ns[k, n] = $2 }
  END {
    split("1 16 1024 65536 1048576", N, " ")
    split("map heap calendar sim_map", K, " ")
    printf "\nhold model, ns/event (median) and ratio ibcc / ns-3 (below 1: ibcc faster)\n"
    printf "%9s %9s %9s %9s %9s %9s %8s %8s %8s %8s\n", "N", "ibcc", "map", "heap",
           "calendar", "sim_map", "r_map", "r_heap", "r_cal", "r_sim"
    missing = 0
    for (a = 1; a <= 5; a++) {
      n = N[a]
      if (!(n in ib)) { missing = 1; continue }
      line = sprintf("%9s %9.1f", n, ib[n])
      for (b = 1; b <= 4; b++) line = line sprintf(" %9.1f", ns[K[b], n])
      for (b = 1; b <= 4; b++) {
        r = (ns[K[b], n] > 0) ? ib[n] / ns[K[b], n] : 0
        line = line sprintf(" %8.3f", r)
        printf "ratio_ibcc_over_ns3_%s_N%s,%.6g,ratio\n", K[b], n, r >> csv
      }
      print line
    }
    if (missing) print "note: no loop_hold_N* rows in " csv "; run make bench for the ratios"
  }' "$csv"
