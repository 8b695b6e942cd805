#!/bin/sh
# The command line of ibccsim (issue 26): one option table per subcommand
# serves --opt value and --opt=value, --help (with ranges, units and
# defaults), the range messages and "did you mean"; `help SUB`,
# --version and the subcommand table; params.csv beside a summary and
# `ibccsim run DIR/params.csv` giving the same summary; progress on stderr
# (a line per 10%, never a carriage return into a file; --quiet and short
# runs print none). Prints RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
sim=$B/ibccsim
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
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
