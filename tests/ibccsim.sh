#!/bin/sh
# The command line of ibccsim (issue 26): one option table per subcommand
# serves --opt value and --opt=value, --help (with ranges, units and
# defaults), the range messages and "did you mean"; `help SUB`,
# --version and the subcommand table; params.csv beside a summary and
# `ibccsim run DIR/params.csv` giving the same summary; progress on stderr
# (a line per 10%, never a carriage return into a file; --quiet and short
# runs print none); the results convention (time_us first, units in the
# names, fractions in [0, 1], empty missing values, CSV-only standard
# output). Prints RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
sim=$B/ibccsim
case $B in /*) asim=$sim ;; *) asim=$(pwd)/$sim ;; esac
pass=0; fail=0
if [ ! -x "$sim" ]; then
  echo "FAIL ibccsim: $sim not built"; echo "RESULT 0 1"; exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() { echo "FAIL ibccsim: $1"; fail=$((fail + 1)); }
ts="twoswitch --time 2 --victim-from 0.5 --victim-to 1.5"

# --opt=value is --opt value: the same summary bytes
# shellcheck disable=SC2086
"$sim" $ts --quiet --buffer 2 --law lipd --marking input --summary "$tmp/a.csv" &&
  "$sim" $ts --quiet --buffer=2 --law=lipd --marking=input --summary="$tmp/b.csv" &&
  cmp -s "$tmp/a.csv" "$tmp/b.csv" && ok || no "--opt=value differs from --opt value"
# a switch takes =yes / =no on the command line too
# shellcheck disable=SC2086
if [ -z "$("$sim" $ts --quiet=yes)" ] && [ -n "$("$sim" $ts --quiet=no)" ]; then ok
else no "--quiet=yes / --quiet=no"; fi

# a misspelt flag: the nearest flag (edit distance); none when far
err=$("$sim" custom --topology fattree --lod 0.3 2>&1)
case $err in *"unknown flag '--lod' (did you mean --load?"*) ok ;; *) no "did you mean: $err" ;; esac
err=$("$sim" gran --ccti-timr 100 2>&1)
case $err in *"did you mean --ccti-timer?"*) ok ;; *) no "did you mean (gran): $err" ;; esac
err=$("$sim" gran --zzzzzzzz 1 2>&1)
case $err in *"unknown flag '--zzzzzzzz' (see --help)"*) ok ;; *) no "no suggestion expected: $err" ;; esac
err=$("$sim" custom --topology fattree --laod 0.3 2>&1)
case $err in *"(did you mean --load?"*) ok ;; *) no "did you mean (two letters swapped): $err" ;; esac
err=$("$sim" twoswitch --bufer=3 2>&1)
case $err in *"unknown flag '--bufer' (did you mean --buffer?"*) ok ;; *) no "did you mean (--x=v): $err" ;; esac

# range messages state the range (and the unit)
err=$("$sim" gran --threshold 16 2>&1)
case $err in *"bad value '16' for --threshold: an integer 0..15"*) ok ;; *) no "range: $err" ;; esac
err=$("$sim" twoswitch --time 0 2>&1)
case $err in *"bad value '0' for --time: a number > 0 and <= 10000 ms"*) ok ;; *) no "range (open): $err" ;; esac
err=$("$sim" gran --cc no 2>&1)
case $err in *"bad value 'no' for --cc: on or off"*) ok ;; *) no "choice: $err" ;; esac

# --help comes from the table: every row with its range and default
h=$("$sim" gran --help)
case $h in *"--threshold W"*"(0..15) [15]"*) ok ;; *) no "gran --help: threshold row" ;; esac
case $h in *"--buffer N"*"(1..65535, packets) [16]"*) ok ;; *) no "gran --help: unit" ;; esac
if [ "$("$sim" help gran)" = "$h" ]; then ok; else no "help gran differs from gran --help"; fi
if "$sim" help nosuch > /dev/null 2>&1; then no "help nosuch accepted"; else ok; fi
# every subcommand of the table has a help; --help lists them all
for s in twoswitch recovery law-table gran gran-sweep mvcm mvcm-sweep wormhole \
         wormhole-sweep fabric-check custom run demo; do
  if "$sim" "$s" --help | grep -q "^usage: ibccsim $s" \
     && "$sim" --help | grep -q "^  $s "; then ok; else no "$s: no --help or not listed"; fi
done
v=$(sed -n 's/^#define IBCC_VERSION_STRING "\(.*\)"/\1/p' ibcc.h)
if [ "$("$sim" --version)" = "ibccsim (ibcc $v)" ]; then ok; else no "--version: $("$sim" --version)"; fi

# params.csv: beside summary.csv (else NAME_params.csv), every parameter,
# the version, the seed and the IBA settings in OpenSM's names; run again
# it gives the same summary
mkdir -p "$tmp/r"
"$sim" gran --step 20 --threshold 10 --ccti-timer 300 --quiet --summary "$tmp/r/summary.csv" 2> /dev/null
P=$tmp/r/params.csv
if [ "$(head -n 1 "$P")" = "key,value" ] && grep -q '^experiment,gran$' "$P" \
   && grep -q "^ibcc_version,$v\$" "$P" && grep -q '^seed,1$' "$P" \
   && grep -q '^step,20$' "$P" && grep -q '^cc_sw_cong_setting_threshold,10$' "$P" \
   && grep -q '^cc_ca_cong_setting_ccti_timer_sl0,300$' "$P" \
   && grep -q '^cc_ca_cong_setting_ccti_timer_sl15,300$' "$P" \
   && grep -q '^congestion_control,TRUE$' "$P"; then ok
else no "gran params.csv: $(tr '\n' ' ' < "$P" | cut -c1-300)"; fi
"$sim" run "$P" --quiet --summary "$tmp/r/again.csv" 2> /dev/null &&
  cmp -s "$tmp/r/summary.csv" "$tmp/r/again.csv" && ok || no "run params.csv: another gran summary"
for c in "twoswitch --time 3 --victim-from 1 --victim-to 2 --marking iba --dynamic half --seed 5" \
         "custom --topology torus --traffic hotspot --load 0.1 --marker input --agent law --hot-packets 20 --time 0.5 --seed 3" \
         "mvcm --k 2 --n 3 --load 0.3 --hot-packets 50 --hot-after 1000 --payload variable --tree" \
         "wormhole --case torus --size 2 --time 0.5 --warmup 0.1 --seg adaptive --seed 2"; do
  rm -rf "$tmp/p"; mkdir "$tmp/p"
  # shellcheck disable=SC2086
  "$sim" $c --quiet --summary "$tmp/p/x.csv" 2> /dev/null
  if [ -s "$tmp/p/x_params.csv" ] && "$sim" run "$tmp/p/x_params.csv" --quiet \
       --summary "$tmp/p/y.csv" 2> "$tmp/p/err" && cmp -s "$tmp/p/x.csv" "$tmp/p/y.csv"; then ok
  else no "${c%% *}: params.csv does not give the same summary: $(cat "$tmp/p/err")"; fi
done
# without CC: congestion_control FALSE and no OpenSM rows
"$sim" $ts --quiet --summary "$tmp/n.csv" &&
  grep -q '^congestion_control,FALSE$' "$tmp/n_params.csv" && ! grep -q '^cc_' "$tmp/n_params.csv" \
  && ok || no "twoswitch without CC: params"

# progress: short runs print nothing; past the threshold (0 here) a line
# per 10% into a file, no carriage return; --quiet silences it
# shellcheck disable=SC2086
"$sim" $ts > /dev/null 2> "$tmp/e0"
if [ ! -s "$tmp/e0" ]; then ok; else no "a short run printed progress: $(cat "$tmp/e0")"; fi
# shellcheck disable=SC2086
IBCCSIM_PROGRESS_AFTER=0 "$sim" $ts > /dev/null 2> "$tmp/e1"
if [ "$(grep -c '^twoswitch: [0-9]*0% (.* ms simulated), .* M events/s, about .* s left$' "$tmp/e1")" -eq 10 ] \
   && ! grep -q "$(printf '\r')" "$tmp/e1" && grep -q '^twoswitch: 100% ' "$tmp/e1"; then ok
else no "progress into a file: $(cat "$tmp/e1")"; fi
# shellcheck disable=SC2086
IBCCSIM_PROGRESS_AFTER=0 "$sim" $ts --quiet 2> "$tmp/e2"
if [ ! -s "$tmp/e2" ]; then ok; else no "--quiet printed progress: $(cat "$tmp/e2")"; fi
# on a terminal (script(1) gives one): one line rewritten in place
if command -v script > /dev/null 2>&1; then
  IBCCSIM_PROGRESS_AFTER=0 script -qc "$sim $ts > /dev/null" /dev/null > "$tmp/e3" 2>&1 < /dev/null
  if grep -q "$(printf '\r')twoswitch: 2.000 of 2.000 ms simulated (100%)" "$tmp/e3"; then ok
  else no "progress on a terminal: $(od -c "$tmp/e3" | head -5)"; fi
else
  echo "skip: script(1) not installed (bsdutils): progress on a terminal"
fi
# a sweep into a file: no carriage return either
"$sim" mvcm-sweep --k 2 --n 2 --loads 0.1,0.2 --jobs 1 > /dev/null 2> "$tmp/e4"
if grep -q '^mvcm-sweep: 8 of 8 points done$' "$tmp/e4" && ! grep -q "$(printf '\r')" "$tmp/e4"; then ok
else no "sweep progress into a file: $(od -c "$tmp/e4" | head -3)"; fi
# a sectioned scenario file's single run shows its progress too (its
# warmup and measured part as one run); --quiet silences it; the points of
# a study show none of their own, only the study's count
mkdir -p "$tmp/sc" && cp examples/cluster/twoswitch.ini "$tmp/sc/"
IBCCSIM_PROGRESS_AFTER=0 "$sim" run "$tmp/sc/twoswitch.ini" run.time=4 > /dev/null 2> "$tmp/e5"
if [ "$(grep -c '^run: [0-9]*0% (.* of 4.000 ms simulated), .* M events/s, about .* s left$' "$tmp/e5")" -eq 10 ] \
   && ! grep -q "$(printf '\r')" "$tmp/e5"; then ok
else no "progress of a scenario file's run: $(cat "$tmp/e5")"; fi
IBCCSIM_PROGRESS_AFTER=0 "$sim" run "$tmp/sc/twoswitch.ini" run.time=4 --quiet > /dev/null 2> "$tmp/e6"
if [ ! -s "$tmp/e6" ]; then ok; else no "run FILE --quiet printed progress: $(cat "$tmp/e6")"; fi
IBCCSIM_PROGRESS_AFTER=0 "$sim" run "$tmp/sc/twoswitch.ini" run.time=4 'run.seed={1,2}' > /dev/null 2> "$tmp/e7"
if grep -q '^run: 2 of 2 points done$' "$tmp/e7" && ! grep -q '% (' "$tmp/e7"; then ok
else no "a study's points printed progress: $(cat "$tmp/e7")"; fi

# the results convention (issue 26 item 3): series start with time_us,
# every column and metric name carries its unit, _frac values lie in
# [0, 1], a missing value is empty, standard output of a CSV is only CSV
mkdir -p "$tmp/c"
(cd "$tmp/c" &&
 "$asim" twoswitch --time 2 --victim-from 0.5 --victim-to 1.5 --quiet --summary ts.csv --series ts_s.csv &&
 "$asim" gran --step 20 --quiet --summary gr.csv --series gr_s.csv 2> /dev/null &&
 "$asim" mvcm --k 2 --n 3 --cmm pi --hot-packets 50 --hot-after 1000 --quiet --summary mv.csv --series mv_s.csv &&
 "$asim" wormhole --case torus --size 2 --time 1 --warmup 0.2 --quiet --summary wh.csv --series wh_s.csv &&
 "$asim" custom --topology torus --traffic hotspot --load 0.1 --background 0.1 --marker input \
     --agent law --hot-packets 20 --start-after 1000000 --time 0.5 --quiet --summary cu.csv --series cu_s.csv &&
 "$asim" recovery --law lipd --points 5 --summary rc.csv > rc_s.csv) || no "results convention: a run failed"
units='_us|_gbps|_frac|_bytes|_cycles|_links|_bytes_per_cycle'
# besides: a flag (hot_spot) and a count (hot_in_network_max: packets;
# counts carry no unit, docs/scenarios.md)
for e in ts gr mv wh cu rc; do
  S=$tmp/c/${e}_s.csv
  if head -n 1 "$S" | grep -q '^time_us,' \
     && head -n 1 "$S" | tr ',' '\n' | grep -Ev "($units)\$|^hot_spot\$|^hot_in_network_max\$" | grep -q . ; then
    no "$e series: a column without its unit: $(head -n 1 "$S")"
  elif head -n 1 "$S" | grep -q '^time_us,'; then ok
  else no "$e series does not start with time_us: $(head -n 1 "$S")"; fi
  # _frac columns and metrics within [0, 1]
  bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) f[i] = ($i ~ /_frac$/); next }
                 { for (i = 1; i <= NF; i++) if (f[i] && $i != "" && ($i < 0 || $i > 1)) print NR ": " $i }' "$S"
        awk -F, '$1 ~ /_frac$/ && $2 != "" && ($2 < 0 || $2 > 1)' "$tmp/c/$e.csv")
  if [ -z "$bad" ]; then ok; else no "$e: a _frac value outside [0, 1]: $bad"; fi
  # summaries: no percent metrics any more
  if grep -q 'pct' "$tmp/c/$e.csv"; then no "$e summary has a percent metric"; else ok; fi
done
# missing values are empty: the hot spot that never starts (custom class 1)
# and mvcm bins without hot packets
if grep -q '^class1_latency_us,$' "$tmp/c/cu.csv" && grep -q '^class1_marked_frac,$' "$tmp/c/cu.csv" \
   && grep -q '^class1_packets,0$' "$tmp/c/cu.csv"; then ok
else no "custom: a class with nothing delivered: $(grep '^class1' "$tmp/c/cu.csv" | tr '\n' ' ')"; fi
if awk -F, 'NR > 1 && $3 == "" { e++ } NR > 1 && $3 == "0.0" { z++ } END { exit !(e > 0 && z == 0) }' "$tmp/c/mv_s.csv"
then ok; else no "mvcm series: empty hot latency expected where no hot packet was delivered"; fi
# recovery's standard output is the CSV alone; the time is in the summary
if awk -F, 'NR == 1 { h = ($0 == "time_us,rate_frac") } NF != 2 { bad = 1 } END { exit !(h && !bad && NR > 2) }' "$tmp/c/rc_s.csv" \
   && grep -q '^recovery_us,133693.869$' "$tmp/c/rc.csv"; then ok
else no "recovery: standard output not CSV only or no recovery_us"; fi
# --list of the sweeps: one `ibccsim EXPERIMENT` command per point, and
# those commands run by hand give the sweep's own rows, byte for byte
# (mvcm: with the hot spot and without, whose points need --hot-sources 0;
# wormhole: a varied segment with 'adaptive' and a flag passed through)
mkdir -p "$tmp/l" && (
  cd "$tmp/l" || exit 1
  "$asim" mvcm-sweep --k 2 --n 2 --loads 0.2,0.6 --jobs 1 --out ms.csv 2> /dev/null &&
  "$asim" mvcm-sweep --k 2 --n 2 --loads 0.2,0.6 --list > ms.cmds &&
  sh ms.cmds && [ "$(wc -l < ms.cmds)" -eq 8 ] && {
    echo "cmm,load_bytes_per_cycle,accepted_bytes_per_cycle,latency_cycles"
    for c in none rp pi mvcm; do for l in 0.2 0.6; do
      awk -F, -v c=$c -v l=$l '$1 == "accepted_bytes_per_cycle" { a = $2 }
        $1 == "latency_mean_cycles" { m = $2 }
        END { printf "%s,%s,%.5f,%.1f\n", c, l, a, m }' mvcm_sweep_${c}_$l.csv
    done; done; } > ms_list.csv && cmp -s ms.csv ms_list.csv
) && ok || no "mvcm-sweep --list: its commands do not give the sweep's rows"
(
  cd "$tmp/l" || exit 1
  "$asim" mvcm-sweep --k 2 --n 2 --loads 0.3 --hot-spot 100 --list > mh.cmds &&
  grep -q -- '--hot-packets 100' mh.cmds && ! grep -q -- '--hot-sources' mh.cmds &&
  grep -q -- '--hot-sources 0' ms.cmds
) && ok || no "mvcm-sweep --list: hot spot flags wrong"
(
  cd "$tmp/l" || exit 1
  g="--timers 50,150 --rates 0,4 --step 30"
  # shellcheck disable=SC2086
  "$asim" gran-sweep $g --jobs 1 --out gs.csv 2> /dev/null &&
  "$asim" gran-sweep $g --list > gs.cmds && sh gs.cmds &&
  [ "$(grep -c -- '--bin 0.3' gs.cmds)" -eq 4 ] && {
    echo "ccti_timer,marking_rate,victim_gbps,contributor_gbps,jain,var_gbps2"
    for t in 50 150; do for r in 0 4; do
      # var_gbps2: sample variance of max - min of F2..F5 from 120 ms on
      v=$(awk -F, 'NR > 1 && $1 >= 120000 { lo = $3; hi = $3
            for (k = 4; k <= 6; k++) { if ($k < lo) lo = $k; if ($k > hi) hi = $k }
            d = hi - lo; s += d; q += d * d; n++ }
          END { printf "%.5f", (q - s * s / n) / (n - 1) }' sweep_${t}_${r}_series.csv)
      awk -F, -v t=$t -v r=$r -v v="$v" '{ x[$1] = $2 }
        END { printf "%s,%s,%.4f,%.4f,%.4f,%s\n", t, r, x["flow1_gbps"],
              x["flow2_gbps"] / 4 + x["flow3_gbps"] / 4 + x["flow4_gbps"] / 4 + x["flow5_gbps"] / 4,
              x["jain_contributors"], v }' sweep_${t}_$r.csv
    done; done; } > gs_list.csv && cmp -s gs.csv gs_list.csv
) && ok || no "gran-sweep --list: its commands do not give the sweep's rows"
(
  cd "$tmp/l" || exit 1
  w="--vary seg --values 50,adaptive --case torus --size 2 --time 4 --warmup 1 --slack 100"
  # shellcheck disable=SC2086
  "$asim" wormhole-sweep $w --jobs 1 --out ws.csv 2> /dev/null &&
  "$asim" wormhole-sweep $w --list > ws.cmds && sh ws.cmds &&
  [ "$(grep -c -- '--slack 100' ws.cmds)" -eq 2 ] && {
    head -1 ws.csv
    for v in 50 adaptive; do
      awk -F, -v v=$v -v h="$(head -1 ws.csv)" 'BEGIN { n = split(h, c, ","); printf "%s", v }
        { x[$1] = $2 } END { for (i = 2; i <= n; i++) printf ",%s", (c[i] in x) ? sprintf("%g", x[c[i]]) : ""; printf "\n" }' \
        wormhole_sweep_$v.csv
    done; } > ws_list.csv && cmp -s ws.csv ws_list.csv
) && ok || no "wormhole-sweep --list: its commands do not give the sweep's rows"
# wormhole --routes: on the 3x3 torus ibcc's up/down routes spread equal
# next hops over the destination hosts, so the busiest switch output
# carries 64/35 = 1.8286 of the per-host load of uniform traffic; with one
# route per destination switch 80/35 = 2.2857 (5 pairs of switches of 16
# host pairs on a link next to the root); the route lengths stay the
# same; twohost refuses the flag
(cd "$tmp/c" &&
 for r in host switch; do
   "$asim" wormhole --case torus --routes $r --time 0.2 --warmup 0.1 --quiet --summary rt_$r.csv || exit 1
 done &&
 grep -qx 'route_load_max,1.8286' rt_host.csv && grep -qx 'route_load_max,2.2857' rt_switch.csv &&
 grep -qx 'path_switches_mean,2.3714' rt_host.csv && grep -qx 'path_switches_mean,2.3714' rt_switch.csv &&
 ! "$asim" wormhole --routes switch --time 0.2 > /dev/null 2>&1) && ok ||
  no "wormhole --routes: busiest link 1.8286 (host) and 2.2857 (switch), same lengths, twohost refuses"
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
