#!/bin/sh
# Scenario files (ibccsim run FILE): the shipped examples run; a file gives
# the same bytes as the same flags on the command line; OpenSM option
# names map to the flags; bad files are refused with their line number.
# The custom experiment: the figures of its examples (delivered load,
# every hot-spot packet, the loaded fabric's counts), determinism, the
# two-switch victim of `ibccsim twoswitch`, and configurations it refuses
# by key. Results files are written completely, or the run fails naming
# the file (summary and series to /dev/full). Prints RESULT for
# tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
B=${BUILD:-build}
case $B in /*) sim=$B/ibccsim ;; *) sim=$root/$B/ibccsim ;; esac
pass=0; fail=0
if [ ! -x "$sim" ]; then
  echo "FAIL scenarios: $sim not built"; echo "RESULT 0 1"; exit 1
fi
# outputs where the files name them, in the directory ibccsim runs in (the
# default output folder out/ is checked at the end)
IBCCSIM_OUT=.; export IBCCSIM_OUT
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() { echo "FAIL scenarios: $1"; fail=$((fail + 1)); }

# the examples that run in seconds (the [G] ones take about 10 s each:
# their equivalence is checked below on short steps); paths in the files
# are relative to the directory ibccsim runs in
ln -s "$root/examples" "$tmp/examples"
for f in twoswitch_run4_input twoswitch_iba mvcm_hotspot recovery_lipd \
         custom_fattree_uniform custom_torus_hotspot custom_fabric_file \
         wormhole_twohost wormhole_torus_pair custom_vlarb_2_1; do
  if (cd "$tmp" && "$sim" run "$root/examples/scenarios/$f.ini" > "$f.out" 2>&1); then ok
  else no "examples/scenarios/$f.ini failed: $(tail -n 2 "$tmp/$f.out")"; fi
done
if "$sim" run examples/scenarios/fabric_check.ini | grep -q '^hosts=8 switches=6 links=16 routes_ok=56 credit_loops=0$'
then ok; else no "fabric_check.ini"; fi
[ -s "$tmp/twoswitch_run4_input.csv" ] && [ -s "$tmp/mvcm_hotspot.csv" ] && ok \
  || no "the examples wrote no summaries"
# [K] two-host case at 0.8 per host: high keeps what it offers (0.8 within
# 5%: ~8000 Poisson messages in 100 ms), low gets the rest of the link
# (high + low = 1 within 2%), bytes conserved
awk -F, '$1=="accepted_high_frac"{h=$2} $1=="accepted_low_frac"{l=$2} $1=="conserved"{c=$2}
  END{exit !(h>0.76 && h<0.84 && h+l>0.98 && h+l<1.02 && c==1)}' \
  "$tmp/wormhole_twohost.csv" && ok || no "wormhole_twohost.ini: accepted or conserved"
# [K]'s delay (first segment leaves the host -> head of the last one in)
# against ibcc's (generation -> last byte): a whole high-priority message
# differs at least by its own length, mean 1000.5 bytes = 12.5 us (about
# 8000 messages: 1.1% sampling error, so 12.0 is a margin of 4 sigma),
# plus its wait at the host
awk -F, '$1=="delay_mean_high_us"{d=$2} $1=="kdelay_mean_high_us"{k=$2}
  END{exit !(k>0 && d-k>12.0)}' \
  "$tmp/wormhole_twohost.csv" && ok || no "wormhole_twohost.ini: [K]'s delay against ibcc's"
# torus pair: high-priority delay rises with the low-priority segment
# length (33 -> 500 bytes: 16.5 -> 23.8 us, so 3 us is a wide margin)
awk -F, 'NR>1 && $1=="33"{a=$6} NR>1 && $1=="500"{b=$6} END{exit !(b>a+3)}' \
  "$tmp/wormhole_torus_pair.csv" && ok || no "wormhole_torus_pair.ini: delay vs segment"

# ---- the custom experiment ----
# metric NAME of a summary; a value within [lo, hi]
m() { sed -n "s/^$2,//p" "$1"; }
within() { # value lo hi
  awk -v x="$1" -v lo="$2" -v hi="$3" \
    'BEGIN { exit !(x ~ /^[-0-9.eE+]+$/ && x + 0 >= lo && x + 0 <= hi) }'
}
check() { # description summary metric lo hi
  v=$(m "$2" "$3")
  if within "$v" "$4" "$5"; then ok; else no "$1: $3 = '$v', expected $4..$5"; fi
}
U=$tmp/custom_fattree_uniform.csv
T=$tmp/custom_torus_hotspot.csv
F=$tmp/custom_fabric_file.csv
for s in "$U" "$T" "$F"; do
  if [ "$(m "$s" conserved)" = 1 ] && [ "$(m "$s" identities)" = 1 ]; then ok
  else no "$s: conserved / identities not 1"; fi
done
# uniform 0.3 per host on the 2-ary 3-tree (8 hosts): 9 ms of Poisson
# arrivals of 2068-byte packets are about 10 400 packets, whose count
# varies by 1 % (1/sqrt(N)); seeds 1..8 give 0.297..0.306. The margin,
# 5 %, is five of those standard deviations; nothing is marked.
check "uniform 0.3" "$U" accepted_per_host_frac 0.285 0.315
check "uniform 0.3" "$U" class0_marked_frac 0 0
# the series: one row per 0.1 ms bin of the 10 ms run; its mean is the
# load delivered over the whole run (8 hosts x 0.3 = 2.4 links, 5 %)
S=$tmp/custom_fattree_uniform_series.csv
if [ "$(head -n 1 "$S")" = "time_us,class0_links" ] && [ "$(wc -l < "$S")" -eq 101 ]
then ok; else no "uniform series: header or row count"; fi
mean=$(awk -F, 'NR > 1 { s += $2; n++ } END { if (n) printf "%.4f", s / n }' "$S")
if within "$mean" 2.28 2.52; then ok; else no "uniform series mean rate $mean, expected about 2.4"; fi
# the same file twice: the same bytes; another seed: other arrivals
(cd "$tmp" && cp custom_fattree_uniform.csv first.csv \
   && "$sim" run "$root/examples/scenarios/custom_fattree_uniform.ini" > /dev/null)
if [ -s "$U" ] && cmp -s "$tmp/first.csv" "$U"; then ok; else no "custom: two runs of a file differ"; fi
sed 's/^seed = 1$/seed = 2/; s/^summary = .*/summary = seed2.csv/; /^series/d' \
  examples/scenarios/custom_fattree_uniform.ini > "$tmp/seed2.ini"
(cd "$tmp" && "$sim" run seed2.ini > /dev/null)
if [ -s "$tmp/seed2.csv" ] && ! cmp -s "$tmp/seed2.csv" "$U"; then ok
else no "custom: seed = 2 gives the same summary as seed = 1"; fi
# the torus hot spot: every one of the 8 x 200 hot packets is delivered
# by 10 ms; the background of 16 hosts x 0.1 x 14/15 (not to the hot
# host) = 1.493 links is delivered within 5 % (about 7 200 packets: 1.2 %
# standard deviation); the hot host's link carries at most its rate
check "torus hot spot" "$T" class1_packets 1600 1600
check "torus hot spot" "$T" class0_links 1.419 1.568
sum=$(awk -v a="$(m "$T" class1_links)" -v b="$(m "$T" class2_links)" 'BEGIN { printf "%.6f", a + b }')
if within "$sum" 0.3 1.0; then ok; else no "torus hot link delivers $sum of its rate"; fi
# without marking and rate laws the hot spot spreads: the background's
# 99th-percentile latency is many times that with them (218 us against
# 8.9 us when this was written; the test asks for 4 times)
sed '/^marker/d; /^agent/d; /^law/d; s/^summary = .*/summary = nocc.csv/' \
  examples/scenarios/custom_torus_hotspot.ini > "$tmp/nocc.ini"
(cd "$tmp" && "$sim" run nocc.ini > /dev/null)
if awk -v cc="$(m "$T" class0_p99_us)" -v no="$(m "$tmp/nocc.csv" class0_p99_us)" \
     'BEGIN { exit !(cc > 0 && no > 4 * cc) }'; then ok
else no "torus: background p99 with CC $(m "$T" class0_p99_us) us, without $(m "$tmp/nocc.csv" class0_p99_us) us"; fi
# the loaded fabric: its counts, 4xQDR = 4 GB/s (32 Gbit/s), the background of
# 7 x 0.2 x 6/7 + 0.2 = 1.4 links within 5 % (24 000 packets: 0.6 %
# standard deviation), and IBA marks on the incast
check "fabric file" "$F" hosts 8 8
check "fabric file" "$F" switches 6 6
check "fabric file" "$F" links 16 16
check "fabric file" "$F" ref_gbps 32 32
check "fabric file" "$F" class0_links 1.33 1.47
check "fabric file" "$F" class1_marked_frac 0.001 1
# ... and the same run from flags (the OpenSM names mapped)
(cd "$tmp" && "$sim" custom --topology ibnetdiscover --ibnetdiscover examples/fabrics/fattree.topo \
   --lfts examples/fabrics/fattree.lfts --marker iba --threshold 15 --marking-rate 0 \
   --agent cct --cct linear --ccti-timer 150 --ccti-increase 1 --traffic incast \
   --hot-dst "node08 HCA-1" --background 0.2 --time 10 --warmup 1 --quiet \
   --summary flags.csv)
if [ -s "$F" ] && cmp -s "$tmp/flags.csv" "$F"; then ok; else no "custom: the fabric file and its flags differ"; fi
# topology = twoswitch reproduces ibccsim twoswitch: the same fabric and
# flows; twoswitch runs 100 ms and measures the victim's window [40, 60]
# ms, custom runs to 60 ms and measures from the warm-up at 40 ms (a run
# is causal: what follows 60 ms changes nothing before). twoswitch sums
# stats bins (a packet's bytes spread over its reception), custom the
# class statistics (a packet counted at its tail), so the two may differ
# by a packet at each edge of the window: 2 x 2068 bytes / 20 ms =
# 0.0017 Gbit/s. Without CC and with input-triggered marking + LIPD;
# custom's switches send from an input buffer to several outputs at once
# and take a full-buffer trigger after the instant's starts, as
# twoswitch's do (input-fanout, defer-trigger).
for cc in none input; do
  if [ $cc = none ]; then tsf=""; cuf="agent = window"
  else tsf="--marking input --law lipd"; cuf="marker = input
defer-trigger = yes
agent = law
law = lipd"; fi
  cat > "$tmp/ts_$cc.ini" <<EOF
experiment = custom
topology = twoswitch
local = 10
remote = 10
buf-packets = 4
window = 1
input-fanout = yes
$cuf
time = 60
warmup = 40
victim-from = 40
victim-to = 60
quiet = yes
summary = $tmp/ts_custom_$cc.csv
EOF
  "$sim" run "$tmp/ts_$cc.ini"
  # shellcheck disable=SC2086
  "$sim" twoswitch --local 10 --remote 10 --buffer 4 --window 1 $tsf --quiet \
    --summary "$tmp/ts_sub_$cc.csv"
  a=$(m "$tmp/ts_custom_$cc.csv" class2_gbps); b=$(m "$tmp/ts_sub_$cc.csv" victim_gbps)
  if awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(a != "" && b > 0 && d < 0.0017 && -d < 0.0017) }'
  then ok; else no "twoswitch victim ($cc): custom $a Gbit/s, twoswitch $b Gbit/s"; fi
done

# a file and the same flags give the same bytes
cat > "$tmp/g.ini" <<EOF
# comment line
experiment = gran     # trailing comment
cc = on
step = 30
quiet = yes
summary = $tmp/g_file.csv
EOF
"$sim" run "$tmp/g.ini" && "$sim" gran --cc on --step 30 --quiet --summary "$tmp/g_flags.csv"
if cmp -s "$tmp/g_file.csv" "$tmp/g_flags.csv"; then ok; else no "file and flags differ (gran)"; fi

# OpenSM names: cc_sw_cong_setting_threshold and the per-SL form of
# cc_ca_cong_setting_ccti_timer ("SL value")
cat > "$tmp/o.ini" <<EOF
experiment = gran
step = 30
cc_sw_cong_setting_threshold = 12
cc_ca_cong_setting_ccti_timer = 0 300
quiet = yes
summary = $tmp/o_file.csv
EOF
"$sim" run "$tmp/o.ini" && "$sim" gran --step 30 --threshold 12 --ccti-timer 300 --quiet --summary "$tmp/o_flags.csv"
if cmp -s "$tmp/o_file.csv" "$tmp/o_flags.csv"; then ok; else no "OpenSM names do not map to the flags"; fi

# bad files: each error names its line
bad() { # name expected-text file-body
  printf '%s\n' "$3" > "$tmp/$1.ini"
  if "$sim" run "$tmp/$1.ini" > /dev/null 2> "$tmp/$1.err"; then
    no "$1: accepted"
  elif grep -q "$2" "$tmp/$1.err"; then ok
  else no "$1: expected '$2', got: $(cat "$tmp/$1.err")"; fi
}
bad noeq "$tmp/noeq.ini:2: expected 'key = value'" "experiment = gran
step 30"
bad unknownkey "$tmp/unknownkey.ini:3: ibccsim gran: unknown flag '--stepp'" "experiment = gran
cc = on
stepp = 30"
bad badvalue "$tmp/badvalue.ini:2: ibccsim: bad value '99' for --threshold" "experiment = gran
threshold = 99"
bad noexp "no 'experiment = ...' line" "cc = on"
bad twice "$tmp/twice.ini:3: 'cc' given twice (first at line 2)" "experiment = gran
cc = on
cc = off"
bad unknownexp "$tmp/unknownexp.ini:1: unknown experiment 'granx'" "experiment = granx"
# custom: configurations refused with the line of the key to blame
bad hotdst "$tmp/hotdst.ini:4: ibccsim custom: --hot-dst 8: not a host index 0..7" "experiment = custom
topology = fattree
traffic = incast
hot-dst = 8"
bad vctspeedup "$tmp/vctspeedup.ini:4: ibccsim custom: --speedup applies only to switch-kind = cioq" "experiment = custom
topology = fattree
load = 0.3
speedup = 2"
bad nofile "$tmp/nofile.ini:2: ibccsim custom: topology = ibnetdiscover needs --ibnetdiscover FILE" "experiment = custom
topology = ibnetdiscover
load = 0.3"
bad missingtopo "$tmp/missingtopo.ini:3: ibccsim custom: cannot read $tmp/none.topo" "experiment = custom
topology = ibnetdiscover
ibnetdiscover = $tmp/none.topo
load = 0.3"
bad cctnomark "$tmp/cctnomark.ini:4: ibccsim custom: agent = cct reacts to BECNs" "experiment = custom
topology = mesh
load = 0.3
agent = cct"
bad incastload "$tmp/incastload.ini:4: ibccsim custom: --load applies only to traffic = uniform or hotspot" "experiment = custom
topology = fattree
traffic = incast
load = 0.5"
bad noload "$tmp/noload.ini:3: ibccsim custom: traffic = hotspot needs --load" "experiment = custom
topology = torus
traffic = hotspot"
bad badtopo "$tmp/badtopo.ini:2: ibccsim: bad value 'ring' for --topology: one of fattree, nfly" "experiment = custom
topology = ring"
bad badkey "$tmp/badkey.ini:3: ibccsim custom: unknown flag '--lod'" "experiment = custom
topology = fattree
lod = 0.3"
bad rootrange "$tmp/rootrange.ini:5: ibccsim custom: --root 16: a switch 0..15" "experiment = custom
topology = torus
traffic = permutation
window = 4
root = 16"
if "$sim" run "$tmp/missing.ini" 2> /dev/null; then no "a missing file was accepted"; else ok; fi
# [S03] Fig. 7(a) at short ON periods (10 us, shorter than a flow's
# packet gap at its share of the root): without persistent state the
# dynamic flows, restarting at Rmax, take almost all of the root (measured
# 0.95 of it); with it they behave as static flows and the two halves
# share it (0.50 / 0.48; asserted 0.4 to 0.6 each).
dy="twoswitch --law lipd --marking input --dynamic half --on-ms 0.01 --time 100 --victim-from 0 --victim-to 100 --measure-from 20 --measure-to 100 --quiet"
# shellcheck disable=SC2086
"$sim" $dy --summary "$tmp/dy0.csv" && "$sim" $dy --persistent --summary "$tmp/dy1.csv"
a=$(m "$tmp/dy0.csv" dynamic_share_root_frac); b=$(m "$tmp/dy1.csv" dynamic_share_root_frac)
c=$(m "$tmp/dy1.csv" static_share_root_frac)
if awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { exit !(a > 0.8 && b > 0.4 && b < 0.6 && c > 0.4 && c < 0.6) }'
then ok; else no "twoswitch --dynamic: non-persistent $a, persistent $b / static $c"; fi
for bad in "--persistent" "--dynamic some" "--on-ms 0" "--input-fanout 2" "--trigger-at now"; do
  # shellcheck disable=SC2086
  if "$sim" twoswitch $bad --quiet 2> "$tmp/bad.err"; then no "twoswitch $bad accepted"
  elif [ -s "$tmp/bad.err" ]; then ok; else no "twoswitch $bad: no message"; fi
done
# --trigger-at ([S03] footnote 10, issue 25): taken once the instant's
# cut-through starts are made (the default) a full buffer never counts a
# victim packet that cuts through (0 of its packets marked here, ISL 0.97);
# taken at the filling arrival it counts the victim whose own arrival
# fills B's buffer (about 0.1 marked, ISL about 0.37)
ta="twoswitch --law lipd --marking input --time 30 --victim-from 0 --victim-to 30 --measure-from 10 --measure-to 30 --quiet"
# shellcheck disable=SC2086
"$sim" $ta --summary "$tmp/ta0.csv" && "$sim" $ta --trigger-at arrival --summary "$tmp/ta1.csv"
a=$(m "$tmp/ta0.csv" marked_victim_frac); b=$(m "$tmp/ta0.csv" isl_util_frac)
c=$(m "$tmp/ta1.csv" marked_victim_frac); d=$(m "$tmp/ta1.csv" isl_util_frac)
if awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" 'BEGIN { exit !(a < 0.001 && b > 0.9 && c > 0.03 && d < 0.6) }'
then ok; else no "twoswitch --trigger-at: settle marks $a (ISL $b), arrival $c (ISL $d)"; fi
# results files (issue 13): written completely, or the run fails and
# says which file (a full disk: /dev/full)
ts="twoswitch --time 2 --victim-from 0.5 --victim-to 1.5 --quiet"
if "$sim" $ts --summary "$tmp/r.csv" --series "$tmp/r_series.csv" 2> "$tmp/r.err" \
   && [ "$(head -n 1 "$tmp/r.csv")" = "metric,value" ] \
   && [ "$(tail -n 1 "$tmp/r.csv")" = "conserved,1" ] \
   && [ "$(wc -l < "$tmp/r.csv")" -eq 28 ] \
   && [ -z "$(tail -c 1 "$tmp/r_series.csv")" ] \
   && awk -F, 'NR == 1 { n = NF } NF != n { exit 1 } END { exit NR < 2 }' "$tmp/r_series.csv"
then ok; else no "twoswitch results files incomplete: $(cat "$tmp/r.err")"; fi
if [ -w /dev/full ]; then
  for f in summary series; do
    if "$sim" $ts --$f /dev/full 2> "$tmp/full.err"; then
      no "twoswitch --$f /dev/full exited 0"
    elif grep -q 'writing /dev/full failed' "$tmp/full.err"; then ok
    else no "twoswitch --$f /dev/full: no message: $(cat "$tmp/full.err")"; fi
  done
  if "$sim" gran --step 30 --quiet --summary /dev/full 2> "$tmp/full.err"; then
    no "gran --summary /dev/full exited 0"
  elif grep -q 'writing /dev/full failed' "$tmp/full.err"; then ok
  else no "gran --summary /dev/full: no message: $(cat "$tmp/full.err")"; fi
  # standard output too (issue 26): the table, the help, a list, a
  # scenario file's output
  for c in "twoswitch --time 2 --victim-from 0.5 --victim-to 1.5" "--help" \
           "custom --topology twoswitch --time 0.2" "gran-sweep --list" \
           "run examples/scenarios/fabric_check.ini"; do
    # shellcheck disable=SC2086
    if "$sim" $c > /dev/full 2> "$tmp/full.err"; then no "$c > /dev/full exited 0"
    elif grep -q 'writing standard output failed' "$tmp/full.err"; then ok
    else no "$c > /dev/full: no message: $(cat "$tmp/full.err")"; fi
  done
else
  echo "skip: /dev/full is not writable here (write-error checks)"
fi
# the default output folder: relative outputs of a scenario file go to
# out/ (created) in the directory ibccsim runs in, or to $IBCCSIM_OUT
mkdir -p "$tmp/od"
cp examples/scenarios/twoswitch_iba.ini "$tmp/od/t.ini"
if (cd "$tmp/od" && env -u IBCCSIM_OUT "$sim" run t.ini > /dev/null 2>&1) &&
   [ -s "$tmp/od/out/twoswitch_iba.csv" ] && [ ! -e "$tmp/od/twoswitch_iba.csv" ] &&
   (cd "$tmp/od" && IBCCSIM_OUT=o2 "$sim" run t.ini > /dev/null 2>&1) &&
   cmp -s "$tmp/od/out/twoswitch_iba.csv" "$tmp/od/o2/twoswitch_iba.csv"; then ok
else no "scenario outputs not in the default folder out/ or \$IBCCSIM_OUT"; fi
# issue 26: a value-taking key is handed its value, even "no" (cc = no
# ran with CC on), and only the flags without a value take yes/no: the
# driver's table of those flags (sc_switches) against every experiment's
# --help (a flag line "--name" followed by two spaces takes no value); an
# unknown key stops every file before anything runs
printf 'experiment = gran\ncc = no\nquiet = yes\n' > "$tmp/ccno.ini"
if "$sim" run "$tmp/ccno.ini" > /dev/null 2> "$tmp/ccno.err"; then
  no "cc = no accepted"
elif grep -q "ccno.ini:2: .*bad value 'no' for --cc: on or off" "$tmp/ccno.err"; then ok
else no "cc = no: $(cat "$tmp/ccno.err")"; fi
for e in twoswitch recovery gran gran-sweep mvcm mvcm-sweep wormhole \
         wormhole-sweep fabric-check demo custom; do
  flags=$({ "$sim" $e --help; [ $e = wormhole-sweep ] && "$sim" wormhole --help; } |
          awk '/^usage:/ || /^ +\[/ {   # [--flag ARG] or [--flag] in the usage lines
                 s = $0
                 while (match(s, /\[--[a-z0-9-]+( [^]]*)?\]/)) {
                   t = substr(s, RSTART + 1, RLENGTH - 2); split(t, w, " ")
                   print (index(t, " ") ? "v" : "s"), substr(w[1], 3)
                   s = substr(s, RSTART + RLENGTH)
                 }
                 next
               }
               /^ +--[a-z0-9-]+/ {   # a flag line: "--flag ARG text" or "--flag  text"
                 match($0, /--[a-z0-9-]+/); n = substr($0, RSTART + 2, RLENGTH - 2)
                 r = substr($0, RSTART + RLENGTH)
                 print ((r == "" || substr(r, 1, 2) == "  ") ? "s" : "v"), n
               }' | sort -u)
  [ -n "$flags" ] || no "$e --help lists no flags"
  echo "$flags" | while read -r t f; do
    [ "$f" = help ] && continue
    printf 'experiment = %s\n%s = maybe\nzz-unknown = 1\n' "$e" "$f" > "$tmp/sw.ini"
    "$sim" run "$tmp/sw.ini" > /dev/null 2> "$tmp/sw.err" && echo "ran $e $f"
    if grep -q 'a flag without a value takes' "$tmp/sw.err"; then got=s; else got=v; fi
    [ "$got" = "$t" ] || echo "$e --$f: --help says $t, the driver $got"
  done > "$tmp/sw.out"
  if [ -s "$tmp/sw.out" ]; then no "$(cat "$tmp/sw.out")"; else ok; fi
done
printf 'experiment = custom\nquiet = off\nnic-fifo = false\ntopology = twoswitch\ntime = 0.2\n' > "$tmp/off.ini"
if [ "$("$sim" run "$tmp/off.ini" | grep -c conserved=1)" = 1 ]; then ok
else no "quiet = off / nic-fifo = false not read as off"; fi
# per-SL OpenSM lines "name = SL value" (issue 26): the SL is 0..15 or the
# line is refused (SL 16 used to set the value); another SL with the same
# value is accepted, with another value refused (one value for every SL)
slb='experiment = custom\ntopology = twoswitch\ntime = 0.2\nmarker = iba\nagent = cct\n'
for t in "16 150|6: bad SL '16'" "x 150|6: bad SL 'x'" "-1 150|6: bad SL '-1'" \
         "0 150\ncc_ca_cong_setting_ccti_timer = 1 100|7: 'ccti-timer' given twice"; do
  printf "${slb}cc_ca_cong_setting_ccti_timer = ${t%%|*}\n" > "$tmp/sl.ini"
  if "$sim" run "$tmp/sl.ini" > /dev/null 2> "$tmp/sl.err"; then no "per-SL line ${t%%|*} accepted"
  elif grep -q "sl.ini:${t#*|}" "$tmp/sl.err"; then ok
  else no "per-SL line ${t%%|*}: $(cat "$tmp/sl.err")"; fi
done
for t in "15 150" "0 150\ncc_ca_cong_setting_ccti_timer = 1 150"; do
  printf "${slb}cc_ca_cong_setting_ccti_timer = $t\n" > "$tmp/sl.ini"
  "$sim" run "$tmp/sl.ini" > "$tmp/sl.out" 2>&1 && grep -q 'conserved=1' "$tmp/sl.out" && ok \
    || no "per-SL line $t refused: $(cat "$tmp/sl.out")"
done
# sweeps (issue 26): the output is opened before any point runs (a path in
# a missing folder costs no simulation), the temporary folder goes under
# $TMPDIR and is removed when a point fails (here: killed by a CPU limit
# of 1 s), and the output file of a failed sweep is not left behind empty
for c in "gran-sweep --timers 10 --rates 1 --step 1" "mvcm-sweep --k 2 --n 2 --loads 0.1" \
         "wormhole-sweep --vary load --values 0.1 --time 2 --warmup 1"; do
  # shellcheck disable=SC2086
  if "$sim" $c --jobs 1 --out "$tmp/nodir/x.csv" > /dev/null 2> "$tmp/sw.err"; then
    no "${c%% *} --out in a missing folder accepted"
  elif grep -q "cannot write $tmp/nodir/x.csv" "$tmp/sw.err" && ! grep -q 'points done' "$tmp/sw.err"; then ok
  else no "${c%% *} --out in a missing folder: $(cat "$tmp/sw.err")"; fi
  # shellcheck disable=SC2086
  if TMPDIR=$tmp/nodir "$sim" $c --jobs 1 > /dev/null 2> "$tmp/sw.err"; then
    no "${c%% *}: \$TMPDIR not used"
  elif grep -q "no temporary directory in $tmp/nodir" "$tmp/sw.err"; then ok
  else no "${c%% *} with a missing \$TMPDIR: $(cat "$tmp/sw.err")"; fi
done
mkdir -p "$tmp/swt"
if (ulimit -t 1; TMPDIR=$tmp/swt exec nice "$sim" wormhole-sweep --vary load --values 0.5 \
      --case torus --size 8 --time 1000 --jobs 1 --out "$tmp/swt.csv") > /dev/null 2> "$tmp/sw.err"; then
  no "a wormhole-sweep point over its CPU limit succeeded"
elif grep -q 'a run failed' "$tmp/sw.err" && [ -z "$(ls -A "$tmp/swt")" ] && [ ! -e "$tmp/swt.csv" ]; then ok
else no "failed sweep left $(ls -A "$tmp/swt") $(ls "$tmp/swt.csv" 2>/dev/null): $(cat "$tmp/sw.err")"; fi
# lists longer than their fixed limit are refused, not cut (issue 26:
# mvcm-sweep ran the first 32 loads of a longer list)
l33=$(awk 'BEGIN { for (i = 1; i <= 33; i++) printf "%s0.%02d", (i > 1 ? "," : ""), i }')
l65=$(awk 'BEGIN { for (i = 1; i <= 65; i++) printf "%s%d", (i > 1 ? "," : ""), i }')
for c in "mvcm-sweep --k 2 --n 2 --loads $l33|at most 32 loads" \
         "gran-sweep --timers $l65|at most 64" "gran-sweep --rates $l65|at most 64" \
         "wormhole-sweep --vary seg --values $l65|at most 64 values"; do
  # shellcheck disable=SC2086
  if "$sim" ${c%%|*} --jobs 1 --out "$tmp/long.csv" > /dev/null 2> "$tmp/long.err"; then
    no "${c%% --*}: a list over its limit accepted"
  elif grep -q "${c#*|}" "$tmp/long.err" && ! grep -q 'points done' "$tmp/long.err"; then ok
  else no "${c%% --*}: a list over its limit: $(cat "$tmp/long.err")"; fi
done
# every value inside a documented range is accepted (issue 26): both ends
# of each range that `custom --help` gives (tests/help_ranges.awk), parsed
# (an unknown flag after it stops the run), and every numeric flag but
# --hot-dst (a host index below the fabric's host count, or a name)
# documents its range
"$sim" custom --help | awk -f tests/help_ranges.awk > "$tmp/ranges"
[ "$(wc -l < "$tmp/ranges")" -ge 40 ] || no "custom --help: only $(wc -l < "$tmp/ranges") ranges"
while read -r f lo hi; do
  case $f in
    norange) [ "$lo" = hot-dst ] || echo "--$lo documents no range"; continue ;;
    mismatch) echo "--$lo: ranges and flags do not pair"; continue ;;
  esac
  for x in "$lo" "$hi"; do
    "$sim" custom --topology twoswitch --$f "$x" --zz-end > /dev/null 2> "$tmp/r1.err"
    grep -q "unknown flag '--zz-end'" "$tmp/r1.err" || echo "--$f $x: $(cat "$tmp/r1.err")"
  done
done < "$tmp/ranges" > "$tmp/ranges.out"
if [ -s "$tmp/ranges.out" ]; then no "custom ranges: $(cat "$tmp/ranges.out")"; else ok; fi
# a loaded fabric (issue 26): hosts sharing a name get one warning, and
# --hot-dst by that name is refused (it took the first); a port GUID
# still picks its host; a LID outside 1..0xBFFF is a range error with
# the file and line
tab=$(printf '\t')
cat > "$tmp/dup.topo" <<EOF
Switch${tab}4 "S-0000000000000010"${tab}# "sw" base port 0 lid 1 lmc 0
[1]${tab}"H-0000000000000020"[1](21)${tab}# "same" lid 2 4xQDR
[2]${tab}"H-0000000000000030"[1](31)${tab}# "same" lid 3 4xQDR
[3]${tab}"H-0000000000000040"[1](41)${tab}# "c" lid 4 4xQDR
Ca${tab}1 "H-0000000000000020"${tab}# "same"
Ca${tab}1 "H-0000000000000030"${tab}# "same"
Ca${tab}1 "H-0000000000000040"${tab}# "c"
EOF
cu="custom --topology ibnetdiscover --ibnetdiscover $tmp/dup.topo --traffic incast --time 0.1 --quiet"
if "$sim" fabric-check --ibnetdiscover "$tmp/dup.topo" 2> "$tmp/dup.err" | grep -q 'hosts=3 ' &&
   grep -q 'warning: .*dup.topo: 2 hosts share their name with another ("same"' "$tmp/dup.err"; then ok
else no "duplicate host names: no warning: $(cat "$tmp/dup.err")"; fi
# shellcheck disable=SC2086
if "$sim" $cu --hot-dst same > /dev/null 2> "$tmp/dup.err"; then no "--hot-dst by a shared name accepted"
elif grep -q -- '--hot-dst same: more than one host answers to it' "$tmp/dup.err"; then ok
else no "--hot-dst by a shared name: $(cat "$tmp/dup.err")"; fi
# shellcheck disable=SC2086
"$sim" $cu --hot-dst 0x31 --summary "$tmp/dup.csv" 2> /dev/null &&
  grep -q '^class1_flows,2$' "$tmp/dup.csv" && ok || no "--hot-dst by port GUID on a fabric with shared names"
sed 's/lid 3 4xQDR/lid 49152 4xQDR/' "$tmp/dup.topo" > "$tmp/lid.topo"
if "$sim" fabric-check --ibnetdiscover "$tmp/lid.topo" > /dev/null 2> "$tmp/lid.err"; then no "LID 49152 accepted"
elif grep -q 'lid.topo:3: .*LID 49152 is not a unicast LID (1..0xBFFF)' "$tmp/lid.err"; then ok
else no "LID 49152: $(cat "$tmp/lid.err")"; fi
# ---- gran --job: a trace beside the [G] flows (the shared job interface) ----
# a ping-pong of 4 round trips of 8-byte payloads (34 bytes on the wire)
# between H1 and H4 (hosts 0 and 3) at SL 5, the first class after the
# flows': alone it takes network time only; beside the hot spot with CC
# off its H1 -> H4 messages wait behind the congestion (many times
# longer); CC on gives the idle time back within 2x. Its ideal time (alone
# on the idle fabric) is the idle run's completion exactly.
printf 'ibcc-trace 1\nranks 2\n0 0 1 34 sl=5\n1 1 0 34 sl=5 after=0\n2 0 1 34 sl=5 after=1\n3 1 0 34 sl=5 after=2\n4 0 1 34 sl=5 after=3\n5 1 0 34 sl=5 after=4\n6 0 1 34 sl=5 after=5\n7 1 0 34 sl=5 after=6\n' > "$tmp/pp.trace"
gj() { "$sim" gran --quiet --step 10 --time 60 --job "pp trace=$tmp/pp.trace hosts=0,3 start=45000" --summary "$tmp/gj.csv" "$@" \
         && awk -F, '$1 == "job_pp_delivered" { d = $2 } $1 == "job_pp_completion_us" { c = $2 } $1 == "job_pp_ideal_us" { i = $2 }
                     END { if (d == 8 && c > 0 && i > 0) print c, i }' "$tmp/gj.csv"; }
set -- $(gj --flows none --cc off); a=${1:-}; ai=${2:-}
set -- $(gj --flows 2,3,4,5 --cc off); b=${1:-}; bi=${2:-}
set -- $(gj --flows 2,3,4,5 --cc on); c=${1:-}
if [ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] && [ "$a" = "$ai" ] && [ "$bi" = "$ai" ] \
   && awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { exit !(b > 10 * a && c < 2 * a) }'; then ok
else no "gran --job ping-pong: idle '$a' (ideal '$ai'), congested '$b' (ideal '$bi'), CC on '$c' us"; fi
# a collective beside the flows takes the first class after them; two
# jobs, a job CSV with custom's columns
if "$sim" gran --quiet --step 10 --time 60 --flows 2,3 --job 'ar pattern=allreduce-ring hosts=0,3,6 bytes=65536 start=25000' \
     --job "pp trace=$tmp/pp.trace hosts=1,4 start=25000" --summary "$tmp/gj2.csv" --job-csv "$tmp/gj2.jobs.csv" 2> "$tmp/gj2.err" \
   && grep -q '^job_ar_slowdown,' "$tmp/gj2.csv" && grep -q '^job_pp_msg_p99_us,' "$tmp/gj2.csv" \
   && [ "$(head -n 1 "$tmp/gj2.jobs.csv" | cut -d, -f1-4)" = "job,pattern,ranks,hosts" ] \
   && [ "$(wc -l < "$tmp/gj2.jobs.csv")" -eq 3 ]; then ok
else no "gran with two jobs: $(head -n 2 "$tmp/gj2.err")"; fi
# place=linear may repeat a host (ranks sharing a node): ranks 0 and 2 on
# H1, 1 and 3 on H4; a message 0 -> 1, then 2 -> 3, then 1 -> 2
printf 'ibcc-trace 1\nranks 4\n0 0 1 34 sl=5\n1 2 3 34 sl=5 after=0\n2 1 2 34 sl=5 after=1\n' > "$tmp/r4.trace"
if "$sim" gran --quiet --step 10 --time 20 --flows none --job "r4 trace=$tmp/r4.trace hosts=0,3,0,3" --summary "$tmp/r4.csv" 2> "$tmp/r4.err" \
   && grep -q '^job_r4_delivered,3$' "$tmp/r4.csv"; then ok
else no "gran job on hosts=0,3,0,3: $(head -n 2 "$tmp/r4.err")"; fi
# params.csv gives the two jobs back (one value, '|' between them)
if "$sim" run "$tmp/gj2_params.csv" --quiet --summary "$tmp/gj3.csv" 2> /dev/null && cmp -s "$tmp/gj2.csv" "$tmp/gj3.csv"; then ok
else no "gran's jobs through params.csv differ"; fi
# gran --series: the first column is each bin's middle in us (10 ms bins:
# 5000, 15000, ...), as --help says
"$sim" gran --quiet --step 10 --time 20 --measure 20 --series "$tmp/gs.csv" 2> /dev/null
if [ "$(head -n 1 "$tmp/gs.csv" 2> /dev/null)" = "time_us,F1_gbps,F2_gbps,F3_gbps,F4_gbps,F5_gbps" ] \
   && [ "$(sed -n 2p "$tmp/gs.csv" | cut -d, -f1)" = "5000.000" ] && [ "$(sed -n 3p "$tmp/gs.csv" | cut -d, -f1)" = "15000.000" ] \
   && "$sim" gran --help | grep -q 'CSV: time_us (a bin'"'"'s middle)'; then ok
else no "gran --series: time column: $(head -n 2 "$tmp/gs.csv" 2> /dev/null | tr '\n' ' ')"; fi
gbad() { # name expected-text args...
  n=$1; e=$2; shift 2
  if "$sim" gran --quiet --step 10 "$@" > "$tmp/$n.out" 2>&1; then no "gran $n: accepted"
  elif grep -q -- "$e" "$tmp/$n.out"; then ok
  else no "gran $n: expected '$e', got: $(head -n 2 "$tmp/$n.out")"; fi
}
gbad flows6 "a list of flow numbers 1..5" --flows 6
gbad flows2 "a list of flow numbers 1..3" --scenario 2 --flows 4
gbad hosts7 "host 7: the hosts are 0..6" --job "pp trace=$tmp/pp.trace hosts=0,7"
gbad fewhosts "2 ranks on the 1 hosts of '3'" --job "pp trace=$tmp/pp.trace hosts=3"
gbad onehost "on one host" --job "pp trace=$tmp/pp.trace hosts=3,3"
gbad twice "given twice" --job "pp trace=$tmp/pp.trace hosts=0,3,0 place=interleaved"
gbad nojob "--job pp: trace: .*none.trace: No such file" --job "pp trace=$tmp/none.trace"
printf 'ibcc-trace 1\n0 0 1 34 after=3\n' > "$tmp/badref.trace"
gbad badtrace "badref.trace:2:" --job "pp trace=$tmp/badref.trace"
printf 'ibcc-trace 1\nranks 2\n0 0 1 34\n' > "$tmp/sl0.trace"
gbad sl0 "has sl=0, the class of the scenario's flows (classes 0..4): give the trace's messages sl >= 5" \
  --job "x trace=$tmp/sl0.trace hosts=0,3"
gbad sl2 "(classes 0..2): give the trace's messages sl >= 3" --scenario 2 \
  --job "x trace=$tmp/sl0.trace hosts=0,3"
gbad late "after the run" --job "pp trace=$tmp/pp.trace hosts=0,3 start=50000"
gbad badkey "unknown key 'host'" --job "pp trace=$tmp/pp.trace host=0,3"
gbad jobcsv "applies only with --job" --job-csv "$tmp/x.csv"
gbad oldflag "job-hosts" --job "pp trace=$tmp/pp.trace" --job-hosts 1,4

echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
