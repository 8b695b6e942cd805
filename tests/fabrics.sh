#!/bin/sh
# ibccsim fabric-check on the example fabrics of examples/fabrics: the fat
# tree (2 spines, 4 leaves, 8 hosts) gives its exact counts with its
# forwarding tables and with computed up/down routes; the tables with a
# loop and broken inputs exit non-zero with file:line. Prints RESULT for
# tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
sim=$B/ibccsim
F=examples/fabrics
pass=0; fail=0
if [ ! -x "$sim" ]; then
  echo "FAIL fabrics: $sim not built"; echo "RESULT 0 1"; exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
want="hosts=8 switches=6 links=16 routes_ok=56 credit_loops=0"
good() { # description expected-output args...
  d=$1; w=$2; shift 2
  out=$("$sim" fabric-check "$@" 2> "$tmp/err"); rc=$?
  if [ "$rc" -eq 0 ] && [ "$out" = "$w" ]; then pass=$((pass + 1))
  else echo "FAIL fabrics: $d: exit $rc, output '$out'"; cat "$tmp/err"; fail=$((fail + 1)); fi
}
bad() { # description expected-stderr-prefix args...
  d=$1; w=$2; shift 2
  if "$sim" fabric-check "$@" > "$tmp/out" 2> "$tmp/err"; then
    echo "FAIL fabrics: $d: accepted"; fail=$((fail + 1))
  elif grep -q "^$w" "$tmp/err" && [ ! -s "$tmp/out" ]; then pass=$((pass + 1))
  else echo "FAIL fabrics: $d: expected '$w...'"; cat "$tmp/err"; fail=$((fail + 1)); fi
}
good "fat tree with its tables" "$want" --ibnetdiscover $F/fattree.topo --lfts $F/fattree.lfts
good "fat tree, up/down routes" "$want" --ibnetdiscover $F/fattree.topo
# the same fat tree as ibdiagnet writes it: the same counts
good "fat tree, ibdiagnet lst + fdbs" "$want" --lst $F/ibdiagnet/ibdiagnet2.lst --fdbs $F/ibdiagnet/ibdiagnet2.fdbs
good "fat tree, ibdiagnet db_csv + fdbs" "$want" --db-csv $F/ibdiagnet/ibdiagnet2.db_csv --fdbs $F/ibdiagnet/ibdiagnet2.fdbs
good "fat tree, ibdiagnet lst, up/down" "$want" --lst $F/ibdiagnet/ibdiagnet2.lst
if "$sim" fabric-check --lst $F/ibdiagnet/ibdiagnet2.lst --ibnetdiscover $F/fattree.topo > "$tmp/out" 2> "$tmp/err"; then
  echo "FAIL fabrics: two topologies accepted"; fail=$((fail + 1))
elif grep -q "give one topology" "$tmp/err"; then pass=$((pass + 1))
else echo "FAIL fabrics: two topologies: no message"; fail=$((fail + 1)); fi
# four switches in a ring whose tables all turn clockwise: every route
# arrives, but the channels can wait on each other in a circle: exit 3,
# credit_loops=1 and the four clockwise ports; up/down routes on the same
# ring have none
out=$("$sim" fabric-check --ibnetdiscover $F/ring4.topo --lfts $F/ring4-cw.lfts 2> "$tmp/err"); rc=$?
if [ "$rc" -eq 3 ] && [ "$out" = "hosts=4 switches=4 links=8 routes_ok=12 credit_loops=1
loop: 1 loop(s) over 4 channels; one crosses 4: 'ring1'/2 -> 'ring2'/2 -> 'ring3'/2 -> 'ring4'/2" ]
then pass=$((pass + 1)); else echo "FAIL fabrics: ring, clockwise: exit $rc, output '$out'"; fail=$((fail + 1)); fi
# the same ring under load deadlocks: custom stops with the blocked
# channels instead of a silent zero throughput
if "$sim" custom --topology ibnetdiscover --ibnetdiscover $F/ring4.topo --lfts $F/ring4-cw.lfts \
     --traffic uniform --load 1 --time 50 --quiet > "$tmp/out" 2> "$tmp/err"; then
  echo "FAIL fabrics: the deadlocked ring ran to the end"; fail=$((fail + 1))
elif grep -q "^ibccsim custom: run: stalled: no packet moved from .*; 4 blocked: 0:1->1:2 vl0, 1:1->2:2 vl0, 2:1->3:2 vl0, 3:1->0:2 vl0$" "$tmp/err"
then pass=$((pass + 1)); else echo "FAIL fabrics: deadlocked ring:"; cat "$tmp/err"; fail=$((fail + 1)); fi
good "ring, up/down routes" "hosts=4 switches=4 links=8 routes_ok=12 credit_loops=0" --ibnetdiscover $F/ring4.topo
# the same clockwise ring with two VLs from an opensm.conf (qos_max_vls 2:
# SL s on VL s & 1): the loop is on each VL, named with its VL
printf 'qos TRUE\nqos_max_vls 2\n' > "$tmp/osm.conf"
looped() { # description expected-output args...: exit 3 and the output
  d=$1; w=$2; shift 2
  out=$("$sim" fabric-check "$@" 2> "$tmp/err"); rc=$?
  if [ "$rc" -eq 3 ] && [ "$out" = "$w" ]; then pass=$((pass + 1))
  else echo "FAIL fabrics: $d: exit $rc, output '$out'"; cat "$tmp/err"; fail=$((fail + 1)); fi
}
looped "ring, clockwise, 2 VLs" "hosts=4 switches=4 links=8 routes_ok=12 credit_loops=2 vls=2
loop: 2 loop(s) over 8 channels; one crosses 4: 'ring1'/2 vl0 -> 'ring2'/2 vl0 -> 'ring3'/2 vl0 -> 'ring4'/2 vl0" \
  --ibnetdiscover $F/ring4.topo --lfts $F/ring4-cw.lfts --opensm-conf "$tmp/osm.conf"
# the builders, as custom builds them: up/down routes, dimension order
# (a torus: 4 VLs for its two datelines), the dragonfly's minimal routes
# (VL 0 before the global hop, 1 after); without those VLs, loops
good "fat tree builder" "hosts=64 switches=48 links=192 routes_ok=4032 credit_loops=0" --topology fattree --k 4 --n 3
good "n-fly builder" "hosts=27 switches=27 links=81 routes_ok=702 credit_loops=0" --topology nfly --k 3 --n 3
good "mesh, up/down" "hosts=24 switches=12 links=41 routes_ok=552 credit_loops=0" --topology mesh --x 4 --y 3 --hps 2
good "mesh, dimension order" "hosts=24 switches=12 links=41 routes_ok=552 credit_loops=0" --topology mesh --x 4 --y 3 --hps 2 --routing dor
good "torus, up/down" "hosts=25 switches=25 links=75 routes_ok=600 credit_loops=0" --topology torus --x 5 --y 5
good "torus, dimension order, datelines" "hosts=25 switches=25 links=75 routes_ok=600 credit_loops=0 vls=4" --topology torus --x 5 --y 5 --routing dor
looped "torus, dimension order, one VL" "hosts=25 switches=25 links=75 routes_ok=600 credit_loops=20
loop: 20 loop(s) over 100 channels; one crosses 5: switch 25/1 -> switch 26/1 -> switch 27/1 -> switch 28/1 -> switch 29/1" \
  --topology torus --x 5 --y 5 --routing dor --vls 1
good "dragonfly, minimal" "hosts=72 switches=36 links=162 routes_ok=5112 credit_loops=0 vls=2" --topology dragonfly
good "dragonfly 8/4/4, minimal" "hosts=1056 switches=264 links=2508 routes_ok=1114080 credit_loops=0 vls=2" --topology dragonfly --a 8 --p 4 --h 4
looped "dragonfly, one VL" "hosts=72 switches=36 links=162 routes_ok=5112 credit_loops=1
loop: 1 loop(s) over 180 channels; one crosses 6: switch 72/2 -> switch 73/5 -> switch 86/4 -> switch 87/5 -> switch 76/4 -> switch 79/6" \
  --topology dragonfly --vls 1
# Valiant through LMC: 8 LIDs per host (5 candidate groups), every LID's
# routes walked, three VLs, no loop with the paths' SLs
good "dragonfly, valiant" "hosts=72 switches=36 links=162 routes_ok=40896 credit_loops=0 vls=4 lmc=3" --topology dragonfly --routing valiant
good "dragonfly, valiant, lmc 1" "hosts=72 switches=36 links=162 routes_ok=10224 credit_loops=0 vls=4 lmc=1" --topology dragonfly --routing valiant --lmc 1
good "dragonfly, minimal, lmc 2" "hosts=72 switches=36 links=162 routes_ok=20448 credit_loops=0 vls=2 lmc=2" --topology dragonfly --lmc 2
bad "dragonfly, valiant, 2 VLs" "ibccsim fabric-check: --vls 2: valiant routing takes 3 VLs" \
  --topology dragonfly --routing valiant --vls 2
bad "dragonfly, valiant, lmc 0" "ibccsim fabric-check: --lmc 0: 1..7 for valiant" \
  --topology dragonfly --routing valiant --lmc 0
bad "lmc on a torus" "ibccsim fabric-check: --lmc applies to topology = dragonfly" --topology torus --lmc 1
bad "a builder and a file" "ibccsim fabric-check: --topology builds a fabric" --topology torus --ibnetdiscover $F/ring4.topo
bad "the loop" "$F/fattree-loop.lfts:15: the route to LID 17" \
    --ibnetdiscover $F/fattree.topo --lfts $F/fattree-loop.lfts
# a topology line broken on purpose; spine1 port 1 rewired to leaf2 port 7,
# which spine1 port 2 also claims (reported at the second claim, line 12)
sed '40s/.*/this is not ibnetdiscover output/' $F/fattree.topo > "$tmp/t1.topo"
bad "unknown topology line" "$tmp/t1.topo:40: not a line" --ibnetdiscover "$tmp/t1.topo"
sed 's/^\[1\]\t"S-0002c90300000201"\[7\]/[1]\t"S-0002c90300000202"[7]/' $F/fattree.topo > "$tmp/t2.topo"
bad "port linked twice" "$tmp/t2.topo:12: peer port S-0002c90300000202\[7\] linked twice" --ibnetdiscover "$tmp/t2.topo"
# the tables without leaf4's: its line in the topology is named
awk '/leaf4/ && /^Unicast/ { skip = 1 } !skip' $F/fattree.lfts > "$tmp/l1.lfts"
bad "a switch with no table" "$F/fattree.topo:60: switch leaf4" \
    --ibnetdiscover $F/fattree.topo --lfts "$tmp/l1.lfts"
bad "a missing file" "ibccsim fabric-check: cannot read" --ibnetdiscover "$tmp/none.topo"
if "$sim" fabric-check --lfts $F/fattree.lfts 2> /dev/null; then
  echo "FAIL fabrics: no --ibnetdiscover accepted"; fail=$((fail + 1))
else pass=$((pass + 1)); fi
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
