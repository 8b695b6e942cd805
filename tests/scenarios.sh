#!/bin/sh
# Scenario files (ibccsim run FILE): the shipped examples run; a file gives
# the same bytes as the same flags on the command line; OpenSM option
# names map to the flags; bad files are refused with their line number.
# Results files are written completely, or the run fails naming the file
# (summary and series to /dev/full).
# Prints RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
B=${BUILD:-build}
case $B in /*) sim=$B/ibccsim ;; *) sim=$root/$B/ibccsim ;; esac
pass=0; fail=0
if [ ! -x "$sim" ]; then
  echo "FAIL scenarios: $sim not built"; echo "RESULT 0 1"; exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() { echo "FAIL scenarios: $1"; fail=$((fail + 1)); }

# the examples that run in seconds (the [G] ones take about 10 s each:
# their equivalence is checked below on short steps)
for f in twoswitch_run4_input twoswitch_iba mvcm_hotspot recovery_lipd; do
  if (cd "$tmp" && "$sim" run "$root/examples/scenarios/$f.ini" > "$f.out" 2>&1); then ok
  else no "examples/scenarios/$f.ini failed: $(tail -n 2 "$tmp/$f.out")"; fi
done
if "$sim" run examples/scenarios/fabric_check.ini | grep -q '^hosts=8 switches=6 links=16 routes_ok=56$'
then ok; else no "fabric_check.ini"; fi
[ -s "$tmp/twoswitch_run4_input.csv" ] && [ -s "$tmp/mvcm_hotspot.csv" ] && ok \
  || no "the examples wrote no summaries"

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
if "$sim" run "$tmp/missing.ini" 2> /dev/null; then no "a missing file was accepted"; else ok; fi
# results files (issue 13): written completely, or the run fails and
# says which file (a full disk: /dev/full)
ts="twoswitch --time 2 --victim-from 0.5 --victim-to 1.5 --quiet"
if "$sim" $ts --summary "$tmp/r.csv" --series "$tmp/r_series.csv" 2> "$tmp/r.err" \
   && [ "$(head -n 1 "$tmp/r.csv")" = "metric,value" ] \
   && [ "$(tail -n 1 "$tmp/r.csv")" = "conserved,1" ] \
   && [ "$(wc -l < "$tmp/r.csv")" -eq 21 ] \
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
else
  echo "skip: /dev/full is not writable here (write-error checks)"
fi
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
