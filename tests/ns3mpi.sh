#!/bin/sh
# The ns-3 model on ns-3's distributed (MPI) simulator: the fat tree of
# build/ns3mpi/ibcc-fattree-mpi (k = 16: 1024 hosts, 320 switches,
# permutation traffic, IBA FECN marking + the CCT agent, window 1) run on
# each rank count of $RANKS (default "1 2"; `make ns3-mpi` runs 1 2 4)
# for $TIME simulated microseconds (default 20), partitioned by pod. One
# rank is ns-3's sequential simulator: its delivery history (every
# delivered packet: time in ps, destination, source, QP, header bits,
# latency; FNV-1a over them in time order) is the reference, and every
# other rank count must deliver the same packets at the same picoseconds:
# prints ranks=N identical=1 (a FAIL otherwise). Also checked:
#   - the runs on several ranks sent messages across ranks (data,
#     credits and ACKs went through the remote channels) and received
#     them (all but the few still in flight when the run stops);
#   - a k = 8 fat tree (128 hosts), window 8, cut by switch (nearly
#     every link between two ranks) on 2 ranks, 200 us: the same history
#     as on one rank, with ns-3's granted time window and with its null
#     message synchroniser (--sync=null);
#   - bad options are refused with a message and exit status 2.
# Then the table: wall time, events, synchronisation rounds and the time
# in them, per rank. `make test` runs it; it skips unless `make
# ns3-mpi-build` has built ns-3's MPI module once (.ci/run does), and then
# rebuilds the program if the model changed. Prints RESULT for
# tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
RANKS=${RANKS:-1 2}
TIME=${TIME:-20}
P=$B/ns3mpi/ibcc-fattree-mpi
if [ "${IBCC_NS3:-}" = no ]; then
  echo "skip: ns-3 distributed runs (IBCC_NS3=no)"; echo "RESULT 0 0"; exit 0
fi
# once the MPI module is built, keep the program up to date with the model
if [ -f "$B/ns3mpi/lib/libns3-mpi.so" ] &&
   ! make -s ns3-mpi-build BUILD="$B" >"$B/ns3mpi/build.log" 2>&1; then
  echo "FAIL: make ns3-mpi-build:"; tail -n 30 "$B/ns3mpi/build.log"
  echo "RESULT 0 1"; exit 1
fi
if [ ! -x "$P" ]; then
  echo "skip: $P not built (make ns3-mpi-build: needs libns3-dev, libopenmpi-dev, openmpi-bin and deb-src entries)"
  echo "RESULT 0 0"; exit 0
fi
if ! command -v mpirun >/dev/null 2>&1; then
  echo "skip: no mpirun (apt-get install openmpi-bin)"; echo "RESULT 0 0"; exit 0
fi
# Open MPI: more ranks than cores is fine here, and CI runs as root
MPIRUN="mpirun"
if mpirun --version 2>&1 | grep -q "Open MPI"; then
  MPIRUN="mpirun --oversubscribe"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" | head -n 1; }
mkdir -p "$B/ns3mpi/runs"
out=$B/ns3mpi/runs

run() {   # run RANKS OUTFILE ARGS...: 1 rank without mpirun
  n=$1; o=$2; shift 2
  if [ "$n" = 1 ]; then
    nice -n 10 "$P" "$@" >"$o" 2>&1
  else
    nice -n 10 $MPIRUN -np "$n" "$P" "$@" >"$o" 2>&1
  fi
}

ref=""; refd=""
for n in $RANKS; do
  o=$out/fattree_$n.out
  if ! run "$n" "$o" --time="$TIME" --partition=pod ${ref:+--expect=$ref}; then
    bad "ranks=$n: ibcc-fattree-mpi failed"; tail -n 20 "$o"; continue
  fi
  h=$(field hash < "$o"); d=$(field delivered < "$o")
  if [ -z "$ref" ]; then
    ref=$h; refd=$d
    if [ -n "$h" ] && [ "${d:-0}" -gt 0 ]; then ok; else bad "ranks=1: no history ($o)"; fi
    echo "ranks=$n identical=1 (the reference: $d packets, hash $h)"
    continue
  fi
  same=$(field identical < "$o")
  if [ "$same" = 1 ] && [ "$h" = "$ref" ] && [ "$d" = "$refd" ]; then
    ok; echo "ranks=$n identical=1"
  else
    bad "ranks=$n identical=${same:-?}: hash $h delivered $d, one rank $ref $refd"
  fi
  # messages crossed ranks, and arrived (those due after the end of the
  # run are not received: at most a few per link direction in flight)
  s=$(awk '/^  rank /{ for (i = 1; i <= NF; i++) if ($i ~ /^sent=/) { sub(/sent=/, "", $i); t += $i } } END { print t + 0 }' "$o")
  r=$(awk '/^  rank /{ for (i = 1; i <= NF; i++) if ($i ~ /^received=/) { sub(/received=/, "", $i); t += $i } } END { print t + 0 }' "$o")
  if [ "$r" -gt 0 ] && [ "$r" -le "$s" ] && [ $((s - r)) -lt $((s / 100 + 64)) ]; then ok
  else bad "ranks=$n: $s messages sent, $r received"; fi
done

# docs/embedding.md quotes the default run (20 us): its reference history
# and the events each rank ran (deterministic; the times are not)
if [ "$TIME" = 20 ] && [ -n "$ref" ]; then
  if grep -F -q "the reference: $refd packets, hash $ref" docs/embedding.md; then ok
  else bad "docs/embedding.md lacks 'the reference: $refd packets, hash $ref'"; fi
  fe=$(field fecn < "$out/fattree_1.out")
  if grep -F -q "$fe of the $refd packets carry a FECN mark" docs/embedding.md; then ok
  else bad "docs/embedding.md lacks '$fe of the $refd packets carry a FECN mark'"; fi
  for n in $RANKS; do
    o=$out/fattree_$n.out
    [ -f "$o" ] || continue
    ev=$(awk '/^  rank /{ for (i = 1; i <= NF; i++) if ($i ~ /^events=/) { sub(/events=/, "", $i); printf "%s%s", sep, $i; sep = ", " } }' "$o")
    if grep -F -q "| $n | " docs/embedding.md && grep "| $n | " docs/embedding.md | grep -F -q "| $ev |"; then ok
    else bad "docs/embedding.md's rank table lacks the events per rank of $n ranks ($ev)"; fi
  done
fi

# a smaller tree cut by switch (nearly every link crosses ranks), loaded
# (window 8: many marks, many same-instant arrivals): with the switches
# taking an instant's visible packets as their events ran instead of in
# port order, this run's history differed between 1 and 2 ranks
if run 1 "$out/small_1.out" --k=8 --time=200 --window=8 --partition=switch; then
  h=$(field hash < "$out/small_1.out")
  if run 2 "$out/small_2.out" --k=8 --time=200 --window=8 --partition=switch --expect="$h" &&
     [ "$(field identical < "$out/small_2.out")" = 1 ]; then
    ok; echo "k=8 window=8 partition=switch ranks=2 identical=1"
  else
    bad "k=8 window=8 partition=switch on 2 ranks: not the 1-rank history"; tail -n 5 "$out/small_2.out"
  fi
  # the same on ns-3's other synchroniser (null messages)
  if run 2 "$out/small_null.out" --k=8 --time=200 --window=8 --partition=switch --sync=null \
       --expect="$h" && [ "$(field identical < "$out/small_null.out")" = 1 ]; then
    ok; echo "k=8 window=8 partition=switch ranks=2 sync=null identical=1"
  else
    bad "k=8 on 2 ranks with null messages: not the 1-rank history"; tail -n 5 "$out/small_null.out"
  fi
else
  bad "k=8 one rank failed"; tail -n 5 "$out/small_1.out"
fi

# bad input: a message and exit status 2, no crash
for a in --partition=nope --k=5 --cc=dcqcn --time=0 --sync=optimistic; do
  "$P" "$a" >"$out/bad.out" 2>&1; st=$?
  if [ $st -eq 2 ] && grep -q "ibcc-fattree-mpi: " "$out/bad.out"; then ok
  else bad "$a: exit $st, $(head -c 200 "$out/bad.out")"; fi
done

echo "fat tree k=16 (1024 hosts), $TIME us, partition by pod; per rank: events run,"
echo "CPU seconds, synchronisation rounds and wall seconds in them, messages sent"
for n in $RANKS; do
  o=$out/fattree_$n.out
  [ -f "$o" ] || continue
  awk -v n="$n" '
    function v(k,   i, x) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) { x = $i; sub(/^[a-z_]*=/, "", x); return x } return "" }
    /^ranks=/ { printf "ranks=%s wall_s=%s delivered=%s hash=%s\n", n, v("wall_s"), v("delivered"), v("hash") }
    /^  rank / { printf "  rank %-3s events=%-9s cpu_s=%-7s rounds=%-7s sync_s=%-7s sent=%s\n", $2, v("events"), v("cpu_s"), v("rounds"), v("sync_s"), v("sent") }' "$o"
done
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
