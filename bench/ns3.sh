#!/bin/sh
# ns-3 side of the event-loop hold-model comparison (run by `make bench`
# after build/bench_loop has written its loop_hold_N* rows).
# Usage: sh bench/ns3.sh [CSV]   (default build/bench.csv; env BUILD, CXX)
# If ns-3's development files are installed, builds bench/ns3_hold.cc
# against ns3-core and runs the hold model on ibcc's loop and on ns-3's
# Map, Heap, Calendar and reverse Calendar schedulers (and through the full
# Simulator) in one process, interleaved per repetition; appends their
# rows and ratio_ibcc_over_best_ns3_N<N> (ibcc / the fastest scheduler,
# below 1: ibcc is faster), then prints the table.
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

# The side-by-side table, from the medians ns3_hold wrote (ibcc measured
# in the same process, interleaved with the schedulers).
awk -F, '
  $3 == "ns/event" && $1 ~ /^ns3proc_ibcc_hold_N/ { n = substr($1, 20); ib[n] = $2 }
  $3 == "ns/event" && $1 ~ /^ns3_.*_hold_N/  {
      s = $1; sub(/^ns3_/, "", s); i = index(s, "_hold_N")
      k = substr(s, 1, i - 1); n = substr(s, i + 7); ns[k, n] = $2 }
  $3 == "ratio" && $1 ~ /^ratio_ibcc_over_best_ns3_N/ { n = substr($1, 27); rb[n] = $2 }
  END {
    split("1 16 1024 65536 1048576", N, " ")
    split("map heap calendar calendar_rev sim_map", K, " ")
    printf "\nhold model, ns/event (medians, one process, interleaved); best = fastest\n"
    printf "of map, heap, calendar, calendar_rev; ratio = ibcc / best (below 1: ibcc faster)\n"
    printf "%9s %8s %8s %8s %8s %8s %8s %7s %7s\n", "N", "ibcc", "map", "heap",
           "calendar", "cal_rev", "sim_map", "best", "ratio"
    for (a = 1; a <= 5; a++) {
      n = N[a]
      if (!(n in ib)) continue
      best = ns[K[1], n]
      for (b = 2; b <= 4; b++) if (ns[K[b], n] < best) best = ns[K[b], n]
      line = sprintf("%9s %8.1f", n, ib[n])
      for (b = 1; b <= 5; b++) line = line sprintf(" %8.1f", ns[K[b], n])
      print line sprintf(" %7.1f %7.3f", best, rb[n])
    }
  }' "$csv"

# The whole fabric: the two-switch victim scenario (L = R = 10, 200 ms) in
# the ns-3 model (examples/ns3, ibcc's engines inside ns-3 NetDevices and
# ns-3's Simulator) and on ibcc's own fabric (ibcc_fabric + ibcc_loop),
# run by the same binary (--engine=ns3 / --engine=ibcc) with the same
# configuration, 5 times each, interleaved; wall time per run, process
# start included for both. Rows fabric_twoswitch_<row>_{ns3,ibcc} (s) and
# ratio_ns3_over_ibcc_fabric_<row> (above 1: ibcc's fabric is faster).
if ! make -s ns3-build BUILD="$B" >"$B/ns3_fabric.log" 2>&1 || [ ! -x "$B/ns3/ibcc-twoswitch" ]; then
  echo "skip: the ns-3 model did not build (see $B/ns3_fabric.log)"; exit 0
fi
now_ns() { date +%s%N; }
for row in nocc input iba mvcm; do
  ts3=""; tib=""
  for rep in 1 2 3 4 5; do
    for eng in ns3 ibcc; do
      t0=$(now_ns)
      "$B/ns3/ibcc-twoswitch" --row=$row --engine=$eng --time=200 --victim-from=100 \
          --victim-to=150 >/dev/null 2>&1 || { echo "FAIL: ibcc-twoswitch --row=$row --engine=$eng"; exit 1; }
      t1=$(now_ns)
      s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", (b - a) / 1e9 }')
      if [ $eng = ns3 ]; then ts3="$ts3 $s"; else tib="$tib $s"; fi
    done
  done
  echo "$ts3|$tib" | awk -F'|' -v row=$row '
    function med(s, a,   n, i, j, t) { n = split(s, a, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n }
    { n = med($1, x); m = med($2, y)
      printf "fabric_twoswitch_%s_ns3,%.6f,s,%.6f,%.6f\n", row, x[int((n + 1) / 2)], x[1], x[n]
      printf "fabric_twoswitch_%s_ibcc,%.6f,s,%.6f,%.6f\n", row, y[int((m + 1) / 2)], y[1], y[m]
      # ratio per repetition (the k-th ns-3 run over the k-th ibcc run), then its median
      split($1, p, " "); split($2, q, " "); r = ""
      for (i = 1; i <= n; i++) r = r " " p[i] / q[i]
      k = med(r, z)
      printf "ratio_ns3_over_ibcc_fabric_%s,%.3f,ratio,%.3f,%.3f\n", row, z[int((k + 1) / 2)], z[1], z[k] }' >> "$csv"
done
echo ""
echo "two-switch scenario, 200 ms, wall time per run (medians of 5, interleaved, same binary):"
awk -F, '$1 ~ /^fabric_twoswitch_/ { printf "  %-32s %9.3f s\n", $1, $2 }
         $1 ~ /^ratio_ns3_over_ibcc_fabric_/ { printf "  %-32s %9.2f (ns-3 / ibcc)\n", $1, $2 }' "$csv"
