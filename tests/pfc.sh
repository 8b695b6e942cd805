#!/bin/sh
# ibccsim custom's lossless-Ethernet flags: --flow-control credit|pfc with
# --pfc-xoff, --pfc-xon, --pfc-size, --pfc-quanta (bytes, 512 bit times),
# --marker ecn with --kmin, --kmax (bytes) and --pmax (a fraction), and
# --agent dcqcn|hpcc with their parameters (--dcqcn-*, --hpcc-*); the results pfc_pause_frames and pfc_paused_frac (line
# and summary); the same keys in a scenario file; refusals by flag.
# Prints RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
sim=$B/ibccsim
pass=0; fail=0
if [ ! -x "$sim" ]; then
  echo "FAIL pfc: $sim not built"; echo "RESULT 0 1"; exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() { echo "FAIL pfc: $*"; fail=$((fail + 1)); }
m() { sed -n "s/^$2,//p" "$1"; }
cu() { nice -n 10 "$sim" custom "$@"; }
# refused: exit 2 and the message names what
refused() { # pattern flags...
  pat=$1; shift
  cu "$@" > "$tmp/r.out" 2>&1; rc=$?
  if [ $rc -eq 2 ] && grep -q -- "$pat" "$tmp/r.out"; then ok
  else no "custom $* (exit $rc, want 2 and '$pat'): $(head -c 300 "$tmp/r.out")"; fi
}

# credit links are the default: the flag changes nothing, and a credit
# run's summary has no PFC rows
T="--topology fattree --k 2 --n 2 --traffic uniform --load 0.5 --time 1"
a=$(cu $T --summary "$tmp/c.csv"); b=$(cu $T --flow-control credit)
[ -n "$a" ] && [ "$a" = "$b" ] && ok || no "--flow-control credit changed the run"
grep -q '^pfc_' "$tmp/c.csv" && no "a credit run's summary has pfc rows" || ok

# the incast of tests/test_fabric_pfc.c through the driver: 15 greedy
# hosts into host 0 of a 4-ary 2-tree. Without a reaction the hot spot's
# pauses hold links about 30% of the time (0.2999 measured) in the
# measured 2 ms; DCQCN on ECN marks takes them all away (0 frames) and
# keeps the hot link full
I="--topology fattree --k 4 --n 2 --traffic incast --hot-dst 0 --flow-control pfc --pfc-xoff 20000 --pfc-xon 10000 --time 4 --warmup 2"
E="--marker ecn --kmin 5000 --kmax 20000 --pmax 0.1"
line=$(cu $I --summary "$tmp/n.csv") || no "pfc incast failed"
cu $I $E --agent dcqcn --summary "$tmp/d.csv" > "$tmp/d.out" || no "pfc incast with dcqcn failed"
echo "$line" | grep -q 'pfc_pause_frames [1-9][0-9]* pfc_paused_frac 0\.[0-9]*; conserved=1$' \
  && ok || no "the line has no pause frames or is not conserved: $line"
[ "$(m "$tmp/n.csv" pfc_pause_frames)" = "$(echo "$line" | sed 's/.*pfc_pause_frames \([0-9]*\).*/\1/')" ] \
  && ok || no "line and summary disagree on pfc_pause_frames"
awk -F, '$1=="pfc_paused_frac"{p=$2} $1=="pfc_pause_frames"{n=$2} $1=="class1_links"{r=$2}
  $1=="conserved"{c=$2} END{exit !(p>0.2 && p<0.4 && n>100 && r>0.99 && c==1)}' "$tmp/n.csv" \
  && ok || no "no CC: paused_frac $(m "$tmp/n.csv" pfc_paused_frac) (want 0.2..0.4), frames $(m "$tmp/n.csv" pfc_pause_frames)"
awk -F, '$1=="pfc_paused_frac"{p=$2} $1=="pfc_pause_frames"{n=$2} $1=="class1_links"{r=$2}
  $1=="class1_marked_frac"{k=$2} $1=="conserved"{c=$2}
  END{exit !(n==0 && p==0 && r>0.95 && k>0 && c==1)}' "$tmp/d.csv" \
  && ok || no "dcqcn: frames $(m "$tmp/d.csv" pfc_pause_frames) (want 0), rate $(m "$tmp/d.csv" class1_links)"
# ECN alone (no reaction) marks but the pauses stay
cu $I $E --summary "$tmp/e.csv" > /dev/null || no "pfc incast with ecn failed"
[ "$(m "$tmp/e.csv" pfc_pause_frames)" = "$(m "$tmp/n.csv" pfc_pause_frames)" ] && ok \
  || no "marking alone changed the pauses"
# the scenario file gives the run of the same flags
ln -s "$(pwd)/examples" "$tmp/examples"
(cd "$tmp" && IBCCSIM_OUT=. "$OLDPWD/$sim" run "$OLDPWD/examples/scenarios/custom_pfc_incast.ini" > f.out 2>&1) \
  || no "custom_pfc_incast.ini failed: $(tail -n 2 "$tmp/f.out")"
cu $I $E > "$tmp/e.out"
cmp -s "$tmp/f.out" "$tmp/e.out" && ok || no "the scenario file and the flags differ: $(cat "$tmp/f.out")"
# a shorter pause (--pfc-quanta) is refreshed more often: more frames
q=$(cu $I --pfc-quanta 64 --summary "$tmp/q.csv" | sed 's/.*pfc_pause_frames \([0-9]*\).*/\1/')
awk -v q="$q" -v n="$(m "$tmp/n.csv" pfc_pause_frames)" 'BEGIN{exit !(q > n)}' && ok \
  || no "--pfc-quanta 64: $q frames, not more than $(m "$tmp/n.csv" pfc_pause_frames)"

# DCQCN's parameters (--dcqcn-*): the defaults given explicitly run as
# left out; a larger R_AI (400 Mb/s, 10x) comes back faster after each
# cut, so the hot queue grows: more marks (0.4961 vs 0.1660 measured) and
# a higher latency (24.02 vs 15.14 us)
DD="--dcqcn-g 0.00390625 --dcqcn-k 55 --dcqcn-t 55 --dcqcn-b 10000000 --dcqcn-f 5 --dcqcn-rai 40 --dcqcn-rhai 200 --dcqcn-rmin 100 --dcqcn-n 50"
[ "$(cu $I $E --agent dcqcn $DD)" = "$(cat "$tmp/d.out")" ] && ok \
  || no "the DCQCN defaults given explicitly changed the run"
cu $I $E --agent dcqcn --dcqcn-rai 400 --summary "$tmp/ra.csv" > /dev/null || no "--dcqcn-rai 400 failed"
awk -F, -v k0="$(m "$tmp/d.csv" class1_marked_frac)" -v l0="$(m "$tmp/d.csv" class1_latency_us)" \
  '$1=="class1_marked_frac"{k=$2} $1=="class1_latency_us"{l=$2} END{exit !(k > 2 * k0 && l > l0)}' "$tmp/ra.csv" \
  && ok || no "--dcqcn-rai 400: marked $(m "$tmp/ra.csv" class1_marked_frac) (want above twice $(m "$tmp/d.csv" class1_marked_frac))"
# the byte counter off: T alone sets the stage, so after F timer events
# the increase is hyper (with B = 10 MB, which no flow reaches here, it
# stays additive): more marks (0.2129 vs 0.1660 measured)
cu $I $E --agent dcqcn --dcqcn-b off --summary "$tmp/bo.csv" > /dev/null || no "--dcqcn-b off failed"
awk -F, -v k0="$(m "$tmp/d.csv" class1_marked_frac)" '$1=="class1_marked_frac"{k=$2} END{exit !(k > k0 * 1.15)}' "$tmp/bo.csv" \
  && ok || no "--dcqcn-b off: marked $(m "$tmp/bo.csv" class1_marked_frac), not above $(m "$tmp/d.csv" class1_marked_frac)"
# params.csv gives the parameters back as keys ('off' for B) and runs again
cu $I $E --agent dcqcn --dcqcn-b off --dcqcn-rai 400 --summary "$tmp/p.csv" > "$tmp/p.out" || no "the params run failed"
grep -q '^dcqcn-b,off$' "$tmp/p_params.csv" && grep -q '^dcqcn-rai,400$' "$tmp/p_params.csv" && ok \
  || no "params.csv: $(grep dcqcn "$tmp/p_params.csv" | tr '\n' ' ')"
"$sim" run "$tmp/p_params.csv" > "$tmp/p2.out" 2>&1 && cmp -s "$tmp/p.out" "$tmp/p2.out" && ok \
  || no "run p_params.csv differs: $(cat "$tmp/p2.out")"
# HPCC's (--hpcc-*): the same for the defaults; eta 0.5 aims the hot link
# at half its rate: a lower rate and a shorter queue (0.5935 vs 0.8696,
# latency 2.69 vs 5.59 us measured)
H="--topology fattree --k 4 --n 2 --traffic incast --hot-dst 0 --flow-control pfc --time 4 --warmup 2 --agent hpcc"
h0=$(cu $H --summary "$tmp/h0.csv")
[ -n "$h0" ] && [ "$(cu $H --hpcc-t 10 --hpcc-eta 0.95 --hpcc-max-stage 5)" = "$h0" ] && ok \
  || no "the HPCC defaults given explicitly changed the run"
cu $H --hpcc-eta 0.5 --summary "$tmp/h1.csv" > /dev/null || no "--hpcc-eta 0.5 failed"
awk -F, -v r0="$(m "$tmp/h0.csv" class1_links)" -v l0="$(m "$tmp/h0.csv" class1_latency_us)" \
  '$1=="class1_links"{r=$2} $1=="class1_latency_us"{l=$2} END{exit !(r > 0.5 && r < 0.65 && r < r0 && l < l0)}' "$tmp/h1.csv" \
  && ok || no "--hpcc-eta 0.5: rate $(m "$tmp/h1.csv" class1_links) (want 0.5..0.65), latency $(m "$tmp/h1.csv" class1_latency_us)"
# the default W_AI is ceil(50 Mb/s x 10 us) = 63 bytes
[ "$(cu $H --hpcc-wai 63)" = "$h0" ] && ok || no "--hpcc-wai 63 is not the default"

# refusals
refused "applies only to agent = dcqcn" $T --dcqcn-rai 80
refused "applies only to agent = dcqcn" $T --agent hpcc --buf-credits 256 --dcqcn-g 0.5
refused "applies only to agent = hpcc" $I $E --agent dcqcn --hpcc-eta 0.5
refused "dcqcn-g" $I $E --agent dcqcn --dcqcn-g 2
refused "dcqcn-f" $I $E --agent dcqcn --dcqcn-f 0
refused "dcqcn-rai 9000 Mb/s: R_AI is between line rate / 2^20 and the line rate" $I $E --agent dcqcn --dcqcn-rai 9000
refused "dcqcn-rhai 0.001 Mb/s: R_HAI is between" $I $E --agent dcqcn --dcqcn-rhai 0.001
refused "dcqcn-rmin 9000 Mb/s is above the line rate (8000 Mb/s)" $I $E --agent dcqcn --dcqcn-rmin 9000
refused "hpcc-eta" $H --hpcc-eta 1.5
refused "hpcc-wai 100000 bytes: W_AI is at most line rate x T (10000 bytes)" $H --hpcc-wai 100000
refused "hpcc-t" $H --hpcc-t 2000000
refused "hpcc-t 1e-06 us: line rate x T is below 1 byte" $H --hpcc-t 0.000001
refused "applies only to flow-control = pfc" $T --pfc-xoff 3000
refused "applies only to marker = ecn" $T --kmin 3000
refused "needs --buf-credits" $T --marker ecn
refused "--kmin 9000 is above --kmax 8000" $T --marker ecn --buf-credits 128 --kmin 9000 --kmax 8000
refused "INT records in bytes: it needs --buf-credits" $T --agent hpcc
# HPCC runs on PFC links (buffers in bytes) and on credits in 64-byte units
[ -n "$(cu $T --flow-control pfc --agent hpcc)" ] && ok || no "--flow-control pfc --agent hpcc gave nothing"
[ -n "$(cu $T --buf-credits 256 --agent hpcc)" ] && ok || no "--buf-credits 256 --agent hpcc gave nothing"
refused "needs marker = ecn or iba" $T --agent dcqcn
refused "with flow-control = pfc use none, iba or ecn" $T --flow-control pfc --marker input
refused "pfc-xon 5000 is above pfc-xoff (4000)" $T --flow-control pfc --pfc-xoff 4000 --pfc-xon 5000
# the library's headroom rule (the fabric refuses: exit 1), with what the
# links need: 1 GB/s x (2 x 5 ns + 40 ns) + 3 x 2068 + 64 = 6318 bytes
cu $T --flow-control pfc --pfc-xoff 4000 --pfc-size 5000 > "$tmp/r.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "pfc.size 5000: below pfc.xoff 4000 + the headroom links\[0\] needs, 6318 bytes" "$tmp/r.out" \
  && ok || no "--pfc-size 5000 (exit $rc): $(cat "$tmp/r.out")"
[ -n "$(cu $T --flow-control pfc --pfc-xoff 4000 --pfc-size 10318)" ] && ok \
  || no "--pfc-size 10318 (xoff + the headroom) refused"
refused "pmax" $T --marker ecn --buf-credits 128 --pmax 2
refused "pfc-quanta" $T --flow-control pfc --pfc-quanta 70000

echo "RESULT $pass $fail"
[ $fail -eq 0 ]
